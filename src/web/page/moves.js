// Moves and navigation: the position shown (its own state in the status line, the hands, Pass and the move box;
// the game's result apart, where it happened), picking a piece and its targets, moving by click, by drag from the
// board or from a hand, by the move box; stepping through the move list; the arrows drawn on the board and, for a
// placement, from the piece in its hand.

import { $, app, isOver, RESULTS, gameString, stateOf, remember, say } from './app.js';
import { post } from './api.js';
import { render } from './tree.js';
import { pieceIcon, labels } from './pieces.js';

let board = null;
export function useBoard(b) { board = b; }

let showing = 0;
// Show the position at `node`: fetched from the server unless known, drawn, and each feature told.
export async function show(node) {
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
  renderMoves();
  updateStatus();
  updateUrl();
  for (const shown of app.onShow) shown();
  if (!app.ready) app.ready = performance.now();
}

export function renderMoves() {
  render($('moves'), app.root, app.node, (n) => show(n), resultOf());
}

export function targetsOf(piece) {
  return ((app.state.legal || {})[piece] || []).map((m) => ({ ...m.to, move: m.move }));
}

// The arrow of `move` in `state`: from the moving piece's cell to its destination; a placement's `from` is null
// and `piece` names the piece in its hand.
export function arrowOf(state, move, kind) {
  for (const [piece, moves] of Object.entries(state.legal || {})) {
    const found = moves.find((m) => m.move === move);
    if (found) {
      const from = state.cells.find((c) => c.stack[c.stack.length - 1] === piece);
      return { from: from ? { q: from.q, r: from.r } : null, to: found.to, kind, piece };
    }
  }
  return null;
}

export function redraw() {
  const state = app.state;
  if (!state) return;
  const targets = app.picked ? targetsOf(app.picked.piece) : [];
  app.boardArrows = app.arrows.flatMap((source) => source(state) || []);
  drawHands(state);
  board.draw(state, { targets, picked: app.picked && app.picked.from, arrows: app.boardArrows, labels: labels() });
  const may = humanMayMove();
  $('pass').hidden = !state.pass || !may;
  const box = $('move-box');
  box.disabled = !may;
  box.placeholder = may ? 'wS1, bA1 -wS1, pass' : isOver(state) ? 'the game is over here' : app.play && app.play.thinking ? 'Waggle is thinking' : 'not your move here';
}

// The arrows of placements, from the piece in its hand to its cell, over the board and the hands.
export function drawHandArrows() {
  const overlay = $('hand-arrows');
  overlay.textContent = '';
  const arrows = (app.boardArrows || []).filter((a) => !a.from && a.piece);
  if (!arrows.length || !board) return;
  const area = overlay.getBoundingClientRect();
  const NS = 'http://www.w3.org/2000/svg';
  for (const arrow of arrows) {
    const button = document.querySelector(`.hand button[data-piece="${arrow.piece}"]`);
    if (!button) continue;
    const b = button.getBoundingClientRect();
    const from = { x: b.left + b.width / 2 - area.left, y: b.top + b.height / 2 - area.top };
    const at = board.clientOf(arrow.to.q, arrow.to.r);
    const to = { x: at.x - area.left, y: at.y - area.top };
    const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    const line = document.createElementNS(NS, 'line');
    const short = 10 * board.view.scale;
    for (const [k, v] of Object.entries({ x1: from.x, y1: from.y, x2: to.x - ((to.x - from.x) / len) * short, y2: to.y - ((to.y - from.y) / len) * short })) line.setAttribute(k, v.toFixed(1));
    line.setAttribute('class', `arrow ${arrow.kind || ''}`);
    overlay.appendChild(line);
  }
}

// The hands of `state`, drawn again only when the position or the labels change; a pick only marks its piece.
let handsOf = null;
function drawHands(state) {
  const key = `${state.game}|${labels()}`;
  if (handsOf === key) {
    for (const button of document.querySelectorAll('.hand button')) {
      button.classList.toggle('picked', !!app.picked && app.picked.piece === button.dataset.piece);
    }
    return;
  }
  handsOf = key;
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
      button.title = `${bug.name} (${bug.next}): ${bug.count} in hand`;
      button.setAttribute('aria-label', `${colour} ${bug.name}, ${bug.count} in hand`);
      button.appendChild(pieceIcon(bug.next, 40));
      if (bug.count > 1) {
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = `×${bug.count}`;
        button.appendChild(count);
      }
      if (app.picked && app.picked.piece === bug.next) button.classList.add('picked');
      button.addEventListener('pointerdown', (e) => dragFromHand(e, bug.next));
      // A tap or a click was taken on its pointerup (a browser may send no click after a touch); a click with no
      // pointer before it (the keyboard's Enter or Space) picks the piece.
      button.addEventListener('click', () => { if (performance.now() - handPointer > 1000) pick(bug.next, null); });
      box.appendChild(button);
    }
  }
}

// Who won, said to the player of a game against Waggle ("You win (White)") or to anyone else ("White wins").
export function winnerText(colour) {
  if (!colour) return RESULTS.Draw;
  if (!app.play) return `${colour} wins`;
  return colour === app.play.human ? `You win (${colour})` : `Waggle wins (${colour})`;
}

// The game's result, if it has one: the play's (a resignation, a flag) or the main line's last position's, with
// how it ended.
export function resultOf() {
  const line = app.root.mainLine();
  if (app.play && app.play.result) return { text: app.play.result, ply: line.length };
  const last = line.length ? line[line.length - 1] : app.root;
  const state = app.states.get(gameString(last));
  if (!isOver(state)) return null;
  const winner = { WhiteWins: 'White', BlackWins: 'Black' }[state.state];
  return { text: winnerText(winner) + (state.ending ? `: ${state.ending}` : ''), ply: line.length };
}

export function updateStatus() {
  const state = app.state;
  const status = $('status');
  let text;
  const play = app.play;
  if (play && play.thinking) text = 'Waggle is thinking';
  else if (isOver(state)) text = `${RESULTS[state.state]} here` + (state.ending ? `: ${state.ending}` : '');
  else {
    text = `${state.to_move} to move · turn ${state.turn}`;
    if (play && !play.result && !app.node.children.length) text += state.to_move === play.human ? ' · your move' : " · Waggle's move";
  }
  status.textContent = text;
  status.classList.toggle('thinking', !!(play && play.thinking));
  const result = resultOf();
  const box = $('result');
  box.hidden = !result;
  if (result) {
    const here = app.node.isMain() && app.node.ply === result.ply;
    $('result-text').textContent = `${result.text}${here ? '' : ` (at ply ${result.ply})`}`;
    $('result-go').hidden = here;
  }
  const ends = result && !(app.node.isMain() && app.node.ply === result.ply) && !isOver(state);
  if (ends && !(play && play.thinking)) status.textContent += ` · the game ends at ply ${result.ply}`;
}

export function updateUrl() {
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

// Whether the player may move in the position shown: a game not over, and against Waggle, on the player's own
// turn at the end of the game.
export function humanMayMove() {
  if (!app.state || isOver(app.state)) return false;
  if (app.puzzle) return app.mayMove();
  if (!app.play || app.play.result) return true;
  return !app.play.thinking && app.state.to_move === app.play.human && !app.node.children.length;
}

export function pick(piece, from) {
  if (!humanMayMove()) return;
  if (app.picked && app.picked.piece === piece) app.picked = null;
  else app.picked = targetsOf(piece).length ? { piece, from } : null;
  redraw();
}

export function drop() {
  app.picked = null;
  redraw();
}

// The top piece of `cell`, or null.
export function topAt(cell) {
  const here = cell && app.state && app.state.cells.find((c) => c.q === cell.q && c.r === cell.r);
  return here ? here.stack[here.stack.length - 1] : null;
}

// A click on a cell, or the start of a drag from it (then true when its piece is picked and may be dragged).
export function cellClicked(cell, dragging) {
  if (!app.state || !cell) return false;
  const target = app.picked && targetsOf(app.picked.piece).find((t) => t.q === cell.q && t.r === cell.r);
  if (target && !dragging) { playMove(target.move); return false; }
  const top = topAt(cell);
  if (top) {
    if (!(dragging && app.picked && app.picked.piece === top)) pick(top, { q: cell.q, r: cell.r });
  } else if (app.picked) {
    drop();
  }
  return !!(top && app.picked && app.picked.piece === top);
}

// `piece` dragged and let go over `cell` (null off the board): moved there when that is one of its legal moves,
// otherwise put back, the position unchanged.
export function dropped(piece, cell) {
  const target = piece && cell && targetsOf(piece).find((t) => t.q === cell.q && t.r === cell.r);
  if (target) playMove(target.move);
  else drop();
}

// A piece pressed in a hand (by mouse or finger): let go where it was pressed, it is picked (or dropped again);
// once the pointer has moved a few pixels the piece is picked (its targets marked) and a ghost follows the
// pointer; let go over the board, it is dropped() there. The click that may follow is not a second pick.
let handPointer = -Infinity;
function dragFromHand(down, piece) {
  handPointer = performance.now();
  if (down.button !== 0) return;
  let ghost = null;
  const follow = (e) => {
    if (e.pointerId !== down.pointerId) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) <= 6) return;
      if (!app.picked || app.picked.piece !== piece) pick(piece, null);
      if (!app.picked || app.picked.piece !== piece) { end(); return; }
      ghost = document.createElement('div');
      ghost.className = 'drag-ghost';
      ghost.appendChild(pieceIcon(piece, 48));
      document.body.appendChild(ghost);
    }
    ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
  };
  const release = (e) => {
    if (e.pointerId !== down.pointerId) return;
    end();
    handPointer = performance.now();
    if (!ghost) {
      if (e.type === 'pointerup') pick(piece, null);
      return;
    }
    ghost.remove();
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

export async function playMove(text) {
  if (!humanMayMove()) return;
  if (app.puzzle) { app.puzzleMove(text); return; }
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
export function addMove(state) {
  const move = state.moves[state.moves.length - 1];
  const node = app.node.child(move);
  remember(node, state);
  show(node);
}

export function step(delta) {
  if (delta < 0 && app.node.parent) show(app.node.parent);
  if (delta > 0 && app.node.children[0]) show(app.node.children[0]);
}

export function toEnd() {
  let node = app.node;
  while (node.children[0]) node = node.children[0];
  show(node);
}

export function toStart() {
  show(app.root);
}

// The position where the game ended.
export function toResult() {
  const line = app.root.mainLine();
  show(line.length ? line[line.length - 1] : app.root);
}

