// Misère quotient: the monoid that answers misère sums of heaps of one game,
// drawn as its Cayley table with the P-portion marked, with the presentation
// and the element of every heap. A click on a row and a column shows what
// that product means.
import { api, el, t, errorBox, field, setParams } from './ui.js';

/** The largest table drawn cell by cell. */
const DRAWN = 64;

export function render(root, params) {
  const [gameField, game] = field(t('common.game'), { testid: 'quotient-game', value: params.get('game') || '0.75', placeholder: '0.75' });
  const [heapField, heap] = field(t('quotient.maxHeap'), { testid: 'quotient-max', value: params.get('max') || '12', inputmode: 'numeric', class: 'short' });
  const out = el('section', { class: 'quotient-out', 'aria-live': 'polite', testid: 'quotient-out' });
  const examples = [['0.75', 12], ['kayles', 12], ['dawson', 14], ['nim', 3]];
  root.append(
    el('h1', { text: t('quotient.title') }),
    el('p', { class: 'lead', text: t('quotient.lead') }),
    el('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); run(); } },
      gameField, heapField,
      el('button', { type: 'submit', class: 'primary', testid: 'quotient-run', text: t('quotient.build') })),
    el('div', { class: 'examples' }, el('span', { class: 'muted', text: t('common.examples') + ' ' }),
      examples.map(([g, n]) => el('button', {
        type: 'button', class: 'chip', text: `${g} ≤ ${n}`,
        onclick: () => { game.value = g; heap.value = String(n); run(); },
      }))),
    out,
  );

  let ticket = 0;
  async function run() {
    const g = game.value.trim();
    const n = Number(heap.value.trim());
    setParams('quotient', { game: g, max: heap.value.trim() });
    if (!g || !Number.isSafeInteger(n) || n < 0) {
      out.replaceChildren(errorBox(t('quotient.bad')));
      return;
    }
    const mine = ++ticket;
    out.replaceChildren(el('p', { class: 'muted', text: t('common.computing') }));
    try {
      const q = await api('/api/quotient', { game: g, max_heap: n });
      if (mine === ticket) out.replaceChildren(...quotientView(q));
    } catch (e) {
      if (mine === ticket) out.replaceChildren(errorBox(e));
    }
  }
  run();
}

/** The quotient's facts, its Cayley table and its heap map. */
export function quotientView(q, { table = true } = {}) {
  const inP = new Set(q.p_portion);
  const name = (x) => q.elements[x];
  const facts = el('div', { class: 'quotient-facts', testid: 'quotient-facts' },
    el('p', {}, el('strong', { text: t('quotient.summary', { game: q.game, n: q.max_heap, order: q.order, p: q.p_size }) + ' ' }),
      el('span', { class: 'badge ' + (q.tame ? 'proven' : 'observed'), text: q.tame ? t('quotient.tame', { name: q.tame_name }) : t('quotient.wild') })),
    el('p', {}, t('quotient.presentation') + ' ', el('code', { testid: 'quotient-presentation', text: q.presentation })),
    el('p', {}, t('quotient.pPortion') + ' ', el('code', { text: q.p_portion.map(name).join(', ') })),
    el('p', { class: 'small muted', text: t('quotient.changed', { n: q.changed_at }) }));
  const heaps = el('p', { class: 'heap-map small', testid: 'quotient-heaps' }, el('span', { class: 'muted', text: t('quotient.heaps') + ' ' }),
    q.heap_map.map((x, h) => el('span', { class: 'heap-elem' + (inP.has(x) ? ' p' : '') }, `${h}:`, el('code', { text: name(x) }), ' ')));
  const parts = [facts, heaps];
  if (!table) return parts;
  const shown = Math.min(q.order, DRAWN);
  const detail = el('p', { class: 'small', testid: 'quotient-detail', text: t('quotient.clickHint') });
  const cls = shown > 32 ? 'tiny' : shown > 16 ? 'small' : '';
  const grid = el('table', { class: 'heat cayley ' + cls, testid: 'cayley', 'aria-label': t('quotient.tableOf', { game: q.game }) },
    el('thead', {}, el('tr', {}, el('th', { text: '·' }), Array.from({ length: shown }, (_, j) => el('th', { scope: 'col', text: name(j) })))),
    el('tbody', {}, Array.from({ length: shown }, (_, i) => el('tr', {}, el('th', { scope: 'row', text: name(i) }),
      Array.from({ length: shown }, (_, j) => {
        const x = q.table[i][j];
        const p = inP.has(x);
        const label = t('quotient.cell', { x: name(i), y: name(j), z: name(x), outcome: p ? 'P' : 'N' });
        return el('td', {}, el('button', {
          type: 'button', class: 'cell' + (p ? ' zero' : ''), title: label, 'aria-label': label,
          style: p ? { background: '#1d3557', color: '#fff' } : { background: shade(x, q.order), color: '#111' },
          text: shown > 16 ? '' : name(x), onclick: () => { detail.textContent = label; },
        }));
      })))));
  parts.push(el('h2', { text: t('quotient.cayley') }),
    el('p', { class: 'small muted', text: t('quotient.cayleyAbout') }),
    el('div', { class: 'scroll' }, grid), detail);
  if (shown < q.order) parts.push(el('p', { class: 'muted small', text: t('quotient.more', { shown, order: q.order }) }));
  return parts;
}

/** A light colour per element, so equal products look alike. */
function shade(x, order) {
  const hue = Math.round((x * 360) / Math.max(order, 1) * 7) % 360;
  return `hsl(${hue} 55% 86%)`;
}
