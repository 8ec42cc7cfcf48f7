// What the browser-side tests share (web/tests/*.test.mjs, web/shogihome/tests/, web/bench.mjs):
// where the built files and the native binary are, a static file server, headless Chromium
// with the flags these machines need, the WebAssembly module loaded in Node, and the native
// binary's output for reference answers. Not a test file itself (node --test picks only
// *.test.mjs here).
//
// Environment: TSUMUGI_WEB_SITE (the page's site, scripts/build-web; default
// target/web/site), TSUMUGI_BIN (the native release binary; default target/release/tsumugi),
// TSUMUGI_CHROMIUM (default /usr/bin/chromium), TSUMUGI_PROBLEMS (the shared problem sets;
// default ../shared/problems beside the repository), TSUMUGI_SHOGIHOME_ENGINE (the files of
// scripts/build-shogihome-engine; default target/shogihome-engine/tsumugi).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const web = path.resolve(here, '..');
export const repo = path.resolve(web, '..');
export const testData = path.join(here, 'data');
export const site = process.env.TSUMUGI_WEB_SITE || path.join(repo, 'target/web/site');
export const bin = process.env.TSUMUGI_BIN || path.join(repo, 'target/release/tsumugi');
export const problems = process.env.TSUMUGI_PROBLEMS || path.join(repo, '..', 'shared/problems');
export const chromiumPath = process.env.TSUMUGI_CHROMIUM || '/usr/bin/chromium';
export const shogihomeEngine = process.env.TSUMUGI_SHOGIHOME_ENGINE
  || path.join(repo, 'target/shogihome-engine/tsumugi');
// Screenshots.
export const shots = path.join(web, 'test-results');

// The README's problem: mate in 9 plies strict, 3 as composers count (three useless pawn
// interpositions left out).
export const EXAMPLE = '9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1';
// No mate, and a long search to prove it (the engine tests' stop position).
export const HARD_NOMATE = '6k2/9/9/9/9/9/9/9/9 b B2GS2L2P2rb2g3s4n2l16p 1';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// Serves the files under `dir` on a free local port (`/` is index.html; nothing outside `dir`).
// Resolves to {base: 'http://127.0.0.1:<port>/', close()}.
export async function serveDir(dir) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const name = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = path.join(root, path.normalize(name));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}/`,
    close: () => server.close(),
  };
}

// Headless Chromium as it runs here: as root in a container (no sandbox), without a GPU or
// /dev/shm to speak of, and without its own network traffic.
export function launchChromium() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

// A new page that records its errors (uncaught exceptions, console errors) in `page.errors`.
export async function newPage(context, url, options = {}) {
  const page = await context.newPage(options);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.errors = errors;
  if (url) await page.goto(url);
  return page;
}

// The native binary's stdout for `args` as bytes; `check` exits 1 for a flawed problem, which
// is an answer too.
export function nativeBytes(args, options = {}) {
  try {
    return execFileSync(bin, args, { timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (e) {
    if (e.status === 1 && e.stdout) return e.stdout;
    throw e;
  }
}

// The native binary's stdout for `args` as text, without the final newline.
export function native(args) {
  return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
}

// The page's and the module's modes as `tsumugi solve --post-search` words.
export const POST_SEARCH = { strict: 'shortest', composer: 'composer', first: 'none' };

// What `tsumugi solve` prints for `sfen` with one thread (the same search node for node as the
// module's): `mode` a page mode, `extra` more arguments (`--format kifu`, `--nodes 50`, ...).
export function nativeSolve(sfen, { mode = 'strict', hashMb = 16, extra = [] } = {}) {
  return native(['solve', '--threads', '1', '--hash-mb', String(hashMb),
    '--post-search', POST_SEARCH[mode], ...extra, sfen]);
}

// tsumugi.wasm (the page's module, or `file`) instantiated in Node, with the calls of its API:
// `reply()` parses the last reply; `start`, `inspect` pass a request as the page's worker does.
export async function loadWasm({ file = path.join(site, 'tsumugi.wasm'), onLog } = {}) {
  const bytes = fs.readFileSync(file);
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  let ex;
  const logs = [];
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: {
      tsumugi_now_ms: () => performance.now(),
      tsumugi_log: (p, l) => {
        const text = dec.decode(new Uint8Array(ex.memory.buffer, p, l));
        logs.push(text);
        if (onLog) onLog(text);
      },
    },
  });
  ex = instance.exports;
  const withBytes = (fn, b) => {
    const p = ex.tsumugi_alloc(b.length);
    new Uint8Array(ex.memory.buffer, p, b.length).set(b);
    const rc = fn(p, b.length);
    ex.tsumugi_free(p, b.length);
    return rc;
  };
  return {
    ex,
    logs,
    reply: () => JSON.parse(dec.decode(new Uint8Array(ex.memory.buffer, ex.tsumugi_reply_ptr(), ex.tsumugi_reply_len()))),
    start: (req) => withBytes(ex.tsumugi_start, enc.encode(typeof req === 'string' ? req : JSON.stringify(req))),
    inspect: (sfen) => withBytes(ex.tsumugi_inspect, enc.encode(sfen)),
    inspectBytes: (b) => withBytes(ex.tsumugi_inspect, b),
  };
}

// The lines of a problem set of TSUMUGI_PROBLEMS as fields (header and comments left out), or
// null when the set is absent.
export function readSet(name) {
  const file = path.join(problems, name);
  if (!fs.existsSync(file)) return null;
  return fs.readFileSync(file, 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('sfen\t'))
    .map((l) => l.split('\t'));
}
