//! How a game ended, in words for people: `Black's Queen (under wB1) is surrounded by wA1, wG2, bB1, bS1, wQ and
//! wB2`, `both Queens are surrounded (…; …)`, `the same position came a third time`. The terminal game and the
//! page put it after their own "You win" or "Black wins".

use crate::rules::ending::{Ending, Surrounded};

/// A surrounded Queen, in words.
fn surrounded(queen: &Surrounded) -> String {
    let mut text = format!("{}'s Queen", queen.queen.name());
    if !queen.covered_by.is_empty() {
        let names: Vec<String> = queen.covered_by.iter().map(ToString::to_string).collect();
        text.push_str(&format!(" (under {})", names.join(" and ")));
    }
    let mut names: Vec<String> = queen.by.iter().map(ToString::to_string).collect();
    let last = names.pop().unwrap_or_default();
    text.push_str(&format!(" is surrounded by {} and {last}", names.join(", ")));
    text
}

/// How the game ended, as a clause.
pub fn how_it_ended(ending: &Ending) -> String {
    match ending {
        Ending::Won(queen) => surrounded(queen),
        Ending::BothQueens(white, black) => {
            format!(
                "both Queens are surrounded ({}; {})",
                surrounded(white),
                surrounded(black)
            )
        }
        Ending::Repetition => "the same position came a third time".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::rules::position::Rules;

    #[test]
    fn a_queen_under_a_beetle_is_named_so() {
        // docs/review.md's example: Black wins with White's Queen under Black's Beetle.
        let record = "Base+MLP;BlackWins;White[21];wS1;bB1 /wS1;wG1 \\wS1;bB2 -bB1;wG2 -wG1;bA1 /bB2;wQ wS1-;\
             bQ bB1\\;wP \\wQ;bA1 wQ\\;wM \\wG1;bP bB2\\;wL \\wP;bB2 bB1;wS2 \\wM;bM -bB2;wA1 /wS2;bB2 wS1;\
             wA1 bQ\\;bB2 wQ;wP bB2/;bM bB1;wA2 \\wP;bM wS1;wA2 -bP;bL bM\\;wA3 \\wP;bB1 bL;wA3 bB1\\;\
             bM wL\\;wS1 -wG2;wL wG1\\;bM \\wP;wA2 \\bP;wB1 /wS2;bB1 bB2;wB2 -wB1;bB1 wP\\;wA2 /wL;bM -wP"
            .parse()
            .unwrap();
        let game = Game::from_moves(&record, Rules::default()).unwrap();
        let ending = Ending::of(game.position()).unwrap();
        assert_eq!(ending.winner(), Some(crate::rules::piece::Color::Black));
        let text = how_it_ended(&ending);
        assert!(
            text.starts_with("White's Queen (under bB2) is surrounded by "),
            "{text}"
        );
        assert_eq!(
            text.matches(", ").count() + text.matches(" and ").count(),
            5,
            "six pieces: {text}"
        );
    }
}
