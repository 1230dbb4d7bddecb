//! Learning a book from games: count, for every position of the first plies (up to the symmetries of
//! [`key`](super::key)), how many games reached it and how they ended; back the results up the tree of positions
//! as minimax over the moves with enough games (a side picks its best reply, not an average one); and keep, for
//! each position reached often enough, the move to its best child.
//!
//! Owns the counting and the choice; the line format is the book's (`super`), and the games are the tuner's
//! self-play data.

use std::collections::{HashMap, HashSet};

use super::key::{key, Key};
use super::BookLine;
use crate::record::game::Game;
use crate::record::games::FinishedGame;
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Position, Rules};

/// What the games say about one position.
#[derive(Default)]
struct Node {
    /// Games that reached it.
    games: u32,
    /// White's points in those games: a win 2, a draw 1.
    white_half_points: u64,
    /// The positions one ply on that these games reached.
    children: HashSet<Key>,
    /// The first game that reached it, as far as this position: how the book names it.
    example: Option<Game>,
}

/// How to learn a book.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Learning {
    /// The book answers in positions up to this many plies from the start (1: White's first move only).
    pub(crate) plies: usize,
    /// A move needs this many games through it to be weighed, and a position this many to get a book move.
    pub(crate) min_games: u32,
}

/// A book line learnt, with the moves it was preferred to. Its text is the book's line, then a comment line for
/// each rival: `#   rival: LINE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Learnt {
    /// The position and its best move.
    pub(crate) line: BookLine,
    /// The other moves with games enough, best first, each with its own games and score.
    pub(crate) others: Vec<BookLine>,
}

impl std::fmt::Display for Learnt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.line)?;
        for other in &self.others {
            write!(f, "\n#   rival: {other}")?;
        }
        Ok(())
    }
}

/// The book lines the games `records` support, in the order of their positions' plies; games that cannot be
/// replayed are skipped. The book answers in positions up to `plies` plies from the start (1: White's first move
/// only); a move needs `min_games` games through it to be weighed, and a position as many to get a book move.
pub fn learn(records: &[FinishedGame], plies: usize, min_games: u32) -> Vec<Learnt> {
    learn_with(records, Learning { plies, min_games })
}

/// [`learn`], its settings in one.
fn learn_with(records: &[FinishedGame], learning: Learning) -> Vec<Learnt> {
    let mut nodes: HashMap<Key, Node> = HashMap::new();
    for record in records {
        count_game(record, learning.plies, &mut nodes);
    }
    let mut values: HashMap<Key, f64> = HashMap::new();
    let mut lines = Vec::new();
    for node in nodes.values() {
        let Some(example) = &node.example else { continue };
        let ply = example.record().len();
        if ply >= learning.plies || node.games < learning.min_games {
            continue;
        }
        let white = example.position().to_move() == Color::White;
        // The mover's score through each child with games enough, best first; the best is the book move.
        let mut scored: Vec<(f64, &Key)> = node
            .children
            .iter()
            .filter(|child| nodes[*child].games >= learning.min_games)
            .map(|child| {
                let value = white_value(child, &nodes, learning, &mut values);
                (if white { value } else { 1.0 - value }, child)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let mut named = scored.iter().filter_map(|&(score, child)| {
            let mv = move_to(example.position(), child)?;
            Some(BookLine {
                position: example.game_string(),
                mv: example.move_string(mv),
                games: nodes[child].games,
                score,
            })
        });
        if let Some(line) = named.next() {
            lines.push(Learnt {
                line,
                others: named.collect(),
            });
        }
    }
    lines.sort_by_cached_key(|l| (l.line.position.moves.len(), l.line.position.to_string()));
    lines
}

/// Add the positions of `record`'s first `plies` plies (and the one after them) to `nodes`.
fn count_game(record: &FinishedGame, plies: usize, nodes: &mut HashMap<Key, Node>) {
    let half_points = match record.result {
        GameState::WhiteWins => 2,
        GameState::BlackWins => 0,
        _ => 1,
    };
    let Ok(full) = Game::from_moves(&record.game, Rules::default()) else {
        return;
    };
    let moves: Vec<crate::rules::moves::Move> = full.position().moves().collect();
    let mut game = Game::new(record.game.game_type, Rules::default());
    let mut previous: Option<Key> = None;
    for ply in 0..=plies.min(moves.len()) {
        if ply > 0 && game.play(moves[ply - 1]).is_err() {
            return;
        }
        let here = key(game.position());
        let node = nodes.entry(here.clone()).or_default();
        node.games += 1;
        node.white_half_points += half_points;
        node.example.get_or_insert_with(|| game.clone());
        if let Some(parent) = previous.take() {
            nodes.entry(parent).or_default().children.insert(here.clone());
        }
        previous = Some(here);
    }
}

/// White's expected score from the position `node_key`: the minimax of its children's values over the children
/// with games enough while inside the book's plies, the mean result of its games beyond them or where too few
/// games went on.
fn white_value(node_key: &Key, nodes: &HashMap<Key, Node>, learning: Learning, memo: &mut HashMap<Key, f64>) -> f64 {
    if let Some(&value) = memo.get(node_key) {
        return value;
    }
    let node = &nodes[node_key];
    let mean = node.white_half_points as f64 / (2.0 * f64::from(node.games.max(1)));
    let inside = node
        .example
        .as_ref()
        .is_some_and(|g| g.record().len() < learning.plies && !g.state().is_over());
    let white = node
        .example
        .as_ref()
        .is_some_and(|g| g.position().to_move() == Color::White);
    let children: Vec<f64> = if inside {
        node.children
            .iter()
            .filter(|child| nodes[*child].games >= learning.min_games)
            .map(|child| white_value(child, nodes, learning, memo))
            .collect()
    } else {
        Vec::new()
    };
    let value = if children.is_empty() {
        mean
    } else if white {
        children.iter().copied().fold(f64::MIN, f64::max)
    } else {
        children.iter().copied().fold(f64::MAX, f64::min)
    };
    memo.insert(node_key.clone(), value);
    value
}

/// The legal move of `position` that leads to the position `child` (any one, when several do).
pub(super) fn move_to(position: &Position, child: &Key) -> Option<crate::rules::moves::Move> {
    let mut scratch = position.clone();
    position.legal_moves().iter().copied().find(|&mv| {
        scratch.play_unchecked(mv);
        let found = key(&scratch) == *child;
        scratch.undo();
        found
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(result: GameState, moves: &str) -> FinishedGame {
        FinishedGame {
            result,
            game: format!("Base;InProgress;White[2];{moves}").parse().unwrap(),
        }
    }

    /// After `wG1` Black has a reply that wins every game, after `wS1` every game is drawn: on average both first
    /// moves score one half, but only `wS1` does against Black's best reply.
    fn games() -> Vec<FinishedGame> {
        let mut records = Vec::new();
        for (before, after) in [("", "-"), ("/", ""), ("\\", "")] {
            let at = |piece: &str| format!("{before}{piece}{after}");
            records.push(record(GameState::WhiteWins, &format!("wG1;bS1 {}", at("wG1"))));
            records.push(record(GameState::BlackWins, &format!("wG1;bA1 {}", at("wG1"))));
            records.push(record(GameState::Draw, &format!("wS1;bS1 {}", at("wS1"))));
            records.push(record(GameState::Draw, &format!("wS1;bA1 {}", at("wS1"))));
        }
        records
    }

    #[test]
    fn the_book_backs_results_up_as_minimax_over_turned_positions() {
        let learnt = learn(&games(), 2, 3);
        let lines: Vec<String> = learnt.iter().map(|l| l.line.to_string()).collect();
        assert_eq!(
            lines,
            [
                "Base;NotStarted;White[1]\twS1\t6\t0.500",
                "Base;InProgress;Black[1];wG1\tbA1 \\wG1\t3\t1.000",
                // Black's two replies tie; the tie goes the same way every time.
                "Base;InProgress;Black[1];wS1\tbS1 \\wS1\t3\t0.500",
            ]
        );
        // The first move's rival, with what Black's best reply leaves White.
        assert_eq!(
            learnt[0].others[0].to_string(),
            "Base;NotStarted;White[1]\twG1\t6\t0.000"
        );
        // Every line reads back as a book that plays it.
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let book = super::super::Book::parse(&text).unwrap();
        assert_eq!(book.len(), 3);
    }

    #[test]
    fn moves_with_too_few_games_are_not_weighed() {
        // With four games needed, no reply has enough (three each), so each first move scores its own games'
        // mean, one half, and no position after the first move gets a book move.
        let learnt = learn(&games(), 2, 4);
        assert_eq!(learnt.len(), 1);
        assert_eq!(learnt[0].line.score, 0.5);
        assert_eq!(learnt[0].others.len(), 1);
        // One ply: only White's first move.
        let first = learn(&games(), 1, 3);
        assert_eq!(first.len(), 1);
    }
}
