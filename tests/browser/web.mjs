// The page of `waggle web` in headless Chromium, driven by playwright-core: run by tests/browser.rs, which starts
// the server. Usage: node web.mjs URL SHOTS_DIR. A whole game by the mouse at 1280×860 and one by touch (taps and
// finger drags) at 390×844, moves by taps at 820×1180, every feature of the page, and puzzles (solved by clicks,
// failed and retried, a file dropped, solved by touch at 390×844); no console error anywhere.
// Prints `ok - …` for each check and the measured figures; exits non-zero on the first failure. The screenshots
// of docs/web.md are opening.png, middle.png, phone.png, analysis.png and review.png.

import { mkdirSync, readFileSync } from 'node:fs';
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
const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] });
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

// A page that records console errors and any request to another host (in `where`, a browser context).
async function open(path, where = context) {
  const page = await where.newPage();
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

// WAGGLE_STEPS=word runs only the steps whose names hold that word (those that open their own page), to try one.
const only = process.env.WAGGLE_STEPS;
async function step(name, run) {
  if (only && !name.includes(only)) return;
  const since = Date.now();
  await run();
  console.log(`ok - ${name} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
}

// The targets marked on the board now, as a sorted list of MoveStrings.
async function marked(page) {
  return page.$$eval('#board polygon.target', (els) => els.map((e) => e.dataset.move).sort());
}

// Click `piece` (a hand button's or a board stack's) with the mouse and return the targets marked, and the time
// from the press to the frame that shows them (timed in the page, from its pointerdown).
async function clickPiece(page, piece) {
  const hand = `.hand button[data-piece="${piece}"]`;
  const selector = (await page.$(hand)) ? hand : `#board .stack:not(.ghost)[data-piece="${piece}"] polygon`;
  await page.evaluate(() => {
    window.pickTime = new Promise((resolve) => {
      let start = 0;
      document.addEventListener('pointerdown', () => { start = performance.now(); }, { capture: true, once: true });
      window.addEventListener('pointerup', () => requestAnimationFrame(() => resolve(performance.now() - start)), { once: true });
    });
  });
  const at = await centreOf(page, selector);
  await page.mouse.click(at.x, at.y);
  return page.evaluate(async () => ({
    time: await window.pickTime,
    targets: [...document.querySelectorAll('#board polygon.target')].map((e) => e.dataset.move).sort(),
  }));
}

// The centre on the page of the element `selector` finds, or null.
async function centreOf(page, selector) {
  return page.evaluate((selector) => {
    const e = document.querySelector(selector);
    if (!e) return null;
    const b = e.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }, selector);
}

const stackOf = (piece) => `#board .stack:not(.ghost)[data-piece="${piece}"] polygon`;
const targetOf = (move) => `#board polygon.target[data-move="${move.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;

// The board's view: its scale (screen pixels a board unit) and the board point at its top left corner.
async function viewOf(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('board');
    const [x, y, w] = svg.getAttribute('viewBox').split(' ').map(Number);
    return { x, y, scale: svg.getBoundingClientRect().width / w };
  });
}

// The centre on the page of every stack, by its top piece.
async function stackCentres(page) {
  return page.$$eval('#board .stack:not(.ghost)', (els) => Object.fromEntries(els.map((e) => {
    const b = e.querySelector('polygon').getBoundingClientRect();
    return [e.dataset.piece, { x: b.x + b.width / 2, y: b.y + b.height / 2 }];
  })));
}

// A point of the board's empty background: a corner of it with nothing drawn there.
async function background(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('board');
    const b = svg.getBoundingClientRect();
    for (const [x, y] of [[b.left + 20, b.bottom - 20], [b.right - 20, b.bottom - 20], [b.left + 20, b.top + 60]]) {
      if (document.elementFromPoint(x, y) === svg) return { x, y };
    }
    return null;
  });
}

// Press at `from`, move to `to` in steps, let go.
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

const GAME = 'Base+MLP;InProgress;White[6];wS1;bP wS1-;wQ -wS1;bQ bP-;wA1 wQ/;bB1 bQ\\;wG1 /wQ;bA1 bP\\;wB1 -wG1;bB1 bQ';
const WON = 'Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\';
// Every piece of Base+MLP placed, in a long line: the most the board draws.
const FULL = 'Base+MLP;InProgress;White[15];wM;bM wM\\;wL \\wM;bL bM\\;wP \\wL;bP bL\\;wQ \\wP;bQ bP\\;wS1 \\wQ;bS1 bQ\\;wS2 \\wS1;bS2 bS1\\;wB1 \\wS2;bB1 bS2\\;wB2 \\wB1;bB2 bB1\\;wG1 \\wB2;bG1 bB2\\;wG2 \\wG1;bG2 bG1\\;wG3 \\wG2;bG3 bG2\\;wA1 \\wG3;bA1 bG3\\;wA2 \\wA1;bA2 bA1\\;wA3 \\wA2;bA3 bA2\\';
// White to move, and White's Pillbug (wP) can throw Black's Pillbug (bP), which Black's Queen keeps in the hive.
const THROW = 'Base+P;InProgress;White[5];wP;bP wP-;wQ -wP;bQ bP-;wA1 wQ\\;bQ bP\\;wA1 \\wP;bQ wP\\';
// White's Queen is surrounded but for one cell nothing can reach: passing is White's only move.
const PASS = 'Base+P;InProgress;White[14];wP;bS1 wP-;wQ /wP;bQ bS1-;wB1 -wQ;bB1 bS1\\;wG1 wB1\\;bB1 wP\\;wS1 wG1\\;bQ bS1/;wB1 -wP;bB1 wQ;wG2 wS1\\;bB1 wB1;wG3 wG2\\;bA1 bQ\\;wS2 wG3-;bA1 bS1\\;wA1 wS2/;bA1 bQ\\;wA2 wA1/;bA1 bS1\\;wA3 wA2/;bA1 bQ\\;wB2 wA3/;bA1 wB2/';
// The game of docs/review.md, Black winning with White's Queen under a Beetle.
const EXAMPLE = readFileSync(new URL('../../docs/review-example.txt', import.meta.url), 'utf8').trim();
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

  await step('Tab reaches every control', async () => {
    const count = await page.evaluate(() => {
      const controls = [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')]
        .filter((e) => !e.closest('dialog') && e.getClientRects().length && !e.disabled);
      controls.forEach((e, i) => { e.dataset.control = i; });
      document.activeElement.blur();
      return controls.length;
    });
    const reached = new Set();
    for (let i = 0; i < count + 10; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => document.activeElement.dataset.control);
      if (at !== undefined) reached.add(Number(at));
    }
    const missed = await page.evaluate((reached) => [...document.querySelectorAll('[data-control]')]
      .filter((e) => !reached.includes(Number(e.dataset.control))).map((e) => e.id || e.textContent), [...reached]);
    check(count > 20 && missed.length === 0, `${count} controls; not reached: ${missed.join(', ')}`);
  });

  await step('a whole game by clicks against Waggle at level 1, every piece\'s targets exactly its legal moves', async () => {
    await page.click('#new-game');
    check((await page.$$('#new-type option')).length === 8, 'all eight game types offered');
    await page.selectOption('#new-type', 'Base+MLP');
    await page.selectOption('#new-colour', 'White');
    await page.selectOption('#new-level', '1');
    await page.fill('#new-move-time', '0.1');
    await page.click('#new-start');
    check(!(await page.isVisible('#invite')), 'the invitation is gone once a game starts');
    check((await page.textContent('#matchup')).startsWith('You play White against Waggle, level 1'), `who plays whom: ${await page.textContent('#matchup')}`);
    let clicks = 0, worst = 0, outside = 0;
    for (let turn = 0; turn < 30; turn++) {
      await waitFor('Waggle has answered', () => page.evaluate(() => !window.waggle.play.thinking && window.waggle.state.to_move === 'White' || ['WhiteWins', 'BlackWins', 'Draw'].includes(window.waggle.state.state)));
      const state = await page.evaluate(() => window.waggle.state);
      if (state.state !== 'InProgress' && state.state !== 'NotStarted') break;
      if (state.ply >= 60) break;
      const server = await api('/api/position', { game: state.game });
      if (server.pass) { await page.click('#pass'); continue; }
      // No Fit pressed: the board follows the game, and every target a click shows is in the frame.
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
        outside += await page.evaluate(() => {
          const b = document.getElementById('board').getBoundingClientRect();
          return [...document.querySelectorAll('#board polygon.target')].filter((p) => {
            const c = p.getBoundingClientRect();
            return c.left < b.left || c.right > b.right || c.top < b.top || c.bottom > b.bottom;
          }).length;
        });
        if (expected.length && (!chosen || Math.random() < 0.3)) chosen = { piece, moves: expected };
        if (targets.length) await clickPiece(page, piece); // drop it again
      }
      check(chosen, `ply ${state.ply}: a piece to move`);
      await clickPiece(page, chosen.piece);
      const move = chosen.moves[Math.floor(Math.random() * chosen.moves.length)];
      await page.click(`#board polygon.target[data-move="${move.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`, { force: true });
      await waitFor(`${move} played`, () => page.evaluate((ply) => window.waggle.state.ply > ply, state.ply));
      if (turn === 3) await page.screenshot({ path: `${shots}/play.png` });
      if (turn === 4) await page.screenshot({ path: `${shots}/opening.png` });
    }
    check(outside === 0, `${outside} targets were off the board's frame`);
    figures.clicks = clicks;
    figures.clickToTargets = Math.round(worst * 10) / 10;
    const final = await page.evaluate(() => window.waggle.state);
    check(final.ply >= 10, `the game went on (${final.ply} plies)`);
    const result = { WhiteWins: 'White', BlackWins: 'Black', Draw: 'A draw' }[final.state];
    if (result) {
      const shown = await page.textContent('#result-text');
      const expected = result === 'A draw' ? 'A draw' : result === 'White' ? 'You win (White)' : 'Waggle wins (Black)';
      check(shown.startsWith(expected) && (final.state === 'Draw' || shown.includes('Queen')), `the result and how: ${shown}`);
    }
    await page.screenshot({ path: `${shots}/game.png` });
  });

  await step('the game downloads as a .pgn that imports as the same game', async () => {
    const game = await page.evaluate(() => window.waggle.state.game);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    check(download.suggestedFilename().endsWith('.pgn'), `a .pgn file: ${download.suggestedFilename()}`);
    const imported = await api('/api/import', { text: readFileSync(await download.path(), 'utf8') });
    check(imported.state && imported.state.game === game, `the .pgn holds the game: ${JSON.stringify(imported).slice(0, 200)}`);
    check(imported.white === 'You' && imported.black === 'Waggle', `the players named: ${imported.white}, ${imported.black}`);
  });

  await step('Waggle is seen thinking and its move outlined; undo takes back the reply too, resign ends the game', async () => {
    await waitFor('Waggle has answered', () => page.evaluate(() => !window.waggle.play.thinking));
    // A fresh game against level 10 for half a second a move, so that there is a game in progress to undo and resign,
    // and Waggle thinks long enough to be seen thinking.
    await page.keyboard.press('n');
    await page.selectOption('#new-level', '10');
    await page.fill('#new-move-time', '0.5');
    await page.click('#new-start');
    await waitFor('a new game', async () => (await plyOf(page)) === 0);
    const first = await page.evaluate(() => window.waggle.state.game);
    const playFirstMove = async () => {
      const { targets } = await clickPiece(page, 'wS1');
      check(targets.length === 1, `the first move: ${targets}`);
      await page.click(targetOf(targets[0]), { force: true });
      await waitFor('Waggle is thinking', () => page.evaluate(() => {
        const status = document.getElementById('status');
        return status.textContent === 'Waggle is thinking' && status.classList.contains('thinking');
      }), 5000);
      await waitFor('Waggle has answered', () => page.evaluate(() => window.waggle.state.ply === 2 && !window.waggle.play.thinking));
    };
    await playFirstMove();
    const state = await page.evaluate(() => window.waggle.state);
    const outlined = await page.$$eval('#board .stack', (els) => els.filter((e) => e.querySelector('polygon.last'))
      .map((e) => ({ q: Number(e.dataset.q), r: Number(e.dataset.r) })));
    check(JSON.stringify(outlined) === JSON.stringify([state.last.to]), `Waggle's move ${state.last.move} outlined: ${JSON.stringify(outlined)}`);
    await page.click('#undo');
    await waitFor('both moves undone', async () => (await plyOf(page)) === 0);
    check(await page.evaluate((first) => window.waggle.state.game === first && window.waggle.state.to_move === 'White', first),
      'back at the start, White to move');
    await playFirstMove();
    await page.click('#resign');
    await waitFor('resigned', async () => (await page.textContent('#result-text')).startsWith('Waggle wins (Black): White resigned'));
    await page.keyboard.press('n');
    await page.click('#new-start');
    await waitFor('a new game', async () => (await plyOf(page)) === 0 && (await page.textContent('#status')).includes('White to move'));
  });

  await step('a game on a clock shows both clocks, each running on its side\'s turn', async () => {
    await page.keyboard.press('n');
    await page.check('input[name="tc"][value="clock"]');
    await page.fill('#new-base', '1');
    await page.fill('#new-inc', '0');
    await page.click('#new-start');
    await waitFor('a new game', async () => (await plyOf(page)) === 0);
    check(await page.isVisible('#clock-White') && await page.isVisible('#clock-Black'), 'both clocks show');
    const clocks = () => page.evaluate(() => ['White', 'Black'].map((c) => document.getElementById(`clock-${c}`).textContent));
    check(JSON.stringify(await clocks()) === JSON.stringify(['W 1:00.0', 'B 1:00.0']), `the clocks start at a minute: ${await clocks()}`);
    const { targets } = await clickPiece(page, 'wS1');
    await page.click(targetOf(targets[0]), { force: true });
    await waitFor('Black\'s clock runs while Waggle thinks', () => page.evaluate(() => window.waggle.play.thinking &&
      document.getElementById('clock-White').textContent === 'W 1:00.0' &&
      document.getElementById('clock-Black').textContent !== 'B 1:00.0'), 5000);
    await waitFor('Waggle has answered', () => page.evaluate(() => window.waggle.state.ply === 2 && !window.waggle.play.thinking));
    const black = (await clocks())[1];
    await waitFor('White\'s clock runs on White\'s turn', async () => (await clocks())[0] !== 'W 1:00.0', 5000);
    check((await clocks())[1] === black, 'Black\'s clock stands');
    await page.screenshot({ path: `${shots}/clock.png` });
    await page.click('#resign');
    await page.keyboard.press('n');
    await page.check('input[name="tc"][value="move"]');
    await page.click('#new-start');
  });

  await step('playing Black, Waggle moves first and the board is turned round', async () => {
    await page.keyboard.press('n');
    await page.selectOption('#new-colour', 'Black');
    await page.selectOption('#new-level', '1');
    await page.fill('#new-move-time', '0.1');
    await page.click('#new-start');
    await waitFor('Waggle\'s first move', () => page.evaluate(() => window.waggle.state.ply === 1 && !window.waggle.play.thinking));
    check((await page.textContent('#status')).startsWith('Black to move · turn 1 · your move'), `Black to move: ${await page.textContent('#status')}`);
    const legal = await page.evaluate(() => window.waggle.state.legal);
    const piece = Object.keys(legal)[0];
    await clickPiece(page, piece);
    await page.click(targetOf(legal[piece][0].move), { force: true });
    await waitFor('Waggle\'s reply', () => page.evaluate(() => window.waggle.state.ply === 3 && !window.waggle.play.thinking));
    const state = await page.evaluate(() => window.waggle.state);
    const screen = await stackCentres(page);
    const sign = (x) => (Math.abs(x) < 1e-6 ? 0 : Math.sign(x));
    for (const a of state.cells) {
      for (const b of state.cells) {
        const [pa, pb] = [screen[a.stack.at(-1)], screen[b.stack.at(-1)]];
        const east = (b.q - a.q) + (b.r - a.r) / 2, south = b.r - a.r;
        check(sign(pb.x - pa.x) === -sign(east) && sign(pb.y - pa.y) === -sign(south),
          `turned round: ${a.stack.at(-1)} and ${b.stack.at(-1)}`);
      }
    }
    await page.screenshot({ path: `${shots}/black.png` });
    await page.click('#resign');
  });

  await step('a share link of a middle game shows its board, hands and moves; the keys step through it', async () => {
    const server = await api('/api/position', { game: GAME });
    page = await open(link(GAME));
    const stacks = await page.$$eval('#board .stack', (els) => els.map((e) => e.dataset.piece).sort());
    check(JSON.stringify(stacks) === JSON.stringify(server.cells.map((c) => c.stack[c.stack.length - 1]).sort()), `stacks ${stacks}`);
    check((await page.textContent('#board')).includes('on bQ'), 'a stack shows what is under it');
    for (const colour of ['White', 'Black']) {
      // Each bug in hand is its picture (the same as on the board), with the count where there are several.
      const hand = await page.$$eval(`#hand-${colour} button`, (els) => els.map((e) => `${e.dataset.piece}:${e.querySelector('use').getAttribute('href')}:${e.textContent}`));
      const expected = server.hands[colour].filter((b) => b.count).map((b) => `${b.next}:#bug-${b.bug}:${b.count > 1 ? `×${b.count}` : ''}`);
      check(JSON.stringify(hand) === JSON.stringify(expected), `${colour}'s hand ${hand}; ${expected}`);
    }
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
    await page.click('#copy');
    check(await page.evaluate(() => navigator.clipboard.readText()) === server.game, 'Copy GameString copies it');
    await page.click('#share');
    check(await page.evaluate(() => navigator.clipboard.readText()) === page.url(), 'Copy link copies the link');
    const list = await centreOf(page, '#moves');
    await page.mouse.move(list.x, list.y);
    await page.mouse.wheel(0, -100);
    await waitFor('the wheel over the list steps back', async () => (await plyOf(page)) === 9);
    await page.mouse.wheel(0, 100);
    await waitFor('and on', async () => (await plyOf(page)) === 10);
    await page.screenshot({ path: `${shots}/link.png` });
  });

  await step('a different move at an earlier ply starts a variation, which can be promoted', async () => {
    await page.keyboard.press('ArrowLeft');
    await waitFor('one back', async () => (await plyOf(page)) === 9);
    const legal = (await page.evaluate(() => window.waggle.state.legal));
    const played = await page.evaluate(() => window.waggle.node.children[0].move);
    const other = Object.values(legal).flat().map((m) => m.move).find((m) => m !== played);
    await page.fill('#move-box', 'wQ zz');
    await page.press('#move-box', 'Enter');
    await waitFor('a message', () => page.isVisible('#message'));
    check((await plyOf(page)) === 9 && (await page.$$('#moves .variation')).length === 0, 'a bad move changes nothing');
    await page.fill('#move-box', other);
    await page.press('#move-box', 'Enter');
    await waitFor('the variation', async () => (await page.$$('#moves .variation')).length === 1);
    await page.click('#promote');
    await waitFor('promoted', () => page.evaluate((other) => window.waggle.root.mainLine()[9].move === other, other));
    await page.click('#moves .variation .mv');
    await waitFor('in the variation', () => page.evaluate((played) => window.waggle.node.move === played, played));
    await page.click('#delete');
    await waitFor('the variation deleted', async () => (await page.$$('#moves .variation')).length === 0);
    check(await page.evaluate((other) => window.waggle.node.ply === 9 && window.waggle.node.children.length === 1 &&
      window.waggle.node.children[0].move === other, other), 'the main line stays');
    await page.keyboard.press('End');
    await waitFor('the end', async () => (await plyOf(page)) === 10);
  });

  await step('analysis on shows lines as the search deepens, off stops the server\'s search', async () => {
    await page.check('#analyse');
    await waitFor('lines', async () => (await page.$$('#pv-lines li')).length === 3);
    const depth = async () => Number(((await page.textContent('#search-info')).match(/^depth (\d+)/) || [])[1]);
    const first = await depth();
    await waitFor('the search deepens', async () => (await depth()) > first);
    await waitFor('an arrow', async () => (await page.$$('#board line.arrow')).length === 1);
    check((await api('/api/status')).running === 1, 'one search runs');
    check(/^depth \d+ · [\d,]+ nodes · [\d,]+ kN\/s/.test(await page.textContent('#search-info')), 'depth, nodes and speed show');
    check(await page.isVisible('#winbar') && /^White \d+%$/.test(await page.textContent('#winbar-text')), 'the win-chance bar shows');
    await page.screenshot({ path: `${shots}/analysis.png` });
    // A click on the second move of a line plays the line up to it.
    const ply = await plyOf(page);
    await page.selectOption('#lines', '1');
    await waitFor('one line', async () => (await page.$$('#pv-lines li')).length === 1);
    await page.selectOption('#lines', '3');
    await waitFor('three lines', async () => (await page.$$('#pv-lines li')).length === 3);
    // A shallow search's line may hold a single move: wait for one of two or more, and click it at once.
    let line = [];
    await waitFor('a line of two moves or more', async () => {
      line = await page.evaluate(() => {
        const moves = [...document.querySelectorAll('#pv-lines li:first-child button.mv')];
        if (moves.length >= 2) moves[1].click();
        return moves.map((b) => b.textContent);
      });
      return line.length >= 2;
    }, 10000);
    await waitFor('the line played', () => page.evaluate(([ply, moves]) => window.waggle.state.ply === ply + 2 &&
      window.waggle.state.moves.slice(-2).join(';') === moves.join(';'), [ply, line.slice(0, 2)]));
    await waitFor('lines for the new position', async () => (await page.$$('#pv-lines li')).length === 3);
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
    await waitFor('the progress bar', () => page.evaluate(() => {
      const bar = document.getElementById('review-progress');
      return !bar.hidden && bar.value > 0 && bar.value < 1;
    }), 10000);
    await waitFor('the summary', async () => (await page.$$('#summary table')).length === 1, 60000);
    check((await page.$$('#chart svg')).length === 1, 'the chart');
    const summary = await page.textContent('#summary');
    check(/Accuracy\d/.test(summary.replace(/\s+/g, '')) && summary.includes('Blunders'), `each side's accuracy: ${summary}`);
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
    const imported = await page.evaluate(() => window.waggle.state.game);
    await page.click('#import');
    await page.fill('#import-text', '[GameType "Base"]\n\n1. wS1\n2. wS2 wS1-\n');
    await page.click('#import-go');
    await waitFor('a message', () => page.isVisible('#message'));
    check(/turn/.test(await page.textContent('#message')), `the message says what is wrong: ${await page.textContent('#message')}`);
    check(await page.evaluate((game) => window.waggle.state.game === game, imported), 'a bad .pgn changes nothing');
    // A GameString pasted, then a .pgn file dropped on the page.
    await page.click('#import');
    await page.fill('#import-text', THROW);
    await page.click('#import-go');
    await waitFor('the pasted game', () => page.evaluate(() => window.waggle.state.game_type === 'Base+P' && window.waggle.state.ply === 8));
    await page.evaluate((pgn) => {
      const files = new DataTransfer();
      files.items.add(new File([pgn], 'dropped.pgn', { type: 'text/plain' }));
      document.getElementById('board').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
    }, pgn);
    await waitFor('the dropped game', () => page.evaluate(() => window.waggle.state.game_type === 'Base+MLP' && window.waggle.state.ply === 10));
    const bad = await open(link('Base;InProgress;White[2];wS1;wS2'));
    await waitFor('a message', async () => (await bad.isVisible('#message')));
    const message = await bad.textContent('#message');
    check(message.includes('cannot be shown'), message);
    check((await bad.$$('#board')).length === 1 && (await bad.isVisible('#new-game')), 'the page is there');
    await bad.screenshot({ path: `${shots}/bad-link.png` });
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('422')));
  });

  await step('drag and drop does what a click does: a piece from the board or a hand goes only to its legal cells', async () => {
    page = await open(link(GAME));
    let server = await api('/api/position', { game: GAME });
    const piece = Object.keys(server.legal).find((p) => p[0] === 'w' && server.cells.some((c) => c.stack.at(-1) === p));
    const expected = server.legal[piece].map((m) => m.move).sort();
    const from = await centreOf(page, stackOf(piece));
    // Let go where the piece may not go: off the board, on another stack, on the empty background.
    const cells = server.legal[piece].map((m) => `${m.to.q},${m.to.r}`);
    const other = server.cells.find((c) => c.stack.at(-1) !== piece && !cells.includes(`${c.q},${c.r}`)).stack.at(-1);
    await clickPiece(page, piece);
    const empty = await background(page); // found with the targets drawn
    await clickPiece(page, piece);
    const aside = await centreOf(page, '#status');
    for (const to of [aside, await centreOf(page, stackOf(other)), empty]) {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
      check(JSON.stringify(await marked(page)) === JSON.stringify(expected), `dragging ${piece} marks ${await marked(page)}; legal ${expected}`);
      check((await page.$$('#board .ghost')).length === 1, 'the piece follows the pointer');
      await page.mouse.move(to.x, to.y, { steps: 4 });
      await page.mouse.up();
      check((await marked(page)).length === 0, `${piece} let go at (${to.x}, ${to.y}) is put back`);
      check(await page.evaluate((game) => window.waggle.state.game === game, server.game), 'the position is unchanged');
    }
    const move = expected[Math.floor(expected.length / 2)];
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 10, from.y + 10, { steps: 2 });
    const to = await centreOf(page, targetOf(move));
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.screenshot({ path: `${shots}/drag.png` });
    await page.mouse.up();
    let after = await api('/api/play', { game: server.game, move });
    await waitFor(`${move} played by a drag`, () => page.evaluate((game) => window.waggle.state.game === game, after.game));

    // From Black's hand: a drop off the board puts it back, a drop on a target places it.
    server = after;
    const bug = server.hands.Black.find((b) => b.count > 0 && (server.legal[b.next] || []).length);
    const placements = server.legal[bug.next].map((m) => m.move).sort();
    const button = `#hand-Black button[data-piece="${bug.next}"]`;
    await drag(page, await centreOf(page, button), await centreOf(page, '#status'));
    check((await marked(page)).length === 0 && (await plyOf(page)) === server.ply, `${bug.next} let go off the board is put back`);
    check((await page.$$('.drag-ghost')).length === 0, 'the ghost is gone');
    const hand = await centreOf(page, button), middle = await centreOf(page, '#board');
    await page.mouse.move(hand.x, hand.y);
    await page.mouse.down();
    await page.mouse.move(middle.x, middle.y, { steps: 6 });
    check(JSON.stringify(await marked(page)) === JSON.stringify(placements), `dragging ${bug.next} marks ${await marked(page)}; legal ${placements}`);
    const placement = placements[placements.length - 1];
    const cell = await centreOf(page, targetOf(placement));
    await page.mouse.move(cell.x, cell.y, { steps: 6 });
    await page.mouse.up();
    after = await api('/api/play', { game: server.game, move: placement });
    await waitFor(`${placement} played by a drag from the hand`, () => page.evaluate((game) => window.waggle.state.game === game, after.game));
    check((await marked(page)).length === 0, 'no piece is picked after the drop');
  });

  await step('the Pillbug\'s throw is reachable by clicks: the thrown piece\'s targets are exactly its legal moves', async () => {
    page = await open(link(THROW));
    const server = await api('/api/position', { game: THROW });
    const thrown = Object.keys(server.legal).filter((p) => p[0] === 'b');
    check(thrown.length > 0, `White may throw one of Black's pieces (legal: ${Object.keys(server.legal)})`);
    for (const piece of server.cells.map((c) => c.stack.at(-1))) {
      const { targets } = await clickPiece(page, piece);
      const expected = (server.legal[piece] || []).map((m) => m.move).sort();
      check(JSON.stringify(targets) === JSON.stringify(expected), `${piece}: marked ${targets}; legal ${expected}`);
      if (targets.length) await clickPiece(page, piece);
    }
    const moves = server.legal[thrown[0]].map((m) => m.move).sort();
    await clickPiece(page, thrown[0]);
    await page.screenshot({ path: `${shots}/throw.png` });
    await page.click(targetOf(moves[0]), { force: true });
    const after = await api('/api/play', { game: THROW, move: moves[0] });
    await waitFor(`the throw ${moves[0]} played`, () => page.evaluate((game) => window.waggle.state.game === game, after.game));
    check(after.game.endsWith(`;${moves[0]}`) && after.last.from !== null, `the throw is the last move: ${after.game}`);
  });

  await step('pass is offered when it is the only move, and plays it', async () => {
    page = await open(link(PASS));
    check(await page.isVisible('#pass'), 'the Pass button shows');
    await page.click('#pass');
    await waitFor('passed', () => page.evaluate(() => window.waggle.state.moves.at(-1) === 'pass'));
    check(!(await page.isVisible('#pass')), 'Pass is gone when Black has moves');
  });


  await step('every piece is its bug drawn, in both colours and in the hands; the Labels switch is remembered', async () => {
    page = await open(link(GAME));
    const server = await api('/api/position', { game: GAME });
    const symbols = await page.evaluate(() => ['Q', 'B', 'G', 'S', 'A', 'M', 'L', 'P'].filter((b) => document.getElementById(`bug-${b}`)).length);
    check(symbols === 8, `the eight bugs' symbols are in the page (${symbols})`);
    const drawn = await page.$$eval('#board .stack:not(.ghost)', (els) => els.map((e) => {
      const use = e.querySelector('use');
      const number = e.querySelector('text.number');
      return { piece: e.dataset.piece, href: use && use.getAttribute('href'), ink: use && use.getAttribute('color'),
        width: use ? use.getBoundingClientRect().width : 0, number: number && number.textContent,
        height: e.querySelector('.height-text') && e.querySelector('.height-text').textContent, title: e.querySelector('title').textContent };
    }));
    check(drawn.length === server.cells.length, 'a picture a stack');
    for (const d of drawn) {
      check(d.href === `#bug-${d.piece[1]}` && d.width > 20, `${d.piece} drawn as its bug: ${JSON.stringify(d)}`);
      check(d.ink === (d.piece[0] === 'w' ? '#2b2b2b' : '#f7f1de'), `${d.piece} in its side's ink`);
      const several = 'ABGS'.includes(d.piece[1]);
      check(several ? d.number === d.piece.slice(2) : d.number === null, `${d.piece}'s number: ${d.number}`);
    }
    const stack = drawn.find((d) => d.height);
    check(stack && stack.height === '2' && stack.title === 'bB1 on bQ', `the stack's height and its pieces: ${JSON.stringify(stack)}`);
    // A middle game with three stacks (a Queen under a Beetle among them), for docs/web.md.
    const example = await open(link(EXAMPLE, 28));
    check((await example.$$('#board .height')).length === 3, 'three stacks');
    await example.screenshot({ path: `${shots}/middle.png` });
    await example.close();
    await page.click('#labels');
    check((await page.textContent('#labels')) === 'Bugs + notation', 'the switch says Bugs + notation');
    check((await page.$$('#board .stack use')).length === drawn.length && (await page.$$('#board .stack text.piece')).length === drawn.length, 'bugs as well as notation');
    await page.click('#labels');
    check((await page.textContent('#labels')) === 'Notation', 'the switch says Notation');
    const labels = await page.$$eval('#board .stack:not(.ghost)', (els) => els.map((e) => [e.dataset.piece, e.querySelector('text.piece') && e.querySelector('text.piece').textContent, !!e.querySelector('use')]));
    check(labels.every(([piece, text, use]) => text === piece && !use), `notation instead of bugs: ${JSON.stringify(labels)}`);
    await page.reload();
    await waitFor('the page again', () => page.evaluate(() => !!(window.waggle && window.waggle.state && document.querySelector('#board .stack'))));
    check((await page.textContent('#labels')) === 'Notation' && (await page.$$('#board .stack use')).length === 0, 'the choice is remembered');
    await page.click('#labels');
    check((await page.textContent('#labels')) === 'Bugs' && (await page.$$('#board .stack text.piece')).length === 0 &&
      (await page.$$('#board .stack use')).length === drawn.length, 'and back to bugs alone');
  });

  await step('the position shown has its own state; the game\'s result shows apart, where it happened, with how it ended', async () => {
    page = await open(link(WON));
    const end = await page.evaluate(() => window.waggle.state);
    check(['WhiteWins', 'BlackWins'].includes(end.state) && end.ending && end.ending.includes('Queen is surrounded by'), `how it ended: ${end.ending}`);
    const winner = end.state === 'WhiteWins' ? 'White' : 'Black';
    check((await page.textContent('#status')).startsWith(`${winner} wins here: `), `the end's status: ${await page.textContent('#status')}`);
    check((await page.textContent('#result-text')) === `${winner} wins: ${end.ending}`, `the result: ${await page.textContent('#result-text')}`);
    check((await page.textContent('#moves .end')) === `${winner} wins`, 'the result where it happened, in the move list');
    check(!(await page.isVisible('#next-mistake')), 'Next mistake hidden with nothing marked');
    await page.focus('#moves');
    await page.keyboard.press('ArrowLeft');
    await waitFor('one back', async () => (await plyOf(page)) === end.ply - 1);
    const before = await api('/api/position', { game: end.game.split(';').slice(0, -1).join(';') });
    const status = await page.textContent('#status');
    check(status.startsWith(`${before.to_move} to move · turn ${before.turn}`) && status.includes(`the game ends at ply ${end.ply}`), `the earlier position's own status: ${status}`);
    check((await page.textContent('#result-text')).endsWith(`(at ply ${end.ply})`), 'the result says where it happened');
    const hands = await page.$$eval('.hand button', (els) => els.map((e) => e.dataset.piece).sort());
    const expected = ['White', 'Black'].flatMap((c) => before.hands[c].filter((b) => b.count).map((b) => b.next)).sort();
    check(JSON.stringify(hands) === JSON.stringify(expected), `the earlier position's hands: ${hands}; ${expected}`);
    check(!(await page.isDisabled('#move-box')) && !(await page.isVisible('#pass')), 'its move box takes a move, no Pass');
    await page.click('#result-go');
    await waitFor('back at the end', async () => (await plyOf(page)) === end.ply);
    check(await page.isDisabled('#move-box'), 'no move in a finished position');
  });

  await step('the engine\'s placement is drawn from the piece in its hand', async () => {
    page = await open('/');
    check(await page.isVisible('#invite'), 'a first visit is invited to a game');
    await page.click('#invite-board');
    check(!(await page.isVisible('#invite')), 'an analysis board instead');
    await page.check('#analyse');
    await waitFor('an arrow from the hand', async () => (await page.$$('#hand-arrows line')).length === 1);
    const arrow = await page.evaluate(() => {
      const line = document.querySelector('#hand-arrows line');
      const area = document.getElementById('hand-arrows').getBoundingClientRect();
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(line.getAttribute(k)));
      const start = document.elementsFromPoint(area.left + x1, area.top + y1).find((e) => e.closest('.hand button'));
      return { from: start && start.closest('.hand button').dataset.piece, best: window.waggle.analysis.best, to: [area.left + x2, area.top + y2] };
    });
    check(arrow.from && arrow.best.startsWith(arrow.from), `the arrow starts at ${arrow.from}, the piece of ${arrow.best}`);
    check((await page.$$('#board line.arrow')).length === 0, 'not from below the board');
    await page.uncheck('#analyse');
  });

  // Taps and drags by finger, as Chromium sends them from a touch screen.
  async function tapAt(target, at) {
    await target.touchscreen.tap(Math.round(at.x), Math.round(at.y));
  }
  async function fingerDrag(target, from, to) {
    const cdp = await target.context().newCDPSession(target);
    const point = (p) => [{ x: Math.round(p.x), y: Math.round(p.y), id: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point({ x: from.x + (to.x - from.x) * i / 8, y: from.y + (to.y - from.y) * i / 8 }) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  async function sideways(target) {
    return target.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  await step('a whole game by touch on a phone (390×844): tap to pick, tap a target, drags from the hand; nothing scrolls sideways', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const tab = await open('/', phone);
    check((await sideways(tab)) <= 0, `the page scrolls sideways by ${await sideways(tab)} px`);
    await tab.screenshot({ path: `${shots}/phone-start.png` });
    await tab.selectOption('#invite-level', '1');
    await tab.tap('#invite-White');
    await waitFor('a game against Waggle', () => tab.evaluate(() => !!window.waggle.play));
    let drags = 0;
    for (let turn = 0; turn < 40; turn++) {
      await waitFor('Waggle has answered', () => tab.evaluate(() => !window.waggle.play.thinking && window.waggle.state.to_move === 'White' || ['WhiteWins', 'BlackWins', 'Draw'].includes(window.waggle.state.state)));
      const state = await tab.evaluate(() => window.waggle.state);
      if (state.state !== 'InProgress' && state.state !== 'NotStarted') break;
      if (state.ply >= 60) break;
      if (state.pass) { await tab.tap('#pass'); continue; }
      // The board in view, as a player holds it (a finger's tap lands where it is on the screen).
      await tab.evaluate(() => document.getElementById('hand-Black').scrollIntoView({ block: 'start' }));
      const pieces = Object.keys(state.legal);
      const piece = pieces[Math.floor(Math.random() * pieces.length)];
      const expected = state.legal[piece].map((m) => m.move).sort();
      const inHand = !state.cells.some((c) => c.stack.at(-1) === piece);
      const from = await centreOf(tab, inHand ? `.hand button[data-piece="${piece}"]` : stackOf(piece));
      const move = expected[Math.floor(Math.random() * expected.length)];
      if (inHand && turn % 3 === 1) {
        // A drag from the hand to the cell, by finger.
        const to = state.legal[piece].find((m) => m.move === move).to;
        const at = await tab.evaluate(({ q, r }) => window.waggle.board.clientOf(q, r), to);
        await fingerDrag(tab, from, at);
        drags++;
      } else {
        await tapAt(tab, from);
        await waitFor(`ply ${state.ply}, ${piece} tapped: its targets exactly its legal moves (${expected})`,
          async () => JSON.stringify(await marked(tab)) === JSON.stringify(expected), 3000)
          .catch(async (error) => { await tab.screenshot({ path: `${shots}/failure-phone.png` }); throw error; });
        await tapAt(tab, await centreOf(tab, targetOf(move)));
      }
      await waitFor(`${move} played by touch`, () => tab.evaluate((ply) => window.waggle.state.ply > ply, state.ply));
      if (turn === 6) {
        check((await sideways(tab)) <= 0, 'nothing scrolls sideways in a game');
        await tab.evaluate(() => window.scrollTo(0, 0));
        await tab.screenshot({ path: `${shots}/phone.png` });
      }
    }
    check(drags > 0, 'pieces were dragged from the hand');
    check((await plyOf(tab)) >= 10, `the game went on (${await plyOf(tab)} plies)`);
    // Every control is on the page's width (the page scrolls down to it).
    const off = await tab.evaluate(() => [...document.querySelectorAll('header button, aside button, #board-area button, select, input')]
      .filter((e) => e.getClientRects().length && !e.closest('dialog'))
      .filter((e) => { const b = e.getBoundingClientRect(); return b.left < 0 || b.right > window.innerWidth + 0.5 || b.width < 1; })
      .map((e) => e.id || e.textContent));
    check(off.length === 0, `controls off the phone's width: ${off}`);
    check((await sideways(tab)) <= 0, 'nothing scrolls sideways at the end');
    await tab.screenshot({ path: `${shots}/phone-end.png`, fullPage: true });
    await phone.close();
  });

  await step('a tablet (820×1180, touch): the board uses the width, a tap picks and a tap moves', async () => {
    const tablet = await browser.newContext({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });
    const tab = await open(link(GAME), tablet);
    check((await sideways(tab)) <= 0, 'nothing scrolls sideways');
    const wide = await tab.evaluate(() => document.getElementById('board').getBoundingClientRect().width);
    check(wide > 760, `the board uses the width (${wide} px)`);
    const state = await tab.evaluate(() => window.waggle.state);
    const piece = Object.keys(state.legal).find((p) => state.cells.some((c) => c.stack.at(-1) === p));
    await tapAt(tab, await centreOf(tab, stackOf(piece)));
    const expected = state.legal[piece].map((m) => m.move).sort();
    check(JSON.stringify(await marked(tab)) === JSON.stringify(expected), `${piece} tapped: ${await marked(tab)}`);
    await tapAt(tab, await centreOf(tab, targetOf(expected[0])));
    await waitFor('moved by taps', async () => (await plyOf(tab)) === state.ply + 1);
    await tab.screenshot({ path: `${shots}/tablet.png` });
    await tablet.close();
  });

  await step('the wheel and a pinch zoom about the pointer, dragging the background pans, Fit and Flip', async () => {
    page = await open(link(FULL));
    const around = await centreOf(page, stackOf('bQ'));
    let view = await viewOf(page);
    await page.mouse.move(around.x, around.y);
    await page.mouse.wheel(0, -100);
    await waitFor('zoomed in', async () => (await viewOf(page)).scale > view.scale * 1.1);
    let now = await centreOf(page, stackOf('bQ'));
    check(Math.hypot(now.x - around.x, now.y - around.y) < 2, `the point under the wheel stays put (${JSON.stringify(now)}, ${JSON.stringify(around)})`);
    view = await viewOf(page);
    await page.mouse.wheel(0, 100);
    await waitFor('zoomed out', async () => (await viewOf(page)).scale < view.scale * 0.9);

    // Two fingers spread apart from 80 to 160 pixels: the scale doubles about their middle.
    const cdp = await page.context().newCDPSession(page);
    const mid = await centreOf(page, stackOf('wQ'));
    view = await viewOf(page);
    const fingers = (spread) => [{ x: mid.x - spread / 2, y: mid.y, id: 1 }, { x: mid.x + spread / 2, y: mid.y, id: 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(80) });
    for (let spread = 90; spread <= 160; spread += 10) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(spread) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const pinched = await viewOf(page);
    check(Math.abs(pinched.scale / view.scale - 2) < 0.15, `a pinch from 80 to 160 pixels doubles the scale (${view.scale} to ${pinched.scale})`);
    now = await centreOf(page, stackOf('wQ'));
    check(Math.hypot(now.x - mid.x, now.y - mid.y) < 3, 'the point between the fingers stays put');
    await page.screenshot({ path: `${shots}/zoomed.png` });

    const before = await stackCentres(page);
    const start = await background(page);
    check(start, 'some empty background to drag');
    await drag(page, start, { x: start.x + 90, y: start.y - 40 });
    const after = await stackCentres(page);
    for (const [piece, at] of Object.entries(before)) {
      check(Math.abs(after[piece].x - at.x - 90) < 1 && Math.abs(after[piece].y - at.y + 40) < 1, `${piece} panned with the pointer`);
    }
    check((await marked(page)).length === 0 && (await plyOf(page)) === 28, 'a pan picks nothing and plays nothing');

    const inside = async () => page.evaluate(() => {
      const b = document.getElementById('board').getBoundingClientRect();
      return [...document.querySelectorAll('#board .stack polygon')].every((p) => {
        const c = p.getBoundingClientRect();
        return c.left >= b.left && c.right <= b.right && c.top >= b.top && c.bottom <= b.bottom;
      });
    });
    check(!(await inside()), 'zoomed in, some stacks are off the board');
    await page.click('#fit');
    check(await inside(), 'Fit shows every stack');
    const fitted = await stackCentres(page);
    await page.click('#flip');
    const flipped = await stackCentres(page);
    const [a, b] = ['wM', 'bA3'];
    const was = { x: fitted[b].x - fitted[a].x, y: fitted[b].y - fitted[a].y };
    const is = { x: flipped[b].x - flipped[a].x, y: flipped[b].y - flipped[a].y };
    check(Math.abs(is.x + was.x) < 2 && Math.abs(is.y + was.y) < 2, `Flip turns the board round (${JSON.stringify(was)}, ${JSON.stringify(is)})`);
    check(await inside(), 'the flipped board fits');
    await page.screenshot({ path: `${shots}/flipped.png` });
    await page.click('#flip');
  });

  await step('the board\'s shortcuts: + and - zoom, f flips, 0 fits, m types a move, Escape drops the piece', async () => {
    await page.click('#fit');
    await page.focus('#board');
    let view = await viewOf(page);
    const fit = view.scale;
    await page.keyboard.press('+');
    check((await viewOf(page)).scale > view.scale * 1.1, '+ zooms in');
    view = await viewOf(page);
    await page.keyboard.press('-');
    check((await viewOf(page)).scale < view.scale * 0.9, '- zooms out');
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await page.keyboard.press('0');
    check(Math.abs((await viewOf(page)).scale - fit) < 1e-3, '0 fits the board');
    const fitted = await stackCentres(page);
    await page.keyboard.press('f');
    const flipped = await stackCentres(page);
    check(Math.sign(flipped.bA3.x - flipped.wM.x) === -Math.sign(fitted.bA3.x - fitted.wM.x), 'f flips the board');
    await page.keyboard.press('f');
    await clickPiece(page, 'wA3');
    check((await marked(page)).length > 0, 'wA3 picked');
    await page.keyboard.press('Escape');
    check((await marked(page)).length === 0, 'Escape drops the piece picked');
    await page.keyboard.press('m');
    check(await page.evaluate(() => document.activeElement.id === 'move-box'), 'm goes to the move box');
    await page.keyboard.press('Escape');
  });

  await step('panning and zooming a full board: one event a frame, the frames timed', async () => {
    // An Ant picked, so that its many targets are drawn too; then 60 frames of panning and 60 of zooming, each
    // frame moving the pointer or turning the wheel once, in the page (the time each handler takes, and the time
    // between frames, which is over 16.7 ms when the frame could not be drawn in time).
    await clickPiece(page, 'wA3');
    figures.frames = await page.evaluate(async () => {
      const svg = document.getElementById('board');
      const b = svg.getBoundingClientRect();
      const at = { x: b.left + 20, y: b.bottom - 20 };
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const run = async (event) => {
        const handlers = [], frames = [];
        let last = await frame();
        for (let i = 0; i < 60; i++) {
          const start = performance.now();
          svg.dispatchEvent(event(i));
          handlers.push(performance.now() - start);
          const now = await frame();
          frames.push(now - last);
          last = now;
        }
        const sorted = (list) => [...list].sort((x, y) => x - y);
        const round = (x) => Math.round(x * 10) / 10;
        return { handlerWorst: round(Math.max(...handlers)), frameMedian: round(sorted(frames)[30]), frameWorst: round(Math.max(...frames)), over: frames.filter((f) => f > 17).length };
      };
      const pointer = (type, i) => new PointerEvent(type, { clientX: at.x + 3 * i, clientY: at.y - 2 * i, pointerId: 7, bubbles: true });
      svg.dispatchEvent(pointer('pointerdown', 0));
      const pan = await run((i) => pointer('pointermove', i + 1));
      svg.dispatchEvent(pointer('pointerup', 61));
      const zoom = await run((i) => new WheelEvent('wheel', { deltaY: i % 20 < 10 ? -100 : 100, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, bubbles: true, cancelable: true }));
      return { pan, zoom, stacks: document.querySelectorAll('#board .stack').length, targets: document.querySelectorAll('#board .target').length };
    });
    check(figures.frames.targets > 0, 'the Ant\'s targets are drawn');

    // The same pan through the browser's own input (60 mouse moves sent over CDP), the frames timed meanwhile.
    await page.evaluate(() => {
      window.frameLog = { frames: [], moves: 0, on: true };
      document.getElementById('board').addEventListener('pointermove', () => { window.frameLog.moves++; });
      let last = null;
      const tick = (now) => {
        if (last !== null) window.frameLog.frames.push(now - last);
        last = now;
        if (window.frameLog.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const from = await background(page);
    const view = await viewOf(page);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 180, from.y - 120, { steps: 60 });
    await page.mouse.up();
    figures.real = await page.evaluate(() => {
      window.frameLog.on = false;
      const frames = window.frameLog.frames;
      const round = (x) => Math.round(x * 10) / 10;
      return { moves: window.frameLog.moves, count: frames.length, median: round([...frames].sort((a, b) => a - b)[frames.length >> 1]), worst: round(Math.max(...frames)), over: frames.filter((f) => f > 17).length };
    });
    const panned = await viewOf(page);
    check(Math.abs((view.x - panned.x) * view.scale - 180) < 1, 'the real pan moved the board with the pointer');
  });

  // ---- puzzles ----

  // A built-in puzzle for the steps below: a win in three plies when the set has one (the solver moves twice).
  const set = await api('/api/puzzles', { kind: 'win', per_page: 50 });
  check(set.total > 0, 'the built-in set has puzzles');
  const puzzle = set.puzzles.find((p) => p.plies === 3) || set.puzzles[0];
  const other = set.puzzles.find((p) => p.id !== puzzle.id) || puzzle;
  const solverMoves = (p) => p.solution.filter((_, i) => i % 2 === 0);
  const pieceSelector = async (target, piece) => ((await target.$(`.hand button[data-piece="${piece}"]`)) ? `.hand button[data-piece="${piece}"]` : stackOf(piece));
  const feedbackOf = (target) => target.evaluate(() => document.getElementById('puzzle-feedback').textContent);

  await step('a puzzle is solved by clicks: each right move answered, the streak and the rating kept in the browser', async () => {
    const page = await open(`/?puzzle=${puzzle.id}`);
    await waitFor('the puzzle is shown', () => page.evaluate(() => !document.getElementById('puzzle-area').hidden));
    const task = await page.textContent('#puzzle-task');
    check(task.includes(puzzle.to_move) && (puzzle.plies === 1 ? task.includes('at once') : task.includes(`win in ${puzzle.plies}`)), `the task says what is asked: ${task}`);
    for (const move of solverMoves(puzzle)) {
      const piece = move.split(' ')[0];
      const { targets } = await clickPiece(page, piece);
      check(targets.includes(move), `${move} among ${piece}'s targets`);
      // The feedback of the move before says "Right" too: wait for this move's own.
      const before = await feedbackOf(page);
      await page.mouse.click(...Object.values(await centreOf(page, targetOf(move))));
      await waitFor(`${move} judged`, async () => { const said = await feedbackOf(page); return said !== before && /Right|Solved/.test(said); });
    }
    check((await feedbackOf(page)) === 'Solved!', `solved: ${await feedbackOf(page)}`);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('waggle-puzzles')));
    check(kept.streak === 1 && kept.solved === 1 && kept.rating > 1500, `the streak and a higher rating kept: ${JSON.stringify(kept)}`);
    check((await page.textContent('#puzzle-score')).includes(`streak 1`), 'the streak shown');
    check((await page.textContent('#puzzle-themes')).startsWith('Themes:'), 'the themes shown once solved');
    await page.screenshot({ path: `${shots}/puzzle-solved.png` });
    await page.close();
  });

  await step('a wrong move in a puzzle shows its refutation, Retry goes back, Solution shows the line; a hint picks the piece', async () => {
    const page = await open(`/?puzzle=${other.id}`);
    await waitFor('the puzzle is shown', () => page.evaluate(() => !document.getElementById('puzzle-area').hidden));
    await page.click('#puzzle-hint');
    const first = other.solution[0].split(' ')[0];
    await waitFor('the hint picks the piece to move', async () => (await feedbackOf(page)) === `Hint: move ${first}.`);
    check(await page.evaluate((piece) => window.waggle.picked && window.waggle.picked.piece === piece, first), 'the hinted piece is picked');
    // Another legal move than the solution's first.
    const state = await page.evaluate(() => window.waggle.state);
    const wrong = Object.values(state.legal).flat().map((m) => m.move).find((m) => m !== other.solution[0]);
    await page.fill('#move-box', wrong);
    await page.press('#move-box', 'Enter');
    await waitFor('the wrong move judged', async () => (await feedbackOf(page)).startsWith('Not '));
    const said = await feedbackOf(page);
    check(said.includes('Retry'), `the refutation and what to do: ${said}`);
    check(await page.isVisible('#puzzle-retry'), 'Retry offered');
    // The feedback is written as the line's position is asked of the server: wait for the board to show it.
    await waitFor('the wrong move and its refutation shown on the board', () => page.evaluate((ply) => window.waggle.state.ply > ply, state.ply));
    await page.screenshot({ path: `${shots}/puzzle-wrong.png` });
    await page.click('#puzzle-retry');
    await waitFor('back at the puzzle', () => page.evaluate((ply) => window.waggle.state.ply === ply, state.ply));
    await page.click('#puzzle-solution');
    await waitFor('the solution shown', async () => (await feedbackOf(page)).startsWith('The solution: '));
    check((await feedbackOf(page)).includes(other.solution[0]), 'the solution starts with its first move');
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('waggle-puzzles')));
    check(kept.streak === 0 && kept.tried === 2, `the streak broken: ${JSON.stringify(kept)}`);
    await page.close();
  });

  await step('a puzzle file dropped on the page is played from', async () => {
    const page = await open('/');
    const text = `${JSON.stringify(puzzle)}\n${JSON.stringify(other)}\n`;
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'mine.jsonl', { type: 'application/json' }));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await waitFor('the file\'s first puzzle is shown', () => page.evaluate(() => !document.getElementById('puzzle-area').hidden));
    check((await page.textContent('#puzzle-title')).startsWith('Puzzle 1 of 2'), await page.textContent('#puzzle-title'));
    await page.click('#puzzle-next');
    await waitFor('the second puzzle', async () => (await page.textContent('#puzzle-title')).startsWith('Puzzle 2 of 2'));
    await page.close();
  });

  await step('a puzzle solved by touch on a phone (390×844); nothing scrolls sideways', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const tab = await open(`/?puzzle=${puzzle.id}`, phone);
    await waitFor('the puzzle is shown', () => tab.evaluate(() => !document.getElementById('puzzle-area').hidden));
    check((await sideways(tab)) <= 0, `the page scrolls sideways by ${await sideways(tab)} px`);
    for (const move of solverMoves(puzzle)) {
      await tab.evaluate(() => document.getElementById('hand-Black').scrollIntoView({ block: 'start' }));
      const piece = move.split(' ')[0];
      await tapAt(tab, await centreOf(tab, await pieceSelector(tab, piece)));
      await waitFor(`${piece} picked by a tap`, async () => (await marked(tab)).includes(move), 3000);
      // The feedback of the move before says "Right" too: wait for this move's own.
      const before = await feedbackOf(tab);
      await tapAt(tab, await centreOf(tab, targetOf(move)));
      await waitFor(`${move} judged`, async () => { const said = await feedbackOf(tab); return said !== before && /Right|Solved/.test(said); });
    }
    check((await feedbackOf(tab)) === 'Solved!', `solved by touch: ${await feedbackOf(tab)}`);
    check((await sideways(tab)) <= 0, 'nothing scrolls sideways');
    await tab.evaluate(() => window.scrollTo(0, 0));
    await tab.screenshot({ path: `${shots}/puzzle-phone.png` });
    await phone.close();
  });

  await step('after a review, Practise these makes puzzles of the blunders', async () => {
    // A self-play game in which Black, at its 16th move, let a position go that one move alone held.
    const mistake = readFileSync(new URL('../data/puzzles/mistake.txt', import.meta.url), 'utf8')
      .split('\n').find((line) => line && !line.startsWith('#'));
    const page = await open(link(mistake));
    // The review's marks depend on how far its timed searches get on a loaded machine: the marks of the game's
    // review are given as a review with more time finds them (Black's 16th move, ply 32, a blunder).
    await page.evaluate(() => {
      const app = window.waggle;
      app.review.mainLine = app.root.mainLine();
      app.review.total = app.review.mainLine.length;
      app.review.plies = new Map([[32, { ply: 32, mark: 'blunder' }], [31, { ply: 31, mark: null }]]);
      for (const hook of app.onReviewed) hook();
    });
    await waitFor('Practise these is offered', () => page.isVisible('#practise'));
    await page.click('#practise');
    await waitFor('a puzzle of the game\'s mistake', () => page.evaluate(() => !document.getElementById('puzzle-area').hidden), 60000);
    const task = await page.textContent('#puzzle-task');
    check(task.includes('Black to move') && task.includes('only move that holds'), `the mistake's puzzle: ${task}`);
    await page.close();
  });

  check(problems.length === 0, problems.join('; '));
  if (only) process.exit(0);
  const f = figures.frames;
  console.log(`frames: ${f.stacks} stacks and ${f.targets} targets; panning: handler at most ${f.pan.handlerWorst} ms, ` +
    `frames median ${f.pan.frameMedian} ms, at most ${f.pan.frameWorst} ms, ${f.pan.over} of 60 over 17 ms; ` +
    `wheel: handler at most ${f.zoom.handlerWorst} ms, frames median ${f.zoom.frameMedian} ms, at most ` +
    `${f.zoom.frameWorst} ms, ${f.zoom.over} of 60 over 17 ms; through the browser's input, ${figures.real.moves} ` +
    `pointer moves over ${figures.real.count} frames: median ${figures.real.median} ms, at most ${figures.real.worst} ms, ` +
    `${figures.real.over} over 17 ms`);
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
