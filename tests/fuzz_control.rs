//! Fuzzing control of a running session: random commands sent the way a viewer, a script or an impatient person
//! sends them, at random moments: searches of every kind (`bestmove time/depth/nodes`, `analyze` with and without
//! a limit, `perft`) interleaved with `stop`, option changes (pondering on and off, helper threads, intermediate
//! lines), games played and taken back, junk, and a session end by `exit`, end of input or Ctrl-C. The session
//! runs as the binary runs it, on its own thread, fed from another.
//!
//! Checked: the session always ends (within seconds of `exit`, the end of input or Ctrl-C when idle); every
//! reply is well formed (ends with `ok`, at most one `err`/`invalidmove` line, which is its only line); the
//! replies answer the commands in order, one each (all of them when the input ends, a prefix of them when `exit`
//! cuts the queue short); every GameString a reply prints is the game the commands so far made (so a failed
//! command changed nothing), every move `bestmove` gives and every line `analyze` gives is legal there, and a
//! stopped `perft` says how far it got. A short run is part of `cargo test`; the long one covers a million
//! lines: `cargo test --release --test fuzz_control -- --ignored --nocapture`.

mod common;

use std::io::{self, Write};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::uhp::{Event, Session};
use waggle::uhp::{Outcome, Reply, ReplyReader};
use waggle::MoveString;
use waggle::{Engine, Options};

/// The session's output, shared with the test.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How a fuzzed session ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Input,
    Exit,
    Interrupt,
}

const MIDGAMES: &[&str] = &[
    "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
    "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;bG2 bQ/;wG2 /wQ;bG3 bQ\\;wS2 \\wG1;bA1 \\bQ",
    "Base+P;InProgress;White[2];wP;bP wP-",
];

/// The next command: searches and control commands first, moves of the game, and some junk.
fn command(rng: &mut StdRng, legal: &[String]) -> String {
    match rng.gen_range(0..40) {
        0..=5 if !legal.is_empty() => format!("play {}", legal.choose(rng).unwrap()),
        6 => format!("newgame {}", MIDGAMES.choose(rng).unwrap()),
        7 => format!(
            "newgame {}",
            ["Base", "Base+MLP", "Base+M", "Base+LP"].choose(rng).unwrap()
        ),
        8 => format!("undo {}", rng.gen_range(1..3)),
        9 | 10 => format!("bestmove depth {}", rng.gen_range(0..4)),
        11 | 12 => format!("bestmove nodes {}", rng.gen_range(1..4000)),
        13 | 14 => format!("bestmove time 00:00:00.{:03}", rng.gen_range(1..30)),
        15 => format!("analyze {}", rng.gen_range(1..5)),
        16 => format!("analyze {} depth {}", rng.gen_range(1..5), rng.gen_range(1..3)),
        17 => format!("analyze {} nodes {}", rng.gen_range(1..4), rng.gen_range(1..3000)),
        // Deep enough to be stopped sometimes, shallow enough that a count the input's end lets finish takes
        // seconds at most (perft 5 of a mid-game position counts some ten billion sequences, tens of seconds, and
        // the end of input waits for it).
        18 => format!("perft {}", rng.gen_range(1..5)),
        19..=23 => "stop".to_string(),
        24 => format!(
            "options set PonderDuringIdle {}",
            ["Disabled", "SingleThreaded", "MultiThreaded"].choose(rng).unwrap()
        ),
        25 => format!(
            "options set MaxHelperThreads {}",
            ["None", "1", "2"].choose(rng).unwrap()
        ),
        26 => format!(
            "options set ReportIntermediateBestMoves {}",
            ["True", "False"].choose(rng).unwrap()
        ),
        27 => format!("options set OpeningBook {}", ["True", "False"].choose(rng).unwrap()),
        28 => "validmoves".to_string(),
        29 => "options".to_string(),
        30 => ["info", "history", "board", "help"].choose(rng).unwrap().to_string(),
        31 => format!(
            "bestmove clock 00:00:0{}.5 00:00:00.1 00:00:05 00:00:00",
            rng.gen_range(0..3)
        ),
        32 => [
            "bestmove",
            "analyze",
            "perft",
            "stop now",
            "bestmove depth -1",
            "analyze 0",
        ]
        .choose(rng)
        .unwrap()
        .to_string(),
        33 => String::new(),
        34 => "play wQ wQ".to_string(),
        _ if !legal.is_empty() => format!("play {}", legal.choose(rng).unwrap()),
        _ => "pass".to_string(),
    }
}

/// Legal moves of the game a GameString names (none for a finished or unreadable one).
fn legal_moves(game: &str) -> Vec<String> {
    let Ok(pos) = common::position(game) else {
        return Vec::new();
    };
    if pos.state().is_over() {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| waggle::MoveString::from_move(&pos, mv).to_string())
        .collect()
}

/// Whether `text` names a legal move of the game `game` names.
fn is_legal(game: &str, text: &str) -> bool {
    let Ok(pos) = common::position(game) else {
        return false;
    };
    text.parse::<MoveString>()
        .ok()
        .and_then(|m| m.to_move(&pos).ok())
        .is_some_and(|mv| pos.legal_moves().contains(&mv))
}

/// Run one session of `lines` commands; returns the commands sent.
fn fuzz(seed: u64, lines: usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let output = Output::default();
    let engine = Engine::new(Options {
        max_hash_size: waggle::HashSize::megabytes(2).unwrap(),
        ..Options::default()
    })
    .unwrap();
    let mut session = Session::new(output.clone(), engine);
    session.start().unwrap();
    let events: Sender<Event> = session.sender();
    let (finished, done) = channel();
    thread::spawn(move || {
        let result = session.run();
        let _ = finished.send(result.is_ok());
    });

    let end = *[End::Input, End::Input, End::Exit, End::Interrupt]
        .choose(&mut rng)
        .unwrap();
    let mut sent: Vec<String> = Vec::new();
    // The game as far as the test knows it (the last GameString a reply printed), to draw legal moves from.
    let mut known = String::new();
    let mut reader = ReplyReader::default();
    let mut seen = 0;
    for _ in 0..lines {
        let line = command(&mut rng, &legal_moves(&known));
        if events.send(Event::Line(format!("{line}\n"))).is_err() {
            panic!("seed {seed}: the session ended early: {sent:?}");
        }
        if !line.trim().is_empty() {
            sent.push(line.clone());
        }
        if line.starts_with("analyze") && line.split_whitespace().count() == 2 && rng.gen_bool(0.9) {
            // An analysis without a limit: usually stopped soon.
            thread::sleep(Duration::from_millis(rng.gen_range(0..15)));
            events.send(Event::Line("stop\n".into())).unwrap();
            sent.push("stop".into());
        }
        match rng.gen_range(0..10) {
            0..=5 => {}
            6..=8 => thread::sleep(Duration::from_micros(rng.gen_range(0..3000))),
            _ => thread::sleep(Duration::from_millis(rng.gen_range(0..20))),
        }
        // Follow the game from the replies printed so far.
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        for l in text.lines().skip(seen) {
            seen += 1;
            if let Some(reply) = reader.push(l) {
                if let Some(first) = reply.lines.first().filter(|f| f.starts_with("Base")) {
                    known = first.clone();
                }
            }
        }
    }
    match end {
        End::Input => {
            let _ = events.send(Event::End);
        }
        End::Exit => {
            let _ = events.send(Event::Line("exit\n".into()));
        }
        // Ctrl-C stops a search, and ends the session only when it is idle: the end of input follows, for the
        // case where it only stopped a search.
        End::Interrupt => {
            let _ = events.send(Event::Interrupt);
            let _ = events.send(Event::End);
        }
    }
    let start = Instant::now();
    match done.recv_timeout(Duration::from_secs(60)) {
        Ok(true) => {}
        Ok(false) => panic!("seed {seed}: the session failed to write"),
        Err(_) => panic!("seed {seed}: the session did not end within a minute of {end:?}: {sent:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(60));
    let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
    check(seed, &sent, &text, end);
    sent.len()
}

/// Check the transcript `text` against the commands `sent`.
fn check(seed: u64, sent: &[String], text: &str, end: End) {
    let mut reader = ReplyReader::default();
    let mut lines = text.lines();
    // The start-up block.
    let info: Vec<Reply> = lines.by_ref().take(3).filter_map(|l| reader.push(l)).collect();
    assert_eq!(info.len(), 1, "seed {seed}: start-up block");
    let replies: Vec<Reply> = lines.filter_map(|l| reader.push(l)).collect();
    // Only `exit` may leave a reply unfinished: the intermediate lines of the search or the counted depths of the
    // perft it cut short, never a move.
    let partial = |l: &String| l.contains(";nodes=") || l.starts_with("perft(");
    if end != End::Exit || !reader.pending().iter().all(partial) {
        assert!(
            reader.pending().is_empty(),
            "seed {seed}: a reply without its ok: {:?}",
            reader.pending()
        );
    }
    let commands: Vec<&String> = sent.iter().filter(|c| !c.eq_ignore_ascii_case("exit")).collect();
    match end {
        End::Input => assert_eq!(replies.len(), commands.len(), "seed {seed}: one reply per command"),
        End::Exit | End::Interrupt => assert!(
            replies.len() <= commands.len(),
            "seed {seed}: more replies than commands"
        ),
    }
    let mut game: Option<String> = None;
    for (command, reply) in commands.iter().zip(&replies) {
        let context = format!("seed {seed}: '{command}' in {game:?} gave {reply:?}");
        if reply.outcome != Outcome::Ok {
            assert!(reply.lines.is_empty(), "{context}");
            continue;
        }
        let words: Vec<&str> = command.split_whitespace().collect();
        match words[0].to_ascii_lowercase().as_str() {
            "newgame" | "play" | "pass" | "undo" => {
                let printed = &reply.lines[0];
                if words[0] == "play" || words[0] == "pass" {
                    // The game before it, with the move played: nothing else changed it.
                    let before = game.as_deref().expect("a game to play in");
                    let mv = printed.rsplit(';').next().unwrap();
                    assert!(is_legal(before, mv), "{context}");
                    let moves_before = before.split(';').skip(3);
                    let moves_after: Vec<&str> = printed.split(';').skip(3).collect();
                    assert!(
                        moves_before.eq(moves_after[..moves_after.len() - 1].iter().copied()),
                        "{context}"
                    );
                }
                game = Some(printed.clone());
            }
            "bestmove" => {
                let mv = reply.last_line().expect("a move");
                assert!(is_legal(game.as_deref().expect("a game"), mv), "{context}");
            }
            "analyze" => {
                for line in &reply.lines {
                    let mv = line.split(';').next().unwrap();
                    assert!(is_legal(game.as_deref().expect("a game"), mv), "{context}");
                }
            }
            "perft" => {
                let depth: usize = words[1].parse().unwrap();
                for (i, line) in reply.lines.iter().enumerate() {
                    let counted = line.starts_with(&format!("perft({}) = ", i + 1));
                    let stopped = line.starts_with(&format!("perft({}) interrupted after ", i + 1));
                    assert!(counted || (stopped && i + 1 == reply.lines.len()), "{context}");
                }
                assert!(reply.lines.len() <= depth, "{context}");
            }
            "stop" => assert!(reply.lines.is_empty(), "{context}"),
            _ => {}
        }
    }
}

#[test]
fn a_short_fuzz_of_control_during_searches() {
    let mut lines = 0;
    for seed in 0..8 {
        lines += fuzz(seed, 150);
    }
    assert!(lines > 1000, "{lines}");
}

#[test]
#[ignore = "long: a million lines"]
fn a_long_fuzz_of_control_during_searches() {
    let (mut lines, start) = (0, Instant::now());
    let mut seed = 1000;
    while lines < 1_000_000 {
        lines += fuzz(seed, 1000);
        seed += 1;
        if seed % 50 == 0 {
            eprintln!(
                "{lines} lines, {} sessions, {:.0} s",
                seed - 1000,
                start.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "{lines} lines in {} sessions, {:.0} s: no failure",
        seed - 1000,
        start.elapsed().as_secs_f64()
    );
}
