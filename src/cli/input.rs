//! The games a command line names (`waggle review`, `waggle draw`, `waggle convert`, and `waggle db add`, which
//! walks them a file at a time): GameStrings, record files in every format Waggle reads (BoardSpace `.sgf`, `.pgn`
//! as Mzinga, hivegame.com and other programs write it, games files of `RESULT<TAB>GAMESTRING` lines as `waggle
//! selfplay` writes them, GameStrings a line), directories of `.pgn` and `.sgf` files, and `-` for standard input.
//! Each game is replayed move by move before any work; one that cannot be read or played is refused with its file,
//! its game, its move and the reason, and the others go on.

use std::io::Read;
use std::path::Path;

use waggle::record::{read_games, read_pgn, read_sgf, GameRecord};
use waggle::{Game, GameState, GameString, Rules};

/// A game to work on, and where it came from.
pub struct Source {
    /// Where it came from, for messages: `game.pgn`, `games.txt, game 3`, `the GameString`.
    pub label: String,
    /// The game's record: its type, its moves in canonical MoveStrings, the state they reach.
    pub record: GameString,
    /// The game replayed.
    pub game: Game,
    /// Its record as a `.pgn` holds it, when it came from a record with tags (a `.pgn` or an `.sgf`): its tags,
    /// comments and result kept.
    pub pgn: Option<GameRecord>,
    /// Whether it was given on the command line as a GameString (it has no name of its own; the review says so).
    #[cfg_attr(not(feature = "review"), allow(dead_code))]
    pub typed: bool,
    /// How the game ended: the record's result when it gives one (a resignation, a clock, an adjudication), else
    /// the end the moves reach; `None` for an unfinished game.
    #[cfg_attr(not(feature = "db"), allow(dead_code))]
    pub result: Option<GameState>,
    /// The file it was read from, if any.
    #[cfg_attr(not(feature = "puzzles"), allow(dead_code))]
    pub file: Option<String>,
}

/// What the arguments gave: the games read, in order, and a message for each game (or file) refused, naming it.
pub struct Input {
    pub sources: Vec<Source>,
    pub refused: Vec<String>,
}

impl Input {
    /// The summary of the reading, for a batch: how many games were read and refused, and why each was.
    pub fn summary(&self) -> String {
        let games = |n: usize| {
            if n == 1 {
                "1 game".to_string()
            } else {
                format!("{n} games")
            }
        };
        let mut text = format!("Read {}, refused {}", games(self.sources.len()), self.refused.len());
        text.push_str(if self.refused.is_empty() { ".\n" } else { ":\n" });
        for refusal in &self.refused {
            text.push_str(&format!("  {refusal}\n"));
        }
        text
    }
}

/// The games of every argument, in order, each one replayed under `rules` and the opening its record shows.
pub fn read_all(arguments: &[String], rules: Rules) -> Input {
    let mut input = Input {
        sources: Vec::new(),
        refused: Vec::new(),
    };
    walk(arguments, rules, &mut input);
    input
}

impl Visitor for Input {
    fn game(&mut self, read: Result<Source, String>) -> bool {
        match read {
            Ok(source) => self.sources.push(source),
            Err(message) => self.refused.push(message),
        }
        true
    }
}

/// What hears of the games as [`walk`] reads them, one at a time (so that an archive of tens of thousands of
/// files is never held in memory at once).
pub trait Visitor {
    /// The file `name` is about to be read, its content `bytes`: false passes over it.
    fn file(&mut self, _name: &str, _bytes: &[u8]) -> bool {
        true
    }
    /// A game read and replayed, or why one (or a whole file) was refused, naming it: false stops the walk.
    fn game(&mut self, read: Result<Source, String>) -> bool;
    /// The file `name` has given all its games.
    fn file_done(&mut self, _name: &str) {}
}

/// Read the games of every argument in order, each one replayed under `rules` and the opening its record shows,
/// and hand them to `visitor`; false when the visitor stopped the walk.
pub fn walk(arguments: &[String], rules: Rules, visitor: &mut impl Visitor) -> bool {
    for argument in arguments {
        if !walk_argument(argument, rules, visitor) {
            return false;
        }
    }
    true
}

/// The games one argument names, handed to `visitor`: false when it stopped the walk.
fn walk_argument(argument: &str, rules: Rules, visitor: &mut impl Visitor) -> bool {
    let path = Path::new(argument);
    if argument != "-" && path.is_dir() {
        let mut files = Vec::new();
        if let Err(e) = records_in(path, &mut files) {
            return visitor.game(Err(format!("{argument}: the directory cannot be read: {e}")));
        }
        if files.is_empty() {
            return visitor.game(Err(format!("{argument}: the directory holds no .pgn or .sgf file")));
        }
        files.sort();
        return files
            .iter()
            .all(|file| walk_file(&file.display().to_string(), rules, visitor));
    }
    if argument != "-" && path.exists() {
        return walk_file(argument, rules, visitor);
    }
    hand_over(read_argument(argument), rules, visitor)
}

/// The games of the file `name`, handed to `visitor`: false when it stopped the walk.
fn walk_file(name: &str, rules: Rules, visitor: &mut impl Visitor) -> bool {
    let bytes = match std::fs::read(name) {
        Ok(bytes) => bytes,
        Err(e) => return visitor.game(Err(format!("{name}: the file cannot be read: {e}"))),
    };
    if !visitor.file(name, &bytes) {
        return true;
    }
    if !hand_over(from_text(name, &text_of(bytes), Some(name)), rules, visitor) {
        return false;
    }
    visitor.file_done(name);
    true
}

/// `games` replayed, in order, each handed to `visitor` (names and messages on one line whatever the file
/// holds): false when it stopped the walk.
fn hand_over(games: Vec<Result<Parsed, String>>, rules: Rules, visitor: &mut impl Visitor) -> bool {
    games.into_iter().all(|read| {
        visitor.game(match read.and_then(|parsed| parsed.replay(rules)) {
            Ok(source) => Ok(Source {
                label: one_line(&source.label),
                ..source
            }),
            Err(message) => Err(one_line(&message)),
        })
    })
}

/// A game read from its text, not yet replayed.
struct Parsed {
    label: String,
    record: GameString,
    pgn: Option<GameRecord>,
    typed: bool,
    file: Option<String>,
    /// Whether the record's state is its result (a `.pgn`'s or an `.sgf`'s, a games file's), which a resignation,
    /// a clock or an adjudication may have decided before the moves did; a GameString's state must be what its
    /// moves give.
    state_is_result: bool,
}

impl Parsed {
    /// The game replayed, or why it cannot be.
    fn replay(self, rules: Rules) -> Result<Source, String> {
        let opening = self.record.opening();
        let replayed = if self.state_is_result {
            Game::from_moves_with(&self.record, rules, opening)
        } else {
            Game::from_record_with(&self.record, rules, opening)
        };
        let game = replayed.map_err(|e| format!("{}: {e}", self.label))?;
        let said = self
            .record
            .state
            .filter(|state| self.state_is_result && state.is_over());
        let result = said.or(Some(game.state()).filter(|state| state.is_over()));
        let mut pgn = self.pgn;
        if let Some(pgn) = pgn.as_mut() {
            // The moves in canonical form; a result the record left to the moves is theirs.
            pgn.record.moves = game.record().to_vec();
            if pgn.result().is_none() && game.state().is_over() {
                pgn.record.state = Some(game.state());
            }
        }
        Ok(Source {
            label: self.label,
            record: game.game_string(),
            game,
            pgn,
            typed: self.typed,
            result,
            file: self.file,
        })
    }
}

/// The games of an argument that names no file or directory: standard input (`-`) or a GameString.
fn read_argument(argument: &str) -> Vec<Result<Parsed, String>> {
    if argument == "-" {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            return vec![Err(format!("standard input cannot be read: {e}"))];
        }
        return from_text("standard input", &text_of(bytes), None);
    }
    vec![match argument.parse::<GameString>() {
        Ok(record) => Ok(Parsed {
            label: format!("the GameString '{}'", abbreviated(argument)),
            record,
            pgn: None,
            typed: true,
            file: None,
            state_is_result: false,
        }),
        Err(reason) if argument.contains(';') => Err(format!("the GameString '{argument}': {reason}")),
        Err(_) => Err(format!(
            "{argument}: no such file (nor a GameString such as 'Base+MLP;InProgress;White[2];wS1;bS1 wS1-')"
        )),
    }]
}

/// The `.pgn` and `.sgf` files in `directory` and the directories within it (an archive keeps a folder a month),
/// added to `files`; links to directories are not followed, so that no loop is walked for ever.
fn records_in(directory: &Path, files: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(directory)? {
        let Ok(entry) = entry else { continue };
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            // A folder that cannot be read is passed over; its records are not named on the command line.
            let _ = records_in(&path, files);
        } else if path.is_file()
            && path
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("pgn") || ext.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// `text`, cut after its first 40 characters (with `…`) when longer: a GameString named in a heading or a message.
fn abbreviated(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// `text` on one line, its line breaks and other control characters made spaces, for a heading or a message.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A file's bytes as text: UTF-8, or else Latin-1 (BoardSpace's older records name players in it), byte for
/// character, so that no record is refused for its encoding alone.
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().into_iter().map(char::from).collect())
}

/// Whether `line` is a numbered move (`1. wS1`), as a `.pgn` without tags starts.
fn numbered_move(line: &str) -> bool {
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < line.len() && rest.starts_with('.')
}

/// The games of `text`, read from `label` (the file `file`, if it is one): a BoardSpace record when it opens with
/// `(`, a `.pgn` record when its first line is a tag or a numbered move, a games file when its lines hold tabs, otherwise one
/// GameString a line.
fn from_text(label: &str, text: &str, file: Option<&str>) -> Vec<Result<Parsed, String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = || {
        text.lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
    };
    let Some((_, first)) = lines().next() else {
        return vec![Err(format!("{label}: empty: there is no game in it"))];
    };
    let name = |index: usize, count: usize| {
        if count == 1 {
            label.to_string()
        } else {
            format!("{label}, game {}", index + 1)
        }
    };
    if first.starts_with('(') {
        return vec![read_sgf(text, file)
            .map(|game| Parsed {
                label: label.to_string(),
                record: game.record.clone(),
                pgn: Some(game),
                typed: false,
                file: file.map(String::from),
                state_is_result: true,
            })
            .map_err(|e| format!("{label}: {e}"))];
    }
    if first.starts_with('[') || numbered_move(first) {
        let games = match read_pgn(text) {
            Ok(games) => games,
            Err(e) => return vec![Err(format!("{label}: {e}"))],
        };
        let count = games.len();
        return games
            .into_iter()
            .enumerate()
            .map(|(index, game)| {
                Ok(Parsed {
                    label: name(index, count),
                    record: game.record.clone(),
                    pgn: Some(game),
                    typed: false,
                    file: file.map(String::from),
                    state_is_result: true,
                })
            })
            .collect();
    }
    if lines().any(|(_, line)| line.contains('\t')) {
        let records = match read_games(text.as_bytes()) {
            Ok(records) => records,
            Err(e) => return vec![Err(format!("{label}: {e}"))],
        };
        let count = records.len();
        return records
            .into_iter()
            .enumerate()
            .map(|(index, game)| {
                let mut record = game.game;
                record.state = Some(game.result);
                Ok(Parsed {
                    label: name(index, count),
                    record,
                    pgn: None,
                    typed: false,
                    file: file.map(String::from),
                    state_is_result: true,
                })
            })
            .collect();
    }
    let count = lines().count();
    lines()
        .enumerate()
        .map(|(index, (number, line))| {
            let record = line
                .parse::<GameString>()
                .map_err(|e| format!("{label}, line {number}: {e}"))?;
            Ok(Parsed {
                label: name(index, count),
                record,
                pgn: None,
                typed: false,
                file: file.map(String::from),
                state_is_result: false,
            })
        })
        .collect()
}
