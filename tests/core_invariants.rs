//! Invariants of the game core over random playouts of every game type: play/undo restores the position and its
//! hash, the incremental hash equals a recomputed one, every move resolves back from its canonical MoveString, no
//! move is generated twice, counting equals listing, the moves onto a cell are those of the full list that end
//! there, the pinned pieces are those whose removal splits the hive, and a GameString round-trips.

mod common;

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use waggle::{GameType, Hex, Move, MoveList, MoveString, Position};

/// Every cell on or next to the hive: where a move can end.
fn cells_near_hive(pos: &Position) -> HashSet<Hex> {
    let board = pos.board();
    let mut cells = HashSet::new();
    for piece in board.on_board() {
        let hex = board.hex_of(piece).unwrap();
        cells.insert(hex);
        cells.extend(hex.neighbours());
    }
    cells.insert(Hex::ORIGIN);
    cells
}

/// The moves onto each cell, asked for on their own, are exactly the moves of the full list that end there.
fn check_moves_onto(pos: &Position, moves: &MoveList) {
    let mut onto = MoveList::new();
    for target in cells_near_hive(pos) {
        pos.generate_moves_onto(target, &mut onto);
        let mut got: Vec<Move> = onto.iter().copied().collect();
        let mut want: Vec<Move> = moves.iter().copied().filter(|m| m.to() == Some(target)).collect();
        got.sort_by_key(|m| format!("{m:?}"));
        want.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(got, want, "moves onto {:?} in {}", target.axial(), pos.game_string());
    }
}

/// The pieces alone on a cell whose removal splits the hive, found the slow way: a flood fill per piece.
fn pinned_by_flood(pos: &Position) -> Vec<String> {
    let board = pos.board();
    let occupied: HashSet<Hex> = board.on_board().into_iter().map(|p| board.hex_of(p).unwrap()).collect();
    let mut pinned = Vec::new();
    for piece in board.on_board() {
        let hex = board.hex_of(piece).unwrap();
        if board.height(hex) != 1 {
            continue;
        }
        let rest: HashSet<Hex> = occupied.iter().copied().filter(|&h| h != hex).collect();
        let Some(&start) = rest.iter().next() else { continue };
        let mut seen = HashSet::from([start]);
        let mut todo = vec![start];
        while let Some(h) = todo.pop() {
            for n in h.neighbours() {
                if rest.contains(&n) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        if seen.len() != rest.len() {
            pinned.push(piece.to_string());
        }
    }
    pinned.sort();
    pinned
}

fn check_position(pos: &mut Position) -> MoveList {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert_eq!(pos.count_moves(), moves.len() as u64, "{}", pos.game_string());
    if pos.state().is_over() {
        assert!(moves.is_empty());
        return moves;
    }
    assert!(!moves.is_empty());
    check_moves_onto(pos, &moves);
    let mut pinned: Vec<String> = pos.pinned().into_iter().map(|p| p.to_string()).collect();
    pinned.sort();
    assert_eq!(pinned, pinned_by_flood(pos), "pinned in {}", pos.game_string());
    if moves.contains(&Move::Pass) {
        assert_eq!(moves.len(), 1, "pass with other moves: {}", pos.game_string());
    }
    let mut sorted: Vec<String> = Vec::new();
    let before = (pos.game_string(), pos.hash());
    for &mv in &moves {
        let text = MoveString::from_move(pos, mv).to_string();
        let parsed: MoveString = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed.to_move(pos), Ok(mv), "{text} in {}", pos.game_string());
        sorted.push(text);
        pos.play_unchecked(mv);
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash after {mv:?}");
        pos.undo();
        assert_eq!((pos.game_string(), pos.hash()), before, "undo of {mv:?}");
    }
    sorted.sort();
    let n = sorted.len();
    sorted.dedup();
    assert_eq!(sorted.len(), n, "a move generated twice in {}", pos.game_string());
    moves
}

#[test]
fn random_playouts_keep_every_invariant() {
    let mut rng = StdRng::seed_from_u64(0x5741_4747);
    let mut positions = 0;
    for game in GameType::ALL {
        for _ in 0..40 {
            let mut pos = Position::new(game);
            for _ in 0..100 {
                let moves = check_position(&mut pos);
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.gen_range(0..moves.len())])
                    .expect("generated moves are legal");
            }
            let text = pos.game_string();
            let again = common::position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(again.game_string(), text);
            assert_eq!(again.hash(), pos.hash());
        }
    }
    assert!(positions > 20_000, "{positions}");
}

#[test]
fn every_reference_naming_the_destination_resolves() {
    let pos = common::data::named_position("selfplay40");
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let board = pos.board().clone();
    for &mv in &moves {
        let (Some(piece), Some(to)) = (mv.piece(), mv.to()) else {
            continue;
        };
        let mut alternatives = 0;
        for hex in to.neighbours().into_iter().chain([to]) {
            let direction = hex.direction_to(to);
            for reference in board.stack(hex) {
                let ms = MoveString::Beside {
                    piece,
                    reference,
                    direction,
                };
                assert_eq!(ms.to_move(&pos), Ok(mv), "{ms}");
                alternatives += 1;
            }
        }
        assert!(alternatives >= 1, "{mv:?}");
    }
}
