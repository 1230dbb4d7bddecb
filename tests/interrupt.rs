//! Ctrl-C (SIGINT) for every subcommand that runs long: each stops, says what it did so far and exits with status
//! 130, the status shells give a program that SIGINT ended. The signal is sent as a terminal sends it, to the
//! whole process group of the command. Times in these tests are generous bounds on "it ends", not measurements.
#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

use common::{lines, Running, Scratch, Waggle, WAGGLE};

/// A subcommand running in a process group of its own (as a terminal's foreground job is), its output collected.
fn start(args: &[&str]) -> Running {
    Waggle::new(args).own_group().start()
}

const ENDS: Duration = Duration::from_secs(20);

#[test]
fn perft_stops_and_says_how_far_the_depth_in_progress_got() {
    let run = start(&["perft", "Base+MLP", "--depth", "9"]);
    // Depth 6 takes a fraction of a second; depth 7 half a minute.
    let mut counted = Vec::new();
    while counted.len() < 6 {
        counted.push(run.line(ENDS).expect("depths 1 to 6"));
    }
    thread::sleep(Duration::from_millis(300));
    run.interrupt();
    let (code, rest, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    assert_eq!(rest, "", "no depth counted past the interrupt");
    let perft6 = common::data::perft_count("Base+MLP", 6);
    assert!(counted[5].starts_with(&format!("perft(6) = {perft6} ")), "{counted:?}");
    let message = stderr.trim();
    assert!(
        message.starts_with("waggle perft: perft(7) interrupted after "),
        "{message}"
    );
    let (done, of) = message
        .split(": ")
        .nth(2)
        .and_then(|tail| tail.split(" root moves done").next())
        .and_then(|counts| counts.split_once(" of "))
        .expect("root moves done of how many");
    assert!(done.parse::<usize>().unwrap() < 7 && of == "7", "{message}");
    let leaves: u64 = message
        .rsplit(", ")
        .next()
        .and_then(|t| t.strip_suffix(" leaves counted"))
        .and_then(|n| n.parse().ok())
        .expect("leaves counted");
    assert!(
        leaves > 0 && leaves < common::data::perft_count("Base+MLP", 7),
        "{message}"
    );
}

/// The first Ctrl-C lets the games in progress finish and prints the summary; the engines, in process groups of
/// their own, never see it, so nobody forfeits.
#[test]
fn match_finishes_its_games_in_progress_and_sums_up() {
    let dir = Scratch::new("match");
    // Games by nodes, not time: a loaded machine must not cost a game on time, which the test would take for a
    // forfeit that Ctrl-C caused.
    let run = Waggle::new([
        "match",
        "--nodes",
        "3000",
        "--games",
        "40",
        "--concurrency",
        "2",
        "--results",
        "r.tsv",
        "--pgn",
        "pgn",
        WAGGLE,
        WAGGLE,
    ])
    .dir(&dir.0)
    .own_group()
    .start();
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.starts_with("Score of ")) {
        seen.push(run.line(Duration::from_secs(60)).expect("a first game"));
    }
    run.interrupt();
    let (code, rest, stderr) = run.finish(Duration::from_secs(60));
    let text = format!("{}\n{rest}", seen.join("\n"));
    assert_eq!(code, Some(130), "{text}\n{stderr}");
    assert!(stderr.contains("no new game starts"), "{stderr}");
    let finished = text.lines().filter(|l| l.starts_with("Finished game")).count();
    assert!(finished < 40, "{text}");
    assert!(
        text.contains(&format!("Interrupted: {finished} of 40 games finished, 0 abandoned")),
        "{text}"
    );
    // The summary, and no forfeit: Ctrl-C reached no engine.
    assert_eq!(
        text.lines().filter(|l| l.ends_with("; 0 forfeits")).count(),
        2,
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("Elo difference: ")), "{text}");
    let results = std::fs::read_to_string(dir.0.join("r.tsv")).unwrap();
    let rows = results.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(rows, finished, "{results}");
    assert_eq!(std::fs::read_dir(dir.0.join("pgn")).unwrap().count(), finished);
}

/// A second Ctrl-C abandons the games in progress: the match ends at once, counting only the finished ones.
#[test]
fn match_abandons_its_games_on_a_second_interrupt() {
    let run = start(&[
        "match",
        "--time",
        "1",
        "--games",
        "20",
        "--concurrency",
        "2",
        WAGGLE,
        WAGGLE,
    ]);
    assert!(run.line(ENDS).unwrap().starts_with("Match of "));
    thread::sleep(Duration::from_millis(500));
    run.interrupt();
    thread::sleep(Duration::from_millis(200));
    run.interrupt();
    let (code, rest, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    assert!(stderr.contains("abandoning the games in progress"), "{stderr}");
    assert!(
        rest.contains("Interrupted: 0 of 20 games finished, 2 abandoned"),
        "{rest}"
    );
}

#[test]
fn selfplay_writes_the_games_it_finishes_and_says_how_many() {
    let dir = Scratch::new("selfplay");
    let out = dir.0.join("games.txt");
    let run = start(&[
        "selfplay",
        "--games",
        "100000",
        "--nodes",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    // A first game written, however loaded the machine (a fixed wait saw none on a busy one).
    let deadline = Instant::now() + ENDS;
    while std::fs::read_to_string(&out).map_or(0, |text| text.lines().count()) == 0 {
        assert!(Instant::now() < deadline, "no game written in {ENDS:?}");
        thread::sleep(Duration::from_millis(10));
    }
    run.interrupt();
    let (code, _, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    let written = std::fs::read_to_string(&out).unwrap().lines().count();
    let said = format!("interrupted: {written} of 100000 games written to {}", out.display());
    assert!(stderr.contains(&said), "{stderr} / {said}");
    assert!(written > 0);
}

#[test]
fn datagen_writes_the_games_it_finishes_and_says_how_many() {
    let dir = Scratch::new("datagen");
    let out = dir.path("positions.bin");
    let run = start(&["datagen", "--games", "100000", "--nodes", "300", "--out", &out]);
    // A first game's positions written, however loaded the machine.
    let deadline = Instant::now() + ENDS;
    while std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < deadline, "no game written in {ENDS:?}");
        thread::sleep(Duration::from_millis(10));
    }
    run.interrupt();
    let (code, _, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130), "{stderr}");
    let bytes = std::fs::metadata(&out).unwrap().len();
    assert_eq!(bytes % 64, 0, "whole records only");
    let said = format!("games, {} positions (", bytes / 64);
    assert!(
        stderr.contains("waggle datagen: interrupted: ") && stderr.contains(&said),
        "{stderr} / {said}"
    );
}

#[test]
fn train_stops_after_its_batch_and_writes_a_checkpoint_to_resume_from() {
    let dir = Scratch::new("train");
    let data = dir.path("positions.bin");
    let made = Waggle::new(["datagen", "--games", "16", "--nodes", "200", "--out", &data]).run();
    assert!(made.success(), "{}", made.stderr);
    let (net, checkpoint) = (dir.path("net.nnue"), dir.path("net.nnue.checkpoint"));
    // Many small batches and epochs: it is still training when interrupted.
    let run = start(&[
        "train",
        &data,
        "--out",
        &net,
        "--batch",
        "16",
        "--epochs",
        "100000",
        "--threads",
        "1",
    ]);
    let deadline = Instant::now() + ENDS;
    while !std::path::Path::new(&checkpoint).exists() {
        assert!(Instant::now() < deadline, "no epoch finished in {ENDS:?}");
        thread::sleep(Duration::from_millis(10));
    }
    run.interrupt();
    let (code, _, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("waggle train: interrupted after "), "{stderr}");
    assert!(stderr.contains(&format!("the best net so far is in {net}")), "{stderr}");
    // The net it kept is one an engine plays with; the checkpoint goes on.
    let uhp = Waggle::new(["--eval", "net", "--eval-file", &net])
        .input("newgame Base+MLP\nbestmove depth 2\n")
        .run();
    assert!(uhp.success() && !uhp.stdout.contains("err"), "{}", uhp.stdout);
    let resumed = start(&["train", &data, "--out", &net, "--resume", "--threads", "1"]);
    thread::sleep(Duration::from_millis(1500));
    resumed.interrupt();
    let (code, _, stderr) = resumed.finish(ENDS);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("(resumed after "), "{stderr}");
}

#[test]
fn tune_stops_its_descent_and_prints_the_weights_so_far() {
    let dir = Scratch::new("tune");
    let games = dir.0.join("games.txt");
    let selfplay = Waggle::new([
        "selfplay",
        "--games",
        "20",
        "--nodes",
        "200",
        "--out",
        games.to_str().unwrap(),
    ])
    .run();
    assert!(selfplay.success());
    let run = start(&["tune", games.to_str().unwrap(), "--iterations", "100000000"]);
    assert!(run.line(ENDS).unwrap().ends_with(" positions"));
    thread::sleep(Duration::from_millis(1000));
    run.interrupt();
    let (code, text, _) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("interrupted after ") && first.ends_with(" of 100000000 iterations"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("scale ")), "{text}");
    assert!(text.lines().count() > 10, "the weights: {text}");
}

#[test]
fn bench_stops_at_the_position_in_progress_without_a_signature() {
    let run = start(&["bench", "30"]);
    thread::sleep(Duration::from_millis(1500));
    run.interrupt();
    let (code, text, _) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    let last = text.lines().last().unwrap_or("");
    assert!(last.starts_with("bench depth 30 interrupted after "), "{text}");
    assert!(
        last.ends_with("(no signature)") && !text.contains("signature "),
        "{text}"
    );
}

#[test]
fn json_over_http_stops_and_says_how_many_requests_it_answered() {
    let run = start(&["json", "--listen", "127.0.0.1:0"]);
    let listening = run.stderr.recv_timeout(ENDS).unwrap();
    let addr = listening
        .strip_prefix("waggle json: listening on http://")
        .unwrap()
        .to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    let body = r#"{"request_type": "Greetings", "request_id": "1"}"#;
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    run.interrupt();
    let (code, _, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130));
    assert!(
        stderr
            .lines()
            .any(|line| line == "waggle json: stopped after answering 1 request"),
        "{stderr}"
    );
}

/// In `waggle play`, Ctrl-C while Waggle thinks makes it move at once.
#[test]
fn play_moves_at_once_when_interrupted_while_thinking() {
    let mut run = start(&[
        "play",
        "--color",
        "black",
        "--time",
        "60",
        "--from",
        "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
    ]);
    let stdin = run.stdin.take().unwrap();
    let thinking = wait_for(&run.stdout, |l| l.starts_with("Waggle is thinking"));
    assert!(thinking, "Waggle thinks first");
    thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    run.interrupt();
    assert!(wait_for(&run.stdout, |l| l.starts_with("Waggle plays: ")), "a move");
    assert!(start.elapsed() < Duration::from_secs(30), "long before its minute");
    drop(stdin);
    let (code, _, _) = run.finish(ENDS);
    assert_eq!(code, Some(0), "the game ends with its input");
}

fn wait_for(lines: &Receiver<String>, found: impl Fn(&str) -> bool) -> bool {
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) {
        if found(&line) {
            return true;
        }
    }
    false
}

/// The UHP engine: Ctrl-C during a search stops it (the move is still printed, see tests/uhp.rs); when idle it
/// ends the engine.
#[test]
fn the_engine_ends_on_ctrl_c_when_idle() {
    let run = start(&[]);
    assert!(run.line(ENDS).unwrap().starts_with("id Waggle"));
    run.interrupt();
    let (code, _, _) = run.finish(ENDS);
    assert_eq!(code, Some(130));
}

/// `waggle review`: the first Ctrl-C stops the review; the moves judged so far are printed with the summary and
/// written to the `.pgn` and the chart, and the status is 130.
#[test]
fn review_stops_and_writes_what_it_judged() {
    let dir = Scratch::new("review");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review/pgn/b_club_game.pgn");
    let (pgn, chart) = (dir.0.join("reviewed.pgn"), dir.0.join("chart.svg"));
    // Half a second a position: the 46 moves would take half a minute.
    let run = start(&[
        "review",
        game,
        "--time",
        "0.5",
        "--pgn",
        pgn.to_str().unwrap(),
        "--svg",
        chart.to_str().unwrap(),
    ]);
    let mut seen = Vec::new();
    while seen.iter().filter(|l: &&String| is_move_line(l)).count() < 3 {
        seen.push(run.line(ENDS).expect("the first moves judged"));
    }
    run.interrupt();
    let (code, rest, stderr) = run.finish(ENDS);
    let text = format!("{}\n{rest}", seen.join("\n"));
    assert_eq!(code, Some(130), "{text}\n{stderr}");
    let judged = text.lines().filter(|l| is_move_line(l)).count();
    assert!((3..46).contains(&judged), "{text}");
    assert!(
        text.contains(&format!("Stopped: {judged} of 46 moves reviewed.")),
        "{text}"
    );
    for start in ["White  ", "Black  ", "Turning points: "] {
        assert_eq!(text.lines().filter(|l| l.starts_with(start)).count(), 1, "{text}");
    }
    assert!(
        stderr.contains(&format!("waggle review: interrupted: {judged} of 46 moves judged")),
        "{stderr}"
    );

    // The .pgn: the whole game, its tags, and a judgement on each move judged; every comment closed.
    let written = std::fs::read_to_string(&pgn).expect("the .pgn is written");
    assert_eq!(written.matches('{').count(), written.matches('}').count(), "{written}");
    let games = waggle::record::read_pgn(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(games.len(), 1);
    let original = waggle::record::read_pgn(&std::fs::read_to_string(game).unwrap()).unwrap();
    assert_eq!(games[0].record.moves, original[0].record.moves);
    assert_eq!(games[0].tag("White"), Some("Alice"));
    for (number, comment) in games[0].comments.iter().take(judged).enumerate() {
        let comment = comment
            .as_deref()
            .unwrap_or_else(|| panic!("no comment on move {}", number + 1));
        assert!(
            comment.contains("win chance ") && !comment.contains('\n'),
            "move {}: {comment}",
            number + 1
        );
    }
    let svg = std::fs::read_to_string(&chart).expect("the chart is written");
    let svg = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let circles = svg
        .descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("class") == Some("mark"))
        .count();
    assert!(circles <= judged);
}

/// A line of `waggle review`'s text for one move: its number first.
fn is_move_line(line: &str) -> bool {
    line.len() > 6 && line[..5].trim().parse::<usize>().is_ok()
}

/// `waggle review`: a second Ctrl-C quits at once, even when the first cannot end the review (here the review is
/// stuck writing to a pipe that nobody reads, as under a paused pager).
#[test]
fn review_quits_at_once_on_a_second_interrupt() {
    let dir = Scratch::new("review-twice");
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/review/pgn/b_club_game.pgn"
    ))
    .unwrap();
    let record = waggle::record::read_pgn(&game).unwrap().remove(0).record;
    // 9,200 moves: far more lines than a pipe holds.
    let games = dir.0.join("games.txt");
    std::fs::write(&games, format!("{record}\n").repeat(200)).unwrap();
    let mut child = Waggle::new(["review", games.to_str().unwrap(), "--nodes", "1"])
        .own_group()
        .spawn();
    // Its stdout is kept open and never read, so that the review blocks once the pipe is full.
    let _stdout = child.stdout.take().unwrap();
    let stderr = lines(child.stderr.take().unwrap());
    let group = libc::pid_t::try_from(child.id()).unwrap();
    let interrupt = || {
        // SAFETY: kill only sends a signal, to the group this test started.
        assert_eq!(unsafe { libc::kill(-group, libc::SIGINT) }, 0);
    };
    thread::sleep(Duration::from_millis(1000));
    assert!(child.try_wait().unwrap().is_none(), "blocked on its full stdout");
    interrupt();
    thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first Ctrl-C waits to print what was judged"
    );
    interrupt();
    let deadline = Instant::now() + ENDS;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {ENDS:?} after the second Ctrl-C");
        }
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    let stderr: Vec<String> = stderr.iter().collect();
    assert!(stderr.iter().any(|l| l == "waggle review: interrupted"), "{stderr:?}");
}

/// `waggle puzzles`: the first Ctrl-C keeps the puzzles of the games mined so far (in the file, with its progress
/// file) and says so; `--resume` goes on from there, and ends with the file an uninterrupted run writes.
#[test]
fn puzzles_keep_what_was_found_and_resume() {
    let dir = Scratch::new("puzzles-interrupt");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/puzzles/selfplay20.txt");
    let (out, whole) = (dir.0.join("out.jsonl"), dir.0.join("whole.jsonl"));
    let progress = dir.0.join("out.jsonl.progress");
    let args = ["puzzles", games, "--out", out.to_str().unwrap(), "--plies", "5"];
    let run = start(&args);
    // Interrupted once a game or two are mined (the progress file's header, then a line a game).
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&progress).map_or(0, |text| text.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "no game mined in two minutes");
        thread::sleep(Duration::from_millis(20));
    }
    run.interrupt();
    let (code, stdout, stderr) = run.finish(ENDS);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    let mined: usize = stderr
        .split("interrupted: ")
        .nth(1)
        .and_then(|rest| rest.split(" of 20 games mined").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!((2..20).contains(&mined), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    assert!(stdout.starts_with(&format!("Mined {mined} of 20 games")), "{stdout}");
    assert!(progress.exists(), "the progress file stays for --resume");

    let resumed = Waggle::new(args).arg("--resume").run();
    assert!(resumed.success(), "{}", resumed.stderr);
    assert!(
        resumed
            .stdout
            .starts_with(&format!("Mined {} of {} games", 20 - mined, 20 - mined)),
        "{}",
        resumed.stdout
    );
    assert!(!progress.exists(), "a finished run leaves no progress file");
    let full = Waggle::new(["puzzles", games, "--out", whole.to_str().unwrap(), "--plies", "5"]).run();
    assert!(full.success(), "{}", full.stderr);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}
