//! The built-in set: puzzles mined from Waggle's own self-play games and the records in the repository (the one
//! command that makes it again is in docs/puzzles.md), kept in `builtin.jsonl` and built into the binary. The
//! page is served them through its JSON API a page at a time, and `waggle puzzle` plays them when given no file.
//!
//! Owns the set and the filters a solver picks puzzles by.

use std::sync::OnceLock;

use crate::rules::game_type::GameType;

use super::record::{read_puzzles, Kind, Puzzle};

/// The set, one record a line.
const SET: &str = include_str!("builtin.jsonl");

/// The built-in puzzles, in the order they were mined (read once, on first use; a line that does not read is left
/// out, which a test rules out).
pub fn builtin() -> &'static [Puzzle] {
    static SET_READ: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET_READ.get_or_init(|| read_puzzles(SET).puzzles)
}

/// What a solver asks of the puzzles to be shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this game type.
    pub game_type: Option<GameType>,
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Rated at least this.
    pub min_rating: Option<u32>,
    /// Rated at most this.
    pub max_rating: Option<u32>,
    /// Only puzzles with this theme.
    pub theme: Option<String>,
}

impl Filter {
    /// Whether `puzzle` is one the filter lets through.
    pub fn admits(&self, puzzle: &Puzzle) -> bool {
        self.game_type.is_none_or(|t| puzzle.game_type == t)
            && self.kind.is_none_or(|k| puzzle.kind == k)
            && self.min_rating.is_none_or(|r| puzzle.rating >= r)
            && self.max_rating.is_none_or(|r| puzzle.rating <= r)
            && self
                .theme
                .as_ref()
                .is_none_or(|theme| puzzle.themes.iter().any(|t| t == theme))
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    use super::*;
    use crate::record::game::Game;
    use crate::record::notation::MoveString;
    use crate::rules::position::GameState;
    use crate::search::proof::{Aim, Prover};

    /// The N the set was mined with (src/puzzles/builtin.sh, docs/puzzles.md).
    const MINED_WITHIN: u32 = crate::puzzles::DEFAULT_PLIES;

    /// The puzzles drawn at random and proved again on every `cargo test`.
    const SAMPLE: usize = 100;

    /// `game` after `moves`, each resolved and played by the rules.
    fn after(game: &Game, moves: &[MoveString]) -> Result<Game, String> {
        let mut game = game.clone();
        for mv in moves {
            let resolved = mv.to_move(game.position()).map_err(|e| format!("{mv}: {e}"))?;
            game.play(resolved).map_err(|e| format!("{mv}: {e}"))?;
        }
        Ok(game)
    }

    /// What must hold of a built-in puzzle's lines: its solution replays to a won position for the solver (a
    /// defence's one move, to a position in progress), and every defence replays to a won position too; `Err` says
    /// what does not.
    fn replays(puzzle: &Puzzle) -> Result<(), String> {
        let game = puzzle.start().map_err(|e| e.to_string())?;
        let won = GameState::won_by(puzzle.to_move);
        let end = after(&game, &puzzle.solution)?;
        match puzzle.kind {
            Kind::Win if end.state() != won => return Err(format!("the solution ends in {}", end.state())),
            Kind::Defend if end.state().is_over() => return Err("the defence ends the game".into()),
            _ => {}
        }
        for defence in &puzzle.defences {
            let mut line = puzzle.solution[..defence.ply].to_vec();
            line.extend(&defence.line);
            if after(&game, &line)?.state() != won {
                return Err(format!("the defence at ply {} is not answered to a win", defence.ply));
            }
        }
        Ok(())
    }

    /// What the proof search must say again of a built-in puzzle: its first move, and no other, forces a win (or
    /// holds) within the N it was mined with.
    fn proved(puzzle: &Puzzle, prover: &mut Prover) -> Result<(), String> {
        let game = puzzle.start().map_err(|e| e.to_string())?;
        let aim = match puzzle.kind {
            Kind::Win => Aim::Win,
            Kind::Defend => Aim::Hold,
        };
        prover.forget();
        let first = puzzle.solution[0].to_move(game.position()).map_err(|e| e.to_string())?;
        let found = prover
            .first_moves(game.position(), MINED_WITHIN, aim, 2)
            .map_err(|e| e.to_string())?;
        if found != [first] {
            let names: Vec<String> = found.iter().map(|&mv| game.move_string(mv).to_string()).collect();
            return Err(format!(
                "the first moves that do it within {MINED_WITHIN} plies: {}",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            ));
        }
        Ok(())
    }

    /// Check `puzzles` by `check`; panics naming those that fail.
    fn check_all(puzzles: &[&Puzzle], mut check: impl FnMut(&Puzzle) -> Result<(), String>) {
        let failed: Vec<String> = puzzles
            .iter()
            .filter_map(|p| check(p).err().map(|why| format!("{}: {why}", p.id)))
            .collect();
        assert!(
            failed.is_empty(),
            "{} of {} fail:\n{}",
            failed.len(),
            puzzles.len(),
            failed.join("\n")
        );
    }

    #[test]
    fn the_set_reads_whole_and_spans_every_game_type_and_band() {
        let read = read_puzzles(SET);
        assert!(read.refused.is_empty(), "{}", read.refused.join("; "));
        assert_eq!(read.puzzles.len(), builtin().len());
        assert!(builtin().len() >= 1000, "{} puzzles", builtin().len());
        for game_type in GameType::ALL {
            let count = builtin().iter().filter(|p| p.game_type == game_type).count();
            assert!(count >= 20, "{count} puzzles of {game_type}");
        }
        for (band, &(from, name)) in super::super::BANDS.iter().enumerate() {
            let to = super::super::BANDS.get(band + 1).map_or(u32::MAX, |next| next.0);
            let count = builtin().iter().filter(|p| (from..to).contains(&p.rating)).count();
            assert!(count >= 20, "{count} puzzles rated {name}");
        }
        let ids: std::collections::HashSet<_> = builtin().iter().map(|p| &p.id).collect();
        assert_eq!(ids.len(), builtin().len(), "each position once");
    }

    #[test]
    fn every_puzzle_of_the_set_replays_to_a_win() {
        check_all(&builtin().iter().collect::<Vec<_>>(), replays);
    }

    /// A hundred puzzles drawn at random (WAGGLE_PUZZLE_SEED draws others) proved again.
    #[test]
    fn a_hundred_drawn_at_random_are_proved_again() {
        let seed = std::env::var("WAGGLE_PUZZLE_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(63);
        let mut rng = StdRng::seed_from_u64(seed);
        let sample: Vec<&Puzzle> = builtin().choose_multiple(&mut rng, SAMPLE).collect();
        assert_eq!(sample.len(), SAMPLE.min(builtin().len()));
        let mut prover = Prover::new(18);
        check_all(&sample, |p| proved(p, &mut prover));
    }

    #[test]
    #[ignore = "every puzzle of the set proved again: run with --release -- --ignored"]
    fn the_whole_set_is_proved_again() {
        let mut prover = Prover::new(18);
        check_all(&builtin().iter().collect::<Vec<_>>(), |p| proved(p, &mut prover));
    }
}
