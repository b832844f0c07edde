// Small DOM helpers and views' building blocks shared by the pages: fields,
// links in the address, sums and boards written as the command line writes
// them, the nim-sum worked out, the games' help and the pattern panel.
import { t, tOr } from './strings.js';
import { api, games } from './api.js';

export { t, tOr, language } from './strings.js';
export { api, ApiError, downloadLink, games, loadFiles, saveFiles } from './api.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export const PAGES = ['analyse', 'explain', 'sequence', 'boards', 'quotient', 'play', 'owngame'];

// ---------------------------------------------------------------- DOM

/**
 * Makes an element: `el('button', {class: 'x', onclick: f, testid: 'y'}, 'text', child)`.
 * A tag `svg:rect` makes an SVG element. `text` sets the text, `testid` the
 * data-testid; `value` and `checked` are set as properties.
 */
export function el(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const node = svg ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'text') node.textContent = v;
    else if (k === 'testid') node.setAttribute('data-testid', v);
    else if (k === 'style' && typeof v === 'object') {
      for (const [name, value] of Object.entries(v)) {
        if (name.startsWith('--')) node.style.setProperty(name, value);
        else node.style[name] = value;
      }
    }
    else if (k === 'value' || k === 'checked') node[k] = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A red box with the server's (or the network's) message. */
export function errorBox(error) {
  const message = error instanceof Error ? error.message : String(error);
  return el('div', { class: 'error', role: 'alert', testid: 'error' },
    el('strong', { text: t('error.title') + ' ' }), message);
}

/** A labelled text input: returns [wrapper, input]. */
export function field(label, attrs = {}) {
  const id = attrs.id || 'f-' + Math.random().toString(36).slice(2, 9);
  const input = el('input', { type: 'text', id, spellcheck: 'false', autocomplete: 'off', ...attrs });
  return [el('label', { class: 'field', for: id }, el('span', { text: label }), input), input];
}

/** A labelled checkbox: returns [label, input]. */
export function checkbox(label, attrs = {}) {
  const input = el('input', { type: 'checkbox', ...attrs });
  return [el('label', { class: 'check' }, input, ' ', label), input];
}

/** Keeps a page's state in the address (#/page?k=v) without reloading it. */
export function setParams(page, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '' && v !== false) q.set(k, v === true ? '1' : String(v));
  }
  const hash = '#/' + page + (q.toString() ? '?' + q.toString().replace(/\+/g, '%20') : '');
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** Goes to a page (a new history entry), e.g. go('analyse', {sum: 'nim 3'}). */
export function go(page, params = {}) {
  const q = new URLSearchParams(params).toString().replace(/\+/g, '%20');
  location.hash = '#/' + page + (q ? '?' + q : '');
}

export function link(page, params, text, attrs = {}) {
  const q = new URLSearchParams(params).toString().replace(/\+/g, '%20');
  return el('a', { href: '#/' + page + (q ? '?' + q : ''), ...attrs }, text);
}


// ---------------------------------------------------------------- sums and moves

/** A sum's text as components: "nim 3 5 + sub:1-3 4" -> [{game, position}...]. */
export function parseSum(text) {
  const components = [];
  let game = null;
  for (const word of (text || '').trim().split(/\s+/)) {
    if (!word) continue;
    if (word === '+') { game = null; continue; }
    if (game === null) { game = word; continue; }
    components.push({ game, position: word });
  }
  return components;
}

/** Components back to a sum's text, neighbours of one game grouped. */
export function sumText(components) {
  const groups = [];
  let last = null;
  for (const c of components) {
    if (c.game === last) groups[groups.length - 1] += ' ' + c.position;
    else { groups.push(c.game + ' ' + c.position); last = c.game; }
  }
  return groups.join(' + ');
}

/** The cell a Treblecross move marks (1-based), or null. */
export function markedCell(from, to) {
  if (to.length !== 1 || to[0].length !== from.length) return null;
  let cell = null;
  for (let i = 0; i < from.length; i++) {
    if (from[i] !== to[0][i]) {
      if (cell !== null) return null;
      cell = i + 1;
    }
  }
  return cell;
}

/**
 * A Cram board's text (`4x5`, or rows of `.` empty and `#` filled joined by
 * `/`, row 1 on top) as {rows, cols, cells}, cells[r][c] true when filled; or null.
 */
export function parseCram(text) {
  const s = String(text || '').trim();
  const size = /^(\d+)x(\d+)$/i.exec(s);
  if (size) {
    const rows = +size[1];
    const cols = +size[2];
    if (!rows || !cols || rows * cols > 4096) return null;
    return { rows, cols, cells: Array.from({ length: rows }, () => new Array(cols).fill(false)) };
  }
  const lines = s.split('/');
  const cols = lines[0].length;
  if (!cols || lines.some((l) => l.length !== cols || !/^[.#]+$/.test(l))) return null;
  return { rows: lines.length, cols, cells: lines.map((l) => l.split('').map((ch) => ch === '#')) };
}

/** A Cram board's text in one spelling (rows joined by `/`), to compare boards. */
export function cramKey(text) {
  const b = parseCram(text);
  return b ? b.cells.map((row) => row.map((f) => (f ? '#' : '.')).join('')).join('/') : null;
}

/** A Cram cell's name as the command line writes it: column letter, row from 1 at the top ("b3"). */
export function cellName(r, col) {
  const letter = (k) => String.fromCharCode(97 + k);
  const letters = col < 26 ? letter(col) : letter(Math.floor(col / 26) - 1) + letter(col % 26);
  return letters + (r + 1);
}

/** A Chomp bar's text (`6x6`, or row lengths bottom row first, `5,5,3`) as row lengths; or null. */
export function parseChomp(text) {
  const s = String(text || '').trim();
  const size = /^(\d+)x(\d+)$/i.exec(s);
  if (size) {
    const rows = +size[1];
    const cols = +size[2];
    if (!rows || !cols || rows > 4096) return null;
    return new Array(rows).fill(cols);
  }
  if (!/^\d+(,\d+)*$/.test(s)) return null;
  const rows = s.split(',').map(Number).filter((n) => n > 0);
  return rows.length ? rows : null;
}

/** A Chomp bar's text in one spelling (row lengths joined by `,`), to compare bars. */
export function chompKey(text) {
  const rows = parseChomp(text);
  return rows ? rows.join(',') : null;
}

/** A Cram move as "domino b1-c1", or null when it is not one domino. */
function dominoText(from, to) {
  const a = parseCram(from);
  const b = to.length === 1 ? parseCram(to[0]) : null;
  if (!a || !b || a.rows !== b.rows || a.cols !== b.cols) return null;
  const placed = [];
  for (let r = 0; r < a.rows; r++) {
    for (let c = 0; c < a.cols; c++) if (a.cells[r][c] !== b.cells[r][c]) placed.push(cellName(r, c));
  }
  return placed.length === 2 ? t('move.domino', { a: placed[0], b: placed[1] }) : null;
}

/** A Chomp move as "take row 2 column 3" (row 1 at the bottom), or null. */
function biteText(from, to) {
  const a = parseChomp(from);
  const b = to.length === 1 ? parseChomp(to[0]) : to.length === 0 ? [] : null;
  if (!a || !b) return null;
  const r = a.findIndex((len, i) => (b[i] || 0) !== len);
  return r < 0 ? null : t('move.bite', { r: r + 1, c: (b[r] || 0) + 1 });
}

/** What a move does, as the command line writes it: "3 -> 1", "9 -> 6 + 1", "mark cell 7", "domino a1-b1". */
export function moveWhat(m, game) {
  if (game === 'treblecross') {
    const cell = markedCell(m.from, m.to);
    if (cell !== null) return t('move.markCell', { cell });
  }
  if (/^cram(:|$)/.test(game)) {
    const text = dominoText(m.from, m.to);
    if (text !== null) return text;
  }
  if (/^chomp(:|$)/.test(game)) {
    const text = biteText(m.from, m.to);
    if (text !== null) return text;
  }
  const to = m.to.length ? m.to.join(' + ') : t('move.nothing');
  return `${m.from} -> ${to}`;
}

/** A move as the command line lists it: "[2] sub:1-3: 4 -> 2". */
export function moveText(m, game) {
  return `[${m.component + 1}] ${game}: ${moveWhat(m, game)}`;
}

/**
 * A move's text as nodes, each "->" kept whole: a long move wraps around its
 * arrow, never between "-" and ">". The text itself is unchanged.
 */
export function keepArrows(text) {
  return String(text).split('->').flatMap((part, i) => (i ? [el('span', { class: 'arrow', text: '->' }), part] : [part]));
}

/** A value for people: numbers as they are, loopy values with ∞. */
export function showValue(v) {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'number') return String(v);
  return String(v).replace(/^inf/, '∞');
}

/** A value as a BigInt, or null when it is not a number (loopy, "win"). */
export function bigValue(v) {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return null;
}

export function winnerText(winner, misere) {
  const key = { first: 'winner.first', second: 'winner.second', draw: 'winner.draw' }[winner] || 'winner.draw';
  return t(key) + (misere ? ' ' + t('winner.misereSuffix') : '');
}

/**
 * The nim-sum worked out in binary, column by column, as the tutorials do:
 * one row per value, the count of 1s under each column, and the XOR row.
 * `rows` are [{label, value}] with BigInt values.
 */
export function nimSumWork(rows) {
  let total = 0n;
  for (const r of rows) total ^= r.value;
  const width = Math.max(1, ...rows.map((r) => r.value.toString(2).length));
  const bits = (v) => v.toString(2).padStart(width, '0').split('');
  const counts = new Array(width).fill(0);
  for (const r of rows) bits(r.value).forEach((b, i) => { if (b === '1') counts[i]++; });
  const head = el('tr', {}, el('th', { scope: 'col', text: t('nimsum.component') }),
    el('th', { scope: 'col', class: 'num', text: t('nimsum.value') }),
    counts.map((_, i) => el('th', { scope: 'col', class: 'bit', text: '2' + sup(width - 1 - i) })));
  const body = rows.map((r) => el('tr', {}, el('td', {}, el('span', { class: 'label', text: r.label })), el('td', { class: 'num', text: r.value.toString() }),
    bits(r.value).map((b, i) => el('td', { class: 'bit' + (b === '1' ? ' one' : '') + (counts[i] % 2 ? ' oddcol' : ''), text: b }))));
  const countRow = el('tr', { class: 'counts' }, el('td', { text: t('nimsum.ones') }), el('td'),
    counts.map((c, i) => el('td', { class: 'bit' + (c % 2 ? ' oddcol' : ''), text: String(c) })));
  const xorRow = el('tr', { class: 'xor' }, el('td', { text: t('nimsum.xorRow') }), el('td', { class: 'num', text: total.toString() }),
    bits(total).map((b, i) => el('td', { class: 'bit' + (counts[i] % 2 ? ' oddcol' : ''), text: b })));
  return el('div', { class: 'nimsum', testid: 'nimsum-work' },
    el('table', { class: 'bits' }, el('thead', {}, head), el('tbody', {}, body, countRow, xorRow)),
    el('p', { class: 'explain', text: t('nimsum.rule') }),
    el('p', { class: 'explain', text: total === 0n ? t('nimsum.zero') : t('nimsum.nonzero', { x: total.toString() }) }));
}

function sup(n) {
  const digits = '⁰¹²³⁴⁵⁶⁷⁸⁹';
  return String(n).split('').map((d) => digits[+d]).join('');
}

/** The help under a sum's input: every family, its syntax, a clickable example. */
export function gamesHelp(onExample, { open = false } = {}) {
  const list = el('div', { class: 'games-list' }, el('p', { class: 'muted', text: t('common.loading') }));
  const box = el('details', { class: 'help', open, testid: 'games-help' },
    el('summary', { text: t('help.games') }),
    el('p', { class: 'muted', text: t('help.syntax') }), list);
  games().then((gs) => {
    list.replaceChildren(el('table', { class: 'games' },
      el('thead', {}, el('tr', {}, el('th', { text: t('help.spec') }), el('th', { text: t('help.position') }),
        el('th', { text: t('help.about') }), el('th', { text: t('help.example') }))),
      el('tbody', {}, gs.map((g) => el('tr', {},
        el('td', {}, el('code', { text: g.spec })),
        el('td', {}, el('code', { text: g.position })),
        el('td', { text: tOr('about.' + g.spec, g.about) }),
        el('td', {}, el('button', {
          type: 'button', class: 'linklike', testid: 'example', text: g.example,
          onclick: () => onExample(g.example),
        })))))));
  }).catch((e) => list.replaceChildren(errorBox(e)));
  return box;
}

// ---------------------------------------------------------------- patterns

/**
 * A panel with the pattern `grundy pattern` finds for `game` (values, or
 * who wins), whether it is proven, and its O(1) code with a copy button.
 * It fills itself in when the answer comes.
 */
export function patternPanel(game, max) {
  const panel = el('section', { class: 'pattern-panel', testid: 'pattern-panel' },
    el('p', { class: 'muted small', text: t('pattern.looking') }));
  let outcome = false;
  let language = 'cpp';
  let answer = null;
  const load = async () => {
    panel.replaceChildren(el('p', { class: 'muted small', text: t('pattern.looking') }));
    try {
      answer = await api('/api/pattern', max === undefined ? { game, outcome } : { game, outcome, max });
    } catch (e) {
      panel.replaceChildren(errorBox(e));
      return;
    }
    draw();
  };
  const draw = () => {
    const a = answer;
    const facts = {
      periodic: () => t('pattern.periodic', { e: a.preperiod, p: a.period }),
      'arithmetic-periodic': () => t('pattern.arithmetic', { e: a.preperiod, p: a.period, s: a.saltus }),
      runs: () => t('pattern.runs', { start: a.start, first: a.first, length: a.length, step: a.step }),
      'periodic-2d': () => t('pattern.periodic2d', { r0: a.offset[0], c0: a.offset[1], pr: a.period[0], pc: a.period[1] }),
      'periodic-rows': () => t('pattern.periodicRows', { r0: a.origin[0], r1: a.origin[0] + a.rows.length - 1,
        periods: a.rows.map((row) => row.period).join(', ') }),
      none: () => t('pattern.none'),
    }[a.kind]();
    const code = a.code[language];
    const pre = el('pre', { class: 'pattern-code mono small', testid: 'pattern-code', text: code || '' });
    const copy = el('button', { type: 'button', class: 'button', testid: 'pattern-copy', text: t('pattern.copy'),
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(code);
          copy.textContent = t('pattern.copied');
        } catch {
          // No clipboard (an insecure origin): select the code for Ctrl-C.
          const range = document.createRange();
          range.selectNodeContents(pre);
          const selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          copy.textContent = t('pattern.selected');
        }
      } });
    const choose = el('select', { 'aria-label': t('pattern.language'), testid: 'pattern-language',
      onchange: (e) => { language = e.target.value; draw(); } },
      [['cpp', 'C++'], ['python', 'Python'], ['rust', 'Rust']].map(([v, label]) =>
        el('option', { value: v, text: label, selected: v === language })));
    const toggle = el('label', { class: 'small' },
      el('input', { type: 'checkbox', testid: 'pattern-outcome', checked: outcome,
        onchange: (e) => { outcome = e.target.checked; load(); } }), ' ' + t('pattern.outcome'));
    panel.replaceChildren(...[
      el('h3', { text: t('pattern.title') }),
      el('p', { class: 'pattern-facts', testid: 'pattern-facts' }, el('strong', { text: facts + ' ' }),
        a.kind === 'none' ? null : el('span', { class: 'badge ' + (a.proven ? 'proven' : 'observed'),
          text: a.proven ? t('seq.proven') : t('seq.observed') })),
      a.outcome && !outcome
        ? el('p', { class: 'small', testid: 'pattern-fallback', text: t('pattern.fallback') })
        : null,
      a.exceptions && a.exceptions.length
        ? el('p', { class: 'small', testid: 'pattern-exceptions', text: t('pattern.exceptions', {
          list: a.exceptions.map(([r, c, v]) => `${r},${c} (${a.outcome ? (v ? 'N' : 'P') : v})`).join(', ') }) })
        : null,
      el('p', { class: 'method small muted', text: a.method }),
      toggle,
      code ? el('div', { class: 'pattern-tools' }, choose, ' ', copy) : null,
      code ? el('div', { class: 'scroll' }, pre) : null,
    ].filter(Boolean));
  };
  load();
  return panel;
}
