//! The results file and its summary: a game's line read back, pairs and scores, shards and runs merged.

use super::*;

fn finished(number: usize, white: usize, black: usize, state: GameState) -> Finished {
    Finished {
        game: ScheduledGame {
            number,
            pair: (number - 1) / 2,
            pairing: 0,
            opening: (number - 1) / 2,
            white,
            black,
        },
        state,
        forfeit: None,
        reason: "Black's Queen is surrounded".into(),
        plies: 40,
        times: [
            MoveTimes {
                moves: 18,
                total: Duration::from_millis(1800),
                worst: Duration::from_millis(120),
            },
            MoveTimes::default(),
        ],
        overhead: (Duration::from_micros(900), 60),
        clock_left: None,
    }
}

#[test]
fn a_game_line_reads_back() {
    let mut game = finished(7, 1, 0, GameState::BlackWins);
    game.forfeit = Some(Color::White);
    game.clock_left = Some([Duration::from_millis(1500), Duration::from_micros(7)]);
    game.reason = "White (x) forfeits:\tcrashed".into();
    let back = Finished::from_line(&game.to_line()).unwrap();
    assert_eq!(back.reason, "White (x) forfeits: crashed");
    assert_eq!(
        Finished {
            reason: game.reason.clone(),
            ..back
        },
        game
    );
    assert_eq!(Finished::from_line("7\t3\tnonsense"), None);
}

#[test]
fn pairs_and_scores_are_counted_for_the_first_engine() {
    let games = [
        finished(1, 0, 1, GameState::WhiteWins),
        finished(2, 1, 0, GameState::BlackWins),
        finished(3, 0, 1, GameState::Draw),
        finished(4, 1, 0, GameState::WhiteWins),
        finished(5, 0, 1, GameState::BlackWins),
    ];
    let summary = summarize(2, &games);
    let pairing = &summary.pairings[0];
    assert_eq!(
        (pairing.score.wins, pairing.score.losses, pairing.score.draws),
        (2, 2, 1)
    );
    assert_eq!(
        (pairing.as_white.wins, pairing.as_white.losses, pairing.as_white.draws),
        (1, 1, 1)
    );
    // Pair 0: two wins (2 points); pair 1: a draw and a loss (0.5 points); game 5 has no partner yet.
    assert_eq!(pairing.pairs.0, [0, 1, 0, 0, 1]);
    let theirs = &summary.totals[1];
    let ours = pairing.score;
    assert_eq!(
        (theirs.wins, theirs.losses, theirs.draws),
        (ours.losses, ours.wins, ours.draws)
    );
    assert_eq!(summary.times[0].moves, 3 * 18);
    assert_eq!(summary.moves, 5 * 18);
    assert_eq!(summary.overhead, (Duration::from_micros(4500), 300));
}

#[test]
fn shards_merge_into_the_whole() {
    let dir = std::env::temp_dir().join(format!("waggle-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engines = vec!["A".to_string(), "B".to_string()];
    let sprt: SprtSettings = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
    let games: Vec<Finished> = (1..=8)
        .map(|n| finished(n, (n + 1) % 2, n % 2, [GameState::WhiteWins, GameState::Draw][n % 2]))
        .collect();
    let mut paths = Vec::new();
    for shard in 0..2 {
        let path = dir.join(format!("shard{shard}.tsv"));
        let mut text = file_header(&engines, Some(&sprt), "Base random 4 seed 3");
        for game in games.iter().filter(|g| g.game.pair % 2 == shard) {
            text.push_str(&game.to_line());
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
        paths.push(path.to_str().unwrap().to_string());
    }
    let merged = merge_files(&paths).unwrap();
    assert_eq!(merged.engines, engines);
    assert_eq!(merged.sprt, Some(sprt));
    assert_eq!(merged.games, games);
    assert_eq!(summarize(2, &merged.games), summarize(2, &games));
    assert!(matches!(
        merge_files(&[paths[0].clone(), paths[0].clone()]),
        Err(ResultsError::Twice { .. })
    ));
    std::fs::write(dir.join("other.tsv"), file_header(&["C".into(), "D".into()], None, "")).unwrap();
    let other = dir.join("other.tsv").to_str().unwrap().to_string();
    assert!(matches!(
        merge_files(&[paths[0].clone(), other]),
        Err(ResultsError::OtherMatch { .. })
    ));
    std::fs::write(dir.join("junk.tsv"), "hello\n").unwrap();
    assert!(matches!(
        read_file(dir.join("junk.tsv").to_str().unwrap()),
        Err(ResultsError::NotResults { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_with_other_openings_merge_after_each_other() {
    let dir = std::env::temp_dir().join(format!("waggle-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engines = vec!["A".to_string(), "B".to_string()];
    // Two runs of four games each, numbered alike; the second run's second pair is split between two shards.
    let run = |won: GameState| -> Vec<Finished> { (1..=4).map(|n| finished(n, (n + 1) % 2, n % 2, won)).collect() };
    let (first, second) = (run(GameState::WhiteWins), run(GameState::Draw));
    let write = |name: &str, run_name: &str, games: &[Finished]| {
        let mut text = file_header(&engines, None, run_name);
        for game in games {
            text.push_str(&game.to_line());
            text.push('\n');
        }
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let paths = [
        write("b1.tsv", "Base random 1 seed 4", &second[..3]),
        write("a.tsv", "Base random 1 seed 3", &first),
        write("b2.tsv", "Base random 1 seed 4", &second[3..]),
    ];
    let merged = merge_files(&paths).unwrap();
    assert_eq!(merged.run, "Base random 1 seed 4 + Base random 1 seed 3");
    let numbers: Vec<(usize, usize, usize)> = merged
        .games
        .iter()
        .map(|g| (g.game.number, g.game.pair, g.game.opening))
        .collect();
    assert_eq!(
        numbers,
        [
            (1, 0, 0),
            (2, 0, 0),
            (3, 1, 1),
            (4, 1, 1),
            (5, 2, 2),
            (6, 2, 2),
            (7, 3, 3),
            (8, 3, 3)
        ]
    );
    // Every pair counts: the four pairs of both runs, not pairs made of one game from each.
    let summary = summarize(2, &merged.games);
    let pairs = summary.pairings[0].pairs;
    assert_eq!(pairs, {
        let mut both = summarize(2, &first).pairings[0].pairs;
        let second_pairs = summarize(2, &second).pairings[0].pairs;
        both.add(second_pairs);
        both
    });
    // Within one run a game twice is still an error.
    assert!(matches!(
        merge_files(&[paths[0].clone(), paths[0].clone()]),
        Err(ResultsError::Twice { number: 1 })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
