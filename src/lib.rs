//! Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) that speaks the Universal Hive Protocol.
//!
//! The layers, from the bottom:
//! - the game core: a bitboard-free hex grid ([`Board`]) inside a [`Position`] that plays and undoes [`Move`]s and
//!   generates every legal move; [`notation`] reads and writes UHP strings; [`perft`] counts move sequences;
//! - a [`Game`]: position, [`Rules`] and the record of its moves ([`GameString`]);
//! - the [`search`] and its [`eval`]uation, and the opening [`book`];
//! - the [`Engine`]: a game, a searcher and the options, with typed results and errors, which every front end
//!   drives; [`uhp`] is the protocol's vocabulary both ways, [`draw`] pictures positions;
//! - the front ends, each owning its output: the UHP session ([`protocol`]), `waggle perft` and `waggle bench`.
//!
//! A game played through the library, as a front end would:
//!
//! ```
//! use waggle::search::Limits;
//! use waggle::{Engine, EngineError, Options};
//!
//! let mut engine = Engine::new(Options::default()).expect("a 64 MB table");
//! engine.new_game(Some("Base+MLP"))?;
//! engine.play("wS1")?;
//! engine.play("bP -wS1")?; // any MoveString that names the cell is accepted
//! assert!(matches!(engine.play("wQ bP"), Err(EngineError::Move(_)))); // and an illegal one refused
//! let thought = engine.best_move(&Limits::depth(2), |_| {})?;
//! let game = engine.play(&thought.best.to_string())?;
//! assert_eq!(game.record().len(), 3);
//! assert!(game.game_string().to_string().starts_with("Base+MLP;InProgress;Black[2];wS1;bP -wS1;"));
//! # Ok::<(), EngineError>(())
//! ```
//!
//! A search on a thread of the caller's own, stopped when the answer is wanted (as pondering or an analysis
//! would be):
//!
//! ```
//! use std::time::Duration;
//! use waggle::search::{Limits, Searcher};
//! use waggle::{Game, GameType, Rules};
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

pub mod arena;
pub mod bench;
pub mod book;
pub mod draw;
pub mod engine;
pub mod eval;
pub mod json;
pub mod play;
pub mod record;
pub mod rules;
pub mod search;
pub mod tune;
pub mod uhp;

pub use engine::{Engine, EngineError, Options};
pub use record::game::{Game, PlayError, UndoError};
pub use record::notation::{move_string, GameString, GameStringError, MoveString, NotationError};
pub use rules::board::Board;
pub use rules::game_type::GameType;
pub use rules::hex::{Direction, Directions, Hex};
pub use rules::legality::IllegalMove;
pub use rules::moves::{Move, MoveList};
pub use rules::piece::{Bug, Color, Piece};
pub use rules::piece_set::PieceSet;
pub use rules::position::{GameState, Position, Rules};
