//! Ctrl-C (SIGINT) for the subcommands that run long: each says what a press means to it (stop the search, stop
//! counting, start no new game …) by installing its own handler, once, before it starts. A subcommand that a
//! press ended says what it had done so far and exits with [`INTERRUPTED`], the status shells give a program
//! that SIGINT ended.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};

/// The exit status after an interrupt: 128 + SIGINT, as a shell reports a program that SIGINT killed.
pub const INTERRUPTED: u8 = 130;

/// The exit code of a subcommand that Ctrl-C ended.
pub fn exit_code() -> ExitCode {
    ExitCode::from(INTERRUPTED)
}

/// Call `on_press` with the number of presses so far (1 for the first) on every Ctrl-C, from a thread of its
/// own.
pub fn on_press(on_press: impl Fn(usize) + Send + 'static) -> Result<()> {
    let presses = AtomicUsize::new(0);
    ctrlc::set_handler(move || on_press(presses.fetch_add(1, Ordering::SeqCst) + 1))
        .context("installing the Ctrl-C handler")
}

/// A flag that the first Ctrl-C raises.
pub fn flag() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = flag.clone();
    on_press(move |_| raised.store(true, Ordering::SeqCst))?;
    Ok(flag)
}
