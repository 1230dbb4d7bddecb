//! The session driven line by line: replies, errors, and faults in a search or a command.

use super::*;
use crate::engine::{EngineError, Options};

/// The idle session's engine.
fn engine_mut(session: &mut Session<Vec<u8>>) -> &mut Engine {
    match &mut session.state {
        State::Idle(engine) => engine.as_mut(),
        _ => panic!("the session is busy"),
    }
}

fn session() -> Session<Vec<u8>> {
    Session::new(Vec::new(), Engine::new(Options::default()).unwrap())
}

fn ask(session: &mut Session<Vec<u8>>, line: &str) -> String {
    session.out.clear();
    session.handle(line).unwrap();
    String::from_utf8(session.out.clone()).unwrap()
}

#[test]
fn every_reply_ends_with_ok_and_errors_change_nothing() {
    let mut s = session();
    assert_eq!(
        ask(&mut s, "play wS1"),
        "err No game in progress. Try 'newgame' to start a new game.\nok\n"
    );
    assert_eq!(ask(&mut s, "newgame Base"), "Base;NotStarted;White[1]\nok\n");
    assert_eq!(
        ask(&mut s, "play wQ"),
        "invalidmove You can't play your Queen Bee on your first turn.\nok\n"
    );
    assert_eq!(ask(&mut s, "play wS1"), "Base;InProgress;Black[1];wS1\nok\n");
    assert_eq!(ask(&mut s, "history"), "1. wS1\nok\n");
    assert_eq!(ask(&mut s, "stop"), "ok\n");
    assert_eq!(ask(&mut s, ""), "");
    let best = ask(&mut s, "bestmove depth 1");
    assert!(best.ends_with("\nok\n") && best.lines().count() == 2, "{best}");
    let analysis = ask(&mut s, "analyze 3 depth 2");
    let lines: Vec<&str> = analysis.lines().collect();
    assert_eq!(lines.len(), 4, "{analysis}");
    assert!(
        lines[..3].iter().all(|l| l.split(';').nth(1) == Some("2")),
        "{analysis}"
    );
    assert_eq!(s.handle("exit").unwrap(), Flow::Exit);
}

/// A search that failed (a bug: its panic caught by the engine, as `crate::engine`'s tests show) becomes an `err`
/// that names the position and the command, and the session goes on with the game as it was.
#[test]
fn a_search_that_failed_becomes_an_error_and_the_session_goes_on() {
    let mut s = session();
    let game = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    ask(&mut s, &format!("newgame {game}"));
    let failure = engine_mut(&mut s)
        .best_move(&crate::search::Limits::depth(20), |_| panic!("a fault made on purpose"))
        .expect_err("the panic");
    // The engine handed back by the thread of `bestmove depth 20`, with that failure.
    let job = state::Job {
        halt: state::Halt::Search(engine_mut(&mut s).stopper()),
        unbounded: false,
        line: "bestmove depth 20".into(),
        reporting: false,
    };
    let State::Idle(engine) = mem::replace(&mut s.state, State::Working(job)) else {
        unreachable!("the session was idle")
    };
    s.out.clear();
    let done = Finished {
        engine,
        outcome: Outcome::Best(Err(failure)),
    };
    assert_eq!(s.on_event(Event::Done(Box::new(done))).unwrap(), Flow::Continue);
    let failed = String::from_utf8(s.out.clone()).unwrap();
    assert_eq!(
        failed,
        format!(
            "err Waggle failed searching (a fault made on purpose); the game is unchanged. This is a bug in Waggle: \
             please report it with the position {game} and the command 'bestmove depth 20'.\nok\n"
        )
    );
    assert_eq!(
        ask(&mut s, "history"),
        "1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n4. bQ bS1-\nok\n"
    );
    let best = ask(&mut s, "bestmove depth 2");
    assert!(best.lines().count() == 2 && best.ends_with("\nok\n"), "{best}");
}

/// Any other command's failure (here `play`'s) is an `err` that names the command too.
#[test]
fn a_command_that_failed_becomes_an_error_naming_it() {
    let failure = EngineError::Failed {
        during: "playing the move",
        message: "a fault made on purpose".into(),
        game: "Base+MLP;InProgress;Black[1];wS1".into(),
    };
    assert_eq!(
        answer(Err(failure), "play bS1 wS1-").to_string(),
        "err Waggle failed playing the move (a fault made on purpose); the game is unchanged. This is a bug in \
         Waggle: please report it with the position Base+MLP;InProgress;Black[1];wS1 and the command \
         'play bS1 wS1-'.\nok\n"
    );
}

/// A panic in the session's own part of a command (not the engine's) is an `err` that names the command, and
/// the session goes on.
#[test]
fn a_panic_in_the_sessions_own_work_becomes_an_error() {
    let mut engine = Engine::new(Options::default()).unwrap();
    engine.new_game(&"Base".parse().unwrap()).unwrap();
    let Done::Reply(reply) = guarded(&mut engine, "board", |_| panic!("a fault made on purpose")) else {
        panic!("a reply, not work")
    };
    assert_eq!(
        reply.to_string(),
        "err Waggle failed (a fault made on purpose); the game is unchanged. This is a bug in Waggle: please report \
         it with the position Base;NotStarted;White[1] and the command 'board'.\nok\n"
    );
}
