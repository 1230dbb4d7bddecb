//! The board as text for a person at a terminal: pointy-topped hexes, each row shifted by half a cell, the top
//! piece of each stack drawn where it stands and every stack spelled out underneath.

use waggle::{Hex, Piece, Position};

/// Draw `pos`: a header line, the grid (`.` marks empty cells inside the hive's bounds), then one line per stack.
pub fn draw(pos: &Position) -> String {
    let board = pos.board();
    let mut out = format!(
        "{} to move, turn {}, {}\n",
        pos.to_move().name(),
        pos.turn_number(),
        pos.state()
    );
    let cells: Vec<(i32, i32, Hex)> = Piece::all()
        .filter_map(|p| board.hex_of(p).filter(|&h| board.top(h) == Some(p)))
        .map(|h| {
            let (q, r) = h.axial();
            (q, r, h)
        })
        .collect();
    if cells.is_empty() {
        out.push_str("(the board is empty)\n");
        return out;
    }
    // Column of a cell in half-cells: 2q + r puts each row half a cell to the right of the one above.
    let column = |q: i32, r: i32| 2 * q + r;
    let min_r = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let max_r = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let min_c = cells.iter().map(|c| column(c.0, c.1)).min().unwrap_or(0);
    let max_c = cells.iter().map(|c| column(c.0, c.1)).max().unwrap_or(0);
    for r in min_r..=max_r {
        let mut line = String::new();
        let mut c = min_c + (r - min_r + min_c).rem_euclid(2);
        // Align to the cells that exist in this row: columns of the same parity as r.
        if (c - r).rem_euclid(2) != 0 {
            c += 1;
        }
        let first = c;
        line.push_str(&" ".repeat(((first - min_c) * 2) as usize));
        while c <= max_c {
            let q = (c - r) / 2;
            let hex = Hex::from_axial(q, r);
            let label = match board.top(hex) {
                Some(p) if board.height(hex) > 1 => format!("{p}^"),
                Some(p) => p.to_string(),
                None => ".".to_string(),
            };
            line.push_str(&format!("{label:<4}"));
            c += 2;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for &(_, _, hex) in &cells {
        if board.height(hex) > 1 {
            let stack: Vec<String> = board.stack(hex).map(|p| p.to_string()).collect();
            out.push_str(&format!("stack (top first): {}\n", stack.join(" on ")));
        }
    }
    out
}
