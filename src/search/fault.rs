//! Faults made on purpose: where a test makes Waggle fail, to see that everything built over the search copes (the
//! engine puts its game back, the UHP session answers `err` and goes on, a refereed game is scored).
//!
//! Shipped builds carry the same checks at the same places, with no fault set, so that the code the tests run is
//! the code that ships; only a test can set one ([`crate::engine::Engine::inject`]).

/// A fault to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The main search thread panics once its first depth is done.
    MainThreadPanics,
    /// The first helper thread panics once its first depth is done.
    HelperPanics,
    /// Playing a move panics once the move is played: the engine must put the game back.
    PlayPanics,
    /// Every move after a node's first counts as taken by another thread, and so is put off to the end of its
    /// node: one thread then walks the order that helper threads make (not a panic).
    EveryMoveTaken,
}
