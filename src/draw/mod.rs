//! Pictures of a position for people: the board drawn as text for a terminal (`text`) and as an SVG picture for
//! pages (`svg`, its pieces the bugs drawn in `glyphs`), cells placed by `crate::rules::layout`. Front ends choose which picture to show and where.

mod ending;
mod glyphs;
mod svg;
mod text;

pub use ending::how_it_ended;
pub use glyphs::BUGS_SVG;

#[cfg(any(feature = "review", feature = "web"))]
pub(crate) use svg::escape;
pub use svg::svg;
pub(crate) use text::board_text;
pub use text::{describe, TextStyle};

use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Where the last move of a game went, and where it came from (a placement comes from a hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LastMove {
    /// The cell the piece left, for a movement.
    pub(crate) from: Option<Hex>,
    /// The cell it went to.
    pub(crate) to: Hex,
}

/// The last move of `pos`'s game, if any (a pass has none).
pub(crate) fn last_move(pos: &Position) -> Option<LastMove> {
    let mv = pos.last_move()?;
    let to = mv.to()?;
    let from = match mv {
        Move::Move { piece, .. } => {
            let mut before = pos.clone();
            before.undo();
            before.board().hex_of(piece)
        }
        _ => None,
    };
    Some(LastMove { from, to })
}
