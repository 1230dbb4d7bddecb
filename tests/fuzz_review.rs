//! Fuzzing `waggle review`: games from tests/data/review, cut short and damaged (bytes changed, pieces swapped,
//! moves dropped or repeated, .pgn lines deleted, braces doubled, junk tags, CRLF, a BOM, huge numbers), garbage
//! and binary files, empty files and directories, thrown at it as arguments, as files, as directories and on
//! standard input, with random flags and tiny budgets (`--nodes 1..50`, `--depth 1..2`).
//!
//! The properties: the process ends (within 60 s), never panics, and exits with 0 or 2; a 2 comes with a message
//! on stderr that starts `waggle review:` and names an input, and either nothing on stdout and no file written (no
//! game could be read) or the games that could be read reviewed, ending with the summary of those refused; a 0
//! prints each game's moves and summary (JSON lines with `--json`: one a move, one summary a game; a batch of
//! several games then the summary of the reading), writes a .pgn that reads back with every move commented and
//! charts that parse; and input that was only cut short (still legal) is never refused.
//!
//! Several cases go to one process where they can (a games file of many games), to keep the run short. The short
//! run is part of `cargo test` (a fixed seed; `WAGGLE_FUZZ_SEED=N` for another); the long one is ignored:
//! `cargo test --release --test fuzz_review -- --ignored --nocapture` (a seed from the clock unless given). A
//! failure prints the run's seed and the batch's seed: `WAGGLE_FUZZ_BATCH=S cargo test --test fuzz_review
//! batch_from_env -- --ignored --nocapture` replays that one batch.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use waggle::record::read_pgn;
use waggle::{Game, GameString, Rules};

use common::{Scratch, Waggle};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review");

/// A process that runs longer than this has hung.
const HANG: Duration = Duration::from_secs(60);

/// The valid games the cases are made from, as GameStrings, and whether each has ended.
fn seeds() -> Vec<String> {
    let mut games = Vec::new();
    for name in ["missed_wins.txt", "games.txt", "wild.txt"] {
        let text = std::fs::read_to_string(format!("{DATA}/{name}")).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            // missed_wins.txt: the game first; games.txt: the game last.
            let game = if name == "games.txt" { fields[1] } else { fields[0] };
            games.push(game.to_string());
        }
    }
    for name in ["a_match_game.pgn", "b_club_game.pgn"] {
        let text = std::fs::read_to_string(format!("{DATA}/pgn/{name}")).unwrap();
        games.push(read_pgn(&text).unwrap()[0].record.to_string());
    }
    games
}

const PIECES: [&str; 28] = [
    "wQ", "wS1", "wS2", "wB1", "wB2", "wG1", "wG2", "wG3", "wA1", "wA2", "wA3", "wM", "wL", "wP", "bQ", "bS1", "bS2",
    "bB1", "bB2", "bG1", "bG2", "bG3", "bA1", "bA2", "bA3", "bM", "bL", "bP",
];
const GAME_TYPES: [&str; 10] = [
    "Base",
    "Base+MLP",
    "Base+M",
    "Base+PLM",
    "base+mlp",
    "Base+X",
    "Base+",
    "Base+MLPP",
    "",
    "Base+MLP+",
];
const JUNK: [&str; 16] = [
    ";", "\t", " ", "\\", "/", "-", "{", "}", "[", "]", "\"", "\n", "\r", "·", "é", "\u{feff}",
];
const HUGE: &str = "99999999999999999999999";

/// A game cut short: its first `n` moves as written, under its game type as written and the state and turn those
/// moves give (a GameString's must; a games file's result and a .pgn's Result tag may still say otherwise).
fn cut(game: &str, rng: &mut StdRng) -> (String, usize) {
    let fields: Vec<&str> = game.split(';').collect();
    let moves = fields.len() - 3;
    let keep = if rng.gen_bool(0.3) {
        moves
    } else {
        rng.gen_range(0..=moves)
    };
    let record: GameString = fields[..3 + keep].join(";").parse().unwrap();
    let replayed = Game::from_moves(&record, Rules::default()).unwrap();
    let pos = replayed.position();
    let header = format!(
        "{};{};{}[{}]",
        fields[0],
        pos.state(),
        pos.to_move().name(),
        pos.turn_number()
    );
    let kept = std::iter::once(header.as_str()).chain(fields[3..3 + keep].iter().copied());
    (kept.collect::<Vec<_>>().join(";"), keep)
}

/// `text` damaged once, in one of many ways.
fn damage(text: &str, rng: &mut StdRng) -> String {
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    let n = fields.len();
    let any_move = |rng: &mut StdRng| if n > 3 { rng.gen_range(3..n) } else { n - 1 };
    match rng.gen_range(0..12) {
        // A character changed, inserted or removed.
        0..=2 => {
            let mut chars: Vec<char> = text.chars().collect();
            let at = rng.gen_range(0..=chars.len());
            let junk: char = if rng.gen_bool(0.5) {
                rng.gen_range(b' '..=b'~') as char
            } else {
                JUNK.choose(rng).unwrap().chars().next().unwrap()
            };
            match rng.gen_range(0..3) {
                0 if at < chars.len() => chars[at] = junk,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, junk),
            }
            return chars.into_iter().collect();
        }
        // A piece swapped for another.
        3 | 4 => {
            let i = any_move(rng);
            let piece = fields[i].split(' ').next().unwrap_or("").to_string();
            if !piece.is_empty() {
                let other = PIECES.choose(rng).unwrap();
                fields[i] = fields[i].replacen(&piece, other, 1);
            }
        }
        // Two moves swapped, one dropped, one repeated.
        5 => {
            let (i, j) = (any_move(rng), any_move(rng));
            fields.swap(i, j);
        }
        6 if n > 3 => {
            fields.remove(any_move(rng));
        }
        7 => {
            let i = any_move(rng);
            let repeated = fields[i].clone();
            fields.insert(i, repeated);
        }
        // Another game type, state or turn.
        8 => fields[0] = GAME_TYPES.choose(rng).unwrap().to_string(),
        9 => {
            fields[1.min(n - 1)] = ["Foo", "WhiteWins", "Draw", "", "NotStarted"]
                .choose(rng)
                .unwrap()
                .to_string()
        }
        10 => fields[rng.gen_range(0..n.min(3))] = format!("White[{HUGE}]"),
        // A huge number, or a pass, or an empty move.
        _ => {
            let i = any_move(rng);
            fields[i] = [
                format!("wA{HUGE}"),
                "pass".into(),
                String::new(),
                format!("{HUGE}. wS1"),
            ]
            .choose(rng)
            .unwrap()
            .clone();
        }
    }
    fields.join(";")
}

/// A .pgn of `count` games cut from `seeds` at random, and the moves of each.
fn pgn_games(count: usize, seeds: &[String], rng: &mut StdRng) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut moves = Vec::new();
    for _ in 0..count {
        let (game, n) = cut(seeds.choose(rng).unwrap(), rng);
        text.push_str(&pgn_of(&game, rng));
        text.push('\n');
        moves.push(n);
    }
    (text, moves)
}

/// A game as a Mzinga .pgn record: tags, numbered moves, comments, the result.
fn pgn_of(game: &str, rng: &mut StdRng) -> String {
    let record: GameString = game.parse().unwrap();
    let mut text = format!("[GameType \"{}\"]\n", record.game_type);
    for (tag, value) in [
        ("Date", "2025.01.02"),
        ("Event", "Fuzz"),
        ("White", "A \\\"x\\\""),
        ("Site", ""),
    ] {
        if rng.gen_bool(0.5) {
            text.push_str(&format!("[{tag} \"{value}\"]\n"));
        }
    }
    // Sometimes a result the moves do not reach, as a resignation or a clock gives.
    let result = if rng.gen_bool(0.2) {
        ["WhiteWins", "BlackWins", "Draw"]
            .choose(rng)
            .map(|name| name.to_string())
    } else {
        record.state.map(|state| state.to_string())
    };
    if let Some(state) = result.filter(|_| rng.gen_bool(0.5)) {
        text.push_str(&format!("[Result \"{state}\"]\n"));
    }
    text.push('\n');
    for (index, mv) in record.moves.iter().enumerate() {
        let space = if rng.gen_bool(0.9) { " " } else { "" };
        text.push_str(&format!("{}.{space}{mv}\n", index + 1));
        if rng.gen_bool(0.15) {
            let comment = ["{a comment}", "{two\nlines}", "{}", "{0.002 s}"].choose(rng).unwrap();
            text.push_str(comment);
            text.push('\n');
        }
    }
    text
}

/// A .pgn damaged once.
fn damage_pgn(text: &str, rng: &mut StdRng) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = rng.gen_range(0..lines.len().max(1));
    match rng.gen_range(0..10) {
        0 if !lines.is_empty() => {
            lines.remove(at);
        }
        1 => lines.insert(at, "{".into()),
        2 => lines.insert(at, "}".into()),
        3 => lines.insert(
            at,
            [
                "[Junk",
                "[Junk \"x\"",
                "[ \"\"]",
                "[GameType \"Base+Q\"]",
                "[Result \"Nobody\"]",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
        ),
        4 => return format!("\u{feff}{}", lines.join("\r\n")).into_bytes(),
        5 => lines.insert(at, format!("{HUGE}. wQ")),
        6 => lines.insert(at, ["WhiteWins", "Draw", "InProgress"].choose(rng).unwrap().to_string()),
        7 => {
            let mut bytes = lines.join("\n").into_bytes();
            bytes.truncate(rng.gen_range(0..=bytes.len()));
            return bytes;
        }
        8 if !lines.is_empty() => {
            let line = damage(&lines[at], rng);
            lines[at] = line;
        }
        _ => {
            let copy = lines.get(at).cloned().unwrap_or_default();
            lines.insert(at, copy);
        }
    }
    lines.join("\n").into_bytes()
}

/// Bytes that are no game at all.
fn garbage(rng: &mut StdRng) -> Vec<u8> {
    match rng.gen_range(0..6) {
        0 => Vec::new(),
        1 => (0..rng.gen_range(1..2000)).map(|_| rng.gen()).collect(),
        2 => vec![0; rng.gen_range(1..100)],
        3 => (0..rng.gen_range(1..300)).map(|_| rng.gen_range(b' '..=b'~')).collect(),
        4 => b"\n\n   \n# only a comment\n\r\n".to_vec(),
        _ => "\u{feff}".repeat(rng.gen_range(1..4)).into_bytes(),
    }
}

/// One process's worth of cases: its arguments, its standard input, and what a success must show.
struct Batch {
    args: Vec<String>,
    stdin: Vec<u8>,
    /// The number of cases (games or inputs) in it.
    cases: usize,
    /// The names an error message may give: the inputs and the output files.
    names: Vec<String>,
    /// When every input is legal: the number of moves of each game, in order; a refusal is then a failure.
    legal: Option<Vec<usize>>,
    json: bool,
    pgn: Option<PathBuf>,
    svg: Option<PathBuf>,
    kind: &'static str,
}

/// The bytes of an input file and its games' moves, if it is only legal games cut short.
fn make_input(rng: &mut StdRng, seeds: &[String]) -> (&'static str, Vec<u8>, usize, Option<Vec<usize>>) {
    let damaged = rng.gen_bool(0.5);
    match rng.gen_range(0..5) {
        // A games file of many games, perhaps one damaged.
        0 | 1 => {
            let count = rng.gen_range(1..=12);
            let mut text = String::new();
            let mut moves = Vec::new();
            let spoilt = damaged.then(|| rng.gen_range(0..count));
            for index in 0..count {
                let (game, n) = cut(seeds.choose(rng).unwrap(), rng);
                let result = ["WhiteWins", "BlackWins", "Draw"].choose(rng).unwrap();
                let mut line = format!("{result}\t{game}");
                if spoilt == Some(index) {
                    line = if rng.gen_bool(0.2) {
                        ["Nobody\tBase", "WhiteWins Base;InProgress;White[1]", "\t", "Draw\t"]
                            .choose(rng)
                            .unwrap()
                            .to_string()
                    } else {
                        damage(&line, rng)
                    };
                }
                if rng.gen_bool(0.1) {
                    text.push_str("# a comment\n\n");
                }
                text.push_str(&line);
                text.push_str(if rng.gen_bool(0.2) { "\r\n" } else { "\n" });
                moves.push(n);
            }
            ("games file", text.into_bytes(), count, (!damaged).then_some(moves))
        }
        // One GameString a line.
        2 => {
            let count = rng.gen_range(1..=6);
            let mut lines = Vec::new();
            let mut moves = Vec::new();
            for _ in 0..count {
                let (game, n) = cut(seeds.choose(rng).unwrap(), rng);
                lines.push(game);
                moves.push(n);
            }
            if damaged {
                let i = rng.gen_range(0..count);
                lines[i] = damage(&lines[i], rng);
            }
            (
                "GameStrings file",
                lines.join("\n").into_bytes(),
                count,
                (!damaged).then_some(moves),
            )
        }
        // A .pgn of one to three games.
        3 => {
            let count = rng.gen_range(1..=3);
            let (text, moves) = pgn_games(count, seeds, rng);
            if damaged {
                let mut bytes = text.into_bytes();
                for _ in 0..rng.gen_range(1..=3) {
                    bytes = damage_pgn(&String::from_utf8_lossy(&bytes), rng);
                }
                return (".pgn", bytes, count, None);
            }
            (".pgn", text.into_bytes(), count, Some(moves))
        }
        _ => ("garbage", garbage(rng), 1, None),
    }
}

/// A random batch, its files written in `dir`.
fn make_batch(rng: &mut StdRng, seeds: &[String], dir: &Path) -> Batch {
    let mut batch = Batch {
        args: Vec::new(),
        stdin: Vec::new(),
        cases: 0,
        names: Vec::new(),
        legal: Some(Vec::new()),
        json: rng.gen_bool(0.6),
        pgn: None,
        svg: None,
        kind: "",
    };
    let add_legal = |batch: &mut Batch, moves: Option<Vec<usize>>| match (batch.legal.as_mut(), moves) {
        (Some(all), Some(moves)) => all.extend(moves),
        _ => batch.legal = None,
    };
    match rng.gen_range(0..4) {
        // GameStrings as arguments.
        0 => {
            batch.kind = "arguments";
            for _ in 0..rng.gen_range(1..=4) {
                let (mut game, n) = cut(seeds.choose(rng).unwrap(), rng);
                let damaged = rng.gen_bool(0.5);
                if damaged {
                    for _ in 0..rng.gen_range(1..=3) {
                        game = damage(&game, rng);
                    }
                    // No NUL can be an argument.
                    game = game.replace('\0', "");
                    // A leading '-' would be an option to the command line's parser, not a game.
                    if game.starts_with('-') {
                        game.insert(0, 'B');
                    }
                }
                add_legal(&mut batch, (!damaged).then_some(vec![n]));
                batch.names.push(game.clone());
                batch.args.push(game);
                batch.cases += 1;
            }
        }
        // A file, or standard input.
        1 | 2 => {
            let (kind, bytes, cases, moves) = make_input(rng, seeds);
            batch.kind = kind;
            batch.cases = cases;
            add_legal(&mut batch, moves);
            if rng.gen_bool(0.3) {
                batch.args.push("-".into());
                batch.names.push("standard input".into());
                batch.stdin = bytes;
                if rng.gen_bool(0.05) {
                    // Standard input twice: the second time it is empty.
                    batch.args.push("-".into());
                    batch.legal = None;
                }
            } else {
                let name = ["in.txt", "in.pgn", "in"].choose(rng).unwrap();
                let path = dir.join(name);
                std::fs::write(&path, &bytes).unwrap();
                batch.names.push(path.display().to_string());
                batch.args.push(path.display().to_string());
            }
        }
        // A directory of .pgn files.
        _ => {
            batch.kind = "directory";
            let games = dir.join("games");
            std::fs::create_dir(&games).unwrap();
            let files = rng.gen_range(0..=3);
            if files == 0 {
                batch.legal = None;
            }
            for index in 0..files {
                let count = rng.gen_range(1..=2);
                let (text, moves) = pgn_games(count, seeds, rng);
                let bytes = if rng.gen_bool(0.3) {
                    add_legal(&mut batch, None);
                    damage_pgn(&text, rng)
                } else {
                    add_legal(&mut batch, Some(moves));
                    text.into_bytes()
                };
                std::fs::write(games.join(format!("game-{index}.pgn")), bytes).unwrap();
                batch.cases += count;
            }
            if rng.gen_bool(0.3) {
                std::fs::write(games.join("notes.txt"), garbage(rng)).unwrap();
            }
            batch.names.push(games.display().to_string());
            batch.args.push(games.display().to_string());
            batch.cases = batch.cases.max(1);
        }
    }
    // The budget, and the outputs: mostly in the scratch directory, now and then in one that does not exist.
    let budget = if rng.gen_bool(0.7) {
        ["--nodes".to_string(), rng.gen_range(1..=50).to_string()]
    } else {
        ["--depth".to_string(), rng.gen_range(1..=2).to_string()]
    };
    let mut flags = vec![budget.to_vec()];
    if batch.json {
        flags.push(vec!["--json".into()]);
    }
    for (flag, name) in [("--pgn", "out.pgn"), ("--svg", "chart.svg")] {
        if rng.gen_bool(0.3) {
            let path = if rng.gen_bool(0.05) {
                batch.legal = None;
                dir.join("no-such-dir").join(name)
            } else {
                dir.join(name)
            };
            // With several games the charts are chart-1.svg, chart-2.svg, …: the message may name one of them.
            batch.names.push(path.with_extension("").display().to_string());
            flags.push(vec![flag.into(), path.display().to_string()]);
            if flag == "--pgn" {
                batch.pgn = Some(path);
            } else {
                batch.svg = Some(path);
            }
        }
    }
    // Flags before, between or after the games (which keep their order).
    let mut groups: Vec<Vec<String>> = batch.args.drain(..).map(|game| vec![game]).collect();
    for flag in flags {
        let at = rng.gen_range(0..=groups.len());
        groups.insert(at, flag);
    }
    batch.args = groups.concat();
    batch
}

/// What a process left behind.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `waggle review` on a batch in `dir`; `None` if it hung.
fn run(batch: &Batch, dir: &Path) -> Option<Outcome> {
    let output = Waggle::new(["review"])
        .args(&batch.args)
        .dir(dir)
        .input(&batch.stdin)
        .timeout(HANG)
        .run_within()?;
    Some(Outcome {
        code: output.code(),
        stdout: output.stdout,
        stderr: output.stderr,
    })
}

/// The moves of each game of a run's output, checked for its shape; `refused`: whether the run refused some input,
/// whose summary then ends the output.
fn games_printed(batch: &Batch, stdout: &str, refused: bool) -> Result<Vec<usize>, String> {
    let mut moves = Vec::new();
    if batch.json {
        let mut rows = 0;
        let mut lines: Vec<&str> = stdout.lines().collect();
        if refused {
            let last = lines.pop().unwrap_or("");
            let value: Value = serde_json::from_str(last).map_err(|e| format!("not JSON ({e}): {last}"))?;
            if !value["read"].is_u64() || value["refused"].as_array().is_none_or(Vec::is_empty) {
                return Err(format!("no summary of the refused input last: {last}"));
            }
        }
        for line in lines {
            let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {line}"))?;
            let game = moves.len() as u64 + 1;
            if value["game"].as_u64() != Some(game) {
                return Err(format!("game {game} expected: {line}"));
            }
            if let Some(summary) = value.get("summary") {
                let counted = |key: &str| summary[key].as_u64();
                let sides = summary["white"]["moves"]
                    .as_u64()
                    .zip(summary["black"]["moves"].as_u64());
                if counted("moves") != Some(rows)
                    || counted("reviewed") != Some(rows)
                    || summary["complete"] != Value::Bool(true)
                    || sides.map(|(white, black)| white + black) != Some(rows)
                {
                    return Err(format!("a summary that does not count the {rows} moves: {line}"));
                }
                moves.push(rows as usize);
                rows = 0;
            } else {
                rows += 1;
                let fine = value["ply"].as_u64() == Some(rows)
                    && value["move"].is_string()
                    && value["best"].is_string()
                    && value["line"].is_array()
                    && ["win_chance_before", "win_chance_after"]
                        .iter()
                        .all(|key| value[key].as_f64().is_some_and(|c| (0.0..=1.0).contains(&c)))
                    && (value["mark"].is_null()
                        || ["inaccuracy", "mistake", "blunder", "missed_win", "forced_loss"]
                            .contains(&value["mark"].as_str().unwrap_or("")));
                if !fine {
                    return Err(format!("move {rows}: {line}"));
                }
            }
        }
        if rows != 0 {
            return Err("moves after the last summary".into());
        }
        return Ok(moves);
    }
    let mut lines: Vec<&str> = stdout.lines().collect();
    // A batch of several games, or one with input refused, ends with the summary of the reading.
    if let Some(at) = lines.iter().position(|line| line.starts_with("Read ")) {
        let summary = lines.split_off(at);
        let shaped = lines.last() == Some(&"")
            && summary[0].ends_with(if refused { ':' } else { '.' })
            && summary[1..].iter().all(|line| line.starts_with("  "));
        if !shaped || refused != (summary.len() > 1) {
            return Err(format!("a summary of the reading out of shape: {summary:?}"));
        }
        lines.pop();
    } else if refused {
        return Err("no summary of the refused input".into());
    }
    let mut at = 0;
    while at < lines.len() {
        let heading = lines[at];
        let game = moves.len() + 1;
        if !heading.starts_with(&format!("Game {game} of ")) {
            return Err(format!("heading of game {game} expected: {heading}"));
        }
        let count: usize = heading
            .rsplit(" · ")
            .nth(1)
            .and_then(|m| m.strip_suffix(" moves"))
            .and_then(|m| m.parse().ok())
            .ok_or_else(|| format!("no move count: {heading}"))?;
        // The column heading, a line a move, the two sides and the turning points (or for a game of no moves, a
        // line that says there is nothing to judge), a blank line.
        let summary = if count == 0 { 1 } else { 3 };
        let block = lines
            .get(at + 1..at + 2 + count + summary)
            .ok_or("a game's lines cut short")?;
        let summed_up = if count == 0 {
            block[1] == "Nothing to judge: the game has no moves."
        } else {
            block[count + 1].starts_with("White  ")
                && block[count + 2].starts_with("Black  ")
                && block[count + 3].starts_with("Turning points: ")
        };
        let shaped = block[0].starts_with("  ply  side")
            && block[1..=count]
                .iter()
                .enumerate()
                .all(|(i, line)| line.get(..5).map(str::trim) == Some(&(i + 1).to_string()) && line.ends_with('%'))
            && summed_up
            && lines.get(at + 2 + count + summary) == Some(&"");
        if !shaped {
            return Err(format!("game {game} is not shaped as a review: {block:?}"));
        }
        moves.push(count);
        at += 3 + count + summary;
    }
    Ok(moves)
}

/// The files a successful run wrote, checked: the .pgn reads back with every move commented, and the charts parse.
fn files_written(batch: &Batch, moves: &[usize]) -> Result<(), String> {
    if let Some(path) = &batch.pgn {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let games = read_pgn(&text).map_err(|e| format!("the .pgn does not read back: {e}\n{text}"))?;
        let written: Vec<usize> = games.iter().map(|g| g.record.moves.len()).collect();
        if written != moves {
            return Err(format!("the .pgn holds {written:?} moves, the review {moves:?}"));
        }
        if games.iter().any(|g| g.comments.iter().any(Option::is_none)) {
            return Err(format!("a move without a comment:\n{text}"));
        }
    }
    if let Some(path) = &batch.svg {
        let charts: Vec<PathBuf> = if moves.len() == 1 {
            vec![path.clone()]
        } else {
            (1..=moves.len())
                .map(|n| path.with_file_name(format!("chart-{n}.svg")))
                .collect()
        };
        for chart in charts {
            let text = std::fs::read_to_string(&chart).map_err(|e| format!("{}: {e}", chart.display()))?;
            roxmltree::Document::parse(&text).map_err(|e| format!("{}: {e}", chart.display()))?;
        }
    }
    Ok(())
}

/// Check a batch's outcome against the properties; the reason it fails them.
fn check(batch: &Batch, outcome: Option<Outcome>, dir: &Path) -> Result<&'static str, String> {
    let outcome = outcome.ok_or_else(|| format!("still running after {HANG:?}"))?;
    let Outcome { code, stdout, stderr } = outcome;
    if code == Some(101) || stderr.contains("panicked") {
        return Err(format!("a panic: {code:?}\n{stderr}"));
    }
    match code {
        Some(0) => {
            let moves = games_printed(batch, &stdout, false)?;
            if let Some(legal) = &batch.legal {
                if &moves != legal {
                    return Err(format!("games of {moves:?} moves reviewed, {legal:?} given"));
                }
            }
            files_written(batch, &moves)?;
            Ok("reviewed")
        }
        Some(2) => {
            if batch.legal.is_some() {
                return Err(format!("legal games refused: {stderr}"));
            }
            if !stderr.starts_with("waggle review: ") {
                return Err(format!("a message that does not start 'waggle review: ': {stderr}"));
            }
            // A name is printed on one line (control characters as spaces), a GameString by its first 40
            // characters.
            let printed = |name: &str| -> String {
                name.chars()
                    .take(40)
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect()
            };
            if !batch.names.iter().any(|name| stderr.contains(&printed(name))) {
                return Err(format!("a message that names no input: {stderr}"));
            }
            if !stdout.is_empty() {
                // Some games could be read: they are reviewed and written, the refused named in the summary.
                let moves = games_printed(batch, &stdout, true)?;
                files_written(batch, &moves)?;
                return Ok("partly refused");
            }
            let written: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| !name.starts_with("in") && name != "games")
                .collect();
            if !written.is_empty() {
                return Err(format!("files written for refused input: {written:?}"));
            }
            Ok("refused")
        }
        other => Err(format!("status {other:?}\n{stderr}")),
    }
}

/// The seed of batch `index` of the run seeded `seed`.
fn batch_seed(seed: u64, index: usize) -> u64 {
    StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).gen()
}

/// Make, run and check the batch seeded `seed` in a scratch directory of its own: its number of cases and
/// outcome, or a report of its failure.
fn one_batch(seed: u64, seeds: &[String], scratch: &Path) -> (usize, &'static str, Result<&'static str, String>) {
    let dir = scratch.join(format!("batch-{seed}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let batch = make_batch(&mut rng, seeds, &dir);
    let result = check(&batch, run(&batch, &dir), &dir).map_err(|why| {
        let input: String = String::from_utf8_lossy(&batch.stdin).chars().take(2000).collect();
        let files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_file())
            .map(|e| {
                let text = String::from_utf8_lossy(&std::fs::read(e.path()).unwrap_or_default()).into_owned();
                format!(
                    "--- {}:\n{}",
                    e.path().display(),
                    text.chars().take(2000).collect::<String>()
                )
            })
            .collect();
        format!(
            "batch seed {seed} ({}): {why}\nargs: {:?}\nstdin: {input:?}\n{}",
            batch.kind,
            batch.args,
            files.join("\n")
        )
    });
    if result.is_ok() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    (batch.cases, batch.kind, result)
}

/// Run batches until `cases` cases are done, on `workers` threads; panic with the seeds of the first failure.
fn fuzz(name: &str, seed: u64, cases: usize, workers: usize) {
    let seeds = seeds();
    let scratch = Scratch::new(name);
    let start = Instant::now();
    let (done, next) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let tally = Mutex::new(std::collections::BTreeMap::<String, usize>::new());
    let failure = Mutex::new(None::<String>);
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while done.load(Ordering::SeqCst) < cases && failure.lock().unwrap().is_none() {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let (count, kind, result) = one_batch(batch_seed(seed, index), &seeds, &scratch.0);
                    let before = done.fetch_add(count, Ordering::SeqCst);
                    if before / 5000 != (before + count) / 5000 {
                        println!("  {} cases, {:.0} s", before + count, start.elapsed().as_secs_f64());
                    }
                    match result {
                        Ok(outcome) => *tally.lock().unwrap().entry(format!("{kind}: {outcome}")).or_default() += 1,
                        Err(report) => {
                            failure.lock().unwrap().get_or_insert(report);
                        }
                    }
                }
            });
        }
    });
    if let Some(report) = failure.into_inner().unwrap() {
        panic!("fuzz_review {name} failed, run seed {seed} (WAGGLE_FUZZ_SEED={seed} replays the run):\n{report}");
    }
    let batches = next.load(Ordering::SeqCst);
    println!(
        "fuzz_review {name}: seed {seed}, {} cases in {batches} processes, {:.1} s, no failure",
        done.load(Ordering::SeqCst),
        start.elapsed().as_secs_f64()
    );
    for (what, count) in tally.into_inner().unwrap() {
        println!("  {what}: {count} processes");
    }
}

/// The run's seed: `WAGGLE_FUZZ_SEED`, else `default` (or, with none, one from the clock).
fn run_seed(default: Option<u64>) -> u64 {
    if let Some(seed) = std::env::var("WAGGLE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()) {
        return seed;
    }
    default.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |t| t.as_nanos() as u64)
    })
}

#[test]
fn short_fuzz_of_the_review_command() {
    fuzz("short", run_seed(Some(20_250_101)), 100, 1);
}

#[test]
#[ignore = "long: about 40,000 cases; run with --release -- --ignored --nocapture"]
fn long_fuzz_of_the_review_command() {
    let workers = thread::available_parallelism().map_or(2, |n| n.get());
    fuzz("long", run_seed(None), 40_000, workers);
}

/// Replays the one batch `WAGGLE_FUZZ_BATCH` names (a seed that a failure printed).
#[test]
#[ignore = "replays the batch WAGGLE_FUZZ_BATCH names"]
fn batch_from_env() {
    let Some(seed) = std::env::var("WAGGLE_FUZZ_BATCH").ok().and_then(|s| s.parse().ok()) else {
        return;
    };
    let scratch = Scratch::new("replay");
    let (_, _, result) = one_batch(seed, &seeds(), &scratch.0);
    if let Err(report) = result {
        panic!("{report}");
    }
}
