// The move tree: each node is a move (a canonical MoveString) with its continuations, the first being the main
// line. A different move from an earlier ply starts a variation.

export class Node {
  constructor(move, parent) {
    this.move = move;
    this.parent = parent;
    this.children = [];
    this.mark = null;
    this.id = Node.next = (Node.next || 0) + 1;
  }
  get ply() { return this.parent ? this.parent.ply + 1 : 0; }
  path() {
    const moves = [];
    for (let node = this; node.parent; node = node.parent) moves.unshift(node.move);
    return moves;
  }
  child(move) {
    let found = this.children.find((c) => c.move === move);
    if (!found) { found = new Node(move, this); this.children.push(found); }
    return found;
  }
  mainLine() {
    const line = [];
    for (let node = this.children[0]; node; node = node.children[0]) line.push(node);
    return line;
  }
  isMain() {
    for (let node = this; node.parent; node = node.parent) if (node.parent.children[0] !== node) return false;
    return true;
  }
}

// The root of a tree with `moves` as its main line.
export function treeOf(moves) {
  const root = new Node(null, null);
  let node = root;
  for (const move of moves) node = node.child(move);
  return root;
}

// Make `node`'s line the main line at every branching above it.
export function promote(node) {
  for (let n = node; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
  }
}

// Remove `node` and everything after it; the parent is where one stands next.
export function remove(node) {
  if (!node.parent) return node;
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
  return node.parent;
}

// Render the tree under `root` into `box`, numbering plies; `current` highlighted; `onPick(node)` on a click;
// `result` ({text, ply}, if the game has ended) after the main line's last move, where it happened.
export function render(box, root, current, onPick, result) {
  box.textContent = '';
  const button = (node) => {
    const b = document.createElement('button');
    b.className = 'mv' + (node === current ? ' current' : '');
    b.textContent = node.move + (node.mark ? ' ' + markSign(node.mark) : '');
    if (node.mark) b.classList.add('mark-' + node.mark);
    b.dataset.ply = node.ply;
    b.title = `ply ${node.ply}` + (node.mark ? `: ${node.mark.replace('_', ' ')}` : '');
    b.addEventListener('click', () => onPick(node));
    return b;
  };
  const line = (first, into) => {
    for (let node = first; node; node = node.children[0]) {
      // A ply's number and its move stay on one line.
      const ply = document.createElement('span');
      ply.className = 'ply';
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = node.ply + '.';
      ply.append(num, button(node));
      into.append(ply, ' ');
      for (const other of node.parent.children.slice(1)) {
        if (node.parent.children[0] !== node) break;
        const variation = document.createElement('span');
        variation.className = 'variation';
        line(other, variation);
        into.append(' ', variation, ' ');
      }
    }
  };
  if (root.children[0]) line(root.children[0], box);
  if (result) {
    const end = document.createElement('span');
    end.className = 'end';
    end.textContent = result.text.split(':')[0];
    end.title = result.text;
    box.append(end);
  }
  // The move shown kept in view within the list, without scrolling the page (on a phone the list is below the
  // board, and the board must stay where the player's finger is).
  const here = box.querySelector('.current');
  if (here) {
    const [outer, inner] = [box.getBoundingClientRect(), here.getBoundingClientRect()];
    if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
  }
}

export function markSign(mark) {
  return { inaccuracy: '?!', mistake: '?', blunder: '??', missed_win: '(missed win)' }[mark] || '';
}
