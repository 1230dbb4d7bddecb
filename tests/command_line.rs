//! The command line as clap reads it: each subcommand lists, takes and refuses exactly its engine flags, and a flag
//! that sets an option checks its value as `options set` does.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{Engine, Waggle};

/// Every engine flag.
const ENGINE_FLAGS: [&str; 13] = [
    "--max-hash-size",
    "--threads",
    "--eval",
    "--eval-file",
    "--weights",
    "--opening-book",
    "--threefold-repetition-draw",
    "--level",
    "--reference-player",
    "--report-intermediate-best-moves",
    "--ponder-during-idle",
    "--tournament-opening",
    "--verbose",
];

/// `waggle ARGS` run to its end with no input.
fn waggle(args: &[&str]) -> Output {
    let output = Waggle::new(args).run();
    Output {
        status: output.status,
        stdout: output.stdout.into_bytes(),
        stderr: output.stderr.into_bytes(),
    }
}

/// The flags that `help` (a `--help` text) lists under its "Engine flags…" headings, in order.
fn engine_flags_in(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut in_engine_section = false;
    for line in help.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_engine_section = line.starts_with("Engine flags");
        } else if in_engine_section {
            if let Some(flag) = line.split_whitespace().next().filter(|word| word.starts_with("--")) {
                flags.push(flag.to_string());
            }
        }
    }
    flags
}

#[test]
fn each_subcommand_lists_exactly_the_engine_flags_it_takes() {
    let takes: [(&str, &[&str]); 12] = [
        ("", &ENGINE_FLAGS),
        (
            "play",
            &[
                "--max-hash-size",
                "--threads",
                "--eval",
                "--eval-file",
                "--weights",
                "--opening-book",
                "--threefold-repetition-draw",
                "--level",
                "--reference-player",
            ],
        ),
        (
            "json",
            &[
                "--max-hash-size",
                "--threads",
                "--eval",
                "--eval-file",
                "--weights",
                "--opening-book",
                "--level",
            ],
        ),
        (
            "review",
            &[
                "--max-hash-size",
                "--threads",
                "--eval",
                "--eval-file",
                "--weights",
                "--threefold-repetition-draw",
            ],
        ),
        (
            "selfplay",
            &[
                "--max-hash-size",
                "--eval",
                "--eval-file",
                "--weights",
                "--opening-book",
                "--threefold-repetition-draw",
            ],
        ),
        (
            "tune",
            &["--eval", "--eval-file", "--weights", "--max-hash-size", "--threads"],
        ),
        ("datagen", &["--max-hash-size", "--eval", "--eval-file", "--weights"]),
        ("perft", &[]),
        ("bench", &[]),
        ("draw", &[]),
        ("book", &[]),
        ("match", &[]),
    ];
    for (subcommand, flags) in takes {
        let args: Vec<&str> = [subcommand, "--help"].into_iter().filter(|a| !a.is_empty()).collect();
        let output = waggle(&args);
        assert!(output.status.success(), "waggle {args:?}");
        let help = String::from_utf8(output.stdout).unwrap();
        let mut listed = engine_flags_in(&help);
        listed.sort();
        let mut expected: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        expected.sort();
        assert_eq!(listed, expected, "waggle {subcommand} --help:\n{help}");
        // Issue 41: `--level` stood in the help of subcommands that refused it.
        if !flags.contains(&"--level") {
            assert!(!help.contains("--level"), "waggle {subcommand} --help:\n{help}");
        }
    }
}

#[test]
fn engine_flags_a_subcommand_does_not_use_are_refused_by_clap() {
    for (args, says) in [
        (&["perft", "--level", "3"][..], "unexpected argument '--level'"),
        (
            &["draw", "--weights", "w.txt", "Base"],
            "unexpected argument '--weights'",
        ),
        (&["selfplay", "--level", "3"], "unexpected argument '--level'"),
        (
            &["review", "--opening-book", "True", "-"],
            "unexpected argument '--opening-book'",
        ),
        (
            &["json", "--threefold-repetition-draw"],
            "unexpected argument '--threefold-repetition-draw'",
        ),
        (&["play", "--verbose"], "unexpected argument '--verbose'"),
        (&["match", "--level", "3", "a", "b"], "unexpected argument '--level'"),
        // Before the subcommand they belong to the UHP engine, which a subcommand is not.
        (&["--threads", "1", "play"], "cannot be used with"),
        // The table and the threads serve only the searches of --win-curve.
        (&["tune", "games.txt", "--threads", "1"], "--win-curve"),
    ] {
        let output = waggle(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "waggle {args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "waggle {args:?}");
        assert!(stderr.contains(says), "waggle {args:?}: {stderr}");
    }
    // And the ones it uses are taken after its name.
    let output = waggle(&[
        "play",
        "--level",
        "3",
        "--threads",
        "1",
        "--max-hash-size",
        "1",
        "--opening-book",
        "false",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_flag_checks_its_option_as_options_set_does() {
    let mut engine = Engine::start(&[]);
    for (flag, option, bad) in [
        ("--max-hash-size", "MaxHashSize", "0"),
        ("--max-hash-size", "MaxHashSize", "4097"),
        ("--level", "Level", "11"),
        ("--opening-book", "OpeningBook", "maybe"),
        ("--ponder-during-idle", "PonderDuringIdle", "Sometimes"),
    ] {
        let refused = engine.one(&format!("options set {option} {bad}"));
        let reason = refused.strip_prefix("err ").expect(&refused);
        let output = waggle(&[flag, bad]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag} {bad}: {stderr}");
        assert!(output.stdout.is_empty(), "{flag} {bad}");
        assert!(stderr.contains(reason), "{flag} {bad}: {stderr} / {reason}");
    }
    // The help lists an option's choices as the `options` reply does (`Name;enum;Value;Default;Choice;…`).
    let help = String::from_utf8(waggle(&["--help"]).stdout).unwrap();
    let line = engine.one("options get PonderDuringIdle");
    let choices: Vec<&str> = line.split(';').skip(4).collect();
    let listed = format!("[possible values: {}]", choices.join(", "));
    assert!(help.contains(&listed), "{help} / {listed}");
}

/// A scratch directory of this test file's own, emptied when made and removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("waggle-command-line-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether `program` runs here (`program --version`); if not, the test that needs it says loudly that it skips,
/// and which Debian `packages` bring it.
fn available(program: &str, packages: &str, test: &str) -> bool {
    let runs = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !runs {
        // Straight to stderr, not `eprintln!`: the test harness hides what a passing test prints that way.
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED {test}: `{program}` is not installed here (Debian: apt-get install {packages}) ***\n"
        );
    }
    runs
}

#[test]
fn the_bash_completion_script_completes_subcommands_flags_and_values() {
    if !available(
        "bash",
        "bash",
        "the_bash_completion_script_completes_subcommands_flags_and_values",
    ) {
        return;
    }
    let output = waggle(&["completions", "bash"]);
    assert!(output.status.success());
    let dir = Scratch::new("bash");
    let script = dir.0.join("waggle.bash");
    std::fs::write(&script, &output.stdout).unwrap();
    // Bash calls the completion function with the command, the word being completed and the word before it, and
    // sets COMP_WORDS and COMP_CWORD; each case prints the completions offered, one line a case.
    let cases = [
        (vec!["waggle", ""], 1),
        (vec!["waggle", "play", "--le"], 2),
        (vec!["waggle", "perft", "--le"], 2),
        (vec!["waggle", "--ponder-during-idle", ""], 2),
        (vec!["waggle", "completions", ""], 2),
    ];
    let mut program = format!("set -u\nsource '{}'\ncomplete -p waggle\n", script.display());
    for (words, current) in &cases {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        program += &format!(
            "COMP_WORDS=({}); COMP_CWORD={current}; COMPREPLY=(); _waggle waggle '{}' '{}'; echo \"${{COMPREPLY[*]}}\"\n",
            quoted.join(" "),
            words[*current],
            words[current - 1]
        );
    }
    let output = Command::new("bash")
        .args(["--noprofile", "--norc", "-c", &program])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.is_empty(),
        "the script does not load: {stderr}"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines.len(), cases.len() + 1, "{stdout}");
    assert!(lines[0].ends_with(&["waggle"]), "not registered for waggle: {stdout}");
    for subcommand in ["perft", "play", "match", "review", "completions", "man"] {
        assert!(lines[1].contains(&subcommand), "{subcommand} not offered: {stdout}");
    }
    assert!(lines[1].contains(&"--threads"), "{stdout}");
    assert_eq!(lines[2], ["--level"], "{stdout}");
    assert!(lines[3].is_empty(), "perft takes no --level: {stdout}");
    assert_eq!(lines[4], ["Disabled", "SingleThreaded", "MultiThreaded"], "{stdout}");
    assert!(
        lines[5].ends_with(&["bash", "elvish", "fish", "powershell", "zsh"]),
        "{stdout}"
    );
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = waggle(&["completions", shell]);
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(
            script.contains("max-hash-size") && script.contains("selfplay"),
            "{shell}: {script}"
        );
    }
    let output = waggle(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("possible values: bash"));
}

#[test]
fn every_manual_page_renders_without_warnings() {
    if !available("man", "man-db groff-base", "every_manual_page_renders_without_warnings") {
        return;
    }
    let dir = Scratch::new("man");
    let output = waggle(&["man", "--dir", dir.0.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut pages: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    for subcommand in ["play", "perft", "match", "match-merge", "completions", "man"] {
        assert!(pages.contains(&format!("waggle-{subcommand}.1")), "{pages:?}");
    }
    assert!(pages.contains(&"waggle.1".to_string()), "{pages:?}");
    for page in &pages {
        // The pages are UTF-8 (the help texts have … and −), read as a UTF-8 terminal reads them; `w`: every
        // warning groff has.
        let output = Command::new("man")
            .args(["--warnings=w", "-l"])
            .arg(dir.0.join(page))
            .env("LC_ALL", "C.UTF-8")
            .env("MANWIDTH", "100")
            .env_remove("MANPAGER")
            .env_remove("PAGER")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success() && stderr.is_empty(), "{page}: {stderr}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("NAME") && text.contains("SYNOPSIS"), "{page}: {text}");
    }
    // `waggle man play` prints the page --dir writes, and it documents play's flags, --level among them.
    let play = waggle(&["man", "play"]);
    assert!(play.status.success());
    assert_eq!(play.stdout, std::fs::read(dir.0.join("waggle-play.1")).unwrap());
    assert!(String::from_utf8_lossy(&play.stdout).contains(r"\-\-level"));
    assert_eq!(waggle(&["man"]).stdout, std::fs::read(dir.0.join("waggle.1")).unwrap());
    let output = waggle(&["man", "nope"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no subcommand 'nope': the subcommands are perft"));
}

/// The front door's words: `waggle help` takes `--help` and a subcommand's name; an engine flag given to a
/// subcommand that does not take it is named as one, with those it does take (clap alone suggested `-- --flag`);
/// values read as everywhere else (`Net, Classic`); a subcommand's error is said in its name; every manual page
/// carries the version.
#[test]
fn the_command_line_says_what_it_means() {
    let help = waggle(&["help", "--help"]);
    assert!(help.status.success(), "{}", String::from_utf8_lossy(&help.stderr));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: waggle help"));
    let play = waggle(&["help", "play"]);
    assert_eq!(play.stdout, waggle(&["play", "--help"]).stdout);
    let merge = String::from_utf8(waggle(&["help", "match", "merge"]).stdout).unwrap();
    assert!(merge.contains("Usage: waggle match merge"), "{merge}");

    for (args, says) in [
        (
            &["perft", "--max-hash-size", "5"][..],
            "unexpected argument '--max-hash-size': an engine flag, which `waggle perft` does not take (it takes none",
        ),
        (
            &["selfplay", "--level=3"],
            "`waggle selfplay` does not take (the engine flags it takes are --max-hash-size, --eval",
        ),
    ] {
        let output = waggle(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains("-- --"), "{args:?}: {stderr}");
    }

    let bench = String::from_utf8(waggle(&["bench", "--help"]).stdout).unwrap();
    assert!(bench.contains("[possible values: Net, Classic]"), "{bench}");
    let draw = waggle(&["draw", "Base;Bad"]);
    assert!(String::from_utf8_lossy(&draw.stderr).starts_with("waggle draw: the GameString 'Base;Bad'"));

    let version = String::from_utf8(waggle(&["--version"]).stdout).unwrap();
    let version = version.trim().strip_prefix("waggle ").unwrap().to_string();
    for page in ["perft", "play", "match"] {
        let roff = String::from_utf8(waggle(&["man", page]).stdout).unwrap();
        let title = roff
            .lines()
            .find(|l| l.starts_with(".TH "))
            .unwrap_or_default()
            .to_string();
        assert!(
            title.contains(&version),
            "waggle-{page}(1) without the version {version}: {title}"
        );
    }
}
