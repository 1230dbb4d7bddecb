// Import and export: a pasted or dropped GameString or .pgn, a game opened by a link, the .pgn downloaded, the
// GameString and a link to the position copied.

import { $, app, gameString, remember, say } from './app.js';
import { post, request } from './api.js';
import { treeOf } from './tree.js';
import { show } from './moves.js';
import { endPlay } from './play.js';

let board = null;
export function useBoard(b) { board = b; }

export async function importText(text) {
  // A puzzle file (one JSON record a line) is played as puzzles.
  if (text.trimStart().startsWith('{') && app.openPuzzleFile) { app.openPuzzleFile(text); return; }
  try {
    const answer = await post('/api/import', { text });
    loadGame(answer.state, answer.state.ply);
    say(answer.games > 1 ? `The file holds ${answer.games} games: the first is shown.` : '', 'note');
  } catch (error) {
    say(error.message);
  }
}

// Show the game of `state` (its moves the main line) at `ply`.
export function loadGame(state, ply) {
  for (const stop of app.onNewGame) stop();
  endPlay();
  $('invite').hidden = true;
  app.gameType = state.game_type;
  app.root = treeOf(state.moves);
  const line = app.root.mainLine();
  remember(line.length ? line[line.length - 1] : app.root, state);
  const at = Math.max(0, Math.min(ply, line.length));
  board.follow(true);
  show(at === 0 ? app.root : line[at - 1]);
}

export async function download() {
  try {
    const line = app.root.mainLine();
    const game = gameString(line.length ? line[line.length - 1] : app.root);
    const names = app.play ? (app.play.human === 'White' ? ['You', 'Waggle'] : ['Waggle', 'You']) : ['', ''];
    const text = await request('/api/export', { body: { game, white: names[0], black: names[1] }, as: 'text' });
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

export async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied.`, 'note');
  } catch {
    say(`${what}: ${text}`, 'note');
  }
}

// Wire the import dialog, the file picker and dropping a file on the page.
export function wireImport() {
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
  $('export').addEventListener('click', download);
  $('copy').addEventListener('click', () => copy(app.state.game, 'The GameString'));
  $('share').addEventListener('click', () => copy(location.href, 'The link'));
}

// The game of the page's link (?game=GAMESTRING&ply=N), if it has one: true when it was shown.
export async function openLink() {
  const params = new URLSearchParams(location.search);
  const shared = params.get('game');
  if (!shared) return false;
  try {
    const state = await post('/api/position', { game: shared });
    loadGame(state, params.has('ply') ? Number(params.get('ply')) || 0 : state.ply);
    return true;
  } catch (error) {
    say(`The link's game cannot be shown: ${error.message}`);
    return false;
  }
}
