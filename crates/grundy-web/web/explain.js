// Explain: one position's options, their values and the mex in words, each
// option opening into its own explanation, a few levels deep.
import { api, el, t, errorBox, field, setParams, showValue, bigValue, go, keepArrows } from './ui.js';

const MAX_DEPTH = 6;

export function render(root, params) {
  const [gameField, game] = field(t('common.game'), { testid: 'explain-game', value: params.get('game') || 'sub:1-3', placeholder: 'sub:1-3' });
  const [posField, positions] = field(t('explain.positions'), { testid: 'explain-position', value: params.get('position') || '5', placeholder: '3 4 5' });
  const output = el('section', { class: 'result', 'aria-live': 'polite', testid: 'explain-output' });

  const examples = [
    { label: t('explain.ex.take3'), game: 'sub:1-3', position: '3 4 5', sum: 'sub:1-3 3 4 5' },
    { label: t('explain.ex.values'), game: 'sub:1-3', position: '10' },
    { label: t('explain.ex.divide'), game: 'div:2,3,6', position: '12' },
    { label: t('explain.ex.kayles'), game: 'kayles', position: '4' },
    { label: t('explain.ex.knight'), game: 'knight:8', position: '3,4' },
  ];

  root.append(
    el('h1', { text: t('explain.title') }),
    el('div', { class: 'card intro' },
      el('p', { text: t('explain.mexIntro') }),
      el('p', { text: t('explain.sgIntro') })),
    el('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); run(); } },
      gameField, posField,
      el('button', { type: 'submit', class: 'primary', testid: 'explain-button', text: t('explain.go') })),
    el('div', { class: 'examples' }, el('span', { class: 'muted', text: t('explain.examples') + ' ' }),
      examples.map((x) => el('button', {
        type: 'button', class: 'chip', text: x.label,
        onclick: () => { game.value = x.game; positions.value = x.position; run(); },
      }))),
    output,
  );

  async function run() {
    const g = game.value.trim();
    const list = positions.value.trim().split(/\s+/).filter(Boolean).slice(0, 8);
    setParams('explain', { game: g, position: list.join(' ') });
    output.replaceChildren();
    if (!g || !list.length) {
      output.append(errorBox(t('explain.empty')));
      return;
    }
    const table = el('div', { class: 'first-values' });
    output.append(table);
    firstValues(g, list, table);
    for (const p of list) {
      output.append(el('div', { class: 'tree', testid: 'explain-tree' }, node(g, p, 0, true)));
    }
    const graphBox = el('section', { class: 'graph', testid: 'explain-graph' });
    output.append(graphBox);
    const sum = g + ' ' + list.join(' ');
    gameGraph(sum, graphBox);
    if (list.length > 1) {
      output.append(el('p', { class: 'actions' }, el('button', {
        type: 'button', class: 'button', testid: 'analyse-sum', text: t('explain.analyseSum', { sum }),
        onclick: () => go('analyse', { sum }),
      })));
    }
  }

  if (game.value.trim() && positions.value.trim()) run();
}

/** The most positions the page draws: past this a picture is unreadable. */
const GRAPH_NODES = 60;

/** The picture of every position reachable from `sum` (small graphs only). */
async function gameGraph(sum, box) {
  try {
    const r = await api('/api/graph', { sum, max_nodes: GRAPH_NODES });
    const picture = el('div', { class: 'graph-picture', testid: 'graph-picture' });
    // The server's own drawing: positions in it are escaped.
    picture.innerHTML = r.svg;
    box.replaceChildren(
      el('h2', { text: t('explain.graph', { sum }) }),
      el('p', { class: 'explain small', text: t('explain.graphNote', { n: r.nodes.length }) }),
      picture);
  } catch (e) {
    // Too large or too tangled a graph is named in one line; other errors
    // (a wrong game) are the explanation's to show.
    const message = String((e && e.message) || e);
    const key = /more than \d+ positions/.test(message) ? 'explain.graphTooLarge'
      : /too tangled/.test(message) ? 'explain.graphTangled' : null;
    box.replaceChildren(...(key
      ? [el('p', { class: 'muted small', testid: 'graph-too-large', text: t(key, { sum, n: GRAPH_NODES }) })]
      : []));
  }
}

/** G(0..10) of a heap game as a small table (nothing for other games). */
async function firstValues(game, positions, box) {
  const numeric = positions.filter((p) => /^\d+$/.test(p)).map(Number);
  const to = Math.max(10, Math.min(30, ...numeric.length ? numeric : [10]));
  try {
    const r = await api('/api/seq', { game, from: 0, to });
    box.replaceChildren(
      el('h2', { text: t('explain.firstValues', { game, to }) }),
      el('div', { class: 'scroll' }, el('table', { class: 'values', testid: 'first-values' },
        el('tr', {}, el('th', { scope: 'row', text: 'n' }), r.values.map((_, i) => el('td', { text: String(r.from + i) }))),
        el('tr', {}, el('th', { scope: 'row', text: 'G(n)' }), r.values.map((v) => el('td', { class: v === 0 ? 'zero' : '', text: showValue(v) }))))),
      el('p', { class: 'explain small', text: t('explain.firstValuesNote') }));
  } catch {
    box.replaceChildren(); // not a heap game: no table
  }
}

/** One position's explanation as a <details> that loads when opened. */
function node(game, position, depth, open = false, label = null) {
  const summary = el('summary', {}, label || [el('code', { text: position }), ' ', el('span', { class: 'muted', text: '…' })]);
  const body = el('div', { class: 'node-body' });
  const box = el('details', { class: 'node', open }, summary, body);
  let loaded = false;
  const load = async () => {
    if (loaded || !box.open) return;
    loaded = true;
    body.replaceChildren(el('p', { class: 'muted', text: t('common.computing') }));
    try {
      const r = await api('/api/explain', { game, position });
      if (!label) {
        summary.replaceChildren(el('code', { text: r.position }), ' ',
          el('span', { class: 'value' + (r.grundy === 0 ? ' zero' : '') }, t('explain.valueIs', { g: showValue(r.grundy) })));
      }
      body.replaceChildren(...explanation(r, depth));
    } catch (e) {
      loaded = false;
      body.replaceChildren(errorBox(e));
    }
  };
  box.addEventListener('toggle', load);
  if (open) queueMicrotask(load);
  return box;
}

function explanation(r, depth) {
  const out = [];
  const values = r.options.map((o) => o.grundy);
  const numbers = [...new Set(values.filter((v) => typeof v === 'number'))].sort((a, b) => a - b);
  if (!r.options.length) {
    out.push(el('p', { class: 'mex', testid: 'mex-text', text: t('explain.noOptions') }));
    return out;
  }
  out.push(el('p', { class: 'small muted', text: t('explain.optionsOf', { n: r.options.length, pos: r.position }) }));
  const list = el('ul', { class: 'options' });
  for (const o of r.options) {
    const to = o.to.length ? o.to.join(' + ') : t('move.nothing');
    const good = o.grundy === 0;
    const label = [el('code', {}, keepArrows(r.position + ' -> ' + to)), ' ',
      el('span', { class: 'value' + (good ? ' zero' : '') }, t('explain.valueIs', { g: showValue(o.grundy) }))];
    if (o.to.length === 0 || depth + 1 >= MAX_DEPTH) {
      list.append(el('li', { class: 'leaf' }, label,
        o.to.length ? el('span', { class: 'muted small', text: ' ' + t('explain.deeper') }) : el('span', { class: 'muted small', text: ' ' + t('explain.emptyOption') })));
    } else if (o.to.length === 1) {
      list.append(el('li', {}, node(r.game, o.to[0], depth + 1, false, label)));
    } else {
      list.append(el('li', {}, splitNode(r.game, o, label, depth + 1)));
    }
  }
  out.push(list);
  if (r.options_truncated) out.push(el('p', { class: 'muted', text: t('explain.truncated') }));
  if (r.mex !== undefined && r.mex !== null) {
    out.push(el('p', { class: 'mex', testid: 'mex-text', text: t('explain.mexSentence', { set: '{' + numbers.join(', ') + '}', mex: r.mex }) }));
    out.push(el('p', { class: 'explain small', text: r.mex === 0 ? t('explain.isZero') : t('explain.isNonZero', { mex: r.mex }) }));
  } else if (r.grundy === 'win') {
    out.push(el('p', { class: 'mex', testid: 'mex-text', text: t('explain.winPosition') }));
  } else if (typeof r.grundy === 'number') {
    // Treblecross: options of value "win" are left out (they hand the opponent three in a row)
    out.push(el('p', { class: 'mex', testid: 'mex-text', text: t('explain.mexSkipping', { set: '{' + numbers.join(', ') + '}', mex: r.grundy }) }));
  } else {
    out.push(el('p', { class: 'mex', testid: 'mex-text', text: t('explain.loopy', { g: showValue(r.grundy) }) }));
  }
  return out;
}

/** An option that leaves several heaps: its value is the XOR of theirs. */
function splitNode(game, option, label, depth) {
  const body = el('div', { class: 'node-body' });
  const box = el('details', { class: 'node' }, el('summary', {}, ...label), body);
  let loaded = false;
  box.addEventListener('toggle', async () => {
    if (loaded || !box.open) return;
    loaded = true;
    const parts = option.to.map((p) => node(game, p, depth));
    body.replaceChildren(el('p', { class: 'explain', text: t('explain.split', { parts: option.to.join(' + ') }) }));
    try {
      const values = await Promise.all(option.to.map((p) => api('/api/explain', { game, position: p }).then((r) => r.grundy)));
      const big = values.map(bigValue);
      if (big.every((v) => v !== null)) {
        const x = big.reduce((a, b) => a ^ b, 0n);
        body.append(el('p', { class: 'mex', text: option.to.map((p, i) => `G(${p}) = ${values[i]}`).join(', ') + '; ' +
          values.join(' ⊕ ') + ' = ' + x.toString() }));
      }
    } catch (e) {
      body.append(errorBox(e));
    }
    body.append(el('ul', { class: 'options' }, parts.map((p) => el('li', {}, p))));
  });
  return box;
}
