// The page: the board and the features wired together. Each feature is a module of its own (moves.js: moves and
// navigation; play.js: play and clocks; analysis.js; review.js; io.js: import and export; puzzles.js); every rule
// comes from the server (api.js): the page only draws what it is told and sends what the player does.

import { $, app, say } from './app.js';
import { get } from './api.js';
import { Board } from './board.js';
import { promote, remove } from './tree.js';
import { handleKey, fillHelp } from './keys.js';
import { loadBugs, nextLabels, labelsName } from './pieces.js';
import * as moves from './moves.js';
import * as play from './play.js';
import * as analysis from './analysis.js';
import * as review from './review.js';
import * as io from './io.js';
import * as explorer from './explorer.js';
import * as puzzles from './puzzles.js';

window.waggle = app; // for the browser tests and the curious

const board = new Board($('board'), {
  onCell: moves.cellClicked,
  onDrop: (from, to) => moves.dropped(moves.topAt(from), to),
  onView: () => moves.drawHandArrows(),
});
app.board = board;
for (const feature of [moves, play, io]) feature.useBoard(board);

app.arrows.push(analysis.analysisArrows, review.reviewArrows);
app.onShow.push(review.drawReviewChart, analysis.analysisShown, play.maybeEngineMove, explorer.explorerShown);
app.onAnalysis.push(explorer.explorerScores);
app.onNewGame.push(analysis.stopAnalysis, review.resetReview);
new ResizeObserver(() => moves.drawHandArrows()).observe($('board-area'));

// ---- moving and navigating ----

$('move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('move-box').value.trim();
  if (!text) return;
  $('move-box').value = '';
  moves.playMove(text);
});
$('pass').addEventListener('click', () => moves.playMove('pass'));
$('first').addEventListener('click', moves.toStart);
$('prev').addEventListener('click', () => moves.step(-1));
$('next').addEventListener('click', () => moves.step(1));
$('last').addEventListener('click', moves.toEnd);
$('result-go').addEventListener('click', moves.toResult);
$('promote').addEventListener('click', () => { promote(app.node); moves.show(app.node); });
$('delete').addEventListener('click', () => moves.show(remove(app.node)));
$('moves').addEventListener('wheel', (e) => { e.preventDefault(); moves.step(e.deltaY > 0 ? 1 : -1); }, { passive: false });
$('fit').addEventListener('click', () => board.follow(true));
$('flip').addEventListener('click', () => { board.flip(); board.follow(true); moves.redraw(); });
$('labels').addEventListener('click', () => { nextLabels(); showLabels(); moves.redraw(); });
function showLabels() {
  $('labels').textContent = labelsName();
}

// ---- playing against Waggle ----

$('new-game').addEventListener('click', () => $('new-dialog').showModal());
$('new-form').addEventListener('submit', (e) => {
  if (e.submitter && e.submitter.value === 'start') play.newGame(play.dialogSettings());
});
$('undo').addEventListener('click', play.undo);
$('resign').addEventListener('click', play.resign);
// The first visit's invitation: a game at once, as White or Black, or an analysis board.
for (const colour of ['White', 'Black']) {
  $(`invite-${colour}`).addEventListener('click', () => {
    play.newGame({ type: 'Base+MLP', human: colour, level: Number($('invite-level').value) || 3, tc: { kind: 'move', seconds: 1 } });
  });
}
$('invite-board').addEventListener('click', () => { $('invite').hidden = true; });
$('invite-more').addEventListener('click', () => $('new-dialog').showModal());

// ---- analysis, review ----

$('analyse').addEventListener('change', () => analysis.setAnalysis($('analyse').checked));
$('lines').addEventListener('change', () => { if (app.analysis.on) analysis.startAnalysis(); });
$('review').addEventListener('click', review.startReview);
$('next-mistake').addEventListener('click', review.nextMistake);

// ---- import, export ----

io.wireImport();
explorer.wireExplorer();
puzzles.wirePuzzles();

// ---- keys ----

$('help').addEventListener('click', () => $('help-dialog').showModal());
fillHelp($('help-table'));
const actions = {
  prev: () => moves.step(-1), next: () => moves.step(1), first: moves.toStart, last: moves.toEnd,
  analyse: () => $('analyse').click(),
  flip: () => $('flip').click(), fit: () => board.follow(true), zoomIn: () => board.zoom(1.2), zoomOut: () => board.zoom(1 / 1.2),
  labels: () => $('labels').click(),
  moveBox: () => $('move-box').focus(), newGame: () => $('new-game').click(), undo: play.undo, review: review.startReview,
  nextMistake: review.nextMistake, promote: () => $('promote').click(), delete: () => $('delete').click(),
  import: () => $('import').click(), export: io.download, copy: () => $('copy').click(), share: () => $('share').click(),
  escape: () => {
    for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close();
    moves.drop();
    if (document.activeElement) document.activeElement.blur();
  },
  help: () => $('help-dialog').showModal(),
  puzzles: () => $('puzzles').click(),
};
document.addEventListener('keydown', (e) => handleKey(e, actions));

// ---- start ----

// The fields the server bounds take their bounds from it.
function applyInfo(info) {
  app.info = info;
  $('new-type').textContent = '';
  for (const type of info.game_types) {
    const option = document.createElement('option');
    option.textContent = type;
    option.selected = type === 'Base+MLP';
    $('new-type').appendChild(option);
  }
  play.fillLevels($('new-level'), 3);
  play.fillLevels($('invite-level'), 3);
  $('lines').textContent = '';
  for (let n = 1; n <= info.max_lines; n++) {
    const option = document.createElement('option');
    option.textContent = n;
    option.selected = n === Math.min(3, info.max_lines);
    $('lines').appendChild(option);
  }
  $('new-move-time').max = info.max_time;
  $('new-inc').max = info.max_time;
  $('new-base').max = info.max_time / 6;
  explorer.explorerShown();
}

async function start() {
  showLabels();
  play.fillLevels($('new-level'), 3);
  play.fillLevels($('invite-level'), 3);
  // The bugs' pictures appear as soon as their symbols arrive; the board need not wait for them.
  loadBugs().catch((error) => say(`The pictures of the bugs cannot be loaded: ${error.message}`));
  const info = get('/api/info').then(applyInfo).catch((error) => say(error.message));
  if (await io.openLink() || await puzzles.openLink()) { await info; return; }
  $('invite').hidden = false;
  await moves.show(app.root);
  await info;
}

start();
