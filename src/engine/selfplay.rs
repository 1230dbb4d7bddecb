//! Games of Waggle against itself played side by side: games dealt out to threads in turn, each thread with an
//! [`Engine`] of its own, and handed back in the order they were dealt however they finish, so that a run is the
//! same whatever the threads. Once the stop flag is raised no new game starts; those in progress are played to
//! their end and handed back. The tuner's self-play (`crate::tune`) and the trainer's (`crate::train`) share it:
//! what a game is, and what it keeps, is theirs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use super::{Engine, Options};
use crate::eval::WeightSets;

/// Play games `0..games` on `threads` threads (at least one), each thread's engine made from `options` and
/// `weights`; `play` plays one game with an engine and says what it came to (`None`: nothing to hand back), and
/// `on_game` hears each game's result in the order of the games.
pub(crate) fn side_by_side<T: Send>(
    games: usize,
    threads: usize,
    (options, weights): (&Options, &WeightSets),
    stop: &AtomicBool,
    play: impl Fn(&mut Engine, usize) -> Option<T> + Sync,
    mut on_game: impl FnMut(T),
) {
    if games == 0 {
        return;
    }
    let next = AtomicUsize::new(0);
    let (sender, finished) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (sender, next, play) = (sender.clone(), &next, &play);
            scope.spawn(move || {
                let Ok(mut engine) = Engine::new(options.clone()) else {
                    return;
                };
                engine.set_weights(weights.clone());
                while !stop.load(Ordering::SeqCst) {
                    let game = next.fetch_add(1, Ordering::SeqCst);
                    if game >= games || sender.send((game, play(&mut engine, game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // A game that finished early waits for those dealt before it.
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (game, result) in finished {
            waiting.insert(game, result);
            while let Some(result) = waiting.remove(&due) {
                due += 1;
                if let Some(result) = result {
                    on_game(result);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::HashSize;

    #[test]
    fn games_come_back_in_their_order_whatever_the_threads() {
        let options = Options {
            max_hash_size: HashSize::MIN,
            ..Options::default()
        };
        let weights = WeightSets::default();
        let go = AtomicBool::new(false);
        for threads in [1, 3] {
            let mut heard = Vec::new();
            // Later games finish first; game 4 hands back nothing.
            let play = |_: &mut Engine, game: usize| {
                thread::sleep(std::time::Duration::from_millis(10 * (6 - game as u64)));
                (game != 4).then_some(game)
            };
            side_by_side(6, threads, (&options, &weights), &go, play, |game| heard.push(game));
            assert_eq!(heard, [0, 1, 2, 3, 5], "{threads} threads");
        }
    }

    #[test]
    fn no_game_starts_once_stopped() {
        let options = Options {
            max_hash_size: HashSize::MIN,
            ..Options::default()
        };
        let stop = AtomicBool::new(true);
        let mut heard = 0;
        side_by_side(
            5,
            2,
            (&options, &WeightSets::default()),
            &stop,
            |_, game| Some(game),
            |_| heard += 1,
        );
        assert_eq!(heard, 0);
    }
}
