//! Krippendorff's alpha against the `krippendorff` PyPI package, and split-half
//! reliability against numpy, on committed data (fixtures/stats/agreement.json, made
//! by fixtures/make_agreement_reference.py): within 1e-9.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use gapwise_stats::agreement::{krippendorff_alpha, split_half, Level};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    alpha: Vec<AlphaCase>,
    split_half: Vec<SplitHalfCase>,
}

#[derive(Deserialize)]
struct AlphaCase {
    level: String,
    units: Vec<Vec<f64>>,
    alpha: f64,
}

#[derive(Deserialize)]
struct SplitHalfCase {
    items: Vec<Vec<bool>>,
    split_half: f64,
}

fn reference() -> Reference {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/agreement.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON")
}

#[test]
fn krippendorffs_alpha_matches_the_reference_package() {
    let cases = reference().alpha;
    assert_eq!(cases.len(), 4);
    for case in cases {
        let level = match case.level.as_str() {
            "nominal" => Level::Nominal,
            "ordinal" => Level::Ordinal,
            other => panic!("unknown level {other}"),
        };
        let ours = krippendorff_alpha(&case.units, level);
        assert!((ours - case.alpha).abs() <= 1e-9, "{}: ours {ours}, krippendorff {}", case.level, case.alpha);
    }
}

#[test]
fn split_half_reliability_matches_numpy() {
    for case in reference().split_half {
        let ours = split_half(&case.items);
        assert!((ours - case.split_half).abs() <= 1e-9, "ours {ours}, numpy {}", case.split_half);
    }
}
