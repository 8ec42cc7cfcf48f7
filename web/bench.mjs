// The WebAssembly solver's speed against the native binary's on `tsumugi bench`'s positions
// (the same list, node limit, 16 MB table per position, one thread):
//   scripts/build-web && cargo build --release && (cd web && node bench.mjs [--rounds 3])
// Each round runs, one after the other: the native `tsumugi bench`, the wasm build in headless
// Chromium (in the page's Web Worker, as users run it) and the wasm build in Node (V8 without a
// browser). Prints each run's nodes and nodes/s, then the nodes/s ratios to the native run of
// the same round and their median. The node totals must be equal (the same search node for
// node); the script fails otherwise.

import { execFileSync } from 'node:child_process';
import { bin, launchChromium, loadWasm, serveDir, site } from './tests/support.mjs';

const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;

function native() {
  const out = execFileSync(bin, ['bench'], { encoding: 'utf8' });
  const m = out.trim().split('\n').pop().match(/^nodes (\d+) time_ms (\d+) nps (\d+)$/);
  return { nodes: Number(m[1]), time_ms: Number(m[2]), nps: Number(m[3]) };
}

async function inNode() {
  const m = await loadWasm({ onLog: (text) => console.error(text) });
  m.ex.tsumugi_bench(0);
  return m.reply();
}

const server = await serveDir(site);
const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(`${server.base}index.html`);
await page.waitForFunction(() => document.body.dataset.state === 'ready');

async function inChromium() {
  // A worker of its own, loaded like the page's.
  return page.evaluate(() => new Promise((resolve, reject) => {
    const w = new Worker('worker.js');
    w.onmessage = (ev) => {
      if (ev.data.type === 'ready') w.postMessage({ type: 'bench', id: 1, hash_mb: 0 });
      else if (ev.data.type === 'bench') { w.terminate(); resolve(ev.data.reply); }
      else if (ev.data.type === 'fatal' || ev.data.type === 'error') reject(new Error(ev.data.error));
    };
  }));
}

const runs = { native: [], chromium: [], node: [] };
for (let i = 0; i < rounds; i += 1) {
  for (const [name, f] of [['native', native], ['chromium', inChromium], ['node', inNode]]) {
    const r = await f();
    runs[name].push(r);
    console.log(`round ${i + 1} ${name.padEnd(8)} nodes ${r.nodes} time_ms ${Math.round(r.time_ms)} nps ${r.nps}`);
  }
}
await browser.close();
server.close();

const nodes = new Set(Object.values(runs).flat().map((r) => r.nodes));
if (nodes.size !== 1) {
  console.error(`node totals differ: ${[...nodes].join(', ')}`);
  process.exit(1);
}
// Ratios within each round (its runs are seconds apart, so a busy machine slows them alike
// more often than not), then their median over the rounds.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = (name) => runs[name].map((r, i) => r.nps / runs.native[i].nps);
const show = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
const nps = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v.map((r) => r.nps))]));
console.log(`median nps: native ${nps.native}, wasm in Chromium ${nps.chromium}, wasm in Node ${nps.node}`);
console.log(`wasm/native nps per round: Chromium ${show(ratios('chromium'))}; Node ${show(ratios('node'))}`);
console.log(`median ratio wasm/native: Chromium ${median(ratios('chromium')).toFixed(2)}, Node ${median(ratios('node')).toFixed(2)}`);
