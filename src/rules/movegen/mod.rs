//! Move generation: every legal move of the side to move, each distinct move once.
//!
//! Placements are produced per bug kind over one shared list of cells; movements per piece, deduplicated by
//! destination (a Mosquito copying several bugs, or a Pillbug carrying a piece where it could also walk, still make
//! one move). The generator is generic over a [`Sink`] so that perft can count moves in bulk without listing them.
//! Nothing here allocates or changes the position: the sets of cells it works in live in [`Scratch`], one per
//! thread, and a walking piece reads the board through a view without itself ([`hive::Without`]).

mod crawl;
mod dests;
mod hive;
mod jump;
mod ladybug;
mod pillbug;
mod pins;
mod placement;
mod regions;
mod sink;
mod step;
mod walk;

use std::cell::RefCell;

use smallvec::SmallVec;

use crate::rules::board::Board;
use crate::rules::hex::{Directions, Hex};
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::piece_set::PieceSet;
use crate::rules::position::{queen, Opening, Position};

use dests::CellSet;
use hive::{slides_from, Tarjan, Without};
use pillbug::Carries;
use pins::PinCache;
pub(crate) use placement::{color_mask, placement_count};
use regions::Regions;
pub(crate) use sink::Sink;
use sink::{CountSink, First, ListSink, Onto};
use walk::{counted_walks, walks};

/// Working memory of the move generator (about 25 KB): kept per thread rather than in each position, so that a
/// position stays small to copy and can be asked for its moves through a shared reference.
#[derive(Default)]
struct Scratch {
    cells: CellSet,
    seen: CellSet,
    tarjan: Tarjan,
    carries: Carries,
    pins: PinCache,
    regions: Regions,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Run `work` with this thread's scratch space. Move generation never calls itself, so the borrow never clashes.
#[inline]
fn with_scratch<R>(work: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|scratch| work(&mut scratch.borrow_mut()))
}

impl Position {
    /// Every legal move, each once: `pass` alone when nothing else is legal, nothing when the game is over.
    pub fn generate_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate(&mut ListSink(list));
    }

    /// Every legal move, as [`Position::generate_moves`] lists them, in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// A legal move that wins the game at once for the side to move, if there is one, without surrounding its own
    /// Queen too. There are two ways: the enemy Queen has five neighbours and the move fills the sixth cell, or
    /// one's Pillbug (or a Mosquito beside a Pillbug) throws the enemy Queen onto a cell whose six neighbours are
    /// taken. Only the moves that could do either are generated, so the search can ask at its leaves; each is
    /// played and taken back, and the position is as it was.
    pub(crate) fn winning_move(&mut self) -> Option<Move> {
        let me = self.to_move();
        let their_queen = self.queen_hex(me.opponent())?;
        let mut moves = MoveList::new();
        let open = !self.board().occupied_around(their_queen);
        let can_move = !self.state().is_over() && self.board.is_on_board(queen(me));
        if let (1, Some(dir), true) = (open.len(), open.first(), can_move) {
            // A piece standing alone next to the Queen leaves a neighbour's cell empty when it moves (or is
            // thrown) into the gap, so it cannot win by it: its walks are not looked at. Nor are placements,
            // since the gap touches the enemy Queen.
            let mut alone_beside = 0u32;
            for hex in their_queen.neighbours() {
                if let (1, Some(piece)) = (self.board.height(hex), self.board.top(hex)) {
                    alone_beside |= 1 << piece.index();
                }
            }
            let gap = their_queen.step(dir);
            let onto = Some((gap, alone_beside));
            // The first move into the gap nearly always wins: the others are looked for only when it does not (it
            // surrounds its own Queen too), and then all of them, so that the move found is the first that wins.
            let mut first = Onto {
                target: gap,
                inner: First(None),
            };
            with_scratch(|scratch| self.generate_movements(me, onto, scratch, &mut first));
            match first.inner.0 {
                Some(mv) if self.wins_by(mv) => return Some(mv),
                Some(_) => {
                    let mut sink = Onto {
                        target: gap,
                        inner: ListSink(&mut moves),
                    };
                    with_scratch(|scratch| self.generate_movements(me, onto, scratch, &mut sink));
                }
                None => {}
            }
        }
        self.queen_throws_onto_surrounded(me, their_queen, &mut moves);
        moves.iter().copied().find(|&mv| self.wins_by(mv))
    }

    /// Whether `mv`, a legal move, wins the game at once for the side to move: the enemy Queen surrounded and
    /// one's own not. Only the cells the move leaves and enters change, so unless a Queen is the one moving, her
    /// neighbours are looked at without playing the move.
    fn wins_by(&mut self, mv: Move) -> bool {
        let (from, to) = match mv {
            Move::Move { piece, .. } if piece.bug() == Bug::Queen => return self.wins_by_playing(mv),
            Move::Move { piece, to } => {
                let from = self.board.hex_of_unchecked(piece);
                // Only a piece standing alone leaves its cell empty.
                ((self.board.height(from) == 1).then_some(from), to)
            }
            Move::Place { to, .. } => (None, to),
            Move::Pass => return false,
        };
        // As `Position::is_surrounded` would find it after the move.
        let surrounded_after = |color: Color| {
            self.queen_hex(color).is_some_and(|queen| {
                let left = from.map_or(Directions::EMPTY, |from| queen.towards(from));
                (self.board.occupied_around(queen) - left) | queen.towards(to) == Directions::ALL
            })
        };
        let me = self.to_move();
        surrounded_after(me.opponent()) && !surrounded_after(me)
    }

    /// [`Position::wins_by`] the long way: `mv` played and taken back.
    fn wins_by_playing(&mut self, mv: Move) -> bool {
        let won = crate::rules::position::GameState::won_by(self.to_move());
        self.play_unchecked(mv);
        let wins = self.state() == won;
        self.undo();
        wins
    }

    /// Add to `out` the legal throws of the enemy Queen (at `their_queen`) by a Pillbug or Mosquito of `me` onto a
    /// cell whose six neighbours are all taken once the Queen has left: a Queen thrown there is surrounded.
    fn queen_throws_onto_surrounded(&self, me: Color, their_queen: Hex, out: &mut MoveList) {
        let board = &self.board;
        if board.height(their_queen) != 1 {
            return;
        }
        // At most the six sides of each of two carriers (a Pillbug and a Mosquito).
        let mut targets: SmallVec<[Hex; 12]> = SmallVec::new();
        for carrier_hex in their_queen.neighbours() {
            let carrier = match board.top(carrier_hex) {
                Some(piece) if piece.color() == me && board.height(carrier_hex) == 1 => piece,
                _ => continue,
            };
            if !matches!(carrier.bug(), Bug::Pillbug | Bug::Mosquito) {
                continue;
            }
            for to in carrier_hex.neighbours() {
                // A cell next to the Queen's own would have that cell empty once the Queen is thrown.
                let closed =
                    !board.is_occupied(to) && !to.is_next_to(their_queen) && board.occupied_around(to).len() == 6;
                if closed && !targets.contains(&to) {
                    targets.push(to);
                }
            }
        }
        let mut onto = MoveList::new();
        for &to in &targets {
            self.generate_moves_onto(to, &mut onto);
            out.extend(
                onto.iter()
                    .copied()
                    .filter(|mv| mv.piece() == Some(queen(me.opponent()))),
            );
        }
    }

    /// The legal moves that end on `target`, as `generate_moves` would list them (never `pass`): only the pieces
    /// that could get there are looked at, so this is much cheaper than listing every move and keeping some.
    pub fn generate_moves_onto(&self, target: Hex, list: &mut MoveList) {
        list.clear();
        if self.state().is_over() {
            return;
        }
        let mut sink = Onto {
            target,
            inner: ListSink(list),
        };
        with_scratch(|scratch| {
            let me = self.to_move();
            // A placement goes on an empty cell that touches nothing of the other side (but for the game's second).
            let touches_other = self.board.touching_bits(me.opponent(), target) != 0;
            if !self.board.is_occupied(target) && (self.ply() < 2 || !touches_other) {
                self.generate_placements(me, scratch, &mut sink);
            }
            if self.board.is_on_board(queen(me)) {
                self.generate_movements(me, Some((target, 0)), scratch, &mut sink);
            }
        })
    }

    /// The number of legal moves, as `generate_moves` would list them, without listing them.
    pub fn count_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate(&mut sink);
        sink.0
    }

    /// The pieces that may not move because the hive would split without them (those standing alone on a cell
    /// whose removal disconnects the hive).
    pub fn pinned(&self) -> PieceSet {
        with_scratch(|scratch| PieceSet::from_bits(self.pinned_with(&mut scratch.tarjan, &mut scratch.pins)))
    }

    /// Whether any piece that `me` might move (its own, or one next to its Pillbug or Mosquito) stands alone with
    /// its neighbours in more than one run: only then can One Hive forbid anything, and the full pass is needed.
    fn pinning_matters(&self, me: Color) -> bool {
        let board = &self.board;
        let suspect = |hex: Hex| board.height(hex) == 1 && hive::may_be_pinned(board, hex);
        let mut own = board.on_board().bits() & color_mask(me);
        while own != 0 {
            let piece = Piece::from_index(own.trailing_zeros() as usize);
            own &= own - 1;
            let hex = board.hex_of_unchecked(piece);
            if suspect(hex) {
                return true;
            }
            let power = matches!(piece.bug(), Bug::Pillbug | Bug::Mosquito) && board.height(hex) == 1;
            if power && hex.neighbours().into_iter().any(suspect) {
                return true;
            }
        }
        false
    }

    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        if self.state().is_over() {
            return;
        }
        with_scratch(|scratch| {
            let me = self.to_move();
            let mut any = self.generate_placements(me, scratch, sink);
            if self.board.is_on_board(queen(me)) {
                any |= self.generate_movements(me, None, scratch, sink);
            }
            if !any {
                sink.pass();
            }
        })
    }

    /// Placements for `me`; returns whether there were any.
    fn generate_placements<S: Sink>(&self, me: Color, scratch: &mut Scratch, sink: &mut S) -> bool {
        // Bugs of a kind enter in number order, so only the first of each kind left in hand can be placed.
        let queen = 1 << queen(me).index();
        let hand = self.pieces_in_hand(me).bits();
        let mut placeable = hand & !((hand << 1) & same_kind_as_previous(me));
        // Each side's own turn number: White plays plies 0, 2, 4 …; Black plies 1, 3, 5 ….
        match self.ply() / 2 + 1 {
            1 if self.opening() == Opening::Tournament => placeable &= !queen,
            4 if hand & queen != 0 => placeable = queen,
            _ => {}
        }
        if placeable == 0 {
            return false;
        }
        let cells = &mut scratch.cells;
        placement::placement_cells(&self.board, me, cells);
        if cells.len() == 0 {
            return false;
        }
        sink.place(placeable, cells.as_slice());
        true
    }

    /// Movements (and Pillbug carries) for `me`, whose Queen is on the board; returns whether there were any.
    /// With `onto`, a target cell and a set of pieces to leave out, only the other pieces that might end there are
    /// looked at (the sink keeps the moves that do).
    #[inline]
    fn generate_movements<S: Sink>(
        &self,
        me: Color,
        onto: Option<(Hex, u32)>,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> bool {
        let (onto, left_out) = match onto {
            Some((target, left_out)) => (Some(target), left_out),
            None => (None, 0),
        };
        let Scratch {
            cells,
            seen,
            carries,
            tarjan,
            pins,
            regions,
        } = scratch;
        if S::COUNTS_ONLY {
            regions.clear();
        }
        // Found when first needed: a search for moves onto one cell often finds no piece that could get there.
        let mut pinned_bits = None;
        let mut pinned = || {
            *pinned_bits.get_or_insert_with(|| {
                if self.pinning_matters(me) {
                    self.pinned_with(tarjan, pins)
                } else {
                    0
                }
            })
        };
        let stunned = self.stunned();
        let board = &self.board;
        let own = board.on_board().bits() & color_mask(me);

        // The Pillbug's power first, from the Pillbug and from a Mosquito touching a Pillbug.
        carries.clear();
        let mut bits = own;
        while bits != 0 {
            let piece = Piece::from_index(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            if Some(piece) == stunned || !matches!(piece.bug(), Bug::Pillbug | Bug::Mosquito) {
                continue;
            }
            let hex = board.hex_of_unchecked(piece);
            if board.height(hex) != 1 {
                continue;
            }
            if piece.bug() == Bug::Mosquito && !board.touches(hex, Bug::Pillbug) {
                continue;
            }
            // A carried piece lands next to its carrier.
            if onto.is_some_and(|target| !hex.is_next_to(target)) {
                continue;
            }
            pillbug::carries(board, hex, stunned, pinned(), carries);
        }

        let mut any = false;
        let mut bits = own;
        while bits != 0 {
            let piece = Piece::from_index(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            let from = board.hex_of_unchecked(piece);
            if board.top(from) != Some(piece) || Some(piece) == stunned || left_out & (1 << piece.index()) != 0 {
                continue;
            }
            cells.clear();
            for &(carried, to) in carries.as_slice() {
                if carried == piece {
                    cells.insert(to);
                }
            }
            let on_ground = board.height(from) == 1;
            let may_reach = onto.is_none_or(|target| might_reach(board, piece.bug(), from, on_ground, target));
            // Moves counted without being listed, when the sink counts only.
            let mut counted = None;
            if may_reach && !(on_ground && pinned() & (1 << piece.index()) != 0) {
                match piece.bug() {
                    // Steps, slides and jumps only look at the neighbours of `from`: no need to lift the mover.
                    Bug::Beetle => step::beetle_steps(board, from, board.height(from) - 1, cells),
                    _ if !on_ground => step::beetle_steps(board, from, board.height(from) - 1, cells),
                    Bug::Queen | Bug::Pillbug => step::slides(board, from, cells),
                    Bug::Grasshopper => jump::grasshopper(board, from, cells),
                    // Only whether the Ant gets to `target` matters: stop as soon as it does.
                    Bug::Ant if onto.is_some() => {
                        let target = onto.unwrap_or(from);
                        if crawl::ant_reaches(&Without { board, gone: from }, seen, target) {
                            cells.insert(target);
                        }
                    }
                    Bug::Ant | Bug::Mosquito if S::COUNTS_ONLY => {
                        counted = counted_walks(&Without { board, gone: from }, piece.bug(), regions, seen, cells);
                    }
                    bug => walks(&Without { board, gone: from }, bug, seen, cells),
                }
            }
            if let Some(count) = counted {
                if count > 0 {
                    any = true;
                    sink.count(piece, count);
                }
            } else if cells.len() > 0 {
                any = true;
                sink.moves(piece, cells.as_slice());
            }
            if sink.had_enough() {
                return any;
            }
        }

        // Carried pieces of the other side, each destination once.
        let theirs = carries.as_slice();
        for (i, &(piece, _)) in theirs.iter().enumerate() {
            if piece.color() == me
                || left_out & (1 << piece.index()) != 0
                || theirs[..i].iter().any(|&(p, _)| p == piece)
            {
                continue;
            }
            cells.clear();
            for &(carried, to) in &theirs[i..] {
                if carried == piece {
                    cells.insert(to);
                }
            }
            any = true;
            sink.moves(piece, cells.as_slice());
            if sink.had_enough() {
                break;
            }
        }
        any
    }
}

/// Whether a piece of kind `bug` at `from` (on the ground or on top of a stack) might move to `target` by its own
/// movement: a quick test of distance and direction that never says no to a move that exists.
#[inline]
fn might_reach(board: &Board, bug: Bug, from: Hex, on_ground: bool, target: Hex) -> bool {
    if !on_ground {
        return from.is_next_to(target);
    }
    let distance = from.distance(target);
    let in_line = from.in_line_with(target);
    match bug {
        Bug::Queen | Bug::Pillbug | Bug::Beetle => distance == 1,
        Bug::Grasshopper => in_line,
        // The last step of a crawl slides into `target`: from a cell away from the crawler, which changes nothing
        // around `target` when it leaves unless it stands next to it.
        Bug::Spider => distance <= 3 && (distance == 1 || slides_from(board, target) != 0),
        Bug::Ant => distance == 1 || (!board.is_occupied(target) && slides_from(board, target) != 0),
        Bug::Ladybug => distance <= 3,
        // As any bug it touches: an Ant goes anywhere, a Grasshopper along a line, the rest at most three cells.
        Bug::Mosquito => board.touches(from, Bug::Ant) || in_line || distance <= 3,
    }
}

/// Bit `i` set when piece `i` of `color` is the same bug as piece `i - 1` (`wS2` after `wS1`).
#[inline]
fn same_kind_as_previous(color: Color) -> u32 {
    // Slots: Q, S1 S2, B1 B2, G1 G2 G3, A1 A2 A3, M, L, P.
    const SAME: u32 = 1 << 2 | 1 << 4 | 1 << 6 | 1 << 7 | 1 << 9 | 1 << 10;
    SAME << (14 * color.index())
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::position::GameState;

    /// `winning_move` finds a win exactly when some legal move wins, over random playouts of every game type that
    /// often move next to the enemy Queen, so that many positions have a Queen one neighbour from surrounded.
    #[test]
    fn a_win_on_the_spot_is_found_exactly_when_a_move_wins() {
        assert!(wins_checked(25, 0x0057_414e) > 500);
    }

    /// The same over many more playouts (`cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn a_win_on_the_spot_is_found_exactly_when_a_move_wins_long() {
        assert!(wins_checked(2_000, 0x0057_414f) > 20_000);
    }

    /// Play `games` random games of each game type, checking `winning_move` at every position; the number of
    /// positions where the enemy Queen had five neighbours.
    fn wins_checked(games: usize, seed: u64) -> usize {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut near_wins = 0;
        for game in GameType::ALL {
            for _ in 0..games {
                let mut pos = Position::new(game);
                for _ in 0..160 {
                    if pos.state().is_over() {
                        break;
                    }
                    let me = pos.to_move();
                    let won = GameState::won_by(me);
                    let moves = pos.legal_moves();
                    let winners: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            pos.play_unchecked(mv);
                            let wins = pos.state() == won;
                            pos.undo();
                            // The quick judgement agrees, move by move.
                            assert_eq!(pos.wins_by(mv), wins, "{mv:?} in {}", pos.game_string());
                            wins
                        })
                        .collect();
                    let found = pos.winning_move();
                    match found {
                        Some(mv) => assert!(winners.contains(&mv), "{mv:?} does not win in {}", pos.game_string()),
                        None => assert!(winners.is_empty(), "{winners:?} missed in {}", pos.game_string()),
                    }
                    let their_queen = pos.queen_hex(me.opponent());
                    if their_queen.is_some_and(|q| pos.board().occupied_around(q).len() == 5) {
                        near_wins += 1;
                    }
                    // Half the time a move next to the enemy Queen, when there is one (but not a winning one, so
                    // that games go on near a win).
                    let pressing: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|mv| !winners.contains(mv))
                        .filter(|mv| their_queen.zip(mv.to()).is_some_and(|(q, to)| q.is_next_to(to)))
                        .collect();
                    let mv = if !pressing.is_empty() && rng.gen_bool(0.5) {
                        pressing[rng.gen_range(0..pressing.len())]
                    } else {
                        moves[rng.gen_range(0..moves.len())]
                    };
                    pos.play_unchecked(mv);
                }
            }
        }
        near_wins
    }
}
