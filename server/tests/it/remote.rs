//! A model behind an OpenAI-compatible server as a scorer, against a real one:
//! llama-cpp-python's server (from PyPI, built by scripts/setup.sh) serving SmolLM2's
//! GGUF. `gapwise score --model openai+URL#MODEL --start-text '<|im_start|>'` on the
//! English items of a slice of the demo stores what `gapwise score --start-token bos`
//! stores on the same file, within the tolerance of the scorer's llama.cpp fixtures
//! for this quantized file (llama.cpp rounds the activations to 8 bits: 2 nats a
//! sentence), and so do its invented-word judgements; a server killed mid-run stops
//! the run with what it stored kept, and the run resumes on the restarted server
//! without asking or storing anything twice.
//! Refused by name: no server, a model it does not serve, a server whose prompt
//! log-probabilities are not each token's after the ones before (llama-cpp-python
//! without the BOS in the prompt), and the next-word game.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sqlx::Row;

use crate::common::cli;

/// llama.cpp's Q4_1 against the scorer's dequantized weights (causal_reference.rs).
const SENTENCE_TOLERANCE: f64 = 2.0;
const MODEL: &str = "smollm2";

struct LlamaServer {
    child: Child,
    port: u16,
    log: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}

impl LlamaServer {
    /// llama-cpp-python's server on `port`, serving SmolLM2 as `smollm2`, once it
    /// answers.
    fn start(port: u16, log: &Path) -> LlamaServer {
        let python = std::env::var("GAPWISE_TEST_PYTHON")
            .expect("GAPWISE_TEST_PYTHON (with llama-cpp-python[server]) is not set: run scripts/test.sh");
        let gguf = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
        let file = std::fs::File::create(log).expect("log");
        let child = Command::new(python)
            .args(["-m", "llama_cpp.server", "--model", &gguf, "--model_alias", MODEL, "--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--n_ctx", "1024", "--logits_all", "true", "--n_threads", "2", "--verbose", "false"])
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("start llama-cpp-python's server");
        let mut server = LlamaServer { child, port, log: log.to_owned() };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if started.elapsed() > Duration::from_secs(120) || server.child.try_wait().expect("wait").is_some() {
                server.kill();
                panic!("llama-cpp-python's server did not start: {}", std::fs::read_to_string(&server.log).unwrap_or_default());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        server
    }

    fn spec(&self, model: &str) -> String {
        format!("openai+http://127.0.0.1:{}/v1#{model}", self.port)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn contexts(url: &str, model: &str) -> BTreeMap<(i64, i64), (f64, f64)> {
    let pool = sqlx::SqlitePool::connect(url).await.expect("open");
    let rows = sqlx::query("SELECT pair_id, sentence_id, target_logprob, distractor_logprob FROM context_scores WHERE model_id = ?")
        .bind(model)
        .fetch_all(&pool)
        .await
        .expect("scores");
    rows.iter().map(|r| ((r.get(0), r.get(1)), (r.get(2), r.get(3)))).collect()
}

async fn judgements(url: &str, model: &str) -> BTreeMap<(String, String, String), (f64, f64)> {
    let pool = sqlx::SqlitePool::connect(url).await.expect("open");
    let rows =
        sqlx::query("SELECT item_id, word, teaching, log_likelihood_a, log_likelihood_b FROM new_words_judgements WHERE model_id = ?")
            .bind(model)
            .fetch_all(&pool)
            .await
            .expect("judgements");
    rows.iter().map(|r| ((r.get(0), r.get(1), r.get(2)), (r.get(3), r.get(4)))).collect()
}

fn refused(url: &str, args: &[&str], why: &str) {
    let (ok, said) = cli(url, args);
    assert!(!ok && said.contains(why), "gapwise {} should be refused with {why:?}: {said}", args.join(" "));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_server_scores_as_gapwise_does_on_the_same_gguf_and_resumes_after_a_crash() {
    let work = tempfile::tempdir().expect("tmp");
    let db = work.path().join("gapwise.db");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lm_eval/gapwise.db"), &db).expect("the demo slice");
    let url = format!("sqlite://{}", db.display());
    let log = work.path().join("server.log");
    let port = free_port();

    refused(&url, &["score", "--model", &format!("openai+http://127.0.0.1:{port}/v1#{MODEL}"), "--language", "en"], "no server answers");
    let mut server = LlamaServer::start(port, &log);
    refused(&url, &["score", "--model", &server.spec("nope"), "--language", "en"], "serves no model \"nope\" (it serves: smollm2)");
    // SmolLM2's GGUF adds no BOS: without one in the prompt llama-cpp-python 0.3.36
    // gives each token's probability after itself
    refused(&url, &["score", "--model", &server.spec(MODEL), "--language", "en"], "not each token's after the ones before it");
    refused(&url, &["score-guess", "--model", &server.spec(MODEL), "--start-text", "<|im_start|>", "--language", "en"], "behind a server");

    let remote = |id: &'static str, batch: &'static str| {
        let spec = server.spec(MODEL);
        move || -> Vec<String> {
            [
                "score",
                "--model",
                &spec,
                "--start-text",
                "<|im_start|>",
                "--model-id",
                id,
                "--language",
                "en",
                "--batch",
                batch,
                "--parallel",
                "2",
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
        }
    };
    let args = remote("remote", "8")();
    let (ok, said) = cli(&url, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(ok, "{said}");
    let gguf = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("gguf");
    let (ok, said) = cli(&url, &["score", "--model", &gguf, "--start-token", "bos", "--model-id", "here", "--language", "en"]);
    assert!(ok, "{said}");
    let (theirs, ours) = (contexts(&url, "remote").await, contexts(&url, "here").await);
    assert!(theirs.len() >= 20, "{} contexts", theirs.len());
    assert_eq!(theirs.keys().collect::<Vec<_>>(), ours.keys().collect::<Vec<_>>(), "the same contexts");
    let mut worst = 0.0f64;
    for (key, (t, d)) in &theirs {
        let (ot, od) = ours[key];
        worst = worst.max((t - ot).abs()).max((d - od).abs());
        assert!(
            (t - ot).abs() <= SENTENCE_TOLERANCE && (d - od).abs() <= SENTENCE_TOLERANCE,
            "{key:?}: server ({t}, {d}), gapwise ({ot}, {od})"
        );
    }
    println!("{} contexts: largest difference from gapwise score {worst:.3} nats a sentence", theirs.len());

    // invented words through the server: each option's partial score, as here
    let spec = server.spec(MODEL);
    for args in [
        [
            "score-new-words",
            "--model",
            spec.as_str(),
            "--start-text",
            "<|im_start|>",
            "--model-id",
            "remote",
            "--items",
            "4",
            "--word",
            "original",
        ],
        ["score-new-words", "--model", gguf.as_str(), "--start-token", "bos", "--model-id", "here", "--items", "4", "--word", "original"],
    ] {
        let (ok, said) = cli(&url, &args);
        assert!(ok, "{said}");
    }
    let (served, here) = (judgements(&url, "remote").await, judgements(&url, "here").await);
    // (a few: llama-cpp-python takes ~2 s a request, sorting the vocabulary per token)
    assert!(served.len() >= 10, "{} judgements", served.len());
    assert_eq!(served.keys().collect::<Vec<_>>(), here.keys().collect::<Vec<_>>(), "the same setups");
    for (key, (t0, t1)) in &served {
        let (o0, o1) = here[key];
        assert!(
            (t0 - o0).abs() <= SENTENCE_TOLERANCE && (t1 - o1).abs() <= SENTENCE_TOLERANCE,
            "{key:?}: server ({t0}, {t1}), gapwise ({o0}, {o1})"
        );
    }

    // killed mid-run: what was stored stays; the rerun asks only for the rest
    let args = remote("resumed", "2")();
    let mut run = Command::new(env!("CARGO_BIN_EXE_gapwise"))
        .args(&args)
        .env("DATABASE_URL", &url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gapwise");
    let started = Instant::now();
    while contexts(&url, "resumed").await.len() < 6 {
        assert!(started.elapsed() < Duration::from_secs(300) && run.try_wait().expect("wait").is_none(), "the run stored nothing");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.kill();
    let out = run.wait_with_output().expect("the run ends");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && said.contains("model server"), "{said}");
    let kept = contexts(&url, "resumed").await;
    assert!(kept.len() < theirs.len(), "stopped before the end: {} of {}", kept.len(), theirs.len());
    let mut server = LlamaServer::start(port, &log);
    let (ok, said) = cli(&url, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let rest = theirs.len() - kept.len();
    assert!(ok && said.contains(&format!("resumed: {rest} contexts scored")), "only the {rest} not stored are asked: {said}");
    let resumed = contexts(&url, "resumed").await;
    assert_eq!(resumed.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>(), "every context once");
    for (key, value) in &kept {
        assert_eq!(resumed[key], *value, "{key:?}: kept as stored before the crash");
    }
    for (key, (t, d)) in &resumed {
        assert!((t - theirs[key].0).abs() < 1e-3 && (d - theirs[key].1).abs() < 1e-3, "{key:?}: the same server scores alike");
    }
    server.kill();
}
