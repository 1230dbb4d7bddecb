//! The perft reference counts of `tests/data/perft.tsv`, counted: the rows marked `test` here (start positions to
//! depth 5, mid-game positions to depth 4), the `deep` ones in an ignored test (`cargo test --release --test
//! perft_table -- --ignored`). And docs/speed.md's reference tables, which must show exactly those rows.

mod common;

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use common::data::{named_position, perft_count, perft_references};
use waggle::perft::{divide_until, perft};
use waggle::MoveString;

/// Count every reference row that is (`deep`) or is not (`!deep`) too long for `cargo test`.
fn count_rows(deep: bool) {
    let rows: Vec<_> = perft_references().into_iter().filter(|r| r.deep == deep).collect();
    assert!(!rows.is_empty(), "no rows to count");
    for row in rows {
        let mut pos = named_position(&row.position);
        assert_eq!(
            perft(&mut pos, row.depth),
            row.count,
            "{} perft({})",
            row.position,
            row.depth
        );
    }
}

#[test]
fn reference_counts_within_cargo_test() {
    count_rows(false);
}

#[test]
#[ignore = "deep: minutes in release"]
fn reference_counts_too_deep_for_cargo_test() {
    count_rows(true);
}

#[test]
fn divide_sums_to_perft_with_distinct_moves() {
    let mut pos = named_position("selfplay40");
    let parts = divide_until(&mut pos, 2, &AtomicBool::new(false)).unwrap();
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), perft_count("selfplay40", 2));
    let mut names: Vec<String> = parts
        .iter()
        .map(|&(mv, _)| MoveString::from_move(&pos, mv).to_string())
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len() as u64, perft_count("selfplay40", 1));
}

/// The reference tables of docs/speed.md are the data file: the same (position, depth, count) rows, no more, no
/// fewer.
#[test]
fn the_docs_tables_are_the_data_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/speed.md");
    let docs = docs_tables(&std::fs::read_to_string(path).unwrap());
    let data: BTreeSet<(String, u32, u64)> = perft_references()
        .into_iter()
        .map(|r| (r.position, r.depth, r.count))
        .collect();
    let only = |a: &BTreeSet<(String, u32, u64)>, b: &BTreeSet<(String, u32, u64)>| -> Vec<String> {
        a.difference(b)
            .map(|(p, d, c)| format!("{p} perft({d}) = {c}"))
            .collect()
    };
    assert!(
        docs == data,
        "docs/speed.md and tests/data/perft.tsv differ:\nonly in the docs: {:?}\nonly in the data: {:?}",
        only(&docs, &data),
        only(&data, &docs)
    );
}

/// The counts of docs/speed.md's two reference tables as (position, depth, count): the start positions' (a row
/// per depth, a column per game type, headed `depth`) and the mid-game positions' (a row per position named in
/// backticks, a column per depth `dN`, headed `position`). Other tables, of positions too, are not read.
fn docs_tables(markdown: &str) -> BTreeSet<(String, u32, u64)> {
    let mut counts = BTreeSet::new();
    let mut header: Option<Vec<String>> = None;
    for line in markdown.lines() {
        let Some(row) = line.trim().strip_prefix('|') else {
            header = None;
            continue;
        };
        let cells: Vec<String> = row
            .trim_end_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        let Some(columns) = &header else {
            header = Some(cells);
            continue;
        };
        let by_depth = match columns[0].as_str() {
            "depth" => true,
            // A table of positions whose columns are depths; other tables of positions (nodes, instructions) are not
            // perft's.
            "position"
                if columns[1..]
                    .iter()
                    .all(|c| c.strip_prefix('d').is_some_and(|d| d.parse::<u32>().is_ok())) =>
            {
                false
            }
            _ => continue,
        };
        if cells[0].starts_with("---") {
            continue;
        }
        for (column, cell) in columns.iter().zip(&cells).skip(1).filter(|(_, cell)| !cell.is_empty()) {
            let count: u64 = cell
                .parse()
                .unwrap_or_else(|_| panic!("not a count: {cell:?} in {line}"));
            counts.insert(if by_depth {
                (column.clone(), number(&cells[0]), count)
            } else {
                let name = cells[0]
                    .split('`')
                    .nth(1)
                    .unwrap_or_else(|| panic!("no `name` in {line}"));
                let depth = column.strip_prefix('d').unwrap_or_else(|| panic!("not dN: {column}"));
                (name.to_string(), number(depth), count)
            });
        }
    }
    assert!(!counts.is_empty(), "no reference tables in docs/speed.md");
    counts
}

fn number(text: &str) -> u32 {
    text.parse().unwrap_or_else(|_| panic!("not a depth: {text:?}"))
}
