//! Move ordering: which move the search tries first.
//!
//! Owns the ordering keys and the memory behind them (killer moves per ply, a history table per piece and
//! destination). The order is: the hash move; moves that change how surrounded the Queens are in our favour (a
//! neighbour more for the enemy Queen, one fewer for ours), biggest change first; killer moves; the rest by
//! history; moves that crowd our own Queen or free the enemy's last. Nothing here plays a move.

use smallvec::SmallVec;

use crate::board::Board;
use crate::hex::{Hex, GRID};
use crate::moves::{Move, MoveList};
use crate::piece::{Bug, Color, Piece};
use crate::position::Position;

use super::MAX_PLY;

/// One ordering key per generated move, on the stack like the moves.
pub(crate) type Keys = SmallVec<[i32; 256]>;

const HASH_MOVE: i32 = i32::MAX;
const QUEEN_PRESSURE: i32 = 1 << 28;
const PER_NEIGHBOUR: i32 = 1 << 24;
const KILLER: [i32; 2] = [1 << 23, (1 << 23) - 1];
/// History scores stay below this, so that they never reach the killers.
const HISTORY_CAP: i32 = 1 << 22;

/// What the search learns about good moves as it goes: killers per ply and history per (piece, destination).
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[i32]>,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; Piece::COUNT * GRID].into_boxed_slice(),
        }
    }

    /// Forget everything, so that a search does not depend on the ones before it.
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.fill(0);
    }

    /// `mv` refuted the position at `ply`, searched `depth` plies deep.
    pub fn reward(&mut self, mv: Move, ply: usize, depth: u32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(slot) = history_slot(mv) {
            let bonus = (depth * depth) as i32;
            self.history[slot] += bonus;
            if self.history[slot] >= HISTORY_CAP {
                self.history.iter_mut().for_each(|h| *h /= 2);
            }
        }
    }

    /// Fill `keys` with one ordering key per move in `moves` (higher first).
    pub fn score_moves(&self, pos: &Position, moves: &MoveList, hash_move: Option<Move>, ply: usize, keys: &mut Keys) {
        keys.clear();
        let queens = QueenWatch::new(pos);
        let killers = self.killers[ply];
        for &mv in moves {
            let key = if Some(mv) == hash_move {
                HASH_MOVE
            } else {
                let gain = queens.gain(pos.board(), mv);
                if gain > 0 {
                    QUEEN_PRESSURE + gain * PER_NEIGHBOUR
                } else if Some(mv) == killers[0] {
                    KILLER[0]
                } else if Some(mv) == killers[1] {
                    KILLER[1]
                } else {
                    let history = history_slot(mv).map_or(0, |slot| self.history[slot]);
                    history + gain * PER_NEIGHBOUR
                }
            };
            keys.push(key);
        }
    }
}

/// Whether a move with this ordering key is an ordinary one: not the hash move, a killer or a move that presses a
/// Queen.
#[inline]
pub(crate) fn is_quiet(key: i32) -> bool {
    key < KILLER[1]
}

/// Swap the best-keyed move at or after `next` into place `next` and return it: a lazy selection sort, since a
/// cut-off usually comes after a few moves and sorting all of them would be wasted.
#[inline]
pub(crate) fn pick(moves: &mut MoveList, keys: &mut Keys, next: usize) -> Move {
    let mut best = next;
    for i in next + 1..moves.len() {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    moves.swap(next, best);
    keys.swap(next, best);
    moves[next]
}

fn history_slot(mv: Move) -> Option<usize> {
    match mv {
        Move::Place { piece, to } | Move::Move { piece, to } => Some(piece.index() * GRID + to.index()),
        Move::Pass => None,
    }
}

/// Where the two Queens stand, seen from the side to move, to judge how a move changes their neighbourhoods.
pub(crate) struct QueenWatch {
    ours: Option<Hex>,
    theirs: Option<Hex>,
    me: Color,
}

impl QueenWatch {
    pub fn new(pos: &Position) -> QueenWatch {
        let me = pos.to_move();
        QueenWatch {
            ours: pos.queen_hex(me),
            theirs: pos.queen_hex(me.opponent()),
            me,
        }
    }

    /// Occupied neighbours the enemy Queen gains plus those our Queen loses when `mv` is played (negative when
    /// the move helps the enemy Queen or crowds ours). A beetle climbing onto the enemy Queen counts as two.
    pub fn gain(&self, board: &Board, mv: Move) -> i32 {
        let (piece, to) = match mv {
            Move::Place { piece, to } | Move::Move { piece, to } => (piece, to),
            Move::Pass => return 0,
        };
        let from = match mv {
            Move::Move { .. } => board.hex_of(piece),
            _ => None,
        };
        // A cell changes occupancy only when the mover leaves a ground cell or lands on an empty one.
        let vacated = from.filter(|&f| board.height(f) == 1);
        let filled = (!board.is_occupied(to)).then_some(to);
        let change = |queen: Option<Hex>, color: Color| -> i32 {
            let Some(q) = queen else {
                // Placing a Queen: her new neighbours are all new pressure on her.
                return if piece.bug() == Bug::Queen && piece.color() == color && from.is_none() {
                    neighbours_after(board, to, vacated)
                } else {
                    0
                };
            };
            if piece.bug() == Bug::Queen && piece.color() == color {
                return neighbours_after(board, to, vacated) - occupied_around(board, q);
            }
            let mut delta = 0;
            if filled.is_some_and(|f| adjacent(f, q)) {
                delta += 1;
            }
            if vacated.is_some_and(|v| adjacent(v, q)) {
                delta -= 1;
            }
            // On top of a Queen she cannot move; off her she can again.
            if to == q {
                delta += 2;
            }
            if from == Some(q) {
                delta -= 2;
            }
            delta
        };
        change(self.theirs, self.me.opponent()) - change(self.ours, self.me)
    }
}

/// Occupied neighbours of `hex` once the cell `vacated` (if any) is empty.
fn neighbours_after(board: &Board, hex: Hex, vacated: Option<Hex>) -> i32 {
    hex.neighbours()
        .iter()
        .filter(|&&n| board.is_occupied(n) && Some(n) != vacated)
        .count() as i32
}

fn occupied_around(board: &Board, hex: Hex) -> i32 {
    hex.neighbours().iter().filter(|&&n| board.is_occupied(n)).count() as i32
}

#[inline]
fn adjacent(a: Hex, b: Hex) -> bool {
    a.neighbours().contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_move_comes_first_then_pressure_on_the_enemy_queen() {
        // White's Ant can go next to the black Queen.
        let text = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wQ;bG1 bQ-";
        let mut pos = Position::from_game_string(text).unwrap();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let heuristics = Heuristics::new();
        let last = *moves.last().unwrap();
        let mut keys = Keys::new();
        heuristics.score_moves(&pos, &moves, Some(last), 0, &mut keys);
        assert_eq!(pick(&mut moves, &mut keys, 0), last);
        let second = pick(&mut moves, &mut keys, 1);
        let watch = QueenWatch::new(&pos);
        assert!(
            watch.gain(pos.board(), second) > 0,
            "{}",
            crate::move_string(&pos, second)
        );
        let bq = pos.queen_hex(Color::Black).unwrap();
        assert!(second.to().unwrap().neighbours().contains(&bq));
    }
}
