//! The commentary of a judged move, as a `.pgn` carries it for Mzinga.Viewer to show: the mark, the win chance
//! before and after, and the engine's best move with its line. Never a brace, which would end the comment.

use super::Ply;

/// The comment on `ply`: `Mistake (win chance 62% -> 41%). Best was wQ -bA1: wQ -bA1 bG2 wA2` (the mover's win
/// chance before and after), or, for an unmarked move, the mover's win chance after it: `Black's win chance 52%`.
pub(crate) fn comment(ply: &Ply) -> String {
    let chances = format!(
        "win chance {:.0}% -> {:.0}%",
        100.0 * ply.win_chance_before(),
        100.0 * ply.win_chance_after()
    );
    let text = match ply.mark {
        None => format!(
            "{}'s win chance {:.0}%",
            ply.mover.name(),
            100.0 * ply.win_chance_after()
        ),
        Some(mark) if ply.is_best() => format!("{mark} ({chances})"),
        Some(mark) => {
            let line: Vec<String> = std::iter::once(ply.best.to_string())
                .chain(ply.line.iter().map(ToString::to_string))
                .collect();
            format!("{mark} ({chances}). Best was {}: {}", ply.best, line.join(" "))
        }
    };
    text.replace(['{', '}'], "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{Mark, Score};
    use crate::Color;

    #[test]
    fn a_mistake_names_the_best_move_and_its_line() {
        let ply = Ply {
            number: 9,
            mover: Color::White,
            played: "wA1 bQ-".parse().unwrap(),
            best: "wQ -bA1".parse().unwrap(),
            line: vec!["bG2 bA1/".parse().unwrap()],
            score_before: Score::Value(160),
            score_after: Score::Value(-40),
            mark: Some(Mark::Mistake),
        };
        let text = comment(&ply);
        assert!(
            text.starts_with("Mistake (win chance 73% -> 45%). Best was wQ -bA1: wQ -bA1 bG2 bA1/"),
            "{text}"
        );
        assert!(!text.contains('{') && !text.contains('}'));
    }
}
