//! The board as text for a person at a terminal: a honeycomb of pointy-topped hexes, each cell three characters
//! wide with the name of the piece on top, the height of a stack on the cell's roof, and optionally ANSI colours
//! (one per side, the last move highlighted) and marked empty cells (where a chosen piece may go).
//!
//! ```text
//!    / \ / \
//!   |wQ |bS1|
//!  / \ /2\ / \
//! |wA1|wB1|bQ |
//!  \ / \ / \ /
//! ```

use super::last_move;
use crate::rules::hex::Hex;
use crate::rules::layout::Layout;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// How to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// ANSI colours: the two sides, the last move, the marked cells.
    pub color: bool,
    /// Empty cells to mark with `*` (each must touch the hive, or be the first cell of an empty board).
    pub marks: Vec<Hex>,
    /// Highlight the last move played (its destination).
    pub last_move: bool,
}

const WHITE: &str = "\x1b[1;97m";
const BLACK: &str = "\x1b[1;91m";
const MARK: &str = "\x1b[1;32m";
const LAST: &str = "\x1b[7m";
const RESET: &str = "\x1b[0m";

/// The honeycomb of `pos` as `style` says, one line per text row, each ended by a line break; empty when there is
/// nothing to draw.
pub fn honeycomb(pos: &Position, style: &TextStyle) -> String {
    let board = pos.board();
    let layout = Layout::of(board, &style.marks);
    let cells = layout.cells();
    if cells.is_empty() {
        return String::new();
    }
    // A cell at (q, r) has its left wall at column 4q + 2r and its name on line 2r + 1.
    let min_x = cells.iter().map(|c| 4 * c.q + 2 * c.r).min().unwrap_or(0);
    let min_r = cells.iter().map(|c| c.r).min().unwrap_or(0);
    let width = cells.iter().map(|c| 4 * c.q + 2 * c.r - min_x).max().unwrap_or(0) as usize + 5;
    let rows = cells.iter().map(|c| c.r - min_r).max().unwrap_or(0) as usize + 1;
    let mut canvas = vec![vec![' '; width]; 2 * rows + 1];
    // Colour of each label: (line, first column, escape code).
    let mut paints: Vec<(usize, usize, &str)> = Vec::new();
    let last_to = style.last_move.then(|| last_move(pos)).flatten().map(|m| m.to);
    for cell in cells {
        let x = (4 * cell.q + 2 * cell.r - min_x) as usize;
        let y = 2 * (cell.r - min_r) as usize;
        let (top, label) = match board.top(cell.hex) {
            Some(piece) => {
                let height = board.height(cell.hex);
                let roof = if height > 1 {
                    char::from_digit(u32::from(height), 10).unwrap_or('+')
                } else {
                    ' '
                };
                let paint = if piece.color() == Color::White { WHITE } else { BLACK };
                let paint = if Some(cell.hex) == last_to { LAST } else { paint };
                paints.push((y + 1, x + 1, paint));
                (roof, piece.to_string())
            }
            None => {
                paints.push((y + 1, x + 1, MARK));
                (' ', " * ".to_string())
            }
        };
        for (dx, c) in [(1, '/'), (2, top), (3, '\\')] {
            canvas[y][x + dx] = c;
        }
        canvas[y + 1][x] = '|';
        canvas[y + 1][x + 4] = '|';
        for (i, c) in format!("{label:<3}").chars().take(3).enumerate() {
            canvas[y + 1][x + 1 + i] = c;
        }
        canvas[y + 2][x + 1] = '\\';
        canvas[y + 2][x + 3] = '/';
    }
    let mut out = String::new();
    for (line, chars) in canvas.iter().enumerate() {
        let mut text = String::new();
        for (column, &c) in chars.iter().enumerate() {
            let paint = paints.iter().find(|&&(l, start, _)| l == line && start == column);
            if let (true, Some(&(_, _, code))) = (style.color, paint) {
                text.push_str(code);
            }
            text.push(c);
            if style.color && paints.iter().any(|&(l, start, _)| l == line && start + 2 == column) {
                text.push_str(RESET);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// Draw `pos` for `board` and `waggle draw`: a header line (who is to move, the turn, the state), the honeycomb
/// in plain text, then each stack spelled out, top first.
pub fn board_text(pos: &Position) -> String {
    describe(pos, &TextStyle::default())
}

/// The position as text for a person: a header line (who is to move, the turn, the state), the board as hexes,
/// and each stack listed, drawn as `style` says.
pub fn describe(pos: &Position, style: &TextStyle) -> String {
    let board = pos.board();
    let mut out = format!(
        "{} to move, turn {}, {}\n",
        pos.to_move().name(),
        pos.turn_number(),
        pos.state()
    );
    let picture = honeycomb(pos, style);
    if picture.is_empty() {
        out.push_str("(the board is empty)\n");
        return out;
    }
    out.push_str(&picture);
    for cell in Layout::of(board, &[]).cells() {
        if board.height(cell.hex) > 1 {
            let stack: Vec<String> = board.stack(cell.hex).map(|p| p.to_string()).collect();
            out.push_str(&format!("stack (top first): {}\n", stack.join(" on ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_hive_is_drawn_as_hexes_with_its_stack() {
        let text = "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wQ;bB1 bQ-;wB1 wQ";
        let pos = crate::record::tests::position(text);
        let drawn = board_text(&pos);
        assert_eq!(
            drawn.lines().collect::<Vec<_>>(),
            [
                "Black to move, turn 4, InProgress",
                " /2\\ / \\ / \\ / \\ / \\",
                "|wB1|wS1|bS1|bQ |bB1|",
                " \\ / \\ / \\ / \\ / \\ /",
                "stack (top first): wB1 on wQ",
            ]
        );
    }

    #[test]
    fn marks_and_colours_are_drawn_when_asked() {
        let pos = crate::record::tests::position("Base;InProgress;Black[1];wS1");
        let marks: Vec<Hex> = pos.legal_moves().iter().filter_map(|m| m.to()).collect();
        let plain = honeycomb(
            &pos,
            &TextStyle {
                marks: marks.clone(),
                ..TextStyle::default()
            },
        );
        assert_eq!(plain.matches(" * ").count(), 6, "{plain}");
        assert!(!plain.contains('\x1b'));
        let coloured = honeycomb(
            &pos,
            &TextStyle {
                color: true,
                marks,
                last_move: true,
            },
        );
        assert!(
            coloured.contains(LAST) && coloured.contains(MARK) && coloured.contains(RESET),
            "{coloured}"
        );
        // Without the escapes, the picture is the plain one.
        let stripped: String = coloured.replace(LAST, "").replace(MARK, "").replace(RESET, "");
        assert_eq!(stripped, plain);
    }
}
