//! The network's inputs: how a position becomes the features that turn on rows of input weights, as a
//! [`FeatureSet`]. The engine's accumulators and the trainer both go through the trait, so a second feature set
//! is one more file here and a change of the [`Inputs`] alias: neither the search nor the trainer's loops change.
//!
//! Owns the trait and the choice of the set in use; each set's encoding is in a file of its own.

mod queen_relative;

use crate::rules::hex::Hex;
use crate::rules::piece::{Color, Piece};

pub(crate) use queen_relative::QueenRelative;

/// The feature set the net is built and trained on.
pub(crate) type Inputs = QueenRelative;

/// A way of seeing a position as active features, one side at a time (the perspective). A piece turns on
/// features where it stands (or in its owner's hand); how it is seen may depend on a few pieces that anchor the
/// view (the Queens, for [`QueenRelative`]), and a move of one of those changes every feature, so that the side's
/// neurons are computed afresh instead of moved along.
pub(crate) trait FeatureSet {
    /// Features in the set: rows of input weights.
    const INPUTS: usize;
    /// The most features one perspective of a position turns on.
    const MAX_ACTIVE: usize;
    /// Rows the trainer adds to the net's own while it learns, each shared by many features, folded into the
    /// features that use them when the net is written ([`FeatureSet::factors`]).
    const FACTORS: usize;

    /// How one side sees the board while its anchors stand still.
    type View: Copy + PartialEq;

    /// `side`'s view when White's and Black's Queens stand where `queens` says.
    fn view(side: Color, queens: [Option<Hex>; 2]) -> Self::View;

    /// A number for `view`, well mixed: the same for equal views, and seldom the same for two others.
    fn view_key(view: &Self::View) -> u32;

    /// Whether moving or placing `piece` changes the views: every feature, a refresh.
    fn anchors_view(piece: Piece) -> bool;

    /// The features of `piece` standing on `hex` at `height` (1 on the ground).
    fn on_board(view: &Self::View, piece: Piece, hex: Hex, height: u8) -> [u16; 2];

    /// The feature of `piece` in its owner's hand.
    fn in_hand(view: &Self::View, piece: Piece) -> u16;

    /// The shared rows (numbered from 0, below [`FeatureSet::FACTORS`]) that `feature` learns with, and how many.
    fn factors(feature: u16) -> ([u16; 2], usize);

    /// Every feature `view` turns on for the pieces `placed` on the board (piece, cell, height) and `in_hand`,
    /// appended to `active`.
    fn active(
        view: &Self::View,
        placed: impl Iterator<Item = (Piece, Hex, u8)>,
        in_hand: impl Iterator<Item = Piece>,
        active: &mut Vec<u16>,
    ) {
        for (piece, hex, height) in placed {
            active.extend_from_slice(&Self::on_board(view, piece, hex, height));
        }
        active.extend(in_hand.map(|piece| Self::in_hand(view, piece)));
    }
}
