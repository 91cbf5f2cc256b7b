use clap::Parser;
use tracing_subscriber::EnvFilter;

/// Tokio worker threads at least: Leptos 0.8's server-side rendering can stall a
/// response for good on a runtime of one or two workers (leptos-rs/leptos#4647 and
/// #4578; the tests saw it twice in about forty runs on a runtime of one).
const MIN_WORKERS: usize = 4;

fn main() -> std::process::ExitCode {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    match tokio::runtime::Builder::new_multi_thread().worker_threads(cores.max(MIN_WORKERS)).enable_all().build() {
        Ok(runtime) => runtime.block_on(run()),
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> std::process::ExitCode {
    // RUST_LOG picks what is logged (info by default); GAPWISE_LOG_FORMAT=json writes
    // one JSON object per event, for log collectors
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    if std::env::var("GAPWISE_LOG_FORMAT").is_ok_and(|f| f == "json") {
        logs.json().init();
    } else {
        logs.init();
    }
    match gapwise_server::cli::run(gapwise_server::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
