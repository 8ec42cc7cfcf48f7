// The WebAssembly module's API (src/wasm/) in Node, without a browser: the bench's node
// signature equals the native binary's (the core compiled unchanged in logic), searches in
// slices end with the native answer, stop answers at once, and bad requests get errors.
//   cd web && node --test tests/   (scripts/test-web; needs scripts/build-web and the native
//   release binary)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { errorJa, solverText } from '../i18n.js';
import { EXAMPLE, loadWasm as load, native, testData } from './support.mjs';

// `tsumugi solve --format json` with one thread and a 16 MB table, and more arguments.
const nativeJson = (args) => native(['solve', '--threads', '1', '--hash-mb', '16', '--format', 'json', ...args]);

test("tsumugi_bench: the native bench's node signature, position by position", async () => {
  const m = await load();
  assert.equal(m.ex.tsumugi_bench(0), 0);
  const r = m.reply();
  const nat = native(['bench']).split('\n');
  const strip = (l) => l.replace(/ time_ms \d+$/, '');
  assert.deepEqual(r.lines.map(strip), nat.slice(0, -1).map(strip));
  assert.equal(`nodes ${r.nodes}`, nat.at(-1).replace(/ time_ms.*/, ''));
});

test('a search in node-bounded slices ends with the native answer', async () => {
  const m = await load();
  for (const [mode, post] of [['strict', 'shortest'], ['composer', 'composer']]) {
    assert.equal(m.start({ sfen: EXAMPLE, mode, hash_mb: 16 }), 0);
    let slices = 0;
    let rc;
    while ((rc = m.ex.tsumugi_advance(500, 0)) === 0) {
      slices += 1;
      const p = m.reply();
      assert.equal(p.done, false);
      assert.ok(p.nodes >= 500 * slices, `progress counts every slice's nodes: ${p.nodes}`);
    }
    assert.equal(rc, 1);
    assert.ok(slices > 0, 'the search needs more than one 500-node slice');
    const r = m.reply();
    const expected = native(['solve', '--threads', '1', '--hash-mb', '16', '--post-search', post, EXAMPLE]);
    assert.equal(r.answer, expected);
    assert.equal(r.line.sfens.length, r.line.usi.length + 1);
    // Advancing a finished search repeats its answer.
    assert.equal(m.ex.tsumugi_advance(500, 0), 1);
    assert.equal(m.reply().answer, expected);
  }
});

test('stop answers at once with what is established; limits end the search', async () => {
  const m = await load();
  assert.equal(m.start({ sfen: EXAMPLE, hash_mb: 16 }), 0);
  assert.equal(m.ex.tsumugi_stop(), 1);
  let r = m.reply();
  assert.equal(r.answer, 'checkmate timeout');
  assert.equal(r.reason, 'stopped');
  // A node limit over all slices: ends as the native --nodes does.
  assert.equal(m.start({ sfen: EXAMPLE, hash_mb: 16, nodes: 50 }), 0);
  let rc;
  while ((rc = m.ex.tsumugi_advance(20, 0)) === 0);
  r = m.reply();
  assert.equal(rc, 1);
  assert.equal(r.nodes, 50);
  assert.equal(r.answer, native(['solve', '--threads', '1', '--hash-mb', '16', '--nodes', '50', EXAMPLE]));
});

test('bad requests are answered with errors, never a trap', async () => {
  const m = await load();
  assert.equal(m.ex.tsumugi_advance(0, 10), -1);
  assert.equal(m.ex.tsumugi_stop(), -1);
  assert.equal(m.start('{not json'), 1);
  assert.match(m.reply().error, /not JSON/);
  assert.equal(m.start({ sfen: EXAMPLE, mode: 'fast' }), 1);
  assert.match(m.reply().error, /mode 'fast'/);
  assert.equal(m.start({ sfen: EXAMPLE, hash_mb: 0.5 }), 1);
  assert.match(m.reply().error, /hash_mb/);
  assert.equal(m.start({ sfen: '9/9/9 b - 1' }), 1);
  assert.match(m.reply().error, /^bad SFEN: /);
  assert.equal(m.inspect('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1'), 0);
  assert.deepEqual(m.reply(), {
    ok: true, sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1', side: 'w', in_check: false,
    attacker: 'w', format: 'sfen',
  });
  assert.equal(m.inspect('\u0000\uffff'), 1);
  assert.equal(m.reply().ok, false);
  assert.deepEqual(m.logs, []);
});

test('tsumugi_inspect reads records as tsumugi solve does: a position command with moves, KIF, Shift_JIS, CSA', async () => {
  const m = await load();
  assert.equal(m.inspect(`position sfen ${EXAMPLE} moves G*3i 2h1i 3g1g`), 0);
  assert.deepEqual(m.reply(), {
    ok: true, sfen: '9/9/6P2/9/4B4/9/8R/8+p/6G1k w rb3g4s4n4l16p 4', side: 'w', in_check: true,
    attacker: 'b', format: 'sfen',
  });
  for (const file of ['interposition.kif', 'interposition.csa']) {
    const bytes = fs.readFileSync(path.join(testData, file));
    assert.equal(m.inspectBytes(bytes), 0, file);
    const r = m.reply();
    assert.equal(r.sfen, EXAMPLE, file);
    assert.equal(r.format, file.slice(-3), file);
    const nat = native(['solve', '--threads', '1', '--hash-mb', '16', path.join(testData, file)]);
    assert.equal(nat, native(['solve', '--threads', '1', '--hash-mb', '16', EXAMPLE]), file);
  }
  // Gote to move with Sente's king alone on the board: Gote mates.
  assert.equal(m.inspect('9/9/9/9/9/9/4p4/9/4K4 w g 1'), 0);
  assert.equal(m.reply().attacker, 'w');
});

// Faults of every reader, each rendered in Japanese by web/i18n.js (no English words left
// outside the quoted input and SFEN text).
const FAULTS = [
  '9/9/9/9/9 b - 1',
  `position sfen ${EXAMPLE} moves G*3i 2h1i 3g1x`,
  `position sfen ${EXAMPLE} moves G*3i 2h1i 2h1g`,
  `${EXAMPLE} BGS6P2rb2p`,
  '4k4/9/9/9/9/9/9/9/K3K4 b - 1',
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1',
  '4k4/9/9/9/9/9/9/9/4K4 b 19P 1',
  'P3k4/9/9/9/9/9/9/9/4K4 b - 1',
  '4k4/9/9/9/9/9/P8/P8/4K4 b - 1',
  '4k4/4R4/9/9/9/9/9/9/4K4 b - 1',
  '4k4/9/9/9/9/9/9/9/4K4 b 3X 1',
  '4k4/9/9/9/9/9/9/9/4K4 b - 0',
  'hello world',
  '',
  '後手の持駒：なし\n| ・ ・ ・ ・ 猫 ・ ・ ・ ・|一\n',
  '手合割：平手\n   1 ７六歩(77)\n   2 ９九猫(11)\n',
  '手合割：平手\n   1 ７五歩(77)\n',
  'PI\n+\n+7776XX\n',
  'PI\n+\n-3334FU\n',
  'P1 *  *  *  *  *  *  *  *  * \n+\n',
];

test('every fault of reading a position has a Japanese rendering', async () => {
  const m = await load();
  const inputs = [...FAULTS.map((t) => new TextEncoder().encode(t)), Uint8Array.from([0x6f, 0x6b, 0x0a, 0xff, 0xff, 0xff])];
  for (const bytes of inputs) {
    const label = new TextDecoder().decode(bytes);
    assert.equal(m.inspectBytes(bytes), 1, label);
    const r = m.reply();
    assert.equal(r.ok, false, label);
    assert.equal(r.error, r.line ? `line ${r.line}: ${r.reason}` : r.reason, label);
    const ja = solverText('ja').error(r);
    const rest = errorJa(r.reason).replace(/'[^']*'/g, '').replace(/\S*\/\S*/g, '')
      .replace(/Shift_JIS/g, '');
    assert.doesNotMatch(rest, /[a-z]{3,}/, `${label} -> ${r.error} -> ${ja}`);
    assert.equal(solverText('en').error(r), r.error);
  }
  assert.deepEqual(m.logs, []);
});

// ---------------------------------------------------------------- the root's first moves
// After an answer, tsumugi_first_moves and its slices list what `tsumugi solve --multipv N
// --format json` lists (first_moves, or refutations of a no mate), on the same table.

// G*2b mates in 1; G*2a and S*2b in 3, S*1b in 5; every other check is refuted.
const SEVERAL_MATES = '8k/9/9/9/9/9/9/9/7R1 b GS 1';
// No mate: 8 checks, each refuted.
const NO_MATE_8 = '4k4/9/9/9/9/9/9/9/9 b 2GS 1';

function solveAll(m, sfen) {
  assert.equal(m.start({ sfen, hash_mb: 16 }), 0);
  while (m.ex.tsumugi_advance(0, 0) === 0);
  return m.reply();
}

function firstMoves(m, req) {
  const b = new TextEncoder().encode(JSON.stringify(req));
  const p = m.ex.tsumugi_alloc(b.length);
  new Uint8Array(m.ex.memory.buffer, p, b.length).set(b);
  const rc = m.ex.tsumugi_first_moves(p, b.length);
  m.ex.tsumugi_free(p, b.length);
  return rc;
}

const pick = (e) => ({
  move: e.move, result: e.result, length: e.length, minimal: e.minimal, refuted: e.refutation != null,
});

test('tsumugi_first_moves: the other first moves of a mate, as solve --multipv 4', async () => {
  const m = await load();
  assert.equal(solveAll(m, SEVERAL_MATES).answer, 'checkmate G*2b');
  assert.equal(firstMoves(m, { lines: 4 }), 0);
  assert.deepEqual(m.reply(), { ok: true, kind: 'others', checks: m.reply().checks });
  let rc;
  let slices = 0;
  while ((rc = m.ex.tsumugi_first_moves_advance(5)) === 0) {
    slices += 1;
    const p = m.reply();
    assert.equal(p.done, false);
    // Progress lists decided checks only.
    assert.ok(p.moves.every((e) => e.result !== 'unknown'), JSON.stringify(p.moves));
  }
  assert.equal(rc, 1);
  const r = m.reply();
  assert.equal(r.done, true);
  assert.equal(r.reason, null);
  const native = JSON.parse(nativeJson(['--multipv', '4', SEVERAL_MATES]));
  assert.deepEqual(r.moves.map(pick), native.first_moves.map(pick));
  assert.deepEqual(r.moves.map((e) => [e.move, e.length]), [['G*2a', 3], ['S*2b', 3], ['S*1b', 5]]);
  assert.ok(r.moves.every((e) => e.minimal === true));
  for (const e of r.moves) {
    assert.equal(e.line.usi.join(' '), e.moves);
    assert.equal(e.line.sfens.length, e.line.usi.length + 1);
    assert.match(e.kif, /詰み/);
  }
  // The answer is untouched, and the finished enquiry repeats itself.
  assert.equal(m.ex.tsumugi_advance(0, 0), 1);
  assert.equal(m.reply().answer, 'checkmate G*2b');
  assert.equal(m.ex.tsumugi_first_moves_advance(5), 1);
  assert.deepEqual(m.reply(), r);
  assert.deepEqual(m.logs, []);
  console.log(`first moves in ${slices + 1} slices of 5 ms`);
});

test('tsumugi_first_moves: a no mate gets a refutation of each of its 8 checks, as solve does', async () => {
  const m = await load();
  assert.equal(solveAll(m, NO_MATE_8).answer, 'checkmate nomate');
  // `lines` does not matter for a no mate.
  assert.equal(firstMoves(m, {}), 0);
  assert.equal(m.reply().kind, 'refutations');
  assert.equal(m.ex.tsumugi_first_moves_advance(0), 1);
  const r = m.reply();
  assert.equal(r.moves.length, 8);
  assert.match(r.heading.en, /each of the 8 checks/);
  const native = JSON.parse(nativeJson([NO_MATE_8]));
  assert.deepEqual(r.moves.map((e) => e.move).sort(), native.refutations.map((e) => e.move).sort());
  for (const e of r.moves) {
    assert.equal(e.result, 'nomate');
    assert.ok(e.refutation, JSON.stringify(e));
    assert.deepEqual(e.line.usi, [e.move, e.refutation]);
  }
});

test('tsumugi_first_moves: nothing to add, errors, and a stop keeps what is established', async () => {
  const m = await load();
  assert.equal(m.ex.tsumugi_first_moves_advance(5), -1);
  assert.equal(m.ex.tsumugi_first_moves_stop(), -1);
  assert.equal(firstMoves(m, { lines: 2 }), 1);
  assert.match(m.reply().error, /no answer/);
  // A stopped search has no answer to add to.
  assert.equal(m.start({ sfen: SEVERAL_MATES, hash_mb: 16 }), 0);
  assert.equal(m.ex.tsumugi_stop(), 1);
  assert.equal(firstMoves(m, { lines: 2 }), 1);
  solveAll(m, SEVERAL_MATES);
  assert.equal(firstMoves(m, { lines: 1 }), 0);
  assert.equal(m.reply().kind, 'none');
  assert.equal(m.ex.tsumugi_first_moves_advance(5), -1);
  assert.equal(firstMoves(m, { lines: -1 }), 1);
  assert.match(m.reply().error, /"lines"/);
  // Stopped before any search: every check undecided, for that reason.
  assert.equal(firstMoves(m, { lines: 600 }), 0);
  const checks = m.reply().checks;
  assert.equal(m.ex.tsumugi_first_moves_stop(), 1);
  let r = m.reply();
  assert.equal(r.reason, 'stopped');
  assert.equal(r.moves.length, checks);
  assert.ok(r.moves.every((e) => e.result === 'unknown' && e.reason === 'stopped'));
  // A time budget of 1 ms: what was decided in it, the rest undecided for the time.
  assert.equal(firstMoves(m, { lines: 600, time_ms: 1 }), 0);
  while (m.ex.tsumugi_first_moves_advance(0) === 0);
  r = m.reply();
  assert.equal(r.moves.length, checks);
  for (const e of r.moves) {
    if (e.result === 'unknown') assert.equal(e.reason, 'time limit reached');
  }
  assert.deepEqual(m.logs, []);
});
