// The page of `waggle web` in headless Chromium, driven by playwright-core: run by tests/browser.rs, which starts
// the server. Usage: node web.mjs URL SHOTS_DIR. Prints `ok - …` for each check and the measured figures; exits
// non-zero on the first failure.

import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [url, shots] = process.argv.slice(2);
const base = url.replace(/\/$/, '');
const host = new URL(base).host;
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.WAGGLE_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
const problems = [];
const figures = {};

function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
}

async function api(path, body) {
  const response = await fetch(base + path, body === undefined ? {} : {
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

// A page that records console errors and any request to another host.
async function open(path) {
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const target = new URL(r.url());
    if (!['blob:', 'data:'].includes(target.protocol) && target.host !== host) problems.push(`request to ${r.url()}`);
  });
  await page.goto(base + path);
  // Polled with evaluate: waitForFunction would need eval, which the page's Content-Security-Policy forbids.
  await waitFor('the page has its first position', () => page.evaluate(() => !!(window.waggle && window.waggle.state)));
  return page;
}

async function plyOf(page) {
  return page.evaluate(() => window.waggle.state.ply);
}

async function step(name, run) {
  await run();
  console.log(`ok - ${name}`);
}

// The targets marked on the board now, as a sorted list of MoveStrings.
async function marked(page) {
  return page.$$eval('#board polygon.target', (els) => els.map((e) => e.dataset.move).sort());
}

// Click `piece` (a hand button's or a board stack's) and return the targets marked, and the time from the click
// to the frame that shows them.
async function clickPiece(page, piece) {
  return page.evaluate(async (piece) => {
    const hand = document.querySelector(`.hand button[data-piece="${piece}"]`);
    const start = performance.now();
    if (hand) hand.click();
    else {
      const cell = document.querySelector(`#board .stack[data-piece="${piece}"] polygon`);
      const box = cell.getBoundingClientRect();
      const at = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true, pointerId: 1 };
      const svg = document.getElementById('board');
      svg.dispatchEvent(new PointerEvent('pointerdown', at));
      svg.dispatchEvent(new PointerEvent('pointerup', at));
    }
    await new Promise((r) => requestAnimationFrame(() => r()));
    const time = performance.now() - start;
    const targets = [...document.querySelectorAll('#board polygon.target')].map((e) => e.dataset.move).sort();
    return { targets, time };
  }, piece);
}

const GAME = 'Base+MLP;InProgress;White[6];wS1;bP wS1-;wQ -wS1;bQ bP-;wA1 wQ/;bB1 bQ\\;wG1 /wQ;bA1 bP\\;wB1 -wG1;bB1 bQ';
const WON = 'Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\';
const link = (game, ply) => `/?game=${encodeURIComponent(game)}${ply === undefined ? '' : `&ply=${ply}`}`;

try {
  let page;
  await step('the page opens with no console error and no request to another host', async () => {
    page = await open('/');
    figures.ready = await page.evaluate(() => Math.round(window.waggle.ready));
    figures.assets = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => !e.name.includes('/api/')).reduce((sum, e) => sum + e.encodedBodySize, 0)
      + performance.getEntriesByType('navigation')[0].encodedBodySize);
    await page.screenshot({ path: `${shots}/start.png` });
    check(problems.length === 0, problems.join('; '));
  });

  await step('? lists the keyboard shortcuts', async () => {
    await page.keyboard.press('?');
    check(await page.isVisible('#help-dialog'), 'the help dialog shows');
    check((await page.$$('#help-table tr')).length > 15, 'every shortcut is listed');
    await page.screenshot({ path: `${shots}/shortcuts.png` });
    await page.keyboard.press('Escape');
  });

  await step('a whole game by clicks against Waggle at level 1, every piece\'s targets exactly its legal moves', async () => {
    await page.click('#new-game');
    await page.selectOption('#new-type', 'Base+MLP');
    await page.selectOption('#new-colour', 'White');
    await page.fill('#new-level', '1');
    await page.fill('#new-move-time', '0.1');
    await page.click('#new-start');
    let clicks = 0, worst = 0;
    for (let turn = 0; turn < 30; turn++) {
      await waitFor('Waggle has answered', () => page.evaluate(() => !window.waggle.play.thinking && window.waggle.state.to_move === 'White' || ['WhiteWins', 'BlackWins', 'Draw'].includes(window.waggle.state.state)));
      const state = await page.evaluate(() => window.waggle.state);
      if (state.state !== 'InProgress' && state.state !== 'NotStarted') break;
      if (state.ply >= 60) break;
      const server = await api('/api/position', { game: state.game });
      if (server.pass) { await page.click('#pass'); continue; }
      await page.keyboard.press('0');
      const hand = server.hands.White.filter((b) => b.count > 0).map((b) => b.next);
      const onBoard = server.cells.map((c) => c.stack[c.stack.length - 1]).filter((p) => p[0] === 'w');
      let chosen = null;
      for (const piece of [...hand, ...onBoard]) {
        const { targets, time } = await clickPiece(page, piece);
        const expected = (server.legal[piece] || []).map((m) => m.move).sort();
        check(JSON.stringify(targets) === JSON.stringify(expected),
          `ply ${state.ply}, ${piece}: marked ${targets.join(', ')}; legal ${expected.join(', ')}`);
        clicks++;
        worst = Math.max(worst, time);
        if (expected.length && (!chosen || Math.random() < 0.3)) chosen = { piece, moves: expected };
        if (targets.length) await clickPiece(page, piece); // drop it again
      }
      check(chosen, `ply ${state.ply}: a piece to move`);
      await clickPiece(page, chosen.piece);
      const move = chosen.moves[Math.floor(Math.random() * chosen.moves.length)];
      await page.keyboard.press('0');
      await page.click(`#board polygon.target[data-move="${move.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`, { force: true });
      await waitFor(`${move} played`, () => page.evaluate((ply) => window.waggle.state.ply > ply, state.ply));
      if (turn === 3) await page.screenshot({ path: `${shots}/play.png` });
    }
    figures.clicks = clicks;
    figures.clickToTargets = Math.round(worst * 10) / 10;
    const final = await page.evaluate(() => window.waggle.state);
    check(final.ply >= 10, `the game went on (${final.ply} plies)`);
    await page.screenshot({ path: `${shots}/game.png` });
  });

  await step('undo takes back the reply too, resign ends the game, a new game starts empty', async () => {
    await waitFor('Waggle has answered', () => page.evaluate(() => !window.waggle.play.thinking));
    const before = await plyOf(page);
    if (await page.evaluate(() => window.waggle.state.state === 'InProgress')) {
      await page.click('#undo');
      await waitFor('undone', async () => (await plyOf(page)) === before - 2);
      await page.click('#resign');
      await waitFor('resigned', async () => (await page.textContent('#status')).includes('resigned'));
    }
    await page.keyboard.press('n');
    await page.click('#new-start');
    await waitFor('a new game', async () => (await plyOf(page)) === 0);
  });

  await step('a share link of a middle game shows its board, hands and moves; the keys step through it', async () => {
    const server = await api('/api/position', { game: GAME });
    page = await open(link(GAME));
    const stacks = await page.$$eval('#board .stack', (els) => els.map((e) => e.dataset.piece).sort());
    check(JSON.stringify(stacks) === JSON.stringify(server.cells.map((c) => c.stack[c.stack.length - 1]).sort()), `stacks ${stacks}`);
    check((await page.textContent('#board')).includes('on bQ'), 'a stack shows what is under it');
    const hand = await page.$$eval('#hand-Black button', (els) => els.map((e) => e.textContent));
    const expected = server.hands.Black.filter((b) => b.count).map((b) => `b${b.bug}×${b.count}`);
    check(JSON.stringify(hand) === JSON.stringify(expected), `Black's hand ${hand}; ${expected}`);
    check((await page.$$('#moves .mv')).length === 10, 'ten moves listed');
    await page.focus('#moves');
    await page.keyboard.press('ArrowLeft');
    await waitFor('one back', async () => (await plyOf(page)) === 9);
    await page.keyboard.press('Home');
    await waitFor('the start', async () => (await plyOf(page)) === 0);
    await page.keyboard.press('ArrowRight');
    await waitFor('one on', async () => (await plyOf(page)) === 1);
    await page.keyboard.press('End');
    await waitFor('the end', async () => (await plyOf(page)) === 10);
    check(new URL(page.url()).searchParams.get('ply') === '10', 'the link follows the ply');
    await page.screenshot({ path: `${shots}/link.png` });
  });

  await step('a different move at an earlier ply starts a variation, which can be promoted', async () => {
    await page.keyboard.press('ArrowLeft');
    await waitFor('one back', async () => (await plyOf(page)) === 9);
    const legal = (await page.evaluate(() => window.waggle.state.legal));
    const played = await page.evaluate(() => window.waggle.node.children[0].move);
    const other = Object.values(legal).flat().map((m) => m.move).find((m) => m !== played);
    await page.fill('#move-box', other);
    await page.press('#move-box', 'Enter');
    await waitFor('the variation', async () => (await page.$$('#moves .variation')).length === 1);
    await page.click('#promote');
    await waitFor('promoted', () => page.evaluate((other) => window.waggle.root.mainLine()[9].move === other, other));
  });

  await step('analysis on shows lines as the search deepens, off stops the server\'s search', async () => {
    await page.check('#analyse');
    await waitFor('lines', async () => (await page.$$('#pv-lines li')).length === 3);
    await waitFor('an arrow', async () => (await page.$$('#board line.arrow')).length === 1);
    check((await api('/api/status')).running === 1, 'one search runs');
    await page.screenshot({ path: `${shots}/analysis.png` });
    await page.uncheck('#analyse');
    await waitFor('the search stopped', async () => (await api('/api/status')).running === 0, 2000);
    check((await page.$$('#pv-lines li')).length === 0, 'the lines are gone');
  });

  await step('closing a tab while it analyses ends the server\'s search', async () => {
    const tab = await open(link(GAME));
    await tab.check('#analyse');
    await waitFor('lines', async () => (await tab.$$('#pv-lines li')).length > 0);
    check((await api('/api/status')).running === 1, 'the tab\'s search runs');
    const since = Date.now();
    await tab.close();
    await waitFor('the search ended', async () => (await api('/api/status')).running === 0, 2000);
    figures.tabClosed = Date.now() - since;
  });

  await step('a review draws the chart, marks the list, and a click on the chart jumps to that ply', async () => {
    page = await open(link(WON));
    await page.click('#review');
    await waitFor('the summary', async () => (await page.$$('#summary table')).length === 1, 60000);
    check((await page.$$('#chart svg')).length === 1, 'the chart');
    const marks = await page.$$eval('#moves .mark-blunder', (els) => els.map((e) => e.textContent));
    check(marks.length >= 1 && marks[0].includes('??'), `a blunder marked: ${marks}`);
    for (let i = 0; i < 4 && (await plyOf(page)) !== 11; i++) {
      const before = await plyOf(page);
      await page.click('#next-mistake');
      await waitFor('at the next mark', async () => (await plyOf(page)) !== before);
    }
    check((await plyOf(page)) === 11, 'Next mistake reaches the blunder');
    await waitFor('the best move as an arrow', async () => (await page.$$('#board line.arrow.best')).length === 1);
    await page.screenshot({ path: `${shots}/review.png` });
    const box = await page.$eval('#chart svg', (svg) => { const b = svg.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; });
    await page.mouse.click(box.x + box.w * (4 / 12), box.y + box.h / 2);
    await waitFor('at ply 4', async () => (await plyOf(page)) === 4);
  });

  await step('a .pgn file is imported, a bad GameString in a link gets a message, not a blank page', async () => {
    const pgn = await (await fetch(base + '/api/export', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: GAME, white: 'Ann', black: 'Bob' }),
    })).text();
    await page.click('#import');
    await page.setInputFiles('#import-file', { name: 'game.pgn', mimeType: 'text/plain', buffer: Buffer.from(pgn) });
    await waitFor('the imported game', async () => (await plyOf(page)) === 10);
    const bad = await open(link('Base;InProgress;White[2];wS1;wS2'));
    await waitFor('a message', async () => (await bad.isVisible('#message')));
    const message = await bad.textContent('#message');
    check(message.includes('cannot be shown'), message);
    check((await bad.$$('#board')).length === 1 && (await bad.isVisible('#new-game')), 'the page is there');
    await bad.screenshot({ path: `${shots}/bad-link.png` });
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('422')));
  });

  check(problems.length === 0, problems.join('; '));
  console.log(`figures: page ready ${figures.ready} ms after navigation; page files ${figures.assets} bytes; ` +
    `click to targets at most ${figures.clickToTargets} ms over ${figures.clicks} clicks; ` +
    `a closed tab's search ended ${figures.tabClosed} ms after the close`);
} catch (error) {
  console.error(error.message);
  for (const page of context.pages()) await page.screenshot({ path: `${shots}/failure.png` }).catch(() => {});
  await browser.close();
  process.exit(1);
}
await browser.close();
