//! Sets of pieces: which are on the board, in a hand, pinned, in the game. One bit per piece, so a set is a
//! `u32` and every operation is a single instruction or two.

use std::fmt;

use super::bit_set::bit_set;
use crate::rules::piece::{Color, Piece};

/// A set of the 28 pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PieceSet(u32);

bit_set!(PieceSet, PieceSetIter, Piece, u32, Piece::COUNT);

impl PieceSet {
    /// The fourteen pieces of `color`.
    #[inline]
    pub const fn of_color(color: Color) -> PieceSet {
        PieceSet(0x3fff << (14 * color.index()))
    }
}

impl fmt::Debug for PieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for PieceSet {
    /// The piece names, space-separated, in index order: `wQ wS1 bA2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, piece) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{piece}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::piece::Bug;

    #[test]
    fn set_operations_follow_the_pieces() {
        let wq = Piece::new(Color::White, Bug::Queen, 1).unwrap();
        let ba2 = Piece::new(Color::Black, Bug::Ant, 2).unwrap();
        let mut set: PieceSet = [ba2, wq].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert_eq!(set.iter().collect::<Vec<_>>(), [wq, ba2]);
        assert_eq!(set.to_string(), "wQ bA2");
        assert_eq!(set & PieceSet::of_color(Color::Black), PieceSet::only(ba2));
        assert_eq!((!set).len(), 26);
        assert_eq!(PieceSet::ALL - set, !set);
        set.remove(wq);
        assert_eq!(set.first(), Some(ba2));
        assert!(!set.contains(wq));
        assert_eq!(
            PieceSet::of_color(Color::White) | PieceSet::of_color(Color::Black),
            PieceSet::ALL
        );
    }
}
