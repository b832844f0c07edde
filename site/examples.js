// The guide's examples, run where they are read: every `$ grundy ...` line
// of a console block gets an editable copy and a Run button. The command
// runs in this page, in grundy compiled to WebAssembly (the playground's
// engine.js), and prints what the native binary prints: the command line's
// own text, not a copy of it in JavaScript.

// This file is at the site's root, beside the playground and examples/.
const here = import.meta.url;
const enginePromise = () => import(new URL('playground/engine.js', here).href);

/** Splits a command line into words as a POSIX shell does (quotes, backslashes). */
export function words(line) {
  const out = [];
  let word = null;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (word !== null) out.push(word);
      word = null;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unbalanced quote');
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1])) j++;
        text += line[j];
        j++;
      }
      if (j >= line.length) throw new Error('unbalanced quote');
      word = (word ?? '') + text;
      i = j + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[i + 1];
      i += 2;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== null) out.push(word);
  return out;
}

/** The arguments after `grundy`, and the variables set before it (`GRUNDY_SEARCH_STATS=1 grundy ...`). */
function commandOf(line) {
  const all = words(line.replace(/^\$\s*/, ''));
  const at = all.indexOf('grundy');
  if (at < 0 || !all.slice(0, at).every((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w))) return null;
  // One command: no pipes, redirections or command lists.
  if (all.some((w) => /^(\||\|\||&&|;|>|>>|<|#.*)$/.test(w))) return null;
  const env = {};
  for (const w of all.slice(0, at)) env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  return { args: all.slice(at + 1), env };
}

/** The text of files the command names (`script:examples/x.rhai`), fetched from the site. */
async function filesOf(args) {
  const files = {};
  for (const arg of args) {
    for (const name of arg.split(/[\s+]/)) {
      // `script:FILE`, `dag:FILE`, `nodekayles:FILE`, `hackenbush:FILE`, or a file alone.
      const m = name.match(/^(?:[a-z]+:)?([\w./-]+\.(?:rhai|dag|txt))$/);
      if (!m || m[1].includes('..') || m[1] in files) continue;
      try {
        const response = await fetch(new URL(m[1], here));
        if (response.ok) files[m[1]] = await response.text();
      } catch { /* the command says what is missing */ }
    }
  }
  return files;
}

let running = null;

// The Chinese chapters get Chinese buttons.
const zh = /\/zh\//.test(location.pathname);
const words_ = zh
  ? { run: '运行', stop: '停止', typed: '你输入的内容（每行一步）：', stopped: '（已停止）', only: '此页面只运行一条 grundy 命令：`grundy ...`（没有管道和重定向）', command: '命令', output: '输出', progress: '进度', busy: '另一条命令正在运行：请先停止它。' }
  : { run: 'Run', stop: 'Stop', typed: 'what you type (a line at a time):', stopped: '(stopped)', only: 'the page runs one grundy command: `grundy ...` (no pipes or redirections)', command: 'command', output: 'output', progress: 'progress', busy: 'another command is running: stop it first.' };

function panel(command, stdin) {
  const box = document.createElement('div');
  box.className = 'grundy-run';
  const form = document.createElement('form');
  const prompt = document.createElement('span');
  prompt.className = 'grundy-run-prompt';
  prompt.textContent = '$';
  const input = document.createElement('input');
  input.type = 'text';
  input.value = command;
  input.setAttribute('value', command);
  input.spellcheck = false;
  input.setAttribute('aria-label', `${words_.command}: ${command}`);
  const run = document.createElement('button');
  run.type = 'submit';
  run.textContent = words_.run;
  run.className = 'grundy-run-button';
  const stopButton = document.createElement('button');
  stopButton.type = 'button';
  stopButton.textContent = words_.stop;
  stopButton.hidden = true;
  const progress = document.createElement('progress');
  progress.hidden = true;
  progress.setAttribute('aria-label', words_.progress);
  const output = document.createElement('pre');
  output.className = 'grundy-run-output';
  output.hidden = true;
  output.tabIndex = 0;
  output.setAttribute('role', 'status');
  output.setAttribute('aria-live', 'polite');
  output.setAttribute('aria-label', words_.output);
  form.append(prompt, input, run, stopButton, progress);
  box.append(form);
  // A game played at the prompt: what the player types, one line a move.
  let typed = null;
  if (stdin !== undefined) {
    typed = document.createElement('textarea');
    typed.value = stdin;
    typed.rows = Math.min(6, Math.max(2, stdin.split('\n').length));
    typed.spellcheck = false;
    const label = document.createElement('label');
    label.className = 'grundy-run-stdin';
    label.append(words_.typed, typed);
    box.append(label);
  }
  box.append(output);

  let cancelled = false;
  stopButton.onclick = async () => {
    cancelled = true;
    (await enginePromise()).stop('cli');
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    output.hidden = false;
    if (running) {
      if (running !== box) output.textContent = `${words_.busy}\n`;
      return;
    }
    cancelled = false;
    output.textContent = '';
    output.classList.remove('failed');
    let command;
    try {
      command = commandOf(input.value.trim());
    } catch (e) {
      output.textContent = `cannot read the command: ${e.message}\n`;
      output.classList.add('failed');
      return;
    }
    if (!command) {
      output.textContent = `${words_.only}\n`;
      output.classList.add('failed');
      return;
    }
    running = box;
    run.disabled = true;
    stopButton.hidden = false;
    box.dataset.state = 'running';
    let status;
    try {
      const engine = await enginePromise();
      const files = await filesOf(command.args);
      // Stopped before it began: it does not begin.
      status = cancelled ? 130 : await engine.runCli(command.args, {
        stdin: typed ? typed.value.replace(/\n*$/, '\n') : '',
        env: command.env,
        files,
        // Appended, not rewritten: long outputs come in many pieces.
        onWrite: (_, text) => { output.append(document.createTextNode(text)); },
        onProgress: (done, total) => {
          progress.hidden = false;
          if (total > 0) {
            progress.max = total;
            progress.value = done;
            progress.title = `${done.toLocaleString('en')} of ${total.toLocaleString('en')}`;
          } else {
            progress.removeAttribute('value');
            progress.title = `${done.toLocaleString('en')} positions searched`;
          }
        },
      });
    } catch (e) {
      output.append(`grundy could not run in this page: ${e.message || e}\n`);
      status = 2;
    }
    if (status === 130) output.append(`${words_.stopped}\n`);
    else if (status !== 0) output.append(`? ${status}\n`);
    output.classList.toggle('failed', status !== 0);
    progress.hidden = true;
    const refocus = document.activeElement === stopButton;
    stopButton.hidden = true;
    run.disabled = false;
    if (refocus) run.focus();
    box.dataset.state = String(status);
    running = null;
  };
  return box;
}

function decorate() {
  for (const code of document.querySelectorAll('pre > code.language-console')) {
    const pre = code.parentElement;
    const commands = code.textContent.split('\n').filter((l) => /^\$ (?:[A-Z_]+=\S*\s+)*grundy(?:\s|$)/.test(l));
    if (!commands.length) continue;
    const runs = document.createElement('div');
    runs.className = 'grundy-runs';
    for (const line of commands) runs.append(panel(line.replace(/^\$\s*/, '')));
    pre.after(runs);
  }
  // A transcript of `grundy play`: the lines right after `your move?` are
  // what the player typed; they become the command's input.
  for (const code of document.querySelectorAll('pre > code.language-text')) {
    const lines = code.textContent.split('\n');
    if (!/^\$ grundy play\s/.test(lines[0])) continue;
    const typed = lines.filter((_, i) => i > 0 && /your move\?\s*$/.test(lines[i - 1]));
    const runs = document.createElement('div');
    runs.className = 'grundy-runs';
    runs.append(panel(lines[0].replace(/^\$\s*/, ''), typed.join('\n')));
    code.parentElement.after(runs);
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', decorate);
else decorate();
