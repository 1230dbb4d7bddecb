// The board in SVG, drawn as `waggle draw --svg` draws it: pointy-topped hexes of radius 32, ivory and charcoal
// tiles with their bugs drawn (pieces.js), the stack's height in a red disc (hover for the whole stack), the last
// move outlined (its origin dashed). Cells are the server's axial (q, r). The view follows the game (it fits the
// hive and every cell a move can reach) until the player pans or zooms (drag the background, the wheel, a pinch);
// Fit gives it back. A click on a piece or a target, or a drag from a piece to a target, calls back: the page
// decides what it means. A piece dragged in from elsewhere (a hand) finds its cell with cellAtClient.

import { drawPiece, svgEl as el, colourOf } from './pieces.js';

const SIZE = 32;
const SQRT3 = Math.sqrt(3);

function corners(x, y, size = SIZE) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = ((60 * k - 30) * Math.PI) / 180;
    points.push(`${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(' ');
}

export class Board {
  constructor(svg, { onCell, onDrop, onView }) {
    this.svg = svg;
    this.onCell = onCell;
    this.onDrop = onDrop;
    this.onView = onView || (() => {});
    this.following = true;
    this.flipped = false;
    this.view = { x: 0, y: 0, scale: 1 };
    this.pointers = new Map();
    const defs = el('defs', {}, svg);
    // An arrow's head in its own colour: the analysis's blue, the review's purple (the engine's move at a mark).
    for (const [id, colour] of [['arrowhead', '#1f6fd1'], ['arrowhead-best', '#8040c0']]) {
      const marker = el('marker', { id, viewBox: '0 0 10 10', refX: '5', refY: '5', markerWidth: '3', markerHeight: '3', orient: 'auto-start-reverse' }, defs);
      el('path', { d: 'M0,0 L10,5 L0,10 z', fill: colour }, marker);
    }
    this.layer = el('g', {}, svg);
    // What changes with a pick (the targets, the piece picked, the arrows) is drawn over the stacks, apart, so
    // that a pick does not draw the hive again.
    this.marks = el('g', {}, svg);
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', (e) => this.pointers.delete(e.pointerId));
    svg.addEventListener('wheel', (e) => { e.preventDefault(); this.zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY); }, { passive: false });
    new ResizeObserver(() => (this.following ? this.fit() : this.apply())).observe(svg);
  }

  centre(q, r) {
    const x = SIZE * SQRT3 * (q + r / 2), y = SIZE * 1.5 * r;
    return this.flipped ? [-x, -y] : [x, y];
  }

  // The cell under a point of the board's own coordinates.
  cellAt(x, y) {
    if (this.flipped) { x = -x; y = -y; }
    const r = y / (1.5 * SIZE), q = x / (SQRT3 * SIZE) - r / 2;
    let [rq, rr, rs] = [Math.round(q), Math.round(r), Math.round(-q - r)];
    const [dq, dr, ds] = [Math.abs(rq - q), Math.abs(rr - r), Math.abs(rs + q + r)];
    if (dq > dr && dq > ds) rq = -rr - rs; else if (dr > ds) rr = -rq - rs;
    return { q: rq, r: rr };
  }

  // Draw `state` with `targets` ([{q, r, move}]) marked, `picked` ({q, r} or null) outlined and `arrows`
  // ([{from, to, kind}], cells; a placement's arrow is the page's, from the hand).
  draw(state, { targets = [], picked = null, arrows = [], labels = '' } = {}) {
    const fresh = state !== this.state || labels !== this.labels || this.drawnFlipped !== this.flipped;
    this.state = state;
    this.targets = targets;
    this.labels = labels;
    this.drawnFlipped = this.flipped;
    const same = (a, b) => a && b && a.q === b.q && a.r === b.r;
    if (fresh) this.drawStacks(state);
    const g = this.marks;
    g.textContent = '';
    if (picked) {
      const [x, y] = this.centre(picked.q, picked.r);
      el('polygon', { class: 'picked', points: corners(x, y) }, g);
    }
    for (const target of targets) {
      const [x, y] = this.centre(target.q, target.r);
      const hex = el('polygon', { class: 'target', points: corners(x, y, SIZE * 0.8), 'data-move': target.move, 'data-q': target.q, 'data-r': target.r }, g);
      el('title', {}, hex).textContent = target.move;
    }
    for (const arrow of arrows.filter((a) => a.from && !same(a.from, a.to))) {
      const [x1, y1] = this.centre(arrow.from.q, arrow.from.r);
      const [x2, y2] = this.centre(arrow.to.q, arrow.to.r);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const [ex, ey] = [x2 - ((x2 - x1) / len) * 12, y2 - ((y2 - y1) / len) * 12];
      el('line', { class: `arrow ${arrow.kind || ''}`, x1: x1.toFixed(1), y1: y1.toFixed(1), x2: ex.toFixed(1), y2: ey.toFixed(1) }, g);
    }
    // The frame holds every cell a move can reach already: a pick changes nothing of it.
    if (fresh && this.following) this.fit();
    else if (fresh) this.apply();
    else this.onView();
  }

  // The hive of `state`: each stack's tile, its top piece and its height, the last move outlined.
  drawStacks(state) {
    const g = this.layer;
    g.textContent = '';
    const last = state.last;
    const same = (a, b) => a && b && a.q === b.q && a.r === b.r;
    if (last && last.from && !state.cells.some((c) => same(c, last.from))) {
      const [x, y] = this.centre(last.from.q, last.from.r);
      el('polygon', { class: 'origin', points: corners(x, y) }, g);
    }
    for (const cell of state.cells) {
      const [x, y] = this.centre(cell.q, cell.r);
      const top = cell.stack[cell.stack.length - 1];
      const colour = colourOf(top);
      const group = el('g', { class: 'stack', 'data-q': cell.q, 'data-r': cell.r, 'data-piece': top }, g);
      const classes = ['cell', colour];
      if (last && same(cell, last.to)) classes.push('last');
      el('polygon', { class: classes.join(' '), points: corners(x, y) }, group);
      drawPiece(group, top, x, y, SIZE);
      const title = el('title', {}, group);
      title.textContent = cell.stack.length > 1 ? `${top} on ${cell.stack.slice(0, -1).reverse().join(' on ')}` : top;
      if (cell.stack.length > 1) {
        const [hx, hy] = [x + SIZE * 0.55, y - SIZE * 0.55];
        el('circle', { class: 'height', cx: hx.toFixed(1), cy: hy.toFixed(1), r: 8 }, group);
        const h = el('text', { class: 'height-text', x: hx.toFixed(1), y: (hy + 3.5).toFixed(1) }, group);
        h.textContent = cell.stack.length;
      }
    }
  }

  // The centre of cell (q, r) on the page.
  clientOf(q, r) {
    const [x, y] = this.centre(q, r);
    const box = this.svg.getBoundingClientRect();
    return { x: box.left + (x - this.view.x) * this.view.scale, y: box.top + (y - this.view.y) * this.view.scale };
  }

  // The bounding box of the hive and of every cell a move can reach, in board coordinates: what the view keeps
  // in the frame while it follows the game.
  bounds() {
    const state = this.state;
    const reach = state ? Object.values(state.legal || {}).flatMap((moves) => moves.map((m) => m.to)) : [];
    const cells = [...(state ? state.cells : []), ...reach];
    if (state && state.last && state.last.from) cells.push(state.last.from);
    if (!cells.length) return { x: -SIZE * 3, y: -SIZE * 3, w: SIZE * 6, h: SIZE * 6 };
    const xs = [], ys = [];
    for (const c of cells) { const [x, y] = this.centre(c.q, c.r); xs.push(x); ys.push(y); }
    const pad = SIZE * 2;
    const x = Math.min(...xs) - pad, y = Math.min(...ys) - pad;
    return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
  }

  fit() {
    const b = this.bounds();
    const box = this.svg.getBoundingClientRect();
    const w = box.width || 600, h = box.height || 400;
    // The strip under the board's own buttons is left free, so that they never cover a piece.
    const tools = this.svg.parentElement.querySelector('#board-tools');
    const top = tools ? tools.offsetHeight + 6 : 0;
    const scale = Math.min(w / b.w, (h - top) / b.h, 1.6);
    this.view = { scale, x: b.x + b.w / 2 - w / (2 * scale), y: b.y + b.h / 2 - (h + top) / (2 * scale) };
    this.apply();
  }

  // Follow the game again (Fit), or no longer (the player panned or zoomed).
  follow(on) {
    this.following = on;
    if (on) this.fit();
  }

  flip() {
    this.flipped = !this.flipped;
  }

  apply() {
    const box = this.svg.getBoundingClientRect();
    const { x, y, scale } = this.view;
    this.svg.setAttribute('viewBox', `${x.toFixed(2)} ${y.toFixed(2)} ${((box.width || 600) / scale).toFixed(2)} ${((box.height || 400) / scale).toFixed(2)}`);
    this.onView();
  }

  zoomAt(factor, clientX, clientY) {
    this.following = false;
    const [bx, by] = this.toBoard(clientX, clientY);
    const scale = Math.min(4, Math.max(0.15, this.view.scale * factor));
    const box = this.svg.getBoundingClientRect();
    this.view = { scale, x: bx - (clientX - box.left) / scale, y: by - (clientY - box.top) / scale };
    this.apply();
  }

  zoom(factor) {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
  }

  // The cell under a point of the page, or null when the point is off the board.
  cellAtClient(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    return this.cellAt(...this.toBoard(clientX, clientY));
  }

  toBoard(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    return [this.view.x + (clientX - box.left) / this.view.scale, this.view.y + (clientY - box.top) / this.view.scale];
  }

  down(e) {
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* a pointer the browser does not know */ }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 2) { this.pinch = this.spread(); this.drag = null; return; }
    const [bx, by] = this.toBoard(e.clientX, e.clientY);
    const cell = this.cellAt(bx, by);
    const piece = this.state && this.state.cells.some((c) => c.q === cell.q && c.r === cell.r);
    const target = (this.targets || []).some((t) => t.q === cell.q && t.r === cell.r);
    this.drag = { start: { x: e.clientX, y: e.clientY }, cell, moved: false, pan: !piece && !target, view: { ...this.view } };
    if (this.drag.pan) this.svg.classList.add('panning');
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 2 && this.pinch) {
      const now = this.spread();
      const [a, b] = [...this.pointers.values()];
      this.zoomAt(now / this.pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
      this.pinch = now;
      return;
    }
    const drag = this.drag;
    if (!drag) return;
    const dx = e.clientX - drag.start.x, dy = e.clientY - drag.start.y;
    if (Math.hypot(dx, dy) > 4) drag.moved = true;
    if (drag.pan) {
      if (drag.moved) this.following = false;
      this.view = { ...drag.view, x: drag.view.x - dx / drag.view.scale, y: drag.view.y - dy / drag.view.scale };
      this.apply();
    } else if (drag.moved) {
      if (!drag.ghost && !drag.refused) {
        // Only a piece that may move follows the pointer.
        const top = this.onCell(drag.cell, true) && this.layer.querySelector(`.stack[data-q="${drag.cell.q}"][data-r="${drag.cell.r}"]`);
        if (top) { drag.ghost = top.cloneNode(true); drag.ghost.classList.add('ghost'); this.marks.appendChild(drag.ghost); }
        else drag.refused = true;
      }
      if (drag.ghost) {
        const [x0, y0] = this.centre(drag.cell.q, drag.cell.r);
        const [bx, by] = this.toBoard(e.clientX, e.clientY);
        drag.ghost.setAttribute('transform', `translate(${(bx - x0).toFixed(1)},${(by - y0).toFixed(1)})`);
      }
    }
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    const drag = this.drag;
    this.drag = null;
    this.svg.classList.remove('panning');
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.moved && !drag.pan) this.onDrop(drag.cell, this.cellAtClient(e.clientX, e.clientY));
    else if (!drag.moved) this.onCell(drag.start && drag.cell, false);
  }
}
