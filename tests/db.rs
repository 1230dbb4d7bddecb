//! The games database (`waggle db`, `waggle::db`): the symmetric key (a game and its turned and mirrored copies land
//! on the same rows), records of every form going into one database with the explorer's counts matching a count
//! made by reading the files directly, re-importing adding nothing, a damaged file in a folder skipping only
//! itself, the import killed (SIGKILL) at random points leaving a readable file with whole games only, Ctrl-C
//! stopping an import cleanly, games written out and read back, and files that are not Waggle databases refused.
#![cfg(feature = "db")]

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Duration;

use common::{Scratch, Waggle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use waggle::db::{position_key, Database, GameFilter, NewGame};
use waggle::record::{read_games, read_pgn, read_sgf, GameRecord};
use waggle::{Game, GameString, GameType, Rules};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A 40-ply Base+MLP game of self-play.
fn selfplay40() -> String {
    std::fs::read_to_string(format!("{ROOT}/tests/data/positions/selfplay40.txt"))
        .unwrap()
        .trim()
        .to_string()
}

/// The moves of `text` (a GameString).
fn moves_of(text: &str) -> Vec<String> {
    text.split(';').skip(3).map(str::to_string).collect()
}

/// A MoveString's reference moved by a symmetry of the grid: `turns` sixths of a turn, then mirrored (the
/// directions upper-right and lower-right swapped, and upper-left and lower-left) when `mirror` is set.
fn transformed(mv: &str, turns: usize, mirror: bool) -> String {
    // The six neighbours of a piece X in turning order: right, upper right, upper left, left, lower left, lower
    // right; each as the text before and after X.
    const AROUND: [(&str, &str); 6] = [("", "-"), ("", "/"), ("\\", ""), ("-", ""), ("/", ""), ("", "\\")];
    let Some((piece, reference)) = mv.split_once(' ') else {
        return mv.to_string();
    };
    let (before, rest) = match reference.chars().next() {
        Some(c @ ('-' | '/' | '\\')) => (c.to_string(), &reference[1..]),
        _ => (String::new(), reference),
    };
    let (other, after) = match rest.chars().last() {
        Some(c @ ('-' | '/' | '\\')) => (&rest[..rest.len() - 1], c.to_string()),
        _ => (rest, String::new()),
    };
    let Some(mut at) = AROUND.iter().position(|&(b, a)| b == before && a == after) else {
        return mv.to_string(); // on top of the piece: no direction
    };
    at = (at + turns) % 6;
    if mirror {
        at = (6 - at) % 6;
    }
    let (before, after) = AROUND[at];
    format!("{piece} {before}{other}{after}")
}

/// The game `text` with every move turned and mirrored.
fn copy_of(text: &str, turns: usize, mirror: bool) -> String {
    let head: Vec<&str> = text.split(';').take(3).collect();
    let moves: Vec<String> = moves_of(text).iter().map(|mv| transformed(mv, turns, mirror)).collect();
    format!("{};{}", head.join(";"), moves.join(";"))
}

/// The game of `text`, every move checked.
fn game(text: &str) -> Game {
    Game::from_record(&text.parse::<GameString>().unwrap(), Rules::default()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The game of `text` after its first `plies` moves.
fn prefix(text: &str, plies: usize) -> Game {
    let mut played = Game::new(text.parse::<GameString>().unwrap().game_type, Rules::default());
    for mv in moves_of(text).iter().take(plies) {
        played.play_text(mv).unwrap();
    }
    played
}

#[test]
fn a_game_turned_and_mirrored_lands_on_the_same_rows() {
    let scratch = Scratch::new("db-symmetry");
    let original = selfplay40();
    let copies: Vec<String> = [
        (0, false),
        (1, false),
        (2, false),
        (3, false),
        (4, false),
        (5, false),
        (0, true),
        (2, true),
    ]
    .iter()
    .map(|&(turns, mirror)| copy_of(&original, turns, mirror))
    .collect();
    // The copies are other games as records go (other moves), and the same games on the board.
    assert_eq!(copies.iter().collect::<HashSet<_>>().len(), copies.len());
    let mut database = Database::open(Path::new(&scratch.path("games.sqlite"))).unwrap();
    let mut importer = database.importer().unwrap();
    for (i, copy) in copies.iter().enumerate() {
        let tags = [("White".to_string(), format!("copy {i}"))];
        importer.add(NewGame::of(&game(copy), &tags, None, "copies")).unwrap();
    }
    assert_eq!(importer.finish().unwrap().games, copies.len());
    let plies = moves_of(&original).len();
    for ply in 0..=plies {
        let here = prefix(&original, ply);
        let reached = database
            .games(&GameFilter {
                reached: Some(here.clone()),
                limit: 100,
                ..GameFilter::default()
            })
            .unwrap();
        assert_eq!(reached.len(), copies.len(), "ply {ply}");
        let explored = database.explore(&here, 3).unwrap();
        assert_eq!(explored.key, position_key(here.position()));
        if ply == plies {
            assert!(explored.moves.is_empty());
            continue;
        }
        assert_eq!(explored.moves.len(), 1, "ply {ply}: {:?}", explored.moves);
        let only = &explored.moves[0];
        assert_eq!(only.games, copies.len() as u64);
        // Named as it is played in this position: the original's move, or one the same up to symmetry.
        let played = prefix(&original, ply + 1).record()[ply].to_string();
        let names: Vec<String> = std::iter::once(&only.mv)
            .chain(&only.same)
            .map(ToString::to_string)
            .collect();
        assert!(names.contains(&played), "ply {ply}: {played} not in {names:?}");
    }
    // Each copy again: nothing new.
    let mut importer = database.importer().unwrap();
    for (i, copy) in copies.iter().enumerate() {
        let tags = [("White".to_string(), format!("copy {i}"))];
        importer.add(NewGame::of(&game(copy), &tags, None, "again")).unwrap();
    }
    let again = importer.finish().unwrap();
    assert_eq!((again.games, again.copies), (0, copies.len()));
}

/// `waggle db ARGS --db PATH`.
fn db(path: &str, args: &[&str]) -> common::Output {
    Waggle::new(["db"]).args(args).args(["--db", path]).run()
}

/// The record files below `folder` that a directory import reads (`.pgn` and `.sgf`, sub-folders too).
fn records_below(folder: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            records_below(&path, found);
        } else if path.extension().is_some_and(|e| e == "pgn" || e == "sgf") {
            found.push(path);
        }
    }
}

/// The games of the repository's records that replay, read with the library's readers directly.
fn games_in_files(folders: &[&str], games_files: &[&str]) -> Vec<Game> {
    let mut games = Vec::new();
    let mut files = Vec::new();
    for folder in folders {
        records_below(Path::new(folder), &mut files);
    }
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let records: Vec<GameRecord> = if file.extension().is_some_and(|e| e == "sgf") {
            read_sgf(&text, file.to_str()).into_iter().collect()
        } else {
            read_pgn(&text).unwrap_or_default()
        };
        games.extend(records.iter().filter_map(|record| record.replay(Rules::default()).ok()));
    }
    for file in games_files {
        let records = read_games(std::io::BufReader::new(std::fs::File::open(file).unwrap())).unwrap();
        games.extend(
            records
                .iter()
                .map(|r| Game::from_moves(&r.game, Rules::default()).unwrap()),
        );
    }
    games
}

#[test]
fn every_kind_of_record_goes_in_and_the_explorer_counts_what_the_files_hold() {
    let scratch = Scratch::new("db-records");
    let path = scratch.path("games.sqlite");
    let records = format!("{ROOT}/tests/data/records");
    let review = format!("{ROOT}/tests/data/review");
    let games_file = format!("{ROOT}/tests/data/review/games.txt");
    // BoardSpace .sgf, Mzinga's and hivegame.com's .pgn (the folders), and a self-play games file.
    let added = db(&path, &["add", &records, &review, &games_file]);
    assert_eq!(added.code(), Some(2), "some records are refused: {}", added.stderr);
    assert!(added.stderr.contains(&format!("adding to {path}")), "{}", added.stderr);
    for refused in [
        "broken_turn.sgf",
        "hive_ultimate.sgf",
        "illegal_move.pgn",
        "unclosed_comment.pgn",
    ] {
        assert!(added.stderr.contains(refused), "{refused} named: {}", added.stderr);
    }
    let expected = games_in_files(&[&records, &review], &[&games_file]);
    assert!(
        added.stderr.contains(&format!("{} games added", expected.len())),
        "{} games read directly: {}",
        expected.len(),
        added.stderr
    );
    // The first moves of the Base+MLP games, counted from the files.
    let mut counted: BTreeMap<String, u64> = BTreeMap::new();
    for played in expected.iter().filter(|g| g.position().game_type() == GameType::MLP) {
        if let Some(first) = played.record().first() {
            *counted.entry(first.to_string()).or_default() += 1;
        }
    }
    assert!(counted.len() >= 2, "{counted:?}");
    let explored = db(&path, &["explore", "Base+MLP", "--json"]);
    assert!(explored.success(), "{}", explored.stderr);
    let answer: Value = serde_json::from_str(&explored.stdout).unwrap();
    let listed: BTreeMap<String, u64> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let (w, d, b) = (
                m["white"].as_u64().unwrap(),
                m["draw"].as_u64().unwrap(),
                m["black"].as_u64().unwrap(),
            );
            assert!(w + d + b <= m["games"].as_u64().unwrap(), "{m}");
            (m["move"].as_str().unwrap().to_string(), m["games"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(listed, counted);
    assert!(!answer["games"].as_array().unwrap().is_empty());
    // The counts by type add up to the total.
    let stats: Value = serde_json::from_str(&db(&path, &["stats", "--json"]).stdout).unwrap();
    assert_eq!(stats["games"].as_u64(), Some(expected.len() as u64));
    let by_type: u64 = stats["by_type"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(by_type, expected.len() as u64);
    // The text of the explorer names the same moves.
    let text = db(&path, &["explore"]).stdout;
    for mv in counted.keys() {
        assert!(
            text.lines().any(|line| line.starts_with(&format!("{mv} "))),
            "{mv}: {text}"
        );
    }

    // Again: nothing is added; the files read whole are passed over, the others' games are copies.
    let again = db(&path, &["add", &records, &review, &games_file]);
    assert!(again.stderr.contains("0 games added"), "{}", again.stderr);
    assert!(again.stderr.contains("read before, passed over"), "{}", again.stderr);
    let after: Value = serde_json::from_str(&db(&path, &["stats", "--json"]).stdout).unwrap();
    assert_eq!(after["games"], stats["games"]);

    // Written out as a .pgn and as GameStrings, the games read back with `waggle convert`.
    let pgn = scratch.path("out.pgn");
    assert!(db(&path, &["games", "--limit", "1000", "--to", "pgn", "-o", &pgn]).success());
    let read = Waggle::new(["convert", &pgn, "--to", "gamestring"]).run();
    assert!(read.success(), "{}", read.stderr);
    assert_eq!(read.stdout.lines().count(), expected.len());
    let lines = db(&path, &["games", "--limit", "1000", "--to", "gamestring"]).stdout;
    let strings = scratch.path("out.txt");
    std::fs::write(&strings, &lines).unwrap();
    let read = Waggle::new(["convert", &strings, "--to", "gamestring"]).run();
    assert!(read.success(), "{}", read.stderr);
    // Filters: a player with either colour, any case; a result; a position reached.
    let ann: Value = serde_json::from_str(&db(&path, &["games", "--player", "ANN", "--json"]).stdout).unwrap();
    assert_eq!(ann.as_array().unwrap().len(), 1, "{ann}");
    let first = expected
        .iter()
        .find(|g| g.position().game_type() == GameType::MLP)
        .unwrap();
    let reaching = format!("Base+MLP;InProgress;Black[1];{}", first.record()[0]);
    let after_first: Value =
        serde_json::from_str(&db(&path, &["games", "--reaching", &reaching, "--json"]).stdout).unwrap();
    assert_eq!(
        after_first.as_array().unwrap().len() as u64,
        counted[&first.record()[0].to_string()]
    );
}

#[test]
fn a_damaged_file_in_a_folder_skips_only_itself() {
    let scratch = Scratch::new("db-damaged");
    let folder = scratch.path("records");
    std::fs::create_dir_all(format!("{folder}/2023/may")).unwrap();
    let good = std::fs::read_to_string(format!("{ROOT}/tests/data/records/kim_vs_lou.pgn")).unwrap();
    std::fs::write(format!("{folder}/kim_vs_lou.pgn"), &good).unwrap();
    let club = std::fs::read_to_string(format!("{ROOT}/tests/data/records/club_night.pgn")).unwrap();
    std::fs::write(format!("{folder}/2023/may/club_night.pgn"), &club).unwrap();
    // Cut short in the middle of a move's reference, with an unclosed comment.
    std::fs::write(
        format!("{folder}/2023/broken.pgn"),
        format!("{}\n{{ no end", &good[..good.len() / 2]),
    )
    .unwrap();
    let path = scratch.path("games.sqlite");
    let added = db(&path, &["add", &folder]);
    assert_eq!(added.code(), Some(2), "{}", added.stderr);
    assert!(added.stderr.contains("4 games added"), "{}", added.stderr);
    assert!(added.stderr.contains("refused 1:"), "{}", added.stderr);
    assert!(added.stderr.contains("broken.pgn"), "{}", added.stderr);
}

#[test]
fn files_that_are_not_waggle_databases_are_refused_with_the_reason() {
    let scratch = Scratch::new("db-refused");
    let text = scratch.path("notes.txt");
    std::fs::write(&text, "these are my notes, not a database, and long enough to be read as a header by SQLite ....................................................................................")
        .unwrap();
    let other = scratch.path("other.sqlite");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE birds (name TEXT);")
        .unwrap();
    let newer = scratch.path("newer.sqlite");
    Database::open(Path::new(&newer)).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {};", waggle::db::SCHEMA_VERSION + 1))
        .unwrap();
    for (path, says) in [
        (&text, "is not a Waggle games database"),
        (&other, "is not a Waggle games database"),
        (&newer, "cannot read"),
    ] {
        for args in [
            &["stats"][..],
            &["add", &format!("{ROOT}/tests/data/records/kim_vs_lou.pgn")][..],
        ] {
            let output = db(path, args);
            assert_eq!(output.code(), Some(1), "{args:?} {path}: {}", output.stderr);
            assert!(output.stderr.contains(says), "{args:?} {path}: {}", output.stderr);
        }
    }
    // The other database is left as it was.
    let birds: i64 = rusqlite::Connection::open(&other)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .unwrap();
    assert_eq!(birds, 1);
    let missing = db(&scratch.path("none.sqlite"), &["explore"]);
    assert!(
        missing.stderr.contains("there is no games database at"),
        "{}",
        missing.stderr
    );
}

#[test]
fn explore_with_the_engine_scores_every_move_listed() {
    let scratch = Scratch::new("db-engine");
    let path = scratch.path("games.sqlite");
    let added = db(&path, &["add", &format!("{ROOT}/tests/data/review/games.txt")]);
    assert!(added.success(), "{}", added.stderr);
    let explored = db(&path, &["explore", "Base+MLP", "--engine", "0.3", "--json"]);
    assert!(explored.success(), "{}", explored.stderr);
    let answer: Value = serde_json::from_str(&explored.stdout).unwrap();
    let moves = answer["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for mv in moves {
        let chance = mv["win_chance"].as_f64().unwrap_or(-1.0);
        assert!(mv["score"].is_string() && (0.0..=1.0).contains(&chance), "{mv}");
    }
}

/// `waggle db explore --json` says of each move and game what docs/db.md says: a move names the moves that are the
/// same up to the board's symmetries (`same`: around a lone first piece, the other five placements of the bug), and
/// a game is the object `waggle db games --json` gives for it, with the ply where it reached the position.
#[test]
fn the_explorer_s_json_has_every_field_its_manual_names() {
    let scratch = Scratch::new("db-explore-json");
    let path = scratch.path("games.sqlite");
    let games_file = format!("{ROOT}/tests/data/review/games.txt");
    assert!(db(&path, &["add", &games_file]).success());
    let first = games_in_files(&[], &[&games_file])
        .into_iter()
        .find(|g| g.position().game_type() == GameType::MLP)
        .unwrap();
    let after_first = format!("Base+MLP;InProgress;Black[1];{}", first.record()[0]);
    let answer: Value = serde_json::from_str(&db(&path, &["explore", &after_first, "--json"]).stdout).unwrap();
    assert_eq!(answer["position"], after_first.as_str());
    assert!(
        answer["key"].is_i64() && answer["total"].as_u64() == Some(1),
        "{answer}"
    );
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{answer}");
    assert_eq!(moves[0]["same"].as_array().map(Vec::len), Some(5), "{answer}");
    let listed: Value = serde_json::from_str(&db(&path, &["games", "--json"]).stdout).unwrap();
    let games = answer["games"].as_array().unwrap();
    assert!(!games.is_empty(), "{answer}");
    for game in games {
        let mut row = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["id"] == game["id"])
            .unwrap_or_else(|| panic!("{game} listed by `db games`"))
            .clone();
        row["ply"] = Value::from(1);
        assert_eq!(game, &row);
    }
}

/// A folder of `files` `.pgn` files of `each` games: the repository's games under players' names of their own, so
/// that each is a game of its own.
fn many_games(folder: &str, files: usize, each: usize) -> usize {
    let mut sources: Vec<String> = std::fs::read_to_string(format!("{ROOT}/tests/data/review/games.txt"))
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && line.contains('\t'))
        .map(|line| line.split_once('\t').unwrap().1.to_string())
        .collect();
    sources.push(selfplay40());
    std::fs::create_dir_all(folder).unwrap();
    for file in 0..files {
        let mut text = String::new();
        for game in 0..each {
            let record: GameString = sources[game % sources.len()].parse().unwrap();
            let white = format!("player {file}-{game}");
            text.push_str(&GameRecord::new(record, &white, "opponent").to_string());
            text.push('\n');
        }
        std::fs::write(format!("{folder}/part{file:03}.pgn"), text).unwrap();
    }
    files * each
}

/// Whether the database at `path` is readable and holds whole games only: SQLite finds it whole, each game has
/// one `reached` row for each position it went through, and the explorer's counts add up to the games' moves.
fn whole_games_only(path: &str) -> usize {
    let database = Database::open_existing(Path::new(path)).unwrap();
    database.check().unwrap();
    let connection = rusqlite::Connection::open(path).unwrap();
    let mut statement = connection
        .prepare("SELECT id, game_type, moves, plies FROM games")
        .unwrap();
    let games: Vec<(i64, String, String, i64)> = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut statement = connection
        .prepare("SELECT game, count(*) FROM reached GROUP BY game")
        .unwrap();
    let rows_of: std::collections::HashMap<i64, i64> = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let (mut positions, mut went_on) = (0i64, 0i64);
    for (id, game_type, moves, plies) in &games {
        let mut played = Game::new(game_type.parse().unwrap(), Rules::default());
        let mut seen = HashSet::from([position_key(played.position())]);
        for mv in moves.split(';').filter(|mv| !mv.is_empty()) {
            played.play_text(mv).unwrap();
            seen.insert(position_key(played.position()));
        }
        assert_eq!(played.record().len() as i64, *plies);
        let rows = rows_of.get(id).copied().unwrap_or(0);
        assert_eq!(rows, seen.len() as i64, "game {id}: a position of each");
        positions += rows;
        went_on += went_on_from(game_type, moves);
    }
    let reached: i64 = connection
        .query_row("SELECT count(*) FROM reached", [], |row| row.get(0))
        .unwrap();
    assert_eq!(reached, positions, "no row of a game that is not there");
    let counted: i64 = connection
        .query_row(
            "SELECT coalesce(sum(white + draw + black + unfinished), 0) FROM moves",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(
        counted, went_on,
        "the explorer counts the moves of the games there, and only those"
    );
    games.len()
}

/// The positions of a game that it went on from, each counted once (by its first visit).
fn went_on_from(game_type: &str, moves: &str) -> i64 {
    let mut played = Game::new(game_type.parse().unwrap(), Rules::default());
    let mut seen = HashSet::new();
    let mut count = 0;
    for mv in moves.split(';').filter(|mv| !mv.is_empty()) {
        if seen.insert(position_key(played.position())) {
            count += 1;
        }
        played.play_text(mv).unwrap();
    }
    count
}

/// How long a whole import of the records in `folder` takes on this machine, into a database of its own in
/// `scratch`: what the tests that stop an import midway time their stops by.
#[cfg(unix)]
fn whole_import_time(scratch: &Scratch, folder: &str) -> Duration {
    let started = std::time::Instant::now();
    let timed = db(&scratch.path("timed.sqlite"), &["add", folder]);
    assert!(timed.success(), "{}", timed.stderr);
    started.elapsed()
}

#[cfg(unix)]
#[test]
fn an_import_killed_at_random_points_leaves_whole_games_only() {
    let scratch = Scratch::new("db-killed");
    let folder = scratch.path("records");
    let total = many_games(&folder, 12, 1000);
    // The kills fall within the time a whole import takes on this machine: ten at 2 to 12 % of it each leave most
    // of the import still to do, on a fast machine as on a slow one.
    let whole = whole_import_time(&scratch, &folder);
    let path = scratch.path("games.sqlite");
    let mut rng = StdRng::seed_from_u64(60);
    let (mut killed, mut last) = (0, 0);
    for _ in 0..10 {
        let mut import = Waggle::new(["db", "add", &folder, "--db", &path]).spawn();
        std::thread::sleep(whole.mul_f64(rng.gen_range(0.02..0.12)));
        if import.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = import.kill(); // SIGKILL: no handler runs
        let _ = import.wait();
        let games = whole_games_only(&path);
        assert!(games >= last, "games were lost: {last} then {games}");
        last = games;
    }
    assert!(
        killed >= 8,
        "only {killed} of 10 kills found the import running (a whole import took {whole:?})"
    );
    let rest = db(&path, &["add", &folder]);
    assert!(rest.success(), "{}", rest.stderr);
    assert_eq!(whole_games_only(&path), total);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_an_import_and_says_what_it_did() {
    let scratch = Scratch::new("db-interrupt");
    let folder = scratch.path("records");
    let total = many_games(&folder, 10, 500);
    // Ctrl-C comes a third of the way into the time a whole import takes on this machine: well after the start (the
    // handler is in place within milliseconds) and well before the end, on a fast machine as on a slow one.
    let whole = whole_import_time(&scratch, &folder);
    let path = scratch.path("games.sqlite");
    let running = Waggle::new(["db", "add", &folder, "--db", &path]).start();
    std::thread::sleep(whole / 3);
    running.interrupt();
    let (code, _, stderr) = running.finish(Duration::from_secs(60));
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("stopped by Ctrl-C"), "{stderr}");
    let games = whole_games_only(&path);
    assert!(
        games < total,
        "{games} of {total}: the import was stopped before its end"
    );
    assert!(stderr.contains(&format!("{games} games added")), "{games}: {stderr}");
    let rest = db(&path, &["add", &folder]);
    assert!(
        rest.stderr.contains(&format!("{} games added", total - games)),
        "{}",
        rest.stderr
    );
}
