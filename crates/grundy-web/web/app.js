// The shell of the playground: the hash router (#/analyse?sum=...), which
// loads each page's view, and the navigation around it. Nothing imports
// this file: views take what they share from ui.js, strings.js and api.js.
import { el, PAGES } from './ui.js';
import { t, language, switchLanguage } from './strings.js';

// ---------------------------------------------------------------- router

const loaders = {
  analyse: () => import('./analyse.js'),
  explain: () => import('./explain.js'),
  sequence: () => import('./sequence.js'),
  boards: () => import('./boards.js'),
  quotient: () => import('./quotient.js'),
  play: () => import('./play.js'),
  owngame: () => import('./owngame.js'),
};

/**
 * The page and its parameters. A '+' in a shared address stays a '+' (a sum's
 * separator), unlike URLSearchParams' form decoding; spaces come as %20.
 */
function currentRoute() {
  const hash = location.hash.replace(/^#\/?/, '');
  const cut = hash.indexOf('?');
  const name = cut < 0 ? hash : hash.slice(0, cut);
  const params = new URLSearchParams();
  for (const pair of (cut < 0 ? '' : hash.slice(cut + 1)).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const decode = (x) => { try { return decodeURIComponent(x); } catch { return x; } };
    params.set(decode(eq < 0 ? pair : pair.slice(0, eq)), decode(eq < 0 ? '' : pair.slice(eq + 1)));
  }
  return { name: name in loaders ? name : 'analyse', params };
}

function renderChrome(active) {
  document.documentElement.lang = language() === 'zh' ? 'zh-CN' : 'en';
  const nav = document.getElementById('nav');
  nav.replaceChildren(...PAGES.map((p) => el('a', {
    href: '#/' + p, testid: 'nav-' + p, 'aria-current': p === active ? 'page' : null, text: t('nav.' + p),
  })));
  const button = document.getElementById('lang');
  button.textContent = t('lang.other');
  button.title = t('lang.switch');
  button.setAttribute('aria-label', t('lang.switch'));
  document.querySelector('.brand').textContent = t('brand');
}

let cleanup = null;
let generation = 0;

async function route() {
  const mine = ++generation;
  const { name, params } = currentRoute();
  if (cleanup) {
    try { cleanup(); } catch (e) { console.error(e); }
    cleanup = null;
  }
  renderChrome(name);
  document.title = t('nav.' + name) + ' · grundy';
  const module = await loaders[name]();
  if (mine !== generation) return;
  const main = document.getElementById('page');
  main.replaceChildren();
  main.dataset.page = name;
  cleanup = module.render(main, params) || null;
}

document.getElementById('lang').addEventListener('click', () => {
  switchLanguage();
  route();
});
window.addEventListener('hashchange', route);
route();

