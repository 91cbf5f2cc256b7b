//! `gapwise serve`: the demo data and the define and new-words modes' data loaded
//! into an empty database, then the web server, which removes ended sessions and
//! tokens every hour.

use gapwise_store::Store;
use leptos::config::get_configuration;

use super::args::ServeArgs;
use super::data::import_wordnet;

/// The first start's steps (bits of the mark that [`gapwise_store::FirstStart::mark`] keeps).
const DEMO: i64 = 1;
const DEFINE_GROUPS: i64 = 2;
const NEW_WORDS: i64 = 4;

/// Loads what an empty database lacks: the demo data (and, with `models`, lists
/// the demo's model data to prepare), WordNet's groups for the word-definition
/// game, the invented-word items. Replicas started together wait for
/// one another (one loads, the others find it loaded); the steps are marked while
/// they run, so that a start cut short (a crash, a lost database) is finished by the
/// next one, and only those steps: a database with data of its own is never given the
/// demo's.
async fn load_first_start(store: &Store, models: bool) -> Result<(), crate::error::CliError> {
    let _lock = store.first_start().lock().await?;
    let empty = |table: &'static str| async move { store.count_rows(table).await.map(|n| n == 0) };
    let steps = match store.first_start().unfinished().await? {
        Some(steps) => steps,
        None => {
            (if empty("sentences").await? { DEMO } else { 0 })
                | (if empty("define_groups").await? { DEFINE_GROUPS } else { 0 })
                | (if empty("new_words_items").await? { NEW_WORDS } else { 0 })
        }
    };
    if steps == 0 {
        return Ok(());
    }
    store.first_start().mark(steps).await?;
    if steps & DEMO != 0 {
        if let Some(r) = crate::demo::seed_if_empty(store, true).await? {
            tracing::info!(pairs = r.pairs, items = r.items, "loaded the demo data");
            for (language, tally) in &r.contexts {
                tracing::info!(%language, "the demo's contexts: {tally}");
            }
        }
        if models {
            super::demo_models::plan(store).await?;
        }
    }
    // the word-definition groups and the invented-word items both come from WordNet
    let dir = crate::runs::score_define::default_wordnet_dir();
    if steps & DEFINE_GROUPS != 0 {
        if dir.join("data.noun").is_file() {
            let r = import_wordnet(store, &dir, None).await?;
            tracing::info!(synsets = r.synsets, groups = r.groups, "loaded WordNet for the word-definition game");
        } else {
            tracing::warn!("no WordNet in {}: the word-definition game has no groups (apt install wordnet-base)", dir.display());
        }
    }
    if steps & NEW_WORDS != 0 {
        if dir.join("index.noun").is_file() {
            let new = crate::runs::score_new_words::import_new_words(
                store,
                crate::runs::score_new_words::ITEMS,
                &dir,
                crate::runs::score_new_words::SEED,
            )
            .await?;
            tracing::info!(items = new, "loaded the invented-word items");
        } else {
            tracing::warn!("no WordNet in {}: the invented-word game has no items (apt install wordnet-base)", dir.display());
        }
    }
    store.first_start().done().await?;
    Ok(())
}

/// How often the server removes the sessions and API tokens that have ended.
const END_EXPIRED_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the sessions and API tokens that have ended (they are refused already),
/// now and every [`END_EXPIRED_EVERY`], until the store closes.
async fn end_expired_often(store: Store) {
    let mut every = tokio::time::interval(END_EXPIRED_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if store.pool().is_closed() {
            return;
        }
        match store.end_expired().await {
            Ok(ended) => tracing::debug!(?ended, "removed the sessions and API tokens that had ended"),
            Err(e) => tracing::warn!("removing the sessions and API tokens that had ended: {e}"),
        }
    }
}

pub(super) async fn serve(store: Store, args: ServeArgs) -> Result<(), crate::error::CliError> {
    if !args.no_demo {
        load_first_start(&store, !args.no_demo_models).await?;
    }
    tokio::spawn(end_expired_often(store.clone()));
    // raised once the server has stopped serving: the demo's model preparation ends
    // after its batch in flight instead of holding the process up
    let stop_preparing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    if !args.no_demo_models {
        super::demo_models::resume(&store, stop_preparing.clone()).await?;
        super::supply::keep(store.clone(), stop_preparing.clone());
    }
    let mut options = get_configuration(None)?.leptos_options;
    if options.output_name.is_empty() {
        options.output_name = "gapwise".into();
    }
    let addr = args.addr.unwrap_or(options.site_addr);
    let app = crate::router(store, options, args.secure_cookies)?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    // Printed for people and for scripts that start the server on port 0.
    println!("listening on http://{}", listener.local_addr()?);
    let served = crate::serve(listener, app).await;
    stop_preparing.store(true, std::sync::atomic::Ordering::SeqCst);
    served?;
    Ok(())
}
