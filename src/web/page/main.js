// The page: a game in a move tree, the board, play against Waggle, analysis, review, import and export. Every rule
// comes from the server (api.js): the page only draws what it is told and sends what the player does.

import { get, post, postText, stream } from './api.js';
import { Board } from './board.js';
import { Node, treeOf, promote, remove, render } from './tree.js';
import { drawChart } from './chart.js';
import { handleKey, fillHelp } from './keys.js';

const $ = (id) => document.getElementById(id);

const app = {
  gameType: 'Base+MLP',
  root: new Node(null, null),
  node: null,
  states: new Map(),
  state: null,
  picked: null,
  play: null, // {human, level, tc, clocks, result, thinking}
  analysis: { on: false, controller: null },
  review: { plies: new Map(), total: 0, controller: null, mainLine: [] },
};
app.node = app.root;
window.waggle = app; // for the browser tests and the curious

const board = new Board($('board'), { onCell: cellClicked, onDrop: (from, to) => dropped(topAt(from), to) });

// ---- the game string of a node, and its state from the server ----

function gameString(node) {
  const moves = node.path();
  return moves.length ? `${app.gameType};InProgress;White[1];${moves.join(';')}` : app.gameType;
}

async function stateOf(node) {
  const key = gameString(node);
  if (!app.states.has(key)) {
    app.states.set(key, await post('/api/position', { game: key }));
  }
  return app.states.get(key);
}

function remember(node, state) {
  app.states.set(gameString(node), state);
}

// ---- showing a position ----

function say(text, kind = 'error') {
  const box = $('message');
  box.textContent = text;
  box.className = kind === 'note' ? 'note' : '';
  box.hidden = !text;
}

let showing = 0;
async function show(node) {
  const ticket = ++showing;
  let state;
  try {
    state = await stateOf(node);
  } catch (error) {
    say(error.message);
    return;
  }
  if (ticket !== showing) return;
  app.node = node;
  app.state = state;
  app.picked = null;
  redraw();
  render($('moves'), app.root, node, (n) => show(n));
  updateStatus();
  updateUrl();
  if (app.review.total) drawReviewChart();
  if (app.analysis.on) startAnalysis();
  maybeEngineMove();
  if (!app.ready) app.ready = performance.now();
}

function targetsOf(piece) {
  return ((app.state.legal || {})[piece] || []).map((m) => ({ ...m.to, move: m.move }));
}

function redraw() {
  const state = app.state;
  if (!state) return;
  const targets = app.picked ? targetsOf(app.picked.piece) : [];
  const arrows = [];
  if (app.analysis.on && app.analysis.best) {
    const arrow = arrowOf(state, app.analysis.best, 'analysis');
    if (arrow) arrows.push(arrow);
  }
  const judged = app.review.plies.get(app.node.ply);
  if (judged && judged.mark && judged.mark !== 'forced_loss' && app.node.parent && app.node.isMain()) {
    const before = app.states.get(gameString(app.node.parent));
    const arrow = before && arrowOf(before, judged.best, 'best');
    if (arrow) arrows.push(arrow);
  }
  board.draw(state, { targets, picked: app.picked && app.picked.from, arrows });
  drawHands(state);
  $('pass').hidden = !state.pass || !humanMayMove();
}

// The arrow of `move` in `state`: from the moving piece's cell (none for a placement) to its destination.
function arrowOf(state, move, kind) {
  for (const [piece, moves] of Object.entries(state.legal || {})) {
    const found = moves.find((m) => m.move === move);
    if (found) {
      const from = state.cells.find((c) => c.stack[c.stack.length - 1] === piece);
      return { from: from ? { q: from.q, r: from.r } : null, to: found.to, kind };
    }
  }
  return null;
}

function drawHands(state) {
  for (const colour of ['White', 'Black']) {
    const box = $(`hand-${colour}`);
    box.textContent = '';
    const label = document.createElement('span');
    label.className = 'side';
    label.textContent = colour;
    box.appendChild(label);
    for (const bug of state.hands[colour]) {
      if (!bug.count) continue;
      const button = document.createElement('button');
      button.className = colour;
      button.dataset.piece = bug.next;
      button.title = `${bug.name}: ${bug.count} in hand`;
      button.append(colour[0].toLowerCase() + bug.bug);
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = `×${bug.count}`;
      button.appendChild(count);
      if (app.picked && app.picked.piece === bug.next) button.classList.add('picked');
      button.addEventListener('pointerdown', (e) => dragFromHand(e, bug.next, colour));
      button.addEventListener('click', () => { if (!handDragged) pick(bug.next, null); handDragged = false; });
      box.appendChild(button);
    }
  }
}

function updateStatus() {
  const state = app.state;
  const status = $('status');
  let text;
  if (app.play && app.play.result) text = app.play.result;
  else if (state.state === 'WhiteWins') text = 'White wins';
  else if (state.state === 'BlackWins') text = 'Black wins';
  else if (state.state === 'Draw') text = 'A draw';
  else text = `${state.to_move} to move · turn ${state.turn} · ply ${state.ply}`;
  if (app.play && app.play.thinking) text = 'Waggle is thinking';
  status.textContent = text;
  status.classList.toggle('thinking', !!(app.play && app.play.thinking));
}

function updateUrl() {
  const url = new URL(location.href);
  url.search = '';
  const moves = app.node.path();
  if (moves.length || app.gameType !== 'Base+MLP') {
    const line = [...moves];
    for (let n = app.node.children[0]; n; n = n.children[0]) line.push(n.move);
    url.searchParams.set('game', line.length ? `${app.gameType};InProgress;White[1];${line.join(';')}` : app.gameType);
    url.searchParams.set('ply', String(app.node.ply));
  }
  history.replaceState(null, '', url);
}

// ---- moving ----

function humanMayMove() {
  if (!app.state || app.state.state === 'WhiteWins' || app.state.state === 'BlackWins' || app.state.state === 'Draw') return false;
  if (!app.play || app.play.result) return true;
  return !app.play.thinking && app.state.to_move === app.play.human && !app.node.children.length;
}

function pick(piece, from) {
  if (!humanMayMove()) return;
  if (app.picked && app.picked.piece === piece) app.picked = null;
  else app.picked = targetsOf(piece).length ? { piece, from } : null;
  redraw();
}

// The top piece of `cell`, or null.
function topAt(cell) {
  const here = cell && app.state && app.state.cells.find((c) => c.q === cell.q && c.r === cell.r);
  return here ? here.stack[here.stack.length - 1] : null;
}

// A click on a cell, or the start of a drag from it (then true when its piece is picked and may be dragged).
function cellClicked(cell, dragging) {
  if (!app.state || !cell) return false;
  const target = app.picked && targetsOf(app.picked.piece).find((t) => t.q === cell.q && t.r === cell.r);
  if (target && !dragging) { playMove(target.move); return false; }
  const top = topAt(cell);
  if (top) {
    if (!(dragging && app.picked && app.picked.piece === top)) pick(top, { q: cell.q, r: cell.r });
  } else if (app.picked) {
    app.picked = null;
    redraw();
  }
  return !!(top && app.picked && app.picked.piece === top);
}

// `piece` dragged and let go over `cell` (null off the board): moved there when that is one of its legal moves,
// otherwise put back, the position unchanged.
function dropped(piece, cell) {
  const target = piece && cell && targetsOf(piece).find((t) => t.q === cell.q && t.r === cell.r);
  if (target) playMove(target.move);
  else { app.picked = null; redraw(); }
}

// A piece dragged from a hand: once the pointer has moved a few pixels the piece is picked (its targets marked)
// and a ghost follows the pointer; let go over the board, it is dropped() there. The click that may follow is
// not a second pick.
let handDragged = false;
function dragFromHand(down, piece, colour) {
  handDragged = false;
  if (down.button !== 0) return;
  let ghost = null;
  const follow = (e) => {
    if (e.pointerId !== down.pointerId) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) <= 4) return;
      if (!app.picked || app.picked.piece !== piece) pick(piece, null);
      if (!app.picked || app.picked.piece !== piece) { end(); return; }
      ghost = document.createElement('div');
      ghost.className = `drag-ghost ${colour}`;
      ghost.textContent = piece;
      document.body.appendChild(ghost);
    }
    ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
  };
  const release = (e) => {
    if (e.pointerId !== down.pointerId) return;
    end();
    if (!ghost) return;
    ghost.remove();
    handDragged = true;
    dropped(piece, e.type === 'pointerup' ? board.cellAtClient(e.clientX, e.clientY) : null);
  };
  const end = () => {
    window.removeEventListener('pointermove', follow);
    window.removeEventListener('pointerup', release);
    window.removeEventListener('pointercancel', release);
  };
  window.addEventListener('pointermove', follow);
  window.addEventListener('pointerup', release);
  window.addEventListener('pointercancel', release);
}

async function playMove(text) {
  if (!humanMayMove()) return;
  let state;
  try {
    state = await post('/api/play', { game: app.state.game, move: text });
  } catch (error) {
    say(error.message);
    return;
  }
  say('');
  addMove(state);
  if (app.play && app.play.tc.kind === 'clock' && !app.play.result) app.play.clocks[app.play.human] += app.play.tc.inc * 1000;
}

// Add the last move of `state` (the server's answer to a move from the current position) to the tree and show it.
function addMove(state) {
  const move = state.moves[state.moves.length - 1];
  const node = app.node.child(move);
  remember(node, state);
  show(node);
}

$('move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('move-box').value.trim();
  if (!text) return;
  $('move-box').value = '';
  playMove(text);
});
$('pass').addEventListener('click', () => playMove('pass'));

// ---- playing against Waggle ----

async function maybeEngineMove() {
  const play = app.play;
  if (!play || play.result || play.thinking || !app.state) return;
  if (['WhiteWins', 'BlackWins', 'Draw'].includes(app.state.state)) { finish(); return; }
  if (app.state.to_move === play.human || app.node.children.length) return;
  play.thinking = true;
  updateStatus();
  const request = { game: app.state.game, level: play.level };
  if (play.tc.kind === 'clock') {
    request.clock = {
      white: { remaining: Math.max(play.clocks.White, 100) / 1000, increment: play.tc.inc },
      black: { remaining: Math.max(play.clocks.Black, 100) / 1000, increment: play.tc.inc },
    };
  } else {
    request.time = play.tc.seconds;
  }
  const node = app.node;
  play.controller = new AbortController();
  try {
    const answer = await post('/api/bestmove', request, play.controller.signal);
    play.thinking = false;
    if (app.play !== play || app.node !== node) return;
    if (play.tc.kind === 'clock') play.clocks[answer.state.moves.length % 2 ? 'White' : 'Black'] += play.tc.inc * 1000;
    addMove(answer.state);
  } catch (error) {
    play.thinking = false;
    if (error.name !== 'AbortError') say(error.message);
    updateStatus();
  }
}

function finish() {
  const play = app.play;
  if (!play || play.result) return;
  const state = app.state.state;
  play.result = state === 'Draw' ? 'A draw' : state === 'WhiteWins' ? 'White wins' : state === 'BlackWins' ? 'Black wins' : play.result;
  stopClocks();
  updateStatus();
}

let clockTimer = null;
let clockAt = 0;
function startClocks() {
  stopClocks();
  clockAt = performance.now();
  clockTimer = setInterval(tickClocks, 100);
  tickClocks();
}
function stopClocks() { if (clockTimer) clearInterval(clockTimer); clockTimer = null; }
function tickClocks() {
  const play = app.play;
  if (!play || play.tc.kind !== 'clock') return;
  const now = performance.now();
  const played = app.root.mainLine().length;
  const running = !play.result && played >= 1 ? (played % 2 ? 'Black' : 'White') : null;
  if (running) play.clocks[running] -= now - clockAt;
  clockAt = now;
  for (const colour of ['White', 'Black']) {
    const ms = Math.max(0, play.clocks[colour]);
    const box = $(`clock-${colour}`);
    box.textContent = `${colour[0]} ${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${Math.floor(ms / 100) % 10}`;
    box.classList.toggle('running', colour === running);
  }
  if (running && play.clocks[running] <= 0) {
    play.result = `${running} ran out of time: ${running === 'White' ? 'Black' : 'White'} wins`;
    if (play.controller) play.controller.abort();
    stopClocks();
    updateStatus();
  }
}

function newGame(settings) {
  stopAnalysis();
  if (app.play && app.play.controller) app.play.controller.abort();
  app.gameType = settings.type;
  app.root = new Node(null, null);
  app.review = { plies: new Map(), total: 0, controller: null, mainLine: [] };
  $('chart').textContent = '';
  $('summary').textContent = '';
  $('next-mistake').hidden = true;
  if (settings.human === 'none') {
    app.play = null;
    $('clocks').hidden = true;
  } else {
    const human = settings.human === 'random' ? (Math.random() < 0.5 ? 'White' : 'Black') : settings.human;
    app.play = { human, level: settings.level, tc: settings.tc, clocks: { White: 0, Black: 0 }, result: null, thinking: false };
    if (settings.tc.kind === 'clock') {
      app.play.clocks = { White: settings.tc.base * 60000, Black: settings.tc.base * 60000 };
      $('clocks').hidden = false;
      startClocks();
    } else {
      $('clocks').hidden = true;
    }
    if (human === 'Black' && !board.flipped) { board.flip(); board.fitted = false; }
    if (human === 'White' && board.flipped) { board.flip(); board.fitted = false; }
  }
  board.fitted = false;
  show(app.root);
}

function undo() {
  if (app.play && !app.play.result) {
    if (app.play.thinking) return;
    // Take back the engine's reply too, so that it is the player's turn again.
    let node = app.node;
    if (!node.parent) return;
    node = remove(node);
    if (app.states.get(gameString(node)) && app.states.get(gameString(node)).to_move !== app.play.human && node.parent) node = remove(node);
    show(node);
  } else if (app.node.parent) {
    show(remove(app.node));
  }
}

function resign() {
  if (!app.play || app.play.result) return;
  if (app.play.controller) app.play.controller.abort();
  app.play.thinking = false;
  app.play.result = `${app.play.human} resigned: ${app.play.human === 'White' ? 'Black' : 'White'} wins`;
  stopClocks();
  updateStatus();
}

// ---- analysis ----

function stopAnalysis() {
  if (app.analysis.controller) app.analysis.controller.abort();
  app.analysis.controller = null;
  app.analysis.best = null;
}

function startAnalysis() {
  stopAnalysis();
  $('pv-lines').textContent = '';
  $('search-info').textContent = '';
  const state = app.state;
  if (!state || ['WhiteWins', 'BlackWins', 'Draw'].includes(state.state)) {
    $('winbar').hidden = true;
    return;
  }
  const controller = new AbortController();
  app.analysis.controller = controller;
  const node = app.node;
  stream('/api/analyse', { game: state.game, lines: Number($('lines').value) }, (name, data) => {
    if (controller.signal.aborted) return;
    if (name === 'waiting') $('search-info').textContent = 'waiting for a free engine…';
    if (name === 'info' || name === 'done') showLines(data, node, name === 'done');
    if (name === 'error') say(data.error);
  }, controller.signal).catch((error) => { if (error.name !== 'AbortError') say(error.message); });
}

function showLines(data, node, done) {
  const lines = data.lines || [];
  if (!lines.length) return;
  app.analysis.best = lines[0].moves[0];
  const white = lines[0].white_chance;
  $('winbar').hidden = false;
  $('winbar-white').style.height = `${(white * 100).toFixed(1)}%`;
  $('winbar-text').textContent = `White ${(white * 100).toFixed(0)}%`;
  if (data.depth !== undefined) {
    $('search-info').textContent = `depth ${data.depth} · ${data.nodes.toLocaleString()} nodes · ${Math.round(data.nps / 1000).toLocaleString()} kN/s` + (done ? ' · done' : '');
  } else if (done) {
    $('search-info').textContent += ' · done';
  }
  const list = $('pv-lines');
  list.textContent = '';
  for (const line of lines) {
    const item = document.createElement('li');
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = `${line.score} (${(line.win_chance * 100).toFixed(0)}%)`;
    item.appendChild(score);
    line.moves.forEach((move, index) => {
      const b = document.createElement('button');
      b.className = 'mv';
      b.textContent = move;
      b.title = 'play the line up to this move';
      b.addEventListener('click', () => playLine(node, line.moves.slice(0, index + 1)));
      item.appendChild(b);
    });
    list.appendChild(item);
  }
  redraw();
}

async function playLine(from, moves) {
  let node = from;
  for (const move of moves) node = node.child(move);
  render($('moves'), app.root, app.node, (n) => show(n));
  show(node);
}

$('analyse').addEventListener('change', () => {
  app.analysis.on = $('analyse').checked;
  if (app.analysis.on) startAnalysis();
  else {
    stopAnalysis();
    $('winbar').hidden = true;
    $('pv-lines').textContent = '';
    $('search-info').textContent = '';
    redraw();
  }
});
$('lines').addEventListener('change', () => { if (app.analysis.on) startAnalysis(); });

// ---- review ----

async function startReview() {
  if (app.review.controller) app.review.controller.abort();
  const line = app.root.mainLine();
  if (!line.length) { say('There is no move to review yet.'); return; }
  const game = gameString(line[line.length - 1]);
  const controller = new AbortController();
  app.review = { plies: new Map(), total: line.length, controller, mainLine: line };
  for (const node of line) node.mark = null;
  const progress = $('review-progress');
  progress.hidden = false;
  progress.value = 0;
  $('summary').textContent = 'Reviewing…';
  try {
    await stream('/api/review', { game }, (name, data) => {
      if (name === 'ply') {
        app.review.plies.set(data.ply, data);
        const node = line[data.ply - 1];
        if (node && data.mark && data.mark !== 'forced_loss') node.mark = data.mark;
        progress.value = data.ply / line.length;
        drawReviewChart();
      } else if (name === 'done') {
        showSummary(data);
      } else if (name === 'waiting') {
        $('summary').textContent = 'Waiting for a free engine…';
      } else if (name === 'error') {
        say(data.error);
      }
    }, controller.signal);
  } catch (error) {
    if (error.name !== 'AbortError') say(error.message);
  }
  progress.hidden = true;
  render($('moves'), app.root, app.node, (n) => show(n));
  $('next-mistake').hidden = false;
  // The positions before marked moves, for their arrows.
  for (const node of line) if (node.mark && node.parent) stateOf(node.parent).catch(() => {});
  redraw();
}

function drawReviewChart() {
  const plies = [...app.review.plies.values()].sort((a, b) => a.ply - b.ply);
  drawChart($('chart'), plies, app.review.total, app.node.isMain() ? app.node.ply : -1, (ply) => {
    const line = app.review.mainLine;
    show(ply === 0 ? app.root : line[ply - 1]);
  });
}

function showSummary(summary) {
  const row = (name, key) => `<tr><td>${name}</td><td>${summary.white[key]}</td><td>${summary.black[key]}</td></tr>`;
  $('summary').innerHTML = `<table><tr><th></th><th>White</th><th>Black</th></tr>${row('Accuracy', 'accuracy')}${row('Inaccuracies ?!', 'inaccuracies')}${row('Mistakes ?', 'mistakes')}${row('Blunders ??', 'blunders')}${row('Missed wins', 'missed_wins')}</table>` +
    (summary.turning_points.length ? `<p>Turning points: ply ${summary.turning_points.join(', ')}</p>` : '');
}

function nextMistake() {
  const line = app.review.mainLine;
  if (!line.length) return;
  const from = app.node.isMain() ? app.node.ply : 0;
  const found = line.find((node) => node.ply > from && node.mark) || line.find((node) => node.mark);
  if (found) show(found);
}

$('review').addEventListener('click', startReview);
$('next-mistake').addEventListener('click', nextMistake);

// ---- import, export, sharing ----

async function importText(text) {
  try {
    const answer = await post('/api/import', { text });
    loadGame(answer.state, answer.state.ply);
    say(answer.games > 1 ? `The file holds ${answer.games} games: the first is shown.` : '', 'note');
  } catch (error) {
    say(error.message);
  }
}

function loadGame(state, ply) {
  stopAnalysis();
  if (app.play && app.play.controller) app.play.controller.abort();
  stopClocks();
  app.play = null;
  $('clocks').hidden = true;
  app.gameType = state.game_type;
  app.root = treeOf(state.moves);
  app.review = { plies: new Map(), total: 0, controller: null, mainLine: [] };
  $('chart').textContent = '';
  $('summary').textContent = '';
  const line = app.root.mainLine();
  remember(line.length ? line[line.length - 1] : app.root, state);
  const at = Math.max(0, Math.min(ply, line.length));
  board.fitted = false;
  show(at === 0 ? app.root : line[at - 1]);
}

$('import').addEventListener('click', () => { $('import-text').value = ''; $('import-dialog').showModal(); });
$('import-form').addEventListener('submit', (e) => {
  if (e.submitter && e.submitter.value === 'import') importText($('import-text').value);
});
$('import-file').addEventListener('change', async () => {
  const file = $('import-file').files[0];
  if (file) { $('import-dialog').close(); importText(await file.text()); }
});
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  const file = e.dataTransfer.files[0];
  if (file) importText(await file.text());
});

async function download() {
  try {
    const line = app.root.mainLine();
    const game = gameString(line.length ? line[line.length - 1] : app.root);
    const names = app.play ? (app.play.human === 'White' ? ['You', 'Waggle'] : ['Waggle', 'You']) : ['', ''];
    const text = await postText('/api/export', { game, white: names[0], black: names[1] });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-hive-pgn' }));
    link.download = 'game.pgn';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } catch (error) {
    say(error.message);
  }
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied.`, 'note');
  } catch {
    say(`${what}: ${text}`, 'note');
  }
}

$('export').addEventListener('click', download);
$('copy').addEventListener('click', () => copy(app.state.game, 'The GameString'));
$('share').addEventListener('click', () => copy(location.href, 'The link'));

// ---- the new-game dialog ----

$('new-game').addEventListener('click', () => $('new-dialog').showModal());
$('new-form').addEventListener('submit', (e) => {
  if (!e.submitter || e.submitter.value !== 'start') return;
  const tc = document.querySelector('input[name="tc"]:checked').value === 'clock'
    ? { kind: 'clock', base: Number($('new-base').value) || 5, inc: Number($('new-inc').value) || 0 }
    : { kind: 'move', seconds: Math.min(600, Math.max(0.1, Number($('new-move-time').value) || 1)) };
  newGame({
    type: $('new-type').value,
    human: $('new-colour').value,
    level: Math.min(10, Math.max(1, Math.round(Number($('new-level').value) || 3))),
    tc,
  });
});
$('undo').addEventListener('click', undo);
$('resign').addEventListener('click', resign);

// ---- navigation and keys ----

function step(delta) {
  if (delta < 0 && app.node.parent) show(app.node.parent);
  if (delta > 0 && app.node.children[0]) show(app.node.children[0]);
}
function toEnd() {
  let node = app.node;
  while (node.children[0]) node = node.children[0];
  show(node);
}
function toStart() {
  let node = app.node;
  while (node.parent) node = node.parent;
  show(node);
}

$('first').addEventListener('click', toStart);
$('prev').addEventListener('click', () => step(-1));
$('next').addEventListener('click', () => step(1));
$('last').addEventListener('click', toEnd);
$('promote').addEventListener('click', () => { promote(app.node); show(app.node); });
$('delete').addEventListener('click', () => show(remove(app.node)));
$('moves').addEventListener('wheel', (e) => { e.preventDefault(); step(e.deltaY > 0 ? 1 : -1); }, { passive: false });
$('fit').addEventListener('click', () => board.fit());
$('flip').addEventListener('click', () => { board.flip(); redraw(); board.fit(); });
$('help').addEventListener('click', () => $('help-dialog').showModal());
fillHelp($('help-table'));

const actions = {
  prev: () => step(-1), next: () => step(1), first: toStart, last: toEnd,
  analyse: () => { $('analyse').click(); },
  flip: () => $('flip').click(), fit: () => board.fit(), zoomIn: () => board.zoom(1.2), zoomOut: () => board.zoom(1 / 1.2),
  moveBox: () => $('move-box').focus(), newGame: () => $('new-game').click(), undo, review: startReview,
  nextMistake, promote: () => $('promote').click(), delete: () => $('delete').click(), import: () => $('import').click(),
  export: download, copy: () => $('copy').click(), share: () => $('share').click(),
  escape: () => {
    for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close();
    app.picked = null;
    redraw();
    if (document.activeElement) document.activeElement.blur();
  },
  help: () => $('help-dialog').showModal(),
};
document.addEventListener('keydown', (e) => handleKey(e, actions));

// ---- start ----

async function start() {
  get('/api/info').then((info) => {
    for (const type of info.game_types) {
      const option = document.createElement('option');
      option.textContent = type;
      if (type === 'Base+MLP') option.selected = true;
      $('new-type').appendChild(option);
    }
  }).catch((error) => say(error.message));
  const params = new URLSearchParams(location.search);
  const shared = params.get('game');
  if (shared) {
    try {
      const state = await post('/api/position', { game: shared });
      loadGame(state, params.has('ply') ? Number(params.get('ply')) || 0 : state.ply);
      return;
    } catch (error) {
      say(`The link's game cannot be shown: ${error.message}`);
    }
  }
  show(app.root);
}

start();
