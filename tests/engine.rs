//! The library API that every front end builds on, used the way a front end uses it: a game through the
//! `Engine` with typed results, and a search on a thread the front end owns, stopped from outside.

use std::time::Duration;

use waggle::{Engine, EngineError, OptionValue, Options};
use waggle::{Game, GameState, GameString, GameType, MoveString, Rules};
use waggle::{Limits, Searcher};

#[test]
fn a_whole_game_through_the_engine() {
    let mut engine = Engine::new(Options::default()).unwrap();
    engine.new_game(&GameType::MLP.into()).unwrap();
    for _ in 0..200 {
        let Ok(thought) = engine.best_move(&Limits::depth(1), |_| {}) else {
            break;
        };
        let legal = engine.valid_moves().unwrap();
        assert!(legal.contains(&thought.best), "{} not among {legal:?}", thought.best);
        engine.play(thought.best).unwrap();
    }
    let game = engine.game().unwrap();
    // The record replays to the same game under Waggle's own rules.
    let replayed = Game::from_record(&game.game_string(), Rules::default()).unwrap();
    assert_eq!(replayed.game_string(), game.game_string());
    if game.state().is_over() {
        assert!(matches!(engine.valid_moves(), Err(EngineError::GameOver(_))));
    }
}

#[test]
fn errors_are_typed_and_change_nothing() {
    let mut engine = Engine::new(Options::default()).unwrap();
    assert_eq!(engine.valid_moves().err(), Some(EngineError::NoGame));
    let name = |text: &str| text.parse::<MoveString>().unwrap();
    engine.new_game(&GameType::BASE.into()).unwrap();
    engine.play(name("wS1")).unwrap();
    let before = engine.game().unwrap().game_string();
    assert!(matches!(engine.play(name("bQ wS1-")), Err(EngineError::Move(_))));
    // Text is read before it reaches the engine: what is not a MoveString or a GameString never gets there.
    assert!("bZ".parse::<MoveString>().is_err());
    assert!("Base;Going;White[1]".parse::<GameString>().is_err());
    let illegal: GameString = "Base;InProgress;White[1];bS1".parse().unwrap();
    assert!(matches!(engine.new_game(&illegal), Err(EngineError::Load(_))));
    assert!(matches!(engine.undo(2), Err(EngineError::Undo(_))));
    // Option values are typed: a table of 0 MB cannot be made, let alone given.
    assert!(waggle::HashSize::megabytes(0).is_err());
    engine.set_option(OptionValue::OpeningBook(false)).unwrap();
    assert_eq!(engine.game().unwrap().game_string(), before);
}

/// The front end owns the thread a search runs on: it moves the searcher there, keeps a stopper, and stops an
/// infinite search (as pondering or analysis would run) when it needs the answer.
#[test]
fn a_search_runs_beside_its_front_end_and_stops_when_told() {
    let record = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
        .parse()
        .unwrap();
    let game = Game::from_record(&record, Rules::default()).unwrap();
    let mut searcher = Searcher::new(16).unwrap();
    let stopper = searcher.stopper();
    let position = game.position().clone();
    let thinking = std::thread::spawn(move || {
        let report = searcher.search(&position, &Limits::infinite(), |_| {});
        (searcher, report)
    });
    std::thread::sleep(Duration::from_millis(100));
    stopper.stop();
    let (mut searcher, report) = thinking.join().unwrap();
    let report = report.expect("the game is in progress");
    assert!(game.legal_moves().contains(&report.best));
    assert!(!stopper.is_searching());
    // The searcher comes back ready for the next search, its table warm.
    let next = searcher.search(game.position(), &Limits::depth(2), |_| {}).unwrap();
    assert_eq!(next.depth, 2);
    assert!(GameType::ALL.contains(&game.position().game_type()));
    assert_eq!(game.state(), GameState::InProgress);
}

/// A node limit, like a depth, gives the same answer every time.
#[test]
fn a_node_limited_search_is_reproducible() {
    let record = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
        .parse()
        .unwrap();
    let game = Game::from_record(&record, Rules::default()).unwrap();
    let run = || {
        Searcher::new(16)
            .unwrap()
            .search(game.position(), &Limits::nodes(20_000), |_| {})
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert!(a.nodes <= 20_001 && a.nodes > 10_000, "{a:?}");
}
