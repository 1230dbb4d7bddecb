//! One engine as a child process that speaks UHP: started from a command line, sent commands, read reply by reply
//! against a deadline, and killed when it is done or misbehaves.
//!
//! Owns the process, its pipes and the guards that keep the referee from hanging whatever the engine does: stdout
//! and stderr are read on threads of their own, lines and replies are capped in size, every read has a deadline,
//! and the whole process group is killed at the end. What a reply means for the game is the referee's business.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::uhp::{Command, Outcome, Reply, ReplyReader, CLOCK_CAPABILITY};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Most lines one reply may have before `ok`: more is a flood.
const MAX_REPLY_LINES: usize = 10_000;
/// Lines of stderr kept to explain a crash.
const STDERR_KEPT: usize = 8;
/// How long a new engine may take to print its start-up block.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong with an engine, as the referee reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The command line could not be started.
    Start(String),
    /// The engine exited (or closed its output) before finishing its reply.
    Exited(String),
    /// No complete reply before the deadline.
    Timeout(Duration),
    /// More output than any reply needs.
    Flood,
    /// Its input was closed: it stopped reading.
    Closed,
    /// The match was abandoned (Ctrl-C twice) while waiting for this reply: nobody's fault.
    Abandoned,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Start(why) => write!(f, "could not be started: {why}"),
            Fault::Exited(how) => write!(f, "exited mid-game ({how})"),
            Fault::Timeout(after) => write!(f, "did not answer within {:.3} s", after.as_secs_f64()),
            Fault::Flood => write!(f, "flooded its output (over {MAX_REPLY_LINES} lines in one reply)"),
            Fault::Closed => f.write_str("stopped reading its input"),
            Fault::Abandoned => f.write_str("was left waiting: the match was abandoned"),
        }
    }
}

/// What the stdout reader thread passes on.
enum Output {
    Line(String),
    End,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    reader: ReplyReader,
    /// Lines of the reply being read, to detect a flood.
    reply_lines: usize,
    /// When the last command was sent.
    sent_at: Instant,
    /// Whether its `info` block offers the clock-aware `bestmove clock`.
    clock_aware: bool,
    /// Raised when nobody waits for replies any more (an abandoned match): a read ends at once.
    give_up: Option<Arc<AtomicBool>>,
}

/// How often a read that waits for a reply looks at the give-up flag.
const GIVE_UP_POLL: Duration = Duration::from_millis(20);

impl EngineProcess {
    /// Start `command_line` (split as a shell would) and read its start-up block; the block's lines are returned
    /// with the process.
    pub fn start(command_line: &str) -> Result<(EngineProcess, Vec<String>), Fault> {
        let words = shlex::split(command_line)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| Fault::Start(format!("'{command_line}' is not a command line (unbalanced quotes?)")))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| Fault::Start("the command line is empty".into()))?;
        let mut process = Process::new(program);
        process
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A group of its own, so that a Ctrl-C typed in the terminal reaches the referee only, and so that a wrapper
        // script's children die with it (see `Drop`).
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            process.process_group(0);
        }
        #[cfg(windows)]
        {
            use std::os::windows::process::CommandExt;
            // Windows turns Ctrl-C off in a new process group (Ctrl-Break still reaches it).
            const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
            process.creation_flags(CREATE_NEW_PROCESS_GROUP);
        }
        let mut child = process.spawn().map_err(|e| Fault::Start(format!("{program}: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or(Fault::Closed)?;
        let stderr_pipe = child.stderr.take().ok_or(Fault::Closed)?;
        let (sender, lines) = sync_channel(1024);
        thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            while let Some(line) = read_capped_line(&mut input) {
                if sender.send(Output::Line(line)).is_err() {
                    return;
                }
            }
            let _ = sender.send(Output::End);
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = stderr.clone();
        thread::spawn(move || {
            let mut input = BufReader::new(stderr_pipe);
            while let Some(line) = read_capped_line(&mut input) {
                if let Ok(mut kept) = kept.lock() {
                    if kept.len() == STDERR_KEPT {
                        kept.pop_front();
                    }
                    kept.push_back(line);
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            stderr,
            reader: ReplyReader::default(),
            reply_lines: 0,
            sent_at: Instant::now(),
            clock_aware: false,
            give_up: None,
        };
        let block = engine.read_reply(Instant::now() + START_TIMEOUT)?;
        // The capabilities are the last line of the block, `;`-separated.
        engine.clock_aware = block
            .lines
            .last()
            .is_some_and(|line| line.split(';').any(|c| c.trim().eq_ignore_ascii_case(CLOCK_CAPABILITY)));
        match block.outcome {
            Outcome::Ok => Ok((engine, block.lines)),
            Outcome::Err(message) | Outcome::InvalidMove(message) => {
                Err(Fault::Start(format!("its start-up block ended in an error: {message}")))
            }
        }
    }

    /// Send one command.
    pub fn send(&mut self, command: &Command) -> Result<(), Fault> {
        self.sent_at = Instant::now();
        let stdin = self.stdin.as_mut().ok_or(Fault::Closed)?;
        writeln!(stdin, "{command}")
            .and_then(|_| stdin.flush())
            .map_err(|_| self.exit_fault().unwrap_or(Fault::Closed))
    }

    /// End every read at once (with [`Fault::Abandoned`]) once `flag` is raised.
    pub fn give_up_on(&mut self, flag: Arc<AtomicBool>) {
        self.give_up = Some(flag);
    }

    /// Read the reply to the last command, up to its `ok`, by `deadline`.
    pub fn read_reply(&mut self, deadline: Instant) -> Result<Reply, Fault> {
        loop {
            if self.give_up.as_ref().is_some_and(|flag| flag.load(Ordering::SeqCst)) {
                return Err(Fault::Abandoned);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = if self.give_up.is_some() {
                left.min(GIVE_UP_POLL)
            } else {
                left
            };
            match self.lines.recv_timeout(wait) {
                Ok(Output::Line(line)) => {
                    self.reply_lines += 1;
                    if let Some(reply) = self.reader.push(&line) {
                        self.reply_lines = 0;
                        return Ok(reply);
                    }
                    if self.reply_lines > MAX_REPLY_LINES {
                        return Err(Fault::Flood);
                    }
                }
                Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self
                        .wait_exit()
                        .unwrap_or_else(|| Fault::Exited("closed its output".into())));
                }
                Err(RecvTimeoutError::Timeout) if wait < left => {}
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout(self.sent_at.elapsed())),
            }
        }
    }

    /// Send `command` and read its reply by `deadline`.
    pub fn ask(&mut self, command: &Command, deadline: Instant) -> Result<Reply, Fault> {
        self.send(command)?;
        self.read_reply(deadline)
    }

    /// Whether the engine offers `bestmove clock` (its capabilities line lists `Clock`).
    pub fn clock_aware(&self) -> bool {
        self.clock_aware
    }

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|kept| kept.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Ask the engine to exit, give it a moment, then kill it and everything it started.
    pub fn close(mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "{}", Command::Exit);
        }
        let patience = Instant::now() + Duration::from_millis(200);
        while Instant::now() < patience {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills what is left.
    }

    /// How the process ended, if it has.
    fn exit_fault(&mut self) -> Option<Fault> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(Fault::Exited(describe(status))),
            _ => None,
        }
    }

    /// The exit of a process whose output just ended: it normally follows at once.
    fn wait_exit(&mut self) -> Option<Fault> {
        let patience = Instant::now() + Duration::from_millis(500);
        loop {
            if let Some(fault) = self.exit_fault() {
                return Some(fault);
            }
            if Instant::now() >= patience {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin.take();
        #[cfg(unix)]
        if let Ok(None) = self.child.try_wait() {
            if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: killpg only sends a signal; the group is the one the child was started in (its own pid),
                // and the child has not been reaped yet, so the id still names it.
                unsafe {
                    libc::killpg(group, libc::SIGKILL);
                }
            }
        }
        // Windows has no signal for a group: taskkill ends the process and its children (/T), at once (/F). The
        // child's handle is still open, so its id cannot have been given to another process.
        #[cfg(windows)]
        if let Ok(None) = self.child.try_wait() {
            let _ = Process::new("taskkill")
                .args(["/T", "/F", "/PID", &self.child.id().to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A readable exit status: `exit status 3`, `killed by signal 11` or, on Windows, `ended by exception 0xC0000005`.
fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    // A crash on Windows exits with an NTSTATUS error code (the top two bits set), clearer in hexadecimal.
    #[cfg(windows)]
    if let Some(code) = status.code().map(|c| c as u32).filter(|c| c >> 30 == 0b11) {
        return format!("ended by exception {code:#010X}");
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

/// Read one line, keeping at most [`MAX_LINE`] bytes of it (invalid UTF-8 replaced); `None` at the end of the
/// stream or on an error.
fn read_capped_line(input: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buffer = input.fill_buf().ok()?;
        if buffer.is_empty() {
            return any.then(|| String::from_utf8_lossy(&line).into_owned());
        }
        any = true;
        let (chunk, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = found.unwrap_or(buffer.len());
        input.consume(used);
        if found.is_some() {
            let text = String::from_utf8_lossy(&line);
            return Some(text.trim_end_matches('\r').to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drain a reader to its end, through a small buffer.
    fn all_lines(bytes: &[u8]) -> Vec<String> {
        let mut input = BufReader::with_capacity(7, bytes);
        std::iter::from_fn(|| read_capped_line(&mut input)).collect()
    }

    #[test]
    fn lines_are_split_and_capped() {
        assert_eq!(all_lines(b"ok\r\nid x\n\nlast"), ["ok", "id x", "", "last"]);
        let long = vec![b'a'; MAX_LINE * 2 + 5];
        let mut text = long.clone();
        text.extend_from_slice(b"\nok\n");
        let lines = all_lines(&text);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE);
        assert_eq!(lines[1], "ok");
        assert!(all_lines(b"").is_empty());
    }

    #[test]
    fn a_missing_program_is_a_start_fault() {
        let fault = EngineProcess::start("/nonexistent/engine --flag").err().unwrap();
        assert!(matches!(fault, Fault::Start(_)), "{fault}");
        assert!(matches!(
            EngineProcess::start("'unbalanced").err(),
            Some(Fault::Start(_))
        ));
        assert!(matches!(EngineProcess::start("   ").err(), Some(Fault::Start(_))));
    }
}
