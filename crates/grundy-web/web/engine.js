// grundy with no server: the WebAssembly module in Web Workers of this page
// (worker.js). `call()` answers the page's API paths as `grundy serve`
// does, with the same JSON; `runCli()` runs the command line. Each kind of
// work has a worker of its own, so a long sequence never holds up the
// analysis, and a run is stopped by ending its worker.
//
// This module imports nothing of the page, so the guide's examples use it
// as they are.

/**
 * Seconds one request of the playground may compute in the page: 60, or
 * what the address asks for (`playground/?seconds=300`, up to an hour).
 */
export const PAGE_SECONDS = (() => {
  const asked = Number(new URLSearchParams(globalThis.location ? location.search : '').get('seconds'));
  return Number.isFinite(asked) && asked >= 1 ? Math.min(asked, 3600) : 60;
})();

const workerUrl = new URL('worker.js', import.meta.url);
const workers = {};
let nextId = 0;

/** The answer of a request that could not be given. */
function failure(status, message) {
  return { status, text: JSON.stringify({ error: message }) };
}

function start(kind) {
  const worker = new Worker(workerUrl);
  const entry = { worker, pending: new Map() };
  worker.onmessage = (event) => {
    const m = event.data;
    const p = entry.pending.get(m.id);
    if (!p) return;
    if (m.type === 'start') {
      if (p.seconds) p.timer = setTimeout(() => expire(kind, entry, m.id, p), p.seconds * 1000);
    } else if (m.type === 'write') {
      if (p.onWrite) p.onWrite(m.stream, m.text);
    } else if (m.type === 'progress') {
      if (p.onProgress) p.onProgress(m.done, m.total);
    } else {
      entry.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.type === 'done') {
        p.resolve({ status: m.status, text: m.text });
      } else {
        const message = m.memory
          ? `the page ran out of memory (a tab holds at most 4 GB, and grundy in the page stops at ${BUDGET}): ask for less, or use the native grundy`
          : m.message;
        p.resolve({ ...failure(500, message), told: m.told });
        // The module's state is lost with it: the rest go to a new worker.
        if (m.fatal) restart(kind, entry);
      }
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    drop(kind, entry);
    for (const p of entry.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(failure(500, `grundy's worker failed: ${event.message || 'it could not start'}`));
    }
    entry.pending.clear();
  };
  return entry;
}

/** The memory budget of the module (grundy-wasm's MEMORY_BUDGET), as shown. */
const BUDGET = '2 GB';

function drop(kind, entry) {
  if (workers[kind] === entry) delete workers[kind];
  entry.worker.terminate();
}

/**
 * Sends `request` (what grundy_call takes) to the worker of `kind`;
 * resolves to { status, text }. `seconds`, when given, is the time budget:
 * past it the worker is ended and the request gets an error that names it.
 */
function send(kind, request, { onWrite, onProgress, seconds } = {}) {
  return new Promise((resolve) => post(kind, { request, resolve, onWrite, onProgress, seconds, timer: null }));
}

/** Hands a pending request to the worker of `kind` (started if need be). */
function post(kind, p) {
  const entry = workers[kind] || (workers[kind] = start(kind));
  const id = ++nextId;
  entry.pending.set(id, p);
  entry.worker.postMessage({ id, request: p.request });
}

/** A request past its time budget: refused, and its worker replaced. */
function expire(kind, entry, id, p) {
  entry.pending.delete(id);
  p.resolve(failure(400, `this needs more than the page's ${p.seconds} s per request: ask for less, or use the native grundy (\`grundy\`), which has no time limit`));
  restart(kind, entry);
}

/** Ends the worker of `kind`; the requests it still held go to a new one. */
function restart(kind, entry) {
  drop(kind, entry);
  const waiting = [...entry.pending.values()];
  entry.pending.clear();
  for (const p of waiting) {
    clearTimeout(p.timer);
    post(kind, p);
  }
}

/** Ends the work of `kind` at once (the command line's Ctrl-C). */
export function stop(kind) {
  const entry = workers[kind];
  if (!entry) return;
  drop(kind, entry);
  for (const p of entry.pending.values()) {
    clearTimeout(p.timer);
    p.resolve({ status: 130, text: '', stopped: true });
  }
  entry.pending.clear();
}

// ---------------------------------------------------------------- the command line

/**
 * Runs `grundy ARGS` in the page, reading `files` (name to text) for the
 * disk and `env` (name to value) for its environment variables: output goes to onWrite(stream, text) as it is written, progress to
 * onProgress(done, total). Resolves to the exit
 * status (130 when stopped with `stop('cli')`).
 */
export async function runCli(args, { stdin = '', files = {}, env = {}, onWrite, onProgress } = {}) {
  const answer = await send('cli', { op: 'cli', args, stdin, files, env }, { onWrite, onProgress });
  if (answer.stopped) return 130;
  if (answer.status === 500 && answer.text) {
    // The module stopped: unless it said why on standard error, say so here.
    if (onWrite && !answer.told) onWrite(2, `error: ${JSON.parse(answer.text).error}\n`);
    return 2;
  }
  return answer.status;
}

// ---------------------------------------------------------------- the API

/** The endpoints the module answers (grundy_web::answer::ENDPOINTS). */
const ENDPOINTS = ['games', 'value', 'explain', 'moves', 'apply', 'reply', 'seq', 'period', 'table', 'pattern', 'quotient', 'graph'];

const jobs = new Map();
let nextJob = 0;

/**
 * Answers `method path` with `body` (already JSON-encoded, or undefined) as
 * the server would: resolves to { status, text }.
 */
export async function call(path, body, method) {
  const parsed = body === undefined ? undefined : JSON.parse(body);
  const jobPath = path.match(/^\/api\/jobs(?:\/([^/]+)(?:\/(values\.csv|b-file\.txt))?)?$/);
  if (jobPath) return job(method, jobPath[1], jobPath[2], parsed);
  const endpoint = path.match(/^\/api\/([a-z]+)$/);
  if (!endpoint || !ENDPOINTS.includes(endpoint[1])) {
    return failure(404, "no such API endpoint; see GET /api/games and the guide's web API reference");
  }
  if ((endpoint[1] === 'games') !== (method === 'GET')) {
    return failure(405, 'wrong method: /api/games is GET, the other endpoints take POST with a JSON body');
  }
  return send('api', { op: 'api', endpoint: endpoint[1], body: parsed ?? null }, { seconds: PAGE_SECONDS });
}

function jobStatus(j) {
  const head = { id: j.id, game: j.game, from: j.from, to: j.to, done: Math.min(j.done, j.total), total: j.total, state: j.state };
  if (j.error) head.error = j.error;
  const text = JSON.stringify(head);
  return { status: 200, text: j.result ? `${text.slice(0, -1)},"result":${j.result}}` : text };
}

async function job(method, id, file, body) {
  if (!id) {
    if (method !== 'POST') return failure(405, 'wrong method: POST /api/jobs starts a run');
    return startJob(body);
  }
  const j = jobs.get(id);
  if (!j) return failure(404, `no job ${id} (finished jobs are forgotten after newer ones)`);
  if (file) {
    const kind = file === 'values.csv' ? 'csv' : 'b-file';
    const answer = await send('job', { op: 'download', id, kind });
    if (answer.stopped) {
      return failure(410, 'the values of this run went with a run that was stopped after it: compute it again to download them');
    }
    if (answer.status !== 200) return answer;
    const newline = answer.text.indexOf('\n');
    return { status: 200, name: answer.text.slice(0, newline), text: answer.text.slice(newline + 1) };
  }
  if (method === 'DELETE' && j.state === 'running') {
    stop('job');
    j.state = 'cancelled';
  }
  return jobStatus(j);
}

function startJob(body) {
  const id = String(++nextJob);
  const from = Number(body && body.from) || 0;
  const to = Number(body && body.to);
  const j = { id, game: body && body.game, from, to, done: 0, total: to - from + 1, state: 'running', result: null, error: null };
  return new Promise((resolve) => {
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      jobs.set(id, j);
      resolve({ status: 200, text: JSON.stringify({ id, state: 'running' }) });
    };
    send('job', { op: 'job', id, body }, {
      onProgress: (done) => {
        j.done = done;
        begin();
      },
    }).then((answer) => {
      if (j.state !== 'running') return;
      if (answer.status === 200) {
        j.state = 'done';
        j.done = j.total;
        j.result = answer.text;
      } else if (answer.stopped) {
        j.state = 'cancelled';
      } else {
        const error = JSON.parse(answer.text).error;
        if (!started) {
          // Refused before it began, as the server refuses a bad request.
          resolve(answer);
          return;
        }
        j.state = 'failed';
        j.error = error;
      }
      begin();
    });
    // The transport remembers the last few runs, as the server does.
    for (const old of jobs.keys()) {
      if (jobs.size <= 8) break;
      if (jobs.get(old).state !== 'running') jobs.delete(old);
    }
  });
}
