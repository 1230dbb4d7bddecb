// A piece as the page draws it: its bug's picture (the symbols of /bugs.svg, the same that `waggle draw --svg`
// uses), its number small where a side has several of its bug, or its notation (`wA1`) instead or as well, as the
// player chose with the Labels switch (remembered by the browser).

const NS = 'http://www.w3.org/2000/svg';
export const INK = { White: '#2b2b2b', Black: '#f7f1de' };
export const TILE = { White: '#f7f1de', Black: '#2b2b2b' };
const SEVERAL = new Set(['A', 'B', 'G', 'S']);
const MODES = ['bugs', 'both', 'notation'];
const NAMES = { bugs: 'Bugs', both: 'Bugs + notation', notation: 'Notation' };

let mode = (() => { try { return localStorage.getItem('waggle.labels'); } catch { return null; } })();
if (!MODES.includes(mode)) mode = 'bugs';

export const labels = () => mode;
export const labelsName = () => NAMES[mode];

// The next way of labelling pieces, remembered.
export function nextLabels() {
  mode = MODES[(MODES.indexOf(mode) + 1) % MODES.length];
  try { localStorage.setItem('waggle.labels', mode); } catch { /* private browsing: for this visit only */ }
  return mode;
}

export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export const colourOf = (piece) => (piece[0] === 'w' ? 'White' : 'Black');

// Draw `piece` (`wA1`) into `parent` on a tile of radius `radius` centred at (x, y).
export function drawPiece(parent, piece, x, y, radius) {
  const colour = colourOf(piece);
  const bug = piece[1];
  if (mode !== 'notation') {
    const size = radius * (mode === 'both' ? 1.2 : 1.42);
    const dy = mode === 'both' ? -radius * 0.16 : 0;
    svgEl('use', { href: `#bug-${bug}`, x: (x - size / 2).toFixed(1), y: (y + dy - size / 2).toFixed(1),
      width: size.toFixed(1), height: size.toFixed(1), color: INK[colour], class: 'glyph' }, parent);
  }
  if (mode === 'bugs') {
    if (SEVERAL.has(bug) && piece.length > 2) {
      const n = svgEl('text', { class: `number ${colour}`, x: (x + radius * 0.52).toFixed(1), y: (y + radius * 0.62).toFixed(1) }, parent);
      n.textContent = piece.slice(2);
    }
  } else {
    const big = mode === 'notation';
    const t = svgEl('text', { class: `piece ${colour}${big ? '' : ' small'}`, x: x.toFixed(1), y: (y + (big ? 5 : radius * 0.72)).toFixed(1) }, parent);
    t.textContent = piece;
  }
}

// A small tile with `piece`'s picture, for a hand or a dragged piece: an inline SVG of `px` pixels.
export function pieceIcon(piece, px) {
  const svg = svgEl('svg', { viewBox: '-30 -30 60 60', width: px, height: px, 'aria-hidden': 'true', class: 'icon' });
  const colour = colourOf(piece);
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = ((60 * k - 30) * Math.PI) / 180;
    points.push(`${(28 * Math.cos(a)).toFixed(1)},${(28 * Math.sin(a)).toFixed(1)}`);
  }
  svgEl('polygon', { points: points.join(' '), fill: TILE[colour], stroke: '#6b6459', 'stroke-width': 1.5 }, svg);
  // In a hand a bug is drawn without its number: the count beside it says how many are left.
  drawPiece(svg, piece.slice(0, 2), 0, 0, 28);
  return svg;
}

// Put the bugs' symbols in the page, once: every picture of a piece refers to them.
export async function loadBugs() {
  const response = await fetch('/bugs.svg');
  const holder = document.createElement('div');
  holder.hidden = true;
  holder.innerHTML = await response.text();
  document.body.prepend(holder);
}
