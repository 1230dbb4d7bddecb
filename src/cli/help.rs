//! `waggle help [SUBCOMMAND…]`: the help of waggle or of one of its subcommands, exactly as `--help` prints it. A
//! subcommand of its own rather than clap's, which took no flag of its own (`waggle help --help` was an error).

use std::process::ExitCode;

use anyhow::Result;
use clap::error::ErrorKind;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The subcommand whose help to print (and its own subcommand: `match merge`); none for waggle's.
    #[arg(value_name = "SUBCOMMAND")]
    path: Vec<String>,
}

/// Print the help of the subcommand `args` names in `command` (the whole command line): what clap answers to
/// `waggle SUBCOMMAND… --help`, or its error for a subcommand that does not exist.
pub fn run(args: Args, command: clap::Command) -> Result<ExitCode> {
    let asked = ["waggle".to_string()]
        .into_iter()
        .chain(args.path)
        .chain(["--help".to_string()]);
    match command.try_get_matches_from(asked) {
        Err(help) if help.kind() == ErrorKind::DisplayHelp => {
            help.print()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => error.exit(),
        Ok(_) => Ok(ExitCode::SUCCESS),
    }
}
