//! The engines that requests think with: a few, built when first needed and lent in turn, so that the searches
//! run at once (and the tables they fill) are bounded however many visitors come. A request that needs an engine
//! waits for one in a queue of bounded length (beyond it: busy, try again); its work runs on a blocking thread of
//! its own with the engine, and the engine goes back to the pool when the work is done, for the next request (its
//! table is cleared by the work that starts a new game on it).
//!
//! Every piece of work has a [`Cancel`]: raised when the visitor has gone (the connection closed, a stream no
//! longer read) or the server stops, it ends the search in progress at once and skips work not yet started.

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::engine::{Engine, HelperThreads};
use crate::failure::panic_message;
use crate::search::{Stopper, TableTooBig};

/// How many searches run at once on this machine when each uses `threads`: one per core's worth of threads, at
/// least one.
pub(crate) fn searches_at_once(threads: HelperThreads) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / (threads.count() + 1)).max(1)
}

/// Why no engine was lent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PoolError {
    /// Too many requests wait for an engine already.
    #[error("Waggle has {0} searches waiting already: try again shortly")]
    Busy(usize),
    /// The server is stopping.
    #[error("Waggle is stopping")]
    Closed,
    /// A new engine's table does not fit in memory.
    #[error(transparent)]
    Memory(#[from] TableTooBig),
}

/// Why lent work gave no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Fault {
    /// Cancelled before it started.
    #[error("the search was cancelled")]
    Cancelled,
    /// It panicked: a bug (the engine it had is thrown away).
    #[error("Waggle failed on this request ({0}): this is a bug in Waggle, please report it with the request")]
    Panicked(String),
}

/// How busy the pool is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PoolStatus {
    /// Engines the pool may lend at once.
    pub(crate) engines: usize,
    /// Engines built so far.
    pub(crate) built: usize,
    /// Pieces of work running.
    pub(crate) running: usize,
    /// Requests waiting for an engine.
    pub(crate) waiting: usize,
}

/// What builds a new engine.
type Factory = Box<dyn Fn() -> Result<Engine, TableTooBig> + Send + Sync>;

/// A bounded set of engines lent in turn.
pub(crate) struct Pool {
    /// Engines not lent at the moment.
    idle: Mutex<Vec<Engine>>,
    factory: Factory,
    /// One permit an engine.
    turns: Arc<Semaphore>,
    engines: usize,
    built: AtomicUsize,
    waiting: AtomicUsize,
    max_waiting: usize,
    /// The work running, by number, so that stopping the server can cancel it.
    running: Mutex<HashMap<u64, Cancel>>,
    next: AtomicU64,
}

impl Pool {
    /// A pool of at most `engines` engines made by `factory` (when first needed), with at most `max_waiting`
    /// requests waiting for one.
    pub(crate) fn new(
        engines: usize,
        max_waiting: usize,
        factory: impl Fn() -> Result<Engine, TableTooBig> + Send + Sync + 'static,
    ) -> Pool {
        let engines = engines.max(1);
        Pool {
            idle: Mutex::new(Vec::with_capacity(engines)),
            factory: Box::new(factory),
            turns: Arc::new(Semaphore::new(engines)),
            engines,
            built: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            max_waiting,
            running: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
        }
    }

    /// An engine, once one is free: waits its turn (ended early by `cancel`). A request that leaves while it waits
    /// (its future dropped: hyper drops the future of a request whose client has gone) gives its place in the queue
    /// back, as does every other way out.
    pub(crate) async fn lend(self: &Arc<Self>, cancel: &Cancel) -> Result<Lease, PoolError> {
        let place = Place::take(&self.waiting, self.max_waiting)?;
        let permit = tokio::select! {
            permit = self.turns.clone().acquire_owned() => permit,
            () = cancel.cancelled() => return Err(PoolError::Closed),
        };
        drop(place);
        let permit = permit.map_err(|_| PoolError::Closed)?;
        let engine = match lock(&self.idle).pop() {
            Some(engine) => engine,
            None => {
                let engine = (self.factory)()?;
                self.built.fetch_add(1, Ordering::SeqCst);
                engine
            }
        };
        Ok(Lease {
            engine: Some(engine),
            pool: self.clone(),
            _permit: permit,
        })
    }

    /// Whether a request for an engine would join the queue now, or be refused as busy: so that a stream can be
    /// refused with a status before its answer starts (`lend` still has the last word).
    pub(crate) fn admits(&self) -> Result<(), PoolError> {
        if self.waiting.load(Ordering::SeqCst) >= self.max_waiting {
            return Err(PoolError::Busy(self.max_waiting));
        }
        Ok(())
    }

    /// How busy the pool is.
    pub(crate) fn status(&self) -> PoolStatus {
        PoolStatus {
            engines: self.engines,
            built: self.built.load(Ordering::SeqCst),
            running: lock(&self.running).len(),
            waiting: self.waiting.load(Ordering::SeqCst),
        }
    }

    /// Lend nothing more, and cancel the work running (its searches end at once).
    pub(crate) fn close(&self) {
        self.turns.close();
        for cancel in lock(&self.running).values() {
            cancel.cancel();
        }
    }
}

/// A place in the queue of requests waiting for an engine: counted in `waiting` for as long as it lives, so that
/// no way out of [`Pool::lend`] (an answer, an error, a cancel, or its future dropped halfway) can keep it.
struct Place<'a>(&'a AtomicUsize);

impl<'a> Place<'a> {
    /// A place, unless `max` requests wait already.
    fn take(waiting: &'a AtomicUsize, max: usize) -> Result<Place<'a>, PoolError> {
        waiting
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| (now < max).then_some(now + 1))
            .map_err(|_| PoolError::Busy(max))?;
        Ok(Place(waiting))
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An engine lent by the pool, given back when dropped.
pub(crate) struct Lease {
    engine: Option<Engine>,
    pool: Arc<Pool>,
    _permit: OwnedSemaphorePermit,
}

impl Lease {
    /// Run `work` with the engine on a blocking thread, unless `cancel` is raised first; `cancel` stops its
    /// searches while it runs. A panic is caught (the engine is then thrown away and a new one built later).
    pub(crate) async fn run<T: Send + 'static>(
        mut self,
        cancel: &Cancel,
        work: impl FnOnce(&mut Engine, &Cancel) -> T + Send + 'static,
    ) -> Result<T, Fault> {
        let Some(mut engine) = self.engine.take() else {
            return Err(Fault::Cancelled);
        };
        let cancel = cancel.clone();
        let pool = self.pool.clone();
        let job = pool.next.fetch_add(1, Ordering::SeqCst);
        let ran = tokio::task::spawn_blocking(move || {
            // A stop that came after the engine's last search had ended must not end this one.
            engine.stopper().clear();
            if !cancel.start(engine.stopper()) {
                return (Some(engine), Err(Fault::Cancelled));
            }
            lock(&pool.running).insert(job, cancel.clone());
            let result = panic::catch_unwind(AssertUnwindSafe(|| work(&mut engine, &cancel)));
            lock(&pool.running).remove(&job);
            cancel.finish();
            match result {
                Ok(value) => (Some(engine), Ok(value)),
                Err(panic) => (None, Err(Fault::Panicked(panic_message(panic.as_ref())))),
            }
        })
        .await;
        match ran {
            Ok((engine, result)) => {
                self.engine = engine;
                result
            }
            Err(error) => Err(Fault::Panicked(error.to_string())),
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            lock(&self.pool.idle).push(engine);
        }
    }
}

/// Raised when a piece of work is no longer wanted; stops its search while it runs. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Cancel(Arc<CancelState>);

#[derive(Default)]
struct CancelState {
    raised: AtomicBool,
    /// The engine's stopper while the work runs.
    running: Mutex<Option<Stopper>>,
    /// Wakes a request waiting for an engine.
    notify: tokio::sync::Notify,
}

impl Cancel {
    /// Raise it: the search running stops at once, work not started is skipped.
    pub(crate) fn cancel(&self) {
        self.0.raised.store(true, Ordering::SeqCst);
        if let Some(stopper) = lock(&self.0.running).as_ref() {
            stopper.stop();
        }
        self.0.notify.notify_waiters();
    }

    /// Whether it was raised.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.0.raised.load(Ordering::SeqCst)
    }

    /// The flag itself, for work that looks at a flag between searches.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0.raised
    }

    /// Once it is raised.
    async fn cancelled(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }

    /// The work starts on the engine of `stopper`: false when it was cancelled already.
    fn start(&self, stopper: Stopper) -> bool {
        let mut running = lock(&self.0.running);
        if self.is_cancelled() {
            return false;
        }
        *running = Some(stopper);
        true
    }

    /// The work has ended: a later cancel must not stop the engine's next search, someone else's.
    fn finish(&self) {
        *lock(&self.0.running) = None;
    }

    /// A guard that raises this when dropped before [`CancelOnDrop::disarm`]: dropped with a request's future or a
    /// stream's body when the visitor has gone.
    pub(crate) fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(Some(self.clone()))
    }
}

/// Raises its [`Cancel`] when dropped, unless disarmed.
pub(crate) struct CancelOnDrop(Option<Cancel>);

impl CancelOnDrop {
    /// The work is done: dropping the guard no longer cancels anything.
    pub(crate) fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = self.0.take() {
            cancel.cancel();
        }
    }
}

/// `mutex` locked, also after a panic elsewhere (the maps and lists it guards stay whole: every change to them
/// is a single call).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;
    use crate::rules::game_type::GameType;
    use crate::rules::position::Position;
    use crate::search::Limits;
    use std::time::Duration;

    fn small() -> Result<Engine, TableTooBig> {
        Engine::new(Options {
            max_hash_size: crate::engine::HashSize::fixed(1),
            ..Options::default()
        })
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn no_more_engines_than_the_bound_are_built_and_waiting_is_bounded() {
        runtime().block_on(async {
            let pool = Arc::new(Pool::new(2, 1, small));
            let cancel = Cancel::default();
            let first = pool.lend(&cancel).await.unwrap();
            let second = pool.lend(&cancel).await.unwrap();
            assert_eq!(pool.status().built, 2);
            // A third waits; a fourth finds the queue full.
            let waiting = {
                let pool = pool.clone();
                let cancel = cancel.clone();
                tokio::spawn(async move { pool.lend(&cancel).await.map(|_| ()) })
            };
            while pool.status().waiting < 1 {
                tokio::task::yield_now().await;
            }
            assert_eq!(pool.lend(&cancel).await.err(), Some(PoolError::Busy(1)));
            drop(first);
            waiting.await.unwrap().unwrap();
            drop(second);
            assert_eq!(pool.status().built, 2, "engines are reused, not built again");
        });
    }

    #[test]
    fn a_request_that_leaves_while_it_waits_gives_its_place_back() {
        runtime().block_on(async {
            let pool = Arc::new(Pool::new(1, 3, small));
            let busy = pool.lend(&Cancel::default()).await.unwrap();
            // Three times over, more requests than the queue holds come and leave while they wait: their futures
            // are dropped halfway, as hyper drops a request's when its client has gone.
            for _ in 0..3 {
                let mut queued = Vec::new();
                for _ in 0..3 {
                    let pool = pool.clone();
                    queued.push(tokio::spawn(
                        async move { pool.lend(&Cancel::default()).await.map(|_| ()) },
                    ));
                }
                while pool.status().waiting < 3 {
                    tokio::task::yield_now().await;
                }
                assert_eq!(pool.lend(&Cancel::default()).await.err(), Some(PoolError::Busy(3)));
                for request in &queued {
                    request.abort();
                }
                for request in queued {
                    assert!(request.await.unwrap_err().is_cancelled());
                }
                assert_eq!(pool.status().waiting, 0, "every place left is given back");
            }
            // A cancelled wait gives its place back too.
            let cancel = Cancel::default();
            let waiting = {
                let pool = pool.clone();
                let cancel = cancel.clone();
                tokio::spawn(async move { pool.lend(&cancel).await.map(|_| ()) })
            };
            while pool.status().waiting < 1 {
                tokio::task::yield_now().await;
            }
            cancel.cancel();
            assert_eq!(waiting.await.unwrap(), Err(PoolError::Closed));
            assert_eq!(pool.status().waiting, 0);
            drop(busy);
            assert!(pool.lend(&Cancel::default()).await.is_ok(), "the engine is lent again");
        });
    }

    #[test]
    fn a_cancel_stops_the_running_search_and_skips_work_not_started() {
        runtime().block_on(async {
            let pool = Arc::new(Pool::new(1, 4, small));
            let cancel = Cancel::default();
            let lease = pool.lend(&cancel).await.unwrap();
            let search = {
                let cancel = cancel.clone();
                tokio::spawn(async move {
                    lease
                        .run(&cancel, |engine, _| {
                            engine.set_up(Position::new(GameType::BASE));
                            engine.analyze(1, &Limits::infinite(), |_| {}).map(|lines| lines.len())
                        })
                        .await
                })
            };
            while pool.status().running == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            cancel.cancel();
            assert_eq!(
                search.await.unwrap(),
                Ok(Ok(1)),
                "the infinite search ended with its best line"
            );
            let lease = pool.lend(&Cancel::default()).await.unwrap();
            assert_eq!(lease.run(&cancel, |_, _| ()).await, Err(Fault::Cancelled));
            // The next visitor's search is not stopped by the stale cancel.
            let lease = pool.lend(&Cancel::default()).await.unwrap();
            let fresh = Cancel::default();
            let depth = lease
                .run(&fresh, |engine, _| {
                    engine.set_up(Position::new(GameType::BASE));
                    engine.analyze(1, &Limits::depth(3), |_| {}).unwrap()[0].report.depth
                })
                .await;
            assert_eq!(depth, Ok(3));
        });
    }

    #[test]
    fn a_panic_is_a_fault_and_the_engine_is_replaced() {
        runtime().block_on(async {
            let pool = Arc::new(Pool::new(1, 4, small));
            let cancel = Cancel::default();
            let lease = pool.lend(&cancel).await.unwrap();
            let failed = lease.run(&cancel, |_, _| panic!("a fault made on purpose")).await;
            assert_eq!(failed, Err(Fault::Panicked("a fault made on purpose".into())));
            let lease = pool.lend(&cancel).await.unwrap();
            assert_eq!(lease.run(&cancel, |_, _| 7).await, Ok(7));
            assert_eq!(pool.status().built, 2);
        });
    }
}
