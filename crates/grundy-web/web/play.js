// Play: a game against the computer on a board per component, with hints
// (green / red / grey moves), undo and redo, and a timeline of the nim-sum
// that shows where a winning position was given away.
import {
  api, el, t, errorBox, checkbox, setParams, parseSum, moveText, moveWhat, showValue, bigValue,
  loadFiles, link, gamesHelp, parseCram, cramKey, cellName, parseChomp, chompKey, keepArrows,
} from './ui.js';

const REPLY_DELAY_MS = 700;
const RANK = { win: 2, draw: 1, lose: 0 };
const BEST = { first: 'win', draw: 'draw', second: 'lose' };

/** The game in progress; kept across renders (a language switch keeps it). */
let game = null;
let view = null; // the elements of the rendered page

export function render(root, params) {
  const presets = [
    [t('play.preset.nim'), 'nim 3 5 7'],
    [t('play.preset.kayles'), 'kayles 4 7'],
    [t('play.preset.dawson'), 'dawson 10'],
    [t('play.preset.grundy'), 'grundy 9'],
    [t('play.preset.knight'), 'knight:8 7,7 5,6'],
    [t('play.preset.choco'), 'choco 4x6'],
    [t('play.preset.treblecross'), 'treblecross ...........'],
    [t('play.preset.cram'), 'cram 4x5'],
    [t('play.preset.chomp'), 'chomp 6x6'],
  ];
  const own = ownGamePreset();

  const sum = el('input', {
    type: 'text', id: 'play-sum', class: 'sum-input', testid: 'play-sum', spellcheck: 'false', autocomplete: 'off',
    value: params.get('sum') || (game ? game.start : 'nim 3 5 7'),
  });
  const first = el('select', { id: 'play-first', testid: 'play-first' },
    el('option', { value: 'me', text: t('play.firstMe') }),
    el('option', { value: 'computer', text: t('play.firstComputer') }));
  first.value = params.get('first') === 'computer' || (!params.get('first') && game && game.first === 'computer') ? 'computer' : 'me';
  const [misereLabel, misere] = checkbox(t('common.misere'), { testid: 'play-misere', checked: params.get('misere') === '1' || (!params.has('sum') && game && game.misere) });
  const hintsOn = params.get('hints') !== '0' && !(game && game.hints === false && !params.has('hints'));
  const [hintsLabel, hints] = checkbox(t('play.hints'), { testid: 'play-hints', checked: hintsOn });
  hints.addEventListener('change', () => {
    if (game) { game.hints = hints.checked; draw(); }
    saveParams();
  });

  const board = el('section', { class: 'play-area', testid: 'play-area', 'aria-live': 'polite' });
  root.append(
    el('h1', { text: t('play.title') }),
    el('form', { class: 'sumform', onsubmit: (e) => { e.preventDefault(); start(); } },
      el('label', { for: 'play-sum', class: 'big-label', text: t('play.label') }),
      el('div', { class: 'row' }, sum, el('button', { type: 'submit', class: 'primary', testid: 'play-start', text: t('play.start') })),
      el('div', { class: 'examples' }, el('span', { class: 'muted', text: t('play.presets') + ' ' }),
        presets.map(([label, text]) => el('button', {
          type: 'button', class: 'chip', text: label, testid: 'preset',
          onclick: () => { sum.value = text; start(); },
        })),
        own ? el('button', { type: 'button', class: 'chip', testid: 'preset-own', text: t('play.preset.own'), onclick: () => { sum.value = own; start(); } })
          : link('owngame', {}, t('play.preset.ownMissing'), { class: 'chip' })),
      el('div', { class: 'row small wrap' },
        el('label', { class: 'check', for: 'play-first' }, t('play.first') + ' ', first), misereLabel, hintsLabel)),
    gamesHelp((example) => { sum.value = example; start(); }),
    board,
  );
  view = { board, hints, misere, first, sum };

  function saveParams() {
    setParams('play', { sum: game ? game.start : sum.value.trim(), first: first.value === 'computer' ? 'computer' : '', misere: misere.checked, hints: hints.checked ? '' : '0' });
  }

  function start() {
    const text = sum.value.trim();
    stopTimer();
    if (!text) {
      board.replaceChildren(errorBox(t('analyse.empty')));
      return;
    }
    game = {
      start: text, first: first.value, misere: misere.checked, hints: hints.checked,
      entries: [{ sum: text, turn: first.value === 'me' ? 'you' : 'computer', who: null, move: null, info: null, over: false }],
      redo: [], busy: false, timer: null, error: null, selection: null, note: null,
    };
    saveParams();
    advance();
  }

  const wanted = params.get('sum');
  if (game && (!wanted || wanted === game.start) && (!params.has('first') || params.get('first') === game.first)) {
    game.hints = hints.checked;
    saveParams();
    advance();
  } else if (wanted) {
    start();
  } else {
    board.replaceChildren(el('p', { class: 'muted', text: t('play.intro') }));
  }
  return () => { stopTimer(); view = null; };
}

function ownGamePreset() {
  const files = loadFiles();
  const names = Object.keys(files);
  const script = names.find((n) => n.endsWith('.rhai'));
  if (script) return `script:${script} 10`;
  const graph = names[0];
  if (!graph) return null;
  const edges = parseEdges(files[graph]);
  return edges.length ? `dag:${graph} ${edges[0][0]}` : null;
}

function stopTimer() {
  if (game && game.timer) {
    clearTimeout(game.timer);
    game.timer = null;
    game.busy = false;
  }
}

const last = (a) => a[a.length - 1];
const other = (who) => (who === 'you' ? 'computer' : 'you');

/** Loads what the current position needs, draws it, and lets the computer move. */
async function advance() {
  const g = game;
  const cur = last(g.entries);
  if (!cur.info && !cur.sum) cur.info = { moves: [], truncated: false, winner: 'second', nim_sum: g.misere ? undefined : 0 };
  if (!cur.info && cur.sum) {
    try {
      cur.info = await api('/api/moves', { sum: cur.sum, misere: g.misere });
    } catch (e) {
      if (g !== game) return;
      if (g.entries.length === 1) { g.error = e; draw(); return; }
      cur.info = null;
      g.note = e.message;
    }
    if (g !== game) return;
  }
  if (!cur.over && (!cur.sum || (cur.info && cur.info.moves.length === 0))) cur.over = true;
  if (!cur.over && repeated(g)) cur.draw = true;
  g.error = null;
  draw();
  if (!cur.over && !cur.draw && cur.turn === 'computer' && !g.timer && !g.busy && view) {
    g.busy = true;
    g.timer = setTimeout(() => computerMove(g), REPLY_DELAY_MS);
  }
}

/** A loopy game that comes back to the same position three times is a draw. */
function repeated(g) {
  const cur = last(g.entries);
  return g.entries.filter((e) => e.sum === cur.sum && e.turn === cur.turn).length >= 3;
}

async function computerMove(g) {
  g.timer = null;
  if (g !== game) return;
  const cur = last(g.entries);
  try {
    const r = await api('/api/reply', { sum: cur.sum, misere: g.misere });
    if (g !== game || last(g.entries) !== cur) return;
    if (!r.move) {
      cur.over = true;
    } else {
      g.entries.push({ sum: r.sum, turn: 'you', who: 'computer', move: r.move, info: null, over: r.over, game: gameOf(cur.sum, r.move.component) });
    }
  } catch (e) {
    g.note = e.message;
  }
  g.busy = false;
  advance();
}

async function playerMove(m) {
  const g = game;
  if (!g || g.busy) return;
  const cur = last(g.entries);
  if (cur.over || cur.draw || cur.turn !== 'you') return;
  g.busy = true;
  g.selection = null;
  g.note = null;
  try {
    const r = await api('/api/apply', { sum: cur.sum, component: m.component, to: m.to, misere: g.misere });
    if (g !== game) return;
    const best = cur.info ? BEST[cur.info.winner] : null;
    const mistake = best !== null && m.outcome !== undefined && RANK[m.outcome] < RANK[best];
    g.entries.push({ sum: r.sum, turn: 'computer', who: 'you', move: m, outcome: m.outcome, mistake, info: null, over: r.over, game: gameOf(cur.sum, m.component) });
    g.redo = [];
  } catch (e) {
    g.note = e.message;
  }
  g.busy = false;
  advance();
}

function gameOf(sum, component) {
  const c = parseSum(sum)[component];
  return c ? c.game : '?';
}

function undo() {
  const g = game;
  if (!g || !g.entries.some((e) => e.who === 'you')) return;
  stopTimer();
  let popped;
  do {
    popped = g.entries.pop();
    g.redo.push(popped);
  } while (popped.who !== 'you' && g.entries.length > 1);
  g.selection = null;
  advance();
}

function redo() {
  const g = game;
  if (!g || !g.redo.length) return;
  stopTimer();
  do {
    g.entries.push(g.redo.pop());
  } while (g.redo.length && last(g.entries).turn !== 'you' && !last(g.entries).over);
  g.selection = null;
  advance();
}

/** Who won a finished game. */
function result(g) {
  const cur = last(g.entries);
  if (cur.draw) return 'draw';
  if (cur.info && cur.info.winner === 'draw' && cur.info.moves.length === 0) return 'draw';
  if (cur.who === null) return g.misere ? cur.turn : other(cur.turn);
  return g.misere ? other(cur.who) : cur.who;
}

// ---------------------------------------------------------------- drawing

function draw() {
  if (!view || !game) return;
  const g = game;
  const { board } = view;
  if (g.error) {
    board.replaceChildren(errorBox(g.error));
    return;
  }
  const cur = last(g.entries);
  const hints = g.hints;
  const info = cur.info || { moves: [] };
  const parts = [];

  // status: whose turn, or the winner
  if (cur.over || cur.draw) {
    const who = result(g);
    const text = who === 'you' ? t('play.youWin') : who === 'computer' ? t('play.computerWins') : t('play.drawn');
    parts.push(el('div', { class: 'announce ' + who, role: 'status', testid: 'game-over' }, text,
      el('button', { type: 'button', class: 'button again', testid: 'play-again', text: t('play.again'), onclick: () => document.querySelector('[data-testid=play-start]').click() })));
  } else if (cur.turn === 'computer') {
    parts.push(el('p', { class: 'status thinking', testid: 'status' }, t('play.thinking')));
  } else {
    let hint = '';
    if (hints && cur.info) {
      const ns = bigValue(cur.info.nim_sum) !== null ? t('play.nimsumIs', { x: showValue(cur.info.nim_sum) }) + ' ' : '';
      hint = ns + (cur.info.winner === 'first' ? t('play.hintWinning') : cur.info.winner === 'second' ? t('play.hintLosing') : t('play.hintDraw'));
    }
    parts.push(el('p', { class: 'status', testid: 'status' }, el('strong', { text: t('play.yourTurn') }), hint ? ' ' + hint : ''));
  }
  const lastMove = g.entries.length > 1 ? last(g.entries) : null;
  if (lastMove && lastMove.who === 'computer') {
    parts.push(el('p', { class: 'small', testid: 'computer-move' }, keepArrows(t('play.computerPlayed', { move: moveText(lastMove.move, lastMove.game) }))));
  }
  if (g.note) parts.push(errorBox(g.note));

  // the boards, one per component
  const components = parseSum(cur.sum);
  const canMove = !cur.over && !cur.draw && cur.turn === 'you' && !g.busy;
  const boards = el('div', { class: 'boards' });
  components.forEach((c, i) => {
    const moves = info.moves.filter((m) => m.component === i);
    const drawn = boardFor(c, i, moves, canMove, hints);
    boards.append(el('figure', { class: 'component', testid: 'component-board' },
      el('figcaption', {}, el('span', { class: 'muted', text: `[${i + 1}] ` }), el('code', { text: c.game }), ' ', el('code', { class: 'pos', text: c.position })),
      drawn || el('p', { class: 'muted small', text: t('play.useList') })));
  });
  if (!components.length) boards.append(el('p', { class: 'muted', text: t('play.nothingLeft') }));
  parts.push(boards);

  // the list of legal moves, always
  if (info.moves.length && !cur.over) {
    parts.push(el('h2', { text: t('play.legalMoves', { n: info.moves.length }) }));
    const item = (swatch, text) => el('span', { class: 'item' }, el('span', { class: 'swatch ' + swatch }), text);
    if (hints) parts.push(el('p', { class: 'legend small' }, item('win', t('play.legendWin')), item('lose', t('play.legendLose')), item('draw', t('play.legendDraw'))));
    parts.push(el('ul', { class: 'moves' }, info.moves.map((m) => el('li', {}, el('button', {
      type: 'button', class: 'move ' + (hints ? m.outcome : 'plain'), testid: 'play-move', 'data-outcome': hints ? m.outcome : null,
      disabled: !canMove, onclick: () => playerMove(m),
    }, keepArrows(moveText(m, components[m.component] ? components[m.component].game : '?')))))));
    if (info.truncated) parts.push(el('p', { class: 'muted small', text: t('play.truncated') }));
  }

  // undo, redo, the timeline
  parts.push(el('div', { class: 'row' },
    el('button', { type: 'button', class: 'button', testid: 'undo', text: t('play.undo'), disabled: !g.entries.some((e) => e.who === 'you'), onclick: undo }),
    el('button', { type: 'button', class: 'button', testid: 'redo', text: t('play.redo'), disabled: !g.redo.length, onclick: redo })));
  parts.push(timeline(g));
  view.board.replaceChildren(...parts);
}

function timeline(g) {
  const items = g.entries.map((e, k) => {
    const after = e.info
      ? (g.misere || bigValue(e.info.nim_sum) === null ? t('play.tlWinner.' + e.info.winner) : '⊕ ' + showValue(e.info.nim_sum))
      : '…';
    const what = k === 0 ? t('play.tlStart') : `${e.who === 'you' ? t('play.you') : t('play.computer')}: [${e.move.component + 1}] ${moveWhat(e.move, e.game)}`;
    const cls = 'tl ' + (e.who || 'start') + (e.mistake ? ' mistake' : '') + (e.who === 'you' && !e.mistake && e.outcome === 'win' ? ' good' : '');
    return el('li', { class: cls, testid: 'timeline-entry', title: e.mistake ? t('play.mistake') : '' },
      el('span', { class: 'tl-move' }, keepArrows(`${k}. ${what}`)), el('span', { class: 'tl-after', text: after }));
  });
  const mistakes = g.entries.filter((e) => e.mistake).length;
  return el('section', { class: 'timeline-box' },
    el('h2', { text: t('play.timeline') }),
    el('p', { class: 'small muted', text: g.misere ? t('play.timelineMisere') : t('play.timelineAbout') }),
    el('ol', { class: 'timeline', testid: 'timeline' }, items),
    mistakes ? el('p', { class: 'small mistake-note', text: t('play.mistakes', { n: mistakes }) }) : null);
}

// ---------------------------------------------------------------- boards

function outcomeClass(m, hints) {
  if (!m) return 'illegal';
  return hints ? m.outcome : 'legal';
}

function sortedKey(parts) {
  return parts.slice().sort((a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)).join('+');
}

function boardFor(c, index, moves, canMove, hints) {
  const act = (m) => (m && canMove ? () => playerMove(m) : null);
  const game = c.game;
  if (game === 'treblecross' && /^[.X]+$/i.test(c.position)) return treblecross(c, moves, act, hints, canMove);
  let match = /^knight:(\d+)$/.exec(game);
  if (match) return knight(+match[1], c, moves, act, hints, canMove);
  if (/^choco/.test(game) && /^\d+x\d+$/.test(c.position)) return chocolate(c, moves, act, hints, canMove);
  if (/^cram(:|$)/.test(game)) return cram(c, index, moves, act, hints, canMove);
  if (/^chomp(:|$)/.test(game)) return chomp(c, moves, act, hints);
  match = /^dag:(.+)$/.exec(game);
  if (match) return graph(match[1], c, index, moves, act, hints, canMove);
  if (/^script:/.test(game)) return null;
  if (/^\d+$/.test(c.position)) return heap(c, index, moves, act, hints, canMove);
  return null;
}

/** Heaps as rows of stones: take from the right, remove a run, or split at a gap. */
function heap(c, index, moves, act, hints, canMove) {
  const n = Number(c.position);
  if (n > 60) return el('p', { class: 'muted small', text: t('play.bigHeap', { n: c.position }) });
  const byParts = new Map(moves.map((m) => [sortedKey(m.to), m]));
  const takeMode = /^(nim|sub:|pow:|northcott|div:)/.test(c.game);
  const splits = moves.filter((m) => m.to.length >= 2 && m.to.reduce((s, p) => s + Number(p), 0) === n);
  const removes = moves.length > splits.length;
  const runParts = (a, b) => [String(a), String(n - 1 - b)].filter((p) => p !== '0');
  const sel = game.selection && game.selection.component === index ? game.selection.first : null;
  const row = el('div', { class: 'stones', role: 'group', 'aria-label': t('play.heapOf', { n }) });
  const help = [];
  for (let k = 0; k < n; k++) {
    let m = null;
    let onclick = null;
    let cls = 'stone';
    let label;
    if (takeMode) {
      m = byParts.get(sortedKey(k ? [String(k)] : []));
      onclick = act(m);
      cls += ' ' + outcomeClass(m, hints);
      label = t('play.takeFrom', { k: k + 1, left: k });
    } else if (removes && sel === null) {
      // first click: outcomes of the best run starting here
      let best = null;
      for (let b = k; b < n; b++) {
        const cand = byParts.get(sortedKey(runParts(k, b)));
        if (cand && (!best || RANK[cand.outcome] > RANK[best.outcome])) best = cand;
      }
      m = best;
      cls += ' ' + outcomeClass(best, hints);
      onclick = best && canMove ? () => { game.selection = { component: index, first: k }; draw(); } : null;
      label = t('play.runStart', { k: k + 1 });
    } else if (removes) {
      const a = Math.min(sel, k);
      const b = Math.max(sel, k);
      m = byParts.get(sortedKey(runParts(a, b)));
      cls += ' ' + outcomeClass(m, hints) + (k === sel ? ' selected' : '');
      onclick = act(m);
      label = t('play.runEnd', { a: a + 1, b: b + 1 });
    } else {
      cls += ' inert';
    }
    row.append(el('button', { type: 'button', class: cls, testid: 'stone', 'aria-label': label, title: label, disabled: !onclick, onclick }));
    if (splits.length && k < n - 1) {
      const sm = byParts.get(sortedKey([String(k + 1), String(n - k - 1)]));
      const label2 = t('play.splitAt', { a: k + 1, b: n - k - 1 });
      row.append(el('button', { type: 'button', class: 'gap ' + outcomeClass(sm, hints), testid: 'gap', 'aria-label': label2, title: label2, disabled: !act(sm), onclick: act(sm) }));
    }
  }
  if (takeMode) help.push(t('play.helpTake'));
  else if (removes) help.push(sel === null ? t('play.helpRunFirst') : t('play.helpRunSecond'));
  if (splits.length) help.push(t('play.helpSplit'));
  const out = [row, el('p', { class: 'small muted', text: help.join(' ') })];
  if (sel !== null) out.push(el('button', { type: 'button', class: 'linklike small', text: t('play.clearSelection'), onclick: () => { game.selection = null; draw(); } }));
  return el('div', {}, out);
}

function treblecross(c, moves, act, hints) {
  const row = c.position.toUpperCase();
  const byRow = new Map(moves.map((m) => [m.to[0], m]));
  return el('div', { class: 'treble', role: 'group' }, row.split('').map((ch, i) => {
    if (ch === 'X') return el('span', { class: 'tcell marked', 'aria-label': t('play.cellMarked', { i: i + 1 }) }, '✕', el('small', { text: String(i + 1) }));
    const m = byRow.get(row.slice(0, i) + 'X' + row.slice(i + 1));
    return el('button', { type: 'button', class: 'tcell ' + outcomeClass(m, hints), testid: 'tcell', 'aria-label': t('play.markCell', { i: i + 1 }),
      disabled: !act(m), onclick: act(m) }, el('small', { text: String(i + 1) }));
  }));
}

function knight(N, c, moves, act, hints) {
  if (N > 24) return null;
  const [r0, c0] = c.position.split(',').map(Number);
  const byTarget = new Map(moves.map((m) => [m.to[0], m]));
  const grid = el('div', { class: 'chess', role: 'grid', style: { gridTemplateColumns: `repeat(${N}, var(--sq))`, '--sq': N > 12 ? '22px' : '34px' } });
  for (let r = 0; r < N; r++) {
    for (let col = 0; col < N; col++) {
      const here = r === r0 && col === c0;
      const m = byTarget.get(`${r},${col}`);
      const shade = (r + col) % 2 ? 'dark' : 'light';
      if (here) grid.append(el('span', { class: `sq ${shade} knight`, 'aria-label': t('play.knightHere', { pos: `${r},${col}` }), text: '♞' }));
      else if (m) grid.append(el('button', { type: 'button', class: `sq ${shade} target ${outcomeClass(m, hints)}`, testid: 'knight-target',
        'aria-label': t('play.knightTo', { pos: `${r},${col}` }), title: `${r},${col}`, disabled: !act(m), onclick: act(m) }));
      else grid.append(el('span', { class: `sq ${shade}` }));
    }
  }
  return el('div', { class: 'scroll' }, grid);
}

/** A chocolate bar: click a line between squares to break, the handles to eat. */
function chocolate(c, moves, act, hints) {
  const [R, C] = c.position.split('x').map(Number);
  if (R > 20 || C > 20) return null;
  const piece = (r, cc) => (r * cc > 1 ? `${r}x${cc}` : null);
  const byParts = new Map(moves.map((m) => [sortedKey(m.to), m]));
  const find = (list) => byParts.get(sortedKey(list.filter(Boolean)));
  const size = C > 12 || R > 12 ? 18 : 30;
  const cols = [];
  for (let j = 0; j < C; j++) cols.push(`${size}px`, j < C - 1 ? '10px' : '6px');
  cols.push('20px');
  const rows = [];
  for (let i = 0; i < R; i++) rows.push(`${size}px`, i < R - 1 ? '10px' : '6px');
  rows.push('20px');
  const grid = el('div', { class: 'choco', style: { gridTemplateColumns: cols.join(' '), gridTemplateRows: rows.join(' ') } });
  for (let i = 0; i < R; i++) {
    for (let j = 0; j < C; j++) grid.append(el('span', { class: 'square', style: { gridRow: 2 * i + 1, gridColumn: 2 * j + 1 } }));
  }
  const button = (m, cls, label, style) => el('button', { type: 'button', class: `${cls} ${outcomeClass(m, hints)}`, testid: 'choco-line',
    'aria-label': label, title: label, disabled: !act(m), onclick: act(m), style });
  // A line is one button on its first segment and click-through segments
  // between the other squares, so that crossing lines never cover each other.
  const line = (m, cls, label, cells) => {
    const id = cls + cells[0].join('-');
    const hot = (on) => grid.querySelectorAll(`[data-line="${id}"]`).forEach((x) => x.classList.toggle('hot', on));
    cells.forEach(([row, col], k) => {
      const part = k === 0 ? button(m, cls, label, { gridRow: row, gridColumn: col })
        : el('span', { class: `${cls} ${outcomeClass(m, hints)} seg`, 'aria-hidden': 'true', title: label, onclick: act(m), style: { gridRow: row, gridColumn: col } });
      part.dataset.line = id;
      if (act(m)) {
        part.addEventListener('mouseenter', () => hot(true));
        part.addEventListener('mouseleave', () => hot(false));
      }
      grid.append(part);
    });
  };
  for (let i = 1; i < R; i++) {
    line(find([piece(i, C), piece(R - i, C)]), 'hline', t('play.breakRow', { a: i, b: R - i }),
      Array.from({ length: C }, (_, j) => [2 * i, 2 * j + 1]));
  }
  for (let j = 1; j < C; j++) {
    line(find([piece(R, j), piece(R, C - j)]), 'vline', t('play.breakCol', { a: j, b: C - j }),
      Array.from({ length: R }, (_, i) => [2 * i + 1, 2 * j]));
  }
  grid.append(button(find([piece(R - 1, C)]), 'eat eat-row', t('play.eatRow'), { gridRow: 2 * R + 1, gridColumn: `1 / ${2 * C}` }));
  grid.append(button(find([piece(R, C - 1)]), 'eat eat-col', t('play.eatCol'), { gridColumn: 2 * C + 1, gridRow: `1 / ${2 * R}` }));
  return el('div', {}, el('div', { class: 'scroll' }, grid), el('p', { class: 'small muted', text: t('play.helpChoco') }));
}

/** The best of some moves for the player to move (a cell's colour when it starts several). */
function bestOf(list) {
  let best = null;
  for (const m of list) if (m && (!best || RANK[m.outcome] > RANK[best.outcome])) best = m;
  return best;
}

/** A square's side in px for a board of R rows and C columns (phones included). */
function squareSize(R, C) {
  const side = Math.max(R, C);
  return side <= 6 ? 40 : side <= 9 ? 32 : side <= 14 ? 24 : 18;
}

/**
 * A Cram board: click an empty cell, then a neighbour, to place a domino.
 * The move is the legal one whose board equals the board after the domino.
 */
function cram(c, index, moves, act, hints, canMove) {
  const board = parseCram(c.position);
  if (!board) return null;
  const { rows, cols, cells } = board;
  const byBoard = new Map();
  for (const m of moves) {
    const key = m.to.length === 1 ? cramKey(m.to[0]) : null;
    if (key) byBoard.set(key, m);
  }
  const empty = (r, col) => r >= 0 && r < rows && col >= 0 && col < cols && !cells[r][col];
  const moveFor = (a, b) => {
    const after = cells.map((row) => row.slice());
    after[a[0]][a[1]] = true;
    after[b[0]][b[1]] = true;
    return byBoard.get(after.map((row) => row.map((f) => (f ? '#' : '.')).join('')).join('/')) || null;
  };
  const neighbours = (r, col) => [[r - 1, col], [r + 1, col], [r, col - 1], [r, col + 1]].filter(([a, b]) => empty(a, b));
  let sel = game.selection && game.selection.component === index ? game.selection.cell : null;
  if (sel && !empty(sel[0], sel[1])) sel = null;
  const select = (cell) => { game.selection = cell ? { component: index, cell } : null; draw(); };
  const size = squareSize(rows, cols);
  const grid = el('div', { class: 'cram', role: 'grid', testid: 'cram-board', 'aria-label': t('play.cramOf', { r: rows, c: cols }),
    style: { gridTemplateColumns: `1.2rem repeat(${cols}, var(--sq))`, '--sq': `${size}px` } });
  grid.append(el('span', { class: 'label' }));
  for (let col = 0; col < cols; col++) grid.append(el('span', { class: 'label', text: cellName(0, col).replace(/\d+$/, '') }));
  for (let r = 0; r < rows; r++) {
    grid.append(el('span', { class: 'label', text: String(r + 1) }));
    for (let col = 0; col < cols; col++) {
      const name = cellName(r, col);
      if (cells[r][col]) {
        grid.append(el('span', { class: 'ccell filled', testid: 'cram-filled', 'aria-label': t('play.cellFilled', { cell: name }) }));
        continue;
      }
      const partners = neighbours(r, col).map((b) => [b, moveFor([r, col], b)]).filter(([, m]) => m);
      let cls = 'ccell';
      let onclick = null;
      let label = t('play.cramFirst', { cell: name });
      let testid = 'cram-cell';
      if (!sel) {
        const best = bestOf(partners.map(([, m]) => m));
        cls += ' ' + outcomeClass(best, hints);
        if (best && canMove) onclick = () => select([r, col]);
      } else if (sel[0] === r && sel[1] === col) {
        cls += ' selected';
        testid = 'cram-selected';
        label = t('play.cramSelected', { cell: name });
        onclick = canMove ? () => select(null) : null;
      } else {
        const pair = partners.find(([b]) => b[0] === sel[0] && b[1] === sel[1]);
        if (pair) {
          cls += ' target ' + outcomeClass(pair[1], hints);
          testid = 'cram-target';
          label = t('play.cramDomino', { a: cellName(sel[0], sel[1]), b: name });
          onclick = act(pair[1]);
        } else {
          // a second click away from the first cell starts again there
          cls += partners.length ? ' restart' : ' illegal';
          if (partners.length && canMove) onclick = () => select([r, col]);
        }
      }
      grid.append(el('button', { type: 'button', class: cls, testid, 'data-cell': name, 'aria-label': label, title: label, disabled: !onclick, onclick }));
    }
  }
  const help = el('p', { class: 'small muted board-help', text: sel ? t('play.helpCramSecond', { cell: cellName(sel[0], sel[1]) }) : t('play.helpCramFirst') });
  const out = [el('div', { class: 'scroll' }, grid), help];
  if (sel) out.push(el('button', { type: 'button', class: 'linklike small', text: t('play.clearSelection'), onclick: () => select(null) }));
  return el('div', {}, out);
}

/**
 * A Chomp bar, bottom row first in the position, drawn with the bottom row
 * at the bottom; the poisoned square is the bottom-left one. Hovering a
 * square shows what a bite there eats; a click takes the bite.
 */
function chomp(c, moves, act, hints) {
  const rowsLen = parseChomp(c.position);
  if (!rowsLen) return null;
  const R = rowsLen.length;
  const C = rowsLen[0] || 0;
  if (R > 40 || C > 40) return null;
  const byRows = new Map();
  for (const m of moves) {
    const key = m.to.length === 1 ? chompKey(m.to[0]) : m.to.length === 0 ? '' : null;
    if (key !== null) byRows.set(key, m);
  }
  const bite = (i, j) => rowsLen.map((len, k) => (k >= i ? Math.min(len, j) : len)).filter((len) => len > 0).join(',');
  const size = squareSize(R, C);
  const grid = el('div', { class: 'chomp', role: 'grid', testid: 'chomp-board', 'aria-label': t('play.chompOf', { rows: rowsLen.join(',') }),
    style: { gridTemplateColumns: `1.2rem repeat(${C}, var(--sq))`, '--sq': `${size}px` } });
  const squares = [];
  const eat = (i, j, on) => {
    for (const s of squares) s.node.classList.toggle('eaten', on && s.i >= i && s.j >= j);
  };
  for (let i = R - 1; i >= 0; i--) {
    grid.append(el('span', { class: 'label', text: String(i + 1) }));
    for (let j = 0; j < C; j++) {
      if (j >= rowsLen[i]) {
        grid.append(el('span', { class: 'csq gone' }));
        continue;
      }
      if (i === 0 && j === 0) {
        grid.append(el('span', { class: 'csq poison', testid: 'chomp-poison', title: t('play.poison'), 'aria-label': t('play.poison'), text: '☠' }));
        continue;
      }
      const m = byRows.get(bite(i, j)) || null;
      const go = act(m);
      const label = t('play.chompTake', { r: i + 1, c: j + 1 });
      const node = el('button', { type: 'button', class: 'csq ' + outcomeClass(m, hints), testid: 'chomp-square', 'data-row': i + 1, 'data-col': j + 1,
        'aria-label': label, title: label, disabled: !go, onclick: go });
      if (go) {
        node.addEventListener('mouseenter', () => eat(i, j, true));
        node.addEventListener('mouseleave', () => eat(i, j, false));
        node.addEventListener('focus', () => eat(i, j, true));
        node.addEventListener('blur', () => eat(i, j, false));
      }
      squares.push({ i, j, node });
      grid.append(node);
    }
  }
  grid.append(el('span', { class: 'label' }));
  for (let j = 0; j < C; j++) grid.append(el('span', { class: 'label', text: String(j + 1) }));
  return el('div', {}, el('div', { class: 'scroll' }, grid), el('p', { class: 'small muted board-help', text: t('play.helpChomp') }));
}

export function parseEdges(text) {
  const edges = [];
  for (const line of (text || '').split('\n')) {
    const words = line.replace(/#.*/, '').trim().split(/\s+/).filter(Boolean);
    if (words.length >= 2) edges.push([words[0], words[1]]);
  }
  return edges;
}

const VERTEX_CHARS = 10;

/** A vertex's name as drawn: a long one cut short (the moves list has it whole). */
function shortName(v) {
  return v.length > VERTEX_CHARS ? v.slice(0, VERTEX_CHARS - 1) + '…' : v;
}

/** A graph from the user's edge list: vertices on a circle, the pebble on one. */
function graph(name, c, index, moves, act, hints) {
  const text = loadFiles()[name];
  if (text === undefined) return null;
  const edges = parseEdges(text);
  const vertices = [...new Set(edges.flat())];
  if (!vertices.includes(c.position)) vertices.push(c.position);
  if (vertices.length > 40) return null;
  const S = 340;
  const R = S / 2 - 34;
  const at = new Map(vertices.map((v, i) => {
    const a = (2 * Math.PI * i) / vertices.length - Math.PI / 2;
    return [v, [S / 2 + R * Math.cos(a), S / 2 + R * Math.sin(a)]];
  }));
  const marker = `arrow-${index}`;
  const svg = el('svg:svg', { viewBox: `0 0 ${S} ${S}`, class: 'graph', width: S, height: S, role: 'group', 'aria-label': t('play.graphOf', { name }) },
    el('svg:defs', {}, el('svg:marker', { id: marker, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      el('svg:path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }))));
  for (const [u, v] of edges) {
    const [x1, y1] = at.get(u);
    const [x2, y2] = at.get(v);
    if (u === v) {
      svg.append(el('svg:circle', { cx: x1, cy: y1 - 18, r: 9, class: 'edge', fill: 'none' }));
      continue;
    }
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = 16 / d;
    svg.append(el('svg:line', { x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      class: 'edge', 'marker-end': `url(#${marker})` }));
  }
  const byTarget = new Map(moves.map((m) => [m.to[0], m]));
  for (const v of vertices) {
    const [x, y] = at.get(v);
    const m = byTarget.get(v);
    const here = v === c.position;
    const go = act(m);
    const node = el('svg:g', { class: 'vertex ' + (here ? 'pebble' : m ? outcomeClass(m, hints) : 'idle'), testid: m ? 'dag-target' : null,
      role: go ? 'button' : null, tabindex: go ? 0 : null, 'aria-label': here ? t('play.pebbleAt', { v }) : m ? t('play.pebbleTo', { v }) : v },
      el('svg:circle', { cx: x, cy: y, r: 15 }), el('svg:text', { x, y: y + 4, 'text-anchor': 'middle', text: shortName(v) }),
      v.length > VERTEX_CHARS ? el('svg:title', { text: v }) : null);
    if (go) {
      node.addEventListener('click', go);
      node.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
    }
    svg.append(node);
  }
  return el('div', { class: 'scroll' }, svg);
}
