// The API client: every request of the page goes through `api()`, with the
// user's files attached, and its answer is read without rounding the large
// integers that JSON numbers can carry. The requests go to the server
// (`grundy serve`) or, in the static site, to grundy's WebAssembly module in
// a worker of the page (engine.js): transport.js says which.
import { t } from './strings.js';
import { transport } from './transport.js';

/** The engine in the page, loaded when the page has no server. */
const engine = transport === 'wasm' ? import('./engine.js') : null;

const FILES_KEY = 'grundy.files';

// ---------------------------------------------------------------- files of "Your game"

export function loadFiles() {
  try {
    const files = JSON.parse(localStorage.getItem(FILES_KEY) || '{}');
    return files && typeof files === 'object' ? files : {};
  } catch {
    return {};
  }
}

export function saveFiles(files) {
  localStorage.setItem(FILES_KEY, JSON.stringify(files));
}

// ---------------------------------------------------------------- API

/**
 * JSON.parse, except that an integer too large for a double (heaps and
 * values up to 2^64 and beyond, which the server writes as JSON numbers)
 * becomes the string of its exact digits instead of a rounded number, so
 * that the page shows what the command line prints. Strings in the text
 * are skipped whole, so digits inside them are never touched.
 */
export function parseJson(text) {
  // Only a run of 16 digits or more can be past 2^53: most answers have none.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = '';
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const start = i;
      i++;
      while (i < text.length && /[0-9.eE+-]/.test(text[i])) i++;
      const number = text.slice(start, i);
      if (/^-?\d+$/.test(number) && !Number.isSafeInteger(Number(number))) {
        out += text.slice(last, start) + '"' + number + '"';
        last = i;
      }
    } else {
      i++;
    }
  }
  return JSON.parse(out + text.slice(last));
}

export class ApiError extends Error {}

/**
 * Calls the server. A body makes it a POST (or `method`), carrying the
 * user's files so that `script:NAME` and `dag:NAME` work everywhere.
 */
export async function api(path, body, method) {
  const options = { method: method || (body === undefined ? 'GET' : 'POST'), headers: {} };
  if (body !== undefined) {
    const files = loadFiles();
    const payload = Object.keys(files).length ? { ...body, files } : body;
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(payload);
  }
  if (engine) {
    const answer = await (await engine).call(path, options.body, options.method);
    return read(answer.status, answer.text);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(t('error.network'));
  }
  return read(response.status, await response.text());
}

/** An answer's data, or the error it carries. */
function read(status, text) {
  let data = null;
  try { data = parseJson(text); } catch { /* not JSON */ }
  if (status < 200 || status > 299) {
    throw new ApiError(data && data.error ? data.error : t('error.http', { status }));
  }
  return data;
}

/**
 * The attributes of a link that downloads `path` (a job's values) as
 * `name`: a plain link to the server, or one that asks the page's engine.
 */
export function downloadLink(path, name) {
  if (!engine) return { href: path, download: name };
  return {
    href: '#',
    onclick: async (event) => {
      event.preventDefault();
      const answer = await (await engine).call(path, undefined, 'GET');
      if (answer.status !== 200) {
        try { read(answer.status, answer.text); } catch (e) { alert(e.message); }
        return;
      }
      const url = URL.createObjectURL(new Blob([answer.text], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = answer.name || name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    },
  };
}

let gamesPromise = null;
/** GET /api/games, once. */
export function games() {
  if (!gamesPromise) gamesPromise = api('/api/games').then((d) => d.games).catch((e) => { gamesPromise = null; throw e; });
  return gamesPromise;
}
