//! The session driven line by line: replies, errors, and faults in a search or a command.

use std::sync::mpsc::channel;
use std::thread;

use super::*;
use crate::engine::Options;

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

/// A search thread that panics (the main one or a helper) becomes an `err` that names the position and the
/// command, and the session goes on with the game as it was.
#[test]
fn a_search_that_panics_becomes_an_error_and_the_session_goes_on() {
    use crate::search::Fault;
    for (fault, helpers) in [
        (Fault::MainThreadPanics, 0),
        (Fault::MainThreadPanics, 1),
        (Fault::HelperPanics, 1),
    ] {
        let (done, finished) = channel();
        thread::spawn(move || {
            let mut s = session();
            let game = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
            ask(&mut s, &format!("newgame {game}"));
            ask(
                &mut s,
                &format!(
                    "options set MaxHelperThreads {}",
                    if helpers == 0 {
                        "None".to_string()
                    } else {
                        helpers.to_string()
                    }
                ),
            );
            engine_mut(&mut s).inject(Some(fault));
            let failed = ask(&mut s, "bestmove depth 20");
            engine_mut(&mut s).inject(None);
            let after = (ask(&mut s, "history"), ask(&mut s, "bestmove depth 2"));
            let _ = done.send((game, failed, after));
        });
        let (game, failed, (history, best)) = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{fault:?} with {helpers} helpers: the session never answered"));
        assert!(failed.starts_with("err Waggle failed searching ("), "{failed}");
        assert!(
            failed.contains(&format!("the position {game} and the command 'bestmove depth 20'.")),
            "{failed}"
        );
        assert!(failed.ends_with("\nok\n") && failed.lines().count() == 2, "{failed}");
        assert_eq!(history, "1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n4. bQ bS1-\nok\n");
        assert!(best.lines().count() == 2 && best.ends_with("\nok\n"), "{best}");
    }
}

/// A panic in any other command (here `play`, after it changed the game) is an `err` too, and the game is put
/// back as it was.
#[test]
fn a_command_that_panics_becomes_an_error_and_changes_nothing() {
    let mut s = session();
    ask(&mut s, "newgame Base+MLP;InProgress;Black[1];wS1");
    engine_mut(&mut s).inject(Some(crate::search::Fault::PlayPanics));
    let failed = ask(&mut s, "play bS1 wS1-");
    assert!(failed.starts_with("err Waggle failed playing the move ("), "{failed}");
    assert!(
        failed.ends_with("the position Base+MLP;InProgress;Black[1];wS1 and the command 'play bS1 wS1-'.\nok\n"),
        "{failed}"
    );
    engine_mut(&mut s).inject(None);
    assert_eq!(ask(&mut s, "history"), "1. wS1\nok\n");
    assert_eq!(
        ask(&mut s, "play bS1 wS1-"),
        "Base+MLP;InProgress;White[2];wS1;bS1 wS1-\nok\n"
    );
}
