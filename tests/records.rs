//! Every game a player already has, read everywhere Waggle reads a game: BoardSpace `.sgf` records and `.pgn` as
//! other programs write it (tests/data/records, of our own making; its README says how), converted (`waggle
//! convert`), drawn (`waggle draw`) and reviewed, one file, several, or a directory of mixed files with its
//! summary; every refusal naming the file, the move and the reason.

mod common;

use std::path::Path;

use waggle::record::{read_pgn, read_sgf, GameRecord};
use waggle::{GameState, GameString, Opening, Rules};

use common::{Scratch, Waggle};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");

/// The path of a file of tests/data/records.
fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// What each record must read as: its file, its game in the file, its game type, plies, White, Black, result
/// (`None`: the moves decide, and they reach no end), Event, Date.
struct Expected {
    file: &'static str,
    game: usize,
    game_type: &'static str,
    plies: usize,
    white: &'static str,
    black: &'static str,
    result: Option<GameState>,
    event: &'static str,
    date: &'static str,
}

const EXPECTED: [Expected; 10] = [
    Expected {
        file: "HV-ann-bob-2019-06-22-1750.sgf",
        game: 0,
        game_type: "Base+MLP",
        plies: 40,
        white: "ann",
        black: "bob",
        result: Some(GameState::BlackWins),
        event: "",
        date: "2019.06.22",
    },
    Expected {
        file: "U!HV-carl-dora-2008-10-28-0130.sgf",
        game: 0,
        game_type: "Base",
        plies: 21,
        white: "carl",
        black: "dora",
        result: Some(GameState::WhiteWins),
        event: "BoardSpace unranked",
        date: "2008.10.28",
    },
    Expected {
        file: "T!HV-erin-finn-2021-12-11-1632.sgf",
        game: 0,
        game_type: "Base",
        plies: 40,
        white: "erin",
        black: "finn",
        result: Some(GameState::WhiteWins),
        event: "BoardSpace tournament",
        date: "2021.12.11",
    },
    Expected {
        file: "HV-gina-hugo-2019-10-03-0001.sgf",
        game: 0,
        game_type: "Base+M",
        plies: 30,
        white: "hugo",
        black: "gina",
        result: Some(GameState::Draw),
        event: "",
        date: "2019.10.02",
    },
    Expected {
        file: "HV-ivan-jane-2023-05-11-0957.sgf",
        game: 0,
        game_type: "Base+M",
        plies: 21,
        white: "ivan",
        black: "jane",
        result: Some(GameState::WhiteWins),
        event: "",
        date: "2023.05.11",
    },
    Expected {
        file: "kim_vs_lou.pgn",
        game: 0,
        game_type: "Base+M",
        plies: 62,
        white: "kim",
        black: "lou",
        result: Some(GameState::BlackWins),
        event: "",
        date: "11-May-2023_09:57:24",
    },
    Expected {
        file: "club_night.pgn",
        game: 0,
        game_type: "Base",
        plies: 40,
        white: "max",
        black: "ned",
        result: Some(GameState::WhiteWins),
        event: "Club night",
        date: "2024.02.10",
    },
    Expected {
        file: "club_night.pgn",
        game: 1,
        game_type: "Base+M",
        plies: 30,
        white: "ned",
        black: "max",
        result: Some(GameState::Draw),
        event: "Club night",
        date: "2024.02.10",
    },
    Expected {
        file: "club_night.pgn",
        game: 2,
        game_type: "Base+M",
        plies: 12,
        white: "oli",
        black: "pat",
        result: None,
        event: "",
        date: "",
    },
    Expected {
        file: "quin_vs_ray.pgn",
        game: 0,
        game_type: "Base+MLP",
        plies: 40,
        white: "quin",
        black: "ray",
        result: Some(GameState::BlackWins),
        event: "",
        date: "2012.03.04",
    },
];

/// `waggle ARGS`, run to its end.
fn waggle(args: &[&str]) -> common::Output {
    Waggle::new(args).run()
}

/// The games of a `.pgn` text, each replayed: its record with canonical moves.
fn games_of(pgn: &str) -> Vec<(GameRecord, GameString)> {
    read_pgn(pgn)
        .unwrap_or_else(|e| panic!("{e}:\n{pgn}"))
        .into_iter()
        .map(|game| {
            let replayed = game.replay(Rules::default()).unwrap_or_else(|e| panic!("{e}"));
            (game, replayed.game_string())
        })
        .collect()
}

/// Each record converted to a `.pgn` reads back as the game it holds, with its players, result, event and date;
/// converted to GameStrings, the same moves; and the `.pgn` converted again is the same `.pgn` (the round trip
/// `.sgf` → game → `.pgn` → game is the same game).
#[test]
fn every_record_converts_to_the_game_it_holds() {
    for expected in &EXPECTED {
        let file = data(expected.file);
        let pgn = waggle(&["convert", &file, "--to", "pgn"]);
        assert!(pgn.success(), "{}: {}", expected.file, pgn.stderr);
        let games = games_of(&pgn.stdout);
        let (game, record) = &games[expected.game];
        let name = format!("{}, game {}", expected.file, expected.game + 1);
        assert_eq!(record.game_type.to_string(), expected.game_type, "{name}");
        assert_eq!(record.moves.len(), expected.plies, "{name}");
        assert_eq!(
            game.record.moves, record.moves,
            "{name}: written in canonical MoveStrings"
        );
        assert_eq!(game.tag("White"), Some(expected.white), "{name}");
        assert_eq!(game.tag("Black"), Some(expected.black), "{name}");
        assert_eq!(game.result(), expected.result, "{name}");
        assert_eq!(game.tag("Event").unwrap_or(""), expected.event, "{name}");
        assert_eq!(game.tag("Date").unwrap_or(""), expected.date, "{name}");
        // The same moves as GameStrings, one a line, each loading as UHP loads it (the opening it shows).
        let strings = waggle(&["convert", &file, "--to", "gamestring"]);
        assert!(strings.success(), "{name}: {}", strings.stderr);
        let line = strings.stdout.lines().nth(expected.game).expect("a GameString a game");
        let parsed: GameString = line.parse().unwrap_or_else(|e| panic!("{e}: {line}"));
        let loaded = waggle::Game::from_record_with(&parsed, Rules::default(), parsed.opening())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.record(), record.moves.as_slice(), "{name}");
        // Converted again, the .pgn is the same text: nothing is lost or changed on the way.
        let scratch = Scratch::new("records-again");
        let written = scratch.path("game.pgn");
        std::fs::write(&written, &pgn.stdout).unwrap();
        let again = waggle(&["convert", &written, "--to", "pgn"]);
        assert_eq!(again.stdout, pgn.stdout, "{name}");
    }
}

/// The library reads what the command line converts: `read_sgf` gives the game, with the file's name telling an
/// unranked game whose record has no name.
#[test]
fn the_library_reads_the_same_games() {
    for expected in EXPECTED.iter().filter(|e| e.file.ends_with(".sgf")) {
        let file = data(expected.file);
        let text = std::fs::read_to_string(&file).unwrap();
        let game = read_sgf(&text, Some(&file)).unwrap_or_else(|e| panic!("{}: {e}", expected.file));
        assert_eq!(game.record.moves.len(), expected.plies, "{}", expected.file);
        assert_eq!(game.tag("Event").unwrap_or(""), expected.event, "{}", expected.file);
        let replayed = game.replay(Rules::default()).unwrap();
        let opening = if expected.file.starts_with("U!HV-carl") {
            Opening::Free
        } else {
            Opening::Tournament
        };
        assert_eq!(replayed.position().opening(), opening, "{}", expected.file);
    }
}

/// A directory of mixed records (and the folder within it) is reviewed to its summary: every game that reads is
/// reviewed, and each refused one is named with its file, its move (or what else is wrong) and the reason; the
/// status says some were refused.
#[test]
fn a_directory_of_mixed_records_is_reviewed_to_its_summary() {
    let run = waggle(&["review", DATA, "--depth", "1"]);
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
    let headings: Vec<&str> = run.stdout.lines().filter(|line| line.starts_with("Game ")).collect();
    assert_eq!(headings.len(), EXPECTED.len(), "{}", run.stdout);
    assert!(headings[0].starts_with("Game 1 of 10: "), "{}", headings[0]);
    let summary = run
        .stdout
        .split("\nRead 10 games, refused 3:\n")
        .nth(1)
        .expect("the summary");
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 3, "{summary}");
    for (line, says) in lines.iter().zip([
        [
            "broken_turn.sgf",
            "P0[7 Dropb wQ M 13 -wS1]",
            "a piece is dropped, but none was picked up",
        ],
        [
            "hive_ultimate.sgf",
            "SU[hive-ultimate]",
            "a UHP game type cannot describe",
        ],
        ["illegal_move.pgn", "move 5 ('wG1 \\wQ')", "break the hive"],
    ]) {
        for part in says {
            assert!(line.contains(part), "'{part}' not in {line}");
        }
    }
    // The same in JSON lines: the last one says what was read and refused.
    let json = waggle(&["review", DATA, "--depth", "1", "--json"]);
    assert_eq!(json.code(), Some(2));
    let last: serde_json::Value = serde_json::from_str(json.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["read"], 10);
    assert_eq!(last["refused"].as_array().map(Vec::len), Some(3));
    // A record from before the tournament opening is reviewed as it was played.
    let old = data("U!HV-carl-dora-2008-10-28-0130.sgf");
    let run = waggle(&["review", &old, "--depth", "1"]);
    assert!(run.success(), "{}", run.stderr);
    assert!(
        run.stdout.contains("Game 1 of 1: ") && run.stdout.contains(" · Base · 21 moves"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("\nRead "), "one game needs no summary");
}

/// Nothing that reads: status 2, each refusal on stderr, nothing on stdout.
#[test]
fn nothing_that_reads_is_refused_whole() {
    let run = waggle(&["review", &data("refused"), "--depth", "1"]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr.matches("waggle review: ").count(), 3, "{}", run.stderr);
    let run = waggle(&["convert", &data("refused"), "--to", "pgn"]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.stdout, "");
    // Once each, in the summary.
    assert!(
        run.stderr.starts_with("waggle convert: Read 0 games, refused 3:\n"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr
            .matches("refused/broken_turn.sgf: line 15, P0[7 Dropb wQ M 13 -wS1]")
            .count(),
        1,
        "{}",
        run.stderr
    );
}

/// `waggle convert` writes the games that read, to a file when asked, and names the ones it refuses.
#[test]
fn convert_writes_what_reads_and_names_what_does_not() {
    let scratch = Scratch::new("convert");
    let out = scratch.path("all.pgn");
    let run = waggle(&[
        "convert",
        &data("HV-ann-bob-2019-06-22-1750.sgf"),
        &data("refused/illegal_move.pgn"),
        "--to",
        "pgn",
        "-o",
        &out,
    ]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr.matches("illegal_move.pgn: move 5").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Read 1 game, refused 1:"), "{}", run.stderr);
    assert_eq!(games_of(&std::fs::read_to_string(&out).unwrap()).len(), 1);
    // A .pgn without tags, its lone bug numbered: Base with the Mosquito its moves name.
    let bare = scratch.path("bare.pgn");
    std::fs::write(&bare, "1. wS1\n2. bM1 wS1-\n").unwrap();
    let run = waggle(&["convert", &bare, "--to", "gamestring"]);
    assert_eq!(run.stdout, "Base+M;InProgress;White[2];wS1;bM wS1-\n", "{}", run.stderr);
    let help = waggle(&["convert", "--help"]);
    assert!(help.stdout.contains("gamestring"), "{}", help.stdout);
    let bad = waggle(&["convert", &data("quin_vs_ray.pgn"), "--to", "sgf"]);
    assert_eq!(bad.code(), Some(2), "clap refuses a format it does not write");
}

/// `waggle draw` draws the position a record's game ends in.
#[test]
fn draw_reads_a_record() {
    let run = waggle(&["draw", &data("HV-ann-bob-2019-06-22-1750.sgf")]);
    assert!(run.success(), "{}", run.stderr);
    assert!(run.stdout.contains("BlackWins"), "{}", run.stdout);
    let several = waggle(&["draw", &data("club_night.pgn"), "--svg", "-"]);
    assert!(several.success(), "{}", several.stderr);
    assert!(several.stdout.starts_with("<svg"), "{}", several.stdout);
    assert!(
        several.stderr.contains("holds 3 games: the first is drawn"),
        "{}",
        several.stderr
    );
    let refused = waggle(&["draw", &data("refused/broken_turn.sgf")]);
    assert!(!refused.success());
    assert!(
        refused.stderr.contains("a piece is dropped, but none was picked up"),
        "{}",
        refused.stderr
    );
    assert!(Path::new(&data("refused")).is_dir());
}
