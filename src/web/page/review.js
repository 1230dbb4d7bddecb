// Review: `waggle review`'s judgement of the main line, streamed with a progress bar; the win-chance chart (a click
// jumps to that ply), the marks in the move list, each side's accuracy and the turning points; Next mistake (shown
// when something is marked) and, at a marked ply, the move the engine preferred as an arrow.

import { $, app, gameString, stateOf, say } from './app.js';
import { stream } from './api.js';
import { drawChart } from './chart.js';
import { show, redraw, renderMoves, arrowOf } from './moves.js';

export function resetReview() {
  if (app.review.controller) app.review.controller.abort();
  app.review = { plies: new Map(), total: 0, controller: null, mainLine: [] };
  $('chart').textContent = '';
  $('summary').textContent = '';
  $('next-mistake').hidden = true;
  for (const hook of app.onReviewed) hook();
}

// A mark that blames the move (a forced loss does not).
const blamed = (mark) => mark && mark !== 'forced_loss';

export async function startReview() {
  const line = app.root.mainLine();
  if (!line.length) { say('There is no move to review yet.'); return; }
  resetReview();
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
        if (node && blamed(data.mark)) node.mark = data.mark;
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
  renderMoves();
  $('next-mistake').hidden = !line.some((node) => node.mark);
  for (const hook of app.onReviewed) hook();
  // The positions before marked moves, for their arrows.
  for (const node of line) if (node.mark && node.parent) stateOf(node.parent).catch(() => {});
  redraw();
}

export function drawReviewChart() {
  if (!app.review.total) return;
  const plies = [...app.review.plies.values()].sort((a, b) => a.ply - b.ply);
  drawChart($('chart'), plies, app.review.total, app.node.isMain() ? app.node.ply : -1, (ply) => {
    const line = app.review.mainLine;
    show(ply === 0 ? app.root : line[ply - 1]);
  });
}

function showSummary(summary) {
  const table = document.createElement('table');
  const row = (cells, tag = 'td') => {
    const tr = table.insertRow();
    for (const text of cells) {
      const cell = document.createElement(tag);
      cell.textContent = text;
      tr.appendChild(cell);
    }
  };
  row(['', 'White', 'Black'], 'th');
  const side = (key) => [summary.white[key] ?? '–', summary.black[key] ?? '–'];
  row(['Accuracy', ...side('accuracy')]);
  row(['Inaccuracies ?!', ...side('inaccuracies')]);
  row(['Mistakes ?', ...side('mistakes')]);
  row(['Blunders ??', ...side('blunders')]);
  row(['Missed wins', ...side('missed_wins')]);
  const box = $('summary');
  box.textContent = '';
  box.appendChild(table);
  if (summary.turning_points.length) {
    const p = document.createElement('p');
    p.textContent = `Turning points: ply ${summary.turning_points.join(', ')}`;
    box.appendChild(p);
  }
}

export function nextMistake() {
  const line = app.review.mainLine;
  if (!line.length) return;
  const from = app.node.isMain() ? app.node.ply : 0;
  const found = line.find((node) => node.ply > from && node.mark) || line.find((node) => node.mark);
  if (found) show(found);
}

// The engine's move at a marked ply of the main line, as an arrow.
export function reviewArrows() {
  const judged = app.review.plies.get(app.node.ply);
  if (!judged || !blamed(judged.mark) || !app.node.parent || !app.node.isMain()) return [];
  const before = app.states.get(gameString(app.node.parent));
  const arrow = before && arrowOf(before, judged.best, 'best');
  return arrow ? [arrow] : [];
}
