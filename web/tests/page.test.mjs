// Browser tests of the page in real headless Chromium (Playwright), as scripts/test runs them:
//   cd web && node --test tests/
// Needs the built site (scripts/build-web; TSUMUGI_WEB_SITE, default ../target/web/site), the
// native release binary for the reference answers (TSUMUGI_BIN, default
// ../target/release/tsumugi), Chromium (TSUMUGI_CHROMIUM, default /usr/bin/chromium), and the
// shared problem sets for two of the tests (TSUMUGI_PROBLEMS, default ../../shared/problems;
// those tests print SKIPPED when the sets are absent). Screenshots go to web/test-results/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  EXAMPLE, HARD_NOMATE, bin, launchChromium, newPage as openPage, nativeSolve, problems, readSet, serveDir,
  shots, site, testData,
} from './support.mjs';

const HASH_MB = 64;

let server;
let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(site, 'tsumugi.wasm')), `no built site at ${site}: run scripts/build-web`);
  assert.ok(fs.existsSync(bin), `no native binary at ${bin}: run cargo build --release`);
  fs.mkdirSync(shots, { recursive: true });
  server = await serveDir(site);
  browser = await launchChromium();
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

function newPage(query) {
  return openPage(browser, `${server.base}index.html${query || ''}`, { viewport: { width: 1300, height: 1000 } });
}

// What `tsumugi solve` prints on stdout (one thread: the same search node for node).
function nativeAnswer(sfen, mode) {
  return nativeSolve(sfen, { mode, hashMb: HASH_MB });
}

async function solvedAnswer(page, timeout = 60000) {
  await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout });
  return (await page.textContent('#answer')).trim();
}

function query(sfen, mode, extra = '') {
  return `?sfen=${encodeURIComponent(sfen)}&solve=1&mode=${mode}&hash=${HASH_MB}${extra}`;
}


test('the page loads: board, editor, solver ready, no errors', async () => {
  const page = await newPage('');
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  assert.equal(await page.locator('#editor-board .sq').count(), 81);
  assert.equal(await page.inputValue('#sfen'), EXAMPLE);
  assert.ok(await page.isEnabled('#solve'));
  assert.match(page.url(), /sfen=/);
  await page.screenshot({ path: path.join(shots, 'loaded.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("composer mode: the README's problem in 3 plies, as `tsumugi solve --post-search composer`", async () => {
  const expected = nativeAnswer(EXAMPLE, 'composer');
  assert.equal(expected, 'checkmate G*3i 2h1i 3g1g');
  const page = await newPage(query(EXAMPLE, 'composer'));
  assert.equal(await solvedAnswer(page), expected);
  assert.equal(await page.textContent('#japanese'), '▲３九金打 △１九玉 ▲１七飛');
  // Step through the line on the replay board.
  assert.equal(await page.textContent('#r-ply'), '0 / 3');
  await page.click('#r-next');
  assert.equal(await page.textContent('#r-ply'), '1 / 3');
  assert.equal(await page.getAttribute('#replay-board .sq.last', 'data-sq'), '3i');
  assert.equal(await page.textContent('#replay-board .sq[data-sq="3i"]'), '金');
  await page.click('#r-last');
  assert.equal(await page.textContent('#r-ply'), '3 / 3');
  assert.equal(await page.getAttribute('#replay-board .sq.last', 'data-sq'), '1g');
  assert.equal(await page.inputValue('#usi-line'), `position sfen ${EXAMPLE} moves G*3i 2h1i 3g1g`);
  const kif = await page.inputValue('#kif');
  assert.match(kif, /   1 ３九金打 .*\n   2 １九玉\(28\) .*\n   3 １七飛\(37\) .*\n   4 詰み .*\nまで3手で詰み/);
  await page.screenshot({ path: path.join(shots, 'composer-3ply.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The counters' comment (`*nodes N time_ms T`): the time is the run's own; the nodes are the
// sliced search's total, which restarts df-pn from the root each slice.
const withoutCounters = (kif) => kif.replace(/^\*nodes \d+ time_ms \d+$/m, '*nodes - time_ms -');

test('the KIF shown is `tsumugi solve --format kifu` for the same position and mode', async () => {
  for (const mode of ['composer', 'strict', 'first']) {
    const expected = nativeSolve(EXAMPLE, { mode, hashMb: HASH_MB, extra: ['--format', 'kifu'] });
    assert.match(expected, /^\*nodes \d+ time_ms \d+$/m, 'the native KIF has its counters comment');
    const page = await newPage(query(EXAMPLE, mode));
    await solvedAnswer(page);
    const kif = await page.inputValue('#kif');
    assert.equal(withoutCounters(kif).trimEnd(), withoutCounters(expected), mode);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('strict mode: the same problem is 9 plies, as `tsumugi solve`', async () => {
  const expected = nativeAnswer(EXAMPLE, 'strict');
  const page = await newPage(query(EXAMPLE, 'strict'));
  const got = await solvedAnswer(page);
  assert.equal(got, expected);
  assert.equal(got.split(' ').length - 1, 9);
  await page.close();
});

test('strict mode: 7- and 11-ply problems of mate3-11.tsv, as the native binary', async (t) => {
  const rows = readSet('mate3-11.tsv');
  if (!rows) {
    console.log(`SKIPPED: ${problems}/mate3-11.tsv not found (set TSUMUGI_PROBLEMS)`);
    t.skip('problem sets absent');
    return;
  }
  for (const len of ['7', '11']) {
    const [sfen] = rows.find((r) => r[1] === len);
    const expected = nativeAnswer(sfen, 'strict');
    // The set's own length (cshogi-checked when the set was made) is an independent check.
    assert.equal(expected.split(' ').length - 1, Number(len), `native length for ${sfen}`);
    const page = await newPage(query(sfen, 'strict'));
    assert.equal(await solvedAnswer(page), expected, sfen);
    if (len === '11') await page.screenshot({ path: path.join(shots, 'strict-11ply.png'), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('Stop ends the search of a long problem within a second', async (t) => {
  const rows = readSet('long.tsv');
  if (!rows) {
    console.log(`SKIPPED: ${problems}/long.tsv not found (set TSUMUGI_PROBLEMS)`);
    t.skip('problem sets absent');
    return;
  }
  const [sfen] = rows[0]; // Microcosmos, 1525 plies: minutes of search
  const page = await newPage(query(sfen, 'strict', '&time=0'));
  await page.waitForFunction(() => document.body.dataset.state === 'solving');
  // Let it search a while, with progress shown.
  await page.waitForFunction(() => Number(document.getElementById('p-nodes').textContent.replace(/\D/g, '')) > 0,
    null, { timeout: 10000 });
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'solving');
  await page.screenshot({ path: path.join(shots, 'long-searching.png'), fullPage: true });
  const ms = await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      if (document.body.dataset.state === 'done') {
        obs.disconnect();
        resolve(performance.now() - t0);
      }
    });
    obs.observe(document.body, { attributes: true });
    document.getElementById('stop').click();
  }));
  assert.ok(ms < 1000, `stop took ${ms} ms`);
  const answer = (await page.textContent('#answer')).trim();
  assert.match(answer, /^checkmate/);
  assert.match(await page.textContent('#verdict'), /中止|Stopped/);
  assert.ok(await page.isEnabled('#solve'));
  await page.screenshot({ path: path.join(shots, 'long-stopped.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an invalid SFEN shows the error and solves nothing', async () => {
  const bad = '9/9/9/9/9 b - 1';
  const page = await newPage(`?sfen=${encodeURIComponent(bad)}&solve=1`);
  await page.waitForSelector('#error:not([hidden])');
  const text = await page.textContent('#error');
  assert.match(text, /局面が正しくありません|Invalid position/);
  assert.match(text, /SFEN/);
  assert.equal((await page.textContent('#answer')).trim(), '');
  assert.ok(await page.isDisabled('#solve'));
  await page.screenshot({ path: path.join(shots, 'invalid-sfen.png'), fullPage: true });
  // Two kings of one side: a well-formed SFEN of an illegal position.
  await page.fill('#sfen', '4k4/9/9/9/9/9/9/9/K3K4 b - 1');
  await page.click('#load-sfen');
  await page.waitForFunction(() => /king/i.test(document.getElementById('error').textContent));
  await page.close();
});

test('editor: placing, promoting and hands change the SFEN and the URL; labels switch to English', async () => {
  const page = await newPage('?sfen=' + encodeURIComponent('4k4/9/9/9/9/9/9/9/9 b - 1') + '&lang=ja');
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  await page.click('#piece-tools .tool[data-tool="G"]');
  await page.click('#editor-board .sq[data-sq="5c"]');
  assert.equal(await page.inputValue('#sfen'), '4k4/9/4G4/9/9/9/9/9/9 b - 1');
  await page.click('.tool[data-tool="select"]');
  await page.click('#piece-tools .tool[data-tool="S"]');
  await page.click('#editor-board .sq[data-sq="4c"]');
  await page.click('#act-promote');
  await page.click('#act-flip');
  await page.click('[data-hand="bR+"]');
  await page.click('[data-hand="wP+"]');
  await page.click('[data-hand="wP+"]');
  const sfen = await page.inputValue('#sfen');
  assert.equal(sfen, '4k4/9/4G+s3/9/9/9/9/9/9 b R2p 1');
  assert.equal(new URL(page.url()).searchParams.get('sfen'), sfen);
  assert.ok(await page.isHidden('#error'));
  assert.equal(await page.textContent('#solve'), '解く');
  await page.click('#lang');
  assert.equal(await page.textContent('#solve'), 'Solve');
  await page.screenshot({ path: path.join(shots, 'editor-en.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

// ---------------------------------------------------------------- reading positions
// The position box and the file input read what `tsumugi solve` reads (the solver's own
// readers, src/record/, in the module): SFEN, USI `position` commands with moves, KIF/KI2
// board diagrams and moves, CSA; files as bytes (a .kif is Shift_JIS).

// The example problem after its composer line G*3i 2h1i 3g1g (White to move, mated).
const EXAMPLE_AFTER = '9/9/6P2/9/4B4/9/8R/8+p/6G1k w rb3g4s4n4l16p 4';
// A position other than the example, to load the example over.
const OTHER = '4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1';
const EXAMPLE_BOD = [
  '後手の持駒：飛　角　金三　銀四　桂四　香四　歩十六　',
  '  ９ ８ ７ ６ ５ ４ ３ ２ １',
  '+---------------------------+',
  '| ・ ・ ・ ・ ・ ・ ・ ・ ・|一',
  '| ・ ・ ・ ・ ・ ・ ・ ・ ・|二',
  '| ・ ・ ・ ・ ・ ・ 歩 ・ ・|三',
  '| ・ ・ ・ ・ ・ ・ ・ ・ ・|四',
  '| ・ ・ ・ ・ 角 ・ ・ ・ ・|五',
  '| ・ ・ ・ ・ ・ ・ ・ ・ ・|六',
  '| ・ ・ ・ ・ ・ ・ 飛 ・ ・|七',
  '| ・ ・ ・ ・ ・ ・ ・v玉vと|八',
  '| ・ ・ ・ ・ ・ ・ ・ ・ ・|九',
  '+---------------------------+',
  '先手の持駒：金　',
].join('\n');

async function readyPage(sfen, lang = 'en') {
  const page = await newPage(`?sfen=${encodeURIComponent(sfen)}&lang=${lang}&hash=${HASH_MB}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  await page.waitForFunction((s) => document.getElementById('sfen').value === s, sfen);
  return page;
}

// Fills the position box and loads it; resolves once the box or the error changed.
async function loadText(page, text) {
  // The error of a load before is taken down first, so that the wait below sees this one.
  await page.evaluate(() => { document.getElementById('error').hidden = true; });
  await page.fill('#sfen', text);
  await page.click('#load-sfen');
  await page.waitForFunction((t) => {
    const err = document.getElementById('error');
    return !err.hidden || document.getElementById('sfen').value !== t;
  }, text);
}

test("the position box accepts the page's own `position sfen ... moves ...` output", async () => {
  const page = await newPage(query(EXAMPLE, 'composer'));
  await solvedAnswer(page);
  const usi = await page.inputValue('#usi-line');
  assert.equal(usi, `position sfen ${EXAMPLE} moves G*3i 2h1i 3g1g`);
  await loadText(page, usi);
  assert.ok(await page.isHidden('#error'), await page.textContent('#error'));
  assert.equal(await page.inputValue('#sfen'), EXAMPLE_AFTER);
  assert.equal(await page.textContent('#editor-board .sq[data-sq="1i"]'), '玉');
  // The same, typed with Enter.
  await page.fill('#sfen', usi);
  await page.press('#sfen', 'Enter');
  await page.waitForFunction((s) => document.getElementById('sfen').value === s, EXAMPLE_AFTER);
  assert.ok(await page.isHidden('#error'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a KIF board diagram pasted into the position box is read, and so is the page\'s own KIF', async () => {
  const page = await newPage(query(EXAMPLE, 'composer'));
  await solvedAnswer(page);
  const kif = await page.inputValue('#kif');
  await loadText(page, kif);
  assert.ok(await page.isHidden('#error'), await page.textContent('#error'));
  assert.equal(await page.inputValue('#sfen'), EXAMPLE_AFTER);
  await loadText(page, EXAMPLE_BOD);
  assert.ok(await page.isHidden('#error'), await page.textContent('#error'));
  assert.equal(await page.inputValue('#sfen'), EXAMPLE);
  // Solving it gives the native answer.
  await page.click('#solve');
  assert.equal(await solvedAnswer(page), nativeAnswer(EXAMPLE, 'composer'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

for (const [name, file] of [['a Shift_JIS .kif', 'interposition.kif'], ['a .csa', 'interposition.csa']]) {
  test(`${name} file opened with the file input is read`, async () => {
    const page = await readyPage(OTHER);
    await page.setInputFiles('#file', path.join(testData, file));
    await page.waitForFunction((s) => document.getElementById('sfen').value === s, EXAMPLE);
    assert.ok(await page.isHidden('#error'));
    assert.match(await page.textContent('#loaded'), new RegExp(`${file.replace('.', '\\.')} \\((KIF|CSA)\\)`));
    assert.equal(new URL(page.url()).searchParams.get('sfen'), EXAMPLE);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${name} file dropped on the page is read`, async () => {
    const page = await readyPage(OTHER);
    const b64 = fs.readFileSync(path.join(testData, file)).toString('base64');
    const dt = await page.evaluateHandle(({ b64, file }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], file));
      return transfer;
    }, { b64, file });
    await page.dispatchEvent('#solve-panel', 'drop', { dataTransfer: dt });
    await page.waitForFunction((s) => document.getElementById('sfen').value === s, EXAMPLE);
    assert.ok(await page.isHidden('#error'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a file that is no position shows the reader\'s error naming the line', async () => {
  const page = await readyPage(OTHER);
  await page.setInputFiles('#file', {
    name: 'broken.kif', mimeType: 'text/plain',
    buffer: Buffer.from(EXAMPLE_BOD.replace(' 角 ', ' 猫 ')),
  });
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /line \d+: /);
  assert.equal(await page.textContent('#loaded'), '');
  await page.close();
});

test('Japanese mode shows Japanese status and error text', async () => {
  const page = await newPage(`${query(EXAMPLE, 'composer')}&lang=ja`);
  await solvedAnswer(page);
  assert.equal(await page.textContent('#engine-state'), '準備完了');
  const status = await page.textContent('#status-text');
  // A composed answer names its two counts: the composers' (the line) and the strict one.
  assert.match(status, /作意の数え方 \(無駄合を省略\): 3手/);
  assert.match(status, /厳密な手数 \(無駄合も数える\): 9手詰、最短を証明済み/);
  assert.doesNotMatch(status, /[a-z]{3,}/, status);
  // The box's old complaint about its own output, and a fault inside a board diagram.
  await loadText(page, `position sfen ${EXAMPLE} moves G*3i 2h1i 3g1x`);
  let err = await page.textContent('#error');
  assert.match(err, /^局面が正しくありません: 3手目: '3g1x' は USI の指し手ではありません$/, err);
  await loadText(page, '9/9/9/9/9 b - 1');
  err = await page.textContent('#error');
  assert.equal(err, '局面が正しくありません: SFEN が読めません: 盤面が5段あります (9段必要)');
  await loadText(page, EXAMPLE_BOD.replace(' 角 ', ' 猫 '));
  err = await page.textContent('#error');
  assert.match(err, /^局面が正しくありません: \d+行目: /, err);
  assert.doesNotMatch(err.replace(/'[^']*'/g, ''), /[a-z]{3,}/, err);
  // English again: the solver's own words.
  await page.click('#lang');
  assert.match(await page.textContent('#error'), /^Invalid position: line \d+: /);
  await page.screenshot({ path: path.join(shots, 'japanese-error.png'), fullPage: true });
  await page.close();
});

test('invalid input clears the previous answer', async () => {
  const page = await newPage(query(EXAMPLE, 'composer'));
  await solvedAnswer(page);
  assert.notEqual((await page.textContent('#answer')).trim(), '');
  await loadText(page, `position sfen ${EXAMPLE} moves G*3i 2h1i 3g1x`);
  assert.ok(await page.isVisible('#error'));
  for (const id of ['#answer', '#verdict', '#japanese', '#status-text']) {
    assert.equal((await page.textContent(id)).trim(), '', id);
  }
  assert.ok(await page.isHidden('#replay-panel'));
  assert.equal(await page.textContent('#p-nodes'), '-');
  assert.ok(await page.isDisabled('#solve'));
  await page.close();
});

// Any change of the position takes the old answer down: its verdict, line, replay board, USI
// and KIF answer the position before, and a replay board must never show another position
// than the answer's.
async function assertNoAnswer(page, how) {
  for (const id of ['#answer', '#verdict', '#japanese', '#status-text']) {
    assert.equal((await page.textContent(id)).trim(), '', `${how}: ${id}`);
  }
  assert.ok(await page.isHidden('#replay-panel'), `${how}: replay board`);
  assert.equal(await page.textContent('#p-nodes'), '-', how);
  assert.ok(await page.isEnabled('#solve'), how);
}

for (const how of ['a SFEN loaded', 'a .csa file dropped', 'a square erased']) {
  test(`${how} after an answer clears the answer`, async () => {
    const page = await newPage(query(EXAMPLE, 'composer', '&lang=en'));
    await solvedAnswer(page);
    assert.notEqual((await page.textContent('#answer')).trim(), '');
    assert.ok(await page.isVisible('#replay-panel'));
    if (how === 'a SFEN loaded') {
      await loadText(page, `position sfen ${OTHER}`);
      assert.equal(await page.inputValue('#sfen'), OTHER);
    } else if (how === 'a .csa file dropped') {
      await loadText(page, `position sfen ${OTHER}`);
      await page.click('#solve');
      await page.waitForFunction(() => document.getElementById('answer').textContent.trim() !== '');
      await solvedAnswer(page);
      assert.ok(await page.isVisible('#replay-panel'));
      const b64 = fs.readFileSync(path.join(testData, 'interposition.csa')).toString('base64');
      const dt = await page.evaluateHandle((b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'interposition.csa'));
        return transfer;
      }, b64);
      await page.dispatchEvent('#solve-panel', 'drop', { dataTransfer: dt });
      await page.waitForFunction((s) => document.getElementById('sfen').value === s, EXAMPLE);
    } else {
      await page.click('.tool[data-tool="erase"]');
      await page.click('#editor-board .sq[data-sq="3c"]');
      assert.notEqual(await page.inputValue('#sfen'), EXAMPLE);
    }
    await assertNoAnswer(page, how);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a new position loaded during a search abandons it: no answer of the old position appears', async () => {
  const page = await readyPage(HARD_NOMATE, 'en');
  await page.click('#solve');
  await page.waitForFunction(() => document.body.dataset.state === 'solving');
  await loadText(page, `position sfen ${OTHER}`);
  await assertNoAnswer(page, 'loaded during a search');
  // The abandoned search's answer, if the worker still sends one, is not shown.
  await page.waitForTimeout(1500);
  assert.equal((await page.textContent('#answer')).trim(), '');
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('answer').textContent.trim() !== '');
  assert.match((await page.textContent('#answer')).trim(), /^checkmate G\*5b$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the editor names the sides by who mates: Gote to move and mating is Gote (attacker)", async () => {
  // Gote to move mates with G*5h; Sente's king is the one mated.
  const sfen = '9/9/9/9/9/9/4p4/9/4K4 w g 1';
  const ja = await readyPage(sfen, 'ja');
  await ja.waitForFunction(() => document.getElementById('place-side-w').textContent === '後手 (攻方)');
  assert.equal(await ja.textContent('#place-side-b'), '先手 (玉方)');
  assert.equal(await ja.textContent('#rest-to-defender'), '残り駒を玉方 (先手) の持駒に');
  await ja.click('#rest-to-defender');
  assert.equal(await ja.inputValue('#sfen'), '9/9/9/9/9/9/4p4/9/4K4 w 2R2B3G4S4N4L17Pg 1');
  await ja.click('#lang');
  assert.equal(await ja.textContent('#place-side-w'), 'Gote (attacker)');
  assert.equal(await ja.textContent('#place-side-b'), 'Sente (defender)');
  // A usual problem: Sente to move mates.
  await ja.fill('#sfen', OTHER);
  await ja.click('#load-sfen');
  await ja.waitForFunction(() => document.getElementById('place-side-b').textContent === 'Sente (attacker)');
  assert.equal(await ja.textContent('#place-side-w'), 'Gote (defender)');
  assert.deepEqual(ja.errors, []);
  await ja.close();
});

// ---------------------------------------------------------------- other first moves
// After the answer, on the same table: with Lines 2 or more the other first moves of a mate
// (tsumugi solve --multipv), and for a proven no mate each check with its refuting defence.

// G*2b mates in 1; G*2a and S*2b in 3, S*1b in 5; the other checks do not mate.
const SEVERAL_MATES = '8k/9/9/9/9/9/9/9/7R1 b GS 1';
// No mate: each of its 8 checks has a refuting defence.
const NO_MATE_8 = '4k4/9/9/9/9/9/9/9/9 b 2GS 1';

function nativeJson(sfen, extra = []) {
  return JSON.parse(nativeSolve(sfen, { hashMb: HASH_MB, extra: ['--format', 'json', ...extra] }));
}

async function moreDone(page) {
  await page.waitForFunction(() => document.body.dataset.more === 'done', null, { timeout: 60000 });
  return page.$$eval('#more-list li', (lis) => lis.map((li) => ({
    usi: li.dataset.usi, result: li.dataset.result, text: li.firstChild.textContent,
  })));
}

test('Lines 4: the other mating first moves, best first, in English and Japanese, playable', async () => {
  const native = nativeJson(SEVERAL_MATES, ['--multipv', '4']);
  assert.deepEqual(native.first_moves.map((e) => [e.move, e.length, e.minimal]),
    [['G*2a', 3, true], ['S*2b', 3, true], ['S*1b', 5, true]]);
  const page = await newPage(query(SEVERAL_MATES, 'strict', '&lines=4&lang=en'));
  assert.equal(await solvedAnswer(page), 'checkmate G*2b');
  const items = await moreDone(page);
  // The page's lines are the native ones (moves, verdicts).
  assert.deepEqual(items.map((e) => [e.usi.split(' ')[0], e.usi.split(' ').length, e.result]),
    native.first_moves.map((e) => [e.move, e.length, e.result]));
  assert.equal(await page.textContent('#more-title'), 'Other first moves (the best line is 1)');
  assert.equal(await page.getAttribute('#more-list', 'start'), '2');
  assert.match(items[0].text, /^▲２一金打 .*: mate in 3, proven shortest$/);
  assert.match(items[1].text, /^▲２二銀打 .*: mate in 3, proven shortest$/);
  assert.match(items[2].text, /^▲１二銀打 .*: mate in 5, proven shortest$/);
  assert.match(await page.textContent('#more-state'), /^All \d+ checks searched$/);
  // The best answer is shown as before.
  assert.equal(await page.textContent('#japanese'), '▲２二金打');
  assert.equal(await page.textContent('#r-ply'), '0 / 1');
  // Step through S*1b's mate in 5 on the answer's board.
  await page.click('#more-list li:nth-child(3) button.step');
  assert.equal(await page.textContent('#r-ply'), '0 / 5');
  assert.match(await page.textContent('#r-which'), /^Line 4: ▲１二銀打/);
  await page.click('#r-next');
  assert.equal(await page.textContent('#r-ply'), '1 / 5');
  assert.equal(await page.getAttribute('#replay-board .sq.last', 'data-sq'), '1b');
  assert.equal(await page.textContent('#replay-board .sq[data-sq="1b"]'), '銀');
  assert.equal(await page.inputValue('#usi-line'), `position sfen ${SEVERAL_MATES} moves ${items[2].usi}`);
  assert.match(await page.inputValue('#kif'), /まで5手で詰み/);
  await page.screenshot({ path: path.join(shots, 'first-moves-en.png'), fullPage: true });
  // Japanese: the same list in the page's Japanese words; the board keeps the line shown.
  await page.click('#lang');
  assert.equal(await page.textContent('#more-title'), '他の初手 (最善手順が1)');
  const ja = await page.$$eval('#more-list li', (lis) => lis.map((li) => li.firstChild.textContent));
  assert.match(ja[0], /^▲２一金打 .* まで3手で詰み \(最短を証明済み\)$/);
  assert.match(ja[2], /^▲１二銀打 .* まで5手で詰み \(最短を証明済み\)$/);
  assert.match(await page.textContent('#r-which'), /^候補4: ▲１二銀打/);
  assert.equal(await page.textContent('#r-ply'), '1 / 5');
  await page.screenshot({ path: path.join(shots, 'first-moves-ja.png'), fullPage: true });
  // Back to the best line.
  await page.click('#r-best');
  assert.equal(await page.textContent('#r-ply'), '0 / 1');
  assert.equal(await page.textContent('#r-which'), '最善手順');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Lines 1 (the default) lists nothing more', async () => {
  const page = await newPage(query(SEVERAL_MATES, 'strict', '&lang=en'));
  assert.equal(await solvedAnswer(page), 'checkmate G*2b');
  await page.waitForTimeout(300);
  assert.ok(await page.isHidden('#more-panel'));
  assert.equal(await page.evaluate(() => document.body.dataset.more), undefined);
  await page.close();
});

test('a proven no mate lists each of its 8 checks with its refuting defence, in Japanese and English', async () => {
  const native = nativeJson(NO_MATE_8);
  assert.equal(native.refutations.length, 8);
  const page = await newPage(query(NO_MATE_8, 'strict', '&lang=ja'));
  assert.equal(await solvedAnswer(page), 'checkmate nomate');
  const items = await moreDone(page);
  assert.equal(items.length, 8);
  assert.deepEqual(items.map((e) => e.usi.split(' ')[0]).sort(), native.refutations.map((e) => e.move).sort());
  assert.equal(await page.textContent('#more-title'), '不詰の理由: 王手ごとの逃れ');
  assert.match(await page.textContent('#more-heading'), /8通りの王手それぞれに/);
  for (const e of items) {
    assert.equal(e.result, 'nomate');
    assert.equal(e.usi.split(' ').length, 2, e.usi);
    assert.match(e.text, /^▲\S+ → △\S+( \(唯一の応手\))?: 以下詰みなし \(証明済み\)$/, e.text);
  }
  await page.screenshot({ path: path.join(shots, 'refutations-ja.png'), fullPage: true });
  await page.click('#lang');
  const en = await page.$$eval('#more-list li', (lis) => lis.map((li) => li.firstChild.textContent));
  for (const text of en) assert.match(text, /^▲\S+ → △\S+( \(the only reply\))?: no mate after it \(proven\)$/, text);
  assert.equal(await page.textContent('#more-title'), 'Why no mate: a defence to each check');
  // No line of its own: the board appears with a refutation's two moves.
  assert.ok(await page.isHidden('#replay-panel'));
  await page.click('#more-list li:nth-child(1) button.step');
  assert.ok(await page.isVisible('#replay-panel'));
  assert.equal(await page.textContent('#r-ply'), '0 / 2');
  await page.click('#r-last');
  const [check, defence] = items[0].usi.split(' ');
  assert.equal(await page.getAttribute('#replay-board .sq.last', 'data-sq'), defence.slice(2, 4));
  assert.notEqual(check, defence);
  assert.match(await page.textContent('#r-which'), /^Refutation: ▲/);
  assert.ok(await page.isHidden('#r-best'));
  assert.deepEqual(page.errors, []);
  await page.close();
});
