//! The arena against engines that misbehave, and the real binary against itself.
//!
//! This test has its own `main` (`harness = false` in Cargo.toml) so that it can also be the fake engines: run
//! as `arena --fake-engine KIND`, it is a UHP engine that plays honestly (through Waggle's own session) until its
//! third move and then misbehaves as KIND says: crash, hang, answer an illegal move, answer in another notation,
//! print junk, flood, disagree about the game, refuse a legal move, run out of time. Without that flag it runs
//! the tests below, each a match: every forfeit must go to the right side with the right reason, and every match
//! must finish.
//!
//! The random fake (`random:SEED`) also stalls, dies mid-reply and writes lines longer than the referee keeps;
//! given `--tally FILE`, it appends the number of lines it writes after each reply, so that a fuzz run can say how
//! many lines reached the referee. `cargo test --test arena -- --ignored` runs the long fuzz: at least
//! [`LONG_FUZZ_LINES`] lines.

mod common;

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use waggle::arena::{EngineSpec, GameSettings, MatchConfig, MoveLimit, Openings, Shard};
use waggle::uhp::Session;
use waggle::MoveString;
use waggle::{Engine, Options};
use waggle::{GameState, GameType, Rules};

use common::{Scratch, Waggle, WAGGLE};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value_of = |flag: &str| {
        let i = args.iter().position(|a| a == flag)?;
        args.get(i + 1).map(String::as_str)
    };
    if args.iter().any(|a| a == "--fake-engine") {
        fake_engine(value_of("--fake-engine").unwrap_or("honest"), value_of("--tally"));
        return;
    }
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    // `cargo test --test arena -- --ignored` runs the long fuzz instead.
    if args.iter().any(|a| a == "--ignored") {
        random_replies_long_fuzz();
        println!("test random_replies_long_fuzz ... ok");
        return;
    }
    let tests: &[(&str, fn())] = &[
        (
            "waggle_against_itself_writes_records_that_replay",
            waggle_against_itself_writes_records_that_replay,
        ),
        ("shards_merge_to_the_whole_match", shards_merge_to_the_whole_match),
        (
            "forfeits_go_to_the_engine_that_misbehaves",
            forfeits_go_to_the_engine_that_misbehaves,
        ),
        ("tolerable_quirks_are_accepted", tolerable_quirks_are_accepted),
        ("running_out_of_clock_loses", running_out_of_clock_loses),
        (
            "engines_are_told_of_the_repetition_rule",
            engines_are_told_of_the_repetition_rule,
        ),
        (
            "an_engine_that_cannot_start_stops_the_match",
            an_engine_that_cannot_start_stops_the_match,
        ),
        ("a_round_robin_ranks_every_engine", a_round_robin_ranks_every_engine),
        (
            "random_replies_never_hang_the_referee",
            random_replies_never_hang_the_referee,
        ),
    ];
    let mut failed = Vec::new();
    for (name, test) in tests {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(test);
        println!(
            "test {name} ... {} ({:.1} s)",
            if outcome.is_ok() { "ok" } else { "FAILED" },
            start.elapsed().as_secs_f64()
        );
        if outcome.is_err() {
            failed.push(*name);
        }
    }
    if !failed.is_empty() {
        println!("failed: {failed:?}");
        std::process::exit(1);
    }
}

/// The command line of a fake engine of `kind`.
fn fake(kind: &str) -> String {
    let exe = std::env::current_exe().expect("the test's own path");
    format!("'{}' --fake-engine {kind}", exe.display())
}

/// The command line of a fake engine of `kind` that tallies the lines it writes in `tally`.
fn tallied_fake(kind: &str, tally: &Path) -> String {
    format!("{} --tally '{}'", fake(kind), tally.display())
}

fn waggle() -> String {
    format!("'{WAGGLE}'")
}

/// A scratch directory of this test's own, removed when the test is done with it.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("arena-{name}"))
}

/// Settings for quick games at depth 1. Every engine that hangs or stalls costs the whole timeout, so it is short;
/// Waggle answers a command at depth 1 in milliseconds, so it is still ample.
fn quick(limit: MoveLimit) -> GameSettings {
    GameSettings {
        limit,
        margin: Duration::from_millis(300),
        timeout: Duration::from_secs(1),
        max_plies: Some(80),
        threefold: false,
    }
}

/// Play `engines` for `games` games with `settings` in-process; returns the printed text and the results file.
fn play(engines: &[String], games: usize, settings: GameSettings, dir: &Path) -> (String, Results) {
    let results = dir.join("results.tsv");
    let config = MatchConfig {
        engines: engines
            .iter()
            .map(|command| EngineSpec {
                command: command.clone(),
                name: None,
            })
            .collect(),
        gauntlet: false,
        games,
        game_type: GameType::MLP,
        openings: Openings::Random { plies: 2, seed: 3 },
        settings,
        sprt: None,
        concurrency: 2,
        shard: Shard::ALL,
        pgn_dir: Some(dir.join("pgn")),
        results_file: Some(results.clone()),
    };
    let mut out = Vec::new();
    waggle::arena::play_match(&config, &Default::default(), &mut out, None).expect("the match runs to its end");
    (String::from_utf8(out).unwrap(), Results::read(&results))
}

/// The games of a results file, as its format (docs/match.md) lays them out: one tab-separated line a game,
/// `NUMBER PAIR PAIRING OPENING WHITE BLACK STATE FORFEIT PLIES`, then times, and the reason last.
struct Results {
    games: Vec<ResultRow>,
}

/// The fields of one game the tests look at.
struct ResultRow {
    game: Seats,
    state: GameState,
    forfeit: Option<waggle::Color>,
    plies: usize,
    reason: String,
}

/// Which engine (by its index in the match) played which colour.
struct Seats {
    white: usize,
    black: usize,
}

impl Results {
    fn read(path: &Path) -> Results {
        let text = std::fs::read_to_string(path).unwrap();
        let games = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let fields: Vec<&str> = line.split('\t').collect();
                let forfeit = match fields[7] {
                    "White" => Some(waggle::Color::White),
                    "Black" => Some(waggle::Color::Black),
                    _ => None,
                };
                ResultRow {
                    game: Seats {
                        white: fields[4].parse().unwrap(),
                        black: fields[5].parse().unwrap(),
                    },
                    state: match fields[6] {
                        "WhiteWins" => GameState::WhiteWins,
                        "BlackWins" => GameState::BlackWins,
                        "Draw" => GameState::Draw,
                        other => panic!("'{other}' is not the end of a game: {line}"),
                    },
                    forfeit,
                    plies: fields[8].parse().unwrap(),
                    reason: fields.last().unwrap().to_string(),
                }
            })
            .collect();
        Results { games }
    }
}

/// Every `.pgn` file in `dir` replays with Waggle's rules to the result it records, unless the referee ended
/// the game (a forfeit or an adjudication, given in the Termination tag).
fn check_records(dir: &Path, games: usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), games, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let records = waggle::record::read_pgn(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(records.len(), 1);
        let record = &records[0];
        let game = record
            .replay(Rules::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let result = record
            .result()
            .unwrap_or_else(|| panic!("{}: no result", path.display()));
        let termination = record.tag("Termination").unwrap_or("");
        if termination.contains("forfeits") || termination.contains("adjudicated") {
            assert!(!game.state().is_over() || game.state() == result, "{}", path.display());
        } else {
            assert_eq!(game.state(), result, "{}: {termination}", path.display());
        }
    }
}

fn waggle_against_itself_writes_records_that_replay() {
    let dir = scratch("self");
    let output = Waggle::new([
        "match",
        "--depth",
        "1",
        "--games",
        "4",
        "--max-plies",
        "120",
        "--openings",
        "3",
    ])
    .arg("--pgn")
    .arg(dir.join("pgn"))
    .args([waggle(), waggle()])
    .run();
    let text = output.stdout;
    assert!(output.status.success(), "{text}\n{}", output.stderr);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("Finished game")).count(),
        4,
        "{text}"
    );
    assert!(!text.contains("forfeits:"), "{text}");
    let name = format!("Waggle v{}", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&format!("Score of {name} vs {name} (2): ")), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    assert!(text.contains("Referee overhead: "), "{text}");
    check_records(&dir.join("pgn"), 4);
}

/// The summary's lines (not the running score printed after each game) of a match of two engines: from its one
/// score line, the last line of the text to start as score lines do.
fn summary_of(text: &str) -> Vec<String> {
    let keep = ["Score of", "...", "Elo difference", "Pairs"];
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Score of"))
        .unwrap_or(lines.len());
    lines[start..]
        .iter()
        .filter(|l| keep.iter().any(|k| l.starts_with(k)))
        .map(|l| l.to_string())
        .collect()
}

fn shards_merge_to_the_whole_match() {
    let dir = scratch("shards");
    let base = [
        "match",
        "--depth",
        "1",
        "--games",
        "6",
        "--max-plies",
        "60",
        "--openings",
        "3",
        "--seed",
        "9",
    ];
    let run = |extra: &[&str]| {
        let output = Waggle::new(base).args(extra).args([waggle(), waggle()]).dir(&dir).run();
        assert!(output.status.success(), "{output:?}");
        output.stdout
    };
    let whole = run(&[]);
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        run(&["--shard", shard]);
        files.push(format!("shard-{}-of-3.results", &shard[..1]));
    }
    let merged = Waggle::new(["match", "merge"]).args(&files).dir(&dir).run().stdout;
    assert!(merged.starts_with("Merged 6 games from 3 files"), "{merged}");
    assert_eq!(summary_of(&merged), summary_of(&whole), "{merged}\n{whole}");
    assert_eq!(summary_of(&whole).len(), 4, "{whole}");
}

/// What a misbehaving engine of each kind must lose by: a phrase of the reason.
const MISDEEDS: &[(&str, &str)] = &[
    ("crash", "exited mid-game"),
    ("hang", "did not answer within"),
    ("illegal", "played the illegal move"),
    ("junk", "which is not a move here"),
    ("flood", "flooded its output"),
    ("disagree", "disagrees about the game"),
    ("refuse", "with invalidmove"),
    ("err", "with err I am broken"),
    ("midreply", "exited mid-game"),
];

fn forfeits_go_to_the_engine_that_misbehaves() {
    for &(kind, reason) in MISDEEDS {
        let dir = scratch(kind);
        let (text, results) = play(&[fake(kind), waggle()], 2, quick(MoveLimit::Depth(1)), &dir);
        assert_eq!(results.games.len(), 2, "{kind}: {text}");
        for game in &results.games {
            let fake_color = if game.game.white == 0 {
                waggle::Color::White
            } else {
                waggle::Color::Black
            };
            assert_eq!(game.forfeit, Some(fake_color), "{kind}: {text}");
            assert!(
                game.reason.contains(reason),
                "{kind}: expected '{reason}' in '{}'",
                game.reason
            );
            let winner = if fake_color == waggle::Color::White {
                GameState::BlackWins
            } else {
                GameState::WhiteWins
            };
            assert_eq!(game.state, winner, "{kind}");
        }
        assert!(text.contains("Score of "), "{kind}: {text}");
        check_records(&dir.join("pgn"), 2);
    }
}

fn tolerable_quirks_are_accepted() {
    for kind in ["notation", "chatty", "stderr"] {
        let dir = scratch(kind);
        let (text, results) = play(&[fake(kind), waggle()], 2, quick(MoveLimit::Depth(1)), &dir);
        for game in &results.games {
            assert_eq!(game.forfeit, None, "{kind}: {}", game.reason);
            assert!(game.plies > 6, "{kind}: {}", game.reason);
        }
        assert!(!text.contains("forfeits:"), "{kind}: {text}");
    }
}

/// Under `threefold`, the referee sets `ThreefoldRepetitionDraw` on in every engine that lists it: the fake that
/// lists it (through Waggle's session) but refuses it forfeits for that, and plays on when the referee does not
/// count repetitions; Waggle itself takes it and plays whole games.
fn engines_are_told_of_the_repetition_rule() {
    let threefold = GameSettings {
        threefold: true,
        ..quick(MoveLimit::Depth(1))
    };
    let dir = scratch("repetition-refused");
    let (text, results) = play(&[fake("no-repetition"), waggle()], 2, threefold.clone(), &dir);
    assert_eq!(results.games.len(), 2, "{text}");
    for game in &results.games {
        let fake_color = if game.game.white == 0 {
            waggle::Color::White
        } else {
            waggle::Color::Black
        };
        assert_eq!(game.forfeit, Some(fake_color), "{text}");
        assert!(game.reason.contains("lists ThreefoldRepetitionDraw"), "{}", game.reason);
    }
    let dir = scratch("repetition-not-counted");
    let (text, results) = play(&[fake("no-repetition"), waggle()], 2, quick(MoveLimit::Depth(1)), &dir);
    assert!(results.games.iter().all(|game| game.forfeit.is_none()), "{text}");
    let dir = scratch("repetition-told");
    let (text, results) = play(&[waggle(), waggle()], 2, threefold, &dir);
    assert!(results.games.iter().all(|game| game.forfeit.is_none()), "{text}");
}

fn running_out_of_clock_loses() {
    let dir = scratch("slow-time");
    let (_, results) = play(
        &[fake("slow"), waggle()],
        2,
        quick(MoveLimit::Time(Duration::from_millis(100))),
        &dir,
    );
    for game in &results.games {
        assert!(
            game.forfeit.is_some() && game.reason.contains("lost on time"),
            "{}",
            game.reason
        );
    }
    let dir = scratch("slow-clock");
    let clock = MoveLimit::Clock {
        base: Duration::from_millis(800),
        increment: Duration::ZERO,
    };
    let (_, results) = play(&[fake("slow"), waggle()], 2, quick(clock), &dir);
    for game in &results.games {
        assert!(game.reason.contains("lost on time"), "{}", game.reason);
        let fake_color = if game.game.white == 0 {
            waggle::Color::White
        } else {
            waggle::Color::Black
        };
        assert_eq!(game.forfeit, Some(fake_color), "{}", game.reason);
    }
}

fn an_engine_that_cannot_start_stops_the_match() {
    let output = Waggle::new(["match", "--depth", "1", "/nonexistent/engine", &waggle()]).run();
    assert!(!output.status.success());
    let error = &output.stderr;
    assert!(
        error.contains("engine 1") && error.contains("could not be started"),
        "{error}"
    );
}

fn a_round_robin_ranks_every_engine() {
    let dir = scratch("round-robin");
    let book = dir.join("book.pgn");
    let opening = "[GameType \"Base\"]\n[Result \"InProgress\"]\n\n1. wS1\n2. bS1 wS1-\n";
    std::fs::write(&book, opening).unwrap();
    let output = Waggle::new(["match", "--depth", "1", "--games", "2", "--max-plies", "40", "--book"])
        .arg(&book)
        .arg("--pgn")
        .arg(dir.join("pgn"))
        .args([
            "--name",
            "A",
            "--name",
            "B",
            "--name",
            "C",
            &waggle(),
            &waggle(),
            &waggle(),
        ])
        .run();
    let text = output.stdout;
    assert!(output.status.success(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("Finished game")).count(),
        6,
        "{text}"
    );
    for pairing in ["Score of A vs B", "Score of A vs C", "Score of B vs C"] {
        assert!(text.contains(pairing), "{pairing}: {text}");
    }
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    for name in ["A", "B", "C"] {
        assert_eq!(
            table
                .iter()
                .filter(|row| row.split_whitespace().nth(1) == Some(name))
                .count(),
            1,
            "{text}"
        );
    }
    // Every game started from the book's opening.
    for entry in std::fs::read_dir(dir.join("pgn")).unwrap() {
        let record = waggle::record::read_pgn(&std::fs::read_to_string(entry.unwrap().path()).unwrap())
            .unwrap()
            .remove(0);
        let start: Vec<String> = record.record.moves.iter().take(2).map(|m| m.to_string()).collect();
        assert_eq!(start, ["wS1", "bS1 wS1-"]);
    }
}

fn random_replies_never_hang_the_referee() {
    let dir = scratch("fuzz-tally");
    let tally = dir.join("lines");
    let mut lines = 0;
    for seed in 0..6 {
        let _ = fuzz_replies(seed, 2, &tally);
        let now = lines_in(&tally);
        assert!(now > lines, "seed {seed}: no lines tallied");
        lines = now;
    }
    println!("    {lines} reply lines reached the referee");
}

/// How many lines the long fuzz sends the referee, at least.
const LONG_FUZZ_LINES: u64 = 1_000_000;

/// Matches against random fakes until [`LONG_FUZZ_LINES`] lines of replies have reached the referee.
fn random_replies_long_fuzz() {
    let start = Instant::now();
    let dir = scratch("fuzz-long");
    let tally = dir.join("lines");
    let mut seed = 1_000;
    let mut lines = 0;
    let mut forfeits = std::collections::BTreeMap::new();
    while lines < LONG_FUZZ_LINES {
        for reason in fuzz_replies(seed, 40, &tally) {
            *forfeits.entry(kind_of_forfeit(&reason)).or_insert(0) += 1;
        }
        lines = lines_in(&tally);
        seed += 1;
        if seed % 25 == 0 {
            println!("    {lines} lines after {} matches", seed - 1_000);
        }
    }
    println!(
        "    {lines} reply lines reached the referee in {} matches of 40 games, {:.0} s",
        seed - 1_000,
        start.elapsed().as_secs_f64()
    );
    println!("    the fake's forfeits: {forfeits:?}");
    assert!(forfeits.contains_key("did not answer"), "no stall in the whole run");
}

/// What a forfeit was for, in a few words.
fn kind_of_forfeit(reason: &str) -> &'static str {
    const KINDS: &[&str] = &[
        "did not answer",
        "exited mid-game",
        "flooded",
        "stopped reading",
        "disagrees",
        "with err",
        "with invalidmove",
        "without a move",
        "not a move here",
        "illegal move",
    ];
    KINDS.iter().find(|k| reason.contains(*k)).copied().unwrap_or("other")
}

/// How long one match of the fuzz may take before it counts as hung: far more than the stalls can cost.
const MATCH_PATIENCE: Duration = Duration::from_secs(600);

/// A match of `games` games against a fake that answers at random (honestly, or with junk, errors, floods, early
/// exits, deaths mid-reply, stalls, giant lines, wrong GameStrings, moves in any notation), tallying the fake's
/// lines in `tally`: the match finishes, Waggle never forfeits, and each forfeit is the fake's. Returns the reasons
/// of the forfeits.
fn fuzz_replies(seed: u64, games: usize, tally: &Path) -> Vec<String> {
    let dir = scratch(&format!("fuzz-{seed}"));
    let engines = [tallied_fake(&format!("random:{seed}"), tally), waggle()];
    // A hung referee would hang the test: end the test instead, saying where.
    let (done, finished) = channel::<()>();
    thread::spawn(move || {
        if finished.recv_timeout(MATCH_PATIENCE).is_err() {
            eprintln!("the match of seed {seed} did not finish within {MATCH_PATIENCE:?}");
            std::process::exit(1);
        }
    });
    let (text, results) = play(&engines, games, quick(MoveLimit::Depth(1)), &dir);
    let _ = done.send(());
    assert_eq!(results.games.len(), games, "seed {seed}: {text}");
    for game in &results.games {
        if let Some(color) = game.forfeit {
            let loser = if color == waggle::Color::White {
                game.game.white
            } else {
                game.game.black
            };
            assert_eq!(loser, 0, "seed {seed}: Waggle forfeited: {}", game.reason);
        }
    }
    results
        .games
        .into_iter()
        .filter(|g| g.forfeit.is_some())
        .map(|g| g.reason)
        .collect()
}

/// The lines tallied in `path` (none if there is no such file yet).
fn lines_in(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|n| n.parse::<u64>().unwrap_or_else(|_| panic!("'{n}' in the tally")))
        .sum()
}

/// A fake's stdout, counting the lines it writes; each flush appends the count since the last one to the tally
/// file (one `write` to a file opened for appending, so that fakes running at once do not mix their counts).
struct Tallied<W: Write> {
    out: W,
    lines: u64,
    tally: Option<File>,
}

impl<W: Write> Tallied<W> {
    fn new(out: W, tally: Option<&str>) -> Self {
        let tally = tally.map(|path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap_or_else(|e| panic!("the tally {path}: {e}"))
        });
        Tallied { out, lines: 0, tally }
    }

    /// The stream itself, for writes that are not counted: a flood would otherwise make up most of the tally.
    fn untallied(&mut self) -> &mut W {
        &mut self.out
    }
}

impl<W: Write> Write for Tallied<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.out.write(buf)?;
        self.lines += buf[..written].iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        if let (Some(tally), true) = (self.tally.as_mut(), self.lines > 0) {
            tally.write_all(format!("{}\n", self.lines).as_bytes())?;
            self.lines = 0;
        }
        Ok(())
    }
}

/// A UHP engine that plays honestly through Waggle's own session, except as `kind` says from its third move on;
/// the lines it writes are tallied in the file `tally`, if given.
fn fake_engine(kind: &str, tally: Option<&str>) {
    let mut session = Session::new(
        Vec::new(),
        Engine::new(Options {
            max_hash_size: waggle::HashSize::megabytes(1).unwrap(),
            ..Options::default()
        })
        .unwrap(),
    );
    let mut out = Tallied::new(io::stdout().lock(), tally);
    if kind == "stderr" {
        let _ = io::stderr().write_all(&vec![b'x'; 1 << 20]);
    }
    session.start().unwrap();
    out.write_all(&std::mem::take(session.output_mut())).unwrap();
    out.flush().unwrap();
    let (mut moves, mut plays) = (0, 0);
    // Each fake of a match starts afresh after a forfeit: its own process id keeps it from repeating the last one.
    let mut random = kind
        .strip_prefix("random:")
        .and_then(|seed| seed.parse::<u64>().ok())
        .map(|seed| {
            let seed = seed ^ (u64::from(std::process::id()) << 32);
            let _ = writeln!(io::stderr(), "random fake, seed {seed}");
            StdRng::seed_from_u64(seed)
        });
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let command = line.split_whitespace().next().unwrap_or("").to_string();
        if command == "bestmove" {
            moves += 1;
        }
        if command == "play" {
            plays += 1;
        }
        let late = moves >= 3;
        if let Some(rng) = random.as_mut() {
            if command != "newgame" && rng.gen_bool(0.15) {
                random_reply(rng, &mut session, &line, &mut out);
                continue;
            }
        }
        match (kind, command.as_str()) {
            ("crash", "bestmove") if late => std::process::exit(3),
            ("hang", "bestmove") if late => std::thread::sleep(Duration::from_secs(3600)),
            ("illegal", "bestmove") if late => {
                writeln!(out, "pass\nok").unwrap();
            }
            ("junk", "bestmove") if late => {
                writeln!(out, "thinking hard\nhello world\nok").unwrap();
            }
            ("flood", "bestmove") if late => loop {
                if writeln!(out, "flood flood flood").is_err() {
                    return;
                }
            },
            ("midreply", "bestmove") if late => {
                write!(out, "wS").unwrap();
                out.flush().unwrap();
                std::process::exit(0);
            }
            ("err", "bestmove") => writeln!(out, "err I am broken\nok").unwrap(),
            ("no-repetition", "options") if line.contains("ThreefoldRepetitionDraw") => {
                writeln!(out, "err I will not count repetitions\nok").unwrap();
            }
            ("disagree", "play") if plays >= 5 => {
                // The game as it was before this move: one move short.
                let game = session
                    .engine()
                    .expect("idle between lines")
                    .game()
                    .map(|g| g.game_string().to_string())
                    .unwrap_or_default();
                session.handle(&line).unwrap();
                session.output_mut().clear();
                writeln!(out, "{game}\nok").unwrap();
            }
            ("refuse", "play") if plays >= 5 => {
                writeln!(out, "invalidmove You can't do that.\nok").unwrap();
            }
            ("slow", "bestmove") if late => {
                std::thread::sleep(Duration::from_millis(1500));
                session.handle(&line).unwrap();
                out.write_all(&std::mem::take(session.output_mut())).unwrap();
            }
            (_, "bestmove") => {
                session.handle(&line).unwrap();
                let reply = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
                let reply = match kind {
                    "notation" => another_notation(&session, &reply),
                    "chatty" => format!("wondering about the Queen\n{reply}"),
                    _ => reply,
                };
                if kind == "stderr" {
                    let _ = io::stderr().write_all(&vec![b'y'; 64 * 1024]);
                }
                out.write_all(reply.as_bytes()).unwrap();
            }
            _ => {
                let flow = session.handle(&line).unwrap();
                out.write_all(&std::mem::take(session.output_mut())).unwrap();
                if flow == waggle::uhp::Flow::Exit {
                    return;
                }
            }
        }
        out.flush().unwrap();
    }
}

/// One in this many random replies is a stall: each costs the referee its whole timeout.
const STALL_ODDS: u32 = 150;

/// The shortest and longest giant line: longer than the referee keeps of a line (64 KiB).
const GIANT_LINE: std::ops::Range<usize> = 65 * 1024..2 << 20;

/// One of the many wrong ways to answer `line`.
fn random_reply(rng: &mut StdRng, session: &mut Session<Vec<u8>>, line: &str, out: &mut Tallied<impl Write>) {
    session.handle(line).unwrap();
    let honest = String::from_utf8(std::mem::take(session.output_mut())).unwrap();
    let first = honest.lines().next().unwrap_or("").to_string();
    if rng.gen_ratio(1, STALL_ODDS) {
        stall(rng, &first, out);
    }
    let junk = [
        "",
        "ok ok",
        "errand",
        "wQ",
        "pass",
        "bQ -wQ",
        "Base;InProgress;White[1]",
        "invalid",
        "\u{1F41D}",
    ];
    let text = match rng.gen_range(0..11) {
        0 => format!("{}\nok\n", junk[rng.gen_range(0..junk.len())]),
        1 => "err something broke\nok\n".to_string(),
        2 => "invalidmove no\nok\n".to_string(),
        3 => std::process::exit(rng.gen_range(0..3)),
        4 => {
            let _ = write!(out, "{}", &first[..first.len() / 2]);
            let _ = out.flush();
            std::process::exit(0);
        }
        5 => {
            let _ = out.untallied().write_all("flood\n".repeat(20_000).as_bytes());
            let _ = out.flush();
            return;
        }
        6 => format!(
            "{}\nok\n",
            first.replace("InProgress", "Draw").replace("White[", "Black[")
        ),
        7 => format!("{}x\nok\n", first),
        8 => die_mid_reply(rng, &honest, out),
        9 => {
            let giant = giant_line(rng);
            match rng.gen_range(0..3) {
                0 => format!("{giant}\nok\n"),
                1 => format!("{giant}\n{honest}"),
                _ => {
                    let _ = out.write_all(giant.as_bytes());
                    let _ = out.flush();
                    std::process::exit(0);
                }
            }
        }
        _ => {
            std::thread::sleep(Duration::from_millis(rng.gen_range(0..50)));
            honest
        }
    };
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Write the `honest` reply cut anywhere short of its last newline (whole lines, then part of the next), then exit.
fn die_mid_reply(rng: &mut StdRng, honest: &str, out: &mut impl Write) -> ! {
    let lines: Vec<&str> = honest.lines().collect();
    let whole = rng.gen_range(0..lines.len().max(1));
    let mut text: String = lines.iter().take(whole).map(|l| format!("{l}\n")).collect();
    if let Some(next) = lines.get(whole) {
        text.push_str(next.get(..rng.gen_range(0..=next.len())).unwrap_or(""));
    }
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    std::process::exit(rng.gen_range(0..3));
}

/// A line longer than the referee keeps, without its newline.
fn giant_line(rng: &mut StdRng) -> String {
    "wQ -bA1;".repeat(rng.gen_range(GIANT_LINE) / 8)
}

/// Say nothing more (after nothing, half a line or a giant line) until the referee gives up and kills the fake.
fn stall(rng: &mut StdRng, first: &str, out: &mut impl Write) -> ! {
    let start = match rng.gen_range(0..3) {
        0 => String::new(),
        1 => first[..first.len() / 2].to_string(),
        _ => giant_line(rng),
    };
    let _ = out.write_all(start.as_bytes());
    let _ = out.flush();
    // The referee kills the fake long before this; the bound keeps a stray one from lingering.
    std::thread::sleep(Duration::from_secs(60));
    std::process::exit(0);
}

/// The reply `bestmove` gave, with its move named from another piece next to the destination when there is one.
fn another_notation(session: &Session<Vec<u8>>, reply: &str) -> String {
    let Some(game) = session.engine().expect("idle between lines").game() else {
        return reply.to_string();
    };
    let Some(text) = reply.lines().next() else {
        return reply.to_string();
    };
    let Ok(mv) = game.resolve(text) else {
        return reply.to_string();
    };
    let (Some(piece), Some(to)) = (mv.piece(), mv.to()) else {
        return reply.to_string();
    };
    let board = game.position().board();
    let canonical = game.move_string(mv);
    for hex in to.neighbours().into_iter().chain([to]) {
        for reference in board.stack(hex) {
            let other = MoveString::Beside {
                piece,
                reference,
                direction: hex.direction_to(to),
            };
            if other != canonical && other.to_move(game.position()) == Ok(mv) {
                return format!("{other}\nok\n");
            }
        }
    }
    reply.to_string()
}
