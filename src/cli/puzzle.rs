//! `waggle puzzle`: solve puzzles at the terminal, from a file `waggle puzzles` wrote or from the built-in set,
//! picked by game type, rating, theme and kind. Line editing when the input is a terminal (Ctrl-C or Ctrl-D there
//! ends the session with its tally); from a pipe, one line a move, and the end of input ends it.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use waggle::puzzles::{builtin, read_puzzles, solve_at_terminal, Filter, Kind, Puzzle};
use waggle::GameType;

use super::{colour, interrupt};

#[derive(ClapArgs)]
pub struct Args {
    /// A puzzle file, as `waggle puzzles` writes it (one JSON record a line); the built-in set when none is given.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Only puzzles of this game type (Base, Base+M … Base+MLP).
    #[arg(long = "type", value_name = "TYPE")]
    game_type: Option<GameType>,
    /// Only puzzles rated from LO to HI (such as 1200-1600).
    #[arg(long, value_name = "LO-HI", value_parser = parse_range)]
    rating: Option<(u32, u32)>,
    /// Only puzzles with this theme (surround, beetle-climb, pillbug-throw, … as docs/puzzles.md lists them).
    #[arg(long, value_name = "THEME")]
    theme: Option<String>,
    /// Only puzzles of this kind: win or defend.
    #[arg(long, value_name = "KIND", value_parser = parse_kind)]
    kind: Option<Kind>,
    /// Only the puzzle with this id.
    #[arg(long, value_name = "ID")]
    id: Option<String>,
}

/// `LO-HI`.
fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a range of ratings: expected LO-HI, such as 1200-1600");
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let (lo, hi) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// `win` or `defend`.
fn parse_kind(text: &str) -> Result<Kind, String> {
    match text.to_ascii_lowercase().as_str() {
        "win" => Ok(Kind::Win),
        "defend" => Ok(Kind::Defend),
        _ => Err(format!("'{text}' is not a kind of puzzle: expected win or defend")),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let all: Vec<Puzzle> = match &args.file {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            let read = read_puzzles(&text);
            for refusal in &read.refused {
                eprintln!("waggle puzzle: {}, {refusal}", path.display());
            }
            read.puzzles
        }
        None => builtin().to_vec(),
    };
    let filter = Filter {
        game_type: args.game_type,
        kind: args.kind,
        min_rating: args.rating.map(|(lo, _)| lo),
        max_rating: args.rating.map(|(_, hi)| hi),
        theme: args.theme.clone(),
    };
    let chosen: Vec<Puzzle> = all
        .into_iter()
        .filter(|p| filter.admits(p) && args.id.as_ref().is_none_or(|id| &p.id == id))
        .collect();
    if chosen.is_empty() {
        bail!("no puzzle matches: try fewer filters");
    }
    interrupt::on_press(|_| {
        eprintln!("\nwaggle puzzle: interrupted");
        std::process::exit(i32::from(interrupt::INTERRUPTED));
    })?;
    let mut out = io::stdout().lock();
    if io::stdin().is_terminal() {
        let mut editor = rustyline::DefaultEditor::new().context("starting the line editor")?;
        let mut read = |prompt: &str| match editor.readline(prompt) {
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                Some(line)
            }
            Err(_) => None,
        };
        solve_at_terminal(&chosen, &mut read, &mut out, colour())?;
    } else {
        let mut lines = io::stdin().lock().lines();
        let mut read = |prompt: &str| {
            // A script sees the prompt as a line: the session waits for a move.
            let _ = writeln!(io::stdout(), "{}", prompt.trim_end());
            lines.next().and_then(Result::ok)
        };
        solve_at_terminal(&chosen, &mut read, &mut out, colour())?;
    }
    Ok(ExitCode::SUCCESS)
}
