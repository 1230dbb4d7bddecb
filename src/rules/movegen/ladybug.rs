//! The Ladybug: two steps across the top of the hive, then one step down into an empty cell.

use super::dests::CellSet;
use super::hive::{can_step, cells_towards, Without};
use crate::rules::hex::{Direction, Directions, Hex};

/// The cells two steps across the top can reach: at most the eighteen cells within two of the start.
const SECONDS: usize = 18;

/// Ladybug walks from `board.gone`, the cell the Ladybug left (now empty).
///
/// Many paths over the top end on the same cell, and where the Ladybug can come down depends only on that cell,
/// so the cells reached after two steps are gathered once each, and the steps down looked at once a cell. On a
/// hive without stacks no step up, across or down can be blocked (a gate needs two stacks higher than both ends),
/// and only the cells' occupancy is read.
pub(crate) fn ladybug(board: &Without, out: &mut CellSet) {
    let from = board.gone;
    let real = board.board;
    let stacks = real.any_stack();
    let mut seconds = [(Hex::ORIGIN, 0u8); SECONDS];
    let mut len = 0;
    // The Ladybug stands alone at `from`, so the real board's occupied neighbours of `from` are the Without's.
    let mut ups = real.occupied_bits(from);
    while ups != 0 {
        let d1 = Direction::from_index(ups.trailing_zeros() as usize);
        ups &= ups - 1;
        let first = from.step(d1);
        let first_height = real.height(first);
        if stacks && !can_step(board, from, d1, 0, first_height) {
            continue;
        }
        // Across to any piece but the Ladybug itself.
        let mut across = real.occupied_bits(first) & !(1 << d1.opposite().index());
        while across != 0 {
            let d2 = Direction::from_index(across.trailing_zeros() as usize);
            across &= across - 1;
            let second = first.step(d2);
            if seconds[..len].iter().any(|&(cell, _)| cell == second) {
                continue;
            }
            let second_height = real.height(second);
            if stacks && !can_step(board, first, d2, first_height, second_height) {
                continue;
            }
            seconds[len] = (second, second_height);
            len += 1;
        }
    }
    for &(second, height) in &seconds[..len] {
        // The empty neighbours, `from` not among them: the real board still has the Ladybug there.
        let mut downs = !real.occupied_bits(second) & 0x3f;
        if stacks {
            let mut open = 0;
            for d in Directions::from_bits(downs) {
                if can_step(board, second, d, height, 0) {
                    open |= 1 << d.index();
                }
            }
            downs = open;
        }
        for to in cells_towards(second, downs) {
            out.insert(to);
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::movegen::hive::Surface;
    use crate::rules::piece::Bug;
    use crate::rules::position::Position;

    /// The Ladybug's cells are those of every path of three steps walked one by one, from every ground piece
    /// standing alone of random games (a Ladybug or not: the walk is the same), on hives with stacks and without.
    #[test]
    fn the_ladybug_reaches_the_cells_of_its_paths_walked_one_by_one() {
        let (flat, stacked) = checked(60, 0x004c_4144);
        assert!(
            flat > 20_000 && stacked > 5_000,
            "{flat} starts on hives without stacks, {stacked} with"
        );
    }

    /// The same over many more games (`cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn the_ladybug_reaches_the_cells_of_its_paths_walked_one_by_one_long() {
        let (flat, stacked) = checked(3_000, 0x004c_4145);
        assert!(flat > 1_000_000 && stacked > 250_000, "{flat} {stacked}");
    }

    /// Every path of a step up, a step across and a step down, each checked by `can_step`.
    fn by_paths(view: &Without, out: &mut Vec<Hex>) {
        let from = view.gone;
        for d1 in Direction::ALL {
            let first = from.step(d1);
            let h1 = view.height(first);
            if h1 == 0 || !can_step(view, from, d1, 0, h1) {
                continue;
            }
            for d2 in Direction::ALL {
                let second = first.step(d2);
                let h2 = view.height(second);
                if h2 == 0 || second == from || !can_step(view, first, d2, h1, h2) {
                    continue;
                }
                for d3 in Direction::ALL {
                    let to = second.step(d3);
                    if to != from && view.height(to) == 0 && can_step(view, second, d3, h2, 0) && !out.contains(&to) {
                        out.push(to);
                    }
                }
            }
        }
    }

    /// Random games of the types with a Beetle's stacks and a Ladybug; how many starts were checked on hives
    /// without stacks and with.
    fn checked(games: usize, seed: u64) -> (usize, usize) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut cells = CellSet::default();
        let (mut flat, mut stacked) = (0, 0);
        for game in GameType::ALL.into_iter().filter(|g| g.includes(Bug::Ladybug)) {
            for _ in 0..games {
                let mut pos = Position::new(game);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if pos.state().is_over() || moves.is_empty() {
                        break;
                    }
                    let board = pos.board();
                    for piece in board.on_board().iter() {
                        let from = board.hex_of_unchecked(piece);
                        if board.height(from) != 1 {
                            continue;
                        }
                        let view = Without { board, gone: from };
                        cells.clear();
                        ladybug(&view, &mut cells);
                        let mut expected = Vec::new();
                        by_paths(&view, &mut expected);
                        let mut found = cells.as_slice().to_vec();
                        found.sort_by_key(|h| h.index());
                        expected.sort_by_key(|h| h.index());
                        assert_eq!(found, expected, "{piece} in {}", pos.game_string());
                        if board.any_stack() {
                            stacked += 1;
                        } else {
                            flat += 1;
                        }
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        (flat, stacked)
    }
}
