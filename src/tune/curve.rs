//! The win curve: how a *searched* score turns into a chance of winning for the side to move,
//! 1 / (1 + 10^(−(score − T) / S)), with the constants S and T fitted to the results of self-play games. Every
//! position of the games from a given ply on is searched with a fixed number of nodes, and S and T are the values
//! that make the mean squared difference between the curve and the games' results least. T is what a search gives
//! the side to move for being on move, beyond what it is worth in results: a review that leaves it in sees each
//! side's chance rise a little whenever it is that side's turn.
//!
//! Owns the measurement and the fit; the games come from `crate::record::games`, the searches from the [`Engine`]
//! it is handed. `waggle tune --win-curve NODES` runs it.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{Engine, EngineError};
use crate::eval::win_chance;
use crate::record::game::Game;
use crate::record::games::FinishedGame;
use crate::rules::piece::Color;
use crate::rules::position::GameState;
use crate::search::Limits;

/// The range S is looked for in: below 50 a pawn's worth of score would decide the game, above 2000 the curve
/// would hardly leave ½ over the scores an evaluation gives.
const SCALE_RANGE: (f64, f64) = (50.0, 2000.0);

/// The range T is looked for in: a tempo worth more than half a clear edge either way would be a fault of the
/// evaluation, not a trait.
const TEMPO_RANGE: (f64, f64) = (-100.0, 100.0);

/// A searched position: its score and the game's result, both from White's point of view (1 won, ½ drawn, 0 lost),
/// and whose turn it was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scored {
    /// The search's score, in the evaluation's units.
    pub(crate) score: f64,
    /// How the game ended for White.
    pub(crate) result: f64,
    /// Whether White was to move.
    pub(crate) white_to_move: bool,
}

impl Scored {
    /// White's chance on the curve of scale `scale` and tempo `tempo`: the tempo is taken from the side to move.
    fn white_chance(&self, scale: f64, tempo: f64) -> f64 {
        let tempo = if self.white_to_move { tempo } else { -tempo };
        win_chance(self.score - tempo, scale)
    }
}

/// The win curve fitted to searched positions of self-play games: the chance of winning of the side to move of a
/// position that a search scores `score` is 1 / (1 + 10^(−(score − `tempo`) / `scale`)).
#[derive(Clone, Debug, PartialEq)]
pub struct WinCurve {
    /// S, the score beyond the tempo at which the side to move wins 10 games to 1 (in the evaluation's units).
    pub scale: f64,
    /// T, the score of a position the side to move wins as often as it loses.
    pub tempo: f64,
    /// The mean squared difference between the curve's chances and the games' results (0 … 1).
    pub error: f64,
    /// The positions fitted: those searched, less the forced wins and losses.
    pub positions: usize,
}

impl WinCurve {
    /// Fit the curve to the positions of `records` from ply `skip` on (the final position of a finished game
    /// left out), each searched by `engine` with `nodes` nodes. A position whose search finds a forced win or
    /// loss is left out: its score is a distance to the end, not a judgement. `on_searched` hears how many
    /// positions have been searched so far after each search; `stop` is looked at between searches, and once it
    /// is raised the curve is fitted to the positions searched until then.
    ///
    /// Every record is replayed before the first search, so a game that does not replay (an error,
    /// [`EngineError::Load`]) ends the measurement at once. The engine's game and table are the measurement's
    /// afterwards. With one search thread the same games give the same curve every time.
    pub fn measure(
        records: &[FinishedGame],
        engine: &mut Engine,
        nodes: u64,
        skip: usize,
        stop: &AtomicBool,
        on_searched: impl FnMut(usize),
    ) -> Result<WinCurve, EngineError> {
        for record in records {
            Game::from_moves(&record.game, engine.rules())?;
        }
        let scored = search_positions(records, engine, nodes, skip, stop, on_searched)?;
        Ok(WinCurve::fit(&scored))
    }

    /// The curve that fits `scored` best. With nothing to fit, a curve at the middle of the ranges, its error 0.
    pub(crate) fn fit(scored: &[Scored]) -> WinCurve {
        // The best scale for each tempo, and the tempo whose best scale fits best: the error has one minimum
        // along each, as along both.
        let tempo = least(TEMPO_RANGE, |tempo| {
            mean_squared_error(
                scored,
                least(SCALE_RANGE, |scale| mean_squared_error(scored, scale, tempo)),
                tempo,
            )
        });
        let scale = least(SCALE_RANGE, |scale| mean_squared_error(scored, scale, tempo));
        WinCurve {
            scale,
            tempo,
            error: mean_squared_error(scored, scale, tempo),
            positions: scored.len(),
        }
    }
}

/// Mean squared difference between the results of `scored` and the chances the curve of scale `scale` and tempo
/// `tempo` gives them; 0 for no positions.
pub(crate) fn mean_squared_error(scored: &[Scored], scale: f64, tempo: f64) -> f64 {
    if scored.is_empty() {
        return 0.0;
    }
    let total: f64 = scored
        .iter()
        .map(|s| (s.result - s.white_chance(scale, tempo)).powi(2))
        .sum();
    total / scored.len() as f64
}

/// The point of `(low, high)` where `error` is least, by golden-section search (the error has one minimum there,
/// so narrowing the bracket around the lower of two inner points keeps it).
fn least((mut low, mut high): (f64, f64), error: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    // 50 steps shrink the bracket by 0.618^50, about 3·10^−11 of it: far below a whole unit of score.
    for _ in 0..50 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// The positions of `records` from ply `skip` on, each searched by `engine` with `nodes` nodes, with their
/// scores and results from White's point of view; forced wins and losses left out. Each game is started from its
/// game type and its moves played one by one, so that the engine's table carries what it learnt from one
/// position to the next, as in a game. Stops between two searches once `stop` is raised.
pub(crate) fn search_positions(
    records: &[FinishedGame],
    engine: &mut Engine,
    nodes: u64,
    skip: usize,
    stop: &AtomicBool,
    mut on_searched: impl FnMut(usize),
) -> Result<Vec<Scored>, EngineError> {
    let limits = Limits::nodes(nodes);
    let mut scored = Vec::new();
    let mut searched = 0;
    for record in records {
        let result = white_result(record.result);
        engine.new_game(&record.game.game_type.into())?;
        // The position before each move, then the last one (searched only when the game goes on from it).
        let mut moves = record.game.moves.iter();
        for ply in 0..=record.game.moves.len() {
            let game = engine.game().ok_or(EngineError::NoGame)?;
            if ply >= skip && !game.state().is_over() {
                if stop.load(Ordering::SeqCst) {
                    return Ok(scored);
                }
                let to_move = game.position().to_move();
                let lines = engine.analyze(1, &limits, |_| {})?;
                searched += 1;
                on_searched(searched);
                if let Some(report) = lines.first().map(|line| &line.report) {
                    if !report.is_win() && !report.is_loss() {
                        let score = f64::from(report.score);
                        scored.push(Scored {
                            score: if to_move == Color::White { score } else { -score },
                            result,
                            white_to_move: to_move == Color::White,
                        });
                    }
                }
            }
            if let Some(mv) = moves.next() {
                engine.play(*mv)?;
            }
        }
    }
    Ok(scored)
}

/// How a game that ended in `result` went for White: 1 won, ½ drawn (or cut short), 0 lost.
fn white_result(result: GameState) -> f64 {
    match result {
        GameState::WhiteWins => 1.0,
        GameState::BlackWins => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Results drawn from a known curve: the fit must find its scale and its tempo.
    #[test]
    fn the_fit_recovers_the_scale_and_tempo_the_results_were_drawn_from() {
        for tempo in [0.0, 30.0] {
            let mut rng = StdRng::seed_from_u64(300);
            let scored: Vec<Scored> = (0..40_000)
                .map(|i| {
                    let white_to_move = i % 2 == 0;
                    let score = f64::from(rng.gen_range(-1200..=1200));
                    let chance = win_chance(score - if white_to_move { tempo } else { -tempo }, 300.0);
                    let result = if rng.gen::<f64>() < chance { 1.0 } else { 0.0 };
                    Scored {
                        score,
                        result,
                        white_to_move,
                    }
                })
                .collect();
            let curve = WinCurve::fit(&scored);
            assert!((curve.scale - 300.0).abs() < 15.0, "{curve:?}");
            assert!((curve.tempo - tempo).abs() < 8.0, "{curve:?}");
            assert_eq!(curve.positions, 40_000);
            // The fitted curve is the best one: its neighbours fit worse.
            let error = |scale, tempo| mean_squared_error(&scored, scale, tempo);
            assert!(curve.error < error(curve.scale * 0.9, curve.tempo));
            assert!(curve.error < error(curve.scale * 1.1, curve.tempo));
            assert!(curve.error < error(curve.scale, curve.tempo + 20.0));
            assert!(curve.error < error(curve.scale, curve.tempo - 20.0));
        }
    }

    #[test]
    fn the_mean_squared_error_of_a_small_example() {
        let scored = [
            // Level: ½ against a win, (1 − ½)² = 1/4.
            Scored {
                score: 0.0,
                result: 1.0,
                white_to_move: true,
            },
            // S ahead: 10/11 against a loss, (10/11)² = 100/121.
            Scored {
                score: 300.0,
                result: 0.0,
                white_to_move: false,
            },
            // S behind: 1/11 against a draw, (1/2 − 1/11)² = 81/484.
            Scored {
                score: -300.0,
                result: 0.5,
                white_to_move: true,
            },
        ];
        let want = (1.0 / 4.0 + 100.0 / 121.0 + 81.0 / 484.0) / 3.0;
        assert!((mean_squared_error(&scored, 300.0, 0.0) - want).abs() < 1e-12);
        assert!((want - 0.414_600_55).abs() < 1e-8);
        assert_eq!(mean_squared_error(&[], 300.0, 0.0), 0.0);
        // A tempo of 300 for the side to move: the level position is 1/11 for White to move, the second one (Black
        // to move, White 300 ahead) is White 600 ahead.
        let first = (1.0 - 1.0 / 11.0f64).powi(2);
        let second = win_chance(600.0, 300.0).powi(2);
        let third = (0.5 - win_chance(-600.0, 300.0)).powi(2);
        let want = (first + second + third) / 3.0;
        assert!((mean_squared_error(&scored, 300.0, 300.0) - want).abs() < 1e-12);
    }

    fn engine() -> Engine {
        Engine::new(Options {
            max_hash_size: crate::engine::HashSize::fixed(16),
            opening_book: false,
            ..Options::default()
        })
        .unwrap()
    }

    fn record(result: GameState, game: &str) -> FinishedGame {
        FinishedGame {
            result,
            game: game.parse().unwrap(),
        }
    }

    #[test]
    fn every_position_from_the_skip_on_is_searched_with_the_games_result() {
        let records = [record(
            GameState::BlackWins,
            "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-",
        )];
        let mut counts = Vec::new();
        let stop = AtomicBool::new(false);
        let scored = search_positions(&records, &mut engine(), 500, 2, &stop, |n| counts.push(n)).unwrap();
        // Plies 2 to 5, and the last position, where the game goes on.
        assert_eq!(counts, [1, 2, 3, 4, 5]);
        assert_eq!(scored.len(), 5);
        assert!(scored.iter().all(|s| s.result == 0.0));
    }

    #[test]
    fn scores_are_from_whites_point_of_view() {
        // Five moves: Black to move in the only position searched, which the table has not seen before.
        let text = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ";
        let records = [record(GameState::Draw, text)];
        let stop = AtomicBool::new(false);
        let scored = search_positions(&records, &mut engine(), 2000, 5, &stop, |_| {}).unwrap();
        let mut alone = engine();
        alone.new_game(&text.parse().unwrap()).unwrap();
        let black = alone.analyze(1, &Limits::nodes(2000), |_| {}).unwrap()[0].report.score;
        assert_ne!(black, 0, "a level position cannot tell the sides' points of view apart");
        assert_eq!(
            scored,
            [Scored {
                score: f64::from(-black),
                result: 0.5,
                white_to_move: false,
            }]
        );
    }

    #[test]
    fn a_finished_games_last_position_is_not_searched_and_a_stop_ends_the_search() {
        // White's queen surrounded by the last move (a self-play game): the game is over.
        let finished = record(
            GameState::BlackWins,
            concat!(
                r"Base+MLP;BlackWins;White[13];wS1;bM wS1-;wL -wS1;bQ bM\;wS2 /wL;bA1 /bQ;wQ -wS2;bA1 /wQ;wM wL\;",
                r"bB1 -bA1;wM bQ\;bB1 -wQ;wB1 wM-;bB1 wQ;wB1 wM/;bB2 \bB1;wB1 bQ;bP /bB2;wB2 /wB1;bL -bB2;wP wM/;",
                r"bL bB1\;wB2 wB1;bB1 -wL"
            ),
        );
        let stop = AtomicBool::new(false);
        let moves = finished.game.moves.len();
        let mut searched = 0;
        search_positions(
            std::slice::from_ref(&finished),
            &mut engine(),
            200,
            moves - 2,
            &stop,
            |n| searched = n,
        )
        .unwrap();
        assert_eq!(searched, 2);
        stop.store(true, Ordering::SeqCst);
        let scored = search_positions(&[finished], &mut engine(), 200, 0, &stop, |_| {}).unwrap();
        assert!(scored.is_empty());
    }

    #[test]
    fn a_game_that_does_not_replay_is_refused_before_any_search() {
        let records = [
            record(GameState::Draw, "Base;InProgress;White[2];wS1;bS1 wS1-"),
            record(GameState::Draw, "Base;InProgress;White[2];wS1;bQ wS1-;wQ bQ-"),
        ];
        let mut searched = 0;
        let stop = AtomicBool::new(false);
        let measured = WinCurve::measure(&records, &mut engine(), 100, 0, &stop, |n| searched = n);
        assert!(matches!(measured, Err(EngineError::Load(_))), "{measured:?}");
        assert_eq!(searched, 0);
    }
}
