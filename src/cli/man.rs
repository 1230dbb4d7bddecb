//! `waggle man`: the manual pages, in roff, generated from the command line's own definitions (clap_mangen):
//! waggle(1) on stdout, a subcommand's page (waggle-play(1) …) with its name, or every page into a directory.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use clap_mangen::Man;

#[derive(ClapArgs)]
pub struct Args {
    /// Print the page of this subcommand (waggle-play(1) for `play`) instead of waggle(1).
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "dir")]
    subcommand: Option<String>,
    /// Write every page (waggle.1, waggle-play.1, …) into this directory instead of printing one.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Print (or write) the pages of `command` (the whole command line).
pub fn run(args: Args, command: clap::Command) -> Result<ExitCode> {
    let mut command = command;
    command.build();
    if let Some(dir) = &args.dir {
        clap_mangen::generate_to(command, dir).with_context(|| format!("writing the pages into {}", dir.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let page = match &args.subcommand {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(subcommand) => subcommand.clone(),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
                bail!("no subcommand '{name}': the subcommands are {}", names.join(", "))
            }
        },
    };
    let mut roff = Vec::new();
    Man::new(page).render(&mut roff)?;
    io::stdout().lock().write_all(&roff)?;
    Ok(ExitCode::SUCCESS)
}
