//! The UHP engine as a test talks to it, line by line: started with arguments, its start-up block checked, lines
//! sent, replies read up to their `ok`. Started through [`Waggle`], like every other run of the binary.

use std::time::Duration;

use super::run::{Running, Waggle};

/// A running `waggle` whose start-up block has been read.
pub struct Engine {
    pub process: Running,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut engine = Engine {
            process: Waggle::new(args).start(),
        };
        // The start-up block arrives before any input is sent.
        let block = engine.reply();
        assert!(block[0].starts_with("id Waggle v"), "{block:?}");
        assert_eq!(block[1], "Mosquito;Ladybug;Pillbug;Clock");
        engine
    }

    pub fn send(&mut self, line: &str) {
        self.process.send(line);
    }

    /// The next line, if one comes within `wait`.
    pub fn line_within(&mut self, wait: Duration) -> Option<String> {
        self.process.line(wait)
    }

    /// Lines up to (not including) the next `ok`.
    pub fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.process.line(Duration::from_secs(60)).expect("engine answers");
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
