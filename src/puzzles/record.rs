//! The puzzle record: one JSON object a line (docs/puzzles.md lists the fields), written by the miner and read
//! back by the solvers, the page and the tests. Reading checks what a solver relies on: the game replays to a
//! position in progress with the side to move said, and the solution and every defence replay legally from it. A
//! line that fails is refused with its number and the reason; the others are read.

use serde::{Deserialize, Serialize};

use crate::record::game::Game;
use crate::record::notation::{GameString, GameStringError, MoveString};
use crate::rules::game_type::GameType;
use crate::rules::piece::Color;
use crate::rules::position::Rules;

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Exactly one move forces a win within the plies.
    Win,
    /// Exactly one move escapes a forced loss within the plies.
    Defend,
}

impl Kind {
    /// `win` or `defend`, as the record writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::Defend => "defend",
        }
    }
}

/// Another defence of the opponent's that loses no sooner than the solution's, with the solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// Where it branches off: the index in the solution of the opponent's move it replaces.
    pub ply: usize,
    /// The opponent's move, then the solver's answer and the rest of the forced line after it.
    pub line: Vec<MoveString>,
}

/// Where a puzzle was found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The file, if it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The game, as the miner named it (`club.pgn, game 3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The game's number among the games mined, from 1: puzzles are kept in this order, then by `ply`.
    #[serde(default)]
    pub index: usize,
    /// Moves played before the position.
    pub ply: usize,
    /// White's player, where the record names them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// Black's player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// The date of the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// For a player's own mistake: the move they played instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
}

/// A puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Stable, from the position (the same for its rotations and reflections): 16 hex digits.
    pub id: String,
    /// The game type.
    pub game_type: GameType,
    /// The game up to and including the position, as UHP's `newgame` takes it.
    pub game: GameString,
    /// The side to solve it.
    pub to_move: Color,
    /// What it asks.
    pub kind: Kind,
    /// The length of the forced line: for a win, the plies until the game is won; for a defence, the plies within
    /// which every other move loses.
    pub plies: u32,
    /// The forced line: the solver's moves and the opponent's longest defence (for a defence, the one move).
    pub solution: Vec<MoveString>,
    /// The opponent's other defences that lose no sooner, each with the solver's answer.
    pub defences: Vec<Defence>,
    /// The motifs of the solution (docs/puzzles.md names them).
    pub themes: Vec<String>,
    /// How hard, on the scale of docs/puzzles.md.
    pub rating: u32,
    /// The lowest playing level whose thinking finds the move (11: none within the budget of level 10).
    pub level: u8,
    /// Where it was found.
    pub source: Source,
}

/// The record as it is written: plain strings.
#[derive(Serialize, Deserialize)]
struct Line {
    id: String,
    game_type: String,
    game: String,
    to_move: String,
    kind: Kind,
    plies: u32,
    solution: Vec<String>,
    #[serde(default)]
    defences: Vec<LineDefence>,
    #[serde(default)]
    themes: Vec<String>,
    rating: u32,
    #[serde(default)]
    level: u8,
    #[serde(default)]
    source: Source,
}

#[derive(Serialize, Deserialize)]
struct LineDefence {
    ply: usize,
    line: Vec<String>,
}

/// Why a puzzle record cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// Not the JSON of a puzzle.
    #[error("not a puzzle record: {0}")]
    Json(String),
    /// A field that does not say what it should.
    #[error("the field '{field}' {why}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// A game that does not replay.
    #[error("the game cannot be replayed: {0}")]
    Game(#[from] GameStringError),
    /// A move of the solution or of a defence that cannot be played.
    #[error("{what} move {number} ('{text}') cannot be played: {why}")]
    Line {
        /// `the solution's` or `defence 2's`.
        what: String,
        /// The move, counted from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why.
        why: String,
    },
}

impl Puzzle {
    /// The record as one line of JSON (no line break).
    pub fn to_json_line(&self) -> String {
        let strings = |moves: &[MoveString]| moves.iter().map(ToString::to_string).collect::<Vec<_>>();
        let line = Line {
            id: self.id.clone(),
            game_type: self.game_type.to_string(),
            game: self.game.to_string(),
            to_move: self.to_move.name().to_string(),
            kind: self.kind,
            plies: self.plies,
            solution: strings(&self.solution),
            defences: self
                .defences
                .iter()
                .map(|d| LineDefence {
                    ply: d.ply,
                    line: strings(&d.line),
                })
                .collect(),
            themes: self.themes.clone(),
            rating: self.rating,
            level: self.level,
            source: self.source.clone(),
        };
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// The record as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::from_str(&self.to_json_line()).unwrap_or_default()
    }

    /// The puzzle of one line of JSON, checked ([`Puzzle::start`] replays it).
    pub fn from_json_line(text: &str) -> Result<Puzzle, PuzzleError> {
        let line: Line = serde_json::from_str(text).map_err(|e| PuzzleError::Json(e.to_string()))?;
        Puzzle::from_line(line)
    }

    /// The puzzle of a JSON value, checked.
    pub fn from_json(value: &serde_json::Value) -> Result<Puzzle, PuzzleError> {
        let line: Line = serde_json::from_value(value.clone()).map_err(|e| PuzzleError::Json(e.to_string()))?;
        Puzzle::from_line(line)
    }

    fn from_line(line: Line) -> Result<Puzzle, PuzzleError> {
        let field = |field: &'static str, why: String| PuzzleError::Field { field, why };
        let moves = |field: &'static str, texts: &[String]| {
            texts
                .iter()
                .map(|text| text.parse::<MoveString>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| PuzzleError::Field {
                    field,
                    why: e.to_string(),
                })
        };
        if line.id.is_empty() || line.id.len() > 64 {
            return Err(field("id", "must hold 1 to 64 characters".into()));
        }
        let game_type: GameType = line.game_type.parse().map_err(|e| field("game_type", format!("{e}")))?;
        let game: GameString = line.game.parse().map_err(|e| field("game", format!("{e}")))?;
        let to_move = match line.to_move.as_str() {
            "White" => Color::White,
            "Black" => Color::Black,
            other => return Err(field("to_move", format!("is '{other}': expected White or Black"))),
        };
        if !(1..=crate::search::MAX_DEPTH).contains(&line.plies) {
            return Err(field("plies", format!("is {}: expected 1 to 60", line.plies)));
        }
        if line.solution.is_empty() {
            return Err(field("solution", "is empty: a puzzle needs its answer".into()));
        }
        let puzzle = Puzzle {
            id: line.id,
            game_type,
            game,
            to_move,
            kind: line.kind,
            plies: line.plies,
            solution: moves("solution", &line.solution)?,
            defences: line
                .defences
                .iter()
                .map(|d| {
                    Ok(Defence {
                        ply: d.ply,
                        line: moves("defences", &d.line)?,
                    })
                })
                .collect::<Result<_, PuzzleError>>()?,
            themes: line.themes,
            rating: line.rating,
            level: line.level,
            source: line.source,
        };
        puzzle.start()?;
        Ok(puzzle)
    }

    /// The puzzle's position, replayed from its game (under the default rules and the opening the record shows),
    /// after checking that it is in progress with the solver to move and that the solution and every defence
    /// replay legally from it.
    pub fn start(&self) -> Result<Game, PuzzleError> {
        let game = Game::from_moves_with(&self.game, Rules::default(), self.game.opening())?;
        if game.position().game_type() != self.game_type {
            return Err(PuzzleError::Field {
                field: "game_type",
                why: format!(
                    "says {} but the game is {}",
                    self.game_type,
                    game.position().game_type()
                ),
            });
        }
        if game.state().is_over() {
            return Err(PuzzleError::Field {
                field: "game",
                why: format!("is over ({})", game.state()),
            });
        }
        if game.position().to_move() != self.to_move {
            return Err(PuzzleError::Field {
                field: "to_move",
                why: format!(
                    "says {} but {} is to move",
                    self.to_move.name(),
                    game.position().to_move().name()
                ),
            });
        }
        replay(&game, &[], &self.solution, "the solution's")?;
        for (number, defence) in self.defences.iter().enumerate() {
            let what = format!("defence {}'s", number + 1);
            if defence.ply == 0 || defence.ply >= self.solution.len() || defence.ply % 2 == 0 {
                return Err(PuzzleError::Field {
                    field: "defences",
                    why: format!("{what} ply {} is not an opponent's move of the solution", defence.ply),
                });
            }
            replay(&game, &self.solution[..defence.ply], &defence.line, &what)?;
        }
        Ok(game)
    }
}

/// Play `before` and then `line` from `game`, each move checked; the error names the move of `line` that fails.
fn replay(game: &Game, before: &[MoveString], line: &[MoveString], what: &str) -> Result<Game, PuzzleError> {
    let mut game = game.clone();
    for mv in before {
        let resolved = mv
            .to_move(game.position())
            .map_err(|e| PuzzleError::Json(e.to_string()))?;
        game.play(resolved).map_err(|e| PuzzleError::Json(e.to_string()))?;
    }
    for (index, mv) in line.iter().enumerate() {
        let bad = |why: String| PuzzleError::Line {
            what: what.to_string(),
            number: index + 1,
            text: mv.to_string(),
            why,
        };
        let resolved = mv.to_move(game.position()).map_err(|e| bad(e.to_string()))?;
        game.play(resolved).map_err(|e| bad(e.to_string()))?;
    }
    Ok(game)
}

/// The puzzles of a file's text, and a message for each line refused.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The puzzles, in the file's order.
    pub puzzles: Vec<Puzzle>,
    /// `line 3: …` for each line that is not a puzzle.
    pub refused: Vec<String>,
}

/// Read a puzzle file: one record a line; blank lines and lines starting with `#` are skipped.
pub fn read_puzzles(text: &str) -> Read {
    let mut read = Read::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Puzzle::from_json_line(line) {
            Ok(puzzle) => read.puzzles.push(puzzle),
            Err(e) => read.refused.push(format!("line {}: {e}", index + 1)),
        }
    }
    read
}
