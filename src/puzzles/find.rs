//! Whether a position is a puzzle: the side to move has exactly one move that forces a win within N plies, or
//! else exactly one move that escapes a forced loss within N (the opponent then wins within N - 1 after every
//! other move).
//!
//! In two steps, so that a miner can ask it of every position of a game. The first looks with the proof search's
//! quiet-defence assumption ([`Assume::QuietDefence`]): its wins are proofs, so two of them settle that the
//! position is no puzzle, but it may miss a win that rests on the defender having no other move. When it finds
//! exactly one move, the second step asks again assuming nothing, and only an exact "exactly one" makes a
//! puzzle. A puzzle whose only win rests on a defender with no other move is therefore missed; one that is kept is
//! always proved.

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::proof::{Aim, Assume, Halt, Prover};

use super::Kind;

/// A puzzle found in a position: what it asks, and its one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) kind: Kind,
    pub(crate) first: Move,
}

/// Whether `position` is a puzzle within `plies` plies, asked of `prover` (whose memory is forgotten first, so
/// that the answer and the work it takes do not depend on what it was asked before).
pub(crate) fn examine(prover: &mut Prover, position: &Position, plies: u32) -> Result<Option<Found>, Halt> {
    if position.state().is_over() || position.count_moves() < 2 {
        return Ok(None);
    }
    for (aim, kind) in [(Aim::Win, Kind::Win), (Aim::Hold, Kind::Defend)] {
        prover.assume(Assume::QuietDefence);
        prover.forget();
        let hopeful = prover.first_moves(position, plies, aim, 2)?;
        match (aim, hopeful.len()) {
            // Two wins are proved even under the assumption: no puzzle, and no escape to look for.
            (Aim::Win, 2) => return Ok(None),
            // Every move loses (a loss found under the assumption is proved).
            (Aim::Hold, 0) => return Ok(None),
            (_, 1) => {
                prover.assume(Assume::Nothing);
                prover.forget();
                let exact = prover.first_moves(position, plies, aim, 2)?;
                return Ok((exact == hopeful).then(|| Found {
                    kind,
                    first: hopeful[0],
                }));
            }
            // No win seen: look for the one escape. Two escapes seen: very likely no puzzle (an escape may be
            // a loss the assumption missed), and none is claimed.
            (Aim::Win, _) => continue,
            (Aim::Hold, _) => return Ok(None),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::position;

    #[test]
    fn the_start_and_a_quiet_opening_are_no_puzzles() {
        let mut prover = Prover::new(12);
        for text in ["Base+MLP", "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"] {
            assert_eq!(examine(&mut prover, &position(text), 7), Ok(None), "{text}");
        }
    }
}
