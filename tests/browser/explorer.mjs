// The Explorer panel of `waggle web` in headless Chromium, driven by playwright-core: run by tests/browser.rs, which
// starts two servers, one without a database and one with `--db` (the repository's records imported). Usage: node
// explorer.mjs URL_WITHOUT_DB URL_WITH_DB SHOTS_DIR; the database holds self-play games from two random plies, so
// that every first move of Base+MLP is in it. Without a database the panel says how to make one; with one,
// by mouse at 1280×860 and by touch at 390×844: the moves of the start position as the server counts them, a
// click on a move plays it, a click on a game opens it at the ply where it reached the position, Waggle's scores
// beside the moves while the analysis runs, a game added from the page; no console error anywhere. Prints `ok - …`
// for each check; exits non-zero on the first failure. The screenshot of docs/db.md is explorer.png.

import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [bare, url, shots] = process.argv.slice(2);
const base = url.replace(/\/$/, '');
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.WAGGLE_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems = [];

function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
}

async function api(path, body) {
  const response = await fetch(base + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify(body),
  });
  return response.json();
}

async function waitFor(what, test, limit = 20000) {
  const since = Date.now();
  for (;;) {
    if (await test()) return;
    if (Date.now() - since > limit) throw new Error(`failed: ${what} (waited ${limit} ms)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A page of `server` in `context` that records console errors.
async function open(context, server, path = '/') {
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(server.replace(/\/$/, '') + path);
  await waitFor('the page has its first position', () => page.evaluate(() => !!(window.waggle && window.waggle.state)));
  return page;
}

async function step(name, run) {
  const since = Date.now();
  await run();
  console.log(`ok - ${name} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
}

// The moves the panel lists, with their counts, as the page shows them.
async function listed(page) {
  return page.$$eval('#explorer-moves button.mv', (els) => els.map((e) => e.dataset.move));
}

// The panel's moves once it shows those of the position on the board.
async function explorerOf(page, game) {
  const answer = await api('/api/explore', { game, games: 20 });
  const expected = answer.moves.map((m) => m.move);
  await waitFor(`the explorer lists ${expected.join(', ')}`, async () => JSON.stringify(await listed(page)) === JSON.stringify(expected));
  return answer;
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 860 } });

  await step('without a database the panel says how to make one', async () => {
    const page = await open(desktop, bare);
    await waitFor('the note', () => page.isVisible('#explorer-none'));
    const text = await page.textContent('#explorer-none');
    check(text.includes('waggle db add') && text.includes('--db'), text);
    check(!(await page.isVisible('#explorer-body')), 'no moves are shown');
    await page.close();
  });

  let page;
  await step('the start\'s moves with their counts and a White/draw/Black bar, as the server counts them', async () => {
    page = await open(desktop, url, '/?game=Base%2BMLP');
    const answer = await explorerOf(page, 'Base+MLP');
    check(answer.moves.length >= 2 && answer.total > 0, `the records have Base+MLP games: ${JSON.stringify(answer)}`);
    const bars = await page.$$eval('#explorer-moves .wdb', (els) => els.map((e) => e.children.length));
    check(bars.length === answer.moves.length && bars.every((n) => n === 3), `a bar of three parts a move: ${bars}`);
    const first = await page.textContent('#explorer-moves .explorer-games');
    check(first.startsWith(String(answer.moves[0].games)), `the count shows: ${first}`);
    check((await page.$$('#explorer-games button')).length === answer.games.length, 'the games are listed');
    await page.screenshot({ path: `${shots}/explorer.png` });
  });

  await step('with the analysis on, Waggle\'s score stands beside each move its lines start with, and no other', async () => {
    await page.click('#analyse');
    await waitFor('a score beside a move', () => page.$$eval('#explorer-moves .explorer-score', (els) => els.some((e) => e.textContent.trim())), 30000);
    const shown = await page.evaluate(() => {
      const lines = window.waggle.analysis.lines || [];
      return [...document.querySelectorAll('#explorer-moves tr')].map((row) => ({
        move: row.querySelector('button.mv').dataset.move,
        score: row.querySelector('.explorer-score').textContent.trim(),
        first: lines.map((l) => l.moves[0]),
      }));
    });
    const answer = await api('/api/explore', { game: 'Base+MLP', games: 0 });
    for (const { move, score, first } of shown) {
      const names = [move, ...answer.moves.find((m) => m.move === move).same];
      check(!!score === first.some((f) => names.includes(f)), `${move}: score '${score}', lines start ${first}`);
    }
    await page.click('#analyse');
  });

  await step('a click on an explorer move plays it', async () => {
    const move = (await listed(page))[0];
    await page.click(`#explorer-moves button[data-move="${move}"]`);
    await waitFor(`${move} played`, () => page.evaluate((move) => window.waggle.state.ply === 1 && window.waggle.state.moves[0] === move, move));
    const after = await page.evaluate(() => window.waggle.state.game);
    await explorerOf(page, after);
  });

  await step('a click on a game opens it at the ply where it reached the position', async () => {
    const state = await page.evaluate(() => window.waggle.state);
    const answer = await api('/api/explore', { game: state.game, games: 20 });
    const game = answer.games[0];
    await page.click('#explorer-games button');
    // The board may stand at that ply already (the move just played), so the game is known opened by its length:
    // waiting on the ply alone raced the request that loads it.
    await waitFor(`the game of ${game.plies} plies opened`, () => page.evaluate((plies) => window.waggle.root.mainLine().length === plies, game.plies));
    const ply = await page.evaluate(() => window.waggle.state.ply);
    check(ply === game.ply, `the game opened at ply ${game.ply}: at ${ply}`);
  });

  await step('a game is added to the database from the page', async () => {
    const before = await api('/api/explore', { game: 'Base', games: 0 });
    const added = await open(desktop, url, `/?game=${encodeURIComponent('Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-')}`);
    await added.click('#explorer-add');
    await waitFor('the note', async () => (await added.textContent('#message')).includes('added'));
    const after = await api('/api/explore', { game: 'Base', games: 0 });
    check(after.total === before.total + 1, `one more Base game: ${before.total} then ${after.total}`);
    await added.click('#explorer-add');
    await waitFor('the note', async () => (await added.textContent('#message')).includes('already'));
    await added.close();
  });

  await step('at a phone\'s size (390×844) by touch: a tap on a move plays it, a tap on a game opens it, nothing scrolls sideways', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const tab = await open(phone, url, '/?game=Base%2BMLP');
    await explorerOf(tab, 'Base+MLP');
    const move = (await listed(tab))[0];
    await tab.tap(`#explorer-moves button[data-move="${move}"]`);
    await waitFor(`${move} played by a tap`, () => tab.evaluate((move) => window.waggle.state.moves[0] === move, move));
    const after = await tab.evaluate(() => window.waggle.state.game);
    const answer = await explorerOf(tab, after);
    await tab.screenshot({ path: `${shots}/explorer-phone.png`, fullPage: true });
    await tab.tap('#explorer-games button');
    await waitFor('the game opened by a tap', () => tab.evaluate((ply) => window.waggle.state.ply === ply, answer.games[0].ply));
    const wide = await tab.evaluate(() => document.documentElement.scrollWidth);
    check(wide <= 390, `the page is ${wide} px wide`);
    await phone.close();
  });

  check(problems.length === 0, problems.join('; '));
} catch (error) {
  console.error(error.message);
  console.error(problems.join('\n'));
  await browser.close();
  process.exit(1);
}
await browser.close();
