//! Negamax alpha-beta with principal variation search, at the root and below it.
//!
//! Owns one iteration's tree walk: finished games scored by ply, the transposition table's cut-offs and hash move,
//! move ordering by way of `ordering`, the PV, and aborting (stop flag, deadline or node limit) by unwinding with
//! the position restored. Iterative deepening and the report belong to `deepening.rs`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

use crate::eval::{LineEvaluator, MAX_EVAL};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Position};

use super::busy::{Busy, Split, SPLIT_DEPTH};
use super::evals::Evals;
use super::ordering::{is_quiet, Heuristics, Ordered};
use super::pv::PvTable;
use super::time::Deadline;
use super::tt::{Bound, Table};
use super::{MAX_DEPTH, MAX_PLY, WIN};

/// Above any score a search can return.
const INFINITY: i32 = WIN + 1;

/// Look at the clock, and add this thread's nodes to the search's shared count, once per this many nodes (a power
/// of two). The stop flag is looked at every node.
const CLOCK_EVERY: u64 = 256;

/// One search's walk over the tree: the thread's own position copy and memory, and the shared table.
pub(crate) struct Walk<'a> {
    pub pos: &'a mut Position,
    pub table: &'a Table,
    pub heuristics: &'a mut Heuristics,
    pub pv: &'a mut PvTable,
    pub evals: &'a mut Evals,
    /// The evaluation, following the walk's line.
    pub eval: LineEvaluator<'a>,
    pub deadline: &'a Deadline<'a>,
    /// With helper threads: the moves the threads are searching, which the others put off.
    pub busy: Option<&'a dyn Split>,
    /// Stop once this thread has visited this many nodes (exact: a one-thread search's node limit).
    pub node_limit: u64,
    /// The nodes of every thread of the search, as far as each has added its own, and the limit on them.
    pub all_nodes: &'a AtomicU64,
    pub all_nodes_limit: u64,
    /// Nodes visited by this thread (each position searched or evaluated, root included).
    pub nodes: u64,
    /// How many of `nodes` have been added to `all_nodes`.
    pub counted: u64,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// Set when the stop flag, the deadline or the node limit ended the walk: every score after that is
    /// meaningless.
    pub aborted: bool,
}

/// The outcome of one root iteration, complete or interrupted.
pub(crate) struct RootResult {
    /// Index into the root moves of the best move proved so far; `None` when not even the first move finished.
    pub best: Option<usize>,
    pub score: i32,
}

impl Walk<'_> {
    /// Search every root move (in the given order) `depth` plies deep. On abort, the result holds the best move
    /// whose search finished: the first move is the previous iteration's best, so any other move reported beat it
    /// at this depth. `remember` stores the result in the table: not when `moves` leaves out better moves (the
    /// second and later lines of an analysis).
    pub fn root(&mut self, moves: &[Move], depth: u32, remember: bool) -> RootResult {
        self.pv.clear(0);
        self.nodes += 1;
        self.eval.start(self.pos);
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        // With helper threads, the moves after the first that another thread is on wait for the end of the list.
        let hash = self.pos.hash();
        let splitting = self.busy.filter(|_| depth >= SPLIT_DEPTH);
        let mut put_off: Vec<usize> = Vec::new();
        let mut first_pass = true;
        let mut order: Vec<usize> = (0..moves.len()).collect();
        'passes: loop {
            for i in order {
                let mv = moves[i];
                let mark = splitting.map(|busy| (busy, Busy::mark(hash, mv)));
                if let (true, true, Some((busy, mark))) = (first_pass, i > 0, mark) {
                    if busy.taken(mark) {
                        put_off.push(i);
                        continue;
                    }
                }
                if let Some((busy, mark)) = mark {
                    busy.begin(mark);
                }
                self.play(mv);
                let score = if i == 0 {
                    -self.negamax(depth - 1, 1, -beta, -alpha)
                } else {
                    let probe = -self.negamax(depth - 1, 1, -alpha - 1, -alpha);
                    if probe > alpha && !self.aborted {
                        -self.negamax(depth - 1, 1, -beta, -alpha)
                    } else {
                        probe
                    }
                };
                self.undo();
                if let Some((busy, mark)) = mark {
                    busy.end(mark);
                }
                if self.aborted {
                    break 'passes;
                }
                if score > alpha {
                    alpha = score;
                    best = Some(i);
                    self.pv.update(0, mv);
                }
            }
            if !first_pass || put_off.is_empty() {
                break;
            }
            first_pass = false;
            order = std::mem::take(&mut put_off);
        }
        if let (Some(i), false, true) = (best, self.aborted, remember) {
            self.table
                .store(self.pos.hash(), 0, depth, Bound::Exact, alpha, Some(moves[i]));
        }
        RootResult { best, score: alpha }
    }

    /// The value of the position for the side to move, searched `depth` plies deep, within `(alpha, beta)`.
    fn negamax(&mut self, depth: u32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv.clear(ply);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.deadline.stopped()
            || self.nodes > self.node_limit
            || (self.nodes.is_multiple_of(CLOCK_EVERY) && self.checkpoint())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(score) = finished_score(self.pos, ply) {
            return score;
        }
        // Under the repetition rule, a position that came back can be made to come back a third time by the side
        // that repeated it (or forced to by the other): the draw it is. A side ahead looks for progress instead.
        if self.pos.rules().threefold_draw && self.pos.repeated() {
            return 0;
        }
        let hash = self.pos.hash();
        if depth == 0 || ply + 1 >= MAX_PLY {
            return self.leaf(ply, hash);
        }

        // No line from here beats winning with this move, nor is worse than losing by it (a move that surrounds
        // one's own Queen loses at once).
        alpha = alpha.max(-WIN + ply as i32 + 1);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let pv_node = beta - alpha > 1;
        let hit = self.table.probe(hash, ply);
        if let Some(hit) = hit {
            if !pv_node && hit.depth >= depth {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if usable {
                    return hit.score;
                }
            }
        }

        // Near the leaves, a position that stands well above beta even after a margin for what the opponent could
        // do is not searched: unless one's own Queen is one neighbour from being surrounded.
        let mut hopeless = false;
        let mut late_limit = usize::MAX;
        if !pv_node && depth <= FUTILE_DEPTH && beta.abs() < MAX_EVAL && !self.own_queen_in_danger() {
            let standing = self.leaf(ply, hash);
            if standing - FUTILITY_MARGIN * depth as i32 >= beta {
                return standing;
            }
            // One ply from the leaves, far below alpha: only moves that press a Queen (or the hash move and
            // killers) could bring the value back; quiet ones after the first are not tried.
            hopeless = depth == 1 && standing + FRONTIER_MARGIN <= alpha;
            // This close to the leaves, quiet moves that the ordering puts this late are not tried at all.
            late_limit = LATE_MOVES[depth as usize];
        }

        let mut ordered = Ordered::new();
        self.heuristics
            .generate_ordered(self.pos, hit.and_then(|h| h.best), ply, &mut ordered);

        let alpha_in = alpha;
        let mut best = Best {
            score: -INFINITY,
            mv: None,
        };
        // With helper threads, the moves after the first that another thread is on wait for the end of the list.
        let splitting = self.busy.filter(|_| depth >= SPLIT_DEPTH).map(|busy| (busy, hash));
        let mut put_off: Vec<(Move, i32, usize)> = Vec::new();
        let mut cut = false;
        let mut i = 0;
        while let Some((mv, key)) = ordered.next() {
            if ((hopeless && i > 0) || i >= late_limit) && is_quiet(key) {
                i += 1;
                continue;
            }
            // What the search keeps about the position after a move is read at random from memory that the
            // processor's caches rarely hold: the first move's entry is asked for just before it is played; once
            // a move has not cut off, the next one's while this one is searched.
            if i == 0 {
                self.prefetch(mv, depth - 1);
            }
            if i > 0 || depth > 1 {
                if let Some(following) = ordered.peek() {
                    self.prefetch(following, depth - 1);
                }
            }
            if let Some((busy, hash)) = splitting {
                if i > 0 && busy.taken(Busy::mark(hash, mv)) {
                    put_off.push((mv, key, i));
                    i += 1;
                    continue;
                }
            }
            let score = self.search_move(mv, (key, i), (depth, ply, pv_node), (alpha, beta), splitting);
            if self.aborted {
                return 0;
            }
            if self.consider(mv, score, (ply, depth), &mut best, (&mut alpha, beta)) {
                cut = true;
                break;
            }
            i += 1;
        }
        if !cut {
            for (mv, key, i) in put_off {
                let score = self.search_move(mv, (key, i), (depth, ply, pv_node), (alpha, beta), None);
                if self.aborted {
                    return 0;
                }
                if self.consider(mv, score, (ply, depth), &mut best, (&mut alpha, beta)) {
                    break;
                }
            }
        }
        let (best_score, best_move) = (best.score, best.mv);

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(hash, ply, depth, bound, best_score, best_move);
        best_score
    }

    /// The score of `mv`, the `index`-th move (ordering key `key`) of a node `depth` plies deep at `ply`, within
    /// `(alpha, beta)` (at a principal-variation node or not): the first move with the full window, later ones
    /// with a null window first (reduced when late and quiet) and again in full only when they beat alpha. With
    /// `mark`, other threads see the move taken while it is searched.
    #[inline]
    fn search_move(
        &mut self,
        mv: Move,
        (key, index): (i32, usize),
        (depth, ply, pv_node): (u32, usize, bool),
        (alpha, beta): (i32, i32),
        mark: Option<(&dyn Split, u64)>,
    ) -> i32 {
        let mark = mark.map(|(busy, hash)| (busy, Busy::mark(hash, mv)));
        if let Some((busy, mark)) = mark {
            busy.begin(mark);
        }
        let reduction = late_move_reduction(depth, index, key, pv_node);
        self.play(mv);
        let score = if index == 0 {
            -self.negamax(depth - 1, ply + 1, -beta, -alpha)
        } else {
            let mut probe = -self.negamax(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
            if reduction > 0 && probe > alpha && !self.aborted {
                probe = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha);
            }
            if probe > alpha && probe < beta && !self.aborted {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha)
            } else {
                probe
            }
        };
        self.undo();
        if let Some((busy, mark)) = mark {
            busy.end(mark);
        }
        score
    }

    /// Play `mv` on the walk's position (and its evaluation's line).
    #[inline]
    fn play(&mut self, mv: Move) {
        self.eval.play(self.pos, mv);
        self.pos.play_unchecked(mv);
    }

    /// Take the last move back.
    #[inline]
    fn undo(&mut self) {
        self.pos.undo();
        self.eval.undo();
    }

    /// Take `score` of `mv` into the node's best so far, raising alpha (and the principal variation) when it
    /// beats it; true on a cut-off, when the move that caused it is rewarded in the move ordering.
    #[inline]
    fn consider(
        &mut self,
        mv: Move,
        score: i32,
        (ply, depth): (usize, u32),
        best: &mut Best,
        (alpha, beta): (&mut i32, i32),
    ) -> bool {
        if score <= best.score {
            return false;
        }
        best.score = score;
        best.mv = Some(mv);
        if score > *alpha {
            *alpha = score;
            self.pv.update(ply, mv);
            if score >= beta {
                self.heuristics.reward(mv, ply, depth);
                return true;
            }
        }
        false
    }
}

/// A node's best move and score so far.
struct Best {
    score: i32,
    mv: Option<Move>,
}

/// The deepest node whose static value may end its search (reverse futility pruning).
const FUTILE_DEPTH: u32 = 2;
/// How far above beta the static value must stand, per ply of depth left.
const FUTILITY_MARGIN: i32 = 75;

/// How many moves a non-PV node one or two plies from the leaves tries before it skips the quiet ones.
const LATE_MOVES: [usize; FUTILE_DEPTH as usize + 1] = [usize::MAX, 16, 32];

/// How far below alpha the static value must stand, one ply from the leaves, for quiet moves to be skipped.
const FRONTIER_MARGIN: i32 = 100;

/// The value a leaf remembers for "the side to move wins on the spot": the score depends on the ply.
const WINS_NOW: i32 = i32::MAX;

impl Walk<'_> {
    /// Every `CLOCK_EVERY` nodes: add this thread's new nodes to the shared count, and say whether the search
    /// must end (the deadline has passed, or all threads together have used up the node limit). Threads write the
    /// shared count this seldom so that they do not fight over its cache line.
    #[cold]
    fn checkpoint(&mut self) -> bool {
        let all = self.count_nodes();
        all > self.all_nodes_limit || self.deadline.must_stop()
    }

    /// Add the nodes not yet counted to the shared count; the count so far, all threads together.
    pub fn count_nodes(&mut self) -> u64 {
        let new = self.nodes - self.counted;
        self.counted = self.nodes;
        self.all_nodes.fetch_add(new, Ordering::Relaxed) + new
    }

    /// The value of a leaf at `ply` whose position has this hash: a win on the spot, or else the static
    /// evaluation. Remembered by position hash for the rest of the search.
    fn leaf(&mut self, ply: usize, hash: u64) -> i32 {
        let value = match self.evals.get(hash) {
            Some(value) => value,
            None => {
                let value = if self.wins_on_the_spot() {
                    WINS_NOW
                } else {
                    self.static_value()
                };
                self.evals.put(hash, value);
                value
            }
        };
        if value == WINS_NOW {
            WIN - ply as i32 - 1
        } else {
            value
        }
    }

    /// The evaluation of the walk's position.
    #[inline]
    fn static_value(&mut self) -> i32 {
        self.eval.evaluate(self.pos)
    }

    /// Start bringing what the search keeps about the position after `mv` (to be searched `depth` plies deep)
    /// into the processor's cache: its table entry, and its leaf value when it may be asked for (at a leaf, and
    /// by the futility test near the leaves, where a late move's reduction may also bring it).
    #[inline]
    fn prefetch(&self, mv: Move, depth: u32) {
        let hash = self.pos.hash_after(mv);
        if depth > 0 {
            self.table.prefetch(hash);
        }
        if depth <= FUTILE_DEPTH + 1 {
            self.evals.prefetch(hash);
        }
        self.pos.prefetch_cuts_after(mv);
    }

    /// Whether the side to move's Queen has five neighbours: the opponent may end the game with their next move.
    fn own_queen_in_danger(&self) -> bool {
        self.pos
            .queen_hex(self.pos.to_move())
            .is_some_and(|q| self.pos.board().occupied_around(q).len() >= 5)
    }

    /// Whether the side to move has a win on the spot ([`Position::winning_move`]), which the static evaluation
    /// cannot see: in a tense middle game a third of the leaves ask.
    fn wins_on_the_spot(&mut self) -> bool {
        self.pos.winning_move().is_some()
    }
}

/// How many plies less to search the `index`-th move (ordering key `key`) of a node `depth` plies deep: late
/// quiet moves rarely matter, so they get a shallower null-window look first and a full one only if they beat
/// alpha. The later the move and the deeper the node, the bigger the cut (growing with the product of their
/// logarithms), one ply less at PV nodes, and never so much that the move is not searched at least one ply.
/// Moves that press a Queen, the hash move and killers are never reduced, nor anything near the leaves.
#[inline]
fn late_move_reduction(depth: u32, index: usize, key: i32, pv_node: bool) -> u32 {
    if depth < 3 || index < 3 || !is_quiet(key) {
        return 0;
    }
    let scaled = match LMR_TABLE.get(depth as usize).and_then(|row| row.get(index)) {
        Some(&scaled) => u32::from(scaled),
        None => scaled_reduction(depth, index),
    };
    let reduction = scaled.saturating_sub(u32::from(pv_node)).max(1);
    reduction.min(depth - 2)
}

/// The reduction before its bounds: the constant plus the product of the logarithms, rounded down.
fn scaled_reduction(depth: u32, index: usize) -> u32 {
    (LMR_BASE + f64::from(depth).ln() * (index as f64).ln() / LMR_DIVISOR) as u32
}

/// [`scaled_reduction`] for the depths and move indices a search meets, worked out once: two logarithms for every
/// move searched were 0.7 % of the search's cycles.
static LMR_TABLE: LazyLock<Box<[[u8; LMR_INDICES]]>> = LazyLock::new(|| {
    (0..=MAX_DEPTH)
        .map(|depth| std::array::from_fn(|index| scaled_reduction(depth, index).min(u32::from(u8::MAX)) as u8))
        .collect()
});

/// Move indices [`LMR_TABLE`] covers; later moves (a rare node with more) work it out each time.
const LMR_INDICES: usize = 256;

/// The late move reduction's constant part and the divisor of its logarithmic part.
const LMR_BASE: f64 = 0.75;
const LMR_DIVISOR: f64 = 2.25;

/// The score of a finished game for the side to move at `ply`: a loss counts as nearer the further it is, so
/// that the winner prefers the fastest win and the loser the slowest loss.
#[inline]
fn finished_score(pos: &Position, ply: usize) -> Option<i32> {
    let winner = match pos.state() {
        GameState::WhiteWins => Color::White,
        GameState::BlackWins => Color::Black,
        GameState::Draw => return Some(0),
        GameState::NotStarted | GameState::InProgress => return None,
    };
    let win = WIN - ply as i32;
    Some(if winner == pos.to_move() { win } else { -win })
}
