// The review's chart: White's win chance after each ply, in the colours of `waggle review --svg` (ivory below the
// line for White, charcoal above for Black) with a disc on each marked move. A click picks the nearest ply.

const NS = 'http://www.w3.org/2000/svg';
const COLOURS = { inaccuracy: '#e6b800', mistake: '#e07000', blunder: '#c00000', missed_win: '#8040c0' };

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

// Draw `plies` ([{ply, white_chance, mark}], of a game of `total` plies) into `box`; `current` is the ply shown.
export function drawChart(box, plies, total, current, onPick) {
  box.textContent = '';
  const W = 600, H = 130, pad = 4;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': "White's win chance over the game" }, box);
  const x = (ply) => pad + (ply / Math.max(total, 1)) * (W - 2 * pad);
  const y = (chance) => pad + (1 - chance) * (H - 2 * pad);
  el('rect', { x: 0, y: 0, width: W, height: H, fill: '#2b2b2b' }, svg);
  const points = [[0, 0.5], ...plies.map((p) => [p.ply, p.white_chance])];
  const line = points.map(([p, c]) => `${x(p).toFixed(1)},${y(c).toFixed(1)}`).join(' ');
  const lastX = x(points[points.length - 1][0]).toFixed(1);
  el('polygon', { points: `${x(0)},${H} ${line} ${lastX},${H}`, fill: '#f7f1de' }, svg);
  el('line', { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), stroke: '#8a8478', 'stroke-dasharray': '4 4' }, svg);
  el('polyline', { points: line, fill: 'none', stroke: '#6b6459', 'stroke-width': 1.5 }, svg);
  if (current > 0) el('line', { x1: x(current), x2: x(current), y1: 0, y2: H, stroke: '#1f6fd1', 'stroke-width': 2 }, svg);
  for (const p of plies) {
    if (p.mark && COLOURS[p.mark]) {
      el('circle', { class: 'mark', cx: x(p.ply), cy: y(p.white_chance), r: 4.5, fill: COLOURS[p.mark], stroke: '#fff' }, svg);
    }
  }
  svg.addEventListener('click', (e) => {
    const box2 = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box2.left) / box2.width * W - pad) / (W - 2 * pad) * total);
    onPick(Math.max(0, Math.min(total, ply)));
  });
}
