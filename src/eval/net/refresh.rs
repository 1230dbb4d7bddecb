//! A side's neurons computed afresh (after a Queen moved, every feature of both sides changes) from the last neurons
//! computed for the same view instead of from nothing: each view's last neurons are kept with where each piece
//! stood then and the features it had, and only the pieces that have moved since are taken off and put back on
//! (their features alone worked out). In a search a Queen goes back and forth between a few cells, so the same
//! views come back again and again, and the pieces that moved in between are few: a few rows instead of fifty,
//! which the processor's caches seldom hold ("finny tables", as Stockfish calls its own).
//!
//! Owns the kept neurons; the arithmetic is `simd`'s, the features the input set's.

use smallvec::SmallVec;

use super::inputs::{FeatureSet, Inputs};
use super::{height_of, simd, Network, Neurons};
use crate::rules::hex::{Hex, GRID};
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;

/// A feature slot with no feature in it.
const NONE: u16 = u16::MAX;
/// Where a piece in its owner's hand stands, for [`Entry::places`].
const IN_HAND: u16 = u16::MAX - 1;
/// Where a piece that is not in the game stands.
const ABSENT: u16 = u16::MAX;
/// Where a piece on the board stands: its cell's index in the low bits, its height above them.
const HEIGHT_SHIFT: u32 = GRID.trailing_zeros();
/// Views kept for each side.
const SLOTS: usize = 64;

type View = <Inputs as FeatureSet>::View;

/// Rows of input weights to add or take away.
type Rows<'a> = SmallVec<[&'a Neurons; 2 * Piece::COUNT]>;

/// One view's last neurons, where each piece stood then, and the features each piece turned on for them.
#[derive(Clone)]
struct Entry {
    view: Option<View>,
    places: [u16; Piece::COUNT],
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
                    places: [ABSENT; Piece::COUNT],
                    pieces: [[NONE; 2]; Piece::COUNT],
                    neurons: [0; super::layers::HIDDEN],
                };
                2 * SLOTS
            ]
            .into_boxed_slice(),
            net: 0,
        }
    }

    /// `side`'s neurons for `pos`, the same as [`Network::refresh`] gives, written into `neurons` (not returned:
    /// a copy of them fewer).
    pub(crate) fn refresh(&mut self, net: &Network, pos: &Position, side: Color, neurons: &mut Neurons) {
        if self.net != net.hash() {
            self.net = net.hash();
            self.entries.iter_mut().for_each(|entry| entry.view = None);
        }
        let view = super::frame_of(pos, side);
        let entry = &mut self.entries[side.index() * SLOTS + Inputs::view_key(&view) as usize % SLOTS];
        let places = places(pos);
        let features = |piece: Piece| match places[piece.index()] {
            IN_HAND => [Inputs::in_hand(&view, piece), NONE],
            ABSENT => [NONE; 2],
            place => Inputs::on_board(
                &view,
                piece,
                Hex::from_index(usize::from(place) % GRID),
                (place >> HEIGHT_SHIFT) as u8,
            ),
        };
        if entry.view == Some(view) {
            // The entry's features are overwritten as they are taken off: if too many pieces moved, the whole entry
            // is computed afresh below.
            let (mut on, mut off): (Rows, Rows) = (SmallVec::new(), SmallVec::new());
            for (index, (before, after)) in entry.places.iter().zip(&places).enumerate() {
                if before != after {
                    let now = features(Piece::from_index(index));
                    off.extend(entry.pieces[index].iter().filter(|&&f| f != NONE).map(|&f| net.row(f)));
                    on.extend(now.iter().filter(|&&f| f != NONE).map(|&f| net.row(f)));
                    entry.pieces[index] = now;
                }
            }
            let in_hand = places.iter().filter(|&&place| place == IN_HAND).count();
            if on.len() + off.len() < 2 * pos.board().on_board().len() as usize + in_hand {
                // The rows by reference: moving the lists into the iterators would copy them.
                simd::accumulate(&mut entry.neurons, on.iter().copied(), off.iter().copied());
                entry.places = places;
                *neurons = entry.neurons;
                return;
            }
        }
        let mut pieces = [[NONE; 2]; Piece::COUNT];
        for (index, slot) in pieces.iter_mut().enumerate() {
            *slot = features(Piece::from_index(index));
        }
        entry.neurons = net.input_biases;
        simd::accumulate(
            &mut entry.neurons,
            pieces.iter().flatten().filter(|&&f| f != NONE).map(|&f| net.row(f)),
            std::iter::empty(),
        );
        entry.view = Some(view);
        entry.places = places;
        entry.pieces = pieces;
        *neurons = entry.neurons;
    }
}

/// Where each piece of `pos` stands: its cell and its height (what its features are worked out from), or
/// [`IN_HAND`], or [`ABSENT`] for a piece not in the game.
fn places(pos: &Position) -> [u16; Piece::COUNT] {
    let board = pos.board();
    let mut places = [ABSENT; Piece::COUNT];
    for piece in board.on_board() {
        let hex = board.hex_of_unchecked(piece);
        places[piece.index()] = hex.index() as u16 | u16::from(height_of(pos, piece, hex)) << HEIGHT_SHIFT;
    }
    for piece in pos.pieces_in_hand(Color::White) | pos.pieces_in_hand(Color::Black) {
        places[piece.index()] = IN_HAND;
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game_type::GameType;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `side`'s neurons for `pos` from `cache`.
    fn refreshed(cache: &mut RefreshCache, net: &Network, pos: &Position, side: Color) -> Neurons {
        let mut neurons = [0; super::super::layers::HIDDEN];
        cache.refresh(net, pos, side, &mut neurons);
        neurons
    }

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
                    assert_eq!(
                        refreshed(&mut cache, &net, &pos, side),
                        net.refresh(&pos, side),
                        "game {game}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000 && kept > checked / 2, "{checked} {kept}");
        // Another net's kept neurons are not used.
        let other = super::super::tests::random_network(6);
        let pos = Position::new(GameType::MLP);
        assert_eq!(
            refreshed(&mut cache, &other, &pos, Color::White),
            other.refresh(&pos, Color::White)
        );
    }

    /// A piece back on the cell it stood on when a view was kept, but now up on the hive (a Beetle that left and
    /// climbed back onto the piece that took its place), is taken off and put back on as a Beetle up.
    #[test]
    fn a_beetle_back_on_its_cell_but_up_on_the_hive_is_seen_up() {
        let net = super::super::tests::random_network(7);
        let mut cache = RefreshCache::new();
        let game = |turn: &str, moves: &str| {
            let record = format!("Base;InProgress;{turn};{moves}").parse().unwrap();
            crate::record::game::Game::from_record(&record, crate::rules::position::Rules::default())
                .unwrap()
                .position()
                .clone()
        };
        // The Queens stay where they are throughout: the same views.
        let start = "wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 -wQ";
        let before = game("Black[3]", start);
        let after = game("Black[5]", &format!("{start};bA1 bQ-;wB1 wQ;bA1 -wQ;wB1 bA1"));
        let beetle = Piece::new(Color::White, crate::rules::piece::Bug::Beetle, 1).unwrap();
        assert_eq!(before.board().hex_of(beetle), after.board().hex_of(beetle));
        for side in Color::ALL {
            assert_eq!(refreshed(&mut cache, &net, &before, side), net.refresh(&before, side));
            assert_eq!(refreshed(&mut cache, &net, &after, side), net.refresh(&after, side));
        }
    }
}
