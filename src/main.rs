//! The `waggle` command line: the UHP engine (default), perft and the search bench. The only place that uses
//! `anyhow`, reads stdin or handles signals.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use waggle::arena::stats::SprtSettings;
use waggle::arena::{
    console, openings, EngineSpec, GameSettings, MatchConfig, MatchControl, MoveLimit, Openings, Shard,
};
use waggle::engine::{Engine, Options, DEFAULT_HASH_MB};
use waggle::perft::{divide_until, perft_by_depth};
use waggle::protocol::{Event, Session};
use waggle::GameType;
use waggle::{bench, move_string, Position};

mod cli;

use cli::interrupt;

/// Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) speaking the Universal Hive Protocol.
///
/// With no subcommand it reads UHP commands on stdin and answers on stdout, as Mzinga.Viewer and other viewers
/// expect (type `help` for the commands). `waggle perft` counts move sequences; `waggle bench` times the search.
#[derive(Parser)]
#[command(name = "waggle", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Transposition table size in MB (UHP option MaxHashSize, 1 to 4096).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    max_hash_size: u64,
    /// Print `Move;Depth;Score;PV…` lines while thinking (UHP option ReportIntermediateBestMoves).
    #[arg(long)]
    report_intermediate_best_moves: bool,
    /// End the game as a draw when a position occurs for the third time (UHP option ThreefoldRepetitionDraw).
    #[arg(long)]
    threefold_repetition_draw: bool,
    /// Search threads, the first included (UHP option MaxHelperThreads: threads − 1 helpers); 0 for one per core.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Think while waiting for a command: Disabled, SingleThreaded or MultiThreaded (UHP option PonderDuringIdle).
    #[arg(long, value_name = "MODE", default_value = "Disabled")]
    ponder_during_idle: String,
    /// Play the opening book's moves where it has one: True or False (UHP option OpeningBook).
    #[arg(long, value_name = "BOOL", default_value = "True")]
    opening_book: String,
    /// Also print each completed depth's search information to stderr.
    #[arg(long)]
    verbose: bool,
    /// Evaluate with the weights in this file (`name value` lines, as `waggle tune` writes them; a `[GameType]`
    /// header starts a set for that game type)
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (perft) from a position, one line per depth.
    Perft {
        /// Also print the count under each move at the last depth.
        #[arg(long)]
        divide: bool,
        /// Deepest depth to count.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// A GameTypeString (Base, Base+MLP …) or a whole GameString.
        #[arg(default_value = "Base")]
        game: String,
    },
    /// Search a fixed set of positions to a fixed depth (one thread, 16 MB table): per position and in total,
    /// nodes and nodes per second. The total node count is the search's signature.
    Bench {
        /// Depth of every search.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads (the signature holds for one thread only: more make the node counts vary).
        #[arg(long, value_name = "N", default_value_t = 1)]
        threads: usize,
    },
    /// Play a game against Waggle at the terminal: type moves in UHP notation; Waggle answers with its own.
    Play {
        /// The side you play: white, black or random.
        #[arg(long, value_name = "SIDE", default_value = "white")]
        color: String,
        /// The game type (Base, Base+M … Base+MLP).
        #[arg(long, value_name = "TYPE", default_value = "Base+MLP")]
        game_type: GameType,
        /// How long Waggle thinks over each move, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
        time: f64,
        /// Start from this GameString instead of a new game.
        #[arg(long, value_name = "GAMESTRING")]
        from: Option<String>,
    },
    /// Play Waggle against itself and write the games (one `RESULT<TAB>GAMESTRING` a line) for the tuner. Runs
    /// on several machines with different seeds merge by concatenating their files.
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nodes per move (give or take a fifth).
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Random plies of each opening.
        #[arg(long, value_name = "PLIES", default_value_t = 6)]
        openings: usize,
        /// A game still going after this many plies is a draw.
        #[arg(long, value_name = "PLIES", default_value_t = 300)]
        max_plies: usize,
        /// Seed of the openings (use a different one on each machine).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The game type.
        #[arg(long, value_name = "TYPE", default_value = "Base+MLP")]
        game_type: GameType,
        /// Games played at once.
        #[arg(long, value_name = "N", default_value_t = 1)]
        threads: usize,
        /// Write the games here instead of to standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Fit the evaluation's weights to the results of self-play games (Texel tuning); prints the weights found.
    Tune {
        /// Files of games written by `waggle selfplay`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Leave out the positions of the first plies of each game (the random opening).
        #[arg(long, value_name = "PLIES", default_value_t = 8)]
        skip: usize,
        /// Steps of gradient descent.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Step size.
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// Write the weights found to this file (for `waggle --weights FILE`).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Learn an opening book from self-play games (`waggle selfplay`, best with few random plies): for each
    /// position of the first plies, the move whose games scored best, backed up as minimax. Prints the book in the
    /// format of src/book/book.txt, each move's rivals as comments.
    Book {
        /// Files of games written by `waggle selfplay`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Book moves for positions of up to this many plies from the start (1: White's first move only).
        #[arg(long, default_value_t = 2)]
        plies: usize,
        /// Games a move needs to be weighed (and a position to get a book move).
        #[arg(long, value_name = "GAMES", default_value_t = 100)]
        min_games: u32,
    },
    /// Draw a position: as text (hexes; coloured on a terminal unless NO_COLOR is set), or as an SVG picture.
    Draw {
        /// Write an SVG picture to this file ('-' for standard output) instead of drawing text.
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// A GameString (or a GameTypeString).
        game: String,
    },
    /// Answer the Hive AI-module JSON API: one request a line on stdin, one response a line on stdout, or over
    /// HTTP with --listen.
    Json {
        /// Serve HTTP on this address (for example 127.0.0.1:8080), one request per POST body.
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
    },
    /// Play UHP engines against each other and say which is stronger (`waggle match merge FILES…` sums up the
    /// results files of the shards of one match).
    Match(Box<MatchArgs>),
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct MatchArgs {
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
    #[arg(long, value_name = "SECONDS", group = "limit")]
    time: Option<f64>,
    /// Fixed depth per move (`bestmove depth N`).
    #[arg(long, value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// Fixed nodes per move (`bestmove nodes N`, which Waggle understands): games that do not depend on the
    /// machine's speed or load.
    #[arg(long, value_name = "N", group = "limit")]
    nodes: Option<u64>,
    /// A chess clock, BASE+INC in seconds (for example 10+0.1).
    #[arg(long, value_name = "BASE+INC", group = "limit")]
    clock: Option<String>,
    /// How late, in seconds, a reply may be past its time or its clock before it forfeits the game.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.05)]
    margin: f64,
    /// How long, in seconds, any other reply may take (newgame, play, bestmove at a fixed depth).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    timeout: f64,
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
    /// Adjudicate a game as a draw when a position occurs for the third time.
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
    /// Sum up the results files of the shards of one match.
    Merge {
        /// The results files.
        #[arg(required = true)]
        files: Vec<String>,
    },
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        // Whoever read our output has gone (`waggle perft … | head`): that is not a failure.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("waggle: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    let done = |result: Result<()>| result.map(|()| ExitCode::SUCCESS);
    match cli.command {
        Some(Command::Perft {
            divide: show,
            depth,
            game,
        }) => run_perft(&game, depth, show),
        Some(Command::Bench { depth, threads }) => run_bench(depth, threads),
        Some(Command::Match(args)) => run_match(*args),
        Some(Command::Json { listen }) => run_json(listen.as_deref()),
        Some(Command::Draw { svg, game }) => done(run_draw(&game, svg.as_deref())),
        Some(Command::Selfplay {
            games,
            nodes,
            openings,
            max_plies,
            seed,
            game_type,
            threads,
            out,
        }) => {
            let settings = waggle::tune::selfplay::SelfPlay {
                games,
                game_type,
                opening_plies: openings,
                nodes,
                max_plies,
                seed,
                weights: weights(cli.weights.as_deref())?,
            };
            run_selfplay(&settings, threads, out)
        }
        Some(Command::Tune {
            files,
            skip,
            iterations,
            learning_rate,
            out,
        }) => run_tune(
            &files,
            skip,
            iterations,
            learning_rate,
            weights(cli.weights.as_deref())?,
            out,
        ),
        Some(Command::Book {
            files,
            plies,
            min_games,
        }) => done(run_book(&files, waggle::book::learn::Learning { plies, min_games })),
        Some(Command::Play {
            color,
            game_type,
            time,
            from,
        }) => done(run_play(&color, game_type, time, from)),
        None => {
            let defaults = Options::default();
            let options = defaults
                .with("MaxHelperThreads", &helpers(cli.threads)?)?
                .with("PonderDuringIdle", &cli.ponder_during_idle)?
                .with("OpeningBook", &cli.opening_book)?;
            let options = Options {
                max_hash_size: cli.max_hash_size as usize,
                report_intermediate_best_moves: cli.report_intermediate_best_moves,
                threefold_repetition_draw: cli.threefold_repetition_draw,
                ..options
            };
            run_engine(options, cli.verbose, weights(cli.weights.as_deref())?)
        }
    }
}

/// The MaxHelperThreads value for `threads` search threads (0: one per core).
fn helpers(threads: usize) -> Result<String> {
    match threads {
        0 => Ok("Auto".into()),
        1 => Ok("None".into()),
        n if n <= waggle::engine::cores() => Ok((n - 1).to_string()),
        n => bail!("--threads {n}: this machine has {} cores", waggle::engine::cores()),
    }
}

/// The UHP loop. Stdin is read on its own thread, so that the session goes on working (a search, pondering)
/// while it waits for lines, notices the end of input at once, and can be interrupted: SIGINT stops a running
/// search (the move found so far is still printed) and ends the process when idle.
fn run_engine(options: Options, verbose: bool, weights: waggle::eval::WeightSets) -> Result<ExitCode> {
    let mut engine = Engine::new(options).context("starting the engine")?;
    engine.set_weights(weights);
    let stdout = io::stdout();
    let mut session = Session::new(stdout.lock(), engine);
    session.set_verbose(verbose);
    let interrupts = session.sender();
    interrupt::on_press(move |_| {
        if interrupts.send(Event::Interrupt).is_err() {
            std::process::exit(0);
        }
    })?;
    session.start()?;
    let lines = session.sender();
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            // Bytes, not `lines()`: a line that is not UTF-8 gets an `err` like any other bad input instead of
            // ending the session.
            match stdin.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if lines.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = lines.send(Event::End);
    });
    match session.run() {
        // The reader of stdout is gone: nobody is listening any more.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e).context("writing to stdout"),
        Ok(()) if session.interrupted() => Ok(interrupt::exit_code()),
        Ok(()) => Ok(ExitCode::SUCCESS),
    }
}

/// Count, depth by depth; Ctrl-C stops the count at once and says how far the depth in progress got.
fn run_perft(game: &str, depth: u32, show_divide: bool) -> Result<ExitCode> {
    let mut pos = Position::from_game_string(game).context("reading the position")?;
    let stop = interrupt::flag()?;
    for counted in perft_by_depth(&pos, depth, &stop) {
        match counted {
            Ok(timed) => writeln!(io::stdout(), "{timed}")?,
            Err(interrupted) => return Ok(stopped(interrupted)),
        }
    }
    if show_divide && depth > 0 {
        match divide_until(&mut pos, depth, &stop) {
            Ok(counts) => {
                for (mv, count) in counts {
                    writeln!(io::stdout(), "{}: {count}", move_string(&pos, mv))?;
                }
            }
            Err(interrupted) => return Ok(stopped(interrupted)),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A perft that Ctrl-C ended: how far it got, on stderr (stdout holds only complete counts).
fn stopped(interrupted: waggle::perft::Interrupted) -> ExitCode {
    eprintln!("waggle perft: {interrupted}");
    interrupt::exit_code()
}

/// The bench; Ctrl-C stops it at the position in progress and prints the total of those done (no signature).
fn run_bench(depth: u32, threads: usize) -> Result<ExitCode> {
    let mut bench = bench::Bench::new(depth, threads.max(1) - 1).context("starting the bench")?;
    let interrupted = Arc::new(AtomicBool::new(false));
    let (flag, stopper) = (interrupted.clone(), bench.stopper());
    interrupt::on_press(move |_| {
        flag.store(true, Ordering::SeqCst);
        stopper.stop();
    })?;
    let mut stdout = io::stdout().lock();
    let mut failure = None;
    let total = bench
        .run(&interrupted, |line| {
            let written = writeln!(
                stdout,
                "{:<14} {:>10} nodes {:>8.1} ms  score {:>6}  best {}",
                line.name,
                line.nodes,
                line.elapsed.as_secs_f64() * 1e3,
                line.score,
                line.best
            );
            if let (Err(e), None) = (written, &failure) {
                failure = Some(e);
            }
        })
        .context("running the bench")?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    let (nodes, elapsed) = (total.nodes, total.elapsed);
    let speed = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    if total.interrupted {
        writeln!(
            stdout,
            "bench depth {depth} interrupted after {} of {} positions: {nodes} nodes in {:.3} s, {speed:.0} nodes/s \
             (no signature)",
            total.positions,
            bench::POSITIONS.len(),
            elapsed.as_secs_f64()
        )?;
        return Ok(interrupt::exit_code());
    }
    writeln!(
        stdout,
        "bench depth {depth}: {nodes} nodes in {:.3} s, {speed:.0} nodes/s",
        elapsed.as_secs_f64()
    )?;
    writeln!(stdout, "signature {nodes}")?;
    Ok(ExitCode::SUCCESS)
}

fn run_match(args: MatchArgs) -> Result<ExitCode> {
    if let Some(MatchCommand::Merge { files }) = args.merge {
        console::merge(&files, &mut io::stdout().lock()).context("merging results")?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.names.len() > args.engines.len() {
        bail!("{} names for {} engines", args.names.len(), args.engines.len());
    }
    let seconds = |what: &str, s: f64| -> Result<Duration> {
        Duration::try_from_secs_f64(s).with_context(|| format!("{what}: {s} is not a number of seconds"))
    };
    let limit = match (args.time, args.depth, &args.clock) {
        _ if args.nodes.is_some() => MoveLimit::Nodes(args.nodes.unwrap_or_default()),
        (Some(time), None, None) => MoveLimit::Time(seconds("--time", time)?),
        (None, Some(depth), None) => MoveLimit::Depth(depth),
        (None, None, Some(clock)) => {
            let (base, increment) = clock.split_once('+').unwrap_or((clock, "0"));
            let number = |t: &str| {
                t.trim()
                    .parse::<f64>()
                    .with_context(|| format!("--clock {clock}: expected BASE+INC in seconds"))
            };
            MoveLimit::Clock {
                base: seconds("--clock", number(base)?)?,
                increment: seconds("--clock", number(increment)?)?,
            }
        }
        _ => bail!("give one of --time SECONDS, --depth PLIES, --nodes N or --clock BASE+INC"),
    };
    let openings = match &args.book {
        Some(path) => Openings::Book(openings::read_book(path)?),
        None => Openings::Random {
            plies: args.openings,
            seed: args.seed,
        },
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
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
            margin: seconds("--margin", args.margin)?,
            timeout: seconds("--timeout", args.timeout)?,
            max_plies: (args.max_plies > 0).then_some(args.max_plies),
            threefold: args.threefold,
        },
        sprt: args.sprt,
        concurrency: args.concurrency,
        shard,
        pgn_dir: args.pgn,
        results_file,
    };
    // The first Ctrl-C lets the games in progress finish, the second abandons them; the summary follows either
    // way. The engines run in process groups of their own, so the terminal's Ctrl-C does not reach them.
    let control = MatchControl::default();
    let handle = control.clone();
    interrupt::on_press(move |presses| match presses {
        1 => {
            eprintln!(
                "\nwaggle match: no new game starts; the games in progress finish (Ctrl-C again to abandon them)"
            );
            handle.finish_running_games();
        }
        2 => {
            eprintln!("\nwaggle match: abandoning the games in progress");
            handle.abandon_running_games();
        }
        _ => std::process::exit(i32::from(interrupt::INTERRUPTED)),
    })?;
    let stderr = io::stderr();
    let mut progress = stderr.is_terminal().then(|| stderr.lock());
    let progress = progress.as_mut().map(|p| p as &mut dyn Write);
    let outcome = console::play_match(&config, &control, &mut io::stdout().lock(), progress)?;
    Ok(if outcome.interrupted {
        interrupt::exit_code()
    } else {
        ExitCode::SUCCESS
    })
}

/// The JSON API. Ctrl-C ends it and says how many requests it answered: over HTTP once the requests in progress
/// are answered, on stdio at once.
fn run_json(listen: Option<&str>) -> Result<ExitCode> {
    match listen {
        None => {
            let answered = Arc::new(AtomicU64::new(0));
            let count = answered.clone();
            interrupt::on_press(move |_| {
                eprintln!(
                    "waggle json: interrupted after answering {} requests",
                    count.load(Ordering::SeqCst)
                );
                std::process::exit(i32::from(interrupt::INTERRUPTED));
            })?;
            waggle::json::serve_lines(io::stdin().lock(), io::stdout().lock(), &answered)
                .context("serving JSON on stdio")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(addr) => {
            let stop = interrupt::flag()?;
            let answered = waggle::json::serve_http(
                addr,
                |bound| eprintln!("waggle json: listening on http://{bound}"),
                &stop,
            )
            .with_context(|| format!("serving JSON on {addr}"))?;
            eprintln!("waggle json: stopped after answering {answered} requests");
            Ok(interrupt::exit_code())
        }
    }
}

fn run_draw(game: &str, svg: Option<&str>) -> Result<()> {
    let pos = Position::from_game_string(game).context("reading the position")?;
    let last_move = waggle::draw::last_move(&pos);
    match svg {
        Some(path) => {
            let caption = format!(
                "{} · {} · {} to move",
                pos.game_type(),
                pos.state(),
                pos.to_move().name()
            );
            let picture = waggle::draw::svg(
                &pos,
                &waggle::draw::SvgStyle {
                    last_move,
                    caption: Some(caption),
                },
            );
            if path == "-" {
                io::stdout().write_all(picture.as_bytes())?;
            } else {
                std::fs::write(path, picture).with_context(|| format!("writing {path}"))?;
            }
        }
        None => {
            let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let style = waggle::draw::TextStyle {
                color,
                marks: Vec::new(),
                last_move,
            };
            write!(io::stdout(), "{}", waggle::draw::describe(&pos, &style))?;
        }
    }
    Ok(())
}

fn run_play(color: &str, game_type: GameType, time: f64, from: Option<String>) -> Result<()> {
    use waggle::play::{run, Lines, Plain, PlayConfig};
    let person = match color.to_ascii_lowercase().as_str() {
        "white" | "w" => waggle::Color::White,
        "black" | "b" => waggle::Color::Black,
        "random" => waggle::Color::ALL[usize::from(rand::random::<bool>())],
        other => bail!("--color {other}: expected white, black or random"),
    };
    let config = PlayConfig {
        person,
        start: from.unwrap_or_else(|| game_type.to_string()),
        think: Duration::try_from_secs_f64(time).with_context(|| format!("--time {time}: not a number of seconds"))?,
        color: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    /// Lines from a terminal, with line editing and history.
    struct Editor(rustyline::DefaultEditor);
    impl Lines for Editor {
        fn read(&mut self, prompt: &str) -> Option<String> {
            loop {
                match self.0.readline(prompt) {
                    Ok(line) => {
                        let _ = self.0.add_history_entry(line.as_str());
                        return Some(line);
                    }
                    // Ctrl+C abandons the line being typed.
                    Err(rustyline::error::ReadlineError::Interrupted) => continue,
                    Err(_) => return None,
                }
            }
        }

        fn shows_prompt(&self) -> bool {
            true
        }
    }
    let engine = Engine::new(Options::default()).context("starting the engine")?;
    // Ctrl-C while Waggle thinks makes it move at once; at a prompt the line editor takes it (the line typed is
    // dropped), and with input from a pipe it ends the game.
    let stopper = engine.stopper();
    interrupt::on_press(move |_| {
        if stopper.is_searching() {
            stopper.stop();
        } else {
            eprintln!("\nwaggle play: interrupted");
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let mut out = io::stdout().lock();
    if io::stdin().is_terminal() {
        let mut editor = Editor(rustyline::DefaultEditor::new().context("starting the line editor")?);
        run(engine, &config, &mut editor, &mut out)?;
    } else {
        run(engine, &config, &mut Plain(io::stdin().lock()), &mut out)?;
    }
    Ok(())
}

/// The evaluation weights: the defaults, or those of the file at `path`.
fn weights(path: Option<&str>) -> Result<waggle::eval::WeightSets> {
    match path {
        None => Ok(waggle::eval::WeightSets::default()),
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
            waggle::eval::WeightSets::parse(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))
        }
    }
}

/// Self-play. The first Ctrl-C starts no new game (those in progress finish and are written), the second ends it at
/// once; either way it says how many games were written.
fn run_selfplay(settings: &waggle::tune::selfplay::SelfPlay, threads: usize, out: Option<PathBuf>) -> Result<ExitCode> {
    let mut sink: Box<dyn Write> = match &out {
        Some(path) => Box::new(io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => Box::new(io::stdout().lock()),
    };
    let where_to = out
        .as_ref()
        .map_or("standard output".to_string(), |p| p.display().to_string());
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicU64::new(0));
    let (flag, count, total, place) = (stop.clone(), written.clone(), settings.games, where_to.clone());
    interrupt::on_press(move |presses| {
        if presses == 1 {
            eprintln!("\nwaggle selfplay: no new game starts; the games in progress finish (Ctrl-C again to quit now)");
            flag.store(true, Ordering::SeqCst);
        } else {
            eprintln!(
                "\nwaggle selfplay: interrupted: {} of {total} games written to {place}",
                count.load(Ordering::SeqCst)
            );
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let mut failure = None;
    waggle::tune::selfplay::play(settings, threads, &stop, |record| {
        if failure.is_none() {
            match writeln!(sink, "{}", record.to_line()).and_then(|_| sink.flush()) {
                Ok(()) => {
                    written.fetch_add(1, Ordering::SeqCst);
                }
                Err(e) => failure = Some(e),
            }
        }
        if io::stderr().is_terminal() {
            eprint!("\rgames {} of {}", written.load(Ordering::SeqCst), settings.games);
        }
    });
    if let Some(e) = failure {
        return Err(e).context("writing the games");
    }
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "\nwaggle selfplay: interrupted: {} of {} games written to {where_to}",
            written.load(Ordering::SeqCst),
            settings.games
        );
        return Ok(interrupt::exit_code());
    }
    Ok(ExitCode::SUCCESS)
}

/// The games of the self-play data files `files`, all of them.
fn read_games(files: &[String]) -> Result<Vec<waggle::tune::data::Record>> {
    let mut records = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).with_context(|| format!("opening {path}"))?;
        records.extend(waggle::tune::data::read(io::BufReader::new(file)).with_context(|| format!("reading {path}"))?);
    }
    Ok(records)
}

fn run_book(files: &[String], learning: waggle::book::learn::Learning) -> Result<()> {
    let records = read_games(files)?;
    let learnt = waggle::book::learn::learn(&records, learning);
    let mut stdout = io::stdout().lock();
    writeln!(
        stdout,
        "# Learnt by `waggle book --plies {} --min-games {}` from {} games.",
        learning.plies,
        learning.min_games,
        records.len()
    )?;
    writeln!(
        stdout,
        "# POSITION<TAB>MOVE<TAB>GAMES<TAB>SCORE (for the side to move); rivals as comments."
    )?;
    for entry in learnt {
        writeln!(stdout, "{}", entry.line)?;
        for other in &entry.others {
            writeln!(stdout, "#   rival: {other}")?;
        }
    }
    Ok(())
}

fn run_tune(
    files: &[String],
    skip: usize,
    iterations: usize,
    learning_rate: f64,
    start: waggle::eval::WeightSets,
    out: Option<PathBuf>,
) -> Result<ExitCode> {
    use waggle::eval::Feature;
    use waggle::tune::{data, fit};
    let records = read_games(files)?;
    let samples = data::samples(&records, skip).context("replaying the games")?;
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{} games, {} positions", records.len(), samples.len())?;
    let settings = fit::FitSettings {
        iterations,
        learning_rate,
        ..fit::FitSettings::default()
    };
    // The fit starts from the weights of the games' game type (that of the first game).
    let game_type = records.first().map_or(GameType::MLP, |r| r.game.game_type);
    let start = *start.for_game(game_type);
    // Ctrl-C ends the descent where it is: the weights so far are printed (and written) as any fit's are.
    let stop = interrupt::flag()?;
    let found = fit::fit(&samples, &start, &settings, &stop);
    let interrupted = found.iterations < iterations;
    if interrupted {
        writeln!(
            stdout,
            "interrupted after {} of {iterations} iterations",
            found.iterations
        )?;
    }
    writeln!(
        stdout,
        "scale {:.4}; mean squared error {:.6} -> {:.6}",
        found.scale, found.error_before, found.error_after
    )?;
    for feature in Feature::ALL {
        writeln!(
            stdout,
            "{:<24} {:>6} -> {:>6}",
            feature.name(),
            start.get(feature),
            found.weights.get(feature)
        )?;
    }
    if let Some(path) = out {
        std::fs::write(&path, found.weights.to_text()).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(if interrupted {
        interrupt::exit_code()
    } else {
        ExitCode::SUCCESS
    })
}
