// The keyboard shortcuts: one table, shown by `?` and used by the key handler.

export const SHORTCUTS = [
  ['←', 'previous ply', 'prev'], ['→', 'next ply', 'next'], ['Home', 'first position', 'first'],
  ['End', 'last position', 'last'], ['a', 'analysis on or off', 'analyse'], ['f', 'flip the board', 'flip'],
  ['0', 'fit the board (it follows the game again)', 'fit'], ['+', 'zoom in', 'zoomIn'], ['-', 'zoom out', 'zoomOut'],
  ['t', 'bugs, notation or both on the pieces', 'labels'],
  ['m', 'type a move', 'moveBox'], ['n', 'new game', 'newGame'], ['u', 'undo', 'undo'],
  ['r', 'review this game', 'review'], ['z', 'puzzles', 'puzzles'], ['x', 'next mistake', 'nextMistake'], ['p', 'promote the variation', 'promote'],
  ['Delete', 'delete this move and what follows', 'delete'], ['i', 'import a game', 'import'],
  ['d', 'download the .pgn', 'export'], ['c', 'copy the GameString', 'copy'], ['l', 'copy a link to this position', 'share'],
  ['Escape', 'drop the piece picked, close a dialog', 'escape'], ['?', 'this list', 'help'],
];

// Call `actions[name]` for the shortcut of `event`, unless typing in a field; true when one was called.
export function handleKey(event, actions) {
  const tag = event.target.tagName;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if ((tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') && event.key !== 'Escape') return false;
  const keys = { ArrowLeft: '←', ArrowRight: '→', '=': '+' };
  const key = keys[event.key] || event.key;
  const found = SHORTCUTS.find(([k]) => k === key);
  if (!found || !actions[found[2]]) return false;
  event.preventDefault();
  actions[found[2]]();
  return true;
}

export function fillHelp(table) {
  table.textContent = '';
  for (const [key, what] of SHORTCUTS) {
    const row = table.insertRow();
    const k = document.createElement('kbd');
    k.textContent = key;
    row.insertCell().appendChild(k);
    row.insertCell().textContent = what;
  }
}
