// Boards: the value tables of the knight game and of chocolate bars as heat
// maps; a click on a cell analyses that position.
import { api, el, t, errorBox, field, setParams, go, showValue, patternPanel } from './ui.js';

export function render(root, params) {
  const [nField, n] = field(t('boards.size'), { testid: 'knight-n', value: params.get('n') || '8', inputmode: 'numeric', class: 'short' });
  const [cField, choco] = field(t('boards.bar'), { testid: 'choco-size', value: params.get('choco') || '8x8', class: 'short' });
  const knightOut = el('div', { class: 'board-out', testid: 'knight-board' });
  const chocoOut = el('div', { class: 'board-out', testid: 'choco-board' });

  root.append(
    el('h1', { text: t('boards.title') }),
    el('p', { class: 'lead', text: t('boards.lead') }),
    el('div', { class: 'two-cards' }, el('section', { class: 'card' },
      el('h2', { text: t('boards.knight') }),
      el('p', { class: 'explain small', text: t('boards.knightAbout') }),
      el('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); knight(); } }, nField,
        el('button', { type: 'submit', class: 'primary', testid: 'knight-show', text: t('boards.show') })),
      knightOut),
    el('section', { class: 'card' },
      el('h2', { text: t('boards.choco') }),
      el('p', { class: 'explain small', text: t('boards.chocoAbout') }),
      el('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); chocolate(); } }, cField,
        el('button', { type: 'submit', class: 'primary', testid: 'choco-show', text: t('boards.show') })),
      chocoOut)),
  );

  const save = () => setParams('boards', { n: n.value.trim(), choco: choco.value.trim() });

  async function knight() {
    save();
    const size = n.value.trim();
    await heat(knightOut, `knight:${size}`, (r, c) => ({ sum: `knight:${size} ${r},${c}`, label: `${r},${c}` }));
  }

  async function chocolate() {
    save();
    const size = choco.value.trim().toLowerCase();
    await heat(chocoOut, `choco:${size}`, (r, c) => ({ sum: `choco ${r + 1}x${c + 1}`, label: `${r + 1}x${c + 1}` }), 1);
  }

  knight();
  chocolate();
}

/** Fetches a table and draws it: values in coloured cells, a legend, clickable. */
async function heat(box, game, position, base = 0) {
  box.replaceChildren(el('p', { class: 'muted', text: t('common.computing') }));
  let table;
  try {
    ({ table } = await api('/api/table', { game }));
  } catch (e) {
    box.replaceChildren(errorBox(e));
    return;
  }
  const numbers = table.flat().filter((v) => typeof v === 'number');
  const max = Math.max(1, ...numbers);
  const cols = table[0] ? table[0].length : 0;
  const cell = cols > 24 ? 'tiny' : cols > 14 ? 'small' : '';
  const grid = el('table', { class: 'heat ' + cell, 'aria-label': t('boards.tableOf', { game }) },
    el('thead', {}, el('tr', {}, el('th', { text: '' }), (table[0] || []).map((_, c) => el('th', { scope: 'col', text: String(c + base) })))),
    el('tbody', {}, table.map((row, r) => el('tr', {}, el('th', { scope: 'row', text: String(r + base) }), row.map((v, c) => {
      const p = position(r, c);
      return el('td', {}, el('button', {
        type: 'button', class: 'cell' + (v === 0 ? ' zero' : ''), style: colour(v, max),
        testid: `cell-${r}-${c}`, title: t('boards.cellTitle', { pos: p.label, v: showValue(v) }),
        'aria-label': t('boards.cellTitle', { pos: p.label, v: showValue(v) }),
        text: showValue(v), onclick: () => go('analyse', { sum: p.sum }),
      }));
    })))));
  const legend = el('div', { class: 'legend heat-legend', 'aria-hidden': 'true' },
    el('span', { class: 'small muted', text: t('boards.legend') + ' ' }),
    Array.from({ length: Math.min(max, 24) + 1 }, (_, v) => el('span', { class: 'key', style: colour(v, max), text: String(v) })));
  box.replaceChildren(el('div', { class: 'scroll' }, grid), legend,
    el('p', { class: 'small muted', text: t('boards.clickHint') }), patternPanel(game));
}

/** A cell's colour: 0 (a second-player win) dark, larger values warmer. */
function colour(v, max) {
  if (typeof v !== 'number') return { background: '#ccc' };
  if (v === 0) return { background: '#1d3557', color: '#fff' };
  const f = v / max;
  const hue = 200 - 170 * f;
  const light = 82 - 22 * f;
  return { background: `hsl(${hue} 70% ${light}%)`, color: '#111' };
}
