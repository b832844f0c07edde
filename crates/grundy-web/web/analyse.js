// Analyse: a sum in command-line syntax -> values, the nim-sum in binary,
// the winner and every winning move (clicking one plays it).
import {
  api, el, t, errorBox, checkbox, setParams, gamesHelp, moveText, showValue,
  bigValue, nimSumWork, winnerText, link, keepArrows,
} from './ui.js';
import { quotientView } from './quotient.js';

export function render(root, params) {
  const input = el('input', {
    type: 'text', id: 'sum', class: 'sum-input', testid: 'sum-input', spellcheck: 'false',
    autocomplete: 'off', placeholder: 'nim 3 5 7 + sub:1,2,3 4', value: params.get('sum') || '',
    'aria-describedby': 'sum-hint',
  });
  const [misereLabel, misere] = checkbox(t('common.misere'), { testid: 'misere', checked: params.get('misere') === '1' });
  const output = el('section', { class: 'result', 'aria-live': 'polite', testid: 'analysis' });
  const form = el('form', { class: 'sumform', onsubmit: (e) => { e.preventDefault(); run(); } },
    el('label', { for: 'sum', class: 'big-label', text: t('analyse.label') }),
    el('div', { class: 'row' }, input,
      el('button', { type: 'submit', class: 'primary', testid: 'analyse-button', text: t('analyse.go') })),
    el('div', { class: 'row small' }, misereLabel,
      el('span', { id: 'sum-hint', class: 'muted', text: t('analyse.hint') })));
  misere.addEventListener('change', () => { if (input.value.trim()) run(); });

  root.append(
    el('h1', { text: t('analyse.title') }),
    el('p', { class: 'lead', text: t('analyse.lead') }),
    form,
    gamesHelp((example) => { input.value = example; run(); }),
    output,
  );

  let ticket = 0;
  async function run() {
    const sum = input.value.trim();
    setParams('analyse', { sum, misere: misere.checked });
    if (!sum) {
      output.replaceChildren(errorBox(t('analyse.empty')));
      return;
    }
    const mine = ++ticket;
    output.replaceChildren(el('p', { class: 'muted', text: t('common.computing') }));
    output.setAttribute('aria-busy', 'true');
    try {
      const result = await api('/api/value', { sum, misere: misere.checked, max_moves: 1000 });
      if (mine !== ticket) return;
      output.replaceChildren(...show(result, sum, misere.checked));
    } catch (e) {
      if (mine !== ticket) return;
      output.replaceChildren(errorBox(e));
    } finally {
      if (mine === ticket) output.removeAttribute('aria-busy');
    }
  }

  async function play(move, sum) {
    try {
      const after = await api('/api/apply', { sum, component: move.component, to: move.to, misere: misere.checked });
      if (!after.sum) {
        output.replaceChildren(el('p', { class: 'winner', testid: 'winner', text: t('analyse.allGone') }));
        input.value = '';
        setParams('analyse', { misere: misere.checked });
        return;
      }
      input.value = after.sum;
      run();
    } catch (e) {
      output.prepend(errorBox(e));
    }
  }

  function show(r, sum, isMisere) {
    const games = r.components.map((c) => c.game);
    const parts = [];
    parts.push(el('h2', { text: t('analyse.components') }));
    // a wide table (a long game spec) scrolls in its own box, not the page
    parts.push(el('div', { class: 'scroll' }, el('table', { class: 'components', testid: 'components' },
      el('thead', {}, el('tr', {},
        el('th', { text: '#' }), el('th', { text: t('common.game') }), el('th', { text: t('common.position') }),
        el('th', { text: isMisere ? t('analyse.genus') : t('common.grundy') }), el('th', { text: '' }))),
      el('tbody', {}, r.components.map((c, i) => el('tr', {},
        el('td', { text: `[${i + 1}]` }),
        // a short spec stays whole; a long one (a file name, a long set) wraps
        el('td', { class: c.game.length > 16 ? 'wrap' : 'game' }, el('code', { text: c.game })),
        el('td', { class: 'wrap' }, el('code', { text: c.position })),
        el('td', { class: 'num wrap', testid: 'component-value' },
          isMisere ? (c.genus ? el('code', { text: c.genus }) : '–') : showValue(c.grundy)),
        el('td', {}, link('explain', { game: c.game, position: c.position }, t('analyse.why'), { class: 'small' }))))))));

    if (isMisere) {
      parts.push(el('div', { class: 'method', testid: 'method' },
        el('p', {}, el('strong', { text: t('analyse.method') + ' ' }), el('code', { text: r.method })),
        el('p', { class: 'explain', text: t('misere.' + r.method, {}) })));
      if (r.components.some((c) => c.genus)) parts.push(el('p', { class: 'explain small', text: t('misere.genusNotation') }));
      // The quotient itself is shown for sums of one game's heaps that the
      // quotient page can draw (heaps up to 64); a sum that mixes games is
      // answered by the quotient of its games together, which has no page.
      const oneGame = r.components.every((c) => c.game === r.components[0].game);
      const largest = Math.max(...r.components.map((c) => Number(c.position)));
      if (r.method === 'quotient' && oneGame && largest <= 64) parts.push(quotientPanel(r));
    } else {
      const values = r.components.map((c) => bigValue(c.grundy));
      const narrow = values.every((v) => v !== null && v < (1n << 64n));
      if (narrow && values.length > 0 && values.length <= 40) {
        parts.push(el('h2', { text: t('analyse.nimsum') }));
        parts.push(nimSumWork(r.components.map((c, i) => ({ label: `[${i + 1}] ${c.game} ${c.position}`, value: values[i] }))));
      } else if (r.nim_sum !== undefined) {
        parts.push(el('p', {}, t('analyse.nimsumIs', { x: showValue(r.nim_sum) })));
        if (values.some((v) => v === null)) parts.push(el('p', { class: 'explain', text: t('analyse.notNumbers') }));
      }
    }

    parts.push(el('p', { class: 'winner ' + r.winner, testid: 'winner' }, winnerText(r.winner, isMisere)));

    const moves = r.winning_moves || [];
    if (r.winner === 'first' || moves.length) {
      parts.push(el('h2', { text: t('analyse.winningMoves', { n: moves.length + (r.winning_moves_truncated ? '+' : '') }) }));
      parts.push(el('p', { class: 'muted small', text: t('analyse.clickMove') }));
      parts.push(moveList(moves, games, sum, 'winning-move'));
      const unlisted = r.components.some((c) => c.winning_moves_unlisted);
      if (r.winning_moves_truncated && !unlisted) parts.push(el('p', { class: 'muted', text: t('analyse.truncated') }));
      r.components.forEach((c, i) => {
        if (c.winning_moves_unlisted) parts.push(el('p', { class: 'muted', text: t('analyse.unlisted', { i: i + 1 }) }));
      });
    } else if (r.winner === 'second') {
      parts.push(el('p', { class: 'explain', text: isMisere ? t('analyse.noWinMisere') : t('analyse.noWin') }));
    }
    if (r.drawing_moves && r.drawing_moves.length) {
      parts.push(el('h2', { text: t('analyse.drawingMoves', { n: r.drawing_moves.length }) }));
      parts.push(moveList(r.drawing_moves, games, sum, 'drawing-move'));
    }
    parts.push(el('p', { class: 'actions' },
      link('play', { sum, misere: isMisere ? '1' : '' }, t('analyse.playIt'), { class: 'button' })));
    return parts;
  }

  /** The quotient that answered: its presentation and heap map, fetched. */
  function quotientPanel(r) {
    const game = r.components[0].game;
    const max = Math.max(...r.components.map((c) => Number(c.position)));
    const box = el('div', { class: 'quotient-used card', testid: 'quotient-used' },
      el('p', { class: 'muted', text: t('common.computing') }));
    api('/api/quotient', { game, max_heap: max })
      .then((q) => box.replaceChildren(el('h2', { text: t('quotient.used') }), ...quotientView(q, { table: false }),
        el('p', {}, link('quotient', { game, max: String(max) }, t('quotient.open'), { class: 'button', testid: 'quotient-open' }))))
      .catch((e) => box.replaceChildren(errorBox(e)));
    return box;
  }

  function moveList(moves, games, sum, testid) {
    return el('ul', { class: 'moves' }, moves.map((m) => el('li', {},
      el('button', {
        type: 'button', class: 'move', testid,
        onclick: () => play(m, sum),
      }, keepArrows(moveText(m, games[m.component]))))));
  }

  if (input.value.trim()) run();
  else input.focus();
}
