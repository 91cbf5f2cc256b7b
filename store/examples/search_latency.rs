//! Whole-word search latency on an imported corpus (see scripts/bench_corpus.sh):
//! for each a-priori pair of a language, the first 100 sentences with the target
//! and without the distractor, and a uniform sample of 100 among all of them.
//! Prints p50, p95 and the worst time of each.
//!
//! Usage: DATABASE_URL=sqlite://corpus.db cargo run --release -p gapwise-store --example search_latency [LANG]

use std::collections::HashSet;
use std::time::Instant;

/// The `q` quantile of `sorted` (NaN when it is empty).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let at = (sorted.len().saturating_sub(1) as f64 * q).round() as usize;
    sorted.get(at).copied().unwrap_or(f64::NAN)
}

fn print(name: &str, mut ms: Vec<f64>, hits: usize) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name:<24} {} pairs, {hits} sentences: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.95),
        percentile(&ms, 1.0)
    );
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("DATABASE_URL")?;
    let code = std::env::args().nth(1).unwrap_or_else(|| "en".into());
    let language = gapwise_model::Language::parse(&code).ok_or_else(|| format!("no language {code:?}"))?;
    let store = gapwise_store::Store::open(&url).await?;
    store.material().add_a_priori_pairs(language).await?;
    let pairs: Vec<(String, String)> = sqlx::query_as("SELECT target, distractor FROM word_pairs WHERE lang = $1 ORDER BY id")
        .bind(language)
        .fetch_all(store.pool())
        .await?;
    let (mut first, mut sampled, mut hits) = (Vec::new(), Vec::new(), (0, 0));
    for (target, distractor) in &pairs {
        let t = Instant::now();
        hits.0 += store.material().find_contexts(language, target, distractor, 100).await?.len();
        first.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        hits.1 +=
            store.material().sample_contexts(language, target, distractor, 100, 1, &HashSet::new(), &mut Default::default()).await?.len();
        sampled.push(t.elapsed().as_secs_f64() * 1e3);
    }
    print("first 100 per pair", first, hits.0);
    print("sample of 100 per pair", sampled, hits.1);
    Ok(())
}
