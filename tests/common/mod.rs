//! The real binary as a test drives it: started with arguments, lines sent, replies read up to their `ok`. The
//! test data that tests and benches share is in `data`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::Duration;

pub mod data;

#[allow(unused_imports)]
pub use data::position;

/// A running `waggle` whose start-up block has been read.
pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start waggle");
        let stdin = child.stdin.take();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine { child, stdin, lines };
        // The start-up block arrives before any input is sent.
        let block = engine.reply();
        assert!(block[0].starts_with("id Waggle v"), "{block:?}");
        assert_eq!(block[1], "Mosquito;Ladybug;Pillbug;Clock");
        engine
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, if one comes within `wait`.
    pub fn line_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Lines up to (not including) the next `ok`.
    pub fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("engine answers");
            if line == "ok" {
                return lines;
            }
            lines.push(line);
        }
    }

    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.reply()
    }

    pub fn one(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        assert_eq!(reply.len(), 1, "{line}: {reply:?}");
        reply[0].clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scratch directory for a test's files, emptied when made and removed when dropped.
pub struct Scratch(pub std::path::PathBuf);

impl Scratch {
    /// The directory `waggle-NAME-PID` in the temporary directory.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("waggle-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `name` in the directory, as an argument.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    /// The names of the files in the directory, sorted.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
