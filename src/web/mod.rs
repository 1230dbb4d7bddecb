//! `waggle web`: play, analyse and review Hive in a browser, served by Waggle itself. The page (HTML, CSS and plain
//! ES modules embedded in the binary: `assets`) is thin: every rule, legal move, notation, score and judgement
//! comes from the JSON API under `/api/` (`api`, `search`; docs/web.md documents it), which another front end
//! could use as well.
//!
//! The server keeps no session: every request carries its game as a GameString, so a game lives in its browser tab
//! (and its link), and several servers behind a load balancer serve more people than one. Searches borrow engines
//! from a pool (one search per core's worth of threads; the others wait their turn); a visitor who leaves cancels
//! their search. Requests must name this server (`guard`: Host and Origin). The transport is `crate::http`'s,
//! shared with `waggle json --listen`; every call into the engine is in `engine`. A request is read into a typed
//! route (`route`) and answered by `service`, which hands it to the routes that do not search (`api`) or to those
//! that do (`search`); neither knows the other, and both answer through `reply`. The puzzles' routes (`puzzles`)
//! list the built-in set, read a puzzle file, and judge moves and find a reviewed game's puzzles on engines lent as
//! searches are.

mod api;
mod assets;
mod engine;
mod error;
#[cfg(feature = "db")]
mod explorer;
mod guard;
mod puzzles;
mod reply;
mod request;
mod route;
mod search;
mod service;
mod state;

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use guard::machine_names;

use crate::engine::{HashSize, Options};
use crate::eval::WeightSets;
use crate::http::{self, searches_at_once, Pool, Settings};
use crate::rules::position::Rules;

/// How requests are served: a head must come within 10 s (also the longest a kept-alive connection waits idle),
/// 16 KB of head at most, 256 requests answered at once; a client that closes its side has gone (a tab closed),
/// which ends its streams at once; stopping waits for the connections at most 0.8 s.
const SETTINGS: Settings = Settings {
    head_timeout: Duration::from_secs(10),
    max_head: 16 * 1024,
    answering: 256,
    half_close: false,
    grace: Some(Duration::from_millis(800)),
};

/// The most requests waiting for an engine; more are told the server is busy.
const MAX_WAITING: usize = 64;

/// How the server thinks, and whom it answers.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The options of every engine (each search borrows one from a pool).
    pub options: Options,
    /// The evaluation's weights.
    pub weights: WeightSets,
    /// Names besides its own address that requests may give as their Host (the name of a load balancer in front).
    pub allow_hosts: Vec<String>,
    /// The games database of the opening explorer (made if there is none), if any.
    #[cfg(feature = "db")]
    pub database: Option<std::path::PathBuf>,
}

impl WebConfig {
    /// The options an engine has unless told otherwise: a 32 MB table, the rest as the UHP engine's.
    pub fn default_options() -> Options {
        Options {
            max_hash_size: HashSize::fixed(32),
            ..Options::default()
        }
    }
}

/// Serve the page and its API on `addr` until `stop` is raised (which ends every search); `on_ready` hears the
/// address once listening.
pub fn serve(addr: &str, on_ready: impl FnOnce(SocketAddr), stop: &AtomicBool, config: WebConfig) -> io::Result<()> {
    let engines = searches_at_once(config.options.max_helper_threads);
    let rules = Rules {
        threefold_draw: config.options.threefold_repetition_draw,
    };
    let (options, weights) = (config.options.clone(), config.weights.clone());
    #[cfg(feature = "db")]
    let explorer = match &config.database {
        Some(path) => Some(Arc::new(explorer::Explorer::open(path).map_err(io::Error::other)?)),
        None => None,
    };
    let pool = Pool::new(engines, MAX_WAITING, move || engine::build(&options, &weights));
    let service = Arc::new(service::WebService {
        searching: search::Searching {
            pool: Arc::new(pool),
            rules,
            options: config.options.clone(),
        },
        hosts: OnceLock::new(),
        #[cfg(feature = "db")]
        explorer,
    });
    let named = service.clone();
    let allow = config.allow_hosts.clone();
    http::serve(
        addr,
        move |bound| {
            let _ = named
                .hosts
                .set(guard::Hosts::new(bound, &allow, &guard::machine_names()));
            on_ready(bound);
        },
        stop,
        service,
        SETTINGS,
    )
}
