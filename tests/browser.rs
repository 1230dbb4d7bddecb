//! The page of `waggle web` in a real browser: headless Chromium (Debian's `chromium`) driven by `playwright-core`
//! from npm, with the script `tests/browser/web.mjs`, against `waggle web --listen 127.0.0.1:0`: a whole game by
//! mouse at a desktop's size and one by touch at a phone's, a tablet, every feature; and the Explorer panel with
//! `tests/browser/explorer.mjs`, against a server with a games database and one without. Screenshots of each
//! stage land in `target/browser/`.
//!
//! Without Chromium or the script's node modules the test says loudly that it was skipped and how to install them
//! (on the terminal, past the harness's capture, so that `cargo test` shows it), unless WAGGLE_REQUIRE_BROWSER=1
//! (set by .ci/run), which makes that a failure.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

mod common;

use common::Waggle;

/// How long the whole script may run.
const LIMIT: Duration = Duration::from_secs(600);

fn chromium() -> PathBuf {
    std::env::var_os("WAGGLE_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// What is missing to run the browser tests, if anything.
fn missing(folder: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    if !chromium().exists() {
        missing.push(format!(
            "Chromium at {} (apt-get install -y chromium)",
            chromium().display()
        ));
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing.push("node (apt-get install -y nodejs npm)".into());
    }
    if !folder.join("node_modules/playwright-core").exists() {
        missing.push(format!("playwright-core (cd {} && npm ci)", folder.display()));
    }
    missing
}

/// Whether the browser tests can run; when they cannot, says so loudly (or fails under WAGGLE_REQUIRE_BROWSER=1).
fn ready(folder: &Path) -> bool {
    let missing = missing(folder);
    if missing.is_empty() {
        return true;
    }
    let message = format!(
        "\n\n*** THE BROWSER TESTS WERE SKIPPED: missing {}.\n*** Install them (as .ci/run does) and run \
         `cargo test --test browser`; WAGGLE_REQUIRE_BROWSER=1 makes this a failure.\n",
        missing.join("; ")
    );
    if std::env::var("WAGGLE_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("{message}");
    }
    // Straight to the process's stderr: the test harness captures what `println!` and `eprintln!` say of a
    // test that passes, and a skipped test that shows `ok` and nothing else reads as a pass.
    let _ = std::io::stderr().write_all(message.as_bytes());
    false
}

/// Run the script `script` of `folder` with `args` (the servers' addresses, then the screenshots' folder), to its
/// end or [`LIMIT`]: what it printed, or why it failed.
fn run_script(folder: &Path, script: &str, args: &[&str], shots: &Path) -> Result<(), String> {
    let mut script = Command::new("node")
        .arg(folder.join(script))
        .args(args)
        .arg(shots)
        .current_dir(folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node");
    let (mut out, mut err) = (script.stdout.take().unwrap(), script.stderr.take().unwrap());
    let printed = thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let failed = thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let since = Instant::now();
    let status = loop {
        if let Some(status) = script.try_wait().expect("the script") {
            break Some(status);
        }
        if since.elapsed() > LIMIT {
            let _ = script.kill();
            break None;
        }
        thread::sleep(Duration::from_millis(100));
    };
    let (printed, failed) = (printed.join().unwrap(), failed.join().unwrap());
    println!("{printed}");
    match status {
        None => Err(format!("the browser tests took over {LIMIT:?}\n{printed}\n{failed}")),
        Some(status) if !status.success() => Err(format!(
            "the browser tests failed:\n{printed}\n{failed}\n(screenshots in {})",
            shots.display()
        )),
        Some(_) => Ok(()),
    }
}

#[test]
fn the_page_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = root.join("tests/browser");
    if !ready(&folder) {
        return;
    }
    // No opening book: a book move comes at once, and the script watches Waggle think and its clock run.
    let (mut server, url) = Waggle::new(["web", "--listen", "127.0.0.1:0", "--opening-book", "False"]).serve();
    let shots = root.join("target/browser");
    let ran = run_script(&folder, "web.mjs", &[&url], &shots);
    let _ = server.kill();
    let _ = server.wait();
    ran.unwrap_or_else(|failure| panic!("{failure}"));
}

/// The Explorer panel: a server without a database and one with the repository's records imported.
#[cfg(feature = "db")]
#[test]
fn the_explorer_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = root.join("tests/browser");
    if !ready(&folder) {
        return;
    }
    let scratch = common::Scratch::new("browser-explorer");
    let database = scratch.path("games.sqlite");
    let data = root.join("tests/data");
    // Self-play games from two random plies: every first move of Base+MLP is among them, so that the analysis's
    // lines start with moves the explorer lists.
    let selfplay = scratch.path("selfplay.txt");
    let played = Waggle::new([
        "selfplay",
        "--games",
        "60",
        "--nodes",
        "50",
        "--openings",
        "2",
        "--seed",
        "60",
    ])
    .args(["--out", &selfplay])
    .run();
    assert!(played.success(), "{}", played.stderr);
    let added = Waggle::new(["db", "add", "--db", &database])
        .args([data.join("records"), data.join("review"), data.join("review/games.txt")])
        .arg(&selfplay)
        .run();
    assert!(matches!(added.code(), Some(0 | 2)), "{}", added.stderr);
    let (mut bare, bare_url) = Waggle::new(["web", "--listen", "127.0.0.1:0"]).serve();
    let (mut server, url) = Waggle::new([
        "web",
        "--listen",
        "127.0.0.1:0",
        "--opening-book",
        "False",
        "--db",
        &database,
    ])
    .serve();
    let shots = root.join("target/browser");
    let ran = run_script(&folder, "explorer.mjs", &[&bare_url, &url], &shots);
    for child in [&mut bare, &mut server] {
        let _ = child.kill();
        let _ = child.wait();
    }
    ran.unwrap_or_else(|failure| panic!("{failure}"));
}
