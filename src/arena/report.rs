//! The arena's words: the line printed as each game ends, the live progress line, and the summary in the form
//! chess engine authors already read (cutechess-cli's), with the SPRT and a table for round robins.
//!
//! Owns the text only; it is written where the front end says.

use std::fmt::Write as _;
use std::time::Duration;

use super::results::{Finished, Summary};
use super::stats::{elo_estimate, sprt, EloEstimate, Score, SprtSettings, Verdict};

/// `Finished game 3 (A vs B): WhiteWins {Black's Queen is surrounded}`.
pub fn game_line(game: &Finished, names: &[String]) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        game.game.number, names[game.game.white], names[game.game.black], game.state, game.reason
    )
}

/// `Games 12 of 100: A 5 - 4 - 3 B, Elo +29 +/- 180`: for a terminal, rewritten in place as games end.
pub fn progress_line(summary: &Summary, names: &[String], done: usize, total: usize) -> String {
    let mut line = format!("Games {done} of {total}");
    if let Some(pairing) = summary.pairings.first().filter(|_| summary.pairings.len() == 1) {
        let s = pairing.score;
        let _ = write!(
            line,
            ": {} {} - {} - {} {}",
            names[pairing.first], s.wins, s.losses, s.draws, names[pairing.second]
        );
        if let Some(estimate) = elo_estimate(s) {
            let _ = write!(line, ", Elo {}", elo_text(&estimate));
        }
    }
    line
}

/// After each game, the running score of its pairing, as cutechess-cli and fastchess print it while a match runs:
/// `Score of A vs B: 10 - 8 - 2 [0.550] 20 (W - L - D); Elo 34.9 +/- 120.3; SPRT llr 0.21 [-2.94, 2.94]` (the
/// SPRT part when the match has one).
pub fn running_line(
    summary: &Summary,
    names: &[String],
    game: &Finished,
    sprt_settings: Option<&SprtSettings>,
) -> Option<String> {
    let (white, black) = (game.game.white, game.game.black);
    let pairing = summary
        .pairings
        .iter()
        .find(|p| (p.first, p.second) == (white.min(black), white.max(black)))?;
    let s = pairing.score;
    let mut line = score_line(&names[pairing.first], &names[pairing.second], s);
    if let Some(estimate) = elo_estimate(s) {
        let _ = write!(line, "; Elo {}", elo_text(&estimate));
    }
    if let (Some(settings), 1) = (sprt_settings, summary.pairings.len()) {
        let state = sprt(settings, &pairing.pairs);
        let _ = write!(
            line,
            "; SPRT llr {:.2} [{:.2}, {:.2}]",
            state.llr, state.lower, state.upper
        );
    }
    Some(line)
}

/// `Score of A vs B: 10 - 8 - 2 [0.550] 20 (W - L - D)`: the same words while the match runs and in its summary.
fn score_line(first: &str, second: &str, score: Score) -> String {
    format!("Score of {first} vs {second}: {}", score_words(score))
}

/// `10 - 8 - 2 [0.550] 20 (W - L - D)`: the wins, losses and draws, the share of the points and the games.
fn score_words(score: Score) -> String {
    format!(
        "{} - {} - {} [{:.3}] {} (W - L - D)",
        score.wins,
        score.losses,
        score.draws,
        score.ratio().unwrap_or(0.5),
        score.games()
    )
}

/// The summary: per pairing the score and Elo lines (and the SPRT when there is one pairing and settings),
/// a table for three engines or more, each engine's time per move, and the referee's own time.
pub fn summary_lines(summary: &Summary, names: &[String], sprt_settings: Option<&SprtSettings>) -> Vec<String> {
    let mut lines = Vec::new();
    for pairing in &summary.pairings {
        let (first, second) = (&names[pairing.first], &names[pairing.second]);
        let s = pairing.score;
        lines.push(score_line(first, second, s));
        lines.push(format!(
            "...      {first} playing White: {}",
            score_words(pairing.as_white)
        ));
        if let Some(estimate) = elo_estimate(s) {
            lines.push(format!(
                "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                elo_text(&estimate),
                estimate.los * 100.0,
                estimate.draw_ratio * 100.0
            ));
        }
        let p = pairing.pairs.0;
        lines.push(format!(
            "Pairs (0, 0.5, 1, 1.5, 2 points): {} - {} - {} - {} - {}",
            p[0], p[1], p[2], p[3], p[4]
        ));
        if let (Some(settings), 1) = (sprt_settings, summary.pairings.len()) {
            let state = sprt(settings, &pairing.pairs);
            let share = if state.llr >= 0.0 {
                state.llr / state.upper
            } else {
                state.llr / state.lower
            };
            let verdict = match state.verdict {
                Some(Verdict::AcceptH1) => " - H1 was accepted",
                Some(Verdict::AcceptH0) => " - H0 was accepted",
                None => "",
            };
            lines.push(format!(
                "SPRT ({settings}, pentanomial): llr {:.3} ({:.1} %), lbound {:.3}, ubound {:.3}{verdict}",
                state.llr,
                share * 100.0,
                state.lower,
                state.upper
            ));
        }
    }
    if names.len() > 2 {
        lines.push(format!(
            "{:>4} {:<24} {:>8} {:>8} {:>6} {:>7} {:>6}",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
        ));
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| {
            let ratio = |i: usize| summary.totals[i].ratio().unwrap_or(0.5);
            ratio(b).total_cmp(&ratio(a))
        });
        for (rank, &i) in order.iter().enumerate() {
            let total = summary.totals[i];
            let (elo, margin, draws) = elo_estimate(total).map_or((0.0, 0.0, 0.0), |e| (e.elo, e.margin, e.draw_ratio));
            lines.push(format!(
                "{:>4} {:<24} {:>8} {:>8} {:>6} {:>6.1}% {:>5.1}%",
                rank + 1,
                names[i],
                number(elo),
                number(margin),
                total.games(),
                total.ratio().unwrap_or(0.5) * 100.0,
                draws * 100.0
            ));
        }
    }
    for (i, times) in summary.times.iter().enumerate() {
        if let Some(mean) = times.mean() {
            lines.push(format!(
                "Time per move of {}: mean {}, worst {} over {} moves; {} forfeit{}",
                names[i],
                millis(mean),
                millis(times.worst),
                times.moves,
                summary.forfeits[i],
                if summary.forfeits[i] == 1 { "" } else { "s" }
            ));
        }
    }
    for (i, left) in summary.clock_left.iter().enumerate() {
        if let Some((least, sum, games)) = left {
            lines.push(format!(
                "Clock left at the end of {}'s games: mean {:.2} s, least {:.2} s over {games} games",
                names[i],
                sum.as_secs_f64() / f64::from((*games).max(1)),
                least.as_secs_f64()
            ));
        }
    }
    if summary.moves > 0 && summary.overhead.1 > 0 {
        lines.push(format!(
            "Referee overhead: {:.0} µs per move ({:.1} µs from an engine's ok to the next command, {} gaps)",
            summary.overhead.0.as_secs_f64() * 1e6 / f64::from(summary.moves),
            summary.overhead.0.as_secs_f64() * 1e6 / f64::from(summary.overhead.1),
            summary.overhead.1
        ));
    }
    lines
}

/// `34.9 +/- 34.2`, with `inf` for a score of 0 or 1.
fn elo_text(estimate: &EloEstimate) -> String {
    format!("{} +/- {}", number(estimate.elo), number(estimate.margin))
}

/// A number to one decimal, or `inf` / `-inf`.
fn number(x: f64) -> String {
    if x.is_finite() {
        // No "-0.0" for an even score.
        format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x })
    } else if x.is_nan() {
        "nan".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// `95.2 ms`.
fn millis(time: Duration) -> String {
    format!("{:.1} ms", time.as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::MoveTimes;
    use crate::arena::results::PairingSummary;
    use crate::arena::schedule::ScheduledGame;
    use crate::arena::stats::{Pentanomial, Score};
    use crate::rules::position::GameState;

    #[test]
    fn the_summary_reads_as_cutechess_prints_it() {
        let summary = Summary {
            pairings: vec![PairingSummary {
                first: 0,
                second: 1,
                score: Score {
                    wins: 60,
                    losses: 40,
                    draws: 100,
                },
                as_white: Score {
                    wins: 35,
                    losses: 15,
                    draws: 50,
                },
                pairs: Pentanomial([5, 15, 40, 25, 15]),
            }],
            totals: vec![
                Score {
                    wins: 60,
                    losses: 40,
                    draws: 100,
                },
                Score {
                    wins: 40,
                    losses: 60,
                    draws: 100,
                },
            ],
            times: vec![
                MoveTimes {
                    moves: 10,
                    total: Duration::from_millis(952),
                    worst: Duration::from_millis(101),
                },
                MoveTimes::default(),
            ],
            forfeits: vec![0, 1],
            overhead: (Duration::from_micros(500), 20),
            moves: 10,
            clock_left: vec![
                Some((Duration::from_millis(2500), Duration::from_millis(9000), 2)),
                None,
            ],
        };
        let names = vec!["New".to_string(), "Old".to_string()];
        let sprt: SprtSettings = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
        let lines = summary_lines(&summary, &names, Some(&sprt));
        assert_eq!(lines[0], "Score of New vs Old: 60 - 40 - 100 [0.550] 200 (W - L - D)");
        assert_eq!(
            lines[2],
            "Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %"
        );
        assert_eq!(lines[3], "Pairs (0, 0.5, 1, 1.5, 2 points): 5 - 15 - 40 - 25 - 15");
        assert!(
            lines[4].starts_with("SPRT (elo0=0,elo1=5,alpha=0.05,beta=0.05, pentanomial): llr 0.689 (23.4 %)"),
            "{}",
            lines[4]
        );
        assert_eq!(
            lines[5],
            "Time per move of New: mean 95.2 ms, worst 101.0 ms over 10 moves; 0 forfeits"
        );
        assert_eq!(
            lines[6],
            "Clock left at the end of New's games: mean 4.50 s, least 2.50 s over 2 games"
        );
        assert!(lines[7].starts_with("Referee overhead: 50 µs per move"), "{}", lines[7]);
        let game = Finished {
            game: ScheduledGame {
                number: 3,
                pair: 1,
                pairing: 0,
                opening: 1,
                white: 1,
                black: 0,
            },
            state: GameState::WhiteWins,
            forfeit: None,
            reason: "Black's Queen is surrounded".into(),
            plies: 30,
            times: Default::default(),
            overhead: (Duration::ZERO, 0),
            clock_left: None,
        };
        assert_eq!(
            game_line(&game, &names),
            "Finished game 3 (Old vs New): WhiteWins {Black's Queen is surrounded}"
        );
        let running = running_line(&summary, &names, &game, Some(&sprt)).unwrap();
        assert!(
            running.starts_with(
                "Score of New vs Old: 60 - 40 - 100 [0.550] 200 (W - L - D); Elo 34.9 +/- 34.2; SPRT llr 0.69 [-2.94, 2.94]"
            ),
            "{running}"
        );
        // The summary's score line is the running one's score, word for word.
        assert_eq!(running.split("; ").next(), Some(lines[0].as_str()));
    }
}
