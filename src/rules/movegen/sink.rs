//! Where generated moves go: a [`Sink`] receives them a piece (or a bug kind in hand) at a time, so that the
//! generator lists them ([`ListSink`]), counts them for perft ([`CountSink`]) or keeps those ending on one cell
//! ([`Onto`]) without a second loop over them.

use crate::rules::hex::Hex;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::Piece;

/// Receives generated moves.
pub(crate) trait Sink {
    /// Whether the sink keeps only how many moves there are: then a piece's moves may be counted without being
    /// listed, and handed over by [`Sink::count`].
    const COUNTS_ONLY: bool = false;
    /// Each piece in the mask `pieces` (bit `i` for the piece with index `i`) may be placed on each of `cells`.
    fn place(&mut self, pieces: u32, cells: &[Hex]);
    /// `piece` may move to each of `cells` (distinct).
    fn moves(&mut self, piece: Piece, cells: &[Hex]);
    /// Passing is the only move.
    fn pass(&mut self);
    /// Whether the sink wants no more moves: the generator may stop after the piece it has just handed over.
    #[inline]
    fn had_enough(&self) -> bool {
        false
    }
    /// `piece` has `count` moves (at least one); called only when [`Sink::COUNTS_ONLY`].
    fn count(&mut self, _piece: Piece, _count: u32) {
        debug_assert!(false, "a sink that lists moves was handed a count");
    }
}

/// Collects moves into a list.
pub(super) struct ListSink<'a>(pub(super) &'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline]
    fn place(&mut self, mut pieces: u32, cells: &[Hex]) {
        while pieces != 0 {
            let piece = Piece::from_index(pieces.trailing_zeros() as usize);
            pieces &= pieces - 1;
            self.0.extend(cells.iter().map(|&to| Move::Place { piece, to }));
        }
    }
    #[inline]
    fn moves(&mut self, piece: Piece, cells: &[Hex]) {
        self.0.extend(cells.iter().map(|&to| Move::Move { piece, to }));
    }
    #[inline]
    fn pass(&mut self) {
        self.0.push(Move::Pass);
    }
}

/// Counts moves.
pub(super) struct CountSink(pub(super) u64);

impl Sink for CountSink {
    const COUNTS_ONLY: bool = true;
    #[inline]
    fn place(&mut self, pieces: u32, cells: &[Hex]) {
        self.0 += u64::from(pieces.count_ones()) * cells.len() as u64;
    }
    #[inline]
    fn moves(&mut self, _: Piece, cells: &[Hex]) {
        self.0 += cells.len() as u64;
    }
    #[inline]
    fn pass(&mut self) {
        self.0 += 1;
    }
    #[inline]
    fn count(&mut self, _: Piece, count: u32) {
        self.0 += u64::from(count);
    }
}

/// Passes on only the moves that end on `target`.
pub(super) struct Onto<S> {
    pub(super) target: Hex,
    pub(super) inner: S,
}

impl<S: Sink> Sink for Onto<S> {
    #[inline]
    fn place(&mut self, pieces: u32, cells: &[Hex]) {
        if cells.contains(&self.target) {
            self.inner.place(pieces, &[self.target]);
        }
    }
    #[inline]
    fn moves(&mut self, piece: Piece, cells: &[Hex]) {
        if cells.contains(&self.target) {
            self.inner.moves(piece, &[self.target]);
        }
    }
    #[inline]
    fn pass(&mut self) {}
    #[inline]
    fn had_enough(&self) -> bool {
        self.inner.had_enough()
    }
}

/// Keeps the first move handed over and wants no more.
pub(super) struct First(pub(super) Option<Move>);

impl Sink for First {
    #[inline]
    fn place(&mut self, pieces: u32, cells: &[Hex]) {
        if let (None, Some(&to), true) = (self.0, cells.first(), pieces != 0) {
            let piece = Piece::from_index(pieces.trailing_zeros() as usize);
            self.0 = Some(Move::Place { piece, to });
        }
    }
    #[inline]
    fn moves(&mut self, piece: Piece, cells: &[Hex]) {
        if let (None, Some(&to)) = (self.0, cells.first()) {
            self.0 = Some(Move::Move { piece, to });
        }
    }
    #[inline]
    fn pass(&mut self) {
        self.0.get_or_insert(Move::Pass);
    }
    #[inline]
    fn had_enough(&self) -> bool {
        self.0.is_some()
    }
}
