//! The search signature: `waggle bench` at its default depth visits exactly the number of nodes recorded here.
//! A change that does not mean to change the search must leave it as it is; a search change updates it on
//! purpose and says so in its commit message.

mod common;

use common::Waggle;

/// Total nodes of `waggle bench` (default depth, one thread, 16 MB table), with the built-in net.
const SIGNATURE: u64 = 1_600_784;

/// The same with the hand-written evaluation (`waggle bench --eval classic`).
const CLASSIC_SIGNATURE: u64 = 1_205_691;

#[test]
fn the_bench_signature_is_the_recorded_one() {
    assert_eq!(signature(&["bench"]), SIGNATURE);
}

#[test]
fn the_hand_written_evaluations_bench_signature_is_the_recorded_one() {
    assert_eq!(signature(&["bench", "--eval", "classic"]), CLASSIC_SIGNATURE);
}

/// The signature `waggle ARGS` prints, after checking it prints a line a position and the two of the total.
fn signature(args: &[&str]) -> u64 {
    let output = Waggle::new(args.iter().copied()).run();
    assert!(output.success(), "{output:?}");
    let text = output.stdout;
    let signature: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("signature "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no signature line in:\n{text}"));
    assert_eq!(text.lines().count(), waggle::bench::Bench::POSITIONS + 2, "{text}");
    signature
}
