//! Both sides' neurons kept up to date along the search's line, move by move: each move the search plays pushes
//! what changed (a piece from one place to another), and the neurons of a position are worked out only when it is
//! evaluated, from the nearest position before it whose neurons are known, by adding and taking away the rows of
//! the features the moves turned on and off. A Queen that moves, is placed or is thrown changes how each side sees
//! the board (its frame), so a line with such a move is computed afresh from the position.

use super::inputs::{FeatureSet, Inputs};
use super::layers::HIDDEN;
use super::refresh::RefreshCache;
use super::{frame_of, height_of, simd, Network, Neurons};
use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece};
use crate::rules::position::Position;

/// What a move changed, as the neurons see it.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// Nothing (a pass).
    Nothing,
    /// A piece came from its hand (`None`) or a place (cell and height) to another place.
    Piece {
        piece: Piece,
        from: Option<(Hex, u8)>,
        to: (Hex, u8),
    },
    /// A piece that anchors the views (a Queen) moved or came into play: every feature changes.
    Frames,
}

#[derive(Clone)]
struct Entry {
    neurons: [Neurons; 2],
    /// Whether `neurons` are this position's.
    known: bool,
    /// The move that led here from the entry before.
    change: Change,
}

/// The neurons of each position along the line from the search's root to the position it is at.
pub(crate) struct Accumulators {
    entries: Vec<Entry>,
    /// The entry of the current position.
    top: usize,
    /// The neurons last computed for each view, to refresh from.
    refreshes: RefreshCache,
}

impl Accumulators {
    /// Room for a line of `plies` moves.
    pub(crate) fn new(plies: usize) -> Accumulators {
        Accumulators {
            entries: vec![
                Entry {
                    neurons: [[0; HIDDEN]; 2],
                    known: false,
                    change: Change::Nothing,
                };
                plies + 1
            ],
            top: 0,
            refreshes: RefreshCache::new(),
        }
    }

    /// Start a line at `pos`.
    pub(crate) fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        let root = &mut self.entries[0];
        for side in Color::ALL {
            self.refreshes.refresh(net, pos, side, &mut root.neurons[side.index()]);
        }
        root.known = true;
    }

    /// `mv`, one of the moves of `pos`, is about to be played.
    #[inline]
    pub(crate) fn push(&mut self, pos: &Position, mv: Move) {
        let board = pos.board();
        let change = match mv {
            Move::Pass => Change::Nothing,
            Move::Place { piece, .. } | Move::Move { piece, .. } if Inputs::anchors_view(piece) => Change::Frames,
            Move::Place { piece, to } => Change::Piece {
                piece,
                from: None,
                to: (to, board.height(to) + 1),
            },
            Move::Move { piece, to } => {
                let from = board.hex_of_unchecked(piece);
                Change::Piece {
                    piece,
                    from: Some((from, height_of(pos, piece, from))),
                    to: (to, board.height(to) + 1),
                }
            }
        };
        self.top += 1;
        if self.top == self.entries.len() {
            let last = self.entries[self.top - 1].clone();
            self.entries.push(last);
        }
        let entry = &mut self.entries[self.top];
        entry.known = false;
        entry.change = change;
    }

    /// The move last pushed has been taken back.
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Both sides' neurons for `pos`, the position at the end of the line.
    pub(crate) fn neurons(&mut self, net: &Network, pos: &Position) -> &[Neurons; 2] {
        let top = self.top;
        let known = (0..=top).rev().find(|&i| self.entries[i].known).unwrap_or(0);
        let refresh = !self.entries[known].known
            || self.entries[known + 1..=top]
                .iter()
                .any(|e| matches!(e.change, Change::Frames));
        if refresh {
            let entry = &mut self.entries[top];
            for side in Color::ALL {
                self.refreshes.refresh(net, pos, side, &mut entry.neurons[side.index()]);
            }
            entry.known = true;
            return &self.entries[top].neurons;
        }
        // No Queen moved since the known position: the frames are those of `pos`.
        let frames = [frame_of(pos, Color::White), frame_of(pos, Color::Black)];
        for i in known + 1..=top {
            let (before, after) = self.entries.split_at_mut(i);
            let (previous, entry) = (&before[i - 1], &mut after[0]);
            match entry.change {
                Change::Piece { piece, from, to } => {
                    for ((neurons, before), frame) in entry.neurons.iter_mut().zip(&previous.neurons).zip(&frames) {
                        apply(net, frame, (neurons, before), piece, from, to);
                    }
                }
                Change::Nothing | Change::Frames => entry.neurons = previous.neurons,
            }
            entry.known = true;
        }
        &self.entries[top].neurons
    }
}

/// One side's `neurons` from those `before` a move of `piece` from `from` (its hand when `None`) to `to`: its two
/// rows at `to` on, its rows at `from` (or in hand) off, in one pass.
#[inline]
fn apply(
    net: &Network,
    frame: &<Inputs as FeatureSet>::View,
    (neurons, before): (&mut Neurons, &Neurons),
    piece: Piece,
    from: Option<(Hex, u8)>,
    to: (Hex, u8),
) {
    let [a, b] = Inputs::on_board(frame, piece, to.0, to.1);
    let on = [net.row(a), net.row(b)];
    match from {
        Some((hex, height)) => {
            let [c, d] = Inputs::on_board(frame, piece, hex, height);
            simd::update(neurons, before, &on, &[net.row(c), net.row(d)]);
        }
        None => simd::update(neurons, before, &on, &[net.row(Inputs::in_hand(frame, piece))]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game_type::GameType;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The neurons kept move by move are those computed from scratch, after every move and every undo of random
    /// games of every game type (Pillbug throws and Beetles on stacks included).
    #[test]
    fn the_neurons_kept_along_the_line_are_those_computed_from_scratch() {
        let net = super::super::tests::random_network(3);
        let mut rng = StdRng::seed_from_u64(200);
        let mut accumulators = Accumulators::new(8);
        let (mut checked, mut throws, mut climbs) = (0, 0, 0);
        for game in 0..200 {
            let mut pos = Position::new(GameType::ALL[game % GameType::ALL.len()]);
            accumulators.reset(&net, &pos);
            let mut line = 0;
            for _ in 0..rng.gen_range(20..150) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.state().is_over() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                if let Move::Move { piece, to } = mv {
                    let from = pos.board().hex_of_unchecked(piece);
                    throws += usize::from(!from.is_next_to(to) && piece.color() != pos.to_move());
                    climbs += usize::from(pos.board().height(to) > 0);
                }
                accumulators.push(&pos, mv);
                pos.play_unchecked(mv);
                line += 1;
                // Now and then the neurons are asked for, as a search asks at some nodes and not others.
                if rng.gen_bool(0.5) {
                    let expected = [net.refresh(&pos, Color::White), net.refresh(&pos, Color::Black)];
                    assert_eq!(
                        accumulators.neurons(&net, &pos),
                        &expected,
                        "game {game} ply {}",
                        pos.ply()
                    );
                    checked += 1;
                }
                // And now and then a few moves are taken back.
                if line > 3 && rng.gen_bool(0.1) {
                    for _ in 0..rng.gen_range(1..=3) {
                        pos.undo();
                        accumulators.pop();
                        line -= 1;
                    }
                    let expected = [net.refresh(&pos, Color::White), net.refresh(&pos, Color::Black)];
                    assert_eq!(accumulators.neurons(&net, &pos), &expected, "game {game} after undo");
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 5_000 && throws > 20 && climbs > 100,
            "{checked} {throws} {climbs}"
        );
    }
}
