// Puzzles: found by Waggle in games and proved (docs/puzzles.md). The built-in set comes from the server a page at
// a time, filtered by game type, rating, theme and kind; a puzzle file dropped on the page, a link to one puzzle
// and the marked moves of a review ("Practise these") are played the same way. The player moves on the board; the
// server judges each move (/api/puzzles/move): a right one is answered by the opponent's defence and the line goes
// on to its end, a wrong one shows its refutation as a variation, with Retry and Solution. A streak and a puzzle
// rating (a Glicko-2 update after each puzzle, as lichess keeps one) are kept in the browser.

import { $, app, remember, say } from './app.js';
import { post } from './api.js';
import { show, renderMoves, pick } from './moves.js';
import { loadGame, copy } from './io.js';
import { remove } from './tree.js';

const STORE = 'waggle-puzzles';
const PAGE = 50;

// ---- the player's rating, Glicko-2 (Glickman's paper; the system constant tau 0.5, a puzzle's deviation 80) ----

const SCALE = 173.7178;
function loadScore() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE));
    if (kept && Number.isFinite(kept.rating)) return kept;
  } catch { /* a fresh start */ }
  return { rating: 1500, rd: 350, vol: 0.06, streak: 0, best: 0, solved: 0, tried: 0 };
}
function saveScore(score) {
  try { localStorage.setItem(STORE, JSON.stringify(score)); } catch { /* private browsing: kept for the page only */ }
}

// The player's rating after a puzzle rated `puzzleRating`, solved (1) or not (0).
export function glicko(player, puzzleRating, solved) {
  const mu = (player.rating - 1500) / SCALE, phi = player.rd / SCALE, sigma = player.vol;
  const muJ = (puzzleRating - 1500) / SCALE, phiJ = 80 / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (solved - e);
  const tau = 0.5, a = Math.log(sigma * sigma);
  const f = (x) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let lo = a, hi;
  if (delta * delta > phi * phi + v) hi = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * tau) < 0) k += 1; hi = a - k * tau; }
  let fLo = f(lo), fHi = f(hi);
  for (let i = 0; i < 100 && Math.abs(hi - lo) > 1e-6; i++) {
    const c = lo + ((lo - hi) * fLo) / (fHi - fLo), fC = f(c);
    if (fC * fHi <= 0) { lo = hi; fLo = fHi; } else { fLo /= 2; }
    hi = c; fHi = fC;
  }
  const vol = Math.exp(lo / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (solved - e);
  return { ...player, rating: Math.round(1500 + SCALE * muNew), rd: Math.max(45, Math.round(SCALE * phiNew)), vol };
}

// ---- the puzzles ----

const kinds = { win: 'win', defend: 'defend' };

// What a puzzle asks, in words.
function task(puzzle) {
  const side = puzzle.to_move;
  if (puzzle.kind === kinds.defend) return `${side} to move: find the only move that holds (every other loses within ${puzzle.plies} plies)`;
  return puzzle.plies === 1 ? `${side} to move: win at once` : `${side} to move: win in ${puzzle.plies} plies`;
}

function feedback(text, kind = '') {
  const box = $('puzzle-feedback');
  box.textContent = text;
  box.className = kind;
}

function showScore() {
  const score = loadScore();
  $('puzzle-score').textContent = `Your puzzle rating ${score.rating} (±${score.rd}) · streak ${score.streak} (best ${score.best}) · solved ${score.solved} of ${score.tried}`;
}

// The puzzle's outcome, once: the rating, the streak.
function settle(solved) {
  const p = app.puzzle;
  if (!p || p.settled) return;
  p.settled = true;
  let score = loadScore();
  score = glicko(score, p.current.rating, solved ? 1 : 0);
  score.tried += 1;
  if (solved) { score.solved += 1; score.streak += 1; score.best = Math.max(score.best, score.streak); } else score.streak = 0;
  saveScore(score);
  showScore();
}

function setButtons() {
  const p = app.puzzle;
  const on = !!(p && p.current);
  $('puzzle-area').hidden = !on;
  if (!on) return;
  $('puzzle-retry').hidden = !p.wrongNode;
  $('puzzle-hint').disabled = p.done || p.busy;
  $('puzzle-solution').disabled = p.done || p.busy;
  $('puzzle-next').disabled = p.busy || p.index + 1 >= p.list.length;
}

// Start the puzzle at `index` of the list.
async function startAt(index) {
  const p = app.puzzle;
  const puzzle = p.list[index];
  let state;
  try {
    state = await post('/api/position', { game: puzzle.game });
  } catch (error) {
    say(`The puzzle ${puzzle.id} cannot be shown: ${error.message}`);
    return;
  }
  loadGame(state, state.ply);
  const line = app.root.mainLine();
  const node = line.length ? line[line.length - 1] : app.root;
  app.puzzle = { ...p, index, current: puzzle, moves: [], node, wrongNode: null, done: false, settled: false, busy: false, clean: true };
  await show(node);
  $('puzzle-title').textContent = `Puzzle ${index + 1} of ${p.total || p.list.length} · ${puzzle.game_type} · rated ${puzzle.rating}`;
  $('puzzle-task').textContent = task(puzzle);
  $('puzzle-themes').textContent = '';
  feedback('Your move.');
  setButtons();
  showScore();
  const url = new URL(location.href);
  url.search = p.builtin ? `?puzzle=${puzzle.id}` : '';
  history.replaceState(null, '', url);
}

// Play from `list` (puzzle records), from its first; `builtin` when they are the built-in set's (then `filters` and
// `total` say which and how many), for the links and for fetching more.
async function playList(list, { builtin = false, filters = {}, total = list.length } = {}) {
  if (!list.length) { say('No puzzle matches: try other filters.'); return; }
  say('');
  app.puzzle = { list, builtin, filters, total, page: 0, index: 0 };
  await startAt(0);
}

async function fetchSet(filters, page = 0) {
  return post('/api/puzzles', { ...filters, page, per_page: PAGE });
}

export async function startSet(filters = {}) {
  try {
    const answer = await fetchSet(filters);
    await playList(answer.puzzles, { builtin: true, filters, total: answer.total });
  } catch (error) {
    say(error.message);
  }
}

// Whether the player may move in the position shown: the puzzle's own line, the solver to move.
export function mayMove() {
  const p = app.puzzle;
  return !!(p && p.current && !p.done && !p.busy && !p.wrongNode && app.node === p.node && app.state.to_move === p.current.to_move);
}

// The solver's move `text`, judged by the server.
export async function move(text) {
  const p = app.puzzle;
  if (!mayMove()) return;
  p.busy = true;
  setButtons();
  let answer;
  try {
    answer = await post('/api/puzzles/move', { puzzle: p.current, moves: p.moves, move: text });
  } catch (error) {
    p.busy = false;
    setButtons();
    say(error.message);
    return;
  }
  p.busy = false;
  say('');
  if (app.puzzle !== p) return;
  if (answer.right) {
    const played = answer.moves.slice(p.moves.length);
    let node = p.node;
    for (const mv of played) node = node.child(mv);
    remember(node, answer.state);
    p.moves = answer.moves;
    p.node = node;
    if (answer.solved) {
      p.done = true;
      feedback(p.clean ? 'Solved!' : 'Solved, with help.', 'right');
      settle(p.clean);
      $('puzzle-themes').textContent = p.current.themes.length ? `Themes: ${p.current.themes.join(', ')}` : '';
    } else {
      feedback(`Right. The answer: ${answer.reply}. Your move.`, 'right');
    }
    setButtons();
    renderMoves();
    show(node);
    return;
  }
  // Wrong: the move and its refutation as a variation, shown; Retry goes back.
  p.clean = false;
  settle(false);
  let node = p.node;
  for (const mv of [answer.tried, ...answer.refutation].filter(Boolean)) node = node.child(mv);
  p.wrongNode = node;
  const refutation = answer.refutation.length ? ` It is met by ${answer.refutation.join(', ')}.` : '';
  feedback(`Not ${answer.tried || text}.${refutation} Retry, or see the solution.`, 'wrong');
  setButtons();
  show(node);
}

function retry() {
  const p = app.puzzle;
  if (!p || !p.wrongNode) return;
  let node = p.wrongNode;
  while (node.parent && node !== p.node && node.parent !== p.node) node = node.parent;
  if (node !== p.node) remove(node);
  p.wrongNode = null;
  feedback('Your move.');
  setButtons();
  renderMoves();
  show(p.node);
}

async function hint() {
  const p = app.puzzle;
  if (!p || p.done) return;
  if (p.wrongNode) retry();
  try {
    const answer = await post('/api/puzzles/help', { puzzle: p.current, moves: p.moves, what: 'hint' });
    p.clean = false;
    if (answer.piece) {
      const cell = app.state.cells.find((c) => c.stack[c.stack.length - 1] === answer.piece);
      pick(answer.piece, cell ? { q: cell.q, r: cell.r } : null);
      feedback(`Hint: move ${answer.piece}.`);
    }
  } catch (error) {
    say(error.message);
  }
}

async function solution() {
  const p = app.puzzle;
  if (!p || p.done) return;
  if (p.wrongNode) retry();
  try {
    const answer = await post('/api/puzzles/help', { puzzle: p.current, moves: p.moves, what: 'solution' });
    p.clean = false;
    settle(false);
    let node = p.node;
    for (const mv of answer.line) node = node.child(mv);
    p.done = true;
    feedback(`The solution: ${answer.line.join(', ')}.`);
    $('puzzle-themes').textContent = p.current.themes.length ? `Themes: ${p.current.themes.join(', ')}` : '';
    setButtons();
    renderMoves();
    show(node);
  } catch (error) {
    say(error.message);
  }
}

async function next() {
  const p = app.puzzle;
  if (!p) return;
  if (!p.settled && p.current) settle(false);
  if (p.index + 1 < p.list.length) { await startAt(p.index + 1); return; }
  if (p.builtin && p.list.length < p.total) {
    const answer = await fetchSet(p.filters, p.page + 1).catch((error) => { say(error.message); return null; });
    if (!answer || !answer.puzzles.length) return;
    p.page += 1;
    p.list = p.list.concat(answer.puzzles);
    await startAt(p.index + 1);
  }
}

export function leave() {
  app.puzzle = null;
  setButtons();
}

// A puzzle file's text (dropped on the page or opened): read by the server, then played.
export async function openFile(text) {
  try {
    const answer = await post('/api/puzzles/read', { text });
    if (answer.refused.length) say(`${answer.refused.length} line(s) of the file are not puzzles: ${answer.refused[0]}`, 'note');
    await playList(answer.puzzles);
  } catch (error) {
    say(error.message);
  }
}

// The page's link to one puzzle (?puzzle=ID): true when it was opened.
export async function openLink() {
  const id = new URLSearchParams(location.search).get('puzzle');
  if (!id) return false;
  try {
    const answer = await post('/api/puzzles', { id });
    if (!answer.puzzles.length) { say(`There is no puzzle ${id} in the built-in set.`); return false; }
    await playList(answer.puzzles, { builtin: true, filters: { id }, total: answer.total });
    return true;
  } catch (error) {
    say(error.message);
    return false;
  }
}

// "Practise these": the puzzles of the reviewed game's blunders and missed wins.
async function practise() {
  const line = app.review.mainLine;
  const plies = [...app.review.plies.values()].filter((ply) => ply.mark === 'blunder' || ply.mark === 'missed_win').map((ply) => ply.ply);
  if (!line.length || !plies.length) return;
  const game = `${app.gameType};InProgress;White[1];${line.map((node) => node.move).join(';')}`;
  $('practise').disabled = true;
  feedback('');
  say('Looking for puzzles in the marked moves…', 'note');
  try {
    const answer = await post('/api/puzzles/mistakes', { game, plies });
    if (!answer.puzzles.length) say('None of the marked moves is a puzzle: no position before them has exactly one move that holds or wins within 7 plies.', 'note');
    else await playList(answer.puzzles);
  } catch (error) {
    say(error.message);
  }
  $('practise').disabled = false;
}

// After a review: "Practise these" when something a puzzle could come from is marked.
export function reviewed() {
  $('practise').hidden = ![...app.review.plies.values()].some((ply) => ply.mark === 'blunder' || ply.mark === 'missed_win');
}

// ---- the dialog and the buttons ----

async function fillDialog() {
  try {
    const answer = await post('/api/puzzles', { per_page: 1 });
    const fill = (select, values, label) => {
      select.textContent = '';
      const any = document.createElement('option');
      any.value = '';
      any.textContent = label;
      select.appendChild(any);
      for (const value of values) {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = value;
        select.appendChild(option);
      }
    };
    fill($('puzzle-type'), answer.game_types, 'any');
    fill($('puzzle-theme'), answer.themes, 'any');
    $('puzzle-count').textContent = `${answer.set} puzzles built in.`;
  } catch (error) {
    say(error.message);
  }
}

function dialogFilters() {
  const filters = {};
  if ($('puzzle-type').value) filters.game_type = $('puzzle-type').value;
  if ($('puzzle-theme').value) filters.theme = $('puzzle-theme').value;
  if ($('puzzle-kind').value) filters.kind = $('puzzle-kind').value;
  const min = Number($('puzzle-min').value), max = Number($('puzzle-max').value);
  if ($('puzzle-min').value && Number.isFinite(min)) filters.min_rating = min;
  if ($('puzzle-max').value && Number.isFinite(max)) filters.max_rating = max;
  return filters;
}

export function wirePuzzles() {
  app.onNewGame.push(leave);
  $('puzzles').addEventListener('click', async () => { await fillDialog(); $('puzzle-dialog').showModal(); });
  $('puzzle-form').addEventListener('submit', (e) => {
    if (e.submitter && e.submitter.value === 'start') startSet(dialogFilters());
  });
  $('puzzle-file-input').addEventListener('change', async () => {
    const file = $('puzzle-file-input').files[0];
    if (file) { $('puzzle-dialog').close(); openFile(await file.text()); }
  });
  $('puzzle-hint').addEventListener('click', hint);
  $('puzzle-retry').addEventListener('click', retry);
  $('puzzle-solution').addEventListener('click', solution);
  $('puzzle-next').addEventListener('click', next);
  $('puzzle-leave').addEventListener('click', leave);
  $('puzzle-link').addEventListener('click', () => {
    const p = app.puzzle;
    if (p && p.current && p.builtin) copy(`${location.origin}/?puzzle=${p.current.id}`, 'The link to the puzzle');
    else if (p && p.current) copy(JSON.stringify(p.current), 'The puzzle (not built in: its record)');
  });
  $('practise').addEventListener('click', practise);
  app.mayMove = mayMove;
  app.puzzleMove = move;
  app.openPuzzleFile = openFile;
  app.onReviewed.push(reviewed);
}
