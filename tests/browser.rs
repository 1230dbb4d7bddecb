//! The page of `waggle web` in a real browser: headless Chromium (Debian's `chromium`) driven by `playwright-core`
//! from npm, with the script `tests/browser/web.mjs`, against `waggle web --listen 127.0.0.1:0`: a whole game by
//! mouse at a desktop's size and one by touch at a phone's, a tablet, every feature. Screenshots of each stage
//! land in `target/browser/`.
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

#[test]
fn the_page_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = root.join("tests/browser");
    let missing = missing(&folder);
    if !missing.is_empty() {
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
        return;
    }
    // No opening book: a book move comes at once, and the script watches Waggle think and its clock run.
    let (mut server, url) = Waggle::new(["web", "--listen", "127.0.0.1:0", "--opening-book", "False"]).serve();
    let shots = root.join("target/browser");
    let mut script = Command::new("node")
        .arg(folder.join("web.mjs"))
        .arg(&url)
        .arg(&shots)
        .current_dir(&folder)
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
    let _ = server.kill();
    let _ = server.wait();
    let (printed, failed) = (printed.join().unwrap(), failed.join().unwrap());
    println!("{printed}");
    let status = status.unwrap_or_else(|| panic!("the browser tests took over {LIMIT:?}\n{printed}\n{failed}"));
    assert!(
        status.success(),
        "the browser tests failed:\n{printed}\n{failed}\n(screenshots in {})",
        shots.display()
    );
}
