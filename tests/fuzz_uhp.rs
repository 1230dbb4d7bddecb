//! Fuzzing the UHP session with lines a viewer, a script or a careless person might send: real commands with
//! good and bad arguments, commands cut short or run together, random words from the protocol's vocabulary, and
//! random bytes. Every line gets exactly one reply ending in `ok`; a failed command (`err`, `invalidmove`) leaves
//! the game as it was; nothing panics. A short run is part of `cargo test`; the long one is ignored:
//! `cargo test --release --test fuzz_uhp -- --ignored` (a million lines).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::uhp::{Flow, Session};
use waggle::uhp::{Outcome, ReplyReader};
use waggle::{Engine, Options};

const WORDS: &[&str] = &[
    "info",
    "newgame",
    "play",
    "pass",
    "validmoves",
    "bestmove",
    "undo",
    "options",
    "get",
    "set",
    "help",
    "board",
    "history",
    "perft",
    "time",
    "depth",
    "Base",
    "Base+M",
    "Base+MLP",
    "Base+PLM",
    "Base+X",
    "InProgress",
    "NotStarted",
    "White[1]",
    "Black[3]",
    "wQ",
    "bQ",
    "wS1",
    "bS2",
    "wA3",
    "bB1",
    "wG2",
    "wM",
    "bL",
    "wP",
    "-wS1",
    "wS1-",
    "/bQ",
    "bQ/",
    "\\wA1",
    "wA1\\",
    "MaxHashSize",
    "ReportIntermediateBestMoves",
    "ThreefoldRepetitionDraw",
    "TournamentOpening",
    "OpeningBook",
    "True",
    "False",
    "0",
    "1",
    "2",
    "-1",
    "99999999999999999999",
    "00:00:00.01",
    ";",
    "",
];

/// A line built from the protocol's own vocabulary, from a real move of the game, or from random bytes.
fn random_line(rng: &mut StdRng, session: &Session<Vec<u8>>) -> String {
    let legal: Vec<String> = session
        .engine()
        .expect("idle between lines")
        .valid_moves()
        .map(|moves| moves.iter().map(|m| m.to_string()).collect())
        .unwrap_or_default();
    const PIECES: &[&str] = &[
        "wQ", "bQ", "wS1", "bS1", "wB2", "bA3", "wG1", "bM", "wL", "bP", "wX", "bS3",
    ];
    const MARKS: &[&str] = &["-{}", "{}-", "/{}", "{}/", "\\{}", "{}\\", "{}"];
    match rng.gen_range(0..16) {
        14 | 15 => {
            let (piece, reference) = (PIECES.choose(rng).unwrap(), PIECES.choose(rng).unwrap());
            let mark = MARKS.choose(rng).unwrap().replace("{}", reference);
            format!("play {piece} {mark}")
        }
        0 => format!(
            "newgame {}",
            ["Base", "Base+MLP", "Base+M", "Base+L", "Base+P", ""]
                .choose(rng)
                .unwrap()
        ),
        1..=4 if !legal.is_empty() => format!("play {}", legal.choose(rng).unwrap()),
        5 => format!("undo {}", rng.gen_range(0..4)),
        6 => format!("bestmove depth {}", rng.gen_range(0..3)),
        7 => "bestmove time 00:00:00.0100000".to_string(),
        8 => format!("perft {}", rng.gen_range(0..3)),
        9 => {
            // A game string of the current game, cut or damaged.
            let game = session
                .engine()
                .expect("idle between lines")
                .game()
                .map(|g| g.game_string().to_string())
                .unwrap_or_default();
            let cut = rng.gen_range(0..=game.len());
            let mut text: String = game.chars().take(cut).collect();
            if rng.gen_bool(0.5) {
                text.push_str(WORDS.choose(rng).unwrap());
            }
            format!("newgame {text}")
        }
        10 => {
            let bytes: Vec<u8> = (0..rng.gen_range(0..40)).map(|_| rng.gen()).collect();
            String::from_utf8_lossy(&bytes).replace(['\n', '\r'], " ")
        }
        _ => {
            let n = rng.gen_range(0..6);
            let words: Vec<&str> = (0..n).map(|_| *WORDS.choose(rng).unwrap()).collect();
            let sep = [" ", "  ", "\t", ";"].choose(rng).unwrap();
            words.join(sep)
        }
    }
}

/// A search that the generator must never ask for: one that could run for minutes.
fn too_slow(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    match words.first().map(|w| w.to_ascii_lowercase()) {
        Some(w) if w == "perft" => number(1).is_some_and(|n| n > 3),
        Some(w) if w == "bestmove" => {
            words.get(1).is_some_and(|k| k.eq_ignore_ascii_case("depth")) && number(2).is_some_and(|n| n > 3)
                || words.get(1).is_some_and(|k| k.eq_ignore_ascii_case("time"))
        }
        _ => false,
    }
}

/// Run `lines` random lines; returns how many were accepted, refused with `err`, and refused as `invalidmove`.
fn fuzz(seed: u64, lines: usize) -> [usize; 3] {
    let mut counts = [0; 3];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut session = Session::new(
        Vec::new(),
        Engine::new(Options {
            max_hash_size: waggle::HashSize::megabytes(4).unwrap(),
            ..Options::default()
        })
        .unwrap(),
    );
    for _ in 0..lines {
        let mut line = random_line(&mut rng, &session);
        if too_slow(&line) && !line.contains("00:00:00.01") {
            line = "validmoves".to_string();
        }
        let before = session
            .engine()
            .expect("idle between lines")
            .game()
            .map(|g| g.game_string());
        let flow = session.handle(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        if flow == Flow::Exit {
            continue;
        }
        let output = String::from_utf8(std::mem::take(session_output(&mut session))).unwrap();
        if line.trim().is_empty() {
            assert_eq!(output, "", "{line:?}");
            continue;
        }
        let mut reader = ReplyReader::default();
        let replies: Vec<_> = output.lines().filter_map(|l| reader.push(l)).collect();
        assert_eq!(replies.len(), 1, "{line:?} gave {output:?}");
        assert!(output.ends_with("ok\n"), "{line:?} gave {output:?}");
        let after = session
            .engine()
            .expect("idle between lines")
            .game()
            .map(|g| g.game_string());
        match replies[0].outcome {
            Outcome::Ok => counts[0] += 1,
            Outcome::Err(_) => counts[1] += 1,
            Outcome::InvalidMove(_) => counts[2] += 1,
        }
        if replies[0].outcome != Outcome::Ok {
            assert_eq!(before, after, "{line:?} failed but changed the game: {output:?}");
        }
    }
    counts
}

fn session_output(session: &mut Session<Vec<u8>>) -> &mut Vec<u8> {
    session.output_mut()
}

#[test]
fn a_short_fuzz_of_the_uhp_session() {
    let [accepted, errors, invalid] = fuzz(1, 5_000);
    // The generator reaches every kind of answer, so each check above was exercised.
    assert!(
        accepted > 1000 && errors > 500 && invalid > 50,
        "{accepted} {errors} {invalid}"
    );
}

#[test]
#[ignore = "long: minutes"]
fn a_long_fuzz_of_the_uhp_session() {
    // Fifty sessions of 20,000 lines: a million lines.
    for seed in 2..52 {
        let counts = fuzz(seed, 20_000);
        eprintln!("seed {seed}: {counts:?}");
    }
}
