// Sequence: G(n) of a heap game over a range, drawn as per-column min-max
// bars (so 10^7 heaps cost the page nothing), with the period marked, rare
// values coloured, drag-to-zoom, and downloads. Every run is a server job.
import { api, downloadLink, el, t, errorBox, field, setParams, language, patternPanel } from './ui.js';

const POLL_MS = 250;
const HEIGHT = 340;
const MARGIN = { left: 52, right: 28, top: 14, bottom: 40 };
/** A little more than the width of a digit of the axis labels, in pixels. */
const CHAR_WIDTH = 7;
const DOWNLOADABLE = 20000001;

let active = null; // the running job {id, timer}, cancelled when leaving the page

export function render(root, params) {
  const [gameField, game] = field(t('common.game'), { testid: 'seq-game', value: params.get('game') || '0.07', placeholder: '0.07' });
  const [fromField, from] = field(t('seq.from'), { testid: 'seq-from', value: params.get('from') || '0', inputmode: 'numeric', class: 'short' });
  const [toField, to] = field(t('seq.to'), { testid: 'seq-to', value: params.get('to') || '1000', inputmode: 'numeric', class: 'short' });
  const status = el('div', { class: 'job', 'aria-live': 'polite' });
  const plotBox = el('div', { class: 'plot', testid: 'plot' });
  const info = el('div', { class: 'seq-info' });
  const hover = el('p', { class: 'hover muted small', testid: 'plot-hover', text: '\u00a0' });
  const resetButton = el('button', { type: 'button', class: 'button', testid: 'zoom-reset', text: t('seq.reset'), disabled: true });
  let home = null; // the range of the last Run, for Reset

  const examples = [
    ['0.07', 0, 1000], ['0.137', 0, 3000], ['kayles', 0, 500], ['grundy', 0, 100000], ['0.6', 0, 200000], ['0.07', 0, 10000000],
  ];

  root.append(
    el('h1', { text: t('seq.title') }),
    el('p', { class: 'lead', text: t('seq.lead') }),
    el('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); home = null; run(); } },
      gameField, fromField, toField,
      el('button', { type: 'submit', class: 'primary', testid: 'seq-run', text: t('seq.run') })),
    el('div', { class: 'examples' }, el('span', { class: 'muted', text: t('common.examples') + ' ' }),
      examples.map(([g, a, b]) => el('button', {
        type: 'button', class: 'chip', text: `${g} ${t('seq.upTo')} ${fmt(b)}`,
        onclick: () => { game.value = g; from.value = a; to.value = b; home = null; run(); },
      }))),
    status,
    el('div', { class: 'plot-wrap' }, plotBox, el('div', { class: 'plot-tools' },
      el('span', { class: 'muted small', text: t('seq.dragHint') }), resetButton)),
    hover,
    info,
  );
  resetButton.addEventListener('click', () => {
    if (!home) return;
    from.value = home[0];
    to.value = home[1];
    run();
  });

  async function run() {
    const g = game.value.trim();
    const a = Number(from.value.trim() || '0');
    const b = Number(to.value.trim());
    setParams('sequence', { game: g, from: from.value.trim(), to: to.value.trim() });
    if (!g || !Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b < a) {
      status.replaceChildren(errorBox(t('seq.badRange')));
      return;
    }
    if (!home) home = [a, b];
    resetButton.disabled = home[0] === a && home[1] === b;
    stop(true);
    const columns = Math.max(100, Math.min(4000, Math.round(plotWidth())));
    status.replaceChildren(el('p', { class: 'muted', text: t('seq.starting') }));
    let id;
    try {
      ({ id } = await api('/api/jobs', { kind: 'seq', game: g, from: a, to: b, columns }));
    } catch (e) {
      status.replaceChildren(errorBox(e));
      return;
    }
    const bar = el('progress', { max: String(b - a + 1), value: '0', testid: 'progress' });
    const count = el('span', { class: 'small', testid: 'progress-text', text: '' });
    const cancel = el('button', {
      type: 'button', class: 'button danger', testid: 'seq-cancel', text: t('seq.cancel'),
      onclick: () => { api(`/api/jobs/${id}`, undefined, 'DELETE').catch(() => {}); },
    });
    status.replaceChildren(el('div', { class: 'progress-row' }, bar, count, cancel));
    const job = { id, timer: null };
    active = job;
    const poll = async () => {
      if (active !== job) return;
      let s;
      try {
        s = await api(`/api/jobs/${id}`);
      } catch (e) {
        status.replaceChildren(errorBox(e));
        active = null;
        return;
      }
      if (active !== job) return;
      bar.value = s.done;
      bar.max = s.total;
      count.textContent = t('seq.progress', { done: fmt(s.done), total: fmt(s.total) });
      if (s.state === 'running') {
        job.timer = setTimeout(poll, POLL_MS);
        return;
      }
      active = null;
      if (s.state === 'done') {
        status.replaceChildren(el('p', { class: 'muted small', testid: 'seq-done', text: t('seq.done', { n: fmt(s.total) }) }));
        draw(s.result, id);
      } else if (s.state === 'cancelled') {
        status.replaceChildren(el('p', { class: 'notice', testid: 'seq-cancelled', text: t('seq.cancelled') }));
      } else {
        status.replaceChildren(errorBox(s.error || t('seq.failed')));
      }
    };
    job.timer = setTimeout(poll, POLL_MS);
  }

  function plotWidth() {
    return Math.max(320, plotBox.clientWidth || root.clientWidth || 900);
  }

  function draw(r, id) {
    const W = Math.round(plotWidth());
    const H = HEIGHT;
    const maxV = Math.max(1, Number(r.max_value) || 1);
    // The y labels, with separators as on the x axis, and a left margin
    // wide enough for the longest (values of Grundy's game reach ten digits).
    const yTicks = ticks(0, maxV, 6, true);
    const yLabels = yTicks.map(fmt);
    const longest = Math.max(...yLabels.map((s) => s.length));
    const M = { ...MARGIN, left: Math.max(MARGIN.left, 26 + CHAR_WIDTH * longest) };
    const pw = W - M.left - M.right;
    const ph = H - M.top - M.bottom;
    const n0 = r.from;
    const span = r.to - r.from + 1;
    const xs = (n) => M.left + ((n - n0) / span) * pw;
    const ys = (v) => M.top + ph - (v / maxV) * (ph - 6);
    const svg = el('svg:svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', class: 'seq-svg', role: 'img',
      'aria-label': t('seq.plotLabel', { game: r.game, from: fmt(r.from), to: fmt(r.to) }) });

    // axes and ticks
    const axes = el('svg:g', { class: 'axes' });
    axes.append(el('svg:line', { x1: M.left, y1: M.top + ph, x2: M.left + pw, y2: M.top + ph }),
      el('svg:line', { x1: M.left, y1: M.top, x2: M.left, y2: M.top + ph }));
    yTicks.forEach((v, i) => {
      axes.append(el('svg:line', { class: 'grid', x1: M.left, x2: M.left + pw, y1: ys(v), y2: ys(v) }),
        el('svg:text', { x: M.left - 6, y: ys(v) + 4, 'text-anchor': 'end', text: yLabels[i] }));
    });
    // A label is left out where it would run into the one before (long
    // numbers on a narrow screen); its tick stays.
    let lastRight = -Infinity;
    for (const n of ticks(r.from, r.to, Math.max(3, Math.floor(pw / 110)), true)) {
      const x = xs(n + 0.5);
      const label = fmt(n);
      const width = CHAR_WIDTH * label.length;
      const anchor = x > W - 50 ? 'end' : 'middle';
      const left = anchor === 'end' ? x - width : x - width / 2;
      axes.append(el('svg:line', { x1: x, x2: x, y1: M.top + ph, y2: M.top + ph + 5 }));
      if (left >= lastRight + 8) {
        axes.append(el('svg:text', { x, y: M.top + ph + 18, 'text-anchor': anchor, text: label }));
        lastRight = anchor === 'end' ? x : x + width / 2;
      }
    }
    axes.append(el('svg:text', { x: M.left + pw / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis-title', text: 'n' }),
      el('svg:text', { x: 12, y: M.top + ph / 2, 'text-anchor': 'middle', class: 'axis-title',
        transform: `rotate(-90 12 ${M.top + ph / 2})`, text: 'G(n)' }));

    // the period: one period shaded, the end of the preperiod dashed
    const period = r.period;
    const marks = el('svg:g', { class: 'period-marks' });
    if (period && period.period) {
      const p0 = period.preperiod;
      const p = period.period;
      const k = Math.max(0, Math.ceil((r.from - p0) / p));
      const a = p0 + k * p;
      const start = Math.max(p0, r.from);
      if (start <= r.to) {
        marks.append(el('svg:rect', { class: 'periodic-region', x: xs(start), y: M.top, width: M.left + pw - xs(start), height: ph }));
      }
      if (a <= r.to) {
        const x0 = xs(a);
        const x1 = Math.min(xs(a + p), M.left + pw);
        marks.append(el('svg:rect', { class: 'period-shade', testid: 'period-shade', x: x0, y: M.top,
          width: Math.max(1, x1 - x0), height: ph }, el('svg:title', { text: t('seq.periodShade', { a: fmt(a), b: fmt(a + p - 1) }) })));
      }
      if (p0 >= r.from && p0 <= r.to) {
        marks.append(el('svg:line', { class: 'preperiod-line', testid: 'preperiod-line', x1: xs(p0), x2: xs(p0), y1: M.top, y2: M.top + ph },
          el('svg:title', { text: t('seq.preperiodLine', { n: fmt(p0) }) })));
      }
    }

    // the values: a bar from min to max per column, rare ones coloured
    const bars = el('svg:g', { class: 'bars' });
    const rareMask = r.rare ? BigInt(r.rare.mask) : null;
    // rare values: an even number of 1s under the mask (the server's RareClass::is_rare)
    const isRare = (v) => rareMask !== null && popcount(BigInt(v) & rareMask) % 2 === 0;
    const cols = r.columns || [];
    const thin = cols.length ? pw / cols.length : pw;
    const few = r.values && r.values.length * 2 <= pw;
    if (few) {
      r.values.forEach((v, i) => {
        const n = r.from + i;
        bars.append(el('svg:circle', { cx: xs(n + 0.5), cy: ys(v), r: Math.min(4, Math.max(1.5, pw / span / 3)), class: isRare(v) ? 'rare' : 'common' }));
      });
    } else {
      for (const c of cols) {
        const x = xs(c.from);
        const w = Math.max(1.8, xs(c.to + 1) - x - (thin > 3 ? 1 : 0));
        const y1 = ys(c.max);
        const y0 = ys(c.min);
        bars.append(el('svg:rect', { x, y: y1 - 1.5, width: w, height: Math.max(3, y0 - y1 + 3),
          class: c.rare > 0 && !r.values ? 'rare-col' : 'common' }));
      }
      if (r.values && rareMask !== null) {
        r.values.forEach((v, i) => {
          if (isRare(v)) bars.append(el('svg:rect', { x: xs(r.from + i) - 1, y: ys(v) - 1.5, width: 3, height: 3, class: 'rare' }));
        });
      }
    }
    const selection = el('svg:rect', { class: 'selection', x: 0, y: M.top, width: 0, height: ph, visibility: 'hidden' });
    svg.append(marks, axes, bars, selection);
    plotBox.replaceChildren(svg);

    // hover and drag-to-zoom
    const toN = (clientX) => {
      const box = svg.getBoundingClientRect();
      const x = ((clientX - box.left) * W) / box.width;
      const n = n0 + Math.floor(((x - M.left) / pw) * span);
      return Math.min(r.to, Math.max(r.from, n));
    };
    const toX = (clientX) => {
      const box = svg.getBoundingClientRect();
      return Math.min(M.left + pw, Math.max(M.left, ((clientX - box.left) * W) / box.width));
    };
    let dragStart = null;
    svg.addEventListener('pointerdown', (e) => {
      dragStart = { x: toX(e.clientX), n: toN(e.clientX) };
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener('pointermove', (e) => {
      const n = toN(e.clientX);
      hover.textContent = describeAt(r, n, isRare);
      if (dragStart) {
        const x = toX(e.clientX);
        selection.setAttribute('x', Math.min(x, dragStart.x));
        selection.setAttribute('width', Math.abs(x - dragStart.x));
        selection.setAttribute('visibility', 'visible');
      }
    });
    svg.addEventListener('pointerup', (e) => {
      if (!dragStart) return;
      const start = dragStart;
      dragStart = null;
      selection.setAttribute('visibility', 'hidden');
      if (Math.abs(toX(e.clientX) - start.x) < 4) return;
      const a = Math.min(start.n, toN(e.clientX));
      const b = Math.max(start.n, toN(e.clientX));
      if (b - a < 1) return;
      from.value = a;
      to.value = b;
      run();
    });

    showInfo(r, id, isRare);
  }

  function showInfo(r, id, isRare) {
    const parts = [];
    const p = r.period;
    if (p) {
      const facts = p.period
        ? t('seq.periodFacts', { pre: fmt(p.preperiod), period: fmt(p.period), saltus: p.saltus })
        : t('seq.noPeriod', { n: fmt(p.checked_to) });
      parts.push(el('p', { class: 'period-facts', testid: 'period-facts' }, el('strong', { text: facts + ' ' }),
        p.period ? el('span', { class: 'badge ' + (p.proven ? 'proven' : 'observed'), text: p.proven ? t('seq.proven') : t('seq.observed') }) : null));
      if (p.period && p.saltus) parts.push(el('p', { class: 'explain small', text: t('seq.saltusNote', { s: p.saltus }) }));
      parts.push(el('p', { class: 'method small' }, el('span', { class: 'muted', text: t('seq.method') + ' ' }), t('seq.methodText', { text: p.method })));
      if (p.block && p.block.length <= 400) {
        parts.push(el('details', {}, el('summary', { text: t('seq.block', { n: p.block.length }) }),
          el('p', { class: 'mono small wrap', text: p.block.join(' ') })));
      }
    } else {
      parts.push(el('p', { class: 'muted small', text: t('seq.periodNone') }));
    }
    const item = (swatch, text) => el('span', { class: 'item' }, el('span', { class: 'swatch ' + swatch }), text);
    const legend = [item('common', t('seq.legendValues'))];
    if (p && p.period) legend.push(item('shade', t('seq.legendPeriod')), item('dashed', t('seq.legendPreperiod')));
    if (r.rare) legend.push(item('rare', t('seq.legendRare', { mask: r.rare.mask, count: fmt(r.rare.count) })));
    parts.unshift(el('p', { class: 'legend small' }, legend));
    parts.push(el('p', { class: 'small' }, t('seq.maxValue', { v: r.max_value })));
    if (r.to - r.from + 1 <= DOWNLOADABLE) {
      const name = r.game.replace(/[^\w.-]+/g, '_');
      parts.push(el('p', { class: 'downloads' },
        el('a', { class: 'button', testid: 'download-csv', ...downloadLink(`/api/jobs/${id}/values.csv`, `${name}-values.csv`), text: t('seq.csv') }), ' ',
        el('a', { class: 'button', testid: 'download-bfile', ...downloadLink(`/api/jobs/${id}/b-file.txt`, `${name}-b-file.txt`), text: t('seq.bfile') })));
    }
    if (r.values && r.values.length <= 2000) {
      parts.push(el('details', {}, el('summary', { text: t('seq.valuesList') }),
        el('p', { class: 'mono small wrap', text: r.values.join(' ') })));
    }
    void isRare;
    // The pattern of small heaps, with code to copy (heap games only).
    if (p) parts.push(patternPanel(r.game));
    info.replaceChildren(...parts);
  }

  run(); // the address's range, or the default 0.07 to 1000
  return () => stop(true);
}

function describeAt(r, n, isRare) {
  if (r.values) {
    const v = r.values[n - r.from];
    return `G(${fmt(n)}) = ${v}` + (isRare(v) ? ' · ' + t('seq.rare') : '');
  }
  const c = (r.columns || []).find((c) => c.from <= n && n <= c.to);
  if (!c) return '';
  return t('seq.columnAt', { a: fmt(c.from), b: fmt(c.to), min: c.min, max: c.max }) + (c.rare ? ' · ' + t('seq.rareCount', { n: c.rare }) : '');
}

/** Stops polling the running job; cancels it on the server when `cancel`. */
function stop(cancel) {
  if (!active) return;
  clearTimeout(active.timer);
  if (cancel) api(`/api/jobs/${active.id}`, undefined, 'DELETE').catch(() => {});
  active = null;
}

function popcount(x) {
  let c = 0;
  while (x) { c += Number(x & 1n); x >>= 1n; }
  return c;
}

function fmt(n) {
  return Number(n).toLocaleString(language() === 'zh' ? 'zh-CN' : 'en-US');
}

/** About `count` round tick values between lo and hi (integers when `whole`). */
function ticks(lo, hi, count, whole) {
  const span = hi - lo;
  if (span <= 0) return [lo];
  let step = Math.pow(10, Math.floor(Math.log10(span / count)));
  for (const m of [1, 2, 5, 10]) {
    if (span / (step * m) <= count) { step *= m; break; }
  }
  if (whole) step = Math.max(1, Math.round(step));
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}
