//! `waggle json`: the Hive AI-module JSON API, one request a line on stdio or one per POST body over HTTP with
//! `--listen`. Ctrl-C ends it and says how many requests it answered: over HTTP once those in progress are
//! answered, on stdio at once.

use std::io;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;

use waggle::json::{serve_http, serve_lines, Notes, Thinking};

use super::engine::{engine_flags, BookFlag, EvalFlags, Flags, LevelFlag, TableFlags};
use super::interrupt;

engine_flags! {
    /// The engine flags of `waggle json`.
    struct EngineFlags {
        table: TableFlags,
        eval: EvalFlags,
        book: BookFlag,
        level: LevelFlag,
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// Serve HTTP on this address (for example 127.0.0.1:8080), one request per POST body.
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    #[command(flatten)]
    engine: EngineFlags,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let thinking = Thinking {
        options: args.engine.options(Thinking::default_options())?,
        weights: args.engine.weights()?,
        // A note on a request (a disagreement with Waggle's rules) is for the person running the server.
        notes: Notes::to(|line| eprintln!("waggle json: {line}")),
    };
    match args.listen {
        None => {
            let answered = Arc::new(AtomicU64::new(0));
            let count = answered.clone();
            interrupt::on_press(move |_| {
                eprintln!(
                    "waggle json: interrupted after answering {}",
                    requests(count.load(Ordering::SeqCst))
                );
                std::process::exit(i32::from(interrupt::INTERRUPTED));
            })?;
            serve_lines(io::stdin().lock(), io::stdout().lock(), &answered, &thinking)
                .context("serving JSON on stdio")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(addr) => {
            let stop = interrupt::flag()?;
            let listening = |bound| eprintln!("waggle json: listening on http://{bound}");
            let answered =
                serve_http(&addr, listening, &stop, thinking).map_err(|error| super::serving_error(&addr, error))?;
            eprintln!("waggle json: stopped after answering {}", requests(answered));
            Ok(interrupt::exit_code())
        }
    }
}

/// `n` requests, in words: `1 request`, `2 requests`.
fn requests(n: u64) -> String {
    if n == 1 {
        "1 request".to_string()
    } else {
        format!("{n} requests")
    }
}
