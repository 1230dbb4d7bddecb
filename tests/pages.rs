//! The pages of the documentation (README.md, CHANGELOG.md, docs/*.md) as a reader who cloned the repository
//! meets them: every relative link resolves (the file or folder it names exists, and an `#anchor` names a heading
//! of the page it points to, as GitHub makes anchors of headings), and each page has one title (its first line,
//! the only `# ` heading). Links with a scheme (`https:`, `mailto:`) are not followed; nothing inside code counts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let pages = pages();
    assert!(pages.len() > 5, "{pages:?}");
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in links(&text) {
            if let Err(why) = resolve(page, &link) {
                broken.push(format!(
                    "{}: ({link}): {why}",
                    page.strip_prefix(ROOT).unwrap().display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_broken_link_is_caught() {
    let page = Path::new(ROOT).join("docs/uhp.md");
    assert!(resolve(&page, "control.md").is_ok());
    assert!(resolve(&page, "control.md#faults").is_ok());
    assert!(resolve(&page, "docs/control.md").is_err(), "docs/docs/control.md");
    assert!(resolve(&page, "control.md#no-such-heading").is_err());
    assert!(resolve(&page, "#options").is_ok());
    let links = links("[a](x.md) `[b](y.md)` ![c](z.svg \"title\")\n```\n[d](w.md)\n```\n[e]: v.md\n");
    assert_eq!(links, ["x.md", "z.svg", "v.md"]);
}

/// The README's install line and its embedding example name the repository that Cargo.toml names.
#[test]
fn the_readme_names_the_repository_of_cargo_toml() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let repository = manifest
        .lines()
        .find_map(|line| line.strip_prefix("repository = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("a repository in Cargo.toml");
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    for line in [
        format!("cargo install --locked --git {repository}\n"),
        format!("waggle = {{ git = \"{repository}\", default-features = false }}\n"),
    ] {
        assert!(readme.contains(&line), "the README has no line {line}");
    }
}

#[test]
fn each_page_has_one_title() {
    let mut wrong = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let titles: Vec<String> = headings(&text).into_iter().filter(|h| h.starts_with("# ")).collect();
        if !text.starts_with("# ") || titles.len() != 1 {
            wrong.push(format!("{}: {titles:?}", page.strip_prefix(ROOT).unwrap().display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "pages without exactly one title, on their first line:\n{}",
        wrong.join("\n")
    );
}

/// The pages checked: README.md, CHANGELOG.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md"), Path::new(ROOT).join("CHANGELOG.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a page outside fenced code blocks, with inline code spans blanked out.
fn prose(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") && !line.trim_start().starts_with(['-', '|', '*']) {
            continue;
        }
        // Code spans: the text between pairs of backticks.
        let mut kept = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                kept.push_str(part);
            }
        }
        lines.push(kept);
    }
    lines
}

/// The targets of the links and images of a page: `[text](target "title")` and `[label]: target`.
fn links(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose(markdown) {
        if let Some(rest) = line.trim_start().strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]: ") {
                targets.push(target.split_whitespace().next().unwrap_or("").to_string());
                continue;
            }
        }
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// Whether `link`, found on `page`, names a file of the repository (and a heading of it).
fn resolve(page: &Path, link: &str) -> Result<(), String> {
    if link.contains("://") || link.starts_with("mailto:") {
        return Ok(());
    }
    let (file, anchor) = match link.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (link, None),
    };
    let target = if file.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(file)
    };
    if !target.exists() {
        return Err(format!("no file {}", target.display()));
    }
    let Some(anchor) = anchor else { return Ok(()) };
    if target.extension().is_none_or(|e| e != "md") {
        return Err("an anchor into a file that is not Markdown".into());
    }
    let headings = anchors(&std::fs::read_to_string(&target).unwrap());
    if headings.contains(anchor) {
        Ok(())
    } else {
        Err(format!(
            "no heading #{anchor} in {}; there are {headings:?}",
            target.display()
        ))
    }
}

/// The headings of a page (`#` to `######` and a space), outside fenced code.
fn headings(markdown: &str) -> Vec<String> {
    let mut headings = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.trim_start_matches('#').starts_with(' ') && line.starts_with('#') {
            headings.push(line.to_string());
        }
    }
    headings
}

/// The anchors GitHub gives the headings of a page: the heading's text in lower case, every character but letters,
/// digits, spaces, `-` and `_` dropped, spaces made `-`; a repeated anchor gets `-1`, `-2` … .
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for heading in headings(markdown) {
        let slug: String = heading
            .trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        anchors.insert(anchor);
    }
    anchors
}
