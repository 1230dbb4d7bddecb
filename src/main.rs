//! The `waggle` command line: it parses the arguments and hands each subcommand to its file in `cli/`, the only
//! code that uses `anyhow`, reads stdin or handles signals. With no subcommand it is the UHP engine.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) speaking the Universal Hive Protocol.
///
/// With no subcommand it reads UHP commands on stdin and answers on stdout, as Mzinga.Viewer and other viewers
/// expect (type `help` for the commands); the engine flags below set its options. Each subcommand that builds an
/// engine takes those of them it uses after its name (`waggle play --level 3`), with the same meaning.
#[derive(Parser)]
// The version carries the commit the binary was built from, when it was built from a git checkout (build.rs).
// Every subcommand (and its manual page) carries it too.
#[command(
    name = "waggle",
    version = env!("WAGGLE_VERSION"),
    propagate_version = true,
    about,
    long_about,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true
)]
struct Cli {
    #[command(flatten)]
    engine: cli::uhp::Args,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (perft) from a position, one line per depth.
    Perft(cli::perft::Args),
    /// Search a fixed set of positions to a fixed depth (one thread, 16 MB table): per position and in total,
    /// nodes and nodes per second. The total node count is the search's signature.
    Bench(cli::bench::Args),
    #[cfg(feature = "play")]
    /// Play a game against Waggle at the terminal: type moves in UHP notation; Waggle answers with its own.
    Play(cli::play::Args),
    #[cfg(feature = "tune")]
    /// Play Waggle against itself and write the games (one `RESULT<TAB>GAMESTRING` a line) for the tuner. Runs
    /// on several machines with different seeds merge by concatenating their files.
    Selfplay(cli::selfplay::Args),
    #[cfg(feature = "datagen")]
    /// Play Waggle against itself and write every position where the side to move had a choice, with the search's
    /// score and the game's result, as 64-byte training records for `waggle train`. A seed and the flags make the
    /// same file again; shards of one run join with `cat`.
    Datagen(cli::datagen::Args),
    #[cfg(feature = "train")]
    /// Train a network evaluation on training positions (`waggle datagen`'s files): the best net so far and a
    /// checkpoint written after each epoch; --resume goes on from the checkpoint.
    Train(cli::train::Args),
    #[cfg(feature = "tune")]
    /// Fit the evaluation's weights to the results of self-play games (Texel tuning); prints the weights found.
    Tune(cli::tune::Args),
    #[cfg(feature = "tune")]
    /// Learn an opening book from self-play games (`waggle selfplay`, best with few random plies): for each
    /// position of the first plies, the move whose games scored best, backed up as minimax. Prints the book in the
    /// format of src/book/book.txt, each move's rivals as comments.
    Book(cli::book::Args),
    /// Draw a position: as text (hexes; coloured on a terminal unless NO_COLOR is set), or as an SVG picture.
    Draw(cli::draw::Args),
    /// Write games read from any record (BoardSpace .sgf, .pgn, GameStrings) as a Mzinga .pgn or as GameStrings.
    Convert(cli::convert::Args),
    #[cfg(feature = "json")]
    /// Answer the Hive AI-module JSON API: one request a line on stdin, one response a line on stdout, or over
    /// HTTP with --listen.
    Json(cli::json::Args),
    #[cfg(feature = "review")]
    /// Judge every move of games: marks (inaccuracy, mistake, blunder, missed win), each side's accuracy, the
    /// turning points; the games with the judgements as comments (--pgn) and a chart of the win chance (--svg).
    Review(cli::review::Args),
    #[cfg(feature = "db")]
    /// The games database: import records (`add`), explore the moves played from a position (`explore`), list
    /// and write out games (`games`), count them (`stats`).
    Db(cli::db::Args),
    /// Find puzzles in games: positions where exactly one move forces a win (or escapes a forced loss) within N
    /// plies, proved by search, written one JSON record a line (docs/puzzles.md).
    #[cfg(feature = "puzzles")]
    Puzzles(cli::puzzles::Args),
    /// Solve puzzles at the terminal: from a file `waggle puzzles` wrote, or the built-in set.
    #[cfg(feature = "puzzles")]
    Puzzle(cli::puzzle::Args),
    #[cfg(feature = "web")]
    /// Play, analyse and review Hive in a browser: serves a page and its JSON API (default 127.0.0.1:8080).
    Web(cli::web::Args),
    #[cfg(feature = "arena")]
    /// Play UHP engines against each other and say which is stronger (`waggle match merge FILES…` sums up the
    /// results files of the shards of one match).
    Match(Box<cli::arena::Args>),
    /// Print the shell completion script for waggle (for bash: `source <(waggle completions bash)`).
    Completions(cli::completions::Args),
    /// Print the manual page, in roff (`waggle man | man -l -`), or write every page with --dir.
    Man(cli::man::Args),
    /// Print the help of waggle or of a subcommand (`waggle help play`), as --help prints it.
    Help(cli::help::Args),
}

fn main() -> ExitCode {
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|error| cli::usage::refuse(error, &Cli::command()));
    // Errors are said in the name of the subcommand that met them (`waggle draw: …`), or of the engine (`waggle: …`).
    let speaker = match matches.subcommand_name() {
        Some(name) => format!("waggle {name}"),
        None => "waggle".to_string(),
    };
    let Cli { engine, command } = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let result = match command {
        None => cli::uhp::run(engine),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        #[cfg(feature = "play")]
        Some(Command::Play(args)) => cli::play::run(args),
        #[cfg(feature = "tune")]
        Some(Command::Selfplay(args)) => cli::selfplay::run(args),
        #[cfg(feature = "datagen")]
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        #[cfg(feature = "train")]
        Some(Command::Train(args)) => cli::train::run(args),
        #[cfg(feature = "tune")]
        Some(Command::Tune(args)) => cli::tune::run(args),
        #[cfg(feature = "tune")]
        Some(Command::Book(args)) => cli::book::run(args),
        Some(Command::Draw(args)) => cli::draw::run(args),
        Some(Command::Convert(args)) => cli::convert::run(args),
        #[cfg(feature = "json")]
        Some(Command::Json(args)) => cli::json::run(args),
        #[cfg(feature = "review")]
        Some(Command::Review(args)) => cli::review::run(args),
        #[cfg(feature = "db")]
        Some(Command::Db(args)) => cli::db::run(args),
        #[cfg(feature = "puzzles")]
        Some(Command::Puzzles(args)) => cli::puzzles::run(args),
        #[cfg(feature = "puzzles")]
        Some(Command::Puzzle(args)) => cli::puzzle::run(args),
        #[cfg(feature = "web")]
        Some(Command::Web(args)) => cli::web::run(args),
        #[cfg(feature = "arena")]
        Some(Command::Match(args)) => cli::arena::run(*args),
        Some(Command::Completions(args)) => cli::completions::run(args, Cli::command()),
        Some(Command::Man(args)) => cli::man::run(args, Cli::command()),
        Some(Command::Help(args)) => cli::help::run(args, Cli::command()),
    };
    match result {
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
            eprintln!("{speaker}: {e:#}");
            ExitCode::FAILURE
        }
    }
}
