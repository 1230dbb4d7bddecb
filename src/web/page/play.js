// Playing against Waggle: a new game (the first visit's invitation or the dialog), who plays whom at what level
// and time, Waggle's moves, both clocks, Undo and Resign.

import { $, app, isOver, other, say, gameString } from './app.js';
import { post } from './api.js';
import { Node, remove } from './tree.js';
import { show, addMove, updateStatus, renderMoves, winnerText } from './moves.js';

let board = null;
export function useBoard(b) { board = b; }

// What each level is, for the level pickers.
const LEVELS = { 1: 'beginner', 3: 'casual', 5: 'club player', 7: 'strong', 9: 'expert', 10: 'full strength' };
export const levelName = (level) => `${level}${LEVELS[level] ? ` (${LEVELS[level]})` : ''}`;

// Fill a level picker with the server's levels, `chosen` selected.
export function fillLevels(select, chosen) {
  select.textContent = '';
  for (let level = 1; level <= app.info.levels; level++) {
    const option = document.createElement('option');
    option.value = level;
    option.textContent = levelName(level);
    option.selected = level === chosen;
    select.appendChild(option);
  }
}

function timeName(tc) {
  return tc.kind === 'clock' ? `${tc.base} min + ${tc.inc} s on the clock` : `${tc.seconds} s a move`;
}

function showMatchup() {
  const play = app.play;
  const box = $('matchup');
  box.hidden = !play;
  if (play) box.textContent = `You play ${play.human} against Waggle, level ${levelName(play.level)}, ${timeName(play.tc)}`;
}

// Waggle's move, when it is Waggle's turn at the end of a game against it.
export async function maybeEngineMove() {
  const play = app.play;
  if (!play || play.result || play.thinking || !app.state) return;
  if (isOver(app.state)) { finish(); return; }
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

// The game against Waggle has ended on the board: the clocks stop, the result shows.
function finish() {
  const play = app.play;
  if (!play || play.result) return;
  stopClocks();
  updateStatus();
  renderMoves();
}

let clockTimer = null;
let clockAt = 0;
function startClocks() {
  stopClocks();
  clockAt = performance.now();
  clockTimer = setInterval(tickClocks, 100);
  tickClocks();
}
export function stopClocks() { if (clockTimer) clearInterval(clockTimer); clockTimer = null; }
function tickClocks() {
  const play = app.play;
  if (!play || play.tc.kind !== 'clock') return;
  const now = performance.now();
  const played = app.root.mainLine().length;
  const running = !play.result && !isOver(app.state) && played >= 1 ? (played % 2 ? 'Black' : 'White') : null;
  if (running) play.clocks[running] -= now - clockAt;
  clockAt = now;
  for (const colour of ['White', 'Black']) {
    const ms = Math.max(0, play.clocks[colour]);
    const box = $(`clock-${colour}`);
    box.textContent = `${colour[0]} ${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${Math.floor(ms / 100) % 10}`;
    box.classList.toggle('running', colour === running);
  }
  if (running && play.clocks[running] <= 0) {
    play.result = `${winnerText(other(running))}: ${running}'s clock ran out`;
    if (play.controller) play.controller.abort();
    stopClocks();
    updateStatus();
    renderMoves();
  }
}

// Start a new game: `settings` {type, human ('White', 'Black', 'random' or 'none': an analysis board), level, tc}.
export function newGame(settings) {
  for (const stop of app.onNewGame) stop();
  if (app.play && app.play.controller) app.play.controller.abort();
  stopClocks();
  app.gameType = settings.type;
  app.root = new Node(null, null);
  $('invite').hidden = true;
  if (settings.human === 'none') {
    app.play = null;
    $('clocks').hidden = true;
    if (board.flipped) board.flip();
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
    if ((human === 'Black') !== board.flipped) board.flip();
  }
  showMatchup();
  board.follow(true);
  show(app.root);
}

// No game against Waggle any more (a game imported or opened by a link).
export function endPlay() {
  if (app.play && app.play.controller) app.play.controller.abort();
  stopClocks();
  app.play = null;
  $('clocks').hidden = true;
  showMatchup();
}

export function undo() {
  if (app.play && !app.play.result) {
    if (app.play.thinking) return;
    // Take back Waggle's reply too, so that it is the player's turn again.
    let node = app.node;
    if (!node.parent) return;
    node = remove(node);
    const state = app.states.get(gameString(node));
    if (state && state.to_move !== app.play.human && node.parent) node = remove(node);
    show(node);
  } else if (app.node.parent) {
    show(remove(app.node));
  }
}

export function resign() {
  if (!app.play || app.play.result || isOver(app.state)) return;
  if (app.play.controller) app.play.controller.abort();
  app.play.thinking = false;
  app.play.result = `${winnerText(other(app.play.human))}: ${app.play.human} resigned`;
  stopClocks();
  updateStatus();
  renderMoves();
}

// The new-game dialog's and the invitation's settings.
export function dialogSettings() {
  const max = app.info.max_time;
  const tc = document.querySelector('input[name="tc"]:checked').value === 'clock'
    ? { kind: 'clock', base: Math.min(max / 6, Math.max(0.1, Number($('new-base').value) || 5)), inc: Math.min(max, Math.max(0, Number($('new-inc').value) || 0)) }
    : { kind: 'move', seconds: Math.min(max, Math.max(0.1, Number($('new-move-time').value) || 1)) };
  return { type: $('new-type').value, human: $('new-colour').value, level: Number($('new-level').value) || 3, tc };
}
