//! Fuzzing the two kinds of file the learned evaluation reads: net files (`--eval-file`, the UHP option EvalFile)
//! and training records (`waggle train`). Each comes from a good one, damaged at random (bytes flipped, cut short,
//! bytes added, spliced with another file) or made of random bytes: a net file is either refused with an error or,
//! when it passes every check, evaluates positions without panicking; a record is refused or reads back to itself.
//! A short run is part of `cargo test`; the long one is ignored: `cargo test --release --test fuzz_net_files --
//! --ignored`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use waggle::record::training::{Outcome, TrainingPosition, RECORD_SIZE};
use waggle::{GameType, Network, Position};

/// A good net file: the built-in net's.
fn good_net() -> Vec<u8> {
    let bytes = Network::builtin().expect("the built-in net").to_bytes();
    assert!(Network::from_bytes(&bytes).is_ok());
    bytes
}

/// `bytes` damaged in one of several ways.
fn damage(bytes: &[u8], rng: &mut StdRng) -> Vec<u8> {
    let mut damaged = bytes.to_vec();
    match rng.gen_range(0..6) {
        0 => {
            for _ in 0..rng.gen_range(1..8) {
                let at = rng.gen_range(0..damaged.len());
                damaged[at] ^= 1 << rng.gen_range(0..8);
            }
        }
        1 => damaged.truncate(rng.gen_range(0..bytes.len())),
        2 => damaged.extend((0..rng.gen_range(1..100)).map(|_| rng.gen::<u8>())),
        3 => {
            let at = rng.gen_range(0..damaged.len());
            let len = rng.gen_range(1..64).min(damaged.len() - at);
            for byte in &mut damaged[at..at + len] {
                *byte = rng.gen();
            }
        }
        4 => damaged = (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect(),
        _ => {
            let cut = rng.gen_range(0..damaged.len());
            damaged.drain(cut..(cut + rng.gen_range(1..40)).min(damaged.len()));
        }
    }
    damaged
}

/// Positions of a random game, to evaluate with a net that was accepted.
fn positions(rng: &mut StdRng) -> Vec<Position> {
    let mut pos = Position::new(GameType::ALL[rng.gen_range(0..8)]);
    let mut all = Vec::new();
    for _ in 0..rng.gen_range(1..60) {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.state().is_over() {
            break;
        }
        pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        all.push(pos.clone());
    }
    all
}

fn fuzz_nets(seed: u64, cases: usize) {
    let good = good_net();
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut refused, mut accepted) = (0, 0);
    for _ in 0..cases {
        let bytes = damage(&good, &mut rng);
        match Network::from_bytes(&bytes) {
            Err(error) => {
                assert!(!error.to_string().is_empty());
                refused += 1;
            }
            Ok(net) => {
                // Only an undamaged file passes the hash: a change the damage undid, or bytes added and cut again.
                assert_eq!(bytes, good, "a damaged net file was accepted");
                for pos in positions(&mut rng) {
                    let _ = net.evaluate(&pos);
                }
                accepted += 1;
            }
        }
    }
    assert!(refused > cases / 2, "{refused} refused, {accepted} accepted");
}

/// Records of random positions, damaged: each is refused or reads back to itself.
fn fuzz_records(seed: u64, cases: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut read = 0;
    for case in 0..cases {
        let mut pos = Position::new(GameType::ALL[case % 8]);
        for _ in 0..rng.gen_range(0..50) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.state().is_over() {
                break;
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        let good = TrainingPosition::of(&pos, rng.gen_range(-30_000..30_000), Outcome::Draw).to_bytes();
        let damaged = damage(&good, &mut rng);
        let Ok(bytes) = <[u8; RECORD_SIZE]>::try_from(damaged.as_slice()) else {
            continue;
        };
        if let Ok(record) = TrainingPosition::from_bytes(&bytes) {
            assert_eq!(
                record.to_bytes(),
                bytes,
                "a record that reads writes back the same bytes"
            );
            // A record that passes the checks makes a position that can be searched from: its moves list.
            let _ = record.position().legal_moves();
            read += 1;
        }
    }
    assert!(read > 0);
}

#[test]
fn damaged_net_files_and_records_are_refused_or_read_whole() {
    fuzz_nets(1, 300);
    fuzz_records(2, 3_000);
}

#[test]
#[ignore]
fn damaged_net_files_and_records_long_run() {
    for seed in 10..20 {
        fuzz_nets(seed, 2_000);
        fuzz_records(seed, 50_000);
    }
}
