//! The engine every front end drives: a game, a searcher and the options, behind calls that return typed results
//! and typed errors. The UHP session, the arena, the JSON API and the terminal game differ only in how they read
//! requests and write answers; what a request does is decided here, once.
//!
//! Owns the rules of the session (a game must exist and be in progress to move or search, options take effect
//! here); not text formatting, and never any output.

mod level;
mod options;
#[cfg(any(feature = "tune", feature = "datagen"))]
pub(crate) mod selfplay;

pub use level::Level;
pub(crate) use options::cores;

/// The most nodes a search of level `level` visits; `None` at full strength.
#[cfg(feature = "puzzles")]
pub(crate) fn level_nodes(level: Level) -> Option<u64> {
    level::strength(level).nodes
}
pub use options::{
    EngineOption, Evaluation, HashSize, HelperThreads, NetFile, OptionError, OptionValue, Options, Ponder,
};

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::book::Book;
use crate::failure::panic_message;
use crate::record::game::{Game, UndoError};
use crate::record::notation::{GameString, GameStringError, MoveString};
use crate::rules::legality::IllegalMove;
use crate::rules::moves::Move;
use crate::rules::position::{GameState, Opening, Position, Rules};
use crate::search::{Limits, Progress, Report, Searcher, Stopper, TableTooBig, WIN};

/// Why the engine cannot do what it was asked. The texts are for people; front ends add their own hints (which
/// command to try next).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineError {
    /// Nothing to play or search: no game was started.
    #[error("No game in progress.")]
    NoGame,
    /// The game has ended: no move or search.
    #[error("The game is over ({0}).")]
    GameOver(GameState),
    /// A GameString that could not be loaded (the game stays as it was).
    #[error(transparent)]
    Load(#[from] GameStringError),
    /// A move the rules forbid here.
    #[error(transparent)]
    Move(#[from] IllegalMove),
    /// More moves to take back than were played.
    #[error(transparent)]
    Undo(#[from] UndoError),
    /// An option or value that does not exist.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The table the options ask for does not fit in memory (at start-up).
    #[error(transparent)]
    Memory(#[from] TableTooBig),
    /// Waggle panicked doing what it was asked: a bug. The game is as it was before, and the engine can go on.
    #[error(
        "Waggle failed {during} ({message}); the game is unchanged. This is a bug in Waggle: please report it with \
         the position {game}"
    )]
    Failed {
        /// What it was doing: `searching`, `playing the move`, …
        during: &'static str,
        /// What the panic said.
        message: String,
        /// The GameString of the game it was asked about (empty before the first game).
        game: String,
    },
    /// A new table size did not fit; the old table stays.
    #[error("{refused}; the table stays at {kept_mb} MB.")]
    Table {
        /// The size refused, and why.
        refused: TableTooBig,
        /// The size of the table kept.
        kept_mb: usize,
    },
}

/// A search result with its moves named in the position searched.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The search's own report.
    pub report: Report,
    /// The best move.
    pub best: MoveString,
    /// The principal variation, starting with the best move.
    pub pv: Vec<MoveString>,
}

/// How a search is going, its lines named: reported after each completed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// The best line, then the next best ones of an analysis.
    pub lines: Vec<Thought>,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Nodes per second so far, over every thread.
    pub nodes_per_second: u64,
    /// How full the transposition table is, in thousandths.
    pub table_permille: u32,
}

/// A game, a searcher and the options.
pub struct Engine {
    game: Option<Game>,
    searcher: Searcher,
    options: Options,
    /// The random moves of the lowest levels and of the reference player.
    rng: StdRng,
}

impl Engine {
    /// An engine with `options` and no game yet; an error when the table the options ask for does not fit in
    /// memory.
    pub fn new(options: Options) -> Result<Engine, TableTooBig> {
        let mut searcher = Searcher::new(options.max_hash_size.mb())?;
        searcher.set_helper_threads(options.max_helper_threads.count());
        searcher.set_net(options.net());
        Ok(Engine {
            game: None,
            searcher,
            options,
            rng: StdRng::from_entropy(),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game, if one was started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Evaluate with `weights` (a set per game type) from now on.
    pub fn set_weights(&mut self, weights: crate::eval::WeightSets) {
        self.searcher.set_weights(weights);
    }

    /// A handle that stops this engine's searches from another thread.
    pub fn stopper(&self) -> Stopper {
        self.searcher.stopper()
    }

    /// The rules new games are played under, from the options.
    pub fn rules(&self) -> Rules {
        Rules {
            threefold_draw: self.options.threefold_repetition_draw,
        }
    }

    /// How new games open, from the options: under the tournament rule unless `TournamentOpening` is off.
    pub fn opening(&self) -> Opening {
        if self.options.tournament_opening {
            Opening::Tournament
        } else {
            Opening::Free
        }
    }

    /// Start the game `record` describes: a new game for a bare game type (`"Base+MLP".parse()`), otherwise every
    /// move replayed and checked, under the rules and the opening of the options. On error the previous game stays.
    pub fn new_game(&mut self, record: &GameString) -> Result<&Game, EngineError> {
        self.new_game_with(record, self.opening())
    }

    /// [`Engine::new_game`], opening as `opening` says whatever the options: for the record of a game read from a
    /// file, whose opening the record shows ([`GameString::opening`]).
    pub fn new_game_with(&mut self, record: &GameString, opening: Opening) -> Result<&Game, EngineError> {
        self.guarded("starting the game", |engine| {
            let game = Game::from_record_with(record, engine.rules(), opening)?;
            engine.searcher.clear();
            engine.game = Some(game);
            Ok(())
        })?;
        self.game.as_ref().ok_or(EngineError::NoGame)
    }

    /// Take up `game`, already replayed (as a server replays the game a request carries, once, to check it):
    /// the game is not replayed again. What the engine learnt before is forgotten. The game keeps the rules it was
    /// replayed under.
    pub fn set_game(&mut self, game: Game) {
        self.searcher.clear();
        self.game = Some(game);
    }

    /// Think about `position`, set up from a description of its board rather than reached by moves (as the JSON
    /// API's requests give it): a game without a record of moves. What the engine learnt before is forgotten.
    pub fn set_up(&mut self, position: Position) {
        self.searcher.clear();
        self.game = Some(Game::from_position(position));
    }

    /// The game, which must be in progress.
    fn game_in_progress(&self) -> Result<&Game, EngineError> {
        in_progress(self.game.as_ref())
    }

    /// Play the move `name` names here (any MoveString that resolves to a legal move, not only the canonical one;
    /// `pass` when nothing else is legal).
    pub fn play(&mut self, name: MoveString) -> Result<&Game, EngineError> {
        self.game_in_progress()?;
        self.guarded("playing the move", |engine| {
            let game = engine.game.as_mut().ok_or(EngineError::NoGame)?;
            let mv = name.to_move(game.position())?;
            game.play(mv)?;
            Ok(())
        })?;
        self.game.as_ref().ok_or(EngineError::NoGame)
    }

    /// Every legal move in canonical form: `pass` alone when nothing else is legal.
    pub fn valid_moves(&self) -> Result<Vec<MoveString>, EngineError> {
        let game = self.game_in_progress()?;
        panic::catch_unwind(|| game.legal_moves().into_iter().map(|mv| game.move_string(mv)).collect())
            .map_err(|panic| failure("listing the moves", panic.as_ref(), Some(game)))
    }

    /// Do `change`, which may change the game; should it panic (a bug), the game is put back as it was before and
    /// the panic becomes [`EngineError::Failed`], so that the engine goes on.
    fn guarded(
        &mut self,
        during: &'static str,
        change: impl FnOnce(&mut Engine) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let before = self.game.clone();
        panic::catch_unwind(AssertUnwindSafe(|| change(self))).unwrap_or_else(|panic| {
            let error = failure(during, panic.as_ref(), before.as_ref());
            self.game = before;
            Err(error)
        })
    }

    /// The best move of the current position: the opening book's when the OpeningBook option is on and the book
    /// has the position (a report of depth 0, score 0 and no nodes, at once), otherwise a search within `limits`,
    /// of which `on_iteration` hears each completed depth.
    ///
    /// Below full strength (the Level option) the search's nodes are capped, and at the lowest levels a random
    /// legal move is played now and then (a report of depth 0); a move that wins at once is always played (a
    /// report of depth 1).
    pub fn best_move(
        &mut self,
        limits: &Limits,
        on_iteration: impl FnMut(&SearchInfo),
    ) -> Result<Thought, EngineError> {
        let strength = level::strength(self.options.level);
        if self.options.reference_player || self.options.level < Level::FULL {
            if let Some(thought) = self.weak_move(strength.random_share)? {
                return Ok(thought);
            }
        }
        let capped;
        let limits = match strength.nodes {
            Some(cap) => {
                capped = Limits {
                    nodes: Some(limits.nodes.map_or(cap, |nodes| nodes.min(cap))),
                    ..*limits
                };
                &capped
            }
            None => limits,
        };
        let game = self.game_in_progress()?;
        if self.options.opening_book {
            if let Some(mv) = Book::builtin().choose(game.position()) {
                let report = Report {
                    depth: 0,
                    score: 0,
                    best: mv,
                    pv: vec![mv],
                    nodes: 0,
                    seldepth: 0,
                };
                return Ok(name(game, &report));
            }
        }
        let mut lines = self.analyze(1, limits, on_iteration)?;
        Ok(lines.remove(0))
    }

    /// The move of a weakened level or of the reference player when it does not search: a win at once if there is
    /// one, else a random legal move with the chance `random_share` (always for the reference player).
    fn weak_move(&mut self, random_share: f64) -> Result<Option<Thought>, EngineError> {
        let game = in_progress(self.game.as_ref())?;
        let position = game.position();
        let (mv, score, depth) = if let Some(mv) = position.clone().winning_move() {
            (mv, WIN - 1, 1)
        } else if self.options.reference_player || self.rng.gen_bool(random_share.clamp(0.0, 1.0)) {
            match level::random_move(position, &mut self.rng) {
                Some(mv) => (mv, 0, 0),
                None => return Ok(None),
            }
        } else {
            return Ok(None);
        };
        let report = Report {
            depth,
            score,
            best: mv,
            pv: vec![mv],
            nodes: 0,
            seldepth: depth,
        };
        Ok(Some(name(game, &report)))
    }

    /// The `count` best moves of the current position (fewer when there are fewer legal moves), best first, each
    /// with its score and principal variation; `on_iteration` hears of each completed depth.
    pub fn analyze(
        &mut self,
        count: usize,
        limits: &Limits,
        mut on_iteration: impl FnMut(&SearchInfo),
    ) -> Result<Vec<Thought>, EngineError> {
        let game = in_progress(self.game.as_ref())?;
        let searcher = &mut self.searcher;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            searcher.analyze(game.position(), limits, count, |progress: &Progress| {
                on_iteration(&SearchInfo {
                    lines: progress.lines.iter().map(|r| name(game, r)).collect(),
                    elapsed: progress.elapsed,
                    nodes_per_second: progress.nodes_per_second(),
                    table_permille: progress.table_permille,
                })
            })
        }));
        let lines = searched.map_err(|panic| {
            self.searcher.recover();
            failure("searching", panic.as_ref(), Some(game))
        })?;
        if lines.is_empty() {
            return Err(EngineError::GameOver(game.state()));
        }
        Ok(lines.iter().map(|r| name(game, r)).collect())
    }

    /// Think on the current position (after `expected`, the move the opponent is expected to answer, if given
    /// and legal) until stopped, with the threads the PonderDuringIdle option allows; what is learnt stays in the
    /// table. Returns at once when pondering is disabled or the game is not in progress.
    pub fn ponder(&mut self, expected: Option<Move>) {
        let Ok(game) = in_progress(self.game.as_ref()) else {
            return;
        };
        let helpers = match self.options.ponder_during_idle {
            Ponder::Disabled => return,
            Ponder::SingleThreaded => 0,
            Ponder::MultiThreaded => self.options.max_helper_threads.count(),
        };
        let mut position = game.position().clone();
        if let Some(mv) = expected {
            if position.play(mv).is_err() || position.state().is_over() {
                return;
            }
        }
        let threads = self.searcher.helper_threads();
        self.searcher.set_helper_threads(helpers);
        let searcher = &mut self.searcher;
        // Pondering has nobody to report to: a panic is only recovered from (the panic hook has told stderr).
        if panic::catch_unwind(AssertUnwindSafe(|| {
            searcher.search(&position, &Limits::infinite(), |_| {})
        }))
        .is_err()
        {
            self.searcher.recover();
        }
        self.searcher.set_helper_threads(threads);
    }

    /// Take back the last `n` moves.
    pub fn undo(&mut self, n: usize) -> Result<&Game, EngineError> {
        self.guarded("taking back moves", |engine| {
            engine.game.as_mut().ok_or(EngineError::NoGame)?.undo(n)?;
            Ok(())
        })?;
        self.game.as_ref().ok_or(EngineError::NoGame)
    }

    /// Set an option to `value`. A new table size that the machine cannot give is refused (the old table stays); a
    /// new repetition rule applies to the game in progress at once, by replaying it; a new opening rule applies
    /// from the next game, the game in progress keeping the opening it was started with.
    pub fn set_option(&mut self, value: OptionValue) -> Result<(), EngineError> {
        self.set_options(self.options.with(value))
    }

    /// Put every option as `options` has it, as [`Engine::set_option`] puts one: so that an engine that serves one
    /// request after another (a server's) starts each with the options that request asked for, and nothing one
    /// asked for (a level) carries over to the next. A table size the machine cannot give is refused, and then
    /// nothing changes.
    pub fn set_options(&mut self, options: Options) -> Result<(), EngineError> {
        if options == self.options {
            return Ok(());
        }
        if options.max_hash_size != self.options.max_hash_size {
            self.searcher
                .resize_table(options.max_hash_size.mb())
                .map_err(|refused| EngineError::Table {
                    refused,
                    kept_mb: self.options.max_hash_size.mb(),
                })?;
        }
        self.searcher.set_helper_threads(options.max_helper_threads.count());
        let net = options.net();
        if net.as_ref().map(|n| n.hash()) != self.searcher.net().map(|n| n.hash()) {
            self.searcher.set_net(net);
        }
        self.options = options;
        let rules = self.rules();
        if let Some(game) = self.game.as_mut() {
            if game.position().rules() != rules {
                *game = game.with_rules(rules);
            }
        }
        Ok(())
    }
}

/// `report` with its moves named in `game`.
fn name(game: &Game, report: &Report) -> Thought {
    Thought {
        best: game.move_string(report.best),
        pv: game.line(&report.pv),
        report: report.clone(),
    }
}

/// The error for a panic while `during`, about `game`.
fn failure(during: &'static str, panic: &(dyn Any + Send), game: Option<&Game>) -> EngineError {
    EngineError::Failed {
        during,
        message: panic_message(panic),
        game: game.map(|g| g.game_string().to_string()).unwrap_or_default(),
    }
}

/// `game`, which must exist and be in progress.
fn in_progress(game: Option<&Game>) -> Result<&Game, EngineError> {
    let game = game.ok_or(EngineError::NoGame)?;
    match game.state() {
        state if state.is_over() => Err(EngineError::GameOver(state)),
        _ => Ok(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> MoveString {
        text.parse().unwrap()
    }

    fn record(text: &str) -> GameString {
        text.parse().unwrap()
    }

    #[test]
    fn a_game_runs_through_the_engine() {
        let mut engine = Engine::new(Options::default()).unwrap();
        assert_eq!(engine.play(mv("wS1")).err(), Some(EngineError::NoGame));
        engine.new_game(&record("Base+MLP")).unwrap();
        engine.play(mv("wS1")).unwrap();
        assert!(matches!(engine.play(mv("bQ wS1-")), Err(EngineError::Move(_))));
        // Six cells around wS1, seven kinds of bug (not the Queen on the first turn).
        assert_eq!(engine.valid_moves().unwrap().len(), 6 * 7);
        let thought = engine.best_move(&Limits::depth(2), |_| {}).unwrap();
        assert_eq!(thought.pv.first(), Some(&thought.best));
        let game = engine.play(thought.best).unwrap();
        assert_eq!(game.record().len(), 2);
        assert!(engine.undo(3).is_err());
        assert_eq!(engine.undo(2).unwrap().record().len(), 0);
    }

    #[test]
    fn a_finished_game_refuses_moves_and_searches() {
        let mut engine = Engine::new(Options::default()).unwrap();
        let won = "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;\
                   wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\";
        assert_eq!(engine.new_game(&record(won)).unwrap().state(), GameState::BlackWins);
        let over = EngineError::GameOver(GameState::BlackWins);
        assert_eq!(engine.valid_moves(), Err(over.clone()));
        assert_eq!(engine.best_move(&Limits::depth(1), |_| {}).err(), Some(over.clone()));
        assert_eq!(engine.play(mv("pass")).err(), Some(over));
        assert!(engine.undo(1).is_ok());
    }

    #[test]
    fn the_opening_book_answers_at_once_unless_switched_off() {
        let mut engine = Engine::new(Options::default()).unwrap();
        engine.new_game(&record("Base+MLP")).unwrap();
        let booked = engine.best_move(&Limits::depth(3), |_| {}).unwrap();
        assert_eq!((booked.report.nodes, booked.report.depth), (0, 0));
        let position = engine.game().unwrap().position();
        assert_eq!(Some(booked.report.best), Book::builtin().choose(position));
        engine.set_option(OptionValue::OpeningBook(false)).unwrap();
        let searched = engine.best_move(&Limits::depth(3), |_| {}).unwrap();
        assert!(searched.report.nodes > 0);
        assert_eq!(searched.report.depth, 3);
        // Black's reply comes from the book too, whatever White opened with.
        engine.set_option(OptionValue::OpeningBook(true)).unwrap();
        engine.play(searched.best).unwrap();
        assert_eq!(engine.best_move(&Limits::depth(3), |_| {}).unwrap().report.nodes, 0);
        // Past the book's plies the engine searches.
        let reply = engine.best_move(&Limits::depth(1), |_| {}).unwrap();
        engine.play(reply.best).unwrap();
        assert!(engine.best_move(&Limits::depth(1), |_| {}).unwrap().report.nodes > 0);
    }

    #[test]
    fn the_repetition_rule_replays_the_game() {
        let mut engine = Engine::new(Options::default()).unwrap();
        engine
            .new_game(&record("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"))
            .unwrap();
        // The position after the first `wQ \wS1` comes back after the fifth and the ninth of these moves.
        for text in ["wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-"]
            .repeat(2)
            .into_iter()
            .chain(["wQ \\wS1"])
        {
            engine.play(mv(text)).unwrap();
        }
        assert_eq!(engine.game().unwrap().state(), GameState::InProgress);
        engine.set_option(OptionValue::ThreefoldRepetitionDraw(true)).unwrap();
        assert_eq!(engine.game().unwrap().state(), GameState::Draw);
        engine.set_option(OptionValue::ThreefoldRepetitionDraw(false)).unwrap();
        assert_eq!(engine.game().unwrap().state(), GameState::InProgress);
        assert_eq!(engine.game().unwrap().position().repetitions(), 3);
    }

    /// A change to the game that panics half-way (here once the move is played) is undone: the game is put back
    /// and the panic becomes an error that names the position; the engine goes on.
    #[test]
    fn a_panic_while_changing_the_game_leaves_it_as_it_was() {
        let mut engine = Engine::new(Options::default()).unwrap();
        engine.new_game(&record("Base+MLP;InProgress;Black[1];wS1")).unwrap();
        let failed = engine
            .guarded("playing the move", |engine| {
                let game = engine.game.as_mut().ok_or(EngineError::NoGame)?;
                game.play(mv("bS1 wS1-").to_move(game.position())?)?;
                panic!("a fault made on purpose");
            })
            .expect_err("the panic");
        assert_eq!(
            failed.to_string(),
            "Waggle failed playing the move (a fault made on purpose); the game is unchanged. This is a bug in \
             Waggle: please report it with the position Base+MLP;InProgress;Black[1];wS1"
        );
        assert_eq!(engine.game().unwrap().record().len(), 1, "the move is taken back");
        assert_eq!(engine.play(mv("bS1 wS1-")).unwrap().record().len(), 2);
    }

    /// A search that panics on its main thread (here in the caller's own report of a depth), with or without
    /// helper threads beside it, is an error that names the position: the game is as it was, and the engine
    /// searches again.
    #[test]
    fn a_search_that_panics_is_an_error_and_the_engine_goes_on() {
        let game = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
        for helpers in [HelperThreads::None, HelperThreads::helpers(1)] {
            let mut engine = Engine::new(Options {
                max_helper_threads: helpers,
                ..Options::default()
            })
            .unwrap();
            engine.new_game(&record(game)).unwrap();
            let failed = engine
                .best_move(&Limits::depth(20), |_| panic!("a fault made on purpose"))
                .expect_err("the panic");
            assert_eq!(
                failed.to_string(),
                format!(
                    "Waggle failed searching (a fault made on purpose); the game is unchanged. This is a bug in \
                     Waggle: please report it with the position {game}"
                ),
                "{helpers:?}"
            );
            assert_eq!(engine.game().unwrap().game_string().to_string(), game);
            assert!(!engine.stopper().is_searching(), "{helpers:?}");
            let thought = engine.best_move(&Limits::depth(2), |_| {}).unwrap();
            assert_eq!(thought.report.depth, 2, "{helpers:?}");
        }
    }
}
