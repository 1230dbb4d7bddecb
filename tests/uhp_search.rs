//! The search as a viewer or a person drives it over pipes: stopping (`stop`, SIGINT) during `bestmove` and
//! `analyze`, lines that wait for a search, pondering (quick replies, nothing printed), `analyze`, node limits,
//! clocks, and the search information lines.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::{Engine, Waggle};
use waggle::MoveString;

const MIDGAME: &str = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// Every item of `validmoves` in the engine's current game.
fn legal(e: &mut Engine) -> Vec<String> {
    e.one("validmoves").split(';').map(String::from).collect()
}

#[test]
fn stop_ends_bestmove_and_analyze_with_an_answer() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {MIDGAME}"));
    let moves = legal(&mut e);
    // Depth 40 would take hours: only `stop` ends it.
    e.send("bestmove depth 40");
    thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let best = e.reply();
    assert_eq!(best.len(), 1, "{best:?}");
    assert!(moves.contains(&best[0]), "{best:?}");
    assert_eq!(e.reply(), Vec::<String>::new(), "stop has its own ok");
    e.send("analyze 3");
    thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.reply();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| moves.contains(&l.split(';').next().unwrap().to_string())),
        "{lines:?}"
    );
    assert_eq!(e.reply(), Vec::<String>::new());
    // The engine is idle again: a `stop` now changes nothing and the next search runs to its depth.
    assert_eq!(e.ask("stop"), Vec::<String>::new());
    let deep = e.ask("analyze 1 depth 3");
    assert_eq!(deep[0].split(';').nth(1), Some("3"), "{deep:?}");
}

#[cfg(unix)]
#[test]
fn sigint_ends_analyze_with_its_lines() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {MIDGAME}"));
    e.send("analyze 2");
    thread::sleep(Duration::from_millis(300));
    e.process.interrupt();
    let lines = e.reply();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_ne!(lines[0].split(';').next(), lines[1].split(';').next());
    assert_eq!(e.ask("info").len(), 2, "still alive");
}

#[test]
fn lines_sent_during_a_search_run_afterwards_in_order() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {MIDGAME}"));
    e.send("bestmove time 00:00:00.3");
    e.send("info");
    e.send("play wA1 wQ\\");
    e.send("history");
    let best = e.reply();
    assert_eq!(best.len(), 1);
    assert_eq!(e.reply().len(), 2, "info");
    assert!(e.reply()[0].ends_with(";wA1 wQ\\"), "play");
    assert_eq!(e.reply().len(), 5, "history");
}

#[test]
fn analyze_lists_distinct_legal_moves_best_first() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {MIDGAME}"));
    let moves = legal(&mut e);
    let lines = e.ask("analyze 3 depth 3");
    assert_eq!(lines.len(), 3, "{lines:?}");
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    let pos = common::position(MIDGAME).unwrap();
    for line in &lines {
        let fields: Vec<&str> = line.split(';').collect();
        assert!(moves.contains(&fields[0].to_string()), "{line}");
        assert_eq!(fields[1], "3", "{line}");
        scores.push(fields[2].parse::<i32>().unwrap());
        assert_eq!(fields[3], fields[0], "the PV starts with the move: {line}");
        // The PV is a line of legal moves.
        let mut replay = pos.clone();
        for mv in &fields[3..] {
            let parsed: MoveString = mv.parse().unwrap();
            replay.play(parsed.to_move(&replay).unwrap()).unwrap();
        }
        firsts.push(fields[0]);
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    // The best line is the move bestmove gives at the same depth, from the same empty table.
    let mut fresh = Engine::start(&[]);
    fresh.one(&format!("newgame {MIDGAME}"));
    assert_eq!(fresh.one("bestmove depth 3"), lines[0].split(';').next().unwrap());
}

#[test]
fn a_node_limited_search_repeats_exactly() {
    let mut answers = Vec::new();
    for _ in 0..2 {
        let mut e = Engine::start(&["--report-intermediate-best-moves"]);
        e.one(&format!("newgame {MIDGAME}"));
        let lines = e.ask("bestmove nodes 20000");
        // The node counts of the intermediate lines, and the move.
        let nodes: Vec<String> = lines
            .iter()
            .filter_map(|l| l.split(';').find(|f| f.starts_with("nodes=")).map(String::from))
            .collect();
        answers.push((nodes, lines.last().cloned()));
    }
    assert!(!answers[0].0.is_empty());
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn search_information_lines_keep_mzingas_fields_first() {
    let mut e = Engine::start(&["--report-intermediate-best-moves"]);
    e.one(&format!("newgame {MIDGAME}"));
    let lines = e.ask("bestmove depth 4");
    assert_eq!(lines.len(), 5, "{lines:?}");
    for (depth, line) in (1..=4).zip(&lines) {
        let fields: Vec<&str> = line.split(';').collect();
        fields[0].parse::<MoveString>().unwrap();
        assert_eq!(fields[1], depth.to_string(), "{line}");
        fields[2].parse::<i32>().unwrap();
        let extra: Vec<&str> = fields.iter().filter(|f| f.contains('=')).copied().collect();
        let keys: Vec<&str> = extra.iter().map(|f| f.split('=').next().unwrap()).collect();
        assert_eq!(keys, ["nodes", "nps", "time", "seldepth", "hashfull"], "{line}");
        // The PV sits between the score and the extra fields, one MoveString a field.
        let pv = &fields[3..fields.len() - extra.len()];
        assert_eq!(pv[0], fields[0]);
        assert!(pv.len() <= depth, "{line}");
    }
    assert_eq!(lines[4], lines[3].split(';').next().unwrap());
}

#[test]
fn a_clock_search_answers_in_good_time() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {MIDGAME}"));
    let start = Instant::now();
    let best = e.one("bestmove clock 00:00:02 00:00:00.1 00:00:02 00:00:00.1");
    let took = start.elapsed();
    best.parse::<MoveString>().unwrap();
    // A share of two seconds: far less than the clock (generous bound; the time is measured, not asserted).
    assert!(took < Duration::from_secs(1), "{took:?}");
    // With one legal move there is nothing to think about.
    let pass_only = "Base;InProgress;White[25];wB1;bA1 wB1/;wA1 -wB1;bA2 bA1/;wA2 /wA1;bS1 bA2\\;wQ /wA2;bQ \\bA2;\
        wB2 wB1\\;bA3 bQ/;wB2 bA1\\;bA1 bA3\\;wG1 \\wA1;bA1 wA1\\;wS1 -wQ;bA3 -wG1;wA3 wG1/;bA1 wB2\\;wA3 wS1\\;\
        bA1 \\wS1;wG2 /wS1;bA3 wA3\\;wG3 wG1/;bB1 bS1-;wS2 /wG1;bS2 \\bQ;wG2 wQ\\;bB2 -bA1;wS2 \\wG3;bS2 \\wS2;\
        wA3 bB1\\;bA3 wA3-;wG2 -wA2;bA3 wB1\\;wG2 wQ\\;bA3 /wG2;wA3 /wS1;bG1 bB1-;wA3 \\bB2;bA3 wA2\\;wA3 bB2\\;\
        bA3 bA1/;wA3 wG2\\;bG2 /bB2;wA3 /wS1;bG3 \\bG1;wA3 wG2\\;bA3 wA3-";
    e.one(&format!("newgame {pass_only}"));
    let start = Instant::now();
    assert_eq!(e.one("bestmove clock 00:10:00 00:00:00 00:10:00 00:00:00"), "pass");
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// While pondering, the engine prints nothing and answers any line about as fast as when idle (the bound is
/// generous: the test asserts the order of things, not a tight time).
#[test]
fn pondering_is_silent_and_gives_way_to_any_line() {
    let mut e = Engine::start(&["--ponder-during-idle", "SingleThreaded"]);
    e.one(&format!("newgame {MIDGAME}"));
    let best = e.one("bestmove depth 2");
    // Now pondering on the position after `best`.
    assert_eq!(
        e.line_within(Duration::from_millis(500)),
        None,
        "nothing printed while pondering"
    );
    let start = Instant::now();
    assert_eq!(e.ask("info").len(), 2);
    let answered = start.elapsed();
    assert!(answered < Duration::from_secs(2), "{answered:?}");
    let game = e.one(&format!("play {best}"));
    assert!(game.ends_with(&best));
    // Its own move played back to it: it ponders on, through the opponent's turn.
    assert_eq!(e.line_within(Duration::from_millis(300)), None);
    // The opponent moves: the engine's own move is expected, so it ponders on the current position.
    let reply = legal(&mut e)[0].clone();
    e.one(&format!("play {reply}"));
    assert_eq!(e.line_within(Duration::from_millis(300)), None);
    let start = Instant::now();
    let next = e.one("bestmove time 00:00:00.2");
    assert!(legal(&mut e).contains(&next));
    assert!(start.elapsed() < Duration::from_secs(3));
    // Options read the same while pondering, and the end of input ends the engine.
    assert_eq!(
        e.one("options get PonderDuringIdle"),
        "PonderDuringIdle;enum;SingleThreaded;Disabled;Disabled;SingleThreaded;MultiThreaded"
    );
    e.process.close_input();
    assert!(
        e.process.exits_within(Duration::from_secs(10)).is_some(),
        "still running after the end of input"
    );
}

#[test]
fn helper_threads_search_to_the_same_depth() {
    let mut e = Engine::start(&["--threads", "0"]);
    let threads = e.one("options get MaxHelperThreads");
    assert!(threads.starts_with("MaxHelperThreads;enum;"), "{threads}");
    e.one(&format!("newgame {MIDGAME}"));
    let moves = legal(&mut e);
    let best = e.one("bestmove depth 4");
    assert!(moves.contains(&best), "{best}");
    assert!(e
        .one("options set MaxHelperThreads None")
        .starts_with("MaxHelperThreads;enum;None;"));
    assert!(e.one("options set MaxHelperThreads Lots").starts_with("err "));
}

/// `--weights FILE` with sections: a search evaluates with the set of its game's type.
#[test]
fn each_game_type_is_searched_with_its_own_weights() {
    let dir = std::env::temp_dir().join(format!("waggle-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Spiders in hand are a burden in every game type but Base+MLP, where Grasshoppers are: a one-ply search
    // places the bug its game type's weights want out of hand.
    let file = dir.join("weights.txt");
    std::fs::write(&file, "in_hand_spider -100\n[Base+MLP]\nin_hand_grasshopper -100\n").unwrap();
    // Without the book, which would answer the first move at once.
    let mut e = Engine::start(&["--weights", file.to_str().unwrap(), "--opening-book", "False"]);
    for (game_type, expected) in [
        ("Base", "wS1"),
        ("Base+M", "wS1"),
        ("Base+LP", "wS1"),
        ("Base+MLP", "wG1"),
    ] {
        e.ask(&format!("newgame {game_type}"));
        assert_eq!(e.one("bestmove depth 1"), expected, "{game_type}");
    }

    // A file that does not read stops the engine with the reason, before any protocol output.
    std::fs::write(&file, "tempo 3\n[Base+Q]\n").unwrap();
    let output = Waggle::new(["--weights", file.to_str().unwrap()]).run();
    assert!(!output.success());
    assert!(output.stdout.is_empty(), "{output:?}");
    let message = &output.stderr;
    assert!(message.contains("line 2: 'Base+Q' is not a game type"), "{message}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The last node count of a `bestmove depth` answered with its search information lines.
fn nodes_of_depth_search(e: &mut Engine, depth: u32) -> u64 {
    let lines = e.ask(&format!("bestmove depth {depth}"));
    let last_info = &lines[lines.len() - 2];
    last_info
        .split(';')
        .find_map(|field| field.strip_prefix("nodes="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes= in {lines:?}"))
}

/// What the engine learns while the opponent thinks (after its own move is played back to it, as a viewer or a
/// referee does at once) stays in the table: when the opponent plays the reply the engine expected, its next
/// search to a fixed depth needs fewer nodes than the same search without pondering.
/// The ponder search runs on wall time, so a loaded machine may give it too little of the second: the
/// comparison gets three tries and must hold in one of them.
#[test]
fn pondering_through_the_opponents_turn_saves_the_next_search_work() {
    let mut tries = Vec::new();
    for _ in 0..3 {
        let nodes = ponder_and_plain_nodes();
        if nodes[0] < nodes[1] {
            return;
        }
        tries.push(nodes);
    }
    panic!("with pondering never fewer nodes than without: {tries:?}");
}

/// Nodes of the depth-5 search after the opponent's reply, with pondering and without.
fn ponder_and_plain_nodes() -> Vec<u64> {
    let mut nodes = Vec::new();
    for ponder in ["SingleThreaded", "Disabled"] {
        let mut e = Engine::start(&["--ponder-during-idle", ponder, "--report-intermediate-best-moves"]);
        e.one(&format!("newgame {MIDGAME}"));
        let lines = e.ask("bestmove depth 3");
        let best = lines.last().unwrap().clone();
        // The reply the search expects (the second move of its last line), which pondering looks at first.
        let expected = lines[lines.len() - 2].split(';').nth(4).map(str::to_owned);
        e.one(&format!("play {best}"));
        // The opponent thinks for a second.
        assert_eq!(e.line_within(Duration::from_millis(1000)), None);
        let reply = match expected {
            Some(mv) if !mv.contains('=') => mv,
            _ => legal(&mut e)[0].clone(),
        };
        e.one(&format!("play {reply}"));
        nodes.push(nodes_of_depth_search(&mut e, 5));
    }
    nodes
}

/// A stop that reaches a ponder search which has already ended of itself (here at once: its move wins, so
/// there is nothing to ponder) must not end the next search before it starts.
#[test]
fn a_late_stop_of_a_finished_ponder_search_does_not_cut_the_next_search_short() {
    const WIN_IN_ONE: &str = r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \wQ;bG2 bQ/;wG2 /wQ;bG3 bQ\;wS2 \wG1;bA1 \bQ";
    let mut e = Engine::start(&[
        "--ponder-during-idle",
        "SingleThreaded",
        "--report-intermediate-best-moves",
    ]);
    e.one(&format!("newgame {WIN_IN_ONE}"));
    let lines = e.ask("bestmove depth 1");
    assert_eq!(lines.last().unwrap(), r"wA1 bS1\");
    // Pondering on the won position ends at once; the next line stops it all the same.
    thread::sleep(Duration::from_millis(100));
    e.one(&format!("newgame {MIDGAME}"));
    let lines = e.ask("bestmove depth 3");
    let depths: Vec<&str> = lines[..lines.len() - 1]
        .iter()
        .map(|line| line.split(';').nth(1).unwrap())
        .collect();
    assert_eq!(depths, ["1", "2", "3"], "{lines:?}");
}
