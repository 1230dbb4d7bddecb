//! `waggle db stats`: the database's file and its games counted by game type, year and result; `--json` prints one
//! object with `games` (the total) and the counts.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args as ClapArgs;
use serde_json::json;
use waggle::db::Database;

use super::DbPath;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object: `games` (the total), `by_type`, `by_year`, `by_result`, `files`, `path`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    db: DbPath,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let path = args.db.path()?;
    let database = Database::open_existing(&path)?;
    let stats = database.stats()?;
    if args.json {
        let value = json!({
            "path": path.display().to_string(),
            "games": stats.games,
            "by_type": stats.by_type,
            "by_year": stats.by_year,
            "by_result": stats.by_result,
            "files": stats.files,
        });
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    let files = if stats.files == 1 {
        "1 file".to_string()
    } else {
        format!("{} files", stats.files)
    };
    let mut text = format!("{}: {} games from {files} read whole\n", path.display(), stats.games);
    for (title, counts) in [
        ("By game type", &stats.by_type),
        ("By year", &stats.by_year),
        ("By result", &stats.by_result),
    ] {
        text.push_str(&format!("\n{title}:\n"));
        for (name, count) in counts {
            text.push_str(&format!("  {name:<12} {count:>9}\n"));
        }
    }
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
