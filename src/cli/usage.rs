//! A command line clap refuses, said as clap says it, but for an engine flag given to a subcommand that does not
//! take it: that one is named as an engine flag, with the engine flags the subcommand does take (clap alone took it
//! for a value and suggested `-- --max-hash-size`).

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The headings the engine flags stand under in a subcommand's help.
const ENGINE_HEADING: &str = "Engine flags";

/// Print what is wrong with the command line (or the help or version asked for) and end the process.
pub fn refuse(error: clap::Error, command: &clap::Command) -> ! {
    if error.kind() == ErrorKind::UnknownArgument {
        if let Some(message) = engine_flag(&error, command) {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    }
    error.exit()
}

/// The message for an engine flag (one the bare engine takes) that the subcommand named on the command line does
/// not take; `None` for any other argument.
fn engine_flag(error: &clap::Error, command: &clap::Command) -> Option<String> {
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = given.split('=').next().unwrap_or(given);
    let long = |arg: &clap::Arg| arg.get_long().map(|long| format!("--{long}"));
    if !command.get_arguments().any(|arg| long(arg).as_deref() == Some(flag)) {
        return None;
    }
    let name = std::env::args().skip(1).find(|word| !word.starts_with('-'))?;
    let subcommand = command.find_subcommand(&name)?;
    let takes: Vec<String> = subcommand
        .get_arguments()
        .filter(|arg| {
            arg.get_help_heading()
                .is_some_and(|heading| heading.starts_with(ENGINE_HEADING))
        })
        .filter_map(long)
        .collect();
    let taken = if takes.is_empty() {
        "it takes none, as it builds no engine of its own".to_string()
    } else {
        format!("the engine flags it takes are {}", takes.join(", "))
    };
    Some(format!(
        "unexpected argument '{flag}': an engine flag, which `waggle {name}` does not take ({taken}; \
         `waggle {name} --help` lists its flags)"
    ))
}
