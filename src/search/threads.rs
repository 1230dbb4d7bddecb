//! How the threads of one search start and end together: the helpers beside the main thread, each told when the
//! main thread has ended (by a panic too, or they would search on and the search never return), and each, should
//! it panic, stopping the search at once; a panic of any of them reaches the caller once all have ended.
//!
//! Owns the threads' lives only; what each thread does is `deepening`'s.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// Run `main` on this thread and each of `helpers` on a thread of its own, and return `main`'s result once all have
/// returned. Each helper is handed a flag that is raised once `main` has ended, however it ended. A helper that
/// panics raises `stop` first, so that `main` ends soon; the panic of any thread is raised again here once all have
/// ended.
pub(crate) fn side_by_side<'a, H, R>(
    stop: &'a AtomicBool,
    helpers: impl IntoIterator<Item = H>,
    main: impl FnOnce() -> R,
) -> R
where
    H: FnOnce(&AtomicBool) + Send + 'a,
{
    let main_done = AtomicBool::new(false);
    thread::scope(|scope| {
        // However the main thread leaves (a panic included), the helpers must hear that it has, or the scope
        // would wait for them forever.
        let _done = Raise(&main_done);
        for helper in helpers {
            let done = &main_done;
            scope.spawn(move || {
                let _stop_on_panic = StopOnPanic(stop);
                helper(done);
            });
        }
        main()
    })
}

/// Raises its flag when dropped, however the scope it lives in is left.
struct Raise<'a>(&'a AtomicBool);

impl Drop for Raise<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Raises the stop flag if its thread panics.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};

    /// Wait until `flag` is raised; false if it was not within ten seconds (the test then fails instead of
    /// hanging).
    fn wait_for(flag: &AtomicBool) -> bool {
        let start = Instant::now();
        while !flag.load(Ordering::SeqCst) {
            if start.elapsed() > Duration::from_secs(10) {
                return false;
            }
            thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// A helper thread's work.
    type Helper<'a> = Box<dyn FnOnce(&AtomicBool) + Send + 'a>;

    #[test]
    fn a_helper_that_panics_stops_the_main_thread_and_its_panic_reaches_the_caller() {
        let stop = AtomicBool::new(false);
        let heard_stop = AtomicBool::new(false);
        let helpers: Vec<Helper> = vec![
            Box::new(|_| panic!("a helper's bug")),
            Box::new(|done| assert!(wait_for(done), "the other helper heard the main thread end")),
        ];
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            side_by_side(&stop, helpers, || heard_stop.store(wait_for(&stop), Ordering::SeqCst))
        }));
        assert!(ran.is_err(), "the helper's panic reaches the caller");
        assert!(heard_stop.load(Ordering::SeqCst), "the main thread was stopped");
    }

    #[test]
    fn a_main_thread_that_panics_ends_the_helpers_before_its_panic_reaches_the_caller() {
        let stop = AtomicBool::new(false);
        let ended = AtomicUsize::new(0);
        let helpers = (0..2).map(|_| {
            |done: &AtomicBool| {
                if wait_for(done) {
                    ended.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            side_by_side(&stop, helpers, || panic!("the main thread's bug"))
        }));
        assert!(ran.is_err(), "the main thread's panic reaches the caller");
        assert_eq!(ended.load(Ordering::SeqCst), 2, "both helpers heard it and ended first");
        assert!(!stop.load(Ordering::SeqCst), "no helper panicked");
    }

    #[test]
    fn the_main_threads_result_comes_back_once_every_helper_is_done() {
        let stop = AtomicBool::new(false);
        let ended = AtomicUsize::new(0);
        let helpers = (0..3).map(|_| {
            |done: &AtomicBool| {
                wait_for(done);
                ended.fetch_add(1, Ordering::SeqCst);
            }
        });
        assert_eq!(side_by_side(&stop, helpers, || 42), 42);
        assert_eq!(ended.load(Ordering::SeqCst), 3);
    }
}
