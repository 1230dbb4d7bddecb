//! Ctrl-C typed in a terminal: every subcommand that runs long, run in a pseudo-terminal as a person runs it, and
//! stopped by the Ctrl-C character typed at its keyboard (the terminal driver sends SIGINT, as for a keypress).
//! tests/interrupt.rs sends the signal to programs whose output is a pipe; here stdout and stderr are a terminal,
//! which is when progress lines are drawn (a match holding stderr for its progress line once kept every press
//! waiting until the match had ended). Times are generous bounds on "it ends", not measurements.
#![cfg(unix)]

mod common;

use std::thread;
use std::time::Duration;

use common::data::{game_string, DATA};
use common::pty::{screen, Exit};
use common::{Scratch, Waggle, WAGGLE};

/// How long anything here may take to answer a keypress.
const SOON: Duration = Duration::from_secs(30);

/// The first Ctrl-C starts no new game, at once: the games in progress finish, the summary follows, status 130.
#[test]
fn match_starts_no_new_game_after_ctrl_c() {
    let dir = Scratch::new("terminal-match");
    let waggle = WAGGLE;
    // 400 games at 3,000 nodes a move take minutes; a few are played before the Ctrl-C.
    let args = [
        "match",
        "--nodes",
        "3000",
        "--games",
        "400",
        "--results",
        "r.tsv",
        waggle,
        waggle,
    ];
    let mut run = Waggle::new(args).dir(&dir).start_at_terminal();
    assert!(run.wait_for("Score of ", SOON), "a first game: {}", run.text());
    run.ctrl_c();
    assert!(
        run.wait_for("no new game starts", SOON),
        "Ctrl-C heard at once: {}",
        run.text()
    );
    let Exit { code, text, .. } = run.finish(Duration::from_secs(120));
    assert_eq!(code, Some(130), "{text}");
    let said = text.find("no new game starts").unwrap();
    let summed = text
        .find("Interrupted: ")
        .unwrap_or_else(|| panic!("a summary: {text}"));
    assert!(said < summed, "the message before the summary: {text}");
    // Each line of a finished game comes after the progress line's erasure.
    let finished = text.matches("Finished game ").count();
    assert!(finished < 400, "{text}");
    assert!(
        text.contains(&format!("Interrupted: {finished} of 400 games finished, 0 abandoned")),
        "{text}"
    );
    assert!(text.contains("\nElo difference: "), "{text}");
    let rows = std::fs::read_to_string(dir.0.join("r.tsv")).unwrap();
    assert_eq!(rows.lines().filter(|l| !l.starts_with('#')).count(), finished);
}

/// The second Ctrl-C abandons the games in progress, at once; no engine hears either (none forfeits).
#[test]
fn match_abandons_its_games_at_the_second_ctrl_c() {
    let waggle = WAGGLE;
    let args = [
        "match",
        "--nodes",
        "3000",
        "--games",
        "400",
        "--concurrency",
        "2",
        waggle,
        waggle,
    ];
    let mut run = Waggle::new(args).start_at_terminal();
    // Once a game has ended every engine is running: a Ctrl-C while the arena starts an engine reaches it before
    // it is in a process group of its own.
    assert!(run.wait_for("Score of ", SOON), "{}", run.text());
    run.ctrl_c();
    assert!(run.wait_for("no new game starts", SOON), "{}", run.text());
    run.ctrl_c();
    assert!(run.wait_for("abandoning the games in progress", SOON), "{}", run.text());
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    let finished = text.matches("Finished game ").count();
    assert!(
        text.contains(&format!("Interrupted: {finished} of 400 games finished, ")),
        "{text}"
    );
    assert_eq!(text.matches("; 0 forfeits\n").count(), 2, "{text}");
}

/// The UHP engine at a terminal: a line is edited as at a shell (a left arrow moves the cursor, where it once reached
/// the engine as `^[[D`), an earlier line comes back with the up arrow, and the terminal is given back as it was
/// when the engine leaves; on a pipe the same bytes are text, as they always were.
#[test]
fn the_engine_at_a_terminal_edits_lines_and_keeps_their_history() {
    let mut run = Waggle::engine().start_at_terminal();
    assert!(run.wait_for("Clock\nok\n", SOON), "the start-up block: {}", run.text());
    run.type_keys("ifo\x1b[D\x1b[Dn\r");
    assert!(
        run.wait_for_times("Clock\nok\n", 2, SOON),
        "info, edited: {}",
        run.text()
    );
    run.type_keys("\x1b[A\r");
    assert!(
        run.wait_for_times("Clock\nok\n", 3, SOON),
        "info, again: {}",
        run.text()
    );
    run.type_keys("exit\r");
    let Exit {
        code, text, line_mode, ..
    } = run.finish(SOON);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("err "), "{text}");
    assert!(line_mode, "the terminal is left echoing and reading lines");
    let piped = Waggle::engine().input("ifo\x1b[D\x1b[Dn\n").run();
    assert!(
        piped.stdout.contains("\nerr Unknown command 'ifo\x1b[D\x1b[Dn'"),
        "{}",
        piped.stdout
    );
}

/// The UHP engine, idle at its prompt: Ctrl-C ends it. A person who started it at a terminal is told what it is
/// and where the games for people are (tests/uhp.rs checks that a pipe hears nothing of it).
#[test]
fn the_engine_ends_at_ctrl_c_when_idle() {
    let mut run = Waggle::engine().start_at_terminal();
    assert!(run.wait_for("Clock\nok\n", SOON), "the start-up block: {}", run.text());
    let text = run.text();
    assert!(
        text.contains("the UHP engine") && text.contains("waggle play") && text.contains("waggle web"),
        "{text}"
    );
    run.ctrl_c();
    let Exit {
        code, text, line_mode, ..
    } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(line_mode, "the terminal is left echoing and reading lines");
}

/// The UHP engine: Ctrl-C during a `bestmove` of a minute answers at once with the move found so far, and the
/// engine goes on; during an `analyze` without a limit it gives the lines found so far.
#[test]
fn the_engine_answers_at_ctrl_c_while_it_searches() {
    // --verbose shows each completed depth on stderr (the terminal): the search is under way.
    let mut run = Waggle::new(["--verbose"]).start_at_terminal();
    assert!(run.wait_for("Clock\nok\n", SOON), "{}", run.text());
    // A position in the middle of a game, out of the opening book.
    run.type_keys(&format!("newgame {}\n", game_string("selfplay40")));
    assert!(run.wait_for_times("\nok\n", 2, SOON), "{}", run.text());
    run.type_keys("bestmove time 00:01:00\n");
    assert!(run.wait_for("hashfull=", SOON), "searching: {}", run.text());
    run.ctrl_c();
    // The line editor prompts for `stop` while the engine searches, and redraws its line around what the engine
    // prints: the move and its `ok` are read from the screen.
    assert!(
        run.wait_for_line_times("ok", 3, SOON),
        "the move long before its minute: {:?}",
        run.text()
    );
    let moved = run.text();
    let screen = run.screen();
    let last_ok = screen.iter().rposition(|line| line == "ok").unwrap();
    let answer = &screen[last_ok - 1];
    assert!(!answer.contains(';') && answer.len() >= 3, "a move: {moved:?}");

    let depths = run.text().matches("hashfull=").count();
    run.type_keys("analyze 2\n");
    assert!(
        run.wait_for_times("hashfull=", depths + 1, SOON),
        "analysing: {}",
        run.text()
    );
    run.ctrl_c();
    assert!(
        run.wait_for_line_times("ok", 4, SOON),
        "the lines found: {:?}",
        run.text()
    );
    let analysed = run.text();
    let block: Vec<&str> = analysed[moved.len()..]
        .lines()
        .filter(|l| !l.contains("hashfull="))
        .collect();
    assert_eq!(block.iter().filter(|l| l.contains(';')).count(), 2, "{analysed}");

    // Idle again: the next Ctrl-C ends it.
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
}

/// `waggle play`: Ctrl-C while Waggle thinks makes it move at once; at the prompt (the line editor's) it drops the
/// line typed and says how to leave, and a second press in a row leaves, as an interrupted program: it says so,
/// with status 130.
#[test]
fn play_moves_at_ctrl_c_and_drops_the_line_typed_at_the_prompt() {
    let opening = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    let args = ["play", "--color", "black", "--time", "60", "--from", opening];
    let mut run = Waggle::new(args).start_at_terminal();
    assert!(run.wait_for("Waggle is thinking", SOON), "{}", run.text());
    run.ctrl_c();
    assert!(
        run.wait_for("Waggle plays: ", SOON),
        "a move long before its minute: {}",
        run.text()
    );
    assert!(run.wait_for("Black to move > ", SOON), "{}", run.text());
    run.type_keys("bS2 -bQ");
    run.ctrl_c();
    // The line editor leaves its raw mode between two lines, and drops what was typed meanwhile.
    assert!(run.wait_for_times("Black to move > ", 2, SOON), "{}", run.text());
    run.type_keys("board\r");
    assert!(run.wait_for_times("Black to move > ", 3, SOON), "{}", run.text());
    // Ctrl-C at an empty prompt says how to leave; pressed again, it leaves.
    run.ctrl_c();
    assert!(run.wait_for_times("Ctrl-C again", 2, SOON), "{}", run.text());
    assert!(run.wait_for_times("Black to move > ", 4, SOON), "{}", run.text());
    // (What is typed while the line editor is between two lines is dropped: the press waits for its prompt.)
    thread::sleep(Duration::from_millis(300));
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(text.ends_with("waggle play: interrupted\n"), "{text}");
    assert!(!text.contains("You play: "), "the line dropped was not played: {text}");
}

/// `waggle review`: Ctrl-C stops the review; the summary of the moves judged follows, the progress bar gone from
/// the screen (the terminal's `^C` once pushed the bar's line out of reach of its clearing), status 130.
#[test]
fn review_stops_at_ctrl_c_and_clears_its_progress_bar() {
    let game = format!("{DATA}/review/pgn/b_club_game.pgn");
    let mut run = Waggle::new(["review", &game, "--time", "0.3"]).start_at_terminal();
    assert!(run.wait_for("moves judged", SOON), "the bar: {}", run.text());
    assert!(run.wait_for("    3  White", SOON), "three moves judged: {}", run.text());
    run.ctrl_c();
    let Exit {
        code, screen: shown, ..
    } = run.finish(SOON);
    assert_eq!(code, Some(130), "{shown:#?}");
    let stopped = shown
        .iter()
        .position(|l| l.starts_with("Stopped: ") && l.ends_with(" of 46 moves reviewed."))
        .unwrap_or_else(|| panic!("{shown:#?}"));
    assert!(shown[stopped + 1].starts_with("White  "), "{shown:#?}");
    assert!(
        !shown.iter().any(|l| l.contains("moves judged,")),
        "the progress bar is still shown: {shown:#?}"
    );
    assert!(
        shown.last().unwrap().starts_with("waggle review: interrupted: "),
        "{shown:#?}"
    );
}

/// `waggle perft`: Ctrl-C stops the count and says how far it got.
#[test]
fn perft_stops_at_ctrl_c() {
    let mut run = Waggle::new(["perft", "Base+MLP", "--depth", "9"]).start_at_terminal();
    assert!(run.wait_for("perft(6) = ", SOON), "{}", run.text());
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(text.contains("waggle perft: perft(7) interrupted after "), "{text}");
}

/// `waggle selfplay`: the first Ctrl-C starts no new game; those written are counted.
#[test]
fn selfplay_stops_at_ctrl_c() {
    let dir = Scratch::new("terminal-selfplay");
    let out = dir.path("games.txt");
    let args = ["selfplay", "--games", "100000", "--nodes", "300", "--out", &out];
    let mut run = Waggle::new(args).start_at_terminal();
    assert!(run.wait_for("games 1 of 100000", SOON), "{}", run.text());
    run.ctrl_c();
    assert!(run.wait_for("no new game starts", SOON), "{}", run.text());
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    let written = std::fs::read_to_string(&out).unwrap().lines().count();
    assert!(
        text.contains(&format!("interrupted: {written} of 100000 games written to {out}")),
        "{text}"
    );
}

/// `waggle tune`: Ctrl-C stops the descent and prints the weights so far.
#[test]
fn tune_stops_at_ctrl_c() {
    let dir = Scratch::new("terminal-tune");
    let games = dir.path("games.txt");
    let made = Waggle::new(["selfplay", "--games", "20", "--nodes", "200", "--out", &games]).start_at_terminal();
    assert_eq!(made.finish(Duration::from_secs(120)).code, Some(0));
    let mut run = Waggle::new(["tune", &games, "--iterations", "100000000"]).start_at_terminal();
    assert!(run.wait_for(" positions\n", SOON), "{}", run.text());
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(
        text.contains("interrupted after ") && text.contains("\nscale "),
        "{text}"
    );
}

/// `waggle bench`: Ctrl-C stops at the position in progress, without a signature.
#[test]
fn bench_stops_at_ctrl_c() {
    let mut run = Waggle::new(["bench", "9"]).start_at_terminal();
    assert!(run.wait_for(" nodes ", SOON), "the first position: {}", run.text());
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(text.contains("bench depth 9 interrupted after "), "{text}");
    assert!(!text.contains("signature "), "{text}");
}

/// `waggle json`, on the terminal and over HTTP: Ctrl-C ends it and says how many requests it answered.
#[test]
fn json_stops_at_ctrl_c() {
    let mut run = Waggle::new(["json"]).start_at_terminal();
    for id in ["1", "2"] {
        run.type_keys(&format!(
            "{{\"request_type\": \"Greetings\", \"request_id\": \"{id}\"}}\n"
        ));
        assert!(
            run.wait_for(&format!("\"response_id\":\"{id}\""), SOON),
            "{}",
            run.text()
        );
    }
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    // An answer is counted once written: the second may be shown and not yet counted.
    assert!(
        ["1 request\n", "2 requests"]
            .iter()
            .any(|n| text.contains(&format!("waggle json: interrupted after answering {n}"))),
        "{text}"
    );

    let mut run = Waggle::new(["json", "--listen", "127.0.0.1:0"]).start_at_terminal();
    assert!(
        run.wait_for("waggle json: listening on http://", SOON),
        "{}",
        run.text()
    );
    run.ctrl_c();
    let Exit { code, text, .. } = run.finish(SOON);
    assert_eq!(code, Some(130), "{text}");
    assert!(
        text.contains("waggle json: stopped after answering 0 requests"),
        "{text}"
    );
}

#[test]
fn the_screen_follows_the_cursor() {
    // A bar drawn, cleared and drawn again, then a line over it.
    assert_eq!(screen("bar 1\r\x1b[2Kbar 2\r\x1b[2Kdone\r\n", 20), ["done"]);
    // A character in the last column wraps only when another follows; a carriage return does not.
    assert_eq!(screen("abcd\rx", 4), ["xbcd"]);
    assert_eq!(screen("abcd^C\r\x1b[2Kend", 4), ["abcd", "end"]);
    // Up, and erasing to the end of the line.
    assert_eq!(screen("one\r\ntwo\r\n\x1b[2Ao\x1b[K", 10), ["o", "two"]);
    assert_eq!(screen("\x1b[?25lshown\x1b[?25h \x1b[1mbold\x1b[0m", 40), ["shown bold"]);
}
