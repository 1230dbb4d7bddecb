//! How long Waggle takes to answer `stop`, `exit` and Ctrl-C (SIGINT): the time from the moment the line or the
//! signal is sent to the moment the answer is read (the move line, or the process's exit), with one search
//! thread and with two, after searches of a few milliseconds to several seconds (so at every depth a game
//! reaches). Each figure is the median and the worst of several runs; the machine's load shows in the worst.
//!
//! `cargo bench --bench latency` prints the table (about five minutes); `-- --quick` a shorter one. The goal is
//! under 50 ms in every row. A measurement, not a test: it asserts only that each answer comes. On Windows, where
//! a console's Ctrl-C goes to every process of the console and cannot be aimed at one child, the Ctrl-C rows are
//! left out.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

const MIDGAME: &str = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// A running engine, its start-up block read.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
}

impl Engine {
    fn start(threads: usize) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
            .args(["--threads", &threads.to_string(), "--opening-book", "False"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start waggle");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Stamped as it is read, so that the reader's own scheduling is not counted against the engine.
                if sender.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine { child, stdin, lines };
        engine.until_ok();
        engine.send(&format!("newgame {MIDGAME}"));
        engine.until_ok();
        engine
    }

    fn send(&mut self, line: &str) -> Instant {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        Instant::now()
    }

    /// Lines up to the next `ok`, and when the last of them (the answer) arrived.
    fn until_ok(&mut self) -> (Vec<String>, Instant) {
        let mut lines = Vec::new();
        let mut last = Instant::now();
        loop {
            let (line, at) = self.lines.recv_timeout(Duration::from_secs(60)).expect("an answer");
            if line == "ok" {
                return (lines, last);
            }
            last = at;
            lines.push(line);
        }
    }

    #[cfg(unix)]
    fn sigint(&self) -> Instant {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill only sends a signal to the child this bench started.
        unsafe { libc::kill(pid, libc::SIGINT) };
        Instant::now()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How the search is ended.
#[derive(Clone, Copy)]
enum Ending {
    Stop,
    Exit,
    #[cfg(unix)]
    Interrupt,
    AnalyzeStop,
}

impl Ending {
    const ALL: &[Ending] = &[
        Ending::Stop,
        Ending::Exit,
        #[cfg(unix)]
        Ending::Interrupt,
        Ending::AnalyzeStop,
    ];

    fn name(self) -> &'static str {
        match self {
            Ending::Stop => "bestmove, then stop",
            Ending::Exit => "bestmove, then exit",
            #[cfg(unix)]
            Ending::Interrupt => "bestmove, then Ctrl-C",
            Ending::AnalyzeStop => "analyze 3, then stop",
        }
    }
}

/// One run: search for `after`, end it, and return the latency.
fn once(threads: usize, ending: Ending, after: Duration) -> Duration {
    let mut engine = Engine::start(threads);
    let search = match ending {
        Ending::AnalyzeStop => "analyze 3",
        _ => "bestmove depth 60",
    };
    engine.send(search);
    thread::sleep(after);
    match ending {
        Ending::Stop | Ending::AnalyzeStop => {
            let sent = engine.send("stop");
            let (_, answered) = engine.until_ok();
            answered.saturating_duration_since(sent)
        }
        #[cfg(unix)]
        Ending::Interrupt => {
            let sent = engine.sigint();
            let (_, answered) = engine.until_ok();
            answered.saturating_duration_since(sent)
        }
        Ending::Exit => {
            let sent = engine.send("exit");
            loop {
                if engine.child.try_wait().unwrap().is_some() {
                    return sent.elapsed();
                }
                thread::sleep(Duration::from_micros(200));
            }
        }
    }
}

fn millis(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let afters: &[f64] = if quick { &[0.05, 1.0] } else { &[0.01, 0.2, 2.0, 8.0] };
    let runs = if quick { 3 } else { 5 };
    println!("| ended by | threads | searched for | median ms | worst ms |");
    println!("|---|---|---|---|---|");
    for &ending in Ending::ALL {
        for threads in [1, 2] {
            for &after in afters {
                let mut times: Vec<Duration> = (0..runs)
                    .map(|_| once(threads, ending, Duration::from_secs_f64(after)))
                    .collect();
                times.sort();
                println!(
                    "| {} | {threads} | {after} s | {} | {} |",
                    ending.name(),
                    millis(times[times.len() / 2]),
                    millis(times[times.len() - 1])
                );
            }
        }
    }
}
