//! The board as text for a person at a terminal: each cell six characters wide, each row shifted by half a
//! cell (pointy-topped hexes), the top piece of each stack drawn where it stands and every stack spelled out
//! underneath.

use super::layout::Layout;
use crate::position::Position;

/// Draw `pos`: a header line, the rows of the hive (`.` marks empty cells between pieces, `^` a stack), then one
/// line per stack, top first.
pub fn board_text(pos: &Position) -> String {
    let board = pos.board();
    let mut out = format!(
        "{} to move, turn {}, {}\n",
        pos.to_move().name(),
        pos.turn_number(),
        pos.state()
    );
    let layout = Layout::of(board, &[]);
    if layout.cells().is_empty() {
        out.push_str("(the board is empty)\n");
        return out;
    }
    // Column of a cell in half-cells: 2q + r puts each row half a cell to the right of the one above.
    let column = |q: i32, r: i32| 2 * q + r;
    let cells = layout.cells();
    let min_r = cells.iter().map(|c| c.r).min().unwrap_or(0);
    let max_r = cells.iter().map(|c| c.r).max().unwrap_or(0);
    let min_c = cells.iter().map(|c| column(c.q, c.r)).min().unwrap_or(0);
    let max_c = cells.iter().map(|c| column(c.q, c.r)).max().unwrap_or(0);
    for r in min_r..=max_r {
        // The first column of this row at or right of the leftmost cell: columns of a row share r's parity.
        let first = min_c + (min_c - r).rem_euclid(2);
        let mut line = " ".repeat(((first - min_c) * 3) as usize);
        for c in (first..=max_c).step_by(2) {
            let label = match layout
                .cell_at((c - r) / 2, r)
                .and_then(|hex| board.top(hex).map(|p| (hex, p)))
            {
                Some((hex, piece)) if board.height(hex) > 1 => format!("{piece}^"),
                Some((_, piece)) => piece.to_string(),
                None => ".".to_string(),
            };
            line.push_str(&format!("{label:<6}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for cell in cells {
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
    fn a_stack_is_marked_and_spelled_out() {
        let text = "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wQ;bB1 bQ-;wB1 wQ";
        let pos = Position::from_game_string(text).unwrap();
        assert_eq!(
            board_text(&pos).lines().collect::<Vec<_>>(),
            [
                "Black to move, turn 4, InProgress",
                "wB1^  wS1   bS1   bQ    bB1",
                "stack (top first): wB1 on wQ"
            ]
        );
    }
}
