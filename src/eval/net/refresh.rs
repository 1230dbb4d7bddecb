//! A side's neurons computed afresh (after a Queen moved, every feature of both sides changes) from the last neurons
//! computed for the same view instead of from nothing: each view's last neurons are kept with the features each
//! piece had then, and only the pieces that have moved since are taken off and put back on. In a search a Queen
//! goes back and forth between a few cells, so the same views come back again and again, and the pieces that moved
//! in between are few: a few rows instead of fifty, which the processor's caches seldom hold ("finny tables", as
//! Stockfish calls its own).
//!
//! Owns the kept neurons; the arithmetic is `simd`'s, the features the input set's.

use smallvec::SmallVec;

use super::inputs::{FeatureSet, Inputs};
use super::{height_of, simd, Network, Neurons};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;

/// A feature slot with no feature in it.
const NONE: u16 = u16::MAX;
/// Views kept for each side.
const SLOTS: usize = 64;

type View = <Inputs as FeatureSet>::View;

/// Rows of input weights to add or take away.
type Rows<'a> = SmallVec<[&'a Neurons; 2 * Piece::COUNT]>;

/// One view's last neurons, and the features each piece turned on for them.
#[derive(Clone)]
struct Entry {
    view: Option<View>,
    pieces: [[u16; 2]; Piece::COUNT],
    neurons: Neurons,
}

/// The last neurons computed for each of a few views of each side.
pub(crate) struct RefreshCache {
    entries: Box<[Entry]>,
    /// The net the neurons were computed with (its hash): another net's are forgotten.
    net: u64,
}

impl RefreshCache {
    /// Nothing kept.
    pub(crate) fn new() -> RefreshCache {
        RefreshCache {
            entries: vec![
                Entry {
                    view: None,
                    pieces: [[NONE; 2]; Piece::COUNT],
                    neurons: [0; super::layers::HIDDEN],
                };
                2 * SLOTS
            ]
            .into_boxed_slice(),
            net: 0,
        }
    }

    /// `side`'s neurons for `pos`, the same as [`Network::refresh`] gives.
    pub(crate) fn refresh(&mut self, net: &Network, pos: &Position, side: Color) -> Neurons {
        if self.net != net.hash() {
            self.net = net.hash();
            self.entries.iter_mut().for_each(|entry| entry.view = None);
        }
        let view = super::frame_of(pos, side);
        let entry = &mut self.entries[side.index() * SLOTS + Inputs::view_key(&view) as usize % SLOTS];
        let board = pos.board();
        let hand = pos.pieces_in_hand(Color::White) | pos.pieces_in_hand(Color::Black);
        let mut now = [[NONE; 2]; Piece::COUNT];
        for piece in board.on_board() {
            let hex = board.hex_of_unchecked(piece);
            now[piece.index()] = Inputs::on_board(&view, piece, hex, height_of(pos, piece, hex));
        }
        for piece in hand {
            now[piece.index()] = [Inputs::in_hand(&view, piece), NONE];
        }
        let rows = |features: &[[u16; 2]]| -> usize { features.iter().flatten().filter(|&&f| f != NONE).count() };
        if entry.view == Some(view) {
            let (mut on, mut off): (Rows, Rows) = (SmallVec::new(), SmallVec::new());
            for (before, after) in entry.pieces.iter().zip(&now) {
                if before != after {
                    off.extend(before.iter().filter(|&&f| f != NONE).map(|&f| net.row(f)));
                    on.extend(after.iter().filter(|&&f| f != NONE).map(|&f| net.row(f)));
                }
            }
            if on.len() + off.len() < rows(&now) {
                simd::accumulate(&mut entry.neurons, on.into_iter(), off.into_iter());
                entry.pieces = now;
                return entry.neurons;
            }
        }
        let mut neurons = net.input_biases;
        simd::accumulate(
            &mut neurons,
            now.iter().flatten().filter(|&&f| f != NONE).map(|&f| net.row(f)),
            std::iter::empty(),
        );
        *entry = Entry {
            view: Some(view),
            pieces: now,
            neurons,
        };
        neurons
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game_type::GameType;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Neurons refreshed from kept ones are those computed from nothing, as Queens (and everything else) move back
    /// and forth over random games of every game type; most refreshes are served from a kept view.
    #[test]
    fn neurons_refreshed_from_a_kept_view_are_those_computed_from_scratch() {
        let net = super::super::tests::random_network(5);
        let mut cache = RefreshCache::new();
        let mut rng = StdRng::seed_from_u64(21);
        let (mut checked, mut kept) = (0, 0);
        for game in 0..120 {
            let mut pos = Position::new(GameType::ALL[game % GameType::ALL.len()]);
            for _ in 0..rng.gen_range(10..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.state().is_over() {
                    break;
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                // Now and then a move is taken back, so that views come back.
                if pos.ply() > 4 && rng.gen_bool(0.3) {
                    pos.undo();
                }
                for side in Color::ALL {
                    let view = crate::eval::net::frame_of(&pos, side);
                    let slot = side.index() * SLOTS + Inputs::view_key(&view) as usize % SLOTS;
                    kept += usize::from(cache.entries[slot].view == Some(view));
                    assert_eq!(cache.refresh(&net, &pos, side), net.refresh(&pos, side), "game {game}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000 && kept > checked / 2, "{checked} {kept}");
        // Another net's kept neurons are not used.
        let other = super::super::tests::random_network(6);
        let pos = Position::new(GameType::MLP);
        assert_eq!(
            cache.refresh(&other, &pos, Color::White),
            other.refresh(&pos, Color::White)
        );
    }
}
