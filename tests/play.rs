//! `waggle play` driven over a pipe (plain output): whole games with moves, undo, hint, show, resign, save and
//! every kind of bad input; the saved `.pgn` replays to the same game.

mod common;

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use waggle::{Color, Game, GameState, Rules};

use common::{Running, Waggle};

/// A running `waggle play` and the game as the test follows it.
struct Player {
    process: Running,
    game: Game,
}

impl Player {
    fn start(args: &[&str], start: &str) -> Player {
        Player {
            process: Waggle::new(["play"]).args(args).start(),
            game: Game::from_record(&start.parse().unwrap(), Rules::default()).unwrap(),
        }
    }

    /// Output up to the next prompt (a line ending in `>`), following the moves it reports.
    fn until_prompt(&mut self) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.process.line(Duration::from_secs(60)).expect("waggle play answers");
            if let Some(mv) = line
                .strip_prefix("Waggle plays: ")
                .or_else(|| line.strip_prefix("You play: "))
            {
                self.game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
            }
            if let Some(n) = line.strip_prefix("Took back ").and_then(|r| r.split(' ').next()) {
                self.game.undo(n.parse().unwrap()).unwrap();
            }
            if line.ends_with('>') {
                return seen;
            }
            seen.push(line);
        }
    }

    fn say(&mut self, line: &str) -> Vec<String> {
        self.process.send(line);
        self.until_prompt()
    }
}

/// Bad input gets a message and changes nothing.
fn refuse(p: &mut Player, line: &str) {
    let before = p.game.game_string();
    let reply = p.say(line);
    assert!(!reply.is_empty(), "{line}: no message");
    assert!(!reply.iter().any(|l| l.starts_with("You play:")), "{line}: {reply:?}");
    assert_eq!(p.game.game_string(), before, "{line}");
}

fn a_whole_game(person: Color, seed: u64) {
    let side = if person == Color::White { "white" } else { "black" };
    let mut p = Player::start(&["--color", side, "--time", "0.02"], "Base+MLP");
    let mut rng = StdRng::seed_from_u64(seed);
    p.until_prompt();
    assert!(p.game.record().len() <= 1);
    for turn in 0..60 {
        if p.game.state().is_over() {
            break;
        }
        assert_eq!(p.game.position().to_move(), person);
        match turn % 10 {
            3 => {
                let hint = p.say("hint");
                let suggested = hint.iter().find_map(|l| l.strip_prefix("Hint: ")).expect("a hint");
                let mv = suggested.split(" (").next().unwrap();
                p.game.resolve(mv).unwrap();
            }
            5 if p.game.record().len() >= 2 => {
                let plies = p.game.record().len();
                let reply = p.say("undo");
                assert!(reply.iter().any(|l| l.starts_with("Took back")), "{reply:?}");
                assert!(p.game.record().len() < plies);
                assert_eq!(p.game.position().to_move(), person);
            }
            7 => {
                for bad in [
                    "xyzzy",
                    "wQ9 -bQ",
                    "play",
                    "save",
                    "show nothing",
                    "bA1 -wS1 extra",
                    "pass",
                ] {
                    refuse(&mut p, bad);
                }
                let piece = p.game.legal_moves()[0].piece().unwrap().to_string();
                let shown = p.say(&format!("show {piece}"));
                assert!(shown.iter().any(|l| l.contains("marked *")), "{shown:?}");
            }
            _ => {}
        }
        let legal = p.game.legal_moves();
        let mv = legal[rng.gen_range(0..legal.len())];
        let text = p.game.move_string(mv).to_string();
        let reply = p.say(&text);
        assert!(
            reply.iter().any(|l| l == &format!("You play: {text}")),
            "{text}: {reply:?}"
        );
    }
    // The game went on until it ended or for long enough to have used every word.
    assert!(
        p.game.state().is_over() || p.game.record().len() >= 40,
        "{}",
        p.game.game_string()
    );
    eprintln!("{} after {} plies", p.game.state(), p.game.record().len());
    let dir = std::env::temp_dir().join(format!("waggle-play-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.pgn");
    let reply = p.say(&format!("save {}", saved.display()));
    assert!(reply.iter().any(|l| l.starts_with("Saved the game")), "{reply:?}");
    let records = waggle::record::read_pgn(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let replayed = Game::from_record(&records[0].record, Rules::default()).unwrap();
    assert_eq!(replayed.game_string().to_string(), p.game.game_string().to_string());
    if !p.game.state().is_over() {
        let reply = p.say("resign enough for today");
        assert!(
            reply.iter().any(|l| l.starts_with("You resigned (enough for today).")),
            "{reply:?}"
        );
        let any = p.game.move_string(p.game.legal_moves()[0]).to_string();
        refuse(&mut p, &any);
        p.say(&format!("save {}", saved.display()));
        let record = waggle::record::read_pgn(&std::fs::read_to_string(&saved).unwrap())
            .unwrap()
            .remove(0);
        let winner = if person == Color::White {
            GameState::BlackWins
        } else {
            GameState::WhiteWins
        };
        assert_eq!(record.result(), Some(winner));
        assert!(record.tag("Termination").unwrap().contains("resigns: enough for today"));
    }
    p.process.send("quit");
    assert!(p.process.child.wait().unwrap().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_whole_game_as_white() {
    a_whole_game(Color::White, 1);
}

#[test]
fn a_whole_game_as_black() {
    a_whole_game(Color::Black, 2);
}

#[test]
fn a_game_can_start_from_a_game_string_and_ends_with_the_input() {
    let start = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    let mut p = Player::start(&["--from", start, "--time", "0.02"], start);
    let board = p.until_prompt();
    assert!(board.iter().any(|l| l.contains("|wQ |wS1|bS1|bQ |")), "{board:?}");
    refuse(&mut p, "wQ -wS1");
    p.process.close_input();
    assert!(p.process.child.wait().unwrap().success());
}
