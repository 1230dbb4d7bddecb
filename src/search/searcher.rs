//! The reusable searcher: the shared table, the evaluation weights, the main thread's memory and that of any
//! helper threads (a shared-table parallel search, "Lazy SMP": every thread searches the same root, helpers a
//! depth apart, and they help each other through the table and by putting off the moves another thread is on,
//! `busy`).
//!
//! Owns the search's life: table size and clearing, threads, and the flags a front end sees through the
//! [`Stopper`]. With no helper threads a search is reproducible: the same limits (without a time) from the same
//! table give the same move and node count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::busy::{Busy, Split};
use super::deepening::{deepen, help, Shared, Worker};
use super::limits::Limits;
use super::threads::side_by_side;
use super::time::Deadline;
use super::tt::{Table, TableTooBig};
use super::{Control, Progress, Report, Stopper};
use crate::eval::{Evaluator, Network, WeightSets};
use crate::rules::moves::MoveList;
use crate::rules::position::Position;

/// A reusable searcher.
pub struct Searcher {
    table_mb: usize,
    table: Arc<Table>,
    control: Arc<Control>,
    worker: Worker,
    /// The helper threads' memory, one per helper; made when first needed.
    helpers: Vec<Worker>,
    /// How many helper threads a search starts.
    helper_threads: usize,
    weights: WeightSets,
    /// The network, when it evaluates instead of the weights.
    net: Option<Arc<Network>>,
    /// Whether the table may hold anything (a search ran since it was last cleared).
    dirty: bool,
    /// How far recent timed searches ran past their deadlines: the latest, or three quarters of the one before
    /// when that is more. A busy machine makes searches late; the next ones keep a wider margin.
    late: Duration,
}

impl Searcher {
    /// A searcher with a transposition table of `table_mb` megabytes, no helper threads and the default
    /// evaluation weights; an error when the machine cannot give that memory.
    pub fn new(table_mb: usize) -> Result<Searcher, TableTooBig> {
        Ok(Searcher {
            table_mb,
            table: Arc::new(Table::new(table_mb)?),
            control: Arc::default(),
            worker: Worker::new(),
            helpers: Vec::new(),
            helper_threads: 0,
            weights: WeightSets::default(),
            net: None,
            dirty: false,
            late: Duration::ZERO,
        })
    }

    /// Give the table a new size (and clear it). When the memory is not there, the searcher keeps its table as it
    /// was and answers with the error: the new table is made before the old one is let go.
    pub fn resize_table(&mut self, table_mb: usize) -> Result<(), TableTooBig> {
        if table_mb == self.table_mb {
            self.clear();
            return Ok(());
        }
        self.table = Arc::new(Table::new(table_mb)?);
        if self.helper_threads > 0 {
            self.table.use_huge_pages();
        }
        self.table_mb = table_mb;
        self.dirty = false;
        Ok(())
    }

    /// Search with `helpers` helper threads beside the main one from now on (0: one thread, reproducible).
    pub fn set_helper_threads(&mut self, helpers: usize) {
        self.helper_threads = helpers;
        if helpers > 0 {
            self.table.use_huge_pages();
        }
    }

    /// How many helper threads a search starts.
    pub fn helper_threads(&self) -> usize {
        self.helper_threads
    }

    /// A handle that stops this searcher's searches from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.control.clone())
    }

    /// Search with other evaluation weights from now on (the table is cleared: its scores were made with the
    /// old ones).
    pub fn set_weights(&mut self, weights: WeightSets) {
        self.weights = weights;
        self.clear();
    }

    /// Evaluate with `net` from now on, or with the weights when `None` (the table is cleared).
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.clear();
    }

    /// The network that evaluates, if the weights do not.
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {
        // Only a search in progress shares the table, and none does once `search` has returned.
        if let (true, Some(table)) = (self.dirty, Arc::get_mut(&mut self.table)) {
            table.clear();
            self.dirty = false;
        }
        self.worker.heuristics.clear();
    }

    /// Make the searcher whole again after a search panicked (the panic caught by the caller): the flags down,
    /// the table and every thread's memory cleared, since a panic may have left any of them half-written.
    pub fn recover(&mut self) {
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.searching.store(false, Ordering::SeqCst);
        // The search's threads were all joined before its panic reached the caller: the table is ours again.
        if let Some(table) = Arc::get_mut(&mut self.table) {
            table.clear();
        }
        self.worker = Worker::new();
        self.helpers.clear();
        self.dirty = false;
    }

    /// Search `pos` within `limits`, calling `on_iteration` after each completed depth. Returns `None` only when
    /// the game is over (no legal move). The searcher works on its own copy of the position.
    ///
    /// With a depth or a node limit (and no time) and no helper threads, nothing depends on the clock, so the
    /// same search from the same table gives the same move and node count. With a time, iterations continue
    /// until the next one is unlikely to finish, and the one in progress is abandoned at the deadline; a move
    /// that an abandoned iteration had already proved better than the previous best is returned (with the depth
    /// of the last completed iteration). Depth 0, or a stop before the first iteration, gives the move
    /// ordering's first choice.
    pub fn search(&mut self, pos: &Position, limits: &Limits, on_iteration: impl FnMut(&Progress)) -> Option<Report> {
        self.analyze(pos, limits, 1, on_iteration).into_iter().next()
    }

    /// Search for the `count` best moves of `pos` (fewer when there are fewer legal moves), each with its score
    /// and principal variation, best first; empty when the game is over. Otherwise as [`Searcher::search`].
    pub fn analyze(
        &mut self,
        pos: &Position,
        limits: &Limits,
        count: usize,
        mut on_iteration: impl FnMut(&Progress),
    ) -> Vec<Report> {
        let control = self.control.clone();
        control.searching.store(true, Ordering::SeqCst);
        let lines = self.run(pos, limits, count, &control.stop, &mut on_iteration);
        control.stop.store(false, Ordering::SeqCst);
        control.searching.store(false, Ordering::SeqCst);
        lines
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        count: usize,
        stop: &AtomicBool,
        on_iteration: &mut impl FnMut(&Progress),
    ) -> Vec<Report> {
        if pos.state().is_over() {
            return Vec::new();
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        self.dirty = true;
        self.table.new_search();
        self.worker.heuristics.clear();
        self.worker.evals.clear();
        self.order_root(pos, &mut moves);
        let deadline = Deadline::start(limits, stop, self.late);
        let helpers_run = if limits.depth == Some(0) {
            0
        } else {
            self.helper_threads
        };
        while self.helpers.len() < helpers_run {
            self.helpers.push(Worker::new());
        }
        let all_nodes = AtomicU64::new(0);
        let busy = (helpers_run > 0).then(Busy::new);
        let shared = Shared {
            table: &self.table,
            eval: match &self.net {
                Some(net) => Evaluator::Net(net),
                None => Evaluator::Classic(self.weights.for_game(pos.game_type())),
            },
            nodes: &all_nodes,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            helped: helpers_run > 0,
            busy: busy.as_ref().map(|busy| busy as &dyn Split),
        };
        let (worker, helpers) = (&mut self.worker, &mut self.helpers);
        let helping: Vec<_> = (helpers.iter_mut().take(helpers_run).enumerate())
            .map(|(index, helper)| {
                let (pos, moves, shared) = (pos.clone(), moves.clone(), &shared);
                move |main_done: &AtomicBool| {
                    helper.heuristics.clear();
                    helper.evals.clear();
                    help(
                        helper,
                        pos,
                        moves,
                        index + 1,
                        shared,
                        &Deadline::helper(stop, main_done),
                    );
                }
            })
            .collect();
        let mut lines = side_by_side(stop, helping, || {
            deepen(
                worker,
                (pos.clone(), moves),
                limits,
                count,
                &shared,
                &deadline,
                |lines| {
                    on_iteration(&Progress {
                        lines,
                        elapsed: deadline.elapsed(),
                        table_permille: shared.table.fill_permille(),
                    });
                },
            )
        });
        if deadline.is_timed() {
            self.late = deadline.overrun().max(self.late * 3 / 4);
        }
        // Every helper has stopped and added its nodes.
        let nodes = all_nodes.load(Ordering::Relaxed);
        for line in &mut lines {
            line.nodes = nodes;
        }
        lines
    }

    /// Put the root moves in the order the tree search would try them.
    fn order_root(&self, pos: &Position, moves: &mut MoveList) {
        let hash_move = self.table.probe(pos.hash(), 0).and_then(|hit| hit.best);
        let mut ordered = self.worker.heuristics.order(pos, moves, hash_move, 0);
        let mut i = 0;
        while let Some((mv, _)) = ordered.next() {
            moves[i] = mv;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::record::notation::GameString;
    use crate::rules::position::Rules;

    /// The answers of a thread that finds every move taken by another.
    struct EveryMoveTaken;

    impl Split for EveryMoveTaken {
        fn taken(&self, _: u64) -> bool {
            true
        }

        fn begin(&self, _: u64) {}

        fn end(&self, _: u64) {}
    }

    /// A thread that puts off every move another thread is on searches the moves it put off at the end of the
    /// node, in their order and with their places in it: when every move is taken, that is the same tree as a
    /// search that puts off nothing, node for node.
    #[test]
    fn moves_put_off_are_all_searched_later_in_their_order() {
        let text = include_str!("../../tests/data/positions/selfplay40.txt").trim();
        let game: GameString = text.parse().unwrap();
        let pos = Game::from_record(&game, Rules::default()).unwrap().position().clone();
        let weights = WeightSets::default();
        let limits = Limits::depth(5);
        let search = |split: Option<&dyn Split>| {
            let (table, nodes, stop) = (Table::new(16).unwrap(), AtomicU64::new(0), AtomicBool::new(false));
            let shared = Shared {
                table: &table,
                eval: Evaluator::Classic(weights.for_game(pos.game_type())),
                nodes: &nodes,
                node_limit: u64::MAX,
                helped: false,
                busy: split,
            };
            let deadline = Deadline::start(&limits, &stop, Duration::ZERO);
            let root = (pos.clone(), pos.legal_moves());
            let lines = deepen(&mut Worker::new(), root, &limits, 1, &shared, &deadline, |_| {});
            let report = &lines[0];
            (report.best, report.score, report.nodes, report.pv.clone())
        };
        let put_off = search(Some(&EveryMoveTaken));
        assert!(put_off.2 > 1000, "a search of depth 5: {put_off:?}");
        assert_eq!(put_off, search(None));
    }
}
