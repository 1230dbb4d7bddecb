//! `waggle match`: UHP engines played against each other, every move judged by Waggle's rules; `waggle match
//! merge` sums up the results files of a match's shards. The first Ctrl-C lets the games in progress finish,
//! the second abandons them; the summary follows either way.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args as ClapArgs, Subcommand};
use waggle::arena::{
    merge, play_match, read_openings, EngineSpec, GameSettings, MatchConfig, MatchControl, MoveLimit, Openings, Shard,
    SprtSettings,
};
use waggle::GameType;

use super::{interrupt, parse_seconds};

#[derive(ClapArgs)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<MatchCommand>,
    /// Each engine's command line, quoted as one argument (split as a shell would). Two engines play a match;
    /// three or more a round robin.
    #[arg(value_name = "ENGINE", required = true, num_args = 2..)]
    engines: Vec<String>,
    /// The name of an engine, in the order the engines are given (repeat for each; default: its `id` line).
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// The first engine against each of the others, not everyone against everyone.
    #[arg(long)]
    gauntlet: bool,
    /// Games for each pairing of engines (rounded up to an even number: each opening is played twice).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Fixed time per move, in seconds (sent as `bestmove time hh:mm:ss[.fffffff]`).
    #[arg(long, value_name = "SECONDS", group = "limit", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// Fixed depth per move (`bestmove depth N`).
    #[arg(long, value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// Fixed nodes per move (`bestmove nodes N`, which Waggle understands): games that do not depend on the
    /// machine's speed or load.
    #[arg(long, value_name = "N", group = "limit")]
    nodes: Option<u64>,
    /// A chess clock, BASE+INC in seconds (for example 10+0.1).
    #[arg(long, value_name = "BASE+INC", group = "limit", value_parser = parse_clock)]
    clock: Option<(Duration, Duration)>,
    /// How late, in seconds, a reply may be past its time or its clock before it forfeits the game.
    #[arg(long, value_name = "SECONDS", default_value = "0.05", value_parser = parse_seconds)]
    margin: Duration,
    /// How long, in seconds, any other reply may take (newgame, play, bestmove at a fixed depth).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    timeout: Duration,
    /// Random plies of each opening.
    #[arg(long, value_name = "PLIES", default_value_t = 4)]
    openings: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings from a file: GameStrings one a line, or a Mzinga .pgn file.
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// Game type of the random openings.
    #[arg(long, value_name = "TYPE", default_value = "Base+MLP")]
    game_type: GameType,
    /// Adjudicate a game as a draw after this many plies (0: never).
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    max_plies: usize,
    /// Adjudicate a game as a draw when a position occurs for the third time (and set ThreefoldRepetitionDraw on in
    /// the engines that offer it).
    #[arg(long)]
    threefold: bool,
    /// Stop once a sequential probability ratio test decides, e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "SETTINGS")]
    sprt: Option<SprtSettings>,
    /// Write one Mzinga .pgn file per game into this directory.
    #[arg(long, value_name = "DIR")]
    pgn: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Play only the I-th of N disjoint slices of the schedule (for spreading a match over machines).
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Write each game's result to this file (default with --shard: shard-I-of-N.results).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
}

#[derive(Subcommand)]
enum MatchCommand {
    /// Sum up the results files of the shards of one match, or of several runs of it from other openings.
    Merge {
        /// The results files.
        #[arg(required = true)]
        files: Vec<String>,
    },
}

/// `BASE+INC` in seconds (`10+0.1`; `10` alone has no increment).
fn parse_clock(text: &str) -> Result<(Duration, Duration), String> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let expected = |e: String| format!("expected BASE+INC in seconds, as 10+0.1 ({e})");
    Ok((
        parse_seconds(base).map_err(expected)?,
        parse_seconds(increment).map_err(expected)?,
    ))
}

pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(MatchCommand::Merge { files }) = args.merge {
        merge(&files, &mut io::stdout().lock()).context("merging results")?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.names.len() > args.engines.len() {
        bail!("{} names for {} engines", args.names.len(), args.engines.len());
    }
    let limit = match (args.time, args.depth, args.nodes, args.clock) {
        (Some(time), ..) => MoveLimit::Time(time),
        (_, Some(depth), ..) => MoveLimit::Depth(depth),
        (_, _, Some(nodes), _) => MoveLimit::Nodes(nodes),
        (_, _, _, Some((base, increment))) => MoveLimit::Clock { base, increment },
        _ => bail!("give one of --time SECONDS, --depth PLIES, --nodes N or --clock BASE+INC"),
    };
    let openings = match &args.book {
        Some(path) => Openings::Book(read_openings(path)?),
        None => Openings::Random {
            plies: args.openings,
            seed: args.seed,
        },
    };
    let results_file = args.results.or_else(|| {
        args.shard
            .map(|s| PathBuf::from(format!("shard-{}-of-{}.results", s.index, s.count)))
    });
    let config = MatchConfig {
        engines: args
            .engines
            .iter()
            .enumerate()
            .map(|(i, command)| EngineSpec {
                command: command.clone(),
                name: args.names.get(i).cloned(),
            })
            .collect(),
        gauntlet: args.gauntlet,
        games: args.games,
        game_type: args.game_type,
        openings,
        settings: GameSettings {
            limit,
            margin: args.margin,
            timeout: args.timeout,
            max_plies: (args.max_plies > 0).then_some(args.max_plies),
            threefold: args.threefold,
        },
        sprt: args.sprt,
        concurrency: args.concurrency,
        shard: args.shard.unwrap_or(Shard::ALL),
        pgn_dir: args.pgn,
        results_file,
    };
    // The engines run in process groups of their own, so the terminal's Ctrl-C reaches only this process. The
    // handler acts before it speaks: a print can wait on stderr, and no press may wait behind it.
    let control = MatchControl::default();
    let handle = control.clone();
    interrupt::on_press(move |presses| match presses {
        1 => {
            handle.finish_running_games();
            eprintln!(
                "\nwaggle match: no new game starts; the games in progress finish (Ctrl-C again to abandon them)"
            );
        }
        2 => {
            handle.abandon_running_games();
            eprintln!("\nwaggle match: abandoning the games in progress");
        }
        _ => std::process::exit(i32::from(interrupt::INTERRUPTED)),
    })?;
    // The progress line takes stderr's lock for each write only: held for the whole match, it kept the Ctrl-C
    // handler's message (and so every press) waiting until the match had ended.
    let mut terminal = io::stderr();
    let progress = if terminal.is_terminal() {
        Some(&mut terminal as &mut dyn Write)
    } else {
        None
    };
    let outcome = play_match(&config, &control, &mut io::stdout().lock(), progress)?;
    Ok(if outcome.interrupted() {
        interrupt::exit_code()
    } else {
        ExitCode::SUCCESS
    })
}
