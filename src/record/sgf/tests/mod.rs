//! BoardSpace records read: games written as BoardSpace writes them in each of its styles (from random games, so
//! that every bug, stack, carry and pass comes up), every header, every way a game ends, and every refusal named.

mod writer;

use std::fmt::Write;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::record::game::Game;
use crate::rules::moves::Move;
use crate::rules::position::{Opening, Position, Rules};
use writer::{names, random_game, record_of, Style};

fn moves_of(game: &GameRecord) -> Vec<String> {
    game.record.moves.iter().map(ToString::to_string).collect()
}

#[test]
fn random_games_in_every_style_read_back_move_for_move() {
    let mut rng = StdRng::seed_from_u64(0x4256_5352);
    let mut plies = 0;
    let mut passes = 0;
    let mut carries = 0;
    let mut queens_first = 0;
    for round in 0..160 {
        let game_type = GameType::ALL[round % GameType::ALL.len()];
        let moves = random_game(game_type, 60 + round % 100, &mut rng);
        let style = Style {
            robot: round % 2 == 0,
            old: round % 3 == 0,
            wrap: round % 5 != 0,
            passes: round % 4 < 2,
            noise: round % 7 < 4,
        };
        // The first piece anywhere, so that the hive meets the wrapping board's edges.
        let start = (rng.gen_range(0..26), rng.gen_range(1..=26));
        let text = record_of(game_type, &moves, style, start, "", round as u64);
        let game = parse(&text, None).unwrap_or_else(|e| panic!("{style:?}: {e}\n{text}"));
        assert_eq!(moves_of(&game), names(game_type, &moves), "{style:?}\n{text}");
        assert_eq!(game.record.game_type, game_type);
        let replayed = game.replay(Rules::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(replayed.record().len(), moves.len());
        plies += moves.len();
        passes += moves.iter().filter(|mv| **mv == Move::Pass).count();
        let mut position = Position::with_opening(game_type, Rules::default(), Opening::Free);
        for &mv in &moves {
            if matches!(mv, Move::Move { piece, .. } if piece.color() != position.to_move()) {
                carries += 1;
            }
            position.play_unchecked(mv);
        }
        queens_first += usize::from(game.record.opening() == Opening::Free);
    }
    // The games cover what the reader must follow.
    assert!(plies > 10_000, "{plies}");
    assert!(
        passes > 0 && carries > 0 && queens_first > 10,
        "{passes} passes, {carries} carries, {queens_first}"
    );
}

/// A short game of Base+MLP in a modern record: a Pillbug's move (`Pdropb`), a Beetle onto a stack, the notes
/// BoardSpace writes after a cell.
const MODERN: &str = " (;
GM[27]VV[1]
CM[0,1]
TC[None]
SU[Hive-PLM]
DT[Mon Jan 16 20:59:12 AST 2023]
GN[T!HV-ann-bob-2023-01-17-0059]
RE[Game won by bob]
P0[id \"ann\"]
P1[id \"bob\"]
P1[ranking 1500]
; P0[0 Start P0]
; P0[1 Move W wS1 N 13 .]TM[1600]
; P0[2 Done ]TM[2111]
; P1[3 Pick B 8 bP1]TM[1403]
; P1[4 Dropb bP1 O 14 wS1/]TM[2901]
; P1[5 Done ]TM[4069]
; P0[6 Pick W 0 wQ]
; P0[7 Dropb wQ M 13 -wS1]
; P0[8 Done ]
; P1[9 Pick B 0 bQ]
; P1[10 Dropb bQ P 15 bP/]
; P1[11 Done ]
; P0[12 Pick W 3 wB1]
; P0[13 Dropb wB1 L 13 -wQ]
; P0[14 Done ]
; P1[15 Pickb P 15 bQ]
; P1[16 Pdropb bQ P 14 bP-]
; P1[17 Done ]
; P0[18 Pickb L 13 wB1]
; P0[19 Dropb wB1 M 13 wQ]
; P0[20 Done ]
;
P0[time 0:09:26 ]
P1[time 0:07:52 ]
)
";

#[test]
fn a_modern_record_gives_its_moves_players_date_result_and_event() {
    let game = parse(MODERN, None).unwrap();
    assert_eq!(
        moves_of(&game),
        ["wS1", "bP wS1/", "wQ -wS1", "bQ bP/", "wB1 -wQ", "bQ bP-", "wB1 wQ"]
    );
    assert_eq!(game.record.game_type.to_string(), "Base+MLP");
    let tags: Vec<(&str, &str)> = game.tags().collect();
    assert_eq!(
        tags,
        [
            ("GameType", "Base+MLP"),
            ("Date", "2023.01.16"),
            ("Event", "BoardSpace tournament"),
            ("Site", "boardspace.net"),
            ("Round", ""),
            ("White", "ann"),
            ("Black", "bob"),
            ("Result", "BlackWins"),
        ]
    );
    assert_eq!(
        game.result(),
        Some(GameState::BlackWins),
        "RE names the winner, whatever the board says"
    );
    assert_eq!(game.record.state, Some(GameState::BlackWins));
    // Written as a .pgn and read back, it is the same game.
    let again = &crate::record::pgn::parse(&game.to_string()).unwrap()[0];
    assert_eq!(again.record, game.record);
    assert_eq!(
        again.replay(Rules::default()).unwrap().game_string().moves,
        game.record.moves
    );
}

/// The same opening as an early record writes it: lower case, pieces without their colour, no notes, passes
/// left implicit, the Queen on a first turn (before the tournament opening), an unranked game.
#[test]
fn an_early_record_opening_with_a_queen() {
    let text = "(;GM[27]SU[hive]DT[28 October 2008]GN[]P0[id \"ann\"]P1[id \"bob\"]
;P0[0 Start P0];P0[1 pick w 0 Q];P0[2 dropb q N 13];P0[3 done]
;P1[4 pick b 1 A1];P1[5 dropb a1 O 14];P1[6 done]
;P0[7 pick w 3 B1];P0[8 dropb b1 M 13];P0[9 done]
;P1[10 movedone B Q P 15]
;P0[11 pickb M 13 b1];P0[12 dropb b1 N 13];P0[13 done]
;P1[14 pick b 2 G1];P1[15 dropb g1 P 16];P1[16 done])";
    let game = parse(text, Some("archive/U!HV-ann-bob-2008-10-28-1200.sgf")).unwrap();
    assert_eq!(
        moves_of(&game),
        ["wQ", "bA1 wQ/", "wB1 -wQ", "bQ bA1/", "wB1 wQ", "bG1 \\bQ"]
    );
    assert_eq!(game.record.opening(), Opening::Free);
    assert_eq!(
        game.tag("Event"),
        Some("BoardSpace unranked"),
        "from the file's name, the record's being empty"
    );
    assert_eq!(game.tag("Date"), Some("2008.10.28"));
    let undated = text.replace("DT[28 October 2008]", "");
    let game = parse(&undated, Some("U!HV-ann-bob-2008-10-27-2300.sgf")).unwrap();
    assert_eq!(game.tag("Date"), Some("2008.10.27"), "the file's name says it");
    assert_eq!((game.result(), game.record.state), (None, Some(GameState::InProgress)));
    let replayed = game.replay(Rules::default()).unwrap();
    assert_eq!(replayed.position().opening(), Opening::Free);
    assert!(
        Game::from_moves(&game.record, Rules::default()).is_err(),
        "not under the tournament opening"
    );
}

#[test]
fn a_game_ends_by_resignation_on_time_or_by_agreement() {
    // Four moves, then what ends the game; no RE, so the actions say.
    let opening = "(;GM[27]SU[hive]P0[id \"ann\"]P1[id \"bob\"]
;P0[1 Move W wS1 N 13 .];P0[2 Done];P1[3 Move B bS1 O 13 wS1-];P1[4 Done]
;P0[5 Move W wQ M 13 -wS1];P0[6 Done];P1[7 Move B bQ P 13 bS1-];P1[8 Done]";
    let ended = |tail: &str| {
        let game = parse(&format!("{opening}\n{tail})"), None).unwrap_or_else(|e| panic!("{tail}: {e}"));
        assert_eq!(game.record.moves.len(), 4, "{tail}");
        game.result()
    };
    assert_eq!(ended(";P0[9 Resign];P0[10 Done]"), Some(GameState::BlackWins));
    assert_eq!(ended(";P1[9 Resign];P1[10 Done]"), Some(GameState::WhiteWins));
    assert_eq!(
        ended(";P0[9 Resign];P0[10 Resign];P0[11 Done]"),
        None,
        "a resignation taken back"
    );
    assert_eq!(ended(";P1[9 WinOnTime]"), Some(GameState::BlackWins));
    assert_eq!(
        ended(";P0[9 OfferDraw];P0[10 Done];P1[11 AcceptDraw];P1[12 Done]"),
        Some(GameState::Draw)
    );
    assert_eq!(
        ended(";P0[9 OfferDraw];P0[10 Done];P1[11 DeclineDraw];P1[12 Done]"),
        None,
        "a declined offer is no move and no pass"
    );
    // RE wins over the actions, in any language that names the player; an English draw too.
    let with_re = |re: &str| {
        let text = format!("{opening}RE[{re}]\n;P0[9 Resign];P0[10 Done])");
        parse(&text, None).unwrap().result()
    };
    assert_eq!(with_re("bob vann spelet"), Some(GameState::BlackWins));
    assert_eq!(with_re("Game won by ann"), Some(GameState::WhiteWins));
    assert_eq!(with_re("The game is a draw"), Some(GameState::Draw));
    assert_eq!(
        with_re("Gewonnen"),
        Some(GameState::BlackWins),
        "RE names nobody: the resignation decides"
    );
}

/// A record that ends in the middle of a turn (a clock ran out, the file was cut) is read as Mzinga.Viewer reads
/// it: the move dropped is played, the resignation said takes effect, a piece only picked up is let go.
#[test]
fn a_record_that_ends_in_the_middle_of_a_turn() {
    let opening = "(;GM[27]SU[hive]
;P0[1 Move W wS1 N 13 .];P0[2 Done];P1[3 Pick B 1 bS1];P1[4 Dropb bS1 O 13 wS1-]";
    let game = parse(&format!("{opening})"), None).unwrap();
    assert_eq!(moves_of(&game), ["wS1", "bS1 wS1-"]);
    let resigned = parse(&format!("{opening};P1[5 Resign])"), None).unwrap();
    assert_eq!(
        (resigned.record.moves.len(), resigned.result()),
        (2, Some(GameState::WhiteWins))
    );
    let held = parse(&format!("{opening};P1[5 Done];P0[6 Pick W 0 wQ])"), None).unwrap();
    assert_eq!(held.record.moves.len(), 2);
    let wrong = parse(
        &format!("{opening};P1[5 Done];P0[6 Pick W 0 wQ];P0[7 Dropb wQ Q 13])"),
        None,
    )
    .unwrap_err();
    assert!(
        wrong
            .to_string()
            .starts_with("line 2, P0[7 Dropb wQ Q 13]: Q 13 is next to no piece"),
        "{wrong}"
    );
    // What players say of taking a move back is no move; taking one back is refused.
    let asked = format!("{opening};P1[5 Done];P0[6 PleaseUndo];P1[7 DontUndo];P0[8 Move W wQ M 13 -wS1];P0[9 Done])");
    assert_eq!(parse(&asked, None).unwrap().record.moves.len(), 3);
    let undone = parse(&format!("{opening};P1[5 Undo])"), None).unwrap_err();
    assert!(
        undone.to_string().contains("P1[5 Undo]: actions are taken back"),
        "{undone}"
    );
}

/// Players are named by the colour they moved: with the colours swapped (`CM[1,0]`, `P1` playing White) or
/// chosen after the first move (`PlayBlack`, the swap option of `hive-pielm`).
#[test]
fn players_are_named_by_the_colour_they_played() {
    let swapped = "(;GM[27]SU[hive-pielm]CM[1,0]P0[id \"ann\"]P1[id \"bob\"]RE[Game won by ann]
;P1[0 Start P1];P1[1 Move W wS1 N 13 .];P1[2 Done];P0[3 Move B bS1 O 13 wS1-];P0[4 Done])";
    let game = parse(swapped, None).unwrap();
    assert_eq!((game.tag("White"), game.tag("Black")), (Some("bob"), Some("ann")));
    assert_eq!(
        game.result(),
        Some(GameState::BlackWins),
        "ann won, and ann played Black"
    );
    // ann opens as White; bob chooses White after it, so ann plays Black from then on.
    let pie = "(;GM[27]SU[hive-pielm]P0[id \"ann\"]P1[id \"bob\"]
;P0[1 Move W wS1 N 13 .];P0[2 Done];P1[3 PlayWhite];P1[4 Done]
;P0[5 Move B bS1 O 13 wS1-];P0[6 Done];P1[7 Move W wQ M 13 -wS1];P1[8 Done])";
    let game = parse(pie, None).unwrap();
    assert_eq!(moves_of(&game), ["wS1", "bS1 wS1-", "wQ -wS1"]);
    assert_eq!((game.tag("White"), game.tag("Black")), (Some("bob"), Some("ann")));
}

/// A game whose hive reaches the edge of the wrapping board: one step east of Z is A, one north-west of row 26 is
/// row 1; and the growing board's columns beyond Z.
#[test]
fn the_board_wraps_round_and_grows() {
    let wrapped = "(;GM[27]SU[hive]
;P0[1 Move W wS1 Z 26 .];P0[2 Done];P1[3 Move B bS1 A 26 wS1-];P1[4 Done]
;P0[5 Move W wQ Z 1 \\\\wS1];P0[6 Done];P1[7 Move B bQ B 26 bS1-];P1[8 Done])";
    let game = parse(wrapped, None).unwrap();
    assert_eq!(moves_of(&game), ["wS1", "bS1 wS1-", "wQ \\wS1", "bQ bS1-"]);
    let grown = wrapped
        .replace("A 26", "1Z 26")
        .replace("B 26", "2Z 26")
        .replace("Z 1 ", "Z 27 ");
    assert_eq!(moves_of(&parse(&grown, None).unwrap()), moves_of(&game));
}

#[test]
fn a_pass_where_moves_remain_is_refused() {
    // A forced pass takes a long game to reach, so the random games above carry those; a pass where moves remain,
    // said or left to a bare `Done`, is refused with its action named.
    let text = "(;GM[27]SU[hive]
;P0[1 Move W wS1 N 13 .];P0[2 Done];P1[3 Done])";
    let error = parse(text, None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2, P1[3 Done]: move 2 ('pass') cannot be played: You can't pass when you have valid moves."
    );
    let said = text.replace("P1[3 Done]", "P1[3 Pass];P1[4 Done]");
    assert!(parse(&said, None)
        .unwrap_err()
        .to_string()
        .contains("P1[4 Done]: move 2 ('pass')"));
}

/// Each refusal names the action as written and says why.
#[test]
fn each_refusal_names_the_action_and_why() {
    let head = "(;GM[27]SU[hive]\n;P0[1 Move W wS1 N 13 .];P0[2 Done]\n";
    let cases = [
        (
            "P1[3 Teleport B bS1]",
            "P1[3 Teleport B bS1]: 'Teleport' is not an action",
        ),
        (
            "P1[3 Dropb bS1 O 13]",
            "P1[3 Dropb bS1 O 13]: a piece is dropped, but none was picked up",
        ),
        ("P1[3 Dropb bS1 O]", "expected 'Dropb PIECE COLUMN ROW'"),
        ("P1[3 Pick X 1 S1]", "'X' is not a rack"),
        ("P1[3 Pick B 1 S9]", "'S9' is not a piece"),
        ("P1[3 Pick B 1 M]", "bM is not in this game"),
        (
            "P1[3 Pickb C 3 bS1]",
            "P1[3 Pickb C 3 bS1]: there is no piece at C 3 to pick up",
        ),
        ("P1[3 Move B bS1 AA 3]", "'AA 3' is not a cell"),
        (
            "P1[3 Move B bS1 C 3];P1[4 Done]",
            "P1[4 Done]: C 3 is next to no piece of the hive",
        ),
        (
            "P1[3 Pick B 1 S1];P1[4 Done]",
            "the turn ends with a piece picked up and not dropped",
        ),
        (
            "P1[3 Pick B 1 S1];P1[4 Dropb bS1 O 13];P1[5 Dropb bS1 O 14]",
            "P1[5 Dropb bS1 O 14]: a piece is dropped again without being picked up from O 13",
        ),
        (
            "P1[3 Pick B 1 S1];P1[4 Dropb bS1 O 13];P1[5 Pickb N 13 wS1]",
            "a piece is picked up at N 13 while the one dropped at O 13 has not been taken back",
        ),
        (
            "P1[3 Move W wS1 O 13];P1[4 Done]",
            "cannot be played: It's not that player's turn: wS1 belongs to White.",
        ),
        ("P1[3 Edit]", "the board was set up by hand (Edit)"),
        (
            "P1[3 Move B bS1 O 13 .];P1[4 Done];P0[5 Move W wS2 P 13];P0[6 Done]",
            "P0[6 Done]: move 3 ('wS2 bS1-') cannot be played: You can't place wS2 there",
        ),
    ];
    for (tail, says) in cases {
        let text = format!("{head};{tail})");
        let error = parse(&text, None).expect_err(tail).to_string();
        assert!(error.contains(says), "{tail}: {error}");
        assert!(error.starts_with("line "), "{error}");
    }
    // Out of bugs: the fourth Ant.
    let mut text = String::from("(;GM[27]SU[hive];P0[1 Move W wQ N 13 .];P0[2 Done];P1[3 Move B bQ O 13 .];P1[4 Done]");
    let white = ["M 13", "L 13", "K 13", "J 13"];
    let black = ["P 13", "Q 13", "R 13", "S 13"];
    for (i, (w, b)) in white.iter().zip(black).enumerate() {
        let n = 5 + i * 4;
        let _ = write!(
            text,
            ";P0[{n} Pick W 1 A1];P0[{} Dropb wA1 {w}];P0[{} Done];P1[{} Pick B 1 A1];P1[{} Dropb bA1 {b}];P1[{} Done]",
            n + 1,
            n + 2,
            n + 3,
            n + 4,
            n + 5
        );
    }
    text.push(')');
    let error = parse(&text, None).unwrap_err().to_string();
    assert!(
        error.contains("P0[19 Done]: White has no Soldier Ant left in hand"),
        "{error}"
    );
}

#[test]
fn what_is_not_a_hive_record_is_refused() {
    let refused = |text: &str| parse(text, None).unwrap_err().to_string();
    assert_eq!(refused(""), "no game in the file: a BoardSpace record starts with '(;'");
    assert!(refused("(;GM[1]SZ[19])").starts_with("not a Hive game: GM[1]"));
    assert!(refused("(;SU[twixt])").starts_with("not a Hive game: SU[twixt]"));
    assert!(refused("(;C[a comment])").starts_with("not a Hive game: neither GM nor SU"));
    assert!(refused("(;GM[27]SU[hive-ultimate])").starts_with("SU[hive-ultimate]: in Hive Ultimate"));
    assert!(refused("(;GM[27]SU[hive]\n;P0[1 Move W wS1 N 13 .]\n").starts_with("line 1: the game tree"));
    // A record with no move is a game not started.
    let empty = parse("(;GM[27]SU[hive-m]P0[id \"ann\"])", None).unwrap();
    assert_eq!(
        (empty.record.moves.len(), empty.record.state),
        (0, Some(GameState::NotStarted))
    );
    assert_eq!(empty.record.game_type.to_string(), "Base+M");
    // A later game tree (BoardSpace sometimes appends one) is not read.
    let two = format!("{MODERN}\n(;GM[27]SU[hive]\n;P0[1 Teleport])");
    assert_eq!(parse(&two, None).unwrap().record.moves.len(), 7);
}
