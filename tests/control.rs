//! Control over a running engine, as each of its users has it: the end of input (a game server closes stdin after
//! `bestmove`), `exit`, `stop` however quickly it follows, and a table size the machine cannot give. Each test
//! drives the real binary over pipes and allows seconds where the engine needs milliseconds: what is asserted is
//! that it ends and what it says, not how fast (the latency is measured by `cargo bench --bench latency`).

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::{Engine, Waggle};

const MIDGAME: &str = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// Run the engine with `args` on `input` (then the end of input) and collect what it prints, or `None` if it
/// has not exited after `within`.
fn run_to_end(args: &[&str], input: &str, within: Duration) -> Option<String> {
    Some(Waggle::new(args).input(input).timeout(within).run_within()?.stdout)
}

/// The lines of a transcript after the start-up block.
fn replies(transcript: &str) -> Vec<&str> {
    transcript.lines().skip(3).collect()
}

#[test]
fn the_end_of_input_ends_an_analysis_that_only_a_stop_could_end() {
    let out = run_to_end(&[], &format!("newgame {MIDGAME}\nanalyze 3\n"), Duration::from_secs(20))
        .expect("analyze without a limit ends with the input");
    let lines = replies(&out);
    assert_eq!(lines.len(), 6, "{out}");
    assert_eq!((lines[1], lines[5]), ("ok", "ok"), "{out}");
    assert!(
        lines[2..5].iter().all(|l| l.split(';').count() >= 4),
        "three analysis lines: {out}"
    );
}

#[test]
fn the_end_of_input_lets_a_bounded_search_answer() {
    // As hivegame.com's bot bridge does it: the commands, then the input closed at once.
    let out = run_to_end(
        &["--opening-book", "False"],
        &format!("newgame {MIDGAME}\nbestmove depth 3\n"),
        Duration::from_secs(20),
    )
    .expect("ends");
    let lines = replies(&out);
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[2].parse::<waggle::MoveString>().is_ok(), "{out}");
}

#[test]
fn exit_ends_a_running_search_at_once_without_a_move() {
    for threads in ["1", "2"] {
        let out = run_to_end(
            &["--threads", threads],
            "options set OpeningBook False\nnewgame Base+MLP\nbestmove depth 40\nexit\n",
            Duration::from_secs(20),
        )
        .unwrap_or_else(|| panic!("{threads} threads: still searching after exit"));
        assert_eq!(
            replies(&out),
            [
                "OpeningBook;bool;False;True",
                "ok",
                "Base+MLP;NotStarted;White[1]",
                "ok"
            ],
            "{threads} threads: nothing after exit"
        );
    }
    // Sent while the search runs, too; and lines queued before it are dropped with the search.
    let mut e = Engine::start(&["--opening-book", "False"]);
    e.one(&format!("newgame {MIDGAME}"));
    e.send("analyze 2");
    e.send("history");
    thread::sleep(Duration::from_millis(300));
    e.send("exit");
    assert!(
        e.process.exits_within(Duration::from_secs(20)).is_some(),
        "exit during analyze"
    );
    assert_eq!(
        e.line_within(Duration::from_millis(100)),
        None,
        "nothing printed after exit"
    );
}

/// A `stop` that follows `bestmove` at once ends that search, however the engine was busy when both arrived:
/// pondering (which gives way to the `bestmove` first) or not, with one thread or two.
#[test]
fn a_stop_right_after_bestmove_ends_that_search() {
    for args in [
        &["--ponder-during-idle", "SingleThreaded"][..],
        &["--ponder-during-idle", "MultiThreaded", "--threads", "2"],
        &["--threads", "2"],
        &[],
    ] {
        let mut e = Engine::start(args);
        e.one("options set OpeningBook False");
        e.one(&format!("newgame {MIDGAME}"));
        let best = e.one("bestmove depth 2");
        e.one(&format!("play {best}"));
        let reply = e.one("validmoves").split(';').next().unwrap().to_string();
        e.one(&format!("play {reply}"));
        // Pondering now, if it is on.
        thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        e.send("bestmove time 00:00:20\nstop");
        let answer = e.reply();
        let took = start.elapsed();
        assert_eq!(answer.len(), 1, "{args:?}: {answer:?}");
        assert_eq!(e.reply(), Vec::<String>::new(), "the stop's own ok");
        assert!(
            e.one("validmoves").split(';').any(|m| m == answer[0]),
            "{args:?}: {answer:?}"
        );
        assert!(took < Duration::from_secs(10), "{args:?}: the stop was lost ({took:?})");
    }
    // A stop behind another search's line belongs to that one: the first search runs to its end.
    let mut e = Engine::start(&["--report-intermediate-best-moves", "--opening-book", "False"]);
    e.one(&format!("newgame {MIDGAME}"));
    e.send("bestmove depth 3\nbestmove depth 30\nstop");
    let first = e.reply();
    assert_eq!(first.len(), 4, "depths 1 to 3 and the move: {first:?}");
    e.reply();
    assert_eq!(e.reply(), Vec::<String>::new(), "the stop's own ok");
}

/// A table the machine cannot give is refused with its size and the limit, and the old table stays (searches
/// visit exactly the nodes they did before).
#[cfg(target_os = "linux")]
#[test]
fn a_table_that_does_not_fit_is_refused_and_the_old_one_stays() {
    let transcript = |commands: &str| {
        Waggle::new(["--report-intermediate-best-moves", "--opening-book", "False"])
            .ulimit("-v 1500000")
            .input(commands)
            .run()
            .stdout
    };
    let search = format!("newgame {MIDGAME}\nbestmove depth 5\n");
    let refused = transcript(&format!(
        "options set MaxHashSize 4096\noptions get MaxHashSize\n{search}"
    ));
    let lines = replies(&refused);
    assert!(
        lines[0].starts_with("err A 4096 MB transposition table does not fit in memory (about "),
        "{refused}"
    );
    assert!(
        lines[0].ends_with(" MB is available); the table stays at 64 MB."),
        "{refused}"
    );
    assert_eq!(lines[2], "MaxHashSize;int;64;64;1;4096", "{refused}");
    let fresh = transcript(&search);
    // Times and speeds vary; the lines, scores and node counts must not.
    let steady = |lines: &[&str]| -> Vec<String> {
        let keep = |f: &&str| !f.starts_with("time=") && !f.starts_with("nps=");
        lines
            .iter()
            .map(|l| l.split(';').filter(keep).collect::<Vec<_>>().join(";"))
            .collect()
    };
    assert_eq!(
        steady(&lines[4..]),
        steady(&replies(&fresh)),
        "the same search as with a table never touched"
    );
}

/// `perft` in a session counts beside it, each depth's line as it is counted: a `stop` ends the count with a line
/// that says how far the depth in progress got; an `exit` ends it without one.
#[test]
fn a_perft_in_a_session_stops() {
    let mut e = Engine::start(&[]);
    e.one("newgame Base+MLP");
    e.send("perft 9");
    let mut lines = Vec::new();
    while lines.len() < 6 {
        lines.push(e.line_within(Duration::from_secs(30)).expect("depths 1 to 6"));
    }
    e.send("stop");
    let rest = e.reply();
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(rest[0].starts_with("perft(7) interrupted after "), "{rest:?}");
    assert!(rest[0].contains(" of 7 root moves done, "), "{rest:?}");
    assert_eq!(e.reply(), Vec::<String>::new(), "the stop's own ok");
    assert_eq!(e.one("play wS1"), "Base+MLP;InProgress;Black[1];wS1", "idle again");
    e.send("perft 9");
    e.send("exit");
    assert!(
        e.process.exits_within(Duration::from_secs(20)).is_some(),
        "exit during perft"
    );
}
