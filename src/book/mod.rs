//! The opening book: for a few positions of the first plies, the move that self-play games showed to score best,
//! played without a search. Learnt by `waggle book` from `waggle selfplay` games (see `learn`) and kept in
//! `book.txt`, a text file built into the binary; the engine's `OpeningBook` option switches it off.
//!
//! The file has one position a line: `GAMESTRING<TAB>MOVE<TAB>GAMES<TAB>SCORE`, where GAMESTRING names the position
//! (a GameTypeString for the start), MOVE is the book move there, GAMES the games that played a move to the same
//! position as MOVE does and SCORE what they scored for the side to move, after backing up (`learn`). Lines starting
//! with `#` are comments. A position answers for every position it equals up to the symmetries of `key`.
//!
//! Owns the format and the lookup; never prints.

mod key;
mod learn;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub(crate) use key::{key, Key};
pub use learn::{learn, Learnt};

use crate::record::notation::{GameString, MoveString};
use crate::rules::moves::Move;
use crate::rules::position::{Position, Rules};

/// One line of a book: a position and its book move, with the figures it was chosen on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BookLine {
    /// The position, as the moves that lead to it.
    pub position: GameString,
    /// The book move there.
    pub mv: MoveString,
    /// Games through the book move.
    pub games: u32,
    /// What the book move scored for the side to move, from 0 to 1.
    pub score: f64,
}

impl fmt::Display for BookLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\t{}\t{}\t{:.3}", self.position, self.mv, self.games, self.score)
    }
}

/// A line of a book that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("book line {line}: {why}")]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

/// Positions and their book moves, each position by its key and its move by the key of the position it leads
/// to (so that the move is found again in a turned or mirrored position).
#[derive(Clone, Debug, Default)]
pub struct Book {
    moves: HashMap<Key, Key>,
    /// The most plies of any book position: deeper positions are not looked up.
    last_ply: usize,
}

impl Book {
    /// The book in `text` (the format of the module's documentation); every position and move is checked.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (i, line) in text.lines().enumerate() {
            let bad = |why: String| BookError { line: i + 1, why };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [position, mv, games, score] = fields[..] else {
                return Err(bad(format!("expected 4 fields split by tabs, found {}", fields.len())));
            };
            games
                .parse::<u32>()
                .map_err(|_| bad(format!("'{games}' is not a number of games")))?;
            score
                .parse::<f64>()
                .ok()
                .filter(|s| (0.0..=1.0).contains(s))
                .ok_or_else(|| bad(format!("'{score}' is not a score from 0 to 1")))?;
            let game = crate::record::replay(position, Rules::default()).map_err(|e| bad(e.to_string()))?;
            if game.state().is_over() {
                return Err(bad("the game is over".into()));
            }
            let mut after = game.clone();
            after.play_text(mv).map_err(|e| bad(format!("{mv}: {e}")))?;
            book.moves.insert(key(game.position()), key(after.position()));
            book.last_ply = book.last_ply.max(game.position().ply());
        }
        Ok(book)
    }

    /// The book built into Waggle (empty if it did not parse, which a test rules out).
    pub fn builtin() -> &'static Book {
        static BUILTIN: OnceLock<Book> = OnceLock::new();
        BUILTIN.get_or_init(|| Book::parse(include_str!("book.txt")).unwrap_or_default())
    }

    /// How many positions the book answers (up to symmetry).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book move for `position`, if the book has it.
    pub fn choose(&self, position: &Position) -> Option<Move> {
        if self.moves.is_empty() || position.ply() > self.last_ply {
            return None;
        }
        let child = self.moves.get(&key(position))?;
        learn::move_to(position, child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::rules::game_type::GameType;

    #[test]
    fn the_builtin_book_parses_and_answers_its_own_positions() {
        let text = include_str!("book.txt");
        let book = Book::parse(text).unwrap();
        assert_eq!(book.len(), Book::builtin().len());
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (position, mv) = line.split_once('\t').unwrap();
            let game = crate::record::replay(position, Rules::default()).unwrap();
            let chosen = book.choose(game.position()).unwrap();
            assert_eq!(game.move_string(chosen).to_string(), mv.split('\t').next().unwrap());
        }
    }

    #[test]
    fn a_book_answers_in_turned_positions_and_nowhere_else() {
        let book = Book::parse("Base;InProgress;White[2];wG1;bS1 wG1-\twQ -wG1\t10\t0.6\n").unwrap();
        // The same position turned by 120°: the Queen goes opposite the Spider again.
        let turned = crate::record::replay("Base;InProgress;White[2];wG1;bS1 \\wG1", Rules::default()).unwrap();
        let mv = book.choose(turned.position()).unwrap();
        assert_eq!(turned.move_string(mv).to_string(), "wQ wG1\\");
        let other = crate::record::replay("Base;InProgress;White[2];wG1;bA1 wG1-", Rules::default()).unwrap();
        assert_eq!(book.choose(other.position()), None);
        assert_eq!(
            book.choose(Game::new(GameType::BASE, Rules::default()).position()),
            None
        );
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, why) in [
            ("Base\twQ", "4 fields"),
            ("Base\twQ\tmany\t0.5", "number of games"),
            ("Base\twG1\t10\t1.5", "score"),
            ("Base+Q\twG1\t10\t0.5", ""),
            ("Base\twQ\t10\t0.5", "wQ"),
            ("Base\tbG1\t10\t0.5", "bG1"),
        ] {
            let error = Book::parse(&format!("# a comment\n\n{text}\n")).unwrap_err();
            assert_eq!(error.line, 3, "{text}");
            assert!(error.to_string().contains(why), "{text}: {error}");
        }
    }
}
