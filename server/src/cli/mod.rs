//! The `gapwise` command line: its arguments ([`args`]), the server ([`serve`]),
//! the commands that run a model ([`models`]) and those that load data.

mod accounts;
mod args;
mod data;
mod demo_models;
mod models;
mod ready;
mod serve;
mod supply;

use gapwise_model::{DefinitionTask, PlayedWord, Teaching};
use gapwise_prepare::import::ImportKind;
use gapwise_store::Store;

pub use args::{Cli, Command, FilterArgs, Kind, ModelArgs, ServeArgs, TokenArgs};

/// Runs the command; errors are printed by `main`, a failure of the database itself
/// with the database named.
pub async fn run(cli: Cli) -> Result<(), crate::error::CliError> {
    let database = database_name(&cli.database_url);
    run_command(cli).await.map_err(|e| e.naming(&database))
}

/// How errors name the database of `url`: a SQLite file by its path, a PostgreSQL
/// database by its kind only (its URL may hold a password).
fn database_name(url: &str) -> String {
    match url.parse::<gapwise_store::Backend>() {
        Ok(gapwise_store::Backend::Sqlite) => gapwise_store::sqlite_file(url).display().to_string(),
        _ => "the PostgreSQL database".to_owned(),
    }
}

async fn run_command(cli: Cli) -> Result<(), crate::error::CliError> {
    let command = cli.command.unwrap_or(Command::Serve(ServeArgs::default()));
    if let Command::Ready { addr } = command {
        return ready::ready(addr);
    }
    if let Command::Restore { file } = &command {
        // before opening: opening would create or migrate the database being replaced
        crate::backup::restore(&cli.database_url, file).await?;
        println!("restored {} from {}", cli.database_url, file.display());
        return Ok(());
    }
    // only the server and the commands that write may create a database; the
    // others refuse a database that is not there
    let store = if command.only_reads() { Store::open_read_only(&cli.database_url).await? } else { Store::open(&cli.database_url).await? };
    match command {
        Command::Serve(args) => serve::serve(store.clone(), args).await?,
        Command::Backup { file } => {
            crate::backup::backup(&store, &cli.database_url, &file).await?;
            println!("backed up to {}", file.display());
        }
        Command::Restore { .. } | Command::Ready { .. } => {} // done above
        Command::Import { kind, file } => {
            let kind = match kind {
                Kind::Sentences => ImportKind::Sentences,
                Kind::Pairs => ImportKind::Pairs,
            };
            let report = store.material().import_file(kind, &file).await?;
            println!("{}: {} rows imported, {} already present", file.display(), report.inserted, report.duplicates);
        }
        Command::BuildItems { per_k } => {
            let r = store.material().build_items(per_k).await?;
            println!("{} pairs: {} items built; {} pairs had no usable sentence", r.pairs, r.items, r.pairs_without_contexts);
            for (language, tally) in &r.contexts {
                println!("{language}: {tally}");
            }
        }
        Command::ImportCorpus { file, language, source, genre, min_chars, max_chars } => {
            let options = gapwise_prepare::corpus::CorpusOptions { language, source, genre, min_chars, max_chars };
            let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            let progress = models::progress_bar(size, "{bytes}/{total_bytes}, {bytes_per_sec}", "loading")?;
            let report = store.material().import_corpus(&file, &options, &|bytes| progress.set_position(bytes)).await?;
            progress.finish_and_clear();
            println!(
                "{}: {} sentences read, {} imported, {} already present, {} too short, {} too long",
                file.display(),
                report.sentences,
                report.inserted,
                report.duplicates,
                report.too_short,
                report.too_long
            );
        }
        Command::DistributionalPairs { language, vectors, wordfreq, words, seeds, neighbours, min_zipf, max_zipf } => {
            let vectors = gapwise_scorer::baseline::StaticVectors::from_path(&vectors)?;
            let frequencies = gapwise_prepare::wordfreq::WordFrequencies::from_file(&wordfreq)?;
            let how = crate::runs::distributional::Distributional { words, seeds, neighbours, min_zipf, max_zipf };
            let report = crate::runs::distributional::distributional_pairs(&store, &vectors, &frequencies, language, &how).await?;
            println!("{language}: {} distributional pairs added, {} already present", report.inserted, report.duplicates);
        }
        Command::ExportPairs { language } => print!("{}", store.admin().export_pairs(language).await?),
        Command::GeneratePairs { language } => {
            let report = store.material().add_a_priori_pairs(language).await?;
            println!("{language}: {} a-priori pairs added, {} already present", report.inserted, report.duplicates);
        }
        Command::Score { model, language, batch } => models::score(&store, model, language, batch).await?,
        Command::GiveawayCheck { model, language, pairs, per_pair } => {
            models::giveaway_check(&store, model, language, pairs, per_pair).await?
        }
        Command::SelectContexts { model, language, pairs, sample, per_end } => {
            let selection = crate::runs::select_contexts::Selection { pairs, sample, per_end };
            models::select_contexts(&store, model, language, selection).await?
        }
        Command::ImportWordnet { dir, wordfreq } => {
            let dir = dir.unwrap_or_else(crate::runs::score_define::default_wordnet_dir);
            let report = data::import_wordnet(&store, &dir, wordfreq).await?;
            println!("{}: {} synsets and {} groups imported", dir.display(), report.synsets, report.groups);
        }
        Command::ScoreDefine { model, task, max_candidates, groups, seed } => {
            let tasks = match task.as_deref() {
                None => DefinitionTask::ALL.to_vec(),
                Some(code) => vec![DefinitionTask::parse(code).ok_or_else(|| format!("--task is w2d or d2w, not {code:?}"))?],
            };
            let how = crate::runs::score_define::Scoring { tasks, max_size: max_candidates, groups, seed };
            models::score_definitions(&store, model, &how).await?;
        }
        Command::ScoreGuess { model, language, sentences, seed, wordfreq, vectors, neighbours } => {
            let how = crate::runs::score_guess::Guessing { language, sentences, seed, for_games: false };
            models::score_next_words(&store, model, &how, models::WordFactSources { wordfreq, vectors, neighbours }).await?;
        }
        Command::ImportNewWords { items, wordnet, seed } => {
            let text = match &items {
                Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
                None => crate::runs::score_new_words::ITEMS.to_owned(),
            };
            let wordnet = wordnet.unwrap_or_else(crate::runs::score_define::default_wordnet_dir);
            let new = crate::runs::score_new_words::import_new_words(&store, &text, &wordnet, seed).await?;
            println!("{new} invented-word items imported");
        }
        Command::ExportTask { harness: args::Harness::LmEval, mode, language, start_text, sentences, seed, dir } => {
            use crate::harness::{tasks, TaskMode};
            let modes = mode.map_or_else(TaskMode::all, |m| vec![m]);
            if sentences.is_some() && !modes.contains(&TaskMode::Guess) {
                return Err("--sentences narrows the guess tasks: add --mode guess, or leave it out".into());
            }
            let selection = tasks::Selection { sentences, seed: if sentences.is_some() { seed } else { 0 } };
            let asked = tasks::ExportAsked { modes: &modes, language, start: &start_text, selection };
            let written = tasks::export(&store, &asked, &dir).await?;
            if written.is_empty() {
                return Err("nothing to write: no items of the modes and languages asked for".into());
            }
            for w in &written {
                println!("{}: {} documents ({})", w.task, w.docs, w.yaml.display());
            }
            let tasks: Vec<&str> = written.iter().map(|w| w.task.as_str()).collect();
            println!(
                "lm_eval --model hf --model_args pretrained=MODEL,dtype=float64,logits_cache=False --include_path {} --tasks {} --log_samples --output_path OUT",
                dir.display(),
                tasks.join(",")
            );
        }
        Command::ImportScores { path, model_id, convention, replace } => {
            let options = crate::harness::results::ImportOptions { model_id, convention, replace };
            let imported = crate::harness::results::import(&store, &path, options).await?;
            let counts: Vec<String> = imported.requests.iter().map(|(mode, n)| format!("{n} {mode}")).collect();
            let how = if imported.replaced { "stored, replacing the model's values of these requests" } else { "stored" };
            println!("{}: {} requests {how}", imported.model_id, counts.join(", "));
            if !imported.other_tasks.is_empty() {
                println!("also in the run, not Gapwise's and not imported: {}", imported.other_tasks.join(", "));
            }
        }
        Command::ScoreNewWords { model, items, word, teaching, shots, seed } => {
            let words = match word.as_deref() {
                None => PlayedWord::ALL.to_vec(),
                Some(code) => {
                    vec![PlayedWord::parse(code).ok_or_else(|| format!("--word is original, invented or shifted, not {code:?}"))?]
                }
            };
            let teachings = match teaching.as_deref() {
                None => Teaching::ALL.to_vec(),
                Some(code) => vec![Teaching::parse(code).ok_or_else(|| format!("--teaching is empty, suffix or prefix, not {code:?}"))?],
            };
            let how = crate::runs::score_new_words::Judging { words, teachings, shots, items, seed };
            models::score_new_words(&store, model, &how).await?;
        }
        Command::AddStaff { name, role } => accounts::add_staff(&store, &name, &role).await?,
        Command::StaffPassword { name } => accounts::staff_password(&store, &name).await?,
        Command::RemoveStaff { name } => accounts::remove_staff(&store, &name).await?,
        Command::Token(args) => accounts::token(&store, args).await?,
        Command::Report { out, models, drop_source, curve_item, filter } => {
            let models = store.research().models_or_all(models).await?;
            let options = gapwise_model::ReportOptions { drop_sources: drop_source, curve_item: curve_item.map(gapwise_model::ItemId) };
            let files = gapwise_research::report::write_report(&store, &models, &filter.into(), &options, &out).await?;
            println!("{}: {} files ({})", out.display(), files.len(), files.join(", "));
        }
        Command::Export { out, format, models, filter } => {
            let models = store.research().models_or_all(models).await?;
            let (path, rows) = gapwise_research::export::export_folder(&store, format.parse()?, &models, &filter.into(), &out).await?;
            println!("{}: {rows} answers", path.display());
        }
    }
    store.close().await;
    Ok(())
}
