// Your game: a Rhai script or an edge list kept in the browser; every request
// then carries it, so script:NAME and dag:NAME work on every page.
import { api, el, t, errorBox, field, loadFiles, saveFiles, link, moveText, showValue, winnerText, keepArrows } from './ui.js';

export const EXAMPLE_SCRIPT = `// Take 1, 2 or 3 stones from a heap of n; whoever takes the last stone wins.
fn name() { "take 1, 2 or 3" }

fn moves(n) {
    let out = [];
    for k in 1..=3 {
        if k <= n { out.push(n - k); }
    }
    out
}
`;

export const EXAMPLE_GRAPH = `# A small graph: one "FROM TO" edge a line; the cycle a -> b -> c -> a allows draws.
a b
b c
c a
c d
d e
b e
`;

export function render(root) {
  const [nameField, name] = field(t('own.name'), { testid: 'own-name', value: 'mygame.rhai', placeholder: 'mygame.rhai' });
  const text = el('textarea', { id: 'own-text', testid: 'own-text', rows: 14, spellcheck: 'false', class: 'code' });
  const [posField, position] = field(t('own.tryPosition'), { testid: 'own-position', value: '10', class: 'short' });
  const saved = el('div', { class: 'saved', testid: 'own-saved' });
  const output = el('section', { class: 'result', 'aria-live': 'polite', testid: 'own-output' });

  root.append(
    el('h1', { text: t('own.title') }),
    el('p', { class: 'lead', text: t('own.lead') }),
    el('div', { class: 'examples' },
      el('button', { type: 'button', class: 'chip', testid: 'own-example-script', text: t('own.exampleScript'),
        onclick: () => { name.value = 'mygame.rhai'; text.value = EXAMPLE_SCRIPT; position.value = '10'; } }),
      el('button', { type: 'button', class: 'chip', testid: 'own-example-graph', text: t('own.exampleGraph'),
        onclick: () => { name.value = 'graph.txt'; text.value = EXAMPLE_GRAPH; position.value = 'a'; } })),
    el('form', { class: 'own-form', onsubmit: (e) => { e.preventDefault(); save(); } },
      nameField,
      el('label', { for: 'own-text', class: 'field wide' }, el('span', { text: t('own.text') }), text),
      el('p', { class: 'small muted', text: t('own.syntax') }),
      el('div', { class: 'row' }, posField,
        el('button', { type: 'submit', class: 'primary', testid: 'own-save', text: t('own.save') }))),
    output,
    el('h2', { text: t('own.saved') }),
    saved,
  );

  function spec(fileName) {
    return (fileName.endsWith('.rhai') ? 'script:' : 'dag:') + fileName;
  }

  async function save() {
    const n = name.value.trim();
    if (!/^[\w.-]+$/.test(n)) {
      output.replaceChildren(errorBox(t('own.badName')));
      return;
    }
    const files = loadFiles();
    files[n] = text.value;
    saveFiles(files);
    listSaved();
    await tryIt(n, position.value.trim() || (n.endsWith('.rhai') ? '10' : 'a'));
  }

  async function tryIt(fileName, pos) {
    const sum = `${spec(fileName)} ${pos}`;
    output.replaceChildren(el('p', { class: 'muted', text: t('common.computing') }));
    try {
      const r = await api('/api/value', { sum, misere: false, max_moves: 20 });
      const c = r.components[0];
      output.replaceChildren(el('div', {},
        el('p', { class: 'ok', testid: 'own-ok' }, t('own.works', { sum }), ' ',
          el('strong', { testid: 'own-value', text: t('own.valueIs', { g: showValue(c.grundy) }) }), ' · ', winnerText(r.winner, false)),
        r.winning_moves.length ? el('ul', { class: 'moves' }, r.winning_moves.map((m) => el('li', { class: 'mono small' }, keepArrows(moveText(m, c.game))))) : null,
        el('p', { class: 'actions' }, t('own.useIt') + ' ',
          link('analyse', { sum }, t('nav.analyse'), { class: 'button', testid: 'own-analyse' }), ' ',
          link('play', { sum }, t('nav.play'), { class: 'button', testid: 'own-play' }), ' ',
          link('explain', { game: spec(fileName), position: pos }, t('nav.explain'), { class: 'button' }), ' ',
          fileName.endsWith('.rhai') ? link('sequence', { game: spec(fileName), from: 0, to: 100 }, t('nav.sequence'), { class: 'button' }) : null)));
    } catch (e) {
      output.replaceChildren(errorBox(e));
    }
  }

  function listSaved() {
    const files = loadFiles();
    const names = Object.keys(files).sort();
    if (!names.length) {
      saved.replaceChildren(el('p', { class: 'muted', text: t('own.none') }));
      return;
    }
    saved.replaceChildren(el('ul', { class: 'files' }, names.map((n) => el('li', {},
      el('code', { text: spec(n) }), ' ',
      el('button', { type: 'button', class: 'linklike', text: t('own.edit'), onclick: () => { name.value = n; text.value = files[n]; text.focus(); } }), ' ',
      el('button', { type: 'button', class: 'linklike danger', text: t('own.delete'), onclick: () => {
        const now = loadFiles();
        delete now[n];
        saveFiles(now);
        listSaved();
      } })))));
  }

  const files = loadFiles();
  const firstName = Object.keys(files)[0];
  if (firstName) {
    name.value = firstName;
    text.value = files[firstName];
    position.value = firstName.endsWith('.rhai') ? '10' : (firstName && (files[firstName].match(/^\s*([^#\s]+)/m) || [])[1]) || 'a';
  } else {
    text.value = EXAMPLE_SCRIPT;
  }
  listSaved();
}
