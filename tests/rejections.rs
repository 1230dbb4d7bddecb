//! Bad input to the core gets a clear reason and changes nothing: malformed strings, pieces outside the game type,
//! and moves breaking each rule, including the Pillbug's and the end of the game.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use waggle::{Game, GameState, GameStringError, GameType, IllegalMove, Move, MoveList, MoveString, Position, Rules};

/// Resolve and try `text` in the game `game`; the game must be unchanged afterwards.
fn reject(game: &str, text: &str) -> IllegalMove {
    let mut pos = common::position(game).unwrap_or_else(|e| panic!("{game}: {e}"));
    let before = (pos.game_string(), pos.hash());
    let ms: MoveString = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let err = ms.to_move(&pos).and_then(|mv| pos.play(mv)).expect_err(text);
    assert_eq!((pos.game_string(), pos.hash()), before, "{text} changed {game}");
    let message = err.to_string();
    assert!(
        !message.contains("Piece(") && !message.contains("Hex("),
        "debug text in: {message}"
    );
    err
}

fn piece(name: &str) -> waggle::Piece {
    name.parse().unwrap()
}

#[test]
fn malformed_game_strings_are_refused_readably() {
    for bad in [
        "",
        "Bass",
        "Base+X",
        "Base;Running;White[1]",
        "Base;InProgress;Green[1]",
        "Base;InProgress;White[1];wQ9",
        "Base;InProgress;White[1];wS1;bS1 wS1-;wS2 bS1-",
        "Base;InProgress;White[1];wM",
    ] {
        let err = common::position(bad)
            .err()
            .unwrap_or_else(|| panic!("{bad} was accepted"));
        let message = err.to_string();
        assert!(!message.is_empty() && !message.contains("Piece("), "{bad}: {message}");
    }
    let err = common::position("Base;InProgress;White[2];wS1;bS1 wS1-;wQ bS1-")
        .err()
        .unwrap();
    assert!(matches!(err, GameStringError::Illegal { number: 3, .. }), "{err}");
}

/// A GameString's state and turn must be what its moves give; the field at fault is named, with what the moves
/// give. Only the fields written are checked, and a repetition is named when the rule of threefold repetition is
/// what the two disagree on.
#[test]
fn a_game_string_whose_moves_contradict_its_state_or_turn_is_refused() {
    let err = common::position("Base;InProgress;White[2];wS1").err().unwrap();
    assert_eq!(
        err,
        GameStringError::Turn {
            written: "White[2]".into(),
            moves_give: "Black[1]".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "the GameString's turn field says White[2], but its moves give Black[1]"
    );
    let err = common::position("Base+MLP;WhiteWins;White[2];wS1;bS1 wS1-")
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "the GameString's state field says WhiteWins, but its moves give InProgress"
    );
    for wrong in [
        "Base;InProgress",
        "Base;InProgress;White[1]",
        "Base;NotStarted;Black[1];wS1",
        "Base;InProgress;Black[2];wS1",
        "Base;Draw;Black[1];wS1",
    ] {
        assert!(common::position(wrong).is_err(), "{wrong}");
    }
    for right in [
        "Base",
        "Base;NotStarted",
        "Base;NotStarted;White[1]",
        "Base;InProgress;Black[1];wS1",
    ] {
        assert!(common::position(right).is_ok(), "{right}");
    }
    // The moves alone, for records whose state is a result (a .pgn's, a games file's).
    assert!(common::replayed("Base+MLP;WhiteWins;White[2];wS1;bS1 wS1-").is_ok());

    // The same position a third time (the Queens step aside and back twice): a draw under the threefold rule only.
    let repeated = "wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-";
    let threefold = Rules { threefold_draw: true };
    let load = |text: String, rules: Rules| Game::from_record(&text.parse().unwrap(), rules).map(|game| game.state());
    assert_eq!(
        load(format!("Base;InProgress;White[7];{repeated}"), Rules::default()),
        Ok(GameState::InProgress)
    );
    assert_eq!(
        load(format!("Base;Draw;White[7];{repeated}"), threefold),
        Ok(GameState::Draw)
    );
    let said = load(format!("Base;Draw;White[7];{repeated}"), Rules::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        said,
        "the GameString's state field says Draw, but its moves give InProgress (a position occurs for the third \
         time, which is a draw only under the threefold repetition rule)"
    );
    let said = load(format!("Base;InProgress;White[7];{repeated}"), threefold)
        .unwrap_err()
        .to_string();
    assert!(
        said.ends_with("a draw under the threefold repetition rule, which is on)"),
        "{said}"
    );
}

#[test]
fn malformed_move_strings_are_refused() {
    for bad in ["", "wQ bQ wS1", "w", "wX1", "wS3", "wA1 -bQ-", "wA1 x", "pass pass"] {
        assert!(bad.parse::<MoveString>().is_err(), "{bad}");
    }
}

#[test]
fn each_rule_has_its_reason() {
    let opening = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    assert!(matches!(reject("Base", "wM"), IllegalMove::NotInGame(..)));
    assert_eq!(reject("Base", "wQ"), IllegalMove::QueenOnFirstTurn);
    assert!(matches!(
        reject("Base;InProgress;Black[1];wS1", "wS2 wS1-"),
        IllegalMove::NotYourTurn(_)
    ));
    assert_eq!(
        reject("Base;InProgress;Black[1];wS1", "bS1 -wQ"),
        IllegalMove::ReferenceNotOnBoard(piece("wQ"))
    );
    assert!(matches!(
        reject("Base;InProgress;Black[1];wS1", "bS1"),
        IllegalMove::NeedsReference(_)
    ));
    // The other side's piece, named alone: not this side's to play, before any word about a reference.
    assert_eq!(reject(opening, "bA1"), IllegalMove::NotYourTurn(piece("bA1")));
    assert_eq!(
        reject(opening, "bA1").to_string(),
        "It's not that player's turn: bA1 belongs to Black."
    );
    assert_eq!(reject(opening, "wA1 bQ-"), IllegalMove::BadPlacement(piece("wA1")));
    assert!(matches!(
        reject(opening, "wS1 bQ\\"),
        IllegalMove::CannotReach(_) | IllegalMove::BreaksHive(_)
    ));
    assert!(matches!(reject(opening, "wQ wS1"), IllegalMove::Occupied));
    assert!(matches!(
        reject(opening, "bQ bS1/"),
        IllegalMove::NotYourTurn(_) | IllegalMove::CannotCarry(_)
    ));
    assert_eq!(reject(opening, "pass"), IllegalMove::PassWithMoves);
}

#[test]
fn a_carried_piece_rests_and_a_finished_game_takes_no_moves() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut carried = 0;
    let mut finished = 0;
    for _ in 0..300 {
        let mut pos = Position::new(GameType::MLP);
        for _ in 0..120 {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                assert!(pos.state().is_over());
                let before = pos.game_string();
                assert_eq!(pos.play(Move::Pass), Err(IllegalMove::PassGameOver));
                assert_eq!(pos.game_string(), before);
                finished += 1;
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            if let Move::Move { piece, to } = mv {
                if piece.color() != pos.to_move() {
                    // A Pillbug (or Mosquito) carried an opponent's piece: it may not move on its owner's turn.
                    pos.play(mv).unwrap();
                    assert_eq!(pos.stunned(), Some(piece));
                    let mut replies = MoveList::new();
                    pos.generate_moves(&mut replies);
                    assert!(replies
                        .iter()
                        .all(|m| !matches!(m, Move::Move { piece: p, .. } if *p == piece)));
                    assert_eq!(pos.board().hex_of(piece), Some(to));
                    for dest in to.neighbours() {
                        let err = pos
                            .check(Move::Move { piece, to: dest })
                            .expect_err("a resting piece moved");
                        assert!(!err.to_string().is_empty());
                    }
                    carried += 1;
                    continue;
                }
            }
            pos.play(mv).unwrap();
        }
    }
    assert!(carried > 0, "no carry of an opponent's piece in 300 random games");
    assert!(finished > 0, "no finished game in 300 random games");
}

/// A move built by hand (not from notation) for a piece still in hand is refused, not played: the checked `play`
/// generates the legal moves and the unchecked variant is only for moves taken from that list.
#[test]
fn moving_a_piece_that_is_still_in_hand_is_refused() {
    let mut pos = common::position("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
    let before = (pos.game_string(), pos.hash());
    let to = pos.board().hex_of(piece("wS1")).unwrap().step(waggle::Direction::West);
    let err = pos.play(Move::Move { piece: piece("wQ"), to }).unwrap_err();
    assert_eq!(err, IllegalMove::NotOnBoard(piece("wQ")));
    assert_eq!((pos.game_string(), pos.hash()), before);
    assert!(pos.board().is_on_board(piece("wS1")));
}
