//! The proof search against positions whose answers are known: positions of self-play games, each checked here by
//! a plain search that tries every move and every reply, with nothing left out but the generator's own test for a
//! win on the spot at the last ply (which movegen's tests hold to every move played out).

use super::*;
use crate::rules::position::Rules;

/// A position and the one move that does what its test says.
struct Known {
    first: &'static str,
    game: &'static str,
}

impl Known {
    fn position(&self) -> Position {
        let record = self.game.parse().unwrap();
        crate::record::game::Game::from_record(&record, Rules::default())
            .unwrap()
            .position()
            .clone()
    }

    fn first(&self) -> Move {
        let pos = self.position();
        self.first.parse::<crate::MoveString>().unwrap().to_move(&pos).unwrap()
    }
}

/// White wins at once, by `wB2 wM\` alone (a position of a self-play game).
const WIN_IN_1: Known = Known {
    first: "wB2 wM\\",
    game: "Base+MLP;InProgress;White[18];wP;bS1 -wP;wL wP/;bG1 \\bS1;wM wL\\;bP bG1/;wQ wP\\;bQ \\bP;wA1 wM\\;\
         bA1 /bS1;wM -bQ;bB1 bA1\\;wA1 /bB1;bA2 -bG1;wB1 \\wM;bA2 -wB1;wB2 /wM;bM /bA2;wB2 wM;bA3 bQ/;wB2 bQ;\
         bM wQ-;wG1 /wM;bB2 bM\\;wG1 -bA3;bB2 wQ\\;wA2 \\wG1;bM wQ;wA1 bA3\\;bA3 wL/;wG2 \\wA1;wA1 bP\\;\
         wA2 wG2\\;bS2 bB2/",
};

/// White wins in three plies, by `wA2 wG2\` alone (a position of a self-play game).
const WIN_IN_3: Known = Known {
    first: "wA2 wG2\\",
    game: "Base+MLP;InProgress;White[17];wP;bS1 -wP;wL wP/;bG1 \\bS1;wM wL\\;bP bG1/;wQ wP\\;bQ \\bP;wA1 wM\\;\
         bA1 /bS1;wM -bQ;bB1 bA1\\;wA1 /bB1;bA2 -bG1;wB1 \\wM;bA2 -wB1;wB2 /wM;bM /bA2;wB2 wM;bA3 bQ/;wB2 bQ;\
         bM wQ-;wG1 /wM;bB2 bM\\;wG1 -bA3;bB2 wQ\\;wA2 \\wG1;bM wQ;wA1 bA3\\;bA3 wL/;wG2 \\wA1;wA1 bP\\",
};

/// White wins in five plies, by `wA2 wA1\` alone (a position of a self-play game).
const WIN_IN_5: Known = Known {
    first: "wA2 wA1\\",
    game: "Base+MLP;InProgress;White[17];wL;bP \\wL;wS1 wL\\;bG1 \\bP;wM /wL;bL bP/;wQ wS1-;bQ \\bL;wA1 wM\\;\
         bG1 wS1\\;wM -bQ;bB1 bG1\\;wP \\wQ;bB1 bG1;wQ wP/;bM -bP;wA1 bQ/;bA1 bB1-;wB1 \\wA1;bA1 wQ/;\
         wB1 -wA1;bB2 bA1-;wB2 wA1-;bB2 bA1\\;wB2 wA1\\;bA1 /wM;wG1 -wB1;bL \\wB1;wB2 bQ;bL wA1-;wA2 \\wQ;\
         bB2 wQ",
};

/// White wins in seven plies, by `wS2 /wA1` alone (a position of a self-play game).
const WIN_IN_7: Known = Known {
    first: "wS2 /wA1",
    game: "Base+MLP;InProgress;White[29];wG1;bP /wG1;wQ wG1/;bB1 /bP;wB1 wQ/;bB2 bB1\\;wA1 wB1\\;bQ bP\\;\
         wM wQ\\;bA1 bQ-;wM bA1-;bB1 bP;wB2 wQ\\;bM -bB1;wA1 /bB2;bA2 -bM;wB2 wG1\\;bB1 wB2;wP -wB1;bA2 \\wM;\
         wA2 /wP;bA3 /bM;wL -wA1;bA1 /wM;wL bM\\;bM wB1\\;wB1 bM;bA3 -wA2;wA3 wM-;bB1 wG1;wA3 -bP;bB1 wQ;\
         wA3 bQ\\;bQ -bP;wL /bQ;bG1 bA1\\;wG2 \\wP;bG2 bG1-;wA1 /bA3;bA3 \\wB1;wA2 wB1\\;bL bA3/;wG1 bQ\\;\
         bP /bB1;wA2 bL/;bB1 wB1;wS1 -wG2;bG3 bL\\;bA3 -bL;bG3 -wA2;wS2 wA1/;bL /wP;wB2 /bP;bS1 /bB2;\
         bL bA3\\;bA2 wM/",
};

/// Black has one move that does not lose within four plies, by `bM wP/` alone (a position of a self-play game).
const HOLD_IN_4: Known = Known {
    first: "bM wP/",
    game: "Base+MLP;InProgress;Black[21];wA1;bM wA1/;wG1 -wA1;bG1 bM-;wB1 wA1\\;bS1 \\bM;wQ wB1\\;bQ bG1/;\
         wM wG1\\;bA1 bQ-;wM \\bQ;bA1 /wQ;wB2 wM/;bB1 bA1\\;wB2 bQ/;bB1 bA1;wM bQ;bP bS1/;wA2 wQ-;bB1 wQ;\
         wP wB2\\;bA2 bP/;wG1 bM\\;bL /bA1;wA3 /wA1;bA2 wA2-;wB2 wM\\;bA2 \\wM;wL wP-;bG1 wA3\\;wL \\wP;\
         bA3 \\bA2;wG2 wP\\;bB1 wQ\\;wB1 bG1;bL wA1\\;wA2 \\bA3;bB1 wQ;wM bP\\;bA2 /wA2;bS1 wM\\",
};

/// Black wins at once in two ways.
const TWO_WINS: &str = "Base+MLP;InProgress;Black[17];wB1;bB1 wB1/;wG1 -wB1;bG1 bB1-;wB2 /wG1;bL bG1-;wQ -wG1;bQ bL\\;\
     wA1 wG1\\;bA1 \\bB1;wM wB1\\;bM \\bG1;wM bQ-;bM -wQ;wA2 wM-;bB2 /bM;wL wM\\;bA1 \\wG1;wA1 /bQ;\
     bA2 bA1/;wA2 bQ\\;bA2 -bA1;wB2 wQ;bB2 bM\\;wB2 bB2;bA3 -bM;wA1 /bA3;bG2 \\bA2;wM -bG2;bS1 bG1\\;\
     wA3 \\wM;bL bB1\\;wA1 bQ/";

/// Whether `attacker` wins within `plies` from `pos`: every move and reply tried.
fn naive(pos: &mut Position, attacker: Color, plies: u32) -> bool {
    if pos.state() == GameState::won_by(attacker) {
        return true;
    }
    if pos.state().is_over() || plies == 0 {
        return false;
    }
    if plies == 1 && pos.to_move() == attacker {
        return pos.winning_move().is_some();
    }
    let moves = pos.legal_moves();
    let each = |pos: &mut Position, mv| {
        pos.play_unchecked(mv);
        let wins = naive(pos, attacker, plies - 1);
        pos.undo();
        wins
    };
    if pos.to_move() == attacker {
        moves.iter().any(|&mv| each(pos, mv))
    } else {
        moves.iter().all(|&mv| each(pos, mv))
    }
}

/// The moves of the side to move that win within `plies` (the move itself the first), by the plain search.
fn naive_wins(pos: &Position, plies: u32) -> Vec<Move> {
    let mut pos = pos.clone();
    let me = pos.to_move();
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            pos.play_unchecked(mv);
            let wins = naive(&mut pos, me, plies - 1);
            pos.undo();
            wins
        })
        .collect()
}

/// Both strengths of the proof search, each asked afresh.
fn provers() -> [Prover; 2] {
    let mut hopeful = Prover::new(16);
    hopeful.assume(Assume::QuietDefence);
    [Prover::new(16), hopeful]
}

#[test]
fn a_win_in_one_is_the_one_move_found() {
    let pos = WIN_IN_1.position();
    assert_eq!(naive_wins(&pos, 1), [WIN_IN_1.first()]);
    for mut prover in provers() {
        assert_eq!(prover.first_moves(&pos, 1, Aim::Win, 5), Ok(vec![WIN_IN_1.first()]));
        assert_eq!(prover.distance(&pos, Color::White, 7), Ok(Some(1)));
    }
}

#[test]
fn a_win_in_three_is_found_and_no_sooner() {
    let pos = WIN_IN_3.position();
    assert_eq!(naive_wins(&pos, 3), [WIN_IN_3.first()]);
    assert!(naive_wins(&pos, 2).is_empty());
    for mut prover in provers() {
        assert_eq!(prover.first_moves(&pos, 3, Aim::Win, 5), Ok(vec![WIN_IN_3.first()]));
        assert_eq!(prover.distance(&pos, Color::White, 7), Ok(Some(3)));
        // A win beyond N is no win within N.
        assert_eq!(prover.wins_within(&pos, Color::White, 2), Ok(false));
        assert_eq!(prover.first_moves(&pos, 1, Aim::Win, 5), Ok(vec![]));
    }
}

#[test]
fn a_win_in_five_is_the_only_one_within_five() {
    let pos = WIN_IN_5.position();
    assert_eq!(naive_wins(&pos, 5), [WIN_IN_5.first()]);
    assert!(!naive(&mut pos.clone(), Color::White, 4));
    for mut prover in provers() {
        assert_eq!(prover.first_moves(&pos, 5, Aim::Win, 5), Ok(vec![WIN_IN_5.first()]));
        assert_eq!(prover.distance(&pos, Color::White, 7), Ok(Some(5)));
    }
}

#[test]
fn a_win_in_seven_is_proved_and_not_within_five() {
    let pos = WIN_IN_7.position();
    let mut after = pos.clone();
    after.play_unchecked(WIN_IN_7.first());
    assert!(naive(&mut after, Color::White, 6), "the plain search proves the win");
    assert!(
        !naive(&mut pos.clone(), Color::White, 5),
        "the plain search finds none within five"
    );
    for mut prover in provers() {
        assert_eq!(prover.first_moves(&pos, 7, Aim::Win, 2), Ok(vec![WIN_IN_7.first()]));
        assert_eq!(prover.wins_within(&pos, Color::White, 6), Ok(false));
        assert_eq!(prover.wins_within(&pos, Color::White, 7), Ok(true));
    }
}

#[test]
fn two_winning_moves_are_both_found() {
    let pos = Known {
        first: "",
        game: TWO_WINS,
    }
    .position();
    let plain = naive_wins(&pos, 1);
    assert_eq!(plain.len(), 2);
    for mut prover in provers() {
        let mut found = prover.first_moves(&pos, 1, Aim::Win, 5).unwrap();
        found.sort_by_key(|mv| format!("{mv:?}"));
        let mut plain = plain.clone();
        plain.sort_by_key(|mv| format!("{mv:?}"));
        assert_eq!(found, plain);
    }
}

#[test]
fn one_move_holds_and_every_other_loses() {
    let pos = HOLD_IN_4.position();
    let holds = HOLD_IN_4.first();
    let mut pos_after = pos.clone();
    for mv in pos.legal_moves() {
        pos_after.play_unchecked(mv);
        let loses = naive(&mut pos_after, Color::White, 3);
        pos_after.undo();
        assert_eq!(!loses, mv == holds, "{mv:?}");
    }
    let mut exact = Prover::new(16);
    assert_eq!(exact.first_moves(&pos, 4, Aim::Hold, 5), Ok(vec![holds]));
    // Under the quiet-defence assumption a loss may be missed, so more moves may seem to hold; the one that does
    // is among them.
    let mut hopeful = provers().into_iter().nth(1).unwrap();
    assert!(hopeful.first_moves(&pos, 4, Aim::Hold, 50).unwrap().contains(&holds));
}

#[test]
fn a_question_is_given_up_past_its_budget_or_when_stopped() {
    let pos = WIN_IN_7.position();
    let mut prover = Prover::new(12);
    prover.set_budget(Some(10));
    assert_eq!(prover.wins_within(&pos, Color::White, 7), Err(Halt::Budget(10)));
    let stop = Arc::new(AtomicBool::new(true));
    let mut stopped = Prover::new(12);
    stopped.set_stop(stop);
    assert_eq!(stopped.first_moves(&pos, 7, Aim::Win, 2), Err(Halt::Stopped));
}

#[test]
fn forgetting_makes_a_question_cost_the_same_again() {
    let pos = WIN_IN_5.position();
    let mut prover = Prover::new(14);
    let mut costs = Vec::new();
    for _ in 0..2 {
        prover.forget();
        let before = prover.nodes();
        prover.first_moves(&pos, 5, Aim::Win, 2).unwrap();
        costs.push(prover.nodes() - before);
    }
    assert_eq!(costs[0], costs[1]);
    assert!(costs[0] > 0);
}
