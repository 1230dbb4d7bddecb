//! The command line as clap reads it: each subcommand lists, takes and refuses exactly its engine flags, and a flag
//! that sets an option checks its value as `options set` does.

mod common;

use std::process::{Command, Output, Stdio};

use common::Engine;

/// Every engine flag.
const ENGINE_FLAGS: [&str; 10] = [
    "--max-hash-size",
    "--threads",
    "--weights",
    "--opening-book",
    "--threefold-repetition-draw",
    "--level",
    "--reference-player",
    "--report-intermediate-best-moves",
    "--ponder-during-idle",
    "--verbose",
];

/// `waggle ARGS` run to its end with no input.
fn waggle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_waggle"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run waggle")
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
    let takes: [(&str, &[&str]); 11] = [
        ("", &ENGINE_FLAGS),
        (
            "play",
            &[
                "--max-hash-size",
                "--threads",
                "--weights",
                "--opening-book",
                "--threefold-repetition-draw",
                "--level",
                "--reference-player",
            ],
        ),
        (
            "json",
            &["--max-hash-size", "--threads", "--weights", "--opening-book", "--level"],
        ),
        (
            "review",
            &[
                "--max-hash-size",
                "--threads",
                "--weights",
                "--threefold-repetition-draw",
            ],
        ),
        (
            "selfplay",
            &[
                "--max-hash-size",
                "--weights",
                "--opening-book",
                "--threefold-repetition-draw",
            ],
        ),
        ("tune", &["--weights", "--max-hash-size", "--threads"]),
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
