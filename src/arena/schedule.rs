//! Who plays whom, with which opening and which colour, in which order; and the slices of that schedule that
//! shards of a match play on different machines.
//!
//! Owns the order only. Every opening is played twice, colours swapped, so games come in pairs; a pair is never
//! split between shards, so that each shard's pairs count for the pentanomial statistics.

use std::fmt;
use std::str::FromStr;

use super::stats::SettingError;

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScheduledGame {
    /// Its number in the whole schedule, from 1.
    pub number: usize,
    /// Its pair's number in the whole schedule, from 0: the two games of a pair share an opening.
    pub pair: usize,
    /// Which pairing of engines (an index into [`pairings`]).
    pub pairing: usize,
    /// Which opening (an index into the opening list; the same for the two games of a pair).
    pub opening: usize,
    /// The engine playing White.
    pub white: usize,
    /// The engine playing Black.
    pub black: usize,
}

/// The pairs of engines that meet: one pair for two engines; every pair for three or more (a round robin); the
/// first engine against each of the others in a gauntlet. The first engine of each pairing is the one its
/// results are reported for.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|other| (0, other)).collect()
    } else {
        (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect()
    }
}

/// The whole schedule: `games` games for each pairing (rounded up to whole pairs), pair by pair, each pairing in
/// turn, so that a match cut short has played every pairing about equally.
pub fn schedule(engines: usize, gauntlet: bool, games: usize) -> Vec<ScheduledGame> {
    let pairings = pairings(engines, gauntlet);
    let rounds = games.div_ceil(2);
    let mut all = Vec::with_capacity(rounds * pairings.len() * 2);
    for round in 0..rounds {
        for (index, &(first, second)) in pairings.iter().enumerate() {
            let pair = round * pairings.len() + index;
            for (white, black) in [(first, second), (second, first)] {
                all.push(ScheduledGame {
                    number: all.len() + 1,
                    pair,
                    pairing: index,
                    opening: round,
                    white,
                    black,
                });
            }
        }
    }
    all
}

/// The `index`-th (from 1) of `count` disjoint slices of a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// The whole schedule as a single slice.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether `game` belongs to this slice: pairs are dealt out in turn.
    pub fn contains(&self, game: &ScheduledGame) -> bool {
        game.pair % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = SettingError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SettingError::Shard(s.to_string());
        let (index, count) = s.split_once('/').ok_or_else(err)?;
        let (index, count): (usize, usize) = (
            index.trim().parse().map_err(|_| err())?,
            count.trim().parse().map_err(|_| err())?,
        );
        if index == 0 || index > count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_for_a_match_a_round_robin_and_a_gauntlet() {
        assert_eq!(pairings(2, false), [(0, 1)]);
        assert_eq!(pairings(3, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, true), [(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn each_opening_is_played_twice_with_colours_swapped() {
        let games = schedule(3, false, 3);
        assert_eq!(
            games.len(),
            2 * 2 * 3,
            "3 games round up to 2 pairs, for each of 3 pairings"
        );
        for (i, game) in games.iter().enumerate() {
            assert_eq!(game.number, i + 1);
        }
        for pair in games.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!((pair[0].white, pair[0].black), (pair[1].black, pair[1].white));
        }
        assert_eq!(games[6].opening, 1);
    }

    #[test]
    fn shards_split_the_schedule_into_whole_pairs() {
        let games = schedule(2, false, 20);
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"].iter().map(|s| s.parse().unwrap()).collect();
        for game in &games {
            assert_eq!(shards.iter().filter(|s| s.contains(game)).count(), 1, "{game:?}");
        }
        for pair in games.chunks(2) {
            assert!(shards.iter().all(|s| s.contains(&pair[0]) == s.contains(&pair[1])));
        }
        assert!(games.iter().all(|g| Shard::ALL.contains(g)));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(shards[1].to_string(), "2/3");
    }
}
