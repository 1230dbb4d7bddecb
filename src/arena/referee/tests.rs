//! The referee's pieces: agreement about the moves in any notation, a clock's share, a move's comment.

use super::*;

#[test]
fn agreement_is_about_the_moves_in_any_notation() {
    let mut game = Game::new(crate::rules::game_type::GameType::BASE, Rules::default());
    for mv in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wQ \\wS1"] {
        game.play_text(mv).unwrap();
    }
    let head = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    assert_eq!(disagreement(&format!("{head};wQ \\wS1"), &game), None);
    // The same move named from the Queen's own cell, a trailing ';', and a draw the referee does not count.
    assert_eq!(disagreement(&format!("{head};wQ wQ/"), &game), None);
    assert_eq!(disagreement(&format!("{head};wQ \\wS1;"), &game), None);
    assert_eq!(
        disagreement(&(head.replace("InProgress", "Draw") + ";wQ \\wS1"), &game),
        None
    );
    let other = disagreement(&format!("{head};wQ /wS1"), &game).unwrap();
    assert_eq!(other, "move 5 is 'wQ /wS1' where the game has 'wQ \\wS1'");
    assert_eq!(
        disagreement(head, &game).unwrap(),
        "move 5 is nothing where the game has 'wQ \\wS1'"
    );
    assert!(disagreement(&format!("{head};bQ bS1\\"), &game)
        .unwrap()
        .contains("cannot be played"));
    assert!(disagreement(&head.replace("Base;", "Base+M;"), &game)
        .unwrap()
        .contains("game type"));
    assert!(disagreement("nonsense", &game).is_some());
    let won = head.replace("InProgress", "WhiteWins") + ";wQ \\wS1";
    assert!(disagreement(&won, &game).unwrap().contains("state"));
}

#[test]
fn a_clock_gives_a_share_of_what_is_left() {
    let ms = Duration::from_millis;
    assert_eq!(time_from_clock(ms(10_000), ms(100), ms(10_000)), ms(475));
    assert_eq!(time_from_clock(ms(300), ms(1000), ms(300)), ms(150));
    assert_eq!(time_from_clock(ms(0), ms(0), ms(0)), ms(1));
}

#[test]
fn comments_carry_the_time_and_the_reported_score() {
    let reply = Reply::ok(vec![
        "wS1;1;10;wS1".into(),
        "wQ -wS1;3;-25;wQ -wS1;bQ bS1-".into(),
        "wQ -wS1".into(),
    ]);
    assert_eq!(
        move_comment(&reply, "wQ -wS1", Duration::from_millis(95)),
        "0.095 s, depth 3, score -25"
    );
    assert_eq!(
        move_comment(&Reply::ok(vec!["wS1".into()]), "wS1", Duration::from_millis(5)),
        "0.005 s"
    );
}
