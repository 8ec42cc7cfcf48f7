// ShogiHome's own web build with tsumugi placed in its public/engines/tsumugi/, in real headless
// Chromium (Playwright), as a ShogiHome web user runs it: the engine's presets are listed in the
// mate-search dialog, one of them solves a problem there, and a search cancelled from ShogiHome
// (which sends `quit`) ends cleanly. scripts/test-shogihome --browser builds the site and runs
// this:
//   TSUMUGI_SHOGIHOME_SITE=<vite build output> TSUMUGI_SHOGIHOME_DIR=<ShogiHome checkout> \
//     node --test web/shogihome/tests/
// Screenshots go to web/test-results/shogihome-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  EXAMPLE, HARD_NOMATE, launchChromium, newPage, repo, serveDir, shots,
} from '../../tests/support.mjs';

const site = process.env.TSUMUGI_SHOGIHOME_SITE;
const checkout = process.env.TSUMUGI_SHOGIHOME_DIR || path.join(repo, 'target/shogihome');

const PRESETS = ['tsumugi (shortest mate)', 'tsumugi (first mate found, fast)', "tsumugi (composer's line)"];

let server;
let browser;
let usen;

before(async () => {
  if (!site) return;
  assert.ok(fs.existsSync(path.join(site, 'engines/tsumugi/engine.json')),
    `no tsumugi in ShogiHome's build at ${site} (scripts/test-shogihome --browser builds it)`);
  // The position goes in by URL, as ShogiHome's own links do (?usen=, tsshogi's USEN).
  const require = createRequire(path.join(checkout, 'package.json'));
  const { Record } = require('tsshogi');
  usen = (sfen) => {
    const record = Record.newByUSI(`sfen ${sfen}`);
    assert.ok(!(record instanceof Error), String(record));
    return record.usen[0];
  };
  fs.mkdirSync(shots, { recursive: true });
  server = await serveDir(site);
  browser = await launchChromium();
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

// ShogiHome in Japanese (its default for a Japanese browser) at the position `sfen`.
async function open(sfen) {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'ja-JP',
    // ShogiHome registers a service worker (PWA); the test serves the files itself.
    serviceWorkers: 'block',
  });
  const page = await newPage(context, `${server.base}index.html?usen=${usen(sfen)}`);
  await page.getByRole('button', { name: '詰み探索', exact: true }).first().waitFor();
  return { context, page };
}

// Opens the mate-search dialog and picks `preset` in its engine list; returns the labels
// listed (all tags off).
async function pickEngine(page, preset) {
  await page.getByRole('button', { name: '詰み探索', exact: true }).first().click();
  const dialog = page.locator('dialog[open], .dialog, [role=dialog]').filter({ hasText: '詰み探索開始' }).last();
  await dialog.waitFor();
  const dropdown = dialog.locator('.player-select');
  await dropdown.locator('.main').click();
  // The dialog filters the list with its "mate search" tag; ShogiHome's catalog tags the
  // built-in WebAssembly engines "game" only, so the user turns the filter off.
  const tags = dropdown.locator('.tag');
  for (let i = 0; i < await tags.count(); i++) {
    const tag = tags.nth(i);
    const selected = await tag.evaluate((el) => getComputedStyle(el).color === 'rgb(255, 255, 255)');
    if (selected) await tag.click();
  }
  const items = await dropdown.locator('li.item').allInnerTexts();
  await dropdown.locator('li.item', { hasText: preset }).first().click();
  return { dialog, items };
}

test('ShogiHome web: tsumugi listed, solves a mate in 9 through the mate-search dialog', async (t) => {
  if (!site) {
    t.skip('SKIPPED: TSUMUGI_SHOGIHOME_SITE not set (scripts/test-shogihome --browser sets it)');
    console.log('SKIPPED: ShogiHome web test: TSUMUGI_SHOGIHOME_SITE not set');
    return;
  }
  const { context, page } = await open(EXAMPLE);
  try {
    const { dialog, items } = await pickEngine(page, PRESETS[0]);
    for (const p of PRESETS) {
      assert.ok(items.includes(p), `${p} not listed: ${JSON.stringify(items)}`);
    }
    await page.screenshot({ path: path.join(shots, 'shogihome-mate-dialog.png') });
    await dialog.getByRole('button', { name: '詰み探索開始' }).click();
    const found = page.getByText('9手で詰みました。再生画面を表示しますか？');
    await found.waitFor({ timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'shogihome-mate-found.png') });
    await page.getByRole('button', { name: 'OK', exact: true }).last().click();
    // The PV preview of the mate shows its length.
    await page.getByText('詰み手数=9').waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'shogihome-mate-pv.png') });
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

test('ShogiHome web: cancelling a long mate search (quit) ends it cleanly', async (t) => {
  if (!site) {
    t.skip('SKIPPED: TSUMUGI_SHOGIHOME_SITE not set');
    return;
  }
  const { context, page } = await open(HARD_NOMATE);
  try {
    const { dialog } = await pickEngine(page, PRESETS[0]);
    await dialog.getByRole('button', { name: '詰み探索開始' }).click();
    const stop = page.getByRole('button', { name: '詰み探索終了' }).first();
    await stop.waitFor();
    // Searching: the engine's periodic info line (every second) reaches ShogiHome's thinking
    // pane through its worker's poll(); then the user cancels.
    await page.getByText('名前: tsumugi (shortest mate)').waitFor();
    await page.getByText(/Node数: [1-9][0-9,]*/).waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'shogihome-mate-searching.png') });
    await stop.click();
    // Back to normal: the mate-search button is offered again, no error shown.
    await page.getByRole('button', { name: '詰み探索', exact: true }).first().waitFor({ timeout: 5000 });
    await page.waitForTimeout(500);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});
