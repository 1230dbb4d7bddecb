//! `waggle completions SHELL`: the shell's completion script for `waggle`, generated from the command line's own
//! definitions (clap_complete), so that it offers exactly the subcommands, flags and option values clap accepts.

use std::io;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args as ClapArgs;
use clap_complete::Shell;

#[derive(ClapArgs)]
pub struct Args {
    /// The shell: bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

/// Print the script for `command` (the whole command line).
pub fn run(args: Args, mut command: clap::Command) -> Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "waggle", &mut script);
    io::Write::write_all(&mut io::stdout().lock(), &script)?;
    Ok(ExitCode::SUCCESS)
}
