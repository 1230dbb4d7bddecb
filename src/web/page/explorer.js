// The opening explorer (`waggle web --db PATH`): for the position shown, the moves the database's games played
// from it, each with its count, a White/draw/Black bar and Waggle's score from the analysis running (a click plays
// the move); below, the latest games that reached the position (a click opens one at that ply); and a button that
// adds the game on the board to the database. Without a database the panel says how to make one.

import { $, app, gameString, say } from './app.js';
import { post } from './api.js';
import { show, renderMoves } from './moves.js';
import { loadGame } from './io.js';

// The last answer, and the node it is for: the analysis's scores are laid over it as they come.
let shown = null;
let asking = 0;

const percent = (part, whole) => (whole ? Math.round((part * 100) / whole) : 0);

// The panel for the position shown (called by moves.js's show through app.onShow).
export async function explorerShown() {
  const database = app.info.database;
  $('explorer-none').hidden = !!database;
  $('explorer-body').hidden = !database;
  if (!database || !app.state) return;
  const ticket = ++asking;
  const node = app.node;
  try {
    const answer = await post('/api/explore', { game: app.state.game, games: 20 });
    if (ticket !== asking) return;
    shown = { node, answer };
    draw();
  } catch (error) {
    if (ticket === asking) say(error.message);
  }
}

// The analysis's lines changed: their scores beside the moves.
export function explorerScores() {
  if (shown && shown.node === app.node) drawMoves();
}

function draw() {
  drawMoves();
  drawGames();
  const games = app.info.database.games;
  $('explorer-count').textContent = `${shown.answer.total.toLocaleString()} of ${Number(games || 0).toLocaleString()} games went on from here`;
}

// Waggle's score of `move`, from the analysis's lines, if a line starts with it (or with a move that is the
// same up to the board's symmetries).
function scoreOf(move) {
  if (!app.analysis.on || !app.analysis.lines) return null;
  const names = [move.move, ...(move.same || [])];
  const line = app.analysis.lines.find((l) => names.includes(l.moves[0]));
  return line ? `${line.score} (${Math.round(line.win_chance * 100)}%)` : null;
}

function drawMoves() {
  const table = $('explorer-moves');
  table.textContent = '';
  const { answer, node } = shown;
  if (!answer.moves.length) {
    const row = table.insertRow();
    const cell = row.insertCell();
    cell.colSpan = 4;
    cell.className = 'explorer-empty';
    cell.textContent = 'No game in the database went on from this position.';
    return;
  }
  for (const move of answer.moves) {
    const row = table.insertRow();
    row.className = 'explorer-move';
    const name = row.insertCell();
    const button = document.createElement('button');
    button.className = 'mv';
    button.textContent = move.move;
    button.dataset.move = move.move;
    button.title = `play ${move.move}`;
    button.addEventListener('click', () => playMove(node, move.move));
    name.appendChild(button);
    const count = row.insertCell();
    count.className = 'explorer-games';
    count.textContent = `${move.games.toLocaleString()} (${percent(move.games, answer.total)}%)`;
    const split = row.insertCell();
    split.className = 'explorer-split';
    const bar = document.createElement('div');
    bar.className = 'wdb';
    bar.title = `White ${move.white}, draw ${move.draw}, Black ${move.black}`;
    const decided = move.white + move.draw + move.black;
    for (const [part, kind] of [[move.white, 'white'], [move.draw, 'draw'], [move.black, 'black']]) {
      const share = document.createElement('span');
      share.className = kind;
      share.style.width = `${decided ? (part * 100) / decided : 0}%`;
      const shareText = percent(part, decided);
      if (shareText >= 12) share.textContent = `${shareText}%`;
      bar.appendChild(share);
    }
    split.appendChild(bar);
    const score = row.insertCell();
    score.className = 'explorer-score';
    score.textContent = scoreOf(move) || '';
  }
}

function drawGames() {
  const list = $('explorer-games');
  list.textContent = '';
  for (const game of shown.answer.games) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.className = 'explorer-game';
    const result = game.result ? { WhiteWins: '1-0', BlackWins: '0-1', Draw: '½-½' }[game.result] : '*';
    button.textContent = `${game.white || '?'} – ${game.black || '?'} · ${game.date || 'no date'} · ${result}`;
    button.title = `open the game (${game.plies} plies) at ply ${game.ply}`;
    button.dataset.ply = game.ply;
    button.addEventListener('click', () => openGame(game));
    item.appendChild(button);
    list.appendChild(item);
  }
}

function playMove(from, move) {
  const node = from.child(move);
  renderMoves();
  show(node);
}

async function openGame(game) {
  try {
    const state = await post('/api/position', { game: game.game });
    loadGame(state, game.ply);
  } catch (error) {
    say(error.message);
  }
}

// The game on the board (its main line), added to the database.
async function addGame() {
  const line = app.root.mainLine();
  if (!line.length) { say('There is no move to add yet.'); return; }
  const game = gameString(line[line.length - 1]);
  const names = app.play ? (app.play.human === 'White' ? ['You', 'Waggle'] : ['Waggle', 'You']) : ['', ''];
  try {
    const answer = await post('/api/db/add', { game, white: names[0], black: names[1] });
    app.info.database.games = answer.games;
    say(answer.added ? 'The game was added to the database.' : 'The database has this game already.', 'note');
    explorerShown();
  } catch (error) {
    say(error.message);
  }
}

export function wireExplorer() {
  $('explorer-add').addEventListener('click', addGame);
}
