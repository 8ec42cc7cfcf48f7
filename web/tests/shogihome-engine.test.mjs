// tsumugi's ShogiHome engine (scripts/build-shogihome-engine: engine.json, tsumugi.js,
// tsumugi.wasm) driven in Node exactly as ShogiHome's worker drives an engine of its ABI
// (src/renderer/wasm-engine/engine.worker.ts in ShogiHome): the module's default export called
// with printErr and locateFile, one postMessage per command, poll() every 10 ms while a `go`
// awaits its `bestmove` or `checkmate`. This runs without ShogiHome (CI has only package
// registries); scripts/test-shogihome runs ShogiHome's own conformance test and web build.
//   cd web && node --test tests/   (scripts/test-web; needs scripts/build-shogihome-engine and
//   the native release binary)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXAMPLE, HARD_NOMATE, native, shogihomeEngine as dir } from './support.mjs';

const POLL_MS = 10;

const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, 'engine.json'), 'utf8'));

// The host: ShogiHome's worker's steps (launch, sendToEngine, the poll timer).
async function launch() {
  const m = manifest();
  const moduleURL = pathToFileURL(path.join(dir, m.module)).href;
  const factory = (await import(moduleURL)).default;
  const stderr = [];
  const engine = await factory({
    printErr: (line) => stderr.push(line),
    locateFile: (file) => new URL(file, moduleURL).href,
  });
  for (const name of ['postMessage', 'addMessageListener', 'removeMessageListener', 'terminate', 'poll']) {
    assert.equal(typeof engine[name], 'function', name);
  }
  const lines = [];
  let timer;
  let awaiting = false;
  engine.addMessageListener((line) => {
    lines.push(line);
    if (line.startsWith('bestmove ') || line.startsWith('checkmate ')) {
      awaiting = false;
      clearInterval(timer);
      timer = undefined;
    }
  });
  return {
    engine,
    lines,
    stderr,
    send(line) {
      if (line === 'go' || line.startsWith('go ') || line.startsWith('ponderhit')) awaiting = true;
      engine.postMessage(line);
      if (awaiting && timer === undefined) timer = setInterval(() => engine.poll(), POLL_MS);
    },
    // Lines up to the first matching one (within `ms`).
    async until(match, ms = 30000) {
      const end = Date.now() + ms;
      for (;;) {
        const i = lines.findIndex(match);
        if (i >= 0) return lines.splice(0, i + 1);
        if (Date.now() > end) throw new Error(`timeout; lines: ${lines.join(' / ')}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    stopPolling() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

function nativeAnswer(sfen, extra = []) {
  return native(['solve', '--threads', '1', ...extra, sfen]);
}

test('engine.json: what the engine declares, presets with Threads 1 and known options', async () => {
  const m = manifest();
  assert.equal(m.abi, 'shogihome-wasm-engine/1');
  assert.equal(m.moduleFormat, 'esm');
  assert.ok(fs.existsSync(path.join(dir, m.module.replace(/\.js$/, '.wasm'))));
  const e = await launch();
  e.send('usi');
  const out = await e.until((l) => l === 'usiok');
  assert.equal(out[0], `id name ${m.name}`);
  assert.equal(out[1], `id author ${m.author}`);
  const declared = out.filter((l) => l.startsWith('option '));
  // The manifest's options, written back as option lines, are the engine's own.
  const written = m.options.map((o) => {
    let s = `option name ${o.name} type ${o.type}`;
    if (o.default !== undefined) s += ` default ${o.default}`;
    if (o.min !== undefined) s += ` min ${o.min}`;
    if (o.max !== undefined) s += ` max ${o.max}`;
    for (const v of o.vars || []) s += ` var ${v}`;
    return s;
  });
  // JSON numbers past 2^53 come back rounded: compare NodesLimit's maximum as digits.
  const raw = fs.readFileSync(path.join(dir, 'engine.json'), 'utf8');
  assert.match(raw, /"max": 9223372036854775807/);
  assert.deepEqual(
    written.map((l) => l.replace(/max 9223372036854776000$/, 'max 9223372036854775807')),
    declared,
  );
  const hash = m.options.find((o) => o.name === 'USI_Hash');
  assert.equal(hash.max, 256);
  assert.deepEqual(m.options.find((o) => o.name === 'Threads'), { name: 'Threads', type: 'spin', default: 1, min: 1, max: 1 });
  assert.ok(m.presets.length >= 1);
  for (const p of m.presets) {
    assert.equal(p.values.Threads, 1, p.id);
    assert.match(p.id, /^tsumugi-[a-z-]+-v\d+$/);
  }
  e.send('quit');
});

test('go mate: one checkmate line, the native answer, info lines first', async () => {
  const e = await launch();
  for (const [preset, flag] of [['shortest', 'shortest'], ['composer', 'composer'], ['none', 'none']]) {
    e.send(`setoption name PostSearch value ${preset}`);
    e.send('setoption name USI_Hash value 64');
    e.send('isready');
    await e.until((l) => l === 'readyok');
    e.send(`position sfen ${EXAMPLE}`);
    e.send('go mate 20000');
    const out = await e.until((l) => l.startsWith('checkmate'));
    const answer = out[out.length - 1];
    assert.equal(answer, nativeAnswer(EXAMPLE, ['--hash-mb', '64', '--post-search', flag]), preset);
    assert.ok(out.some((l) => /^info time \d+ nodes \d+ nps \d+ hashfull \d+ score mate \d+ pv /.test(l)), out.join('\n'));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(e.lines.filter((l) => l.startsWith('checkmate')), [], 'a second answer');
  }
  assert.deepEqual(e.stderr, []);
  e.send('quit');
});

test('plain go: the first move of the mate, or resign', async () => {
  const e = await launch();
  e.send('setoption name USI_Hash value 16');
  e.send(`position sfen ${EXAMPLE}`);
  e.send('go btime 10000 wtime 10000 byoyomi 1000');
  const out = await e.until((l) => l.startsWith('bestmove'));
  const mate = nativeAnswer(EXAMPLE, ['--hash-mb', '16', '--post-search', 'none']).split(' ');
  assert.equal(out[out.length - 1], `bestmove ${mate[1]}`);
  e.send('position startpos');
  e.send('go btime 1000 wtime 1000');
  assert.equal((await e.until((l) => l.startsWith('bestmove'))).pop(), 'bestmove resign');
  e.send('quit');
});

test('stop during a search: answered within the postMessage call', async () => {
  const e = await launch();
  e.send('setoption name USI_Hash value 16');
  e.send(`position sfen ${HARD_NOMATE}`);
  e.send('go mate infinite');
  await new Promise((r) => setTimeout(r, 500));
  const before = e.lines.length;
  e.engine.postMessage('stop');
  const after = e.lines.slice(before);
  assert.equal(after[after.length - 1], 'checkmate timeout', after.join('\n'));
  e.send('quit');
});

test('nothing after quit or terminate(), even during a search', async () => {
  for (const how of ['quit', 'terminate']) {
    const e = await launch();
    e.send('setoption name USI_Hash value 16');
    e.send(`position sfen ${HARD_NOMATE}`);
    e.send('go mate infinite');
    await new Promise((r) => setTimeout(r, 200));
    if (how === 'quit') e.engine.postMessage('quit');
    else e.engine.terminate();
    e.lines.length = 0;
    for (let i = 0; i < 20; i++) {
      e.engine.poll();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    e.engine.postMessage('usi');
    e.stopPolling();
    assert.deepEqual(e.lines, [], how);
  }
});

test('USI_Hash: 256 MB is allocated and searched with; more is refused, the value kept', async () => {
  const e = await launch();
  e.send('setoption name USI_Hash value 257');
  assert.match(e.lines.pop(), /^info string error: setoption USI_Hash: 257 is out of range 1\.\.256$/);
  e.send('setoption name USI_Hash value 256');
  e.send('isready');
  await e.until((l) => l === 'readyok');
  e.send(`position sfen ${EXAMPLE}`);
  e.send('go mate 20000');
  const out = await e.until((l) => l.startsWith('checkmate'));
  assert.equal(out.pop().split(' ').length, 10);
  assert.deepEqual(e.stderr, []);
  e.send('quit');
});

test('NodesLimit: the node count of all the slices together, exactly', async () => {
  const e = await launch();
  e.send('setoption name USI_Hash value 16');
  e.send('setoption name NodesLimit value 200000');
  e.send(`position sfen ${HARD_NOMATE}`);
  e.send('go mate infinite');
  const out = await e.until((l) => l.startsWith('checkmate'));
  assert.equal(out.pop(), 'checkmate timeout');
  const info = out.filter((l) => l.startsWith('info time')).pop();
  assert.equal(info.split(' ')[4], '200000', info);
  e.send('quit');
});
