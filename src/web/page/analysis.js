// Analysis: the engine thinks about the position shown until switched off or the position changes: the win-chance
// bar, the best lines (a click plays a line up to a move), depth, nodes and speed, the best move as an arrow.

import { $, app, isOver, say } from './app.js';
import { stream } from './api.js';
import { show, redraw, renderMoves, arrowOf } from './moves.js';

export function stopAnalysis() {
  if (app.analysis.controller) app.analysis.controller.abort();
  app.analysis.controller = null;
  app.analysis.best = null;
  app.analysis.lines = null;
}

export function startAnalysis() {
  stopAnalysis();
  $('pv-lines').textContent = '';
  $('search-info').textContent = '';
  const state = app.state;
  if (!state || isOver(state)) {
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
  app.analysis.lines = lines;
  for (const heard of app.onAnalysis) heard(lines);
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

function playLine(from, moves) {
  let node = from;
  for (const move of moves) node = node.child(move);
  renderMoves();
  show(node);
}

// The best move's arrow, while the analysis runs.
export function analysisArrows(state) {
  if (!app.analysis.on || !app.analysis.best) return [];
  const arrow = arrowOf(state, app.analysis.best, 'analysis');
  return arrow ? [arrow] : [];
}

export function setAnalysis(on) {
  app.analysis.on = on;
  $('analyse').checked = on;
  if (on) startAnalysis();
  else {
    stopAnalysis();
    $('winbar').hidden = true;
    $('pv-lines').textContent = '';
    $('search-info').textContent = '';
    redraw();
  }
}

export function analysisShown() {
  if (app.analysis.on) startAnalysis();
}
