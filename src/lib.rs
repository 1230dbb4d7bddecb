//! Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) that speaks the Universal Hive Protocol, and
//! the library it is built on.
//!
//! A program that embeds Waggle plays a game through an [`Engine`] (a game, a searcher and the options) and gets
//! typed answers and errors:
//!
//! ```
//! use waggle::{Engine, EngineError, GameType, Limits, MoveString, Options};
//!
//! let mut engine = Engine::new(Options::default()).expect("a 64 MB table");
//! engine.new_game(&GameType::MLP.into())?;
//! // Text is read once, into a MoveString (its syntax); the engine finds the move it names (its meaning).
//! let name = |text: &str| text.parse::<MoveString>().expect("a MoveString");
//! engine.play(name("wS1"))?;
//! engine.play(name("bP -wS1"))?; // any MoveString that names the cell is accepted
//! assert!(matches!(engine.play(name("wQ bP")), Err(EngineError::Move(_)))); // and an illegal move refused
//! let thought = engine.best_move(&Limits::depth(2), |_| {})?;
//! let game = engine.play(thought.best)?;
//! assert_eq!(game.record().len(), 3);
//! assert!(game.game_string().to_string().starts_with("Base+MLP;InProgress;Black[2];wS1;bP -wS1;"));
//! # Ok::<(), EngineError>(())
//! ```
//!
//! Notations have a syntax, read without a position ([`MoveString`], [`GameString`]: `FromStr` and `Display`), and
//! a meaning, found against one ([`MoveString::to_move`], [`Game::from_record`]); [`Position`] generates the legal
//! moves, and [`perft`] counts them. A search can also run on a thread of the caller's own and be stopped from
//! outside ([`Searcher`], [`Stopper`]), as pondering or an analysis runs:
//!
//! ```
//! use std::time::Duration;
//! use waggle::{Game, GameType, Limits, Rules, Searcher};
//!
//! let game = Game::new(GameType::MLP, Rules::default());
//! let mut searcher = Searcher::new(16).expect("a 16 MB table");
//! let stopper = searcher.stopper();
//! let position = game.position().clone();
//! let thinking = std::thread::spawn(move || searcher.search(&position, &Limits::infinite(), |_| {}));
//! std::thread::sleep(Duration::from_millis(20));
//! stopper.stop();
//! let report = thinking.join().unwrap().expect("the game is not over");
//! assert!(game.legal_moves().contains(&report.best));
//! ```
//!
//! The layers, from the bottom (docs/architecture.md draws them): the rules (the hex grid, pieces, positions,
//! move generation, [`perft`]); the records (notations, `.pgn` and games files: [`record`], openings); the
//! evaluation and the opening [`book`]; the search; the [`Engine`]; pictures of positions ([`draw`]); and the front
//! ends, each owning its output: the UHP session ([`uhp`]), matches between engines ([`arena`]), the JSON API
//! ([`json`]), the terminal game ([`play`]), the review of a whole game ([`review`]), puzzles found in games and
//! solved ([`puzzles`]), tuning ([`tune`]), learning the network evaluation ([`train`]), the bench ([`mod@bench`])
//! and, with the `db` feature (on by default), the games database and its opening explorer (`db`).

#![warn(missing_docs)]

// The README's example of a program that embeds the engine, compiled and run by `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

#[cfg(feature = "arena")]
pub mod arena;
pub mod bench;
pub mod book;
#[cfg(feature = "db")]
pub mod db;
pub mod draw;
mod engine;
mod eval;
mod failure;
// Shared by the two servers: one without the other leaves some of it unused.
#[cfg(feature = "http")]
#[cfg_attr(not(all(feature = "json", feature = "web")), allow(dead_code, unused_imports))]
mod http;
#[cfg(feature = "json")]
pub mod json;
#[cfg(feature = "play")]
pub mod play;
#[cfg(feature = "puzzles")]
pub mod puzzles;
pub mod record;
#[cfg(feature = "review")]
pub mod review;
mod rules;
mod search;
#[cfg(any(feature = "train", feature = "datagen"))]
pub mod train;
#[cfg(feature = "tune")]
pub mod tune;
pub mod uhp;
#[cfg(feature = "web")]
pub mod web;

pub use engine::{
    Engine, EngineError, EngineOption, Evaluation, HashSize, HelperThreads, Level, NetFile, OptionError, OptionValue,
    Options, Ponder, SearchInfo, Thought,
};
pub use eval::{NetError, Network, WeightSets, Weights, WeightsError};
pub use record::game::{Game, PlayError, UndoError};
pub use record::notation::{GameString, GameStringError, MoveString, NotationError};
pub use rules::board::Board;
pub use rules::ending::{Ending, Surrounded};
pub use rules::game_type::{GameType, GameTypeError, GameTypeFault};
pub use rules::hex::{Direction, Hex};
pub use rules::legality::IllegalMove;
pub use rules::moves::{Move, MoveList};
pub use rules::perft;
pub use rules::piece::{Bug, Color, Piece};
pub use rules::piece_set::PieceSet;
pub use rules::position::{GameState, Opening, Position, Rules};
pub use search::{Clocks, Limits, Report, Searcher, SideClock, Stopper, TableTooBig};
