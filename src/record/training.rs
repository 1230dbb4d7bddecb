//! Training positions: a position with the search's score of it and how its game ended, in a fixed 64-byte
//! record, as `waggle datagen` writes them and the network's trainer reads them. Files are bare records one after
//! another (no header), so that the files of several machines are joined with `cat`; every record carries a tag
//! and the format's version, so that a foreign or damaged file is refused, not learnt from.
//!
//! The layout (little-endian; docs/eval.md has it as a table):
//!
//! | bytes | what |
//! |---|---|
//! | 0–55 | each of the 28 pieces (White's Queen, Spiders, Beetles, Grasshoppers, Ants, Mosquito, Ladybug, Pillbug, then Black's) as a `u16`: 0 when it is not on the board, else its cell's index on Waggle's 32 × 32 grid (bits 0–9) and its height in its stack, 1 on the ground (bits 10–12) |
//! | 56 | the game type (bit 0 Mosquito, 1 Ladybug, 2 Pillbug), the side to move (bit 3: Black), the result (bits 4–5: 0 Black won, 1 a draw, 2 White won, 3 unfinished), the repetition rule (bit 6) |
//! | 57 | the piece that moved last turn and may not move now, as its index + 1; 0 for none |
//! | 58–59 | the search's score, `i16`, from the side to move's point of view (wins are ±30,000 less the plies to them) |
//! | 60–61 | the plies played before the position, `u16` |
//! | 62 | the tag `W` |
//! | 63 | the format's version, 1 |
//!
//! Owns the record both ways. Playing the games is `crate::train`'s; turning a position into a network's inputs
//! is `crate::eval`'s.

use crate::rules::board::Board;
use crate::rules::game_type::GameType;
use crate::rules::hex::{Hex, GRID};
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::{GameState, Position, Rules};

/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 64;

/// The tag every record carries (byte 62).
const TAG: u8 = b'W';

/// The format's version (byte 63).
const VERSION: u8 = 1;

/// How a game ended, as a record keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Black won.
    BlackWon,
    /// A draw (both Queens surrounded, or a repetition under that rule).
    Draw,
    /// White won.
    WhiteWon,
    /// The game was stopped before it ended (a ply limit): only the score says anything.
    Unfinished,
}

impl Outcome {
    /// The outcome of a game that stands at `state` once it is over or stopped.
    pub fn of(state: GameState) -> Outcome {
        match state {
            GameState::WhiteWins => Outcome::WhiteWon,
            GameState::BlackWins => Outcome::BlackWon,
            GameState::Draw => Outcome::Draw,
            GameState::NotStarted | GameState::InProgress => Outcome::Unfinished,
        }
    }

    /// The result for `color`: 1 won, ½ drawn, 0 lost; `None` for an unfinished game.
    pub fn for_color(self, color: Color) -> Option<f32> {
        match (self, color) {
            (Outcome::Unfinished, _) => None,
            (Outcome::Draw, _) => Some(0.5),
            (Outcome::WhiteWon, Color::White) | (Outcome::BlackWon, Color::Black) => Some(1.0),
            (Outcome::WhiteWon, Color::Black) | (Outcome::BlackWon, Color::White) => Some(0.0),
        }
    }

    fn code(self) -> u8 {
        match self {
            Outcome::BlackWon => 0,
            Outcome::Draw => 1,
            Outcome::WhiteWon => 2,
            Outcome::Unfinished => 3,
        }
    }

    fn from_code(code: u8) -> Outcome {
        match code & 3 {
            0 => Outcome::BlackWon,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWon,
            _ => Outcome::Unfinished,
        }
    }
}

/// A piece on the board as a record keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The piece.
    pub piece: Piece,
    /// Its cell.
    pub hex: Hex,
    /// Its height in its stack: 1 on the ground.
    pub height: u8,
}

/// One training position: where each piece stands, whose turn it is, and the labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The game type.
    pub game_type: GameType,
    /// Whose turn it is.
    pub to_move: Color,
    /// The piece that moved last turn, if it may matter.
    pub stunned: Option<Piece>,
    /// Whether a third repetition draws.
    pub rules: Rules,
    /// Plies played before this position.
    pub ply: u16,
    /// The search's score, from the side to move's point of view.
    pub score: i16,
    /// How the game ended.
    pub outcome: Outcome,
    /// Each piece's place, by piece index; `None` in hand (or not in the game).
    pub places: [Option<(Hex, u8)>; Piece::COUNT],
}

/// Bytes that are not a training record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainingError {
    /// The tag or the version is not this format's.
    #[error("not a Waggle training record (tag {tag:#04x}, version {version}; expected tag 0x57 'W', version 1)")]
    Foreign {
        /// Byte 62.
        tag: u8,
        /// Byte 63.
        version: u8,
    },
    /// A file whose size is not a whole number of records: cut short, or not such a file.
    #[error("{0} bytes is not a whole number of 64-byte records (the file is cut short or of another format)")]
    Truncated(u64),
    /// A piece says it stands where no piece can.
    #[error("the {piece} stands at height {height}, where it cannot: {why}")]
    Misplaced {
        /// The piece, as a MoveString names it.
        piece: String,
        /// Its height.
        height: u8,
        /// Why not.
        why: &'static str,
    },
    /// A bit the format keeps unused is set.
    #[error("a bit the format keeps unused is set (byte 56, bit 7)")]
    Reserved,
    /// The piece stunned is not on the board.
    #[error("the piece said to have moved last turn ({0}) is not on the board")]
    Stunned(String),
}

impl TrainingPosition {
    /// The record of `pos`, scored `score` by a search (clamped to an `i16`), from a game that ended as `outcome`.
    pub fn of(pos: &Position, score: i32, outcome: Outcome) -> TrainingPosition {
        let board = pos.board();
        let mut places = [None; Piece::COUNT];
        for piece in board.on_board().iter() {
            let hex = board.hex_of_unchecked(piece);
            let above = board.stack(hex).take_while(|&p| p != piece).count() as u8;
            places[piece.index()] = Some((hex, board.height(hex) - above));
        }
        TrainingPosition {
            game_type: pos.game_type(),
            to_move: pos.to_move(),
            stunned: pos.stunned(),
            rules: pos.rules(),
            ply: pos.ply().min(u16::MAX as usize) as u16,
            score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            outcome,
            places,
        }
    }

    /// The pieces on the board.
    pub fn placed(&self) -> impl Iterator<Item = Placed> + '_ {
        self.places.iter().enumerate().filter_map(|(i, place)| {
            place.map(|(hex, height)| Placed {
                piece: Piece::from_index(i),
                hex,
                height,
            })
        })
    }

    /// The 64 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut bytes = [0; RECORD_SIZE];
        for (i, place) in self.places.iter().enumerate() {
            let word = place.map_or(0, |(hex, height)| hex.index() as u16 | u16::from(height) << 10);
            bytes[2 * i..2 * i + 2].copy_from_slice(&word.to_le_bytes());
        }
        let game_type = self.game_type;
        bytes[56] = u8::from(game_type.includes(Bug::Mosquito))
            | u8::from(game_type.includes(Bug::Ladybug)) << 1
            | u8::from(game_type.includes(Bug::Pillbug)) << 2
            | u8::from(self.to_move == Color::Black) << 3
            | self.outcome.code() << 4
            | u8::from(self.rules.threefold_draw) << 6;
        bytes[57] = self.stunned.map_or(0, |p| p.index() as u8 + 1);
        bytes[58..60].copy_from_slice(&self.score.to_le_bytes());
        bytes[60..62].copy_from_slice(&self.ply.to_le_bytes());
        bytes[62] = TAG;
        bytes[63] = VERSION;
        bytes
    }

    /// The record in `bytes`, checked: its tag and version, and pieces that stand where pieces can (in the game,
    /// on a cell of the grid, only climbers above the ground, stacks without gaps).
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<TrainingPosition, TrainingError> {
        if bytes[62] != TAG || bytes[63] != VERSION {
            return Err(TrainingError::Foreign {
                tag: bytes[62],
                version: bytes[63],
            });
        }
        let flags = bytes[56];
        if flags & 0x80 != 0 {
            return Err(TrainingError::Reserved);
        }
        let game_type = GameType::new(flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
        let mut places = [None; Piece::COUNT];
        let mut heights = vec![0u8; GRID];
        let mut count = vec![0u8; GRID];
        for (i, place) in places.iter_mut().enumerate() {
            let word = u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
            if word == 0 {
                continue;
            }
            let piece = Piece::from_index(i);
            let (index, height) = (usize::from(word & 0x3ff), (word >> 10) as u8);
            let misplaced = |why| TrainingError::Misplaced {
                piece: piece.to_string(),
                height,
                why,
            };
            if word >> 13 != 0 || height == 0 {
                return Err(misplaced("the record's bits for it are not a place"));
            }
            if !game_type.includes(piece.bug()) {
                return Err(misplaced("its bug is not in the game"));
            }
            if height > 1 && !matches!(piece.bug(), Bug::Beetle | Bug::Mosquito) {
                return Err(misplaced("only Beetles and Mosquitoes climb"));
            }
            heights[index] = heights[index].max(height);
            count[index] += 1;
            *place = Some((Hex::from_index(index), height));
        }
        if let Some(piece) = (0..Piece::COUNT)
            .map(Piece::from_index)
            .find(|p| places[p.index()].is_some_and(|(hex, _)| count[hex.index()] != heights[hex.index()]))
        {
            let (_, height) = places[piece.index()].unwrap_or((Hex::ORIGIN, 0));
            return Err(TrainingError::Misplaced {
                piece: piece.to_string(),
                height,
                why: "its stack has a gap or two pieces at one height",
            });
        }
        let stunned = match bytes[57] {
            0 => None,
            n if usize::from(n) <= Piece::COUNT && places[usize::from(n) - 1].is_some() => {
                Some(Piece::from_index(usize::from(n) - 1))
            }
            n if usize::from(n) <= Piece::COUNT => {
                return Err(TrainingError::Stunned(
                    Piece::from_index(usize::from(n) - 1).to_string(),
                ))
            }
            n => return Err(TrainingError::Stunned(format!("piece number {n}"))),
        };
        Ok(TrainingPosition {
            game_type,
            to_move: if flags & 8 != 0 { Color::Black } else { Color::White },
            stunned,
            rules: Rules {
                threefold_draw: flags & 64 != 0,
            },
            ply: u16::from_le_bytes([bytes[60], bytes[61]]),
            score: i16::from_le_bytes([bytes[58], bytes[59]]),
            outcome: Outcome::from_code(flags >> 4),
            places,
        })
    }

    /// The position itself, for checking a record against the game it came from (its history is not kept: the
    /// repetition count starts afresh).
    pub fn position(&self) -> Position {
        let mut board = Board::default();
        let mut placed: Vec<Placed> = self.placed().collect();
        placed.sort_by_key(|p| p.height);
        for p in &placed {
            board.push(p.piece, p.hex);
        }
        let in_game = Piece::all()
            .filter(|p| self.game_type.includes(p.bug()))
            .fold(0, |mask, p| mask | 1 << p.index());
        let mut pos = Position::with_rules(self.game_type, self.rules);
        pos.set_up(board, in_game, self.to_move, self.stunned, usize::from(self.ply));
        pos
    }

    /// The search's score and the game's result of this position blended into one target for the side to move,
    /// between 0 and 1: `(1 − lambda)` of the score's win chance through `win_chance` and `lambda` of the result;
    /// an unfinished game's position has its score's chance alone.
    pub fn target(&self, lambda: f32, win_chance: impl Fn(i32) -> f32) -> f32 {
        let chance = win_chance(i32::from(self.score));
        match self.outcome.for_color(self.to_move) {
            Some(result) => (1.0 - lambda) * chance + lambda * result,
            None => chance,
        }
    }
}

/// Check that a file of `len` bytes holds whole records, and say how many.
pub fn records_in(len: u64) -> Result<u64, TrainingError> {
    if !len.is_multiple_of(RECORD_SIZE as u64) {
        return Err(TrainingError::Truncated(len));
    }
    Ok(len / RECORD_SIZE as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_position_of_random_games_comes_back_from_its_bytes() {
        let mut rng = StdRng::seed_from_u64(64);
        let mut checked = 0;
        for game in 0..120 {
            let game_type = GameType::ALL[game % GameType::ALL.len()];
            let rules = Rules {
                threefold_draw: game % 2 == 0,
            };
            let mut pos = Position::with_rules(game_type, rules);
            for _ in 0..rng.gen_range(10..160) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.state().is_over() {
                    break;
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                let score = rng.gen_range(-31_000..31_000);
                let outcome = [Outcome::BlackWon, Outcome::Draw, Outcome::WhiteWon, Outcome::Unfinished][game % 4];
                let record = TrainingPosition::of(&pos, score, outcome);
                let back = TrainingPosition::from_bytes(&record.to_bytes()).unwrap();
                assert_eq!(back, record);
                let again = back.position();
                assert_eq!(again.hash(), pos.hash(), "game {game} ply {}", pos.ply());
                assert_eq!(again.to_move(), pos.to_move());
                assert_eq!(again.stunned(), pos.stunned());
                assert_eq!(again.legal_moves().len(), pos.legal_moves().len());
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn foreign_and_impossible_records_are_refused() {
        let mut pos = Position::new(GameType::BASE);
        for _ in 0..6 {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[moves.len() / 2]);
        }
        let good = TrainingPosition::of(&pos, 12, Outcome::Draw).to_bytes();
        let mut foreign = good;
        foreign[62] = b'X';
        assert!(matches!(
            TrainingPosition::from_bytes(&foreign),
            Err(TrainingError::Foreign { tag: b'X', .. })
        ));
        // A Mosquito in a Base game.
        let mut mosquito = good;
        mosquito[2 * 11..2 * 11 + 2].copy_from_slice(&(Hex::ORIGIN.index() as u16 | 1 << 10).to_le_bytes());
        let error = TrainingPosition::from_bytes(&mosquito).unwrap_err().to_string();
        assert!(error.contains("not in the game"), "{error}");
        // A Spider above the ground.
        let mut spider = good;
        let word = u16::from_le_bytes([good[2], good[3]]);
        spider[2..4].copy_from_slice(&((word & 0x3ff) | 2 << 10).to_le_bytes());
        let error = TrainingPosition::from_bytes(&spider).unwrap_err().to_string();
        assert!(error.contains("only Beetles"), "{error}");
        assert_eq!(records_in(640), Ok(10));
        assert_eq!(records_in(650), Err(TrainingError::Truncated(650)));
        assert!(TrainingPosition::from_bytes(&[0; RECORD_SIZE]).is_err());
    }

    #[test]
    fn the_target_blends_the_score_s_chance_and_the_result() {
        let mut pos = Position::new(GameType::BASE);
        pos.play_unchecked(pos.legal_moves()[0]);
        // Black to move, White won.
        let record = TrainingPosition::of(&pos, 0, Outcome::WhiteWon);
        let half = |_| 0.5;
        assert!((record.target(0.0, half) - 0.5).abs() < 1e-6);
        assert!((record.target(1.0, half) - 0.0).abs() < 1e-6);
        assert!((record.target(0.5, half) - 0.25).abs() < 1e-6);
        let unfinished = TrainingPosition::of(&pos, 0, Outcome::Unfinished);
        assert!((unfinished.target(1.0, half) - 0.5).abs() < 1e-6);
    }
}
