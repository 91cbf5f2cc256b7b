//! `gapwise-load`: simulated annotators against a served Gapwise, the audit of its
//! database, and (with `--bare`) the same players against a bare axum + sqlx insert
//! endpoint (in a process of its own) for the ratio, the two taking turns in
//! slices of the run. Exits non-zero when an audit fails.

#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use gapwise_load::bare::{self, Bare};
use gapwise_load::{audit, take_turns, Plan, Target};

#[derive(Parser)]
#[command(about = "Load and audit: N annotators play a served Gapwise, then every acknowledged answer is looked up")]
struct Args {
    /// The served Gapwise (or a load balancer in front of replicas).
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    url: String,
    /// Its database, for the audit (left out: no audit).
    #[arg(long)]
    database_url: Option<String>,
    #[arg(long, default_value_t = 32)]
    annotators: usize,
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Pause between seeing an item and answering it (0: as fast as the server goes).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    #[arg(long, default_value_t = 5)]
    k: u8,
    #[arg(long, default_value = "en")]
    language: String,
    /// Before the run, let every item collect this many answers (needs
    /// --database-url), so that a long run does not retire the items it plays.
    #[arg(long)]
    answers_per_item: Option<i64>,
    /// Also run the same players against a bare axum + sqlx single-INSERT endpoint and
    /// print Gapwise's answers/s as a ratio to it.
    #[arg(long)]
    bare: bool,
    /// Serve and answer only: one request a round (`answer-next` answers and
    /// returns the next item), without the game page's progress requests.
    #[arg(long)]
    lean: bool,
    /// The bare endpoint's database: a PostgreSQL URL (an empty database of its
    /// own); a SQLite file in a temporary folder when left out.
    #[arg(long)]
    bare_database_url: Option<String>,
    /// With --bare: Gapwise and the bare endpoint take turns, each playing this
    /// many slices of --seconds (see `take_turns`).
    #[arg(long, default_value_t = 5)]
    slices: u32,
    /// Serve the bare endpoint on this SQLite file or PostgreSQL URL and nothing
    /// else (how --bare starts it in a process of its own).
    #[arg(long, hide = true)]
    serve_bare: Option<String>,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = match &args.serve_bare {
        Some(file) => bare::serve(file).await.map(|()| true),
        None => load(args).await,
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the load; true when every audit passed.
async fn load(args: Args) -> Result<bool, Box<dyn std::error::Error>> {
    let plan = Plan {
        base: args.url.trim_end_matches('/').to_owned(),
        annotators: args.annotators,
        duration: Duration::from_secs_f64(args.seconds),
        think: Duration::from_millis(args.think_ms),
        k: args.k,
        language: args.language,
        lean: args.lean,
    };
    let store = match &args.database_url {
        Some(url) => Some(gapwise_store::Store::open(url).await?),
        None => None,
    };
    if let Some(n) = args.answers_per_item {
        let store = store.as_ref().ok_or("--answers-per-item needs --database-url")?;
        store.admin().set_answers_per_item("gapwise-load", n).await?;
    }
    let rounds = if plan.lean { "serve and answer only" } else { "the game page's requests" };
    println!("{} annotators for {:.0} s, thinking {} ms, {rounds}, against {}", plan.annotators, args.seconds, args.think_ms, plan.base);
    // the folder of the bare endpoint's SQLite file lives as long as the run
    let (bare, _dir) = match args.bare {
        true => {
            let dir = tempfile::tempdir()?;
            let target = args.bare_database_url.clone().unwrap_or_else(|| dir.path().join("bare.db").display().to_string());
            println!("taking turns with a bare axum+sqlx insert endpoint, {} slices each", args.slices);
            (Some(Bare::start(&std::env::current_exe()?, &target).await?), Some(dir))
        }
        false => (None, None),
    };
    let mut runs = vec![(plan.clone(), Target::Gapwise)];
    if let Some(bare) = &bare {
        runs.push((Plan { base: bare.base.clone(), ..plan }, Target::Bare));
    }
    // in the order of `runs`: Gapwise's, then the bare endpoint's if it ran
    let mut outcomes = take_turns(&runs, if bare.is_some() { args.slices } else { 1 }).await.into_iter();
    let gapwise = outcomes.next().unwrap_or_default();
    let reference = outcomes.next();
    println!("gapwise: {}", gapwise.summary());
    // a run in which nothing was acknowledged measured nothing: it fails
    let mut passed = !gapwise.acknowledged.is_empty();
    if !passed {
        println!("gapwise acknowledged no answer: FAILED");
    }
    if let Some(store) = &store {
        let audit = audit::audit(store, &gapwise.acknowledged).await?;
        println!("gapwise {}", audit.summary());
        passed &= audit.passed();
    }
    if let (Some(bare), Some(reference)) = (&bare, reference) {
        println!("bare axum+sqlx insert: {}", reference.summary());
        let audit = bare.audit(&reference.acknowledged).await?;
        println!("bare {}", audit.summary());
        passed &= audit.passed();
        println!("ratio of answers/s, gapwise / bare: {:.2}", gapwise.answers_per_second() / reference.answers_per_second());
    }
    Ok(passed)
}
