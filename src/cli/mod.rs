//! The subcommands, one file each: each reads its flags, builds its engine the one shared way (`engine`), calls
//! the library and prints. What they share: Ctrl-C (`interrupt`), and the few helpers below.

#[cfg(feature = "arena")]
pub mod arena;
#[cfg(any(feature = "review", feature = "datagen", feature = "train", feature = "db"))]
mod bar;
pub mod bench;
#[cfg(feature = "tune")]
pub mod book;
pub mod completions;
pub mod convert;
#[cfg(feature = "datagen")]
pub mod datagen;
#[cfg(feature = "db")]
pub mod db;
pub mod draw;
pub mod engine;
pub mod help;
mod input;
pub mod interrupt;
#[cfg(feature = "json")]
pub mod json;
pub mod man;
pub mod perft;
#[cfg(feature = "play")]
pub mod play;
#[cfg(feature = "puzzles")]
pub mod puzzle;
#[cfg(feature = "puzzles")]
pub mod puzzles;
#[cfg(feature = "review")]
pub mod review;
#[cfg(feature = "tune")]
pub mod selfplay;
#[cfg(feature = "train")]
pub mod train;
#[cfg(feature = "tune")]
pub mod tune;
mod typing;
pub mod uhp;
pub mod usage;
#[cfg(feature = "web")]
pub mod web;

use std::io::{self, IsTerminal};

/// A number of seconds (`0.5`, `10`), for clap.
#[cfg(any(feature = "arena", feature = "play", feature = "review", feature = "db"))]
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' is not a number of seconds"))
}

/// Whether pictures on stdout get ANSI colours: on a terminal, unless NO_COLOR is set.
pub fn colour() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The games of the self-play data files `files`, all of them.
#[cfg(feature = "tune")]
pub fn read_games(files: &[String]) -> anyhow::Result<Vec<waggle::record::FinishedGame>> {
    use anyhow::Context;
    let mut records = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).with_context(|| format!("opening {path}"))?;
        records
            .extend(waggle::record::read_games(io::BufReader::new(file)).with_context(|| format!("reading {path}"))?);
    }
    Ok(records)
}

/// Why a server (`waggle web`, `waggle json --listen`) could not serve on `addr`: the error, which names the
/// address, or, when another program holds the address (a second `waggle web`), what to do about it.
#[cfg(any(feature = "json", feature = "web"))]
pub fn serving_error(addr: &str, error: io::Error) -> anyhow::Error {
    if error.kind() != io::ErrorKind::AddrInUse {
        return error.into();
    }
    let other = match addr.parse::<std::net::SocketAddr>() {
        Ok(mut socket) => {
            socket.set_port(socket.port().checked_add(1).unwrap_or(0));
            socket.to_string()
        }
        Err(_) => "127.0.0.1:0".to_string(),
    };
    anyhow::anyhow!(
        "{addr} is already in use by another program (another waggle serving there?): stop it, or serve on \
         another address with --listen (for example --listen {other}; port 0 picks a free one)"
    )
}
