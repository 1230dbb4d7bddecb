//! The search signature: `waggle bench` at its default depth visits exactly the number of nodes recorded here.
//! A change that does not mean to change the search must leave it as it is; a search change updates it on
//! purpose and says so in its commit message.

mod common;

use common::Waggle;

/// Total nodes of `waggle bench` (default depth, one thread, 16 MB table).
const SIGNATURE: u64 = 1_205_691;

#[test]
fn the_bench_signature_is_the_recorded_one() {
    let output = Waggle::new(["bench"]).run();
    assert!(output.success(), "{output:?}");
    let text = output.stdout;
    let signature: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("signature "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no signature line in:\n{text}"));
    assert_eq!(signature, SIGNATURE, "{text}");
    assert_eq!(text.lines().count(), waggle::bench::Bench::POSITIONS + 2, "{text}");
}
