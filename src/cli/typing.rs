//! What a person types at the UHP engine's terminal: lines read with line editing and history (rustyline), Ctrl-C
//! (a key to the line editor, not a signal) sent on as an interrupt, Ctrl-D as the end of input; and the terminal
//! given back as it was when the engine ends.
//!
//! The line editor holds the terminal in a mode of its own (no echo, no lines, no signals) while it reads, on a
//! thread beside the session; the session may end meanwhile (`exit`, or Ctrl-C when idle, which reaches the
//! session as a signal in the moments the editor is not reading). So the editor reads a line only once the session
//! has said that it goes on, and only while it holds [`TERMINAL`]; whoever ends the process calls [`leave`] first,
//! which keeps the editor from reading again, or puts the terminal back as it found it when the editor is reading.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

use rustyline::error::ReadlineError;
use waggle::uhp::{Event, Flow};

/// Held by the editor while it reads (and so has the terminal in its mode), and by [`leave`] for good.
static TERMINAL: Mutex<()> = Mutex::new(());
/// The engine is ending: the editor reads no more.
static ENDED: AtomicBool = AtomicBool::new(false);

/// The terminal's settings as the engine found them, to put back.
#[cfg(unix)]
static FOUND: Mutex<Option<libc::termios>> = Mutex::new(None);

/// A line editor for the terminal, remembering how the terminal was set (`None` when none can be had).
pub fn editor() -> Option<rustyline::DefaultEditor> {
    #[cfg(unix)]
    {
        // SAFETY: tcgetattr fills the zeroed termios it is given from stdin, a terminal here.
        let mut settings: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut settings) } == 0 {
            *FOUND.lock().unwrap_or_else(|e| e.into_inner()) = Some(settings);
        }
    }
    rustyline::DefaultEditor::new().ok()
}

/// Send what is typed to the session through `lines` until the input ends or the session does.
pub fn read(mut editor: rustyline::DefaultEditor, lines: &Sender<Event>) {
    loop {
        let (answer, heard) = channel();
        let read = {
            let _reading = TERMINAL.lock().unwrap_or_else(|e| e.into_inner());
            if ENDED.load(Ordering::SeqCst) {
                return;
            }
            editor.readline("")
        };
        let event = match read {
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                Event::TypedLine(line, answer)
            }
            Err(ReadlineError::Interrupted) => Event::TypedInterrupt(answer),
            Err(_) => break,
        };
        if lines.send(event).is_err() || heard.recv() != Ok(Flow::Continue) {
            return;
        }
    }
    let _ = lines.send(Event::End);
}

/// Before the process ends: the editor reads no more, and the terminal is as the engine found it.
pub fn leave() {
    ENDED.store(true, Ordering::SeqCst);
    match TERMINAL.try_lock() {
        // The editor is not reading, and now never will.
        Ok(held) => std::mem::forget(held),
        // It is reading, the terminal in its mode: put the terminal back (the process ends with the editor).
        Err(_) => restore(),
    }
}

/// Put the terminal's settings back as [`editor`] found them.
fn restore() {
    #[cfg(unix)]
    if let Some(settings) = *FOUND.lock().unwrap_or_else(|e| e.into_inner()) {
        // SAFETY: tcsetattr reads the termios it is given, which tcgetattr filled, and sets stdin's terminal.
        unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &settings) };
    }
}
