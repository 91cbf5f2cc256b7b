//! `gapwise serve`: the demo data and the define and new-words modes' data loaded
//! into an empty database, then the web server.

use gapwise_store::Store;
use leptos::config::get_configuration;

use super::args::ServeArgs;
use super::data::import_wordnet;

pub(super) async fn serve(store: Store, args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    if !args.no_demo {
        // replicas started together: one loads while the others wait, then find it
        // loaded; a loading cut short (a crash, a lost database) is finished
        let _lock = store.first_start_lock().await?;
        let resume = store.first_start_unfinished().await?;
        store.mark_first_start(true).await?;
        if let Some(r) = crate::demo::seed_if_empty(&store, resume).await? {
            tracing::info!(pairs = r.pairs, items = r.items, "loaded the demo data");
        }
        // the word-definition groups and the invented-word items both come from WordNet
        let dir = crate::define::default_wordnet_dir();
        if resume || store.count_rows("define_groups").await? == 0 {
            if dir.join("data.noun").is_file() {
                let r = import_wordnet(&store, &dir, None).await?;
                tracing::info!(synsets = r.synsets, groups = r.groups, "loaded WordNet for the word-definition game");
            } else {
                tracing::warn!("no WordNet in {}: the word-definition game has no groups (apt install wordnet-base)", dir.display());
            }
        }
        if resume || store.count_rows("new_words_items").await? == 0 {
            if dir.join("index.noun").is_file() {
                let new = crate::new_words::import_new_words(&store, crate::new_words::ITEMS, &dir, crate::new_words::SEED).await?;
                tracing::info!(items = new, "loaded the invented-word items");
            } else {
                tracing::warn!("no WordNet in {}: the invented-word game has no items (apt install wordnet-base)", dir.display());
            }
        }
        store.mark_first_start(false).await?;
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
    crate::serve(listener, app).await?;
    Ok(())
}
