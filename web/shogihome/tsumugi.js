// tsumugi as a WebAssembly USI engine for ShogiHome's web version: the ES module of
// ShogiHome's engine ABI (`shogihome-wasm-engine`, specs/wasm-engine-abi.md in ShogiHome's
// repository). Its default export creates an engine:
//
//   const engine = await createEngine({ printErr, locateFile });
//   engine.addMessageListener((line) => ...);   // every USI line the engine writes
//   engine.postMessage('usi');                  // one command line
//   engine.poll();                              // advances a running search by one slice
//   engine.terminate();                         // ends the engine; nothing is written after
//
// No Emscripten: the module is tsumugi's Rust code built for wasm32-unknown-unknown
// (scripts/build-shogihome-engine); this file loads it and implements the interface directly,
// as the ABI allows for engines not written in C++. The USI handling is the native engine's
// (src/usi/cooperative.rs): every command is answered within postMessage(); a search runs only
// inside poll(), in slices of 50 to 200 ms, so the host's worker stays free to deliver `stop`,
// which then answers at once. After `quit` or terminate() nothing more is written.
//
// Works in a Web Worker or a page (fetch) and in Node (the conformance test; file: URLs are
// read from disk).

const WASM_FILE = 'tsumugi.wasm';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The compiled module, shared by every engine made from the same URL.
const compiled = new Map();

async function wasmBytesOrResponse(url) {
  if (url.startsWith('file:')) {
    // Node: fetch() does not read file: URLs.
    const { readFile } = await import('node:fs/promises');
    return readFile(new URL(url));
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return response;
}

async function compile(url, printErr) {
  const source = await wasmBytesOrResponse(url);
  if (!(source instanceof Response)) {
    return WebAssembly.compile(source);
  }
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(source.clone());
    } catch (e) {
      // A server that does not send application/wasm: compile from the bytes instead.
      printErr(`tsumugi: streaming compile failed (${e}); compiling from bytes`);
    }
  }
  return WebAssembly.compile(await source.arrayBuffer());
}

export default async function createTsumugi(options = {}) {
  const printErr = options.printErr || ((line) => console.error(line));
  const url = options.locateFile
    ? options.locateFile(WASM_FILE, '')
    : new URL(WASM_FILE, import.meta.url).href;
  if (!compiled.has(url)) {
    const promise = compile(url, printErr);
    compiled.set(url, promise);
    promise.catch(() => compiled.delete(url));
  }
  const module = await compiled.get(url);

  let ex = null;
  const instance = await WebAssembly.instantiate(module, {
    env: {
      // The search's clock (src/mate/clock.rs).
      tsumugi_now_ms: () => performance.now(),
      // A panic's message, before the module traps.
      tsumugi_log: (ptr, len) =>
        printErr(decoder.decode(new Uint8Array(ex.memory.buffer, ptr, len))),
    },
  });
  ex = instance.exports;

  const listeners = new Set();
  let ended = false; // quit or terminate(): nothing more is written.

  // Hands the lines of the last call to the listeners; returns the engine's state
  // (0 idle, 1 searching, 2 quit).
  function dispatch(state) {
    // A fresh view each time: the memory may have grown (and its old buffer detached).
    const text = decoder.decode(
      new Uint8Array(ex.memory.buffer, ex.tsumugi_reply_ptr(), ex.tsumugi_reply_len()),
    );
    if (state === 2) {
      ended = true;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      for (const listener of [...listeners]) {
        listener(line);
      }
    }
    return state;
  }

  function call(fn) {
    try {
      return dispatch(fn());
    } catch (e) {
      // The module trapped (a panic, or memory exhausted): it cannot go on.
      ended = true;
      printErr(`tsumugi: the engine stopped: ${e && e.message ? e.message : e}`);
      return 2;
    }
  }

  return {
    postMessage(command) {
      if (ended) return;
      const bytes = encoder.encode(String(command));
      call(() => {
        const ptr = ex.tsumugi_alloc(bytes.length);
        new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
        try {
          return ex.tsumugi_usi_command(ptr, bytes.length);
        } finally {
          ex.tsumugi_free(ptr, bytes.length);
        }
      });
    },
    addMessageListener(listener) {
      listeners.add(listener);
    },
    removeMessageListener(listener) {
      listeners.delete(listener);
    },
    poll() {
      if (ended) return;
      call(() => ex.tsumugi_usi_poll());
    },
    terminate() {
      if (ended) return;
      ended = true;
      try {
        ex.tsumugi_usi_terminate();
      } catch {
        // Already trapped: nothing to free.
      }
      listeners.clear();
    },
  };
}
