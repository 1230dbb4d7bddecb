//! The games `waggle review` is given: GameStrings, Mzinga `.pgn` files, games files (`RESULT<TAB>GAMESTRING`
//! lines, as `waggle selfplay` writes them), directories of `.pgn` files (as `waggle match --pgn DIR` writes
//! them), and `-` for standard input; each checked move by move before any search, and each fault named with
//! its file, its game and its move.

use std::io::Read;
use std::path::Path;

use waggle::record::{read_games, read_pgn, PgnGame};
use waggle::{Game, GameString, Rules};

/// A game to review, and where it came from.
pub struct Source {
    /// Where it came from, for messages: `game.pgn`, `games.txt, game 3`, `the GameString`.
    pub label: String,
    /// The game.
    pub record: GameString,
    /// Its `.pgn` record, when it came from one (tags and comments kept for `--pgn`).
    pub pgn: Option<PgnGame>,
    /// Whether it was given on the command line as a GameString (it has no name of its own).
    pub typed: bool,
    /// Whether its state is the game's result (a `.pgn`'s `Result` tag, a games file's result), which a
    /// resignation, a clock or an adjudication may have decided before the moves did; a GameString's state must
    /// be what its moves give.
    pub state_is_result: bool,
}

/// The games of every argument, in order, each one replayed under `rules`; or a message that names the input,
/// the game and the move at fault.
pub fn read_all(arguments: &[String], rules: Rules) -> Result<Vec<Source>, String> {
    let mut sources = Vec::new();
    for argument in arguments {
        // Names and messages are printed on one line whatever the argument holds.
        let read = read_argument(argument).map_err(|message| one_line(&message))?;
        sources.extend(read.into_iter().map(|source| Source {
            label: one_line(&source.label),
            ..source
        }));
    }
    for source in &sources {
        let replay = if source.state_is_result {
            Game::from_moves
        } else {
            Game::from_record
        };
        replay(&source.record, rules).map_err(|e| format!("{}: {e}", source.label))?;
    }
    Ok(sources)
}

/// The games one argument names.
fn read_argument(argument: &str) -> Result<Vec<Source>, String> {
    if argument == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("standard input cannot be read: {e}"))?;
        return from_text("standard input", &text);
    }
    let path = Path::new(argument);
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("{argument}: the directory cannot be read: {e}"))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|file| file.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("pgn")))
            .collect();
        if files.is_empty() {
            return Err(format!("{argument}: the directory holds no .pgn file"));
        }
        files.sort();
        let mut sources = Vec::new();
        for file in files {
            sources.extend(from_file(&file.display().to_string())?);
        }
        return Ok(sources);
    }
    if path.exists() {
        return from_file(argument);
    }
    match argument.parse::<GameString>() {
        Ok(record) => Ok(vec![Source {
            label: format!("the GameString '{}'", abbreviated(argument)),
            record,
            pgn: None,
            typed: true,
            state_is_result: false,
        }]),
        Err(reason) if argument.contains(';') => Err(format!("the GameString '{argument}': {reason}")),
        Err(_) => Err(format!(
            "{argument}: no such file (nor a GameString such as 'Base+MLP;InProgress;White[2];wS1;bS1 wS1-')"
        )),
    }
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

/// The games of the file `name`.
fn from_file(name: &str) -> Result<Vec<Source>, String> {
    let bytes = std::fs::read(name).map_err(|e| format!("{name}: the file cannot be read: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{name}: the file is not text (UTF-8)"))?;
    from_text(name, &text)
}

/// The games of `text`, read from `label`: a `.pgn` record when its first line is a tag, a games file when its
/// lines hold tabs, otherwise one GameString a line.
fn from_text(label: &str, text: &str) -> Result<Vec<Source>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = || {
        text.lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
    };
    let Some((_, first)) = lines().next() else {
        return Err(format!("{label}: empty: there is no game in it"));
    };
    let name = |index: usize, count: usize| {
        if count == 1 {
            label.to_string()
        } else {
            format!("{label}, game {}", index + 1)
        }
    };
    if first.starts_with('[') {
        let games = read_pgn(text).map_err(|e| format!("{label}: {e}"))?;
        let count = games.len();
        return Ok(games
            .into_iter()
            .enumerate()
            .map(|(index, game)| Source {
                label: name(index, count),
                record: game.record.clone(),
                pgn: Some(game),
                typed: false,
                state_is_result: true,
            })
            .collect());
    }
    if lines().any(|(_, line)| line.contains('\t')) {
        let records = read_games(text.as_bytes()).map_err(|e| format!("{label}: {e}"))?;
        let count = records.len();
        return Ok(records
            .into_iter()
            .enumerate()
            .map(|(index, game)| {
                let mut record = game.game;
                record.state = Some(game.result);
                Source {
                    label: name(index, count),
                    record,
                    pgn: None,
                    typed: false,
                    state_is_result: true,
                }
            })
            .collect());
    }
    let count = lines().count();
    lines()
        .enumerate()
        .map(|(index, (number, line))| {
            let record = line
                .parse::<GameString>()
                .map_err(|e| format!("{label}, line {number}: {e}"))?;
            Ok(Source {
                label: name(index, count),
                record,
                pgn: None,
                typed: false,
                state_is_result: false,
            })
        })
        .collect()
}
