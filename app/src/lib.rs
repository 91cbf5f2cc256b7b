//! Gapwise's Leptos app: the pages, their components and the server functions they
//! call. Compiled twice: with `ssr` into the server, with `hydrate` into the wasm
//! front end. The app is built of islands: the server renders every page whole, and
//! only the parts that play rounds (`#[island]`: the game, rating, definitions, next
//! word, new words) are compiled to wasm and take over in the browser. Everything
//! else is plain HTML whose forms post and links load pages, as without JavaScript;
//! so the browser downloads the framework and the rounds, not every page.

mod address;
pub mod api;
mod components;
mod error;
pub mod i18n;
pub mod notice;
mod pages;
mod response_clock;
#[cfg(feature = "ssr")]
pub mod ssr;

use crate::i18n::msg;
use gapwise_model::Mode;
use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{path, SsrMode, StaticSegment};

pub use address::local_path;
pub use error::AppError;

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang=i18n::detect().0>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                // an icon of its own, so that browsers do not ask for a missing /favicon.ico
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <AutoReload options=options.clone()/>
                {hydration_scripts(options)}
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Leptos's hydration scripts, with the front end's wasm preloaded only where
/// scripts run (`media="(scripting: enabled)"`): without JavaScript nothing fetches
/// it, so the browser downloaded it for nothing and warned of an unused preload on
/// every page left open 3 s after its load.
fn hydration_scripts(options: LeptosOptions) -> impl IntoView {
    use leptos::tachys::{html::InertElement, view::RenderHtml};
    let html = view! { <HydrationScripts options islands=true/> }.to_html();
    InertElement::new(html.replacen(r#"<link rel="preload""#, r#"<link rel="preload" media="(scripting: enabled)""#, 1))
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    #[cfg(feature = "ssr")]
    ssr::set_content_security_policy();
    let i18n = i18n::detect();
    provide_context(i18n);
    view! {
        <Stylesheet id="leptos" href="/pkg/gapwise.css"/>
        // each page names itself in the player's language: "Play · Gapwise"
        <Title text="" formatter=|page: String| if page.is_empty() { "Gapwise".to_owned() } else { format!("{page} · Gapwise") }/>
        <Router>
            <a class="skip-link" href="#main">{i18n.t(msg::SKIP_TO_CONTENT)}</a>
            <header class="site-header">
                <A href="/" attr:class="brand">"Gapwise"</A>
                // on a phone the menu folds behind a button; a checkbox and its label
                // open it, so that it works without JavaScript too
                <input type="checkbox" id="menu-open" class="menu-toggle"/>
                <label for="menu-open" class="menu-button">{i18n.t(msg::NAV_MENU)}</label>
                <nav aria-label=i18n.t(msg::NAV_MAIN) class="main-menu">
                    {Mode::ALL.map(|mode| view! { <A href=mode.path()>{i18n.t(i18n::mode_name(mode))}</A> }).collect_view()}
                    <A href="/suggest">{i18n.t(msg::NAV_PROPOSE)}</A>
                    <A href="/friends">{i18n.t(msg::NAV_FRIENDS)}</A>
                    <A href="/leaderboard">{i18n.t(msg::NAV_LEADERBOARD)}</A>
                    <A href="/account">{i18n.t(msg::NAV_ACCOUNT)}</A>
                    <A href="/my-data">{i18n.t(msg::NAV_MY_DATA)}</A>
                </nav>
                <components::InterfaceLanguage/>
            </header>
            <main id="main">
                // Every page is rendered whole before it is sent (SsrMode::Async): its HTML
                // works without JavaScript (progressive enhancement), and a page's status
                // (an unknown pair's 404, a refusal's 401/403) reaches the headers
                <Routes fallback=pages::NotFound>
                    <Route path=path!("/") view=pages::Landing ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::Play.segment()) view=|| pages::mode_page(Mode::Play) ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::Rate.segment()) view=|| pages::mode_page(Mode::Rate) ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::Define.segment()) view=|| pages::mode_page(Mode::Define) ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::Guess.segment()) view=|| pages::mode_page(Mode::Guess) ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::NewWords.segment()) view=|| pages::mode_page(Mode::NewWords) ssr=SsrMode::Async/>
                    <Route path=StaticSegment(Mode::Cloze.segment()) view=|| pages::mode_page(Mode::Cloze) ssr=SsrMode::Async/>
                    <Route path=path!("/account") view=pages::Account ssr=SsrMode::Async/>
                    <Route path=path!("/my-data") view=pages::MyDataPage ssr=SsrMode::Async/>
                    <Route path=path!("/leaderboard") view=pages::Leaderboard ssr=SsrMode::Async/>
                    <Route path=path!("/staff") view=pages::StaffSignIn ssr=SsrMode::Async/>
                    <Route path=path!("/research") view=pages::Research ssr=SsrMode::Async/>
                    <Route path=path!("/suggest") view=pages::Suggest ssr=SsrMode::Async/>
                    <Route path=path!("/friends") view=pages::FriendsPage ssr=SsrMode::Async/>
                    <Route path=path!("/crowd/:study") view=pages::CrowdPage ssr=SsrMode::Async/>
                    <Route path=path!("/admin") view=pages::Admin ssr=SsrMode::Async/>
                    <Route path=path!("/admin/items") view=pages::AdminItems ssr=SsrMode::Async/>
                </Routes>
            </main>
            <footer class="site-footer"><A href="/staff">{i18n.t(msg::FOOTER_STAFF)}</A></footer>
        </Router>
    }
}

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
    // the islands' language, read from the page once (see `i18n::use_i18n`)
    provide_context(i18n::detect());
    forget_posted_error();
    // Leptos's loader hydrates the page's islands as soon as this returns, in
    // microtasks; a task queued now runs after them all and marks the page as taken
    // over (browser tests wait for the mark).
    set_timeout(
        || {
            if let Some(body) = document().body() {
                let _ = body.set_attribute("data-hydrated", "true");
            }
        },
        std::time::Duration::ZERO,
    );
}

/// Takes a refused plain post's error (Leptos's `__path` and `__err`) out of the
/// page's address once the page has shown it, so that a reload does not show it again.
#[cfg(feature = "hydrate")]
fn forget_posted_error() {
    use address::{query_without, POSTED_ERROR};
    let location = window().location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else { return };
    let query = search.trim_start_matches('?');
    if !form_urlencoded::parse(query.as_bytes()).any(|(key, _)| POSTED_ERROR.contains(&key.as_ref())) {
        return;
    }
    let query = query_without(query, &POSTED_ERROR).finish();
    let address = if query.is_empty() { path } else { format!("{path}?{query}") };
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address));
    }
}
