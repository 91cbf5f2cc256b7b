//! The snapshot test of the report's figures: every figure, drawn from small fixed
//! data (and each empty one), is rasterised with resvg and compared with its
//! reviewed PNG in `research/fixtures/figures/`. Text is set in DejaVu Sans (Debian's
//! `fonts-dejavu-core`), the only font loaded, so the machine's other fonts do not
//! change the pictures. A figure matches when at most 0.05 % of its pixels differ by
//! more than 32 in a channel: anti-aliasing on another CPU moves a channel by a few
//! units, while a dashed line drawn with other gaps moves 0.3 % of Fig. 1's pixels
//! and curves shifted by 0.05 logits 0.2 % of the IRT figure's.
//!
//! `GAPWISE_UPDATE_SNAPSHOTS=1 cargo test -p gapwise-research figures::snapshots`
//! writes the PNGs instead of comparing them: look at each before committing it.
//! On a mismatch the test writes what it drew to the system's temporary folder.

#![allow(clippy::expect_used, clippy::panic, reason = "a test's helpers: failing loudly is their job")]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use gapwise_model::Trial;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use super::{abilities, likert_heatmap, nothing, success_by_k, AbilityPanel, RatePanel};
use crate::answers::Answer;

const FONT_FILE: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const UPDATE: &str = "GAPWISE_UPDATE_SNAPSHOTS";
/// A pixel differs when a channel moves by more than this; a figure when more than
/// this share of its pixels do (see the module's documentation).
const CHANNEL_TOLERANCE: u8 = 32;
const PIXEL_SHARE: f64 = 0.0005;

/// A number in [0, 1) that looks random but is the same on every run.
fn spread(i: usize, prime: usize) -> f64 {
    ((i * prime) % 1000) as f64 / 1000.0
}

fn answer(language: &str, k: i64, correct: bool) -> Answer {
    Answer {
        item: gapwise_model::ItemId(k),
        language: language.into(),
        k,
        strategy: String::new(),
        pair: (String::new(), String::new()),
        annotator: String::new(),
        correct,
        ms: 0.0,
        words: 0.0,
        chars: 0.0,
        sources: Vec::new(),
        scores: Vec::new(),
        browser_ms: None,
        trial: Trial::default(),
    }
}

/// Fig. 1's answers: two languages, more right with more contexts, and every
/// fourth answer dropped by the filter when it is wrong.
fn fig1() -> String {
    let mut answers = Vec::new();
    let mut kept = Vec::new();
    for (language, base) in [("en", 0.55), ("fr", 0.45)] {
        for k in [1, 3, 5] {
            for i in 0..40 {
                let correct = spread(i, 37) < base + 0.07 * k as f64;
                answers.push(answer(language, k, correct));
                kept.push(i % 4 != 0 || correct);
            }
        }
    }
    success_by_k(&answers, &kept, "no answers yet").expect("Fig. 1")
}

/// One language's Likert items: ratings on halves from 1 to 5, scores falling
/// with the rating.
fn likert(language: &str, items: usize) -> RatePanel {
    let ratings: Vec<f64> = (0..items).map(|i| 1.0 + (spread(i, 61) * 9.0).floor() / 2.0).collect();
    let scores = ratings.iter().enumerate().map(|(i, r)| 2.0 * (3.0 - r) + 3.0 * spread(i, 113) - 1.5).collect();
    RatePanel { language: language.into(), ratings, scores }
}

/// Abilities shaped like a bell: the sum of three spread numbers, centred.
fn players(n: usize) -> Vec<f64> {
    (0..n).map(|i| 2.0 * (spread(i, 7919) + spread(i, 104_729) + spread(i, 1_299_709) - 1.5)).collect()
}

/// The report's figures, by the name of their snapshot.
fn figures() -> Vec<(&'static str, String)> {
    let long_model = "meta-llama/Llama-3.1-8B-Instruct";
    let irt = |language: &str, models: &[(&str, f64, f64)], two_pl: (f64, f64)| AbilityPanel {
        language: language.into(),
        players: players(200),
        models: models.iter().map(|&(m, t, se)| (m.to_owned(), t, se)).collect(),
        item: Some(("item 17: cat / dog, k = 3".into(), (1.0, -0.4), two_pl)),
    };
    let empty_irt =
        AbilityPanel { language: "it".into(), players: Vec::new(), models: vec![("gpt2".into(), f64::NAN, f64::NAN)], item: None };
    vec![
        ("fig1_success_by_k", fig1()),
        ("fig1_empty", success_by_k(&[], &[], "no answer matches the filter").expect("empty Fig. 1")),
        ("fig_nothing", nothing("IRT: abilities of players and models, an item's curves", "no answers yet").expect("an empty figure")),
        ("fig2_one_language", likert_heatmap(long_model, &[likert("en", 120)]).expect("Fig. 2")),
        ("fig2_two_languages", likert_heatmap("gpt2", &[likert("en", 120), likert("ru", 40)]).expect("Fig. 2")),
        ("fig2_empty", likert_heatmap("gpt2", &[]).expect("empty Fig. 2")),
        ("irt_models", abilities(&irt("en", &[("gpt2", 0.83, 0.11), (long_model, 2.41, 0.19)], (1.7, -0.2))).expect("IRT")),
        ("irt_no_2pl", abilities(&irt("fr", &[("bert-base", -1.92, 0.14)], (f64::NAN, f64::NAN))).expect("IRT")),
        ("irt_no_model", abilities(&irt("fr", &[], (1.1, 0.3))).expect("IRT")),
        ("irt_empty", abilities(&empty_irt).expect("empty IRT")),
    ]
}

/// usvg's options with DejaVu Sans as the only font, and the one `sans-serif` means.
fn options() -> usvg::Options<'static> {
    let mut fonts = usvg::fontdb::Database::new();
    let font =
        std::fs::read(FONT_FILE).unwrap_or_else(|e| panic!("{FONT_FILE}: {e} (the figures' snapshots need Debian's fonts-dejavu-core)"));
    fonts.load_font_data(font);
    fonts.set_sans_serif_family("DejaVu Sans");
    usvg::Options { font_family: "DejaVu Sans".into(), fontdb: Arc::new(fonts), ..usvg::Options::default() }
}

fn render(name: &str, svg: &str, options: &usvg::Options<'_>) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, options).unwrap_or_else(|e| panic!("{name}: not an SVG document: {e}"));
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a figure has a size");
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    pixmap
}

/// The share of pixels of `drawn` that differ from `reviewed` by more than the
/// tolerance in a channel, or why the two cannot be compared.
fn differing(drawn: &Pixmap, reviewed: &Pixmap) -> Result<f64, String> {
    if (drawn.width(), drawn.height()) != (reviewed.width(), reviewed.height()) {
        return Err(format!("drawn {}x{}, reviewed {}x{}", drawn.width(), drawn.height(), reviewed.width(), reviewed.height()));
    }
    let pixels = |p: &Pixmap| p.data().chunks_exact(4).map(<[u8]>::to_vec).collect::<Vec<_>>();
    let far = pixels(drawn)
        .iter()
        .zip(pixels(reviewed))
        .filter(|(a, b)| a.iter().zip(b).any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE))
        .count();
    Ok(far as f64 / (drawn.width() * drawn.height()) as f64)
}

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/figures")
}

/// Every figure against its reviewed PNG (see the module's documentation); with
/// `GAPWISE_UPDATE_SNAPSHOTS=1`, writes the PNGs instead.
#[test]
fn figures_match_reviewed_snapshots() {
    let options = options();
    let update = std::env::var(UPDATE).is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for (name, svg) in figures() {
        let drawn = render(name, &svg, &options);
        let path = snapshots().join(format!("{name}.png"));
        if update {
            std::fs::create_dir_all(snapshots()).expect("the snapshots' folder");
            drawn.save_png(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        let Ok(reviewed) = Pixmap::load_png(&path) else {
            failures.push(format!(
                "{name}: no snapshot at {}; make it with {UPDATE}=1 cargo test -p gapwise-research figures::snapshots, look at it, commit it",
                path.display()
            ));
            continue;
        };
        let share = differing(&drawn, &reviewed);
        if share.as_ref().map_or(true, |&s| s > PIXEL_SHARE) {
            let at = std::env::temp_dir().join(format!("gapwise-figure-{name}.png"));
            drawn.save_png(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()));
            let how = share.map_or_else(|e| e, |s| format!("{:.2} % of the pixels differ", 100.0 * s));
            failures.push(format!("{name}: {how} from {} (drawn: {})", path.display(), at.display()));
        }
    }
    assert!(failures.is_empty(), "figures unlike their reviewed snapshots:\n{}", failures.join("\n"));
}
