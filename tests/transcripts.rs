//! The transcripts of the docs, replayed against the binary, so that they cannot go stale.
//!
//! A transcript is a fenced block in README.md or docs/*.md right after a line `<!-- transcript -->`. Its first
//! line is the command, `$ cargo run --release -- ARGS` or `$ waggle ARGS`; the lines below are what it prints
//! and, for the UHP engine (no subcommand, or engine flags only) and `waggle json`, what is typed: in a UHP
//! transcript the line that opens each exchange (the first after the start-up block or after an `ok`), in a JSON
//! one each request (a line starting `{"request_type"`). The typed lines are sent on stdin, then the end of input;
//! every other line must be what the binary prints, in order. A UHP transcript may open, before the start-up block,
//! with what the engine says at a terminal (on stderr, and never on a pipe): lines starting `waggle: `, compared
//! with what it says when started at a pseudo-terminal (on Unix). Where output changes from run to run (a time, a
//! speed, what a search stopped by the clock found), the block says `…`: a line that is only `…` stands for any
//! number of lines, and a `…` within a line for any text. Blank lines at the end of the output are not compared.
//!
//! The command runs in a scratch directory, with the repository's files that it names copied there. The marker
//! `<!-- transcript; FILE is PATH -->` also checks that the file FILE the command wrote is the repository's PATH,
//! byte for byte; a block after the line `<!-- excerpt of FILE -->` must have its lines (but `…`) in FILE as the
//! last transcript wrote it, in the same order.

mod common;

use std::path::Path;

use common::{Scratch, Waggle};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn every_transcript_in_the_docs_is_what_the_binary_prints() {
    let mut replayed = Vec::new();
    let mut failures = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        let scratch = Scratch::new(&format!("transcript-{}", page.replace('/', "-")));
        for block in marked_blocks(&text) {
            let place = format!("{page} line {}", block.line);
            let result = match &block.marker {
                Marker::Transcript { files } => replay(&block.lines, files, &scratch),
                Marker::Excerpt { file } => excerpt(&block.lines, &scratch.0.join(file)),
            };
            match result {
                Ok(()) => replayed.push(place),
                Err(why) => failures.push(format!("{place}: {why}")),
            }
        }
    }
    println!("replayed: {replayed:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The README's terminal session, the protocol's and the JSON API's, the review's example and its .pgn.
    assert!(replayed.len() >= 5, "{replayed:?}");
}

#[test]
fn the_glob_matches_what_it_should() {
    let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    assert!(matches(&lines("a\n…\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n…\nd"), &lines("a\nd")));
    assert!(matches(&lines("x=…;y"), &lines("x=12;y")));
    assert!(!matches(&lines("x=…;y"), &lines("x=12;z")));
    assert!(!matches(&lines("a\nb"), &lines("a\nb\nc")));
    assert!(!matches(&lines("wQ /wS1\nok"), &lines("wM \\wS1\nok")));
    let block = "<!-- transcript -->\n```text\n$ waggle\nid Waggle v1\nCaps\nok\ninfo\nid Waggle v1\nCaps\nok\n```\n";
    let blocks = marked_blocks(block);
    assert_eq!(blocks.len(), 1);
    let (args, banner, typed, printed) = split(&blocks[0].lines).unwrap();
    assert!(args.is_empty() && banner.is_empty());
    assert_eq!(typed, "info\n");
    assert_eq!(printed.len(), 6);
    let at_a_terminal = "<!-- transcript -->\n```text\n$ waggle\nwaggle: hello\nid Waggle v1\nok\nexit\n```\n";
    let (_, banner, typed, printed) = split(&marked_blocks(at_a_terminal)[0].lines).unwrap();
    assert_eq!(
        (banner, typed, printed.len()),
        (vec!["waggle: hello".to_string()], "exit\n".to_string(), 2)
    );
}

/// The pages that may hold transcripts.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

enum Marker {
    /// Run the block's command; each (FILE, PATH) it wrote must be the repository's PATH.
    Transcript { files: Vec<(String, String)> },
    /// The block's lines are in FILE, as the last transcript wrote it.
    Excerpt { file: String },
}

struct Block {
    marker: Marker,
    /// The line of the page the block starts on.
    line: usize,
    lines: Vec<String>,
}

/// The fenced blocks of a page that follow a marker line.
fn marked_blocks(page: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = page.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        let Some(marker) = marker(line.trim()) else { continue };
        let Some((start, fence)) = lines.next() else { break };
        assert!(
            fence.starts_with("```"),
            "line {}: a marker not followed by a fenced block",
            start + 1
        );
        let body = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| !l.starts_with("```"))
            .map(String::from)
            .collect();
        blocks.push(Block {
            marker,
            line: start + 1,
            lines: body,
        });
    }
    blocks
}

/// The marker a line is, if it is one.
fn marker(line: &str) -> Option<Marker> {
    let inner = line.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    if let Some(file) = inner.strip_prefix("excerpt of ") {
        return Some(Marker::Excerpt {
            file: file.trim().into(),
        });
    }
    let rest = inner.strip_prefix("transcript")?;
    let files = rest
        .split(';')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (file, path) = part.split_once(" is ").expect("FILE is PATH");
            (file.trim().to_string(), path.trim().to_string())
        })
        .collect();
    Some(Marker::Transcript { files })
}

/// What a transcript's block holds: the arguments, what the engine says first at a terminal, what is typed (one
/// line each) and the lines the binary must print.
type Parts = (Vec<String>, Vec<String>, String, Vec<String>);

/// A transcript's arguments, what the engine says only at a terminal, what is typed and what it must print.
fn split(block: &[String]) -> Result<Parts, String> {
    let (command, rest) = block.split_first().ok_or("an empty transcript")?;
    let command = command
        .strip_prefix("$ ")
        .ok_or("the first line is not a `$ ` command")?;
    let args = if let Some(args) = command.strip_prefix("cargo run --release") {
        args.trim_start().strip_prefix("--").unwrap_or(args)
    } else if let Some(args) = command.strip_prefix("waggle") {
        args
    } else {
        return Err(format!("not a command of waggle's: {command}"));
    };
    let args = shlex::split(args).ok_or_else(|| format!("cannot split {args:?} into arguments"))?;
    let uhp = args.first().is_none_or(|a| a.starts_with('-'));
    let json = args.first().is_some_and(|a| a == "json");
    let shown = if uhp {
        rest.iter().take_while(|l| l.starts_with("waggle: ")).count()
    } else {
        0
    };
    let (banner, rest) = rest.split_at(shown);
    let mut typed = String::new();
    let mut printed = Vec::new();
    // In a UHP session, a line opens an exchange unless the start-up block (its `id` line) comes first.
    let mut opens = rest.first().is_some_and(|l| !l.starts_with("id "));
    for line in rest {
        let is_typed = (uhp && opens) || (json && line.starts_with("{\"request_type\""));
        if is_typed {
            typed.push_str(line);
            typed.push('\n');
        } else {
            printed.push(line.clone());
        }
        opens = uhp && (line == "ok" && !is_typed);
    }
    Ok((args, banner.to_vec(), typed, printed))
}

/// Run a transcript's command and compare what it prints (and the files it writes).
fn replay(block: &[String], files: &[(String, String)], scratch: &Scratch) -> Result<(), String> {
    let (args, banner, typed, printed) = split(block)?;
    if !banner.is_empty() {
        at_a_terminal(&args, &banner)?;
    }
    // The repository's files the command names, copied where it will look for them.
    for arg in &args {
        let source = Path::new(ROOT).join(arg);
        if !arg.starts_with('-') && Path::new(arg).is_relative() && source.is_file() {
            let copy = scratch.0.join(arg);
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::copy(&source, &copy).unwrap();
        }
    }
    let output = Waggle::new(&args).input(&typed).dir(&scratch.0).run();
    // Blank lines at the end (a review's after each game) are not shown in a block.
    let actual: Vec<String> = output.stdout.trim_end().lines().map(String::from).collect();
    if !matches(&printed, &actual) {
        return Err(format!(
            "waggle {args:?} printed, with the lines typed sent:\n{}\n(stderr: {})",
            output.stdout, output.stderr
        ));
    }
    for (file, path) in files {
        let written = std::fs::read(scratch.0.join(file)).map_err(|e| format!("{file}: {e}"))?;
        let kept = std::fs::read(Path::new(ROOT).join(path)).map_err(|e| format!("{path}: {e}"))?;
        if written != kept {
            return Err(format!(
                "{file} as written is not {path}: write it again with the command"
            ));
        }
    }
    Ok(())
}

/// What the engine of `args` says at a terminal before its start-up block is `banner`.
#[cfg(unix)]
fn at_a_terminal(args: &[String], banner: &[String]) -> Result<(), String> {
    let mut run = Waggle::new(args).start_at_terminal();
    let started = run.wait_for("\nok\n", std::time::Duration::from_secs(30));
    let text = run.text();
    run.type_keys("exit\n");
    let _ = run.finish(std::time::Duration::from_secs(30));
    let said: Vec<String> = text
        .lines()
        .take_while(|l| !l.starts_with("id "))
        .map(String::from)
        .collect();
    if !started || !matches(banner, &said) {
        return Err(format!(
            "at a terminal, waggle {args:?} said before its start-up block:\n{text}"
        ));
    }
    Ok(())
}

/// Without a pseudo-terminal to run it at, what the engine says there is not checked.
#[cfg(not(unix))]
fn at_a_terminal(_: &[String], _: &[String]) -> Result<(), String> {
    Ok(())
}

/// The block's lines (but `…`) are lines of `file`, in order.
fn excerpt(block: &[String], file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut lines = text.lines();
    for wanted in block.iter().filter(|l| l.as_str() != "…") {
        if !lines.any(|l| l == wanted) {
            return Err(format!("not in {} (in order): {wanted}\n{text}", file.display()));
        }
    }
    Ok(())
}

/// Whether `actual` is what `expected` shows: a line `…` stands for any number of lines, a `…` within a line for
/// any text.
fn matches(expected: &[String], actual: &[String]) -> bool {
    // can[i][j]: expected[i..] matches actual[j..].
    let mut can = vec![vec![false; actual.len() + 1]; expected.len() + 1];
    can[expected.len()][actual.len()] = true;
    for i in (0..expected.len()).rev() {
        for j in (0..=actual.len()).rev() {
            can[i][j] = if expected[i] == "…" {
                can[i + 1][j] || (j < actual.len() && can[i][j + 1])
            } else {
                j < actual.len() && line_matches(&expected[i], &actual[j]) && can[i + 1][j + 1]
            };
        }
    }
    can[0][0]
}

/// Whether `actual` is the line `expected`, each `…` in it standing for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    let [first, middle @ .., last] = &parts[..] else {
        return expected == actual;
    };
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}
