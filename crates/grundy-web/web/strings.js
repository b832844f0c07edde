// The page's strings in English and Chinese: which language is shown, and
// the catalogue lookups every view uses.
import en from './i18n/en.js';
import zh from './i18n/zh.js';

const catalogues = { en, zh };
const LANG_KEY = 'grundy.lang';

function pickLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(LANG_KEY); } catch { /* storage off */ }
  if (saved && saved in catalogues) return saved;
  const wanted = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  return wanted.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

let lang = pickLanguage();

export function language() { return lang; }

/** The string `key` in the page's language, `{name}` filled from `params`. */
export function t(key, params = {}) {
  let s = catalogues[lang][key];
  if (s === undefined) s = en[key];
  if (s === undefined) {
    console.warn('grundy: no string for', key);
    return key;
  }
  if (typeof s === 'function') return s(params);
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A string of the catalogue if it has one, else `fallback` (server texts). */
export function tOr(key, fallback) {
  const s = catalogues[lang][key];
  return s === undefined ? fallback : t(key);
}

/** Shows the page in the other language from now on, and remembers it. */
export function switchLanguage() {
  lang = lang === 'zh' ? 'en' : 'zh';
  try { localStorage.setItem(LANG_KEY, lang); } catch { /* storage off */ }
}
