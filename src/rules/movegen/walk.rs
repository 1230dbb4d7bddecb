//! The moves of a piece that walks: a ground piece lifted off its cell (a Spider, Soldier Ant, Ladybug or
//! Mosquito, whose paths may pass the cell it left), listed, or for perft's last ply counted.

use crate::rules::board::Board;
use crate::rules::hex::Hex;
use crate::rules::piece::Bug;

use super::dests::CellSet;
use super::hive::Without;
use super::regions::Regions;
use super::{crawl, jump, ladybug, step};

/// The number of walks of a ground Soldier Ant or Mosquito that left `view.gone`, with the moves already in `out`,
/// counted by the regions of empty cells when they can tell (`None` otherwise, with the walks added to `out`). A
/// Mosquito that copies no Ant walks as [`walks`] says; one that does adds the moves of the other bugs it copies
/// that a Soldier Ant could not make (a slide or a Spider's walk is a Soldier Ant's too).
pub(super) fn counted_walks(
    view: &Without,
    bug: Bug,
    regions: &mut Regions,
    seen: &mut CellSet,
    out: &mut CellSet,
) -> Option<u32> {
    let (board, from) = (view.board, view.gone);
    if bug == Bug::Mosquito {
        let touched = touched_bugs(board, from);
        let has = |b: Bug| touched & (1 << b.index()) != 0;
        if !has(Bug::Ant) {
            walks(view, bug, seen, out);
            return None;
        }
        if has(Bug::Beetle) {
            step::beetle_steps(board, from, 0, out);
        }
        if has(Bug::Grasshopper) {
            jump::grasshopper(board, from, out);
        }
        if has(Bug::Ladybug) {
            ladybug::ladybug(view, out);
        }
    }
    let count = regions.ant_count(board, from, out.as_slice());
    if count.is_none() {
        crawl::ant(view, seen, out);
    }
    count
}

/// Bit `b` set for each kind of bug `b` on top of a stack next to `from`.
#[inline]
fn touched_bugs(board: &Board, from: Hex) -> u8 {
    let mut touched = 0u8;
    for n in from.neighbours() {
        if let Some(p) = board.top(n) {
            touched |= 1 << p.bug().index();
        }
    }
    touched
}

/// The walks of a ground piece of kind `bug` that left `view.gone`, added to `out`: a Spider, Soldier Ant, Ladybug
/// or Mosquito, whose paths may pass the cell they left. Steps, slides and jumps only look at the neighbours of
/// the start, where the mover changes nothing, so they read the board itself.
#[inline]
pub(super) fn walks(view: &Without, bug: Bug, seen: &mut CellSet, out: &mut CellSet) {
    let (board, from) = (view.board, view.gone);
    match bug {
        Bug::Queen | Bug::Pillbug => step::slides(board, from, out),
        Bug::Beetle => step::beetle_steps(board, from, 0, out),
        Bug::Grasshopper => jump::grasshopper(board, from, out),
        Bug::Spider => crawl::spider(view, out),
        Bug::Ant => crawl::ant(view, seen, out),
        Bug::Ladybug => ladybug::ladybug(view, out),
        Bug::Mosquito => {
            let touched = touched_bugs(board, from);
            let has = |b: Bug| touched & (1 << b.index()) != 0;
            if has(Bug::Beetle) {
                step::beetle_steps(board, from, 0, out);
            } else if has(Bug::Queen) || has(Bug::Pillbug) {
                step::slides(board, from, out);
            }
            if has(Bug::Grasshopper) {
                jump::grasshopper(board, from, out);
            }
            if has(Bug::Spider) {
                crawl::spider(view, out);
            }
            if has(Bug::Ant) {
                crawl::ant(view, seen, out);
            }
            if has(Bug::Ladybug) {
                ladybug::ladybug(view, out);
            }
        }
    }
}
