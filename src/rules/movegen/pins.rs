//! The cut-cell cache: the cells whose removal would split the hive, kept by the hive's shape, and worked out from
//! the cut cells of the shape before the last move when the cells it emptied and occupied make them plain, so
//! that the articulation-point pass runs only for shapes that cannot be told so.

use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::prefetch::prefetch;

use super::hive::{self, Tarjan};
use super::with_scratch;

/// Cut cells already found, by the hive's shape hash (which cells are occupied): whatever stands on them, the same
/// cells split the hive, so siblings that place different bugs on one cell, transpositions, and a node's move
/// generation and its evaluation share them. The pinned pieces are those standing alone on them.
pub(super) struct PinCache(Box<[PinEntry]>);

/// One shape's cut cells, when there are at most [`PIN_CELLS`] (`count` is `u8::MAX` when there were more): one
/// cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct PinEntry {
    key: u64,
    count: u8,
    cells: [Hex; PIN_CELLS],
}

/// Cut cells an entry keeps: as many as a line of every piece has (28 cells, 26 of them cut cells), so that a
/// long, stringy hive (the end of a game's hive is often one) is kept too.
const PIN_CELLS: usize = 27;

/// Entries of the cut-cell cache (64 bytes each, 512 KB): small enough to stay in the processor's second-level
/// cache.
const PIN_SLOTS: usize = 1 << 13;

impl Default for PinCache {
    fn default() -> Self {
        let empty = PinEntry {
            key: 0,
            count: 0,
            cells: [Hex::ORIGIN; PIN_CELLS],
        };
        PinCache(vec![empty; PIN_SLOTS].into_boxed_slice())
    }
}

impl PinCache {
    /// Start bringing the entry for the shape with hash `key` into the processor's cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.0[key as usize & (PIN_SLOTS - 1)]);
    }
}

impl Position {
    /// Start bringing the cut-cell cache's entry for the hive's shape after `mv`, one of this position's moves,
    /// into the processor's cache: the move generation and the evaluation there read it first thing, and half of
    /// the time spent on pinned pieces was spent waiting for it (a search's cache has 8,192 entries of a line each).
    #[inline]
    pub(crate) fn prefetch_cuts_after(&self, mv: Move) {
        if let Some(key) = self.shape_hash_after(mv) {
            with_scratch(|scratch| scratch.pins.prefetch(key));
        }
    }

    /// The hive's shape hash after `mv`, one of this position's moves, without playing it; `None` for a pass, which
    /// leaves the shape as it is.
    #[inline]
    fn shape_hash_after(&self, mv: Move) -> Option<u64> {
        let board = &self.board;
        match mv {
            Move::Place { to, .. } => Some(board.shape_hash_after(None, to)),
            Move::Move { piece, to } => Some(board.shape_hash_after(Some(board.hex_of_unchecked(piece)), to)),
            Move::Pass => None,
        }
    }

    /// [`Position::pinned`] as bits, with the articulation-point pass's scratch space given.
    pub(super) fn pinned_with(&self, tarjan: &mut Tarjan, pins: &mut PinCache) -> u32 {
        // The empty board's shape hash is 0, the key of an unused entry, and it has no cut cell either.
        let key = self.board.shape_hash();
        let entry = &pins.0[key as usize & (PIN_SLOTS - 1)];
        if entry.key == key && usize::from(entry.count) <= PIN_CELLS {
            return hive::pinned_on(&self.board, &entry.cells[..usize::from(entry.count)]);
        }
        let mut cuts = [Hex::ORIGIN; hive::SLOTS];
        let count = match self.cuts_from_shape_before(pins, &mut cuts) {
            Some(count) => count,
            None => match self.board.on_board().first() {
                None => 0,
                Some(piece) => tarjan.cut_cells(&self.board, self.board.hex_of_unchecked(piece), &mut cuts),
            },
        };
        let entry = &mut pins.0[key as usize & (PIN_SLOTS - 1)];
        let cuts = &cuts[..count];
        entry.key = key;
        if count <= PIN_CELLS {
            entry.count = count as u8;
            entry.cells[..count].copy_from_slice(cuts);
        } else {
            // Too many to keep: the pass is run again for this shape.
            entry.count = u8::MAX;
        }
        hive::pinned_on(&self.board, cuts)
    }

    /// The cut cells of this position's shape worked out from those of the shape before the last move, when the
    /// cache still holds them and the move emptied and occupied only cells whose neighbours make it plain (below);
    /// their number, or `None`, and the full pass is needed.
    ///
    /// A cell emptied by a piece that left it was not a cut cell (the piece was not pinned). With two neighbours
    /// that touch each other it lay on no path they do not also make: every cell cuts as it did. With one, it
    /// hung from that neighbour, which stays a cut cell only if its other neighbours are in more than one run
    /// (then the pass must tell) and stops being one if they are in one (or there are none). A cell occupied,
    /// likewise: it is never a cut cell (without it the hive is the one before, whole); with two neighbours that
    /// touch each other it joins nothing that was apart; with one, that neighbour alone holds it and becomes a
    /// cut cell, unless it was the whole hive before.
    pub(super) fn cuts_from_shape_before(&self, pins: &PinCache, cuts: &mut [Hex; hive::SLOTS]) -> Option<usize> {
        let (before, emptied, occupied) = self.shape_change()?;
        let entry = &pins.0[before as usize & (PIN_SLOTS - 1)];
        let mut count = usize::from(entry.count);
        if entry.key != before || count > PIN_CELLS {
            return None;
        }
        cuts[..count].copy_from_slice(&entry.cells[..count]);
        let board = &self.board;
        // The cell occupied, as its neighbours see it: not there in the shape before, nor once the other is empty.
        let new_cell = |hex: Hex| occupied.map_or(0, |cell| hex.towards(cell).bits());
        if let Some(cell) = emptied {
            let around = board.occupied_bits(cell) & !new_cell(cell);
            match around.count_ones() {
                2 if hive::one_run(around) => {}
                1 => {
                    let holder = cell.step_index(around.trailing_zeros() as usize);
                    if let Some(at) = cuts[..count].iter().position(|&c| c == holder) {
                        let rest = board.occupied_bits(holder) & !new_cell(holder);
                        if rest != 0 && !hive::one_run(rest) {
                            return None;
                        }
                        count -= 1;
                        cuts[at] = cuts[count];
                    }
                }
                _ => return None,
            }
        }
        if let Some(cell) = occupied {
            let around = board.occupied_bits(cell);
            match around.count_ones() {
                2 if hive::one_run(around) => {}
                1 => {
                    let holder = cell.step_index(around.trailing_zeros() as usize);
                    if board.occupied_bits(holder).count_ones() >= 2 && !cuts[..count].contains(&holder) {
                        if count == PIN_CELLS {
                            return None;
                        }
                        cuts[count] = holder;
                        count += 1;
                    }
                }
                _ => return None,
            }
        }
        Some(count)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::game_type::GameType;

    /// The shape hash worked out before a move (the key the search prefetches) is the one the board has once the
    /// move is played, for every legal move of random games of every game type (climbs, and pieces leaving a stack
    /// or a cell of their own, included).
    #[test]
    fn the_shape_hash_after_a_move_is_the_one_once_it_is_played() {
        let mut rng = StdRng::seed_from_u64(0x0053_4841);
        let mut checked = 0;
        for game in GameType::ALL {
            for _ in 0..10 {
                let mut pos = Position::new(game);
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if pos.state().is_over() || moves.is_empty() {
                        break;
                    }
                    for &mv in &moves {
                        let expected = pos.shape_hash_after(mv);
                        pos.play_unchecked(mv);
                        if let Some(expected) = expected {
                            assert_eq!(expected, pos.board().shape_hash(), "{mv:?} in {}", pos.game_string());
                            checked += 1;
                        }
                        pos.undo();
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// After a move, the cut cells worked out from the shape before are those of a full pass, over random games of
    /// every game type; and the shortcut is taken often, for placements and for movements.
    #[test]
    fn cut_cells_worked_out_from_the_shape_before_are_those_of_a_full_pass() {
        let (worked_out, left, held) = checked(30, 0x0043_5554);
        assert!(
            worked_out > 8_000 && left > 4_000 && held > 4_000,
            "{worked_out} shapes worked out, {left} where a piece left a cell, {held} grown by a cell hanging from one"
        );
    }

    /// The same over many more games (`cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn cut_cells_worked_out_from_the_shape_before_are_those_of_a_full_pass_long() {
        let (worked_out, _, _) = checked(3_000, 0x0043_5555);
        assert!(worked_out > 800_000, "{worked_out}");
    }

    /// Play `games` random games of each game type, checking the cut cells worked out after every move against a
    /// full pass: how many shapes were worked out, how many of them after a piece left a cell, and how many grew
    /// by a cell hanging from one piece.
    fn checked(games: usize, seed: u64) -> (usize, usize, usize) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut pins, mut tarjan) = (PinCache::default(), Tarjan::default());
        let (mut worked_out, mut left, mut held) = (0, 0, 0);
        for game in GameType::ALL {
            for _ in 0..games {
                let mut pos = Position::new(game);
                for _ in 0..90 {
                    // The shape before the move in the cache, as a node's move generation leaves it.
                    pos.pinned_with(&mut tarjan, &mut pins);
                    let moves = pos.legal_moves();
                    if pos.state().is_over() || moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    let mut cuts = [Hex::ORIGIN; hive::SLOTS];
                    let Some(count) = pos.cuts_from_shape_before(&pins, &mut cuts) else {
                        continue;
                    };
                    let board = pos.board();
                    let mut full = [Hex::ORIGIN; hive::SLOTS];
                    let start = board.hex_of_unchecked(board.on_board().first().unwrap());
                    let full_count = tarjan.cut_cells(board, start, &mut full);
                    let (mut cuts, mut full) = (cuts[..count].to_vec(), full[..full_count].to_vec());
                    cuts.sort_by_key(|h| h.index());
                    full.sort_by_key(|h| h.index());
                    assert_eq!(cuts, full, "{}", pos.game_string());
                    worked_out += 1;
                    let (_, emptied, occupied) = pos.shape_change().unwrap();
                    left += usize::from(emptied.is_some());
                    held += usize::from(occupied.is_some_and(|cell| board.occupied_bits(cell).count_ones() == 1));
                }
            }
        }
        (worked_out, left, held)
    }
}
