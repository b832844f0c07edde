// grundy in a Web Worker: the WebAssembly module (grundy.wasm, beside this
// file) answers the page's requests, one at a time, so that the page never
// waits on a computation. A run is stopped by ending the worker.
//
// Messages in: { id, request }, where request is what grundy_call takes
// (see crates/grundy-wasm). Messages out, for that id: { type: 'write',
// stream, text } (the command line's output as it is written),
// { type: 'progress', done, total }, and last { type: 'done', status, text }
// or { type: 'failed', message }.

let exports = null;
let current = null;
const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
let lastProgress = -Infinity;
// What the module wrote on standard error during the request under way: if
// it stops, its last line says why (a bug, or memory).
let lastError = '';

function bytes(ptr, len) {
  return new Uint8Array(exports.memory.buffer, ptr, len);
}

const env = {
    grundy_now: () => performance.now(),
    grundy_write: (stream, ptr, len) => {
      const text = decoders[stream].decode(bytes(ptr, len), { stream: true });
      if (stream === 2) lastError += text;
      if (text) postMessage({ id: current, type: 'write', stream, text });
    },
    grundy_progress: (done, total) => {
      // At most twenty reports a second reach the page, and the last one.
      const now = performance.now();
      if (now - lastProgress < 50 && (done < total || total === 0)) return;
      lastProgress = now;
      postMessage({ id: current, type: 'progress', done, total });
    },
};

// Libraries inside the module name browser functions (drawing, clocks) that
// grundy never calls in a page; each is given a function that says so if it
// ever is.
const imports = new Proxy({ env }, {
  get: (known, module) => known[module] || new Proxy({}, {
    get: (_, name) => () => { throw new Error(`grundy's module called ${String(module)}.${String(name)}, which a page does not give it`); },
  }),
});

const ready = (async () => {
  const url = new URL('grundy.wasm', self.location.href);
  let instance;
  if (WebAssembly.instantiateStreaming) {
    try {
      ({ instance } = await WebAssembly.instantiateStreaming(fetch(url), imports));
    } catch {
      instance = null;
    }
  }
  if (!instance) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports));
  }
  exports = instance.exports;
})();

const queue = [];
let busy = false;

self.onmessage = (event) => {
  queue.push(event.data);
  if (!busy) next();
};

async function next() {
  busy = true;
  while (queue.length) {
    const { id, request } = queue.shift();
    try {
      await ready;
    } catch (e) {
      // Nothing can run here: the page starts a new worker for what comes next.
      postMessage({ id, type: 'failed', fatal: true, message: `grundy's WebAssembly module did not load: ${e.message || e}` });
      close();
      return;
    }
    current = id;
    lastProgress = -Infinity;
    lastError = '';
    // The request's time budget counts from here, not from its wait in line.
    postMessage({ id, type: 'start' });
    const encoded = new TextEncoder().encode(JSON.stringify(request));
    try {
      const ptr = exports.grundy_alloc(encoded.length);
      bytes(ptr, encoded.length).set(encoded);
      const status = exports.grundy_call(ptr, encoded.length);
      for (const stream of [1, 2]) {
        const rest = decoders[stream].decode();
        if (rest) postMessage({ id, type: 'write', stream, text: rest });
      }
      const text = new TextDecoder().decode(bytes(exports.grundy_answer_ptr(), exports.grundy_answer_len()));
      postMessage({ id, type: 'done', status, text });
    } catch (e) {
      // A trap (a bug, or memory the tab cannot give): the module's state is
      // lost, so this worker answers no more; the page starts another.
      const said = (lastError.split('\n').filter((l) => l.startsWith('error: ')).pop() || '').replace(/^error: /, '');
      const text = String(e.message || e);
      const memory = !said && /out of memory|could not allocate memory|Cannot allocate/i.test(text);
      const deep = !said && /call stack|stack overflow/i.test(text);
      const message = said || (deep
        ? 'the computation went deeper than the page\'s stack (64 MB): use the native grundy'
        : text);
      postMessage({ id, type: 'failed', fatal: true, memory, told: Boolean(said), message });
      close();
      return;
    }
  }
  busy = false;
}
