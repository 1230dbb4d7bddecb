// What every part of the page shares: the game tree and the positions the server described, the position shown,
// each feature's state, the game-over states (named here once) and the few helpers every feature uses.

import { post } from './api.js';
import { Node } from './tree.js';

export const $ = (id) => document.getElementById(id);

// The states a game ends in, and what the page calls each.
export const RESULTS = { WhiteWins: 'White wins', BlackWins: 'Black wins', Draw: 'A draw' };
export const isOver = (state) => !!state && Object.hasOwn(RESULTS, state.state);
export const other = (colour) => (colour === 'White' ? 'Black' : 'White');

export const app = {
  info: { levels: 10, max_lines: 5, max_time: 600, game_types: [] }, // replaced by /api/info's
  gameType: 'Base+MLP',
  root: new Node(null, null),
  node: null,
  states: new Map(),
  state: null,
  picked: null,
  play: null, // {human, level, tc, clocks, result, thinking, controller}
  analysis: { on: false, controller: null, best: null, lines: null },
  review: { plies: new Map(), total: 0, controller: null, mainLine: [] },
  puzzle: null, // the puzzle being solved (puzzles.js)
  // Each feature's part of showing a position, and the arrows it adds to the board.
  onShow: [],
  arrows: [],
  // What each feature drops when a new game starts or another is loaded.
  onNewGame: [],
  // Who hears of the analysis's lines as they come (app.analysis.lines).
  onAnalysis: [],
  // Who hears that a review has ended, or was dropped.
  onReviewed: [],
};
app.node = app.root;

// The GameString of the position at `node`: the page's own header (the server recomputes it) and the moves.
export function gameString(node) {
  const moves = node.path();
  return moves.length ? `${app.gameType};InProgress;White[1];${moves.join(';')}` : app.gameType;
}

export async function stateOf(node) {
  const key = gameString(node);
  if (!app.states.has(key)) app.states.set(key, await post('/api/position', { game: key }));
  return app.states.get(key);
}

export function remember(node, state) {
  app.states.set(gameString(node), state);
}

export function say(text, kind = 'error') {
  const box = $('message');
  box.textContent = text;
  box.className = kind === 'note' ? 'note' : '';
  box.hidden = !text;
}
