//! The layering rule of docs/architecture.md, checked against the code: every arrow between the rooms of `src/`
//! (a `crate::ROOM` or `waggle::ROOM` path, each member of a `crate::{A, B}` group, and `super::ROOM` in a file at
//! the top of a room) points down or across within a layer, never up, never from one front end into another, and
//! never round in a circle. The layers are read from the doc's layer diagram, so the doc is the source: a room
//! added to `src/` must be placed there, and a room the doc names must exist.
//!
//! Comments and unit tests (`#[cfg(test)]` and what follows it in a file) are not read: tests may reach anywhere.
//! `lib.rs`, the crate's root, re-exports from every layer and is in none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Arrows from one front end into another that the doc allows: the arena speaks the UHP vocabulary to the
/// engines it referees, and the puzzles read the review's judgement to find a player's own mistakes
/// (docs/architecture.md says so above the diagram).
const ALLOWED_ACROSS: &[(&str, &str)] = &[("arena", "uhp"), ("puzzles", "review")];

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn arrows_point_down_never_across_front_ends_never_in_circles() {
    let layers = layers_of_the_doc();
    let modules = modules(Path::new(&format!("{ROOT}/src")));
    let arrows = arrows(Path::new(&format!("{ROOT}/src")), &modules);
    let report = check(&layers, &modules, &arrows);
    println!("{}", report.summary(&modules, &arrows));
    assert!(report.is_clean(), "{}", report.details());
}

/// A wrong arrow is caught: one up, one across front ends, and the circle the arrow up makes.
#[test]
fn a_wrong_arrow_is_reported() {
    let layers = layers_of_the_doc();
    let modules = modules(Path::new(&format!("{ROOT}/src")));
    let mut arrows = arrows(Path::new(&format!("{ROOT}/src")), &modules);
    assert!(
        arrows["uhp"].contains("engine"),
        "the UHP session drives the engine: {arrows:?}"
    );
    arrows.entry("rules".into()).or_default().insert("engine".into());
    arrows.entry("json".into()).or_default().insert("review".into());
    let report = check(&layers, &modules, &arrows);
    assert_eq!(report.up, ["rules -> engine"]);
    assert_eq!(report.across, ["json -> review"]);
    assert!(report
        .circles
        .iter()
        .any(|c| c.contains(&"rules".to_string()) && c.contains(&"engine".to_string())));
}

/// The layers of the doc's diagram: in the first `text` block of docs/architecture.md, from the top layer down,
/// each line that names rooms (`cli/`, `main.rs`) before a description starts a layer; rooms alone on the lines
/// below it belong to the same layer; a line that starts with no room continues a description.
fn layers_of_the_doc() -> Layers {
    let doc = std::fs::read_to_string(format!("{ROOT}/docs/architecture.md")).unwrap();
    let block = doc
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```text block in docs/architecture.md");
    let mut layers: Vec<Vec<String>> = Vec::new();
    let mut front = None;
    for line in block.lines() {
        let mut words = line.split_whitespace().peekable();
        let mut rooms = Vec::new();
        while let Some(room) = words.peek().and_then(|word| room_name(word)) {
            rooms.push(room);
            words.next();
        }
        let description = words.collect::<Vec<_>>().join(" ");
        if rooms.is_empty() {
            continue;
        }
        if description.is_empty() && !layers.is_empty() {
            layers.last_mut().unwrap().extend(rooms);
            continue;
        }
        if description.starts_with("the front ends") {
            front = Some(layers.len());
        }
        layers.push(rooms);
    }
    let front = front.expect("a layer described as \"the front ends\"");
    // Ranks count from the bottom layer's 0 up, so that an arrow up goes to a higher rank.
    let rank_of = |from_top: usize| layers.len() - 1 - from_top;
    Layers {
        rank: layers
            .iter()
            .enumerate()
            .flat_map(|(i, rooms)| rooms.iter().map(move |room| (room.clone(), rank_of(i))))
            .collect(),
        front: rank_of(front),
    }
}

/// The room a word of the diagram names (`cli/`, `main.rs,`), if it names one.
fn room_name(word: &str) -> Option<String> {
    let word = word.trim_end_matches(',');
    let name = word.strip_suffix('/').or(word.strip_suffix(".rs"))?;
    (!name.is_empty() && name.chars().all(|c| c == '_' || c.is_ascii_lowercase())).then(|| name.to_string())
}

struct Layers {
    /// Each room's layer, counted from the bottom.
    rank: BTreeMap<String, usize>,
    /// The layer of the front ends.
    front: usize,
}

/// The rooms of `src`: its files and folders, `lib.rs` and `main.rs` included.
fn modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs").map(String::from)
            }
        })
        .collect()
}

/// For each room, the other rooms its code names.
fn arrows(src: &Path, modules: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in rust_files(src) {
        let relative = path.strip_prefix(src).unwrap();
        let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let me = parts[0].strip_suffix(".rs").unwrap_or(&parts[0]).to_string();
        let text = code_of(&std::fs::read_to_string(&path).unwrap());
        let mut targets = names_after(&text, "crate");
        targets.extend(names_after(&text, "waggle"));
        // In a room's top file, `super::` is the crate's root, so `super::NAME` names another room.
        if parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod.rs") {
            targets.extend(names_after(&text, "super"));
        }
        for target in targets {
            if target != me && modules.contains(&target) {
                arrows.entry(me.clone()).or_default().insert(target);
            }
        }
    }
    arrows
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// A file's code without its `//` comments (doc comments included) and without what follows its first
/// `#[cfg(test)]`.
fn code_of(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n");
    code.split("#[cfg(test)]").next().unwrap_or("").to_string()
}

/// The first names after each `prefix::` in `text`, and each member's first name in a `prefix::{A, B::c}` group.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let needle = format!("{prefix}::");
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        rest = &rest[at + needle.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut member = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.extend(identifier(member.trim_start()));
                        member.clear();
                        continue;
                    }
                    _ => {}
                }
                member.push(c);
            }
            rest = &group[end..];
        } else {
            names.extend(identifier(rest));
        }
    }
    names
}

/// The identifier `text` starts with, if any.
fn identifier(text: &str) -> Option<String> {
    let end = text
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
        .map_or(text.len(), |(i, _)| i);
    (end > 0).then(|| text[..end].to_string())
}

#[derive(Default)]
struct Report {
    up: Vec<String>,
    across: Vec<String>,
    circles: Vec<Vec<String>>,
    unplaced: Vec<String>,
    missing: Vec<String>,
}

impl Report {
    fn is_clean(&self) -> bool {
        self.up.is_empty()
            && self.across.is_empty()
            && self.circles.is_empty()
            && self.unplaced.is_empty()
            && self.missing.is_empty()
    }

    fn summary(&self, modules: &BTreeSet<String>, arrows: &BTreeMap<String, BTreeSet<String>>) -> String {
        format!(
            "layers: {} modules, {} arrows, {} up, {} across front ends, {} circles",
            modules.len(),
            arrows.values().map(BTreeSet::len).sum::<usize>(),
            self.up.len(),
            self.across.len(),
            self.circles.len()
        )
    }

    fn details(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        lines.extend(self.up.iter().map(|a| format!("up: {a}")));
        lines.extend(self.across.iter().map(|a| format!("across front ends: {a}")));
        lines.extend(self.circles.iter().map(|c| format!("circle: {}", c.join(" <-> "))));
        lines.extend(
            self.unplaced
                .iter()
                .map(|m| format!("in no layer of docs/architecture.md: {m}")),
        );
        lines.extend(
            self.missing
                .iter()
                .map(|m| format!("in docs/architecture.md but not in src/: {m}")),
        );
        lines.join("\n")
    }
}

fn check(layers: &Layers, modules: &BTreeSet<String>, arrows: &BTreeMap<String, BTreeSet<String>>) -> Report {
    let mut report = Report {
        unplaced: modules
            .iter()
            .filter(|m| *m != "lib" && !layers.rank.contains_key(*m))
            .cloned()
            .collect(),
        missing: layers.rank.keys().filter(|m| !modules.contains(*m)).cloned().collect(),
        ..Report::default()
    };
    for (from, targets) in arrows.iter().filter(|(from, _)| *from != "lib") {
        for to in targets {
            let (Some(&a), Some(&b)) = (layers.rank.get(from), layers.rank.get(to)) else {
                continue;
            };
            if b > a {
                report.up.push(format!("{from} -> {to}"));
            } else if a == layers.front && b == layers.front && !ALLOWED_ACROSS.contains(&(from, to)) {
                report.across.push(format!("{from} -> {to}"));
            }
        }
    }
    let without_root: BTreeMap<_, _> = arrows.iter().filter(|(from, _)| *from != "lib").collect();
    report.circles = circles(modules, &without_root);
    report
}

/// The groups of two or more rooms that reach each other (strongly connected components, by Tarjan's method).
fn circles(modules: &BTreeSet<String>, arrows: &BTreeMap<&String, &BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        arrows: &'a BTreeMap<&'a String, &'a BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        circles: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            let next: Vec<&'a str> = self
                .arrows
                .iter()
                .find(|(from, _)| from.as_str() == v)
                .map(|(_, to)| to.iter().map(String::as_str).collect())
                .unwrap_or_default();
            for w in next {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().position(|&s| s == v).unwrap();
                let mut group: Vec<String> = self.stack.drain(at..).map(String::from).collect();
                if group.len() > 1 {
                    group.sort();
                    self.circles.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        circles: Vec::new(),
    };
    for module in modules {
        if !walk.index.contains_key(module.as_str()) {
            walk.visit(module);
        }
    }
    walk.circles
}
