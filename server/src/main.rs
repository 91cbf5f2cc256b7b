#![forbid(unsafe_code)]

use clap::Parser;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// mimalloc keeps freed memory for the next allocation where glibc's allocator hands
/// large blocks back to the system; a model's forward pass allocates a fresh buffer
/// for every op, and faulting them in again was a twentieth of scoring time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // before the runtime's threads start (it sets an environment variable)
    gapwise_scorer::settle_thread_pool();
    match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
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
    // colours only on a terminal: a log file or a collector gets plain text
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(std::io::stdout().is_terminal());
    if std::env::var("GAPWISE_LOG_FORMAT").is_ok_and(|f| f == "json") {
        logs.json().init();
    } else {
        logs.init();
    }
    match gapwise_server::cli::run(gapwise_server::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(e.exit_code())
        }
    }
}
