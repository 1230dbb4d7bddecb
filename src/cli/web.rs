//! `waggle web`: play, analyse and review Hive in a browser. Prints the address to open, serves until Ctrl-C (which
//! ends every search and exits within a second), and warns when it listens on an address other machines can reach.

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args as ClapArgs;

use waggle::web::{machine_names, serve, WebConfig};

use super::engine::{Flags, GameFlags};
use super::interrupt;

#[derive(ClapArgs)]
pub struct Args {
    /// The address to serve on (port 0 picks a free port).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Also answer requests that name this host (the name a load balancer in front is reached by); may be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// The games database of the Explorer panel (`waggle db add` fills it; made empty if there is none).
    #[cfg(feature = "db")]
    #[arg(long, value_name = "PATH")]
    db: Option<std::path::PathBuf>,
    #[command(flatten)]
    engine: GameFlags,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let config = WebConfig {
        options: args.engine.options(WebConfig::default_options())?,
        weights: args.engine.weights()?,
        allow_hosts: args.allow_host,
        #[cfg(feature = "db")]
        database: args.db,
    };
    if let Some(addr) = args.listen.to_socket_addrs().ok().and_then(|mut a| a.next()) {
        if !addr.ip().is_loopback() {
            eprintln!(
                "waggle web: warning: listening on {addr}, which other machines may reach: anyone who can reach it \
                 can use this machine's cores"
            );
        }
    }
    let stop = interrupt::flag()?;
    let ready = |bound: SocketAddr| {
        if bound.ip().is_unspecified() {
            let port = bound.port();
            println!("waggle web: open http://127.0.0.1:{port}/ in a browser (Ctrl-C stops)");
            let names: Vec<String> = machine_names()
                .iter()
                .map(|name| format!("http://{name}:{port}/"))
                .collect();
            let names = if names.is_empty() {
                String::new()
            } else {
                format!(" ({})", names.join(" or "))
            };
            println!("waggle web: on another device of this network, open this machine's address or name{names}");
        } else {
            println!("waggle web: open http://{bound}/ in a browser (Ctrl-C stops)");
        }
    };
    serve(&args.listen, ready, &stop, config).map_err(|error| super::serving_error(&args.listen, error))?;
    eprintln!("waggle web: stopped");
    Ok(interrupt::exit_code())
}
