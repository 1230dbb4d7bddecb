//! Counting a Soldier Ant's walks without walking them, for perft's last ply: the empty cells of a position fall into
//! regions (the connected parts of the graph of slides between empty cells), found once for every Ant of the side
//! to move, and an Ant's walks are the regions it can enter once it has left its cell.
//!
//! Owns that count and the regions. Listing the walks (in the order the search sees them) is `crawl`'s flood.
//!
//! Why it is exact. A slide between two empty cells depends on the two cells beside both of them (exactly one must
//! be occupied). When the Ant leaves `from`, the only slides that change are those between two neighbours of `from`
//! (the cells beside both of them are `from` and one cell two steps out, the *corner*), and `from` itself becomes a
//! cell to slide through. So the graph of the position without the Ant differs from the graph with it only around
//! `from`: every slide with one end away from `from`'s neighbours is the same in both. Call a run of neighbours of
//! `from` joined by slides that the Ant's leaving breaks a *run*. If the live ones among a run's cells (those that
//! keep at least one slide once the Ant has gone) are all joined again without the Ant, then every two cells that
//! were in one region stay in one region (a path through the run is replaced by one around `from`), and only
//! neighbours of `from` can join regions that were apart. The cells the Ant reaches are then the regions its live
//! neighbours join, minus the neighbours the Ant's leaving cuts off. When a run's live cells are not all joined again
//! (a narrow place where the Ant's leaving may split a region) the count says it cannot tell, and the Ant floods.

use crate::rules::board::Board;
use crate::rules::hex::{Hex, GRID};

use super::hive::slides_of;

/// Most regions found in one position: a bit each in a `u64`.
const MAX_REGIONS: usize = 64;

/// Bits of a region number in a cell's mark; the rest is the position's number.
const REGION_BITS: u32 = 6;

/// The regions of the empty cells of one position, found as the Ants ask for them.
pub(crate) struct Regions {
    /// Per cell: the number of the position it was marked in (shifted) and its region, for the cells of the
    /// regions found so far. A cell marked in an earlier position is not marked.
    mark: [u32; GRID],
    /// The number of the current position, shifted past the region bits.
    epoch: u32,
    /// How many cells each region found has.
    sizes: [u32; MAX_REGIONS],
    found: usize,
    /// The flood's list of cells.
    queue: [Hex; GRID],
}

impl Default for Regions {
    fn default() -> Self {
        Regions {
            mark: [0; GRID],
            epoch: 1 << REGION_BITS,
            sizes: [0; MAX_REGIONS],
            found: 0,
            queue: [Hex::ORIGIN; GRID],
        }
    }
}

/// The directions of a ring of six rotated one step clockwise (bit `i` to bit `i + 1`).
#[inline]
fn clockwise(bits: u8) -> u8 {
    ((bits << 1) | (bits >> 5)) & 0x3f
}

/// The directions of a ring of six rotated one step anticlockwise (bit `i` to bit `i - 1`).
#[inline]
fn anticlockwise(bits: u8) -> u8 {
    ((bits >> 1) | (bits << 5)) & 0x3f
}

/// The neighbours of `from` (bits) joined to `start` by `links` (bit `i`: neighbours `i` and `i + 1` joined).
#[inline]
fn joined(start: u8, links: u8) -> u8 {
    let mut set = start;
    loop {
        let grown = set | clockwise(set & links) | anticlockwise(set & clockwise(links));
        if grown == set {
            return set;
        }
        set = grown;
    }
}

impl Regions {
    /// Forget the regions: the board has changed.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.found = 0;
        self.epoch = self.epoch.wrapping_add(1 << REGION_BITS);
        if self.epoch == 0 {
            self.mark = [0; GRID];
            self.epoch = 1 << REGION_BITS;
        }
    }

    /// The region of the empty cell `hex` if it has been found.
    #[inline]
    fn known(&self, hex: Hex) -> Option<usize> {
        let mark = self.mark[hex.index()];
        (mark & !((1 << REGION_BITS) - 1) == self.epoch).then_some((mark & ((1 << REGION_BITS) - 1)) as usize)
    }

    /// The region of the empty cell `hex`, found by a flood of slides on `board` if it is new; `None` when there
    /// are too many regions to keep.
    #[inline]
    fn region(&mut self, board: &Board, hex: Hex) -> Option<usize> {
        if let Some(region) = self.known(hex) {
            return Some(region);
        }
        if self.found == MAX_REGIONS {
            return None;
        }
        let region = self.found;
        self.found += 1;
        let Regions { mark, queue, .. } = self;
        let stamp = self.epoch | region as u32;
        mark[hex.index()] = stamp;
        queue[0] = hex;
        let (mut at, mut end) = (0, 1);
        while at < end {
            let cell = queue[at & (GRID - 1)];
            at += 1;
            let mut dirs = slides_of(board.occupied_bits(cell));
            while dirs != 0 {
                let to = cell.step_index(dirs.trailing_zeros() as usize);
                dirs &= dirs - 1;
                let slot = &mut mark[to.index()];
                if *slot != stamp {
                    *slot = stamp;
                    queue[end & (GRID - 1)] = to;
                    end += 1;
                }
            }
        }
        self.sizes[region] = end as u32;
        Some(region)
    }

    /// How many cells a Soldier Ant standing alone at `from` on `board` may walk to, together with the cells
    /// `also` (other moves of the same piece, all empty): `None` when the regions cannot tell (see the module
    /// docs), and the Ant must flood.
    pub(crate) fn ant_count(&mut self, board: &Board, from: Hex, also: &[Hex]) -> Option<u32> {
        let around = board.occupied_bits(from);
        let empty = !around & 0x3f;
        // For each empty neighbour: whether it keeps a slide once the Ant has gone, and whether the corner it
        // shares with the next neighbour clockwise is occupied.
        let (mut live, mut corner) = (0u8, 0u8);
        let mut bits = empty;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let near = board.occupied_bits(from.step_index(i));
            let back = 1 << ((i + 3) % 6);
            if slides_of(near & !back) != 0 {
                live |= 1 << i;
            }
            corner |= ((near >> ((i + 1) % 6)) & 1) << i;
        }
        // Bit `i`: neighbours `i` and `i + 1` are both empty, and so may slide into each other unless the cells
        // beside both (`from` and the corner) are both occupied or both empty.
        let pairs = empty & anticlockwise(empty);
        let broken = pairs & !corner;
        let made = pairs & corner;
        let reached = joined(slides_of(around), made);
        // The runs broken by the Ant's leaving must be joined again: the live cells of each in `reached`, or one
        // live cell alone.
        let mut stray = live & !reached;
        let mut others = stray;
        while stray != 0 {
            let cell = stray & stray.wrapping_neg();
            if joined(cell, broken) & live != cell {
                return None;
            }
            stray &= !cell;
        }
        let mut regions = 0u64;
        let mut bits = reached;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            regions |= 1 << self.region(board, from.step_index(i))?;
        }
        // Neighbours joined to each other but not to `from` may join other regions to those reached.
        while others != 0 {
            let group = joined(others & others.wrapping_neg(), made) & live;
            others &= !group;
            let mut theirs = 0u64;
            let mut bits = group;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                theirs |= 1 << self.region(board, from.step_index(i))?;
            }
            if theirs & regions != 0 && theirs & !regions != 0 {
                regions |= theirs;
                // A wider set of regions may reach groups already looked at: look again.
                others = live & !reached;
            }
        }
        let mut count = 0;
        let mut bits = regions;
        while bits != 0 {
            count += self.sizes[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        // Neighbours that lose their last slide with the Ant are in its regions but out of its reach.
        let mut dead = empty & !live;
        while dead != 0 {
            let i = dead.trailing_zeros() as usize;
            dead &= dead - 1;
            if self.known(from.step_index(i)).is_some_and(|r| regions & (1 << r) != 0) {
                count -= 1;
            }
        }
        for &hex in also {
            let neighbour = from.towards(hex).bits();
            let inside =
                (neighbour == 0 || live & neighbour != 0) && self.known(hex).is_some_and(|r| regions & (1 << r) != 0);
            if !inside {
                count += 1;
            }
        }
        Some(count)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::super::crawl;
    use super::super::dests::CellSet;
    use super::super::hive::Without;
    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::position::Position;

    /// Over random games of every game type, for every piece standing alone on its cell (pinned or not, whatever
    /// its bug), the count of a Soldier Ant's walks from there is the size of its flood, with and without other
    /// moves of the piece to add; and the count can tell nearly always.
    #[test]
    fn the_count_is_the_flood() {
        let (checked, untold) = counts_checked(60, 0x0052_4547);
        assert!(checked > 20_000, "{checked}");
        assert!(untold * 50 < checked, "{untold} of {checked} not told");
    }

    /// The same over many more games (`cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn the_count_is_the_flood_long() {
        let (checked, _) = counts_checked(3_000, 0x0052_4548);
        assert!(checked > 1_000_000, "{checked}");
    }

    /// Check the counts in `games` random games of each game type; how many were checked and how many the regions
    /// could not tell.
    fn counts_checked(games: usize, seed: u64) -> (usize, usize) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut regions, mut seen, mut flood) = (Regions::default(), CellSet::default(), CellSet::default());
        let (mut checked, mut untold) = (0, 0);
        for game in GameType::ALL {
            for _ in 0..games {
                let mut pos = Position::new(game);
                for _ in 0..rng.gen_range(10..90) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    let board = pos.board();
                    regions.clear();
                    for piece in board.on_board() {
                        let from = board.hex_of_unchecked(piece);
                        if board.height(from) != 1 {
                            continue;
                        }
                        // Other moves of the piece: some empty cells near it, and an occupied one.
                        let mut also = Vec::new();
                        if rng.gen_bool(0.3) {
                            for _ in 0..3 {
                                let hex = from.step_index(rng.gen_range(0..6)).step_index(rng.gen_range(0..6));
                                if !board.is_occupied(hex) && hex != from && !also.contains(&hex) {
                                    also.push(hex);
                                }
                            }
                            let far = from.step_index(0).step_index(0).step_index(0);
                            if !board.is_occupied(far) && !also.contains(&far) {
                                also.push(far);
                            }
                        }
                        flood.clear();
                        for &hex in &also {
                            flood.insert(hex);
                        }
                        crawl::ant(&Without { board, gone: from }, &mut seen, &mut flood);
                        checked += 1;
                        match regions.ant_count(board, from, &also) {
                            Some(count) => assert_eq!(
                                count as usize,
                                flood.len(),
                                "{piece} with {also:?} in {}",
                                pos.game_string()
                            ),
                            None => untold += 1,
                        }
                    }
                }
            }
        }
        (checked, untold)
    }
}
