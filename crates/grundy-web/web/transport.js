// Where the page's requests go: 'server' (grundy serve answers /api/) or
// 'wasm' (grundy compiled to WebAssembly, in a worker of this page). The
// static site's build writes 'wasm' here; nothing else differs.
export const transport = 'server';
