//! `waggle play`: a game against Waggle at the terminal, with line editing when the input is a terminal. Ctrl-C
//! while Waggle thinks makes it move at once; at a prompt the line editor drops the line typed and says how to
//! leave, and a second press in a row leaves (saying so, with status 130); with input from a pipe it ends the game.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use waggle::play::{run as play, Lines, Plain, PlayConfig};
use waggle::{Color, GameString, GameType};
use waggle::{Options, Stopper};

use super::engine::{engine_flags, Flags, GameFlags, StrengthFlags};
use super::{interrupt, parse_seconds};

engine_flags! {
    /// The engine flags of `waggle play`: all but the UHP session's.
    struct EngineFlags {
        game: GameFlags,
        strength: StrengthFlags,
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// The side you play: white, black or random.
    #[arg(long, value_name = "SIDE", default_value = "white")]
    color: String,
    /// The game type (Base, Base+M … Base+MLP).
    #[arg(long, value_name = "TYPE", default_value = "Base+MLP")]
    game_type: GameType,
    /// How long Waggle thinks over each move, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_seconds)]
    time: Duration,
    /// Start from this GameString instead of a new game.
    #[arg(long, value_name = "GAMESTRING")]
    from: Option<GameString>,
    #[command(flatten)]
    engine: EngineFlags,
}

/// Lines from a terminal, with line editing and history.
struct Editor {
    editor: rustyline::DefaultEditor,
    /// Ctrl-C was pressed at the last prompt: another press at this one leaves.
    interrupted: bool,
    /// The person left by pressing Ctrl-C twice.
    left: bool,
}

impl Lines for Editor {
    fn read(&mut self, prompt: &str) -> Option<String> {
        loop {
            match self.editor.readline(prompt) {
                Ok(line) => {
                    self.interrupted = false;
                    let _ = self.editor.add_history_entry(line.as_str());
                    return Some(line);
                }
                // Ctrl-C abandons the line being typed; pressed again at once, it leaves the game, and the first
                // press says so (a person who presses it at an empty prompt means to go).
                Err(rustyline::error::ReadlineError::Interrupted) if self.interrupted => {
                    self.left = true;
                    return None;
                }
                Err(rustyline::error::ReadlineError::Interrupted) => {
                    self.interrupted = true;
                    println!("(Ctrl-C again, 'quit' or Ctrl-D leaves the game)");
                }
                Err(_) => return None,
            }
        }
    }

    fn shows_prompt(&self) -> bool {
        true
    }
}

/// Lines read while `reading` is raised: what Ctrl-C means depends on whether the game waits for the person.
struct Reading<L> {
    lines: L,
    reading: Arc<AtomicBool>,
    stopper: Stopper,
}

impl<L: Lines> Lines for Reading<L> {
    fn read(&mut self, prompt: &str) -> Option<String> {
        // A Ctrl-C since Waggle's last move (while its board was drawn) is for no search to come.
        self.stopper.clear();
        self.reading.store(true, Ordering::SeqCst);
        let line = self.lines.read(prompt);
        self.reading.store(false, Ordering::SeqCst);
        line
    }

    fn shows_prompt(&self) -> bool {
        self.lines.shows_prompt()
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let person = match args.color.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        "random" => Color::ALL[usize::from(rand::random::<bool>())],
        other => bail!("--color {other}: expected white, black or random"),
    };
    let config = PlayConfig {
        person,
        start: args.from.unwrap_or_else(|| args.game_type.into()),
        think: args.time,
        color: super::colour(),
    };
    let engine = args.engine.build(Options::default())?;
    let (stopper, reading) = (engine.stopper(), Arc::new(AtomicBool::new(false)));
    // Waiting for a line (from a pipe: a line editor takes Ctrl-C as a key) Ctrl-C ends the game; at any other
    // time the game is Waggle's to move, and it moves at once, even when the press comes just before its search
    // starts (a stop raised then ends the search as soon as it starts).
    let (handler_stopper, waiting) = (stopper.clone(), reading.clone());
    interrupt::on_press(move |_| {
        if waiting.load(Ordering::SeqCst) {
            eprintln!("\nwaggle play: interrupted");
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
        handler_stopper.stop();
    })?;
    let mut out = io::stdout().lock();
    if io::stdin().is_terminal() {
        let editor = Editor {
            editor: rustyline::DefaultEditor::new().context("starting the line editor")?,
            interrupted: false,
            left: false,
        };
        let mut lines = Reading {
            lines: editor,
            reading,
            stopper,
        };
        play(engine, &config, &mut lines, &mut out)?;
        // Ctrl-C twice leaves as an interrupted program does: it says so, with the status of an interrupt.
        if lines.lines.left {
            eprintln!("waggle play: interrupted");
            return Ok(ExitCode::from(interrupt::INTERRUPTED));
        }
    } else {
        let mut lines = Reading {
            lines: Plain(io::stdin().lock()),
            reading,
            stopper,
        };
        play(engine, &config, &mut lines, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}
