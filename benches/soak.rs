//! A soak: thousands of games in one engine process, `newgame` after `newgame`, as a long viewer session or a
//! game server's long-lived bot would play them. The engine plays both sides (`bestmove nodes N`, then `play`),
//! every move checked against Waggle's own rules here, with a few `analyze` + `stop` and `undo` along the way.
//! Every block of games it prints the engine's resident memory and the mean time per move, which must stay flat.
//!
//! `cargo bench --bench soak` plays 10,000 games (about half an hour); `-- --games N` sets the number.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::{GameType, MoveString, Position};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Engine {
    fn ask(&mut self, line: &str) -> Vec<String> {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        self.until_ok()
    }

    fn until_ok(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the engine ended");
            let line = line.trim_end().to_string();
            if line == "ok" {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Resident memory and its peak, in MB.
    fn memory(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let field = |name: &str| -> f64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<f64>().ok())
                .map_or(f64::NAN, |kb| kb / 1024.0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let block = (games / 20).max(1);
    let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start waggle");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut engine = Engine { child, stdin, stdout };
    engine.until_ok();
    let mut rng = StdRng::seed_from_u64(7);
    let (mut moves, mut thinking) = (0u64, Duration::ZERO);
    let (mut all_moves, start) = (0u64, Instant::now());
    println!("| games | resident MB | peak MB | moves in block | mean ms a move |");
    println!("|---|---|---|---|---|");
    for game in 1..=games {
        let game_type = *GameType::ALL.choose(&mut rng).unwrap();
        let reply = engine.ask(&format!("newgame {game_type}"));
        let mut pos = position(&reply[0]).unwrap();
        while !pos.state().is_over() && pos.ply() < 200 {
            if rng.gen_bool(0.01) {
                engine.ask("analyze 2 nodes 3000");
            }
            let asked = Instant::now();
            let reply = engine.ask(&format!("bestmove nodes {}", rng.gen_range(1000..3000)));
            thinking += asked.elapsed();
            moves += 1;
            let text = reply.last().expect("a move");
            let mv = text
                .parse::<MoveString>()
                .ok()
                .and_then(|m| m.to_move(&pos).ok())
                .filter(|mv| pos.legal_moves().contains(mv))
                .unwrap_or_else(|| panic!("game {game}: '{text}' is not a legal move"));
            let played = engine.ask(&format!("play {text}"));
            pos.play(mv).unwrap();
            assert!(played[0].ends_with(text), "game {game}: {played:?}");
            if rng.gen_bool(0.005) && pos.ply() >= 2 {
                engine.ask("undo 2");
                pos.undo();
                pos.undo();
            }
        }
        if game % block == 0 {
            let (resident, peak) = engine.memory();
            println!(
                "| {game} | {resident:.1} | {peak:.1} | {moves} | {:.3} |",
                thinking.as_secs_f64() * 1e3 / moves.max(1) as f64
            );
            all_moves += moves;
            (moves, thinking) = (0, Duration::ZERO);
        }
    }
    println!(
        "{games} games, {all_moves} moves in {:.0} s; every move legal",
        start.elapsed().as_secs_f64()
    );
    writeln!(engine.stdin, "exit").unwrap();
    engine.stdin.flush().unwrap();
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// The position a GameString (or a GameTypeString) describes, every move replayed and checked.
fn position(text: &str) -> Result<Position, waggle::GameStringError> {
    Ok(waggle::Game::from_record(&text.parse()?, waggle::Rules::default())?
        .position()
        .clone())
}
