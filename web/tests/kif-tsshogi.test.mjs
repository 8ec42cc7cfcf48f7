// The KIF that the native binary writes, opened by ShogiHome's own KIF reader (tsshogi's
// importKIF): `solve --format kif` (Shift_JIS, as a .kif is) and `--format kifu` (UTF-8) give
// the problem and the moves of the binary's USI answer; `check --format kif` gives the main
// line with each finding as a branch (変化) at its ply, commented with the finding's name.
//
// Needs only the native binary (no WebAssembly build):
//   cd web && node --test tests/kif-tsshogi.test.mjs   (TSUMUGI_BIN, default ../target/release/tsumugi)

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { importKIF } from "tsshogi";
import { bin, nativeBytes as run } from "./support.mjs";

const skip = fs.existsSync(bin) ? false : `no native tsumugi binary at ${bin} (set TSUMUGI_BIN)`;

const sjis = (bytes) => new TextDecoder("shift_jis", { fatal: true }).decode(bytes);
const utf8 = (bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes);

function parse(text) {
  const record = importKIF(text);
  assert.ok(!(record instanceof Error), `tsshogi rejected the KIF: ${record}\n${text}`);
  return record;
}

/** The USI moves of the record's main line (the special move 詰み left out). */
function mainLine(record) {
  const moves = [];
  for (let node = record.first.next; node; node = node.next) {
    if (node.move && typeof node.move.usi === "string") moves.push(node.move.usi);
  }
  return moves;
}

/** Board, side and hand of a SFEN (the move number differs by writer). */
const key = (sfen) => sfen.split(" ").slice(0, 3).join(" ");

const PROBLEMS = [
  "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1",
  "8k/9/9/9/6S2/9/9/9/9 b RL 1",
  "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
];

test("solve --format kif is Shift_JIS and kifu UTF-8; tsshogi reads the USI line from both", { skip }, () => {
  for (const sfen of PROBLEMS.slice(0, 2)) {
    const usi = run(["solve", "--threads", "1", "--hash-mb", "16", sfen]).toString().trim();
    assert.match(usi, /^checkmate /);
    const want = usi.split(/\s+/).slice(1);
    const kifBytes = run(["solve", "--format", "kif", "--threads", "1", "--hash-mb", "16", sfen]);
    assert.throws(() => utf8(kifBytes), "a .kif is written in Shift_JIS, not UTF-8");
    const kifuBytes = run(["solve", "--format", "kifu", "--threads", "1", "--hash-mb", "16", sfen]);
    assert.ok(!(kifuBytes[0] === 0xef && kifuBytes[1] === 0xbb), "no BOM in a .kifu");
    for (const text of [sjis(kifBytes), utf8(kifuBytes)]) {
      const record = parse(text);
      assert.equal(key(record.initialPosition.sfen), key(sfen));
      assert.deepEqual(mainLine(record), want);
    }
  }
});

test("check --format kif: each finding is a 変化 at its ply with its name as a comment", { skip }, () => {
  // A 7-ply problem with an alternative mate (余詰) at ply 5 (engine-tests/test_check.py).
  const sfen = "8k/9/9/7+B1/9/9/9/9/9 b BN 1";
  const line = "2d3c 1a1b B*2c 1b2a N*1c 2a3a 2c3b+";
  const args = ["check", "--time-ms", "20000", "--hash-mb", "32", "--solution", line, sfen];
  const report = JSON.parse(run([...args, "--format", "json"]).toString());
  const withMoves = report.findings.filter((f) => f.moves !== "" && f.ply > 0);
  assert.ok(withMoves.some((f) => f.kind === "alternative" && f.ply === 5), JSON.stringify(report));
  for (const [format, decode] of [["kif", sjis], ["kifu", utf8]]) {
    const record = parse(decode(run([...args, "--format", format])));
    assert.equal(key(record.initialPosition.sfen), key(sfen));
    assert.deepEqual(mainLine(record), line.split(" "));
    // Every branch off the main line: its ply, first move and comment.
    const branches = [];
    for (let node = record.first.next; node; node = node.next) {
      for (let b = node.branch; b; b = b.branch) {
        branches.push({ ply: b.ply, usi: b.move.usi, comment: b.comment });
      }
    }
    for (const f of withMoves) {
      // A finding's moves leave the main line at its ply, or later when they begin with it.
      const main = line.split(" ");
      const moves = f.moves.split(" ");
      let ply = f.ply;
      while (moves.length && main[ply - 1] === moves[0]) {
        moves.shift();
        ply += 1;
      }
      if (!moves.length) continue;
      const b = branches.find((x) => x.ply === ply && x.usi === moves[0]);
      assert.ok(b, `${format}: no branch at ply ${ply} for ${JSON.stringify(f)}; ${JSON.stringify(branches)}`);
      assert.ok(b.comment.includes(f.name), `${format}: comment ${JSON.stringify(b.comment)} lacks ${f.name}`);
    }
    assert.ok(branches.some((b) => b.ply === 5 && b.comment.startsWith("余詰:")), JSON.stringify(branches));
    // The comments are the Japanese report (the KIF is read in a Japanese GUI).
    assert.match(record.first.comment, /tsumugi 検討: 不完全作/);
    const branch = branches.find((b) => b.ply === 5 && b.comment.startsWith("余詰:"));
    assert.match(branch.comment, /別の詰みあり.*\[不備、5手目\]/);
  }
});
