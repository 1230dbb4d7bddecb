//! The Level option and the reference player: a win one move away is taken at every level, a level's searches
//! stay within its node cap, the lowest level varies its moves, and bad values are refused.

use std::collections::HashSet;

use waggle::{Engine, GameString, Level, Limits, OptionValue, Options};

/// Positions where the side to move wins at once, with the winning moves: the cases of the review's missed-win
/// data, cut before the missed move.
fn wins_in_one() -> Vec<(String, Vec<String>)> {
    include_str!("data/review/missed_wins.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let game: GameString = fields[0].parse().unwrap();
            let ply: usize = fields[1].parse().unwrap();
            let moves: Vec<String> = game.moves[..ply - 1].iter().map(ToString::to_string).collect();
            // A position before a win in one: the game goes on, with the turn its plies give.
            let plies = ply - 1;
            let side = if plies.is_multiple_of(2) { "White" } else { "Black" };
            let text = format!(
                "{};InProgress;{side}[{}];{}",
                game.game_type,
                1 + plies / 2,
                moves.join(";")
            );
            let wins = fields[2].split(" | ").map(|w| w.trim().to_string()).collect();
            (text, wins)
        })
        .collect()
}

fn engine(options: Options) -> Engine {
    Engine::new(Options {
        max_hash_size: waggle::HashSize::megabytes(4).unwrap(),
        opening_book: false,
        ..options
    })
    .unwrap()
}

#[test]
fn every_level_and_the_reference_player_take_a_win_in_one() {
    let cases = wins_in_one();
    assert!(cases.len() >= 5);
    let players = Level::all()
        .map(|level| Options {
            level,
            ..Options::default()
        })
        .chain(std::iter::once(Options {
            reference_player: true,
            ..Options::default()
        }));
    for options in players {
        let mut engine = engine(options.clone());
        for (game, wins) in &cases {
            engine.new_game(&game.parse().unwrap()).unwrap();
            // Several tries, so that a level's random moves would show.
            for _ in 0..5 {
                let thought = engine.best_move(&Limits::nodes(2_000), |_| {}).unwrap();
                assert!(
                    wins.contains(&thought.best.to_string()),
                    "level {} (reference {}) played {} in {game}",
                    options.level,
                    options.reference_player,
                    thought.best
                );
            }
        }
    }
}

#[test]
fn a_level_searches_no_more_than_its_cap() {
    let game = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 /wQ;bA1 bQ\\";
    for (level, cap) in [(6, 1_000u64), (7, 2_000), (8, 8_000), (9, 20_000)] {
        let mut engine = engine(Options {
            level: Level::new(level).unwrap(),
            ..Options::default()
        });
        engine.new_game(&game.parse().unwrap()).unwrap();
        // A level's random moves (depth 0, no nodes) aside, every search stays within the cap.
        let mut searched = 0;
        for _ in 0..30 {
            let thought = engine.best_move(&Limits::depth(30), |_| {}).unwrap();
            if thought.report.depth == 0 {
                assert_eq!(thought.report.nodes, 0);
                continue;
            }
            searched += 1;
            // The search looks at the node count often; a little over the cap is the last node's work.
            assert!(
                thought.report.nodes <= cap + cap / 20,
                "level {level}: {} nodes",
                thought.report.nodes
            );
            assert!(
                thought.report.nodes > cap / 2,
                "level {level}: {} nodes",
                thought.report.nodes
            );
            // A smaller limit of the caller's still holds.
            let thought = engine.best_move(&Limits::nodes(cap / 3), |_| {}).unwrap();
            assert!(thought.report.nodes <= cap / 3 + cap / 20, "level {level}");
            if searched == 3 {
                break;
            }
        }
        assert_eq!(searched, 3, "level {level} hardly searched");
    }
}

#[test]
fn full_strength_is_the_default_and_searches_as_before() {
    let mut full = engine(Options::default());
    let mut ten = engine(Options {
        level: Level::FULL,
        ..Options::default()
    });
    for engine in [&mut full, &mut ten] {
        engine
            .new_game(&"Base+MLP;InProgress;White[2];wS1;bS1 wS1-".parse().unwrap())
            .unwrap();
    }
    let a = full.best_move(&Limits::depth(4), |_| {}).unwrap();
    let b = ten.best_move(&Limits::depth(4), |_| {}).unwrap();
    assert_eq!((a.best, a.report.nodes), (b.best, b.report.nodes));
    assert!(a.report.depth >= 4);
}

#[test]
fn the_lowest_level_varies_its_moves_and_plays_only_legal_ones() {
    let mut engine = engine(Options {
        level: Level::LOWEST,
        ..Options::default()
    });
    engine
        .new_game(
            &"Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
                .parse()
                .unwrap(),
        )
        .unwrap();
    let legal: HashSet<String> = engine.valid_moves().unwrap().iter().map(ToString::to_string).collect();
    let mut seen = HashSet::new();
    for _ in 0..40 {
        let thought = engine.best_move(&Limits::nodes(1_000), |_| {}).unwrap();
        assert!(legal.contains(&thought.best.to_string()), "{}", thought.best);
        seen.insert(thought.best.to_string());
    }
    assert!(seen.len() >= 5, "only {seen:?}");
}

#[test]
fn a_level_out_of_range_cannot_be_made() {
    let mut engine = engine(Options::default());
    let fourth = Level::new(4).unwrap();
    engine.set_option(OptionValue::Level(fourth)).unwrap();
    assert_eq!(engine.options().level, fourth);
    for bad in [0, 11, 255] {
        let refused = Level::new(bad).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Level must be a whole number from 1 to 10",
            "{bad}"
        );
    }
}
