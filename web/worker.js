// The search's Web Worker: owns the WebAssembly solver (tsumugi.wasm, src/wasm/) so the page
// never freezes. A search advances in slices (tsumugi_advance with a time bound); between two
// slices the worker reads its messages, so a stop is answered at once with what the search has
// established (tsumugi_stop), as the native engine answers its stop flag.
//
// After an answer, {type: 'more', id, request} asks for the root's other first moves (a mate)
// or the refutations of its checks (no mate) on the same table (tsumugi_first_moves), searched
// in slices the same way; a stop ends it with what is established (tsumugi_first_moves_stop).
//
// Messages in:  {type: 'inspect', id, text | bytes} (a position as typed, or a file's bytes:
//               decoded in the module, UTF-8 or Shift_JIS, as `tsumugi solve` reads a file) · {type: 'solve', id, request} · {type: 'stop'} ·
//               {type: 'more', id, request} · {type: 'bench', id, hash_mb}
// Messages out: {type: 'ready'} · {type: 'fatal', error} · {type: 'inspect', id, reply} ·
//               {type: 'error', id, error, code} (code: 'failed' after a trap,
//               'not-loaded' before the module is ready, else absent: a reply's message) · {type: 'progress', id, reply} ·
//               {type: 'done', id, reply} · {type: 'more-progress', id, reply} ·
//               {type: 'more-done', id, reply} (reply.kind 'none': nothing to add) · {type: 'bench', id, reply}
'use strict';

let ex = null; // the module's exports
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let job = null; // {id, kind: 'solve' | 'more', started, lastProgress}
let wasmBytes = null;

async function load() {
  if (!wasmBytes) {
    const resp = await fetch(new URL('tsumugi.wasm', self.location.href));
    if (!resp.ok) throw new Error(`tsumugi.wasm: HTTP ${resp.status}`);
    wasmBytes = await resp.arrayBuffer();
  }
  const { instance } = await WebAssembly.instantiate(wasmBytes, {
    env: {
      tsumugi_now_ms: () => performance.now(),
      tsumugi_log: (ptr, len) => {
        console.error(decoder.decode(new Uint8Array(instance.exports.memory.buffer, ptr, len)));
      },
    },
  });
  ex = instance.exports;
}

function reply() {
  // A fresh view each time: the memory may have grown (and its old buffer detached).
  const bytes = new Uint8Array(ex.memory.buffer, ex.tsumugi_reply_ptr(), ex.tsumugi_reply_len());
  return JSON.parse(decoder.decode(bytes));
}

function callWithText(fn, text) {
  return callWithBytes(fn, encoder.encode(text));
}

function callWithBytes(fn, bytes) {
  const ptr = ex.tsumugi_alloc(bytes.length);
  new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    return fn(ptr, bytes.length);
  } finally {
    ex.tsumugi_free(ptr, bytes.length);
  }
}

// Zero-delay scheduling of the next slice that still lets queued messages (stop) run first.
const channel = new MessageChannel();
channel.port1.onmessage = () => step();
const schedule = () => channel.port2.postMessage(null);

// Slice length: short at first (short problems end in the first slice), then up to 200 ms,
// never more than a twentieth of the time so far: every slice restarts df-pn from the root
// over the kept table, which costs a little, and a stop waits for the current slice.
function sliceMs(elapsed) {
  return Math.min(200, Math.max(50, elapsed / 20));
}

function step() {
  if (!job) return;
  const more = job.kind === 'more';
  let r;
  try {
    const ms = sliceMs(performance.now() - job.started);
    r = more ? ex.tsumugi_first_moves_advance(ms) : ex.tsumugi_advance(0, ms);
  } catch (e) {
    fail(e);
    return;
  }
  const out = reply();
  if (r === 1) {
    postMessage({ type: more ? 'more-done' : 'done', id: job.id, reply: out });
    job = null;
    return;
  }
  if (r !== 0) {
    postMessage({ type: 'error', id: job.id, error: out.error || 'search failed' });
    job = null;
    return;
  }
  const now = performance.now();
  // The first moves' progress changes only when a check is decided: sent when it did.
  const news = more ? out.decided !== job.decided : now - job.lastProgress >= 150;
  if (news) {
    job.lastProgress = now;
    job.decided = out.decided;
    postMessage({ type: more ? 'more-progress' : 'progress', id: job.id, reply: out });
  }
  schedule();
}

// A trap (out of memory, stack overflow, a panic) leaves the module unusable: report it and
// start a fresh instance for the next request.
function fail(e) {
  const id = job ? job.id : null;
  job = null;
  postMessage({
    type: 'error', id, code: 'failed', error: `the solver failed: ${e && e.message ? e.message : e}`,
  });
  ex = null;
  load().catch((err) => postMessage({ type: 'fatal', error: String(err) }));
}

self.onmessage = (ev) => {
  const msg = ev.data;
  if (!ex) {
    postMessage({ type: 'error', id: msg.id, code: 'not-loaded', error: 'the solver is not loaded yet' });
    return;
  }
  try {
    if (msg.type === 'inspect') {
      if (msg.bytes) callWithBytes(ex.tsumugi_inspect, new Uint8Array(msg.bytes));
      else callWithText(ex.tsumugi_inspect, msg.text);
      postMessage({ type: 'inspect', id: msg.id, reply: reply() });
    } else if (msg.type === 'solve') {
      job = null;
      const rc = callWithText(ex.tsumugi_start, JSON.stringify(msg.request));
      const out = reply();
      if (rc !== 0) {
        postMessage({ type: 'error', id: msg.id, error: out.error });
        return;
      }
      job = { id: msg.id, kind: 'solve', started: performance.now(), lastProgress: performance.now() };
      postMessage({ type: 'started', id: msg.id, reply: out });
      schedule();
    } else if (msg.type === 'more') {
      job = null;
      const rc = callWithText(ex.tsumugi_first_moves, JSON.stringify(msg.request));
      const out = reply();
      if (rc !== 0) {
        postMessage({ type: 'error', id: msg.id, error: out.error });
        return;
      }
      if (out.kind === 'none') {
        postMessage({ type: 'more-done', id: msg.id, reply: { done: true, kind: 'none', moves: [] } });
        return;
      }
      job = { id: msg.id, kind: 'more', started: performance.now(), lastProgress: performance.now(), decided: 0 };
      postMessage({
        type: 'more-progress', id: msg.id, reply: { done: false, kind: out.kind, checks: out.checks, decided: 0, moves: [] },
      });
      schedule();
    } else if (msg.type === 'stop') {
      if (!job) return;
      const { id, kind } = job;
      job = null;
      if (kind === 'more') {
        ex.tsumugi_first_moves_stop();
        postMessage({ type: 'more-done', id, reply: reply() });
      } else {
        ex.tsumugi_stop();
        postMessage({ type: 'done', id, reply: reply() });
      }
    } else if (msg.type === 'bench') {
      ex.tsumugi_bench(msg.hash_mb || 0);
      postMessage({ type: 'bench', id: msg.id, reply: reply() });
    }
  } catch (e) {
    fail(e);
  }
};

load().then(
  () => postMessage({ type: 'ready' }),
  (e) => postMessage({ type: 'fatal', error: String(e) }),
);
