//! Sets of pieces: which are on the board, in a hand, pinned, in the game. One bit per piece, so a set is a
//! `u32` and every operation is a single instruction or two.

use std::fmt;
use std::ops::{BitAnd, BitOr, Not, Sub};

use crate::rules::piece::{Color, Piece};

/// A set of the 28 pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PieceSet(u32);

const ALL_BITS: u32 = (1 << Piece::COUNT) - 1;

impl PieceSet {
    /// No piece.
    pub const EMPTY: PieceSet = PieceSet(0);
    /// All 28 pieces.
    pub const ALL: PieceSet = PieceSet(ALL_BITS);

    /// The set with bit `i` for the piece with index `i` (bits above the 28th are ignored).
    #[inline]
    pub const fn from_bits(bits: u32) -> PieceSet {
        PieceSet(bits & ALL_BITS)
    }

    /// Bit `i` set for each piece with index `i` in the set.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The fourteen pieces of `color`.
    #[inline]
    pub const fn of_color(color: Color) -> PieceSet {
        PieceSet(0x3fff << (14 * color.index()))
    }

    /// The set holding only `piece`.
    #[inline]
    pub const fn only(piece: Piece) -> PieceSet {
        PieceSet(1 << piece.index())
    }

    /// Whether `piece` is in the set.
    #[inline]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece.index()) != 0
    }

    /// Add `piece`.
    #[inline]
    pub fn insert(&mut self, piece: Piece) {
        self.0 |= 1 << piece.index();
    }

    /// Take `piece` out.
    #[inline]
    pub fn remove(&mut self, piece: Piece) {
        self.0 &= !(1 << piece.index());
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many pieces are in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The piece with the lowest index, if any.
    #[inline]
    pub fn first(self) -> Option<Piece> {
        (self.0 != 0).then(|| Piece::from_index(self.0.trailing_zeros() as usize))
    }

    /// The pieces in index order (White's before Black's).
    #[inline]
    pub fn iter(self) -> PieceSetIter {
        PieceSetIter(self.0)
    }
}

/// The pieces of a [`PieceSet`], lowest index first.
#[derive(Clone)]
pub struct PieceSetIter(u32);

impl Iterator for PieceSetIter {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        if self.0 == 0 {
            return None;
        }
        let piece = Piece::from_index(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(piece)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PieceSetIter {}

impl IntoIterator for PieceSet {
    type Item = Piece;
    type IntoIter = PieceSetIter;

    fn into_iter(self) -> PieceSetIter {
        self.iter()
    }
}

impl FromIterator<Piece> for PieceSet {
    fn from_iter<I: IntoIterator<Item = Piece>>(pieces: I) -> PieceSet {
        let mut set = PieceSet::EMPTY;
        for piece in pieces {
            set.insert(piece);
        }
        set
    }
}

impl BitOr for PieceSet {
    type Output = PieceSet;
    #[inline]
    fn bitor(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 | other.0)
    }
}

impl BitAnd for PieceSet {
    type Output = PieceSet;
    #[inline]
    fn bitand(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 & other.0)
    }
}

impl Sub for PieceSet {
    type Output = PieceSet;
    /// The pieces of `self` not in `other`.
    #[inline]
    fn sub(self, other: PieceSet) -> PieceSet {
        PieceSet(self.0 & !other.0)
    }
}

impl Not for PieceSet {
    type Output = PieceSet;
    #[inline]
    fn not(self) -> PieceSet {
        PieceSet(!self.0 & ALL_BITS)
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
