//! Move ordering: which move the search tries first.
//!
//! Owns the ordering keys and the memory behind them (killer moves per ply, a history table per piece and
//! destination). The order is: the hash move; moves that change how surrounded the Queens are in our favour (a
//! neighbour more for the enemy Queen, one fewer for ours), biggest change first; killer moves; the rest by
//! history; moves that crowd our own Queen or free the enemy's last. Nothing here plays a move.

use smallvec::SmallVec;

use crate::rules::board::Board;
use crate::rules::hex::{Hex, GRID};
use crate::rules::movegen::Sink;
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::piece_set::PieceSet;
use crate::rules::position::Position;

use super::MAX_PLY;

/// How many moves are picked one at a time before the rest are sorted: most cut-offs come from the first few.
const PICK_LAZILY: usize = 4;

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

    /// The moves of `pos` (as generated into `moves`) in the order to try them at `ply`: keyed one by one as
    /// [`Heuristics::generate_ordered`] keys them as they are generated.
    pub fn order(&self, pos: &Position, moves: &MoveList, hash_move: Option<Move>, ply: usize) -> Ordered {
        let mut ordered = Ordered::new();
        let mut sink = KeyedSink {
            keyer: self.keyer(pos, hash_move, ply),
            items: &mut ordered.items,
        };
        for &mv in moves.iter() {
            match mv {
                Move::Place { piece, to } => sink.place(1 << piece.index(), &[to]),
                Move::Move { piece, to } => sink.moves(piece, &[to]),
                Move::Pass => sink.pass(),
            }
        }
        ordered
    }

    /// Generate the moves of `pos` into `ordered`, keyed as they come: what a movement leaves behind is judged
    /// once for all the destinations of its piece.
    pub fn generate_ordered(&self, pos: &Position, hash_move: Option<Move>, ply: usize, ordered: &mut Ordered) {
        ordered.items.clear();
        ordered.next = 0;
        ordered.ready = false;
        let mut sink = KeyedSink {
            keyer: self.keyer(pos, hash_move, ply),
            items: &mut ordered.items,
        };
        pos.generate(&mut sink);
    }

    fn keyer<'a>(&'a self, pos: &'a Position, hash_move: Option<Move>, ply: usize) -> Keyer<'a> {
        // Every move is keyed, though a node mostly tries only the first few: so the hash move and killers are
        // recognised by one number each rather than compared field by field.
        Keyer {
            board: pos.board(),
            queens: QueenWatch::new(pos),
            history: &self.history,
            hash_id: hash_move.map_or(NO_ID, move_id),
            killer_ids: self.killers[ply].map(|killer| killer.map_or(NO_ID, move_id)),
        }
    }
}

/// Gives one node's moves their ordering keys.
struct Keyer<'a> {
    board: &'a Board,
    queens: QueenWatch,
    history: &'a [i32],
    hash_id: u32,
    killer_ids: [u32; 2],
}

impl Keyer<'_> {
    /// The key of the move with this [`move_id`] and history slot, which changes the Queens' neighbourhoods by
    /// `gain`: occupied neighbours the enemy Queen gains plus those ours loses (a piece climbing onto a Queen
    /// counts as two).
    #[inline]
    fn key(&self, id: u32, slot: usize, gain: i32) -> i32 {
        if id == self.hash_id {
            HASH_MOVE
        } else if gain > 0 {
            QUEEN_PRESSURE + gain * PER_NEIGHBOUR
        } else if id == self.killer_ids[0] {
            KILLER[0]
        } else if id == self.killer_ids[1] {
            KILLER[1]
        } else {
            self.history[slot] + gain * PER_NEIGHBOUR
        }
    }

    /// The key of placing `piece` on `to`, which changes the Queens' neighbourhoods by `gain`.
    #[inline(always)]
    fn placing(&self, piece: Piece, to: Hex, gain: i32) -> i32 {
        let slot = piece.index() * GRID + to.index();
        self.key(PLACE_ID | slot as u32, slot, gain)
    }

    /// The key of moving `piece` to `to`, which changes the Queens' neighbourhoods by `gain`.
    #[inline(always)]
    fn moving(&self, piece: Piece, to: Hex, gain: i32) -> i32 {
        let slot = piece.index() * GRID + to.index();
        self.key(slot as u32, slot, gain)
    }

    /// The key of passing.
    #[inline]
    fn pass(&self) -> i32 {
        if PASS_ID == self.hash_id {
            HASH_MOVE
        } else if PASS_ID == self.killer_ids[0] {
            KILLER[0]
        } else if PASS_ID == self.killer_ids[1] {
            KILLER[1]
        } else {
            0
        }
    }
}

/// Keys moves as the generator hands them over.
struct KeyedSink<'a> {
    keyer: Keyer<'a>,
    items: &'a mut SmallVec<[(i32, Move); 256]>,
}

impl Sink for KeyedSink<'_> {
    #[inline]
    fn place(&mut self, pieces: u32, cells: &[Hex]) {
        for piece in PieceSet::from_bits(pieces) {
            let keyer = &self.keyer;
            // The Queen apart, so that the loop over the cells of every other bug is short.
            self.items.reserve(cells.len());
            if piece.bug() == Bug::Queen {
                for &to in cells {
                    let gain = keyer.queens.queen_gain(keyer.board, piece.color(), None, to);
                    self.items
                        .push((keyer.placing(piece, to, gain), Move::Place { piece, to }));
                }
            } else {
                for &to in cells {
                    let key = keyer.placing(piece, to, keyer.queens.near(to));
                    self.items.push((key, Move::Place { piece, to }));
                }
            }
        }
    }

    #[inline]
    fn moves(&mut self, piece: Piece, cells: &[Hex]) {
        let keyer = &self.keyer;
        // A generated movement's piece is on the board.
        let from = keyer.board.hex_of_unchecked(piece);
        self.items.reserve(cells.len());
        if piece.bug() == Bug::Queen {
            for &to in cells {
                let gain = keyer.queens.queen_gain(keyer.board, piece.color(), Some(from), to);
                self.items
                    .push((keyer.moving(piece, to, gain), Move::Move { piece, to }));
            }
        } else {
            let leaving = keyer.queens.leaving(keyer.board, from);
            for &to in cells {
                let key = keyer.moving(piece, to, keyer.queens.arriving(keyer.board, to) - leaving);
                self.items.push((key, Move::Move { piece, to }));
            }
        }
    }

    #[inline]
    fn pass(&mut self) {
        self.items.push((self.keyer.pass(), Move::Pass));
    }
}

/// A number for each move, the same for two moves exactly when they are equal: the history slot, and a bit for
/// placements (a piece in hand and the same piece on the board do not go to a cell by the same move).
#[inline]
fn move_id(mv: Move) -> u32 {
    match mv {
        Move::Place { piece, to } => PLACE_ID | (piece.index() * GRID + to.index()) as u32,
        Move::Move { piece, to } => (piece.index() * GRID + to.index()) as u32,
        Move::Pass => PASS_ID,
    }
}

/// The bit of [`move_id`] that marks a placement, above every history slot.
const PLACE_ID: u32 = 1 << 16;
const PASS_ID: u32 = 1 << 17;
/// The id of no move: [`move_id`] never gives it.
const NO_ID: u32 = u32::MAX;

/// Moves with their ordering keys, handed out best first: the first few by selection (a cut-off often comes
/// before the rest are needed), then the remainder sorted once. Lives on the stack like the move list.
pub(crate) struct Ordered {
    items: SmallVec<[(i32, Move); 256]>,
    next: usize,
    /// Whether the move at `next` is already in its place (a peek put it there).
    ready: bool,
}

impl Ordered {
    /// No moves yet.
    pub fn new() -> Ordered {
        Ordered {
            items: SmallVec::new(),
            next: 0,
            ready: false,
        }
    }

    /// The next move to try and its ordering key.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let next = self.ready_next()?;
        self.ready = false;
        self.next += 1;
        let (key, mv) = self.items[next];
        Some((mv, key))
    }

    /// The move [`Ordered::next`] will hand out next, without taking it.
    #[inline]
    pub fn peek(&mut self) -> Option<Move> {
        let next = self.ready_next()?;
        Some(self.items[next].1)
    }

    /// Where the move to hand out next is, once it is in its place; `None` when every move has been handed out.
    #[inline]
    fn ready_next(&mut self) -> Option<usize> {
        let next = self.next;
        if next >= self.items.len() {
            return None;
        }
        if !self.ready {
            self.bring_forward(next);
            self.ready = true;
        }
        Some(next)
    }

    /// Put the move to hand out at `next` there: the first few by selection (a cut-off often comes before the rest
    /// are needed), then the remainder sorted once.
    #[inline]
    fn bring_forward(&mut self, next: usize) {
        if next < PICK_LAZILY {
            let mut best = next;
            for i in next + 1..self.items.len() {
                if self.items[i].0 > self.items[best].0 {
                    best = i;
                }
            }
            self.items.swap(next, best);
        } else if next == PICK_LAZILY {
            // Deterministic (no random pivots), so searches stay reproducible.
            self.items[next..].sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        }
    }
}

/// Whether a move with this ordering key is an ordinary one: not the hash move, a killer or a move that presses a
/// Queen.
#[inline]
pub(crate) fn is_quiet(key: i32) -> bool {
    key < KILLER[1]
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

    /// What a piece other than a Queen adds to the Queens' neighbourhoods by arriving at `to`: a neighbour when it
    /// fills an empty cell next to a Queen, two when it climbs onto her.
    #[inline]
    fn arriving(&self, board: &Board, to: Hex) -> i32 {
        let filled = i32::from(!board.is_occupied(to));
        filled * self.near(to) + self.on(to)
    }

    /// What a piece other than a Queen takes from the Queens' neighbourhoods by leaving `from`: a neighbour when it
    /// empties a cell next to a Queen, two when it climbs off her.
    #[inline]
    fn leaving(&self, board: &Board, from: Hex) -> i32 {
        let vacated = i32::from(board.height(from) == 1);
        vacated * self.near(from) + self.on(from)
    }

    /// For a cell about to be filled: +1 when it is next to the enemy Queen, -1 when next to ours (both, 0).
    #[inline]
    fn near(&self, hex: Hex) -> i32 {
        let next_to = |queen: Option<Hex>| i32::from(queen.is_some_and(|q| hex.is_next_to(q)));
        next_to(self.theirs) - next_to(self.ours)
    }

    /// For a piece about to land on `hex`: 2 when it covers the enemy Queen, -2 when ours.
    #[inline]
    fn on(&self, hex: Hex) -> i32 {
        2 * (i32::from(self.theirs == Some(hex)) - i32::from(self.ours == Some(hex)))
    }

    /// The gain of a move of a Queen (placed, walking, or carried by a Pillbug): her own neighbourhood changes
    /// completely; the other Queen's only if the two are close.
    fn queen_gain(&self, board: &Board, color: Color, from: Option<Hex>, to: Hex) -> i32 {
        let before = from.map_or(0, |f| occupied_around(board, f, None));
        let after = occupied_around(board, to, from);
        let other = if color == self.me { self.theirs } else { self.ours };
        let mut other_change = 0;
        if let Some(q) = other {
            other_change += i32::from(to.is_next_to(q)) - i32::from(from.is_some_and(|f| f.is_next_to(q)));
        }
        let (ours, theirs) = if color == self.me {
            (after - before, other_change)
        } else {
            (other_change, after - before)
        };
        theirs - ours
    }
}

/// Occupied neighbours of `hex`, not counting the cell `vacated` (if any).
fn occupied_around(board: &Board, hex: Hex, vacated: Option<Hex>) -> i32 {
    hex.neighbours()
        .iter()
        .filter(|&&n| board.is_occupied(n) && Some(n) != vacated)
        .count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_move_comes_first_then_pressure_on_the_enemy_queen() {
        // White's Ant can go next to the black Queen.
        let text = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wQ;bG1 bQ-";
        let pos = crate::record::tests::position(text);
        let moves = pos.legal_moves();
        let heuristics = Heuristics::new();
        let last = *moves.last().unwrap();
        let mut ordered = heuristics.order(&pos, &moves, Some(last), 0);
        let mut seen = Vec::new();
        while let Some((mv, key)) = ordered.next() {
            seen.push((mv, key));
        }
        assert_eq!(seen.len(), moves.len(), "every move once");
        assert!(seen.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        assert_eq!(seen[0].0, last);
        let second = seen[1].0;
        assert!(
            seen[1].1 >= QUEEN_PRESSURE + PER_NEIGHBOUR,
            "{}",
            crate::MoveString::from_move(&pos, second)
        );
        let bq = pos.queen_hex(Color::Black).unwrap();
        assert!(second.to().unwrap().neighbours().contains(&bq));
        assert!(!is_quiet(seen[1].1));
        assert!(is_quiet(seen.last().unwrap().1));
    }
}
