//! `waggle` with no subcommand: the UHP engine on stdin and stdout, as Mzinga.Viewer, game servers and scripts
//! drive it; a person who starts it at a terminal is told in one line on stderr what it is and which commands are
//! the games for people, and types with line editing and history (never on a pipe, which reads as before). Stdin
//! is read on a thread of its own, so that the session goes on working (a search, pondering) while it waits for
//! lines, notices the end of input at once, and hears Ctrl-C: it stops a running search (the move found so far is
//! still printed) and ends the engine when idle.

use std::io::{self, BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::mpsc::Sender;
use std::thread;

use anyhow::{Context, Result};
use waggle::uhp::{Event, Session};
use waggle::Options;

use super::engine::{engine_flags, Flags, GameFlags, SessionFlags, StrengthFlags};
use super::{interrupt, typing};

engine_flags! {
    /// The UHP engine's flags: every engine flag.
    pub struct Args {
        game: GameFlags,
        strength: StrengthFlags,
        session: SessionFlags,
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let engine = args.build(Options::default())?;
    let stdout = io::stdout();
    let mut session = Session::new(stdout.lock(), engine);
    if args.session.verbose {
        session.log_search(|line| eprintln!("{line}"));
    }
    let interrupts = session.sender();
    interrupt::on_press(move |_| {
        // The session has ended and the process is on its way out.
        if interrupts.send(Event::Interrupt).is_err() {
            typing::leave();
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    if io::stdin().is_terminal() {
        // A person typed `waggle` (or `cargo run`): say what this is. Never on a pipe, which a viewer or a bridge
        // reads, and on stderr, so that stdout stays the protocol's.
        eprintln!(
            "waggle: this is the UHP engine, for programs such as Mzinga.Viewer (type 'help' for its commands, \
             'exit' to leave); to play yourself, run 'waggle play' (here) or 'waggle web' (in a browser)."
        );
    }
    // A person at a terminal (both ways) gets line editing and history; a pipe, the lines as they come.
    let person = io::stdin().is_terminal() && io::stdout().is_terminal();
    session.start()?;
    let lines = session.sender();
    let editor = person.then(typing::editor).flatten();
    thread::spawn(move || match editor {
        Some(editor) => typing::read(editor, &lines),
        None => read_piped(&lines),
    });
    let ran = session.run();
    typing::leave();
    match ran {
        // The reader of stdout is gone: nobody is listening any more.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e).context("writing to stdout"),
        Ok(()) if session.interrupted() => Ok(interrupt::exit_code()),
        Ok(()) => Ok(ExitCode::SUCCESS),
    }
}

/// Send the lines of stdin to the session, then the end of input.
fn read_piped(lines: &Sender<Event>) {
    let mut stdin = io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        // Bytes, not `lines()`: a line that is not UTF-8 gets an `err` like any other bad input instead of ending
        // the session.
        match stdin.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if lines.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = lines.send(Event::End);
}
