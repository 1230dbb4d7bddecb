//! `waggle puzzles` and `waggle puzzle` as a person runs them: known puzzles found with their move, copies of a
//! game turned or mirrored found once, the same file from the same games whatever the threads and shares, a
//! player's own mistake found from a review, a refused file named, and a puzzle solved (and failed) at the
//! terminal. The puzzles' own answers are checked beside the code (src/search/proof/tests.rs, src/puzzles/).

mod common;

use common::{Scratch, Waggle};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/puzzles");

/// The records of a puzzle file.
fn records(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Mine `games` into `out` with `flags`, and expect success.
fn mine(games: &[&str], out: &str, flags: &[&str]) -> common::Output {
    let run = Waggle::new(["puzzles"])
        .args(games)
        .args(["--out", out])
        .args(flags)
        .run();
    assert!(run.success(), "{}\n{}", run.stdout, run.stderr);
    run
}

#[test]
fn known_puzzles_are_found_with_their_move() {
    let file = format!("{DATA}/known.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let known: Vec<(u32, &str, &str)> = lines
        .windows(2)
        .filter_map(|pair| {
            let (n, first) = pair[0].strip_prefix("# N ")?.split_once(": ")?;
            Some((n.parse().unwrap(), first, pair[1]))
        })
        .collect();
    assert_eq!(known.len(), 3);
    let dir = Scratch::new("puzzles-known");
    for (n, first, game) in known {
        let out = dir.path(&format!("n{n}.jsonl"));
        mine(&[&file], &out, &["--plies", &n.to_string()]);
        let found = records(&out);
        let puzzle = found
            .iter()
            .find(|p| p["game"] == game)
            .unwrap_or_else(|| panic!("no puzzle at the end of the game of N {n}: {found:?}"));
        assert_eq!(puzzle["kind"], "win");
        assert_eq!(puzzle["solution"][0], first, "N {n}");
        assert!(puzzle["plies"].as_u64().unwrap() <= u64::from(n));
        assert_eq!(puzzle["to_move"], "White");
        assert_eq!(puzzle["id"].as_str().unwrap().len(), 16);
    }
}

/// A MoveString's reference turned 60° clockwise (`mirror`: reflected left to right instead).
fn turned(mv: &str, mirror: bool) -> String {
    let Some((piece, reference)) = mv.split_once(' ') else {
        return mv.to_string();
    };
    // Each direction as the MoveString writes it, clockwise from north-west: \X X/ X- X\ /X -X.
    let (before, after) = (reference.chars().next().unwrap(), reference.chars().last().unwrap());
    let index = match (before, after) {
        ('\\', _) => 0,
        (_, '/') => 1,
        (_, '-') => 2,
        (_, '\\') => 3,
        ('/', _) => 4,
        ('-', _) => 5,
        // On top of a piece: no direction.
        _ => return mv.to_string(),
    };
    let name = reference.trim_matches(['\\', '/', '-']);
    let index = if mirror {
        [1, 0, 5, 4, 3, 2][index]
    } else {
        (index + 1) % 6
    };
    let written = match index {
        0 => format!("\\{name}"),
        1 => format!("{name}/"),
        2 => format!("{name}-"),
        3 => format!("{name}\\"),
        4 => format!("/{name}"),
        _ => format!("-{name}"),
    };
    format!("{piece} {written}")
}

#[test]
fn a_game_turned_or_mirrored_gives_its_puzzles_once() {
    let games = std::fs::read_to_string(format!("{DATA}/selfplay20.txt")).unwrap();
    // The fourth game, which has two puzzles within three plies.
    let (result, game) = games.lines().nth(3).unwrap().split_once('\t').unwrap();
    let fields: Vec<&str> = game.split(';').collect();
    let copy = |mirror: bool| {
        let moves: Vec<String> = fields[3..].iter().map(|mv| turned(mv, mirror)).collect();
        format!(
            "{result}\t{};{};{};{}",
            fields[0],
            fields[1],
            fields[2],
            moves.join(";")
        )
    };
    let dir = Scratch::new("puzzles-turned");
    let (alone, copies) = (dir.path("alone.txt"), dir.path("copies.txt"));
    std::fs::write(&alone, format!("{result}\t{game}\n")).unwrap();
    std::fs::write(&copies, format!("{result}\t{game}\n{}\n{}\n", copy(false), copy(true))).unwrap();
    let (one, three) = (dir.path("one.jsonl"), dir.path("three.jsonl"));
    mine(&[&alone], &one, &["--plies", "3"]);
    let run = mine(&[&copies], &three, &["--plies", "3"]);
    let without_source = |mut records: Vec<Value>| {
        for record in &mut records {
            record.as_object_mut().unwrap().remove("source");
        }
        records
    };
    let (once, thrice) = (without_source(records(&one)), without_source(records(&three)));
    assert!(once.len() >= 2, "{once:?}");
    assert_eq!(once, thrice, "the copies' puzzles are the first game's");
    assert!(
        run.stdout.contains(&format!("({} repeats dropped)", 2 * once.len())),
        "{}",
        run.stdout
    );
}

#[test]
fn the_same_games_give_the_same_file_whatever_the_threads_and_shares() {
    let games = format!("{DATA}/selfplay20.txt");
    let dir = Scratch::new("puzzles-same");
    let (one, two) = (dir.path("one.jsonl"), dir.path("two.jsonl"));
    mine(&[&games], &one, &["--plies", "3"]);
    mine(&[&games], &two, &["--plies", "3", "--threads", "2"]);
    let whole = std::fs::read_to_string(&one).unwrap();
    assert_eq!(whole, std::fs::read_to_string(&two).unwrap());
    assert!(whole.lines().count() >= 10, "{whole}");
    let (a, b, joined) = (dir.path("a.jsonl"), dir.path("b.jsonl"), dir.path("joined.jsonl"));
    mine(&[&games], &a, &["--plies", "3", "--shard", "1/2"]);
    mine(&[&games], &b, &["--plies", "3", "--shard", "2/2"]);
    mine(&[&a, &b], &joined, &["--join"]);
    assert_eq!(whole, std::fs::read_to_string(&joined).unwrap());
    // The first ten games: the whole run's puzzles of those games.
    let first = dir.path("first.jsonl");
    mine(&[&games], &first, &["--plies", "3", "--first", "10"]);
    let of_first: Vec<Value> = records(&one)
        .into_iter()
        .filter(|p| p["source"]["index"].as_u64().unwrap() <= 10)
        .collect();
    assert!(!of_first.is_empty());
    assert_eq!(records(&first), of_first);
    assert!(
        dir.files().iter().all(|f| !f.ends_with(".progress")),
        "{:?}",
        dir.files()
    );
}

#[test]
fn per_game_keeps_the_first_puzzles_of_each_game_and_passes_over_their_lines() {
    let games = format!("{DATA}/selfplay20.txt");
    let dir = Scratch::new("puzzles-per-game");
    let (all, one) = (dir.path("all.jsonl"), dir.path("one.jsonl"));
    mine(&[&games], &all, &["--plies", "3"]);
    mine(&[&games], &one, &["--plies", "3", "--per-game", "1"]);
    let (all, one) = (records(&all), records(&one));
    let game_of = |p: &Value| p["source"]["index"].as_u64().unwrap();
    // Each game's first puzzle, and no other.
    let mut firsts: Vec<&Value> = Vec::new();
    for puzzle in &all {
        if firsts.last().is_none_or(|last| game_of(last) != game_of(puzzle)) {
            firsts.push(puzzle);
        }
    }
    assert!(all.len() > firsts.len(), "some game has two puzzles: {}", all.len());
    assert_eq!(one.iter().collect::<Vec<_>>(), firsts);
    // With room for two, the fourth game's second puzzle (within three plies of its first) is passed over.
    let two = dir.path("two.jsonl");
    mine(&[&games], &two, &["--plies", "3", "--per-game", "2"]);
    let two = records(&two);
    let fourth: Vec<u64> = two
        .iter()
        .filter(|p| game_of(p) == 4)
        .map(|p| p["source"]["ply"].as_u64().unwrap())
        .collect();
    assert!(fourth.windows(2).all(|pair| pair[1] >= pair[0] + 3), "{fourth:?}");
}

#[test]
fn a_players_own_mistake_is_found_from_a_review() {
    let dir = Scratch::new("puzzles-mistake");
    let out = dir.path("mine.jsonl");
    mine(
        &[&format!("{DATA}/mistake.txt")],
        &out,
        &["--from-review", "--review-nodes", "200000"],
    );
    let found = records(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    let puzzle = &found[0];
    assert_eq!(puzzle["kind"], "defend");
    assert_eq!(puzzle["solution"], serde_json::json!(["bL \\wG2"]));
    assert_eq!(puzzle["source"]["played"], "bL wG2/");
    assert_eq!(puzzle["source"]["ply"], 31);
}

#[test]
fn a_file_that_cannot_be_read_is_named_and_the_others_mined() {
    let dir = Scratch::new("puzzles-refused");
    std::fs::write(
        dir.path("broken.pgn"),
        "[GameType \"Base\"]\n\n1. wS1 2. bS1 wS1- 3. wQ bS1-\n",
    )
    .unwrap();
    std::fs::copy(format!("{DATA}/known.txt"), dir.path("known.pgn")).unwrap();
    let out = dir.path("out.jsonl");
    let run = Waggle::new(["puzzles", dir.0.to_str().unwrap(), "--out", &out, "--plies", "1"]).run();
    assert_eq!(run.code(), Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("broken.pgn"), "{}", run.stderr);
    assert!(run.stdout.contains("refused 1"), "{}", run.stdout);
}

#[test]
fn a_puzzle_is_solved_and_failed_at_the_terminal() {
    let dir = Scratch::new("puzzles-terminal");
    let out = dir.path("out.jsonl");
    mine(&[&format!("{DATA}/known.txt")], &out, &["--plies", "3"]);
    let found = records(&out);
    let puzzle = found
        .iter()
        .find(|p| p["plies"] == 3 && p["kind"] == "win")
        .expect("a win in three");
    let id = puzzle["id"].as_str().unwrap();
    let solution: Vec<&str> = puzzle["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // Another legal move than the solution's first: wrong, with its refutation; then the solution's moves.
    let game =
        waggle::Game::from_record(&puzzle["game"].as_str().unwrap().parse().unwrap(), Default::default()).unwrap();
    let other = game
        .legal_moves()
        .into_iter()
        .map(|mv| game.move_string(mv).to_string())
        .find(|mv| mv != solution[0])
        .unwrap();
    let input = format!("pass\n{other}\n{}\n{}\n", solution[0], solution[2]);
    let run = Waggle::new(["puzzle", &out, "--id", id]).input(input).run();
    assert!(run.success(), "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.contains("win in 3 plies"), "{text}");
    assert!(text.contains("You can't pass"), "{text}");
    assert!(text.contains("Not that one. It is met by "), "{text}");
    assert!(
        text.contains(&format!("Right: {}. The answer: {}.", solution[0], solution[1])),
        "{text}"
    );
    assert!(
        text.contains("Solved! Streak: 0."),
        "a wrong move breaks the streak: {text}"
    );
    assert!(text.contains("1 of 1 puzzles solved, 0 at the first try"), "{text}");

    let wrong = Waggle::new(["puzzle", &out, "--id", id]).input("wQ\nsolution\n").run();
    assert!(wrong.success(), "{}", wrong.stderr);
    assert!(wrong.stdout.contains("The solution from here:"), "{}", wrong.stdout);
}
