//! Gapwise's web server: configuration, the axum router around the Leptos app,
//! request guards, and the admin commands.

#![forbid(unsafe_code)]

pub mod backup;
pub mod cli;
pub mod demo;
pub mod error;
mod guards;
pub mod harness;
mod health;
mod language;
mod rate_limit;
pub mod remote;
mod request_log;
mod research;
pub mod runs;
mod upload;

use std::net::SocketAddr;
use std::sync::LazyLock;

use axum::http::{header, HeaderValue};
use axum::Router;
use gapwise_app::ssr::ServerContext;
use gapwise_app::{shell, App};
use gapwise_engine::Engine;
use gapwise_store::Store;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, AxumRouteListing, LeptosRoutes};
use tower_http::set_header::SetResponseHeaderLayer;

/// Largest request body accepted (answers and forms are tiny; the admin page's file
/// import has its own limit, and large corpora use the CLI).
pub const BODY_LIMIT_BYTES: usize = 64 * 1024;

/// The app's pages, listed once per process. Leptos lists them by rendering the app
/// with a process-wide switch on that makes every resource created meanwhile wait
/// for good (`SuppressResourceLoad`): a router built while another one served pages
/// (the tests serve many apps in one process) left those pages stalled mid-stream.
static PAGES: LazyLock<Vec<AxumRouteListing>> = LazyLock::new(|| generate_route_list(App));

/// Builds the whole HTTP application; refuses a setting that does not parse
/// (see [`rate_limit::TRUSTED_PROXIES`]). With `secure_cookies` (served behind TLS)
/// the cookies are Secure and `__Host-` named, and every answer carries HSTS.
pub fn router(store: Store, leptos_options: LeptosOptions, secure_cookies: bool) -> Result<Router, String> {
    let limits = rate_limit::Limits::new()?;
    let api = research::routes(store.clone()).merge(health::routes(store.clone())).merge(language::routes(secure_cookies));
    let uploads = upload::routes(store.clone());
    let context = ServerContext { store: store.clone(), engine: Engine::new(store.clone()), secure_cookies };
    let app = Router::new()
        .leptos_routes_with_context(&leptos_options, PAGES.clone(), move || provide_context(context.clone()), {
            let options = leptos_options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(leptos_options)
        .merge(api)
        .layer(axum::middleware::from_fn_with_state(store, research::staff_page_status))
        .layer(axum::middleware::from_fn_with_state(limits, rate_limit::limit));
    let guarded = guards::guard(app, BODY_LIMIT_BYTES).merge(guards::guard(uploads, upload::UPLOAD_LIMIT_BYTES));
    // behind TLS: browsers come back over TLS only, and the cookies are bound to this host
    let guarded = if secure_cookies {
        let hsts = HeaderValue::from_static(guards::HSTS);
        guarded
            .layer(axum::middleware::from_fn(guards::host_prefixed_cookies))
            .layer(SetResponseHeaderLayer::if_not_present(header::STRICT_TRANSPORT_SECURITY, hsts))
    } else {
        guarded
    };
    // compressed for clients that ask (browsers do: the wasm bundle shrinks to about a
    // third); the load tool asks for none, so the benchmarks' rounds are unchanged
    Ok(guarded.layer(tower_http::compression::CompressionLayer::new()).layer(axum::middleware::from_fn(request_log::log_request)))
}

/// Serves `app` on `listener` until Ctrl-C or SIGTERM, letting requests in flight finish.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).with_graceful_shutdown(shutdown_signal()).await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutting down");
}
