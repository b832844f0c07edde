// The API client: every request of the page goes through `api()`, with the
// user's files attached, and its answer is read without rounding the large
// integers that JSON numbers can carry.
import { t } from './strings.js';

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
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(t('error.network'));
  }
  let data = null;
  try { data = parseJson(await response.text()); } catch { /* not JSON */ }
  if (!response.ok) {
    throw new ApiError(data && data.error ? data.error : t('error.http', { status: response.status }));
  }
  return data;
}

let gamesPromise = null;
/** GET /api/games, once. */
export function games() {
  if (!gamesPromise) gamesPromise = api('/api/games').then((d) => d.games).catch((e) => { gamesPromise = null; throw e; });
  return gamesPromise;
}
