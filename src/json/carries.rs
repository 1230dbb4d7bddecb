//! Who could carry a piece: the API names the Pillbug (or the Mosquito next to one) that does a Special Ability,
//! which Waggle's moves leave out (a carried piece's move names the piece only). The rule is the move generator's:
//! a power user of the side to move (once its Queen is down), on the ground and not the piece that moved last,
//! lifts a neighbour that stands alone on its cell (not the piece that moved last, not pinned to the hive) onto
//! itself and down into an empty neighbouring cell, through no gate of stacks two high.
//!
//! Owns naming the carrier only: whether the move is legal at all is for the generator to say, so callers ask
//! about moves it listed.

use crate::rules::board::Board;
use crate::rules::hex::Hex;
use crate::rules::piece::Bug;
use crate::rules::position::Position;

/// The cells of the power users that could carry the piece at `from` to `to`, for the side to move.
pub fn ability_users(pos: &Position, from: Hex, to: Hex) -> Vec<Hex> {
    let board = pos.board();
    let Some(carried) = board.top(from) else {
        return Vec::new();
    };
    // Like any movement, the power is used only once the side's Queen is down.
    let queen_down = pos.queen_hex(pos.to_move()).is_some();
    if !queen_down || board.height(from) != 1 || board.height(to) != 0 || pos.stunned() == Some(carried) {
        return Vec::new();
    }
    let users: Vec<Hex> = from
        .neighbours()
        .into_iter()
        .filter(|&user| user.is_next_to(to) && is_power_user(pos, user))
        .filter(|&user| passes(board, from, user) && passes(board, user, to))
        .collect();
    // The One Hive pass last: it is the dearest check, and most pieces have no carrier next to them.
    if users.is_empty() || pos.pinned().contains(carried) {
        return Vec::new();
    }
    users
}

/// Whether the piece at `hex` may use the Pillbug's power for the side to move now.
fn is_power_user(pos: &Position, hex: Hex) -> bool {
    let board = pos.board();
    let Some(piece) = board.top(hex) else {
        return false;
    };
    let bug_can = match piece.bug() {
        Bug::Pillbug => true,
        Bug::Mosquito => hex
            .neighbours()
            .iter()
            .any(|&n| board.top(n).is_some_and(|p| p.bug() == Bug::Pillbug)),
        _ => false,
    };
    bug_can && piece.color() == pos.to_move() && board.height(hex) == 1 && pos.stunned() != Some(piece)
}

/// Whether a carried piece passes between the neighbouring cells `a` and `b` at the height of a Pillbug on the
/// ground: it does unless both cells bordering the two hold stacks at least two high (a gate).
fn passes(board: &Board, a: Hex, b: Hex) -> bool {
    a.neighbours()
        .into_iter()
        .filter(|&c| c.is_next_to(b))
        .any(|c| board.height(c) <= 1)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::moves::Move;

    /// The opponent's pieces move only when carried, so for them the generator is an exact oracle: a carrier is
    /// named exactly when the generator lists the move.
    #[test]
    fn carriers_are_named_exactly_for_the_carries_the_generator_lists() {
        let mut rng = StdRng::seed_from_u64(0x5049_4c4c);
        let mut carries = 0;
        for game_type in [
            GameType::new(false, false, true),
            GameType::new(true, false, true),
            GameType::MLP,
        ] {
            for _ in 0..60 {
                let mut pos = Position::new(game_type);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let board = pos.board();
                    let opponent = pos.to_move().opponent();
                    for piece in board
                        .on_board()
                        .iter()
                        .filter(|p| p.color() == opponent && board.is_top(*p))
                    {
                        let Some(from) = board.hex_of(piece) else { continue };
                        for to in from.neighbours().into_iter().flat_map(|n| n.neighbours()) {
                            let listed = moves.contains(&Move::Move { piece, to });
                            let named = !ability_users(&pos, from, to).is_empty();
                            assert_eq!(named, listed, "{piece} to {to:?} in {}", pos.game_string());
                            carries += usize::from(listed);
                        }
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(carries > 200, "{carries}");
    }
}
