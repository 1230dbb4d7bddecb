//! Mzinga's move-generation cases (tests/data/mzinga, from Mzinga's test suite): every valid move of a bug is
//! generated and nothing else; every invalid move is rejected for the rule its group names, leaving the game as
//! it was.

mod common;

use std::collections::BTreeSet;

use waggle::{Bug, IllegalMove, Move, MoveList, MoveString, Position};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/mzinga/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn resolve(pos: &Position, text: &str) -> Result<Move, IllegalMove> {
    text.parse::<MoveString>()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_move(pos)
}

#[test]
fn valid_moves_per_bug() {
    let files = [
        ("queenbee", Bug::Queen),
        ("beetle", Bug::Beetle),
        ("grasshopper", Bug::Grasshopper),
        ("spider", Bug::Spider),
        ("soldierant", Bug::Ant),
        ("mosquito", Bug::Mosquito),
        ("ladybug", Bug::Ladybug),
        ("pillbug", Bug::Pillbug),
    ];
    let mut cases = 0;
    for (file, bug) in files {
        for line in data(&format!("valid-moves-{file}.tsv")).lines() {
            let Some((game, expected)) = line.split_once('\t') else {
                continue;
            };
            let pos = common::replayed(game).unwrap_or_else(|e| panic!("{game}: {e}"));
            let want: Vec<Move> = expected.split(';').map(|m| resolve(&pos, m.trim()).unwrap()).collect();
            // A case lists either the bug's placements or its movements.
            let placing = matches!(want[0], Move::Place { .. });
            let want: BTreeSet<String> = want.iter().map(|m| format!("{m:?}")).collect();
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let got: BTreeSet<String> = moves
                .iter()
                .filter(|m| m.piece().is_some_and(|p| p.bug() == bug))
                .filter(|m| matches!(m, Move::Place { .. }) == placing)
                .map(|m| format!("{m:?}"))
                .collect();
            assert_eq!(got, want, "{file}: {game}");
            cases += 1;
        }
    }
    assert_eq!(cases, 10);
}

/// A case of the file that is legal by the rules (and by Mzinga's own perft): bB1 at (2,-1) climbs onto bS1 at
/// (1,0), its south-west neighbour, through no gate and without splitting the hive.
const KNOWN_LEGAL: &[(&str, &str)] = &[(
    "Base;InProgress;Black[5];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\;wQ /wB1;bQ bB1\\;wS2 /wG1",
    "bB1 -bQ",
)];

#[test]
fn known_legal_case_is_a_beetle_climbing() {
    let (game, text) = KNOWN_LEGAL[0];
    let mut pos = common::replayed(game).unwrap();
    let mv = resolve(&pos, text).unwrap();
    assert_eq!(pos.board().height(mv.to().unwrap()), 1, "the destination holds bS1");
    pos.play(mv).unwrap();
    assert_eq!(pos.board().height(mv.to().unwrap()), 2);
}

#[test]
fn invalid_moves_by_rule() {
    let mut reason = String::new();
    let mut cases = 0;
    for line in data("invalid-moves-by-rule.tsv").lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            reason = comment.to_string();
            continue;
        }
        let Some((game, text)) = line.split_once('\t') else {
            continue;
        };
        if KNOWN_LEGAL.contains(&(game, text)) {
            continue;
        }
        let mut pos = common::replayed(game).unwrap_or_else(|e| panic!("{game}: {e}"));
        let before = (pos.game_string(), pos.hash());
        let result = resolve(&pos, text).and_then(|mv| pos.play(mv));
        let err = result.expect_err(text);
        assert_eq!((pos.game_string(), pos.hash()), before, "{text} changed the game");
        let fits = match reason.as_str() {
            r if r.contains("game is over") => matches!(err, IllegalMove::GameOver | IllegalMove::PassGameOver),
            r if r.contains("not that player's turn") => matches!(err, IllegalMove::NotYourTurn(_)),
            r if r.contains("not enabled") => matches!(err, IllegalMove::NotInGame(..)),
            r if r.contains("first turn") => err == IllegalMove::QueenOnFirstTurn,
            r if r.contains("fourth turn") => err == IllegalMove::QueenByFourthTurn,
            r if r.contains("until you've played your Queen Bee") => err == IllegalMove::QueenNotPlaced,
            r if r.contains("in order") => matches!(err, IllegalMove::OutOfOrder { .. }),
            r if r.contains("already exists") => err == IllegalMove::Occupied,
            r if r.contains("on top of it") => matches!(err, IllegalMove::Covered(_)),
            r if r.contains("break the hive") => matches!(err, IllegalMove::BreaksHive(_)),
            r if r.contains("valid moves") => err == IllegalMove::PassWithMoves,
            other => panic!("unknown group {other}"),
        };
        assert!(fits, "{text} in {game}: rejected as '{err}', expected: {reason}");
        cases += 1;
    }
    assert!(cases >= 20, "{cases}");
}
