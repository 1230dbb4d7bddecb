//! Fuzzing the terminal game with what a person might type: real moves, words with and without arguments, moves
//! of the wrong side, half-typed lines and random bytes. The game answers every line and never panics; the game
//! it reports stays a legal game. A short run is part of `cargo test`; the long one is ignored:
//! `cargo test --release --test fuzz_play -- --ignored`.

use std::io::Cursor;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::play::{run, Plain, PlayConfig};
use waggle::{Color, Game, GameType, Rules};
use waggle::{Engine, Options};

const WORDS: &[&str] = &[
    "undo",
    "hint",
    "resign",
    "resign because",
    "save",
    "show",
    "show wQ",
    "show bA3",
    "show wX",
    "board",
    "help",
    "moves wS1",
    "pass",
    "play",
    "play wS1",
    "wQ",
    "bQ",
    "wS1",
    "bS1 wS1-",
    "wA1 -bQ",
    "wB1 wQ",
    "\\wQ",
    "wQ -wQ",
    "WS1",
    "  wG1   \\wS1 ",
    "takeback",
    "forfeit now",
    "?",
    "",
    "save /nonexistent/dir/game.pgn",
];

/// Lines for a whole session: legal moves of a game played alongside, mixed with everything else.
fn session(seed: u64, length: usize) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(GameType::ALL[rng.gen_range(0..8)], Rules::default());
    let mut lines = Vec::new();
    for _ in 0..length {
        let line = match rng.gen_range(0..6) {
            0 | 1 => {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    "board".to_string()
                } else {
                    let mv = moves[rng.gen_range(0..moves.len())];
                    let text = game.move_string(mv).to_string();
                    let _ = game.play(mv);
                    text
                }
            }
            2 => {
                let bytes: Vec<u8> = (0..rng.gen_range(0..30)).map(|_| rng.gen()).collect();
                String::from_utf8_lossy(&bytes).replace(['\n', '\r'], " ")
            }
            _ => WORDS.choose(&mut rng).unwrap().to_string(),
        };
        lines.push(line);
    }
    lines.join("\n")
}

fn fuzz(seed: u64, length: usize) {
    let input = session(seed, length);
    for person in Color::ALL {
        let config = PlayConfig {
            person,
            start: waggle::GameType::MLP.into(),
            think: Duration::from_millis(1),
            color: seed.is_multiple_of(2),
        };
        let mut out = Vec::new();
        let engine = Engine::new(Options::default()).unwrap();
        run(engine, &config, &mut Plain(Cursor::new(input.clone())), &mut out)
            .expect("the game runs to the end of input");
        let text = String::from_utf8(out).unwrap();
        // Every move the game reports is legal in the game it reports.
        let mut game = Game::new(GameType::MLP, Rules::default());
        for line in text.lines() {
            if let Some(mv) = line
                .strip_prefix("Waggle plays: ")
                .or_else(|| line.strip_prefix("You play: "))
            {
                game.play_text(mv).unwrap_or_else(|e| panic!("seed {seed}: {mv}: {e}"));
            }
            if let Some(n) = line.strip_prefix("Took back ").and_then(|r| r.split(' ').next()) {
                game.undo(n.parse().unwrap()).unwrap();
            }
        }
    }
}

#[test]
fn a_short_fuzz_of_the_terminal_game() {
    for seed in 0..4 {
        fuzz(seed, 300);
    }
}

#[test]
#[ignore = "long: minutes"]
fn a_long_fuzz_of_the_terminal_game() {
    // 250 inputs of 2,000 lines, each played from both sides: a million lines.
    for seed in 4..254 {
        fuzz(seed, 2000);
    }
}
