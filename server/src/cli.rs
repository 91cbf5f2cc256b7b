//! The `gapwise` command line: the server and the admin commands.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use gapwise_model::Teaching;
use gapwise_model::{AnswerFilter, DefinitionTask, WinoWord};
use gapwise_prepare::import::{ImportKind};
use gapwise_store::Store;
use leptos::config::get_configuration;

/// Gapwise: a word-guessing game that compares people with language models.
#[derive(Debug, Parser)]
#[command(name = "gapwise", version)]
pub struct Cli {
    /// Database: a SQLite file (created on first start) or a PostgreSQL URL.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/gapwise.db", global = true)]
    pub database_url: String,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server (the default).
    Serve(ServeArgs),
    /// Write a backup of the database to a new file while the game runs (SQLite:
    /// a consistent copy; PostgreSQL: pg_dump's custom format).
    Backup { file: PathBuf },
    /// Replace the database by a backup (stop the server first; for PostgreSQL the
    /// database must exist). The backup is checked before anything is replaced.
    Restore { file: PathBuf },
    /// Import a TSV or JSONL file of sentences or word pairs (all rows or none).
    Import {
        #[arg(value_enum)]
        kind: Kind,
        file: PathBuf,
    },
    /// Add the a-priori word pairs of a language: every two cardinals, ordinals,
    /// months, days of the week or colours (data/pairs/a_priori.tsv).
    GeneratePairs {
        /// en, es, fr, it or ru.
        #[arg(long)]
        language: String,
    },
    /// Import a large corpus of sentences (.txt running text, .tsv or .jsonl),
    /// checked first, then streamed in with a progress bar; a rerun resumes.
    ImportCorpus {
        file: PathBuf,
        /// Language of lines that do not name one (en, es, fr, it, ru).
        #[arg(long)]
        language: Option<String>,
        /// Source of lines that do not name one (e.g. wikipedia, subtitles).
        #[arg(long)]
        source: Option<String>,
        /// Genre of lines that do not name one (e.g. encyclopedia, fiction).
        #[arg(long)]
        genre: Option<String>,
        /// Shortest sentence kept, in characters.
        #[arg(long, default_value_t = gapwise_prepare::corpus::CorpusOptions::default().min_chars)]
        min_chars: usize,
        /// Longest sentence kept, in characters.
        #[arg(long, default_value_t = gapwise_prepare::corpus::CorpusOptions::default().max_chars)]
        max_chars: usize,
    },
    /// Add distributional word pairs: nearest neighbours in static word vectors,
    /// both words within a Zipf frequency band of wordfreq's data and in the corpus.
    DistributionalPairs {
        #[arg(long)]
        language: String,
        /// GloVe/word2vec text file, or a .npy matrix with its .vocab file.
        #[arg(long)]
        vectors: PathBuf,
        /// wordfreq's `large_<lang>.msgpack.gz` (PyPI wordfreq 3.1.1, `wordfreq/data/`).
        #[arg(long)]
        wordfreq: PathBuf,
        /// Seed words, comma-separated; by default the most frequent fitting words.
        #[arg(long, value_delimiter = ',')]
        words: Vec<String>,
        /// Seeds taken when no words are given.
        #[arg(long, default_value_t = 20)]
        seeds: usize,
        /// Distractors per seed.
        #[arg(long, default_value_t = 3)]
        neighbours: usize,
        #[arg(long, default_value_t = 3.0)]
        min_zipf: f64,
        #[arg(long, default_value_t = 5.5)]
        max_zipf: f64,
    },
    /// Print the word pairs (of one language, or all) as a TSV file that `import
    /// pairs` reads back.
    ExportPairs {
        #[arg(long)]
        language: Option<String>,
    },
    /// Build items for every active pair that has none yet.
    BuildItems {
        /// Items per pair for each k in {1, 3, 5}.
        #[arg(long, default_value_t = gapwise_store::ITEMS_PER_K)]
        per_k: usize,
    },
    /// Score every item with a language model (Eq. 2), resuming where an earlier
    /// run stopped; Ctrl-C stops after the batch in flight, keeping what is scored.
    Score {
        #[command(flatten)]
        model: ModelArgs,
        /// Score only the items of this language (en, es, fr, it, ru); all by default.
        #[arg(long)]
        language: Option<String>,
        /// Contexts per batch; each batch is committed before the next starts.
        #[arg(long, default_value_t = 64)]
        batch: usize,
    },
    /// Section 6: for each pair of a language, score a sample of its sentences and
    /// publish the lowest- and highest-scoring ones as single-context Likert items
    /// (a sentence serves one pair only; pairs that have Likert items are skipped).
    SelectContexts {
        #[command(flatten)]
        model: ModelArgs,
        /// The language of the pairs (en, es, fr, it, ru).
        #[arg(long)]
        language: String,
        /// Only this many pairs: the hardest half and the easiest half by success
        /// rate in the game; every pair without Likert items by default.
        #[arg(long)]
        pairs: Option<usize>,
        /// Sentences scored per pair.
        #[arg(long, default_value_t = crate::select::Selection::default().sample)]
        sample: usize,
        /// Items kept at each end of the ranking.
        #[arg(long, default_value_t = crate::select::Selection::default().per_end)]
        per_end: usize,
    },
    /// Import WordNet 3.0's noun and verb synsets and their groups G(t) for the
    /// word-definition game (W2D, D2W); what is present already is kept.
    ImportWordnet {
        /// The WordNet database folder; defaults to GAPWISE_WORDNET or /usr/share/wordnet
        /// (Debian's wordnet-base).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// wordfreq's large_en.msgpack.gz, for the frequency strata; defaults to the
        /// copy scripts/fetch_model.sh wordfreq-en caches, when there is one.
        #[arg(long)]
        wordfreq: Option<PathBuf>,
    },
    /// Score word-definition groups (W2D and D2W) with a model: the groups people
    /// played first, then others; each group is stored when done, so a rerun resumes.
    ScoreDefinitions {
        #[command(flatten)]
        model: ModelArgs,
        /// Only this task (w2d or d2w); both by default.
        #[arg(long)]
        task: Option<String>,
        /// Only groups of at most this many members (the paper's human study: 10).
        #[arg(long, default_value_t = gapwise_model::DEFAULT_DEFINITION_CAP)]
        max_candidates: u32,
        /// Groups per task.
        #[arg(long, default_value_t = 100)]
        groups: usize,
        /// Seed of the order in which groups nobody played are taken.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Next-word game: a causal model's whole-word predictions for sentences of a
    /// language (those people played first), then the facts the analyses need of
    /// every word guessed or predicted: its frequency and its neighbours in word vectors.
    ScoreNextWords {
        #[command(flatten)]
        model: ModelArgs,
        /// en, es, fr, it or ru.
        #[arg(long, default_value = "en")]
        language: String,
        /// Sentences to predict.
        #[arg(long, default_value_t = 50)]
        sentences: usize,
        /// Seed of the order in which sentences nobody played are taken.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// wordfreq's large_<lang>.msgpack.gz, for the frequency bins; defaults to the
        /// copy scripts/fetch_model.sh wordfreq-en caches, for English.
        #[arg(long)]
        wordfreq: Option<PathBuf>,
        /// Word vectors for soft match (GloVe/word2vec text, or .npy with its .vocab).
        #[arg(long)]
        vectors: Option<PathBuf>,
        /// Nearest neighbours kept per word: a guess among them is a soft match.
        #[arg(long, default_value_t = 10)]
        neighbours: usize,
    },
    /// Load invented-word (WinoDict) items: each gets an invented word from a letter
    /// model of WordNet's lemmas and a meaning-shift partner; items present are kept.
    ImportWinodict {
        /// Items as JSON lines (see data/winodict/README.md); the shipped 650 by default.
        #[arg(long)]
        items: Option<PathBuf>,
        /// The WordNet database folder; defaults to GAPWISE_WORDNET or /usr/share/wordnet.
        #[arg(long)]
        wordnet: Option<PathBuf>,
        /// Seed of the invented words and meaning-shift partners.
        #[arg(long, default_value_t = crate::winodict::SEED)]
        seed: u64,
    },
    /// Judge invented-word items with a causal model by partial scoring: the items
    /// people answered first, then others; each batch is stored when done, so a rerun resumes.
    ScoreWinodict {
        #[command(flatten)]
        model: ModelArgs,
        /// Items per setup.
        #[arg(long, default_value_t = 100)]
        items: usize,
        /// Only this word: original, invented or shifted; all three by default.
        #[arg(long)]
        word: Option<String>,
        /// Only this place for the definition: empty (none), suffix or prefix; all by default.
        #[arg(long)]
        teaching: Option<String>,
        /// Solved items put before each item (the same ones for every item of the run).
        #[arg(long, default_value_t = 0)]
        shots: usize,
        /// Seed of the order in which items nobody answered are taken.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Create a researcher or admin account; the password is read from
    /// GAPWISE_PASSWORD or, without it, from the first line of standard input.
    AddStaff {
        name: String,
        #[arg(long, value_parser = ["researcher", "admin"])]
        role: String,
    },
    /// Make an API token for a staff account (printed once; only its hash is kept).
    /// Scripts send it as `Authorization: Bearer TOKEN`.
    Token {
        name: String,
        /// What the token is for, to recognise it later.
        #[arg(long, default_value = "")]
        label: String,
    },
    /// Write the paper's tables (Markdown and CSV) and figures (SVG) for the current
    /// database into a folder, with README.md as the index.
    Report {
        /// Folder to write into (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// Models to compare with people, comma-separated; all scored models by default.
        #[arg(long, value_delimiter = ',')]
        models: Option<Vec<String>>,
        /// Leave answers with a context from this source out of the filtered rates
        /// (the paper drops wikipedia); repeatable.
        #[arg(long)]
        drop_source: Vec<String>,
        #[command(flatten)]
        filter: FilterArgs,
    },
    /// Write the anonymised answers, their dataset card (README.md) and LICENSE into a folder.
    Export {
        /// Folder to write into (created if needed).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value = "csv", value_parser = ["csv", "jsonl", "parquet"])]
        format: String,
        /// Models whose Eq. 2 scores become columns, comma-separated; all scored models by default.
        #[arg(long, value_delimiter = ',')]
        models: Option<Vec<String>>,
        #[command(flatten)]
        filter: FilterArgs,
    },
}

/// The model a scoring command runs.
#[derive(Debug, clap::Args)]
pub struct ModelArgs {
    /// A GGUF causal model file (Llama, Gemma 3), a Hugging Face model directory
    /// (causal: GPT-2, Llama, Mistral, Qwen2/3, Phi-3, Gemma 1-3; masked: BERT,
    /// DistilBERT, RoBERTa, XLM-R, CamemBERT), or a Hub id such as bert-base-uncased
    /// (found in the Hugging Face cache, else downloaded into it); defaults to a model
    /// that scripts/fetch_model.sh caches: SmolLM2 for English or all languages,
    /// Gemma 3 270M for --language es, fr, it or ru.
    #[arg(long, env = "GAPWISE_MODEL")]
    model: Option<String>,
    /// Name the scores are stored under; defaults to the model's file, directory or
    /// Hub name, with the conventions that differ from the model's defaults.
    #[arg(long)]
    model_id: Option<String>,
    /// How a masked LM scores a word: mask (the paper's), pll-original or pll-word-l2r.
    #[arg(long, default_value = "mask")]
    mlm_scoring: gapwise_scorer::masked::MaskedScoring,
    /// The token a causal LM reads before each sentence: auto (what the model
    /// family's authors do: BOS where their tokenizer prepends it, else the
    /// end-of-text token), bos, eos, or none.
    #[arg(long, default_value = "auto")]
    start_token: gapwise_scorer::StartToken,
    /// Whether a causal LM's first token counts: auto (yes after a start token; it
    /// cannot without one), scored, or unscored.
    #[arg(long, default_value = "auto")]
    first_token: gapwise_scorer::FirstToken,
    /// Score with a baseline instead: unigram or bigram (--model is a corpus,
    /// one sentence per line) or vectors (--model is a GloVe/word2vec text file).
    #[arg(long, value_parser = ["unigram", "bigram", "vectors"])]
    baseline: Option<String>,
    /// Add-k smoothing of the n-gram baselines.
    #[arg(long, default_value_t = 0.5)]
    add_k: f64,
}

impl ModelArgs {
    fn conventions(&self) -> gapwise_scorer::Conventions {
        gapwise_scorer::Conventions { masked: self.mlm_scoring, start: self.start_token, first_token: self.first_token }
    }

    /// The id scores are stored under when none is given: the model's name, with each
    /// convention asked for other than the default.
    fn default_id(&self, name: &str, kind: &str) -> String {
        if let Some(baseline) = &self.baseline {
            return format!("{name}-{baseline}");
        }
        let mut id = name.to_owned();
        let masked = gapwise_scorer::masked::MaskedScoring::default();
        if kind == "masked" && self.mlm_scoring != masked {
            id.push_str(&format!("-{}", self.mlm_scoring));
        }
        if kind == "causal" && self.start_token != gapwise_scorer::StartToken::Auto {
            id.push_str(&format!("-start-{}", self.start_token));
        }
        if kind == "causal" && self.first_token != gapwise_scorer::FirstToken::Auto {
            id.push_str(&format!("-first-{}", self.first_token));
        }
        id
    }
}

/// Which answers an export or report covers (all when no option is given).
#[derive(Debug, Default, clap::Args)]
pub struct FilterArgs {
    /// Only this language (en, es, fr, it, ru).
    #[arg(long)]
    pub language: Option<String>,
    /// Only items with this many contexts (1, 3 or 5).
    #[arg(long)]
    pub k: Option<u8>,
    /// Only pairs made by this strategy (a-priori, distributional, suggested).
    #[arg(long)]
    pub strategy: Option<String>,
    /// Only answers given on or after this UTC day (YYYY-MM-DD).
    #[arg(long)]
    pub from: Option<String>,
    /// Only answers given on or before this UTC day (YYYY-MM-DD).
    #[arg(long)]
    pub to: Option<String>,
}

impl From<FilterArgs> for AnswerFilter {
    fn from(a: FilterArgs) -> Self {
        AnswerFilter { language: a.language, k: a.k, strategy: a.strategy, from: a.from, to: a.to }
    }
}

#[derive(Debug, Default, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on; defaults to LEPTOS_SITE_ADDR or 127.0.0.1:3000.
    #[arg(long, env = "GAPWISE_ADDR")]
    pub addr: Option<SocketAddr>,
    /// Do not load the demo data into an empty database.
    #[arg(long, env = "GAPWISE_NO_DEMO")]
    pub no_demo: bool,
    /// Mark cookies Secure (set this when serving over TLS).
    #[arg(long, env = "GAPWISE_SECURE_COOKIES")]
    pub secure_cookies: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Kind {
    Sentences,
    Pairs,
}

/// Runs the command; errors are printed by `main`.
pub async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let command = cli.command.unwrap_or(Command::Serve(ServeArgs::default()));
    if let Command::Restore { file } = &command {
        // before opening: opening would create or migrate the database being replaced
        crate::backup::restore(&cli.database_url, file).await?;
        println!("restored {} from {}", cli.database_url, file.display());
        return Ok(());
    }
    let store = Store::open(&cli.database_url).await?;
    match command {
        Command::Serve(args) => serve(store.clone(), args).await?,
        Command::Backup { file } => {
            crate::backup::backup(&store, &cli.database_url, &file).await?;
            println!("backed up to {}", file.display());
        }
        Command::Restore { .. } => {} // restored above
        Command::Import { kind, file } => {
            let kind = match kind {
                Kind::Sentences => ImportKind::Sentences,
                Kind::Pairs => ImportKind::Pairs,
            };
            let report = store.import_file(kind, &file).await?;
            println!("{}: {} rows imported, {} already present", file.display(), report.inserted, report.duplicates);
        }
        Command::BuildItems { per_k } => {
            let r = store.build_items(per_k).await?;
            println!(
                "{} pairs: {} items built; {} pairs had no usable sentence",
                r.pairs, r.items, r.pairs_without_contexts
            );
        }
        Command::ImportCorpus { file, language, source, genre, min_chars, max_chars } => {
            let options = gapwise_prepare::corpus::CorpusOptions { language, source, genre, min_chars, max_chars };
            let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            let progress = progress_bar(size, "{bytes}/{total_bytes}, {bytes_per_sec}", "loading")?;
            let report = store.import_corpus(&file, &options, &|bytes| progress.set_position(bytes)).await?;
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
            let how = crate::distributional::Distributional { words, seeds, neighbours, min_zipf, max_zipf };
            let report = crate::distributional::distributional_pairs(&store, &vectors, &frequencies, &language, &how).await?;
            println!("{language}: {} distributional pairs added, {} already present", report.inserted, report.duplicates);
        }
        Command::ExportPairs { language } => print!("{}", store.export_pairs(language.as_deref()).await?),
        Command::GeneratePairs { language } => {
            let report = store.add_a_priori_pairs(&language).await?;
            println!("{language}: {} a-priori pairs added, {} already present", report.inserted, report.duplicates);
        }
        Command::Score { model, language, batch } => score(&store, model, language, batch).await?,
        Command::SelectContexts { model, language, pairs, sample, per_end } => {
            let selection = crate::select::Selection { pairs, sample, per_end };
            select_contexts(&store, model, &language, selection).await?
        }
        Command::ImportWordnet { dir, wordfreq } => {
            let dir = dir.unwrap_or_else(crate::definitions::default_wordnet_dir);
            let report = import_wordnet(&store, &dir, wordfreq).await?;
            println!("{}: {} synsets and {} groups imported", dir.display(), report.synsets, report.groups);
        }
        Command::ScoreDefinitions { model, task, max_candidates, groups, seed } => {
            let tasks = match task.as_deref() {
                None => DefinitionTask::ALL.to_vec(),
                Some(code) => vec![DefinitionTask::parse(code).ok_or_else(|| format!("--task is w2d or d2w, not {code:?}"))?],
            };
            let how = crate::definitions::Scoring { tasks, max_size: max_candidates, groups, seed };
            score_definitions(&store, model, &how).await?;
        }
        Command::ScoreNextWords { model, language, sentences, seed, wordfreq, vectors, neighbours } => {
            let how = crate::guessing::Guessing { language, sentences, seed };
            score_next_words(&store, model, &how, wordfreq, vectors, neighbours).await?;
        }
        Command::ImportWinodict { items, wordnet, seed } => {
            let text = match &items {
                Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
                None => crate::winodict::ITEMS.to_owned(),
            };
            let wordnet = wordnet.unwrap_or_else(crate::definitions::default_wordnet_dir);
            let new = crate::winodict::import_winodict(&store, &text, &wordnet, seed).await?;
            println!("{new} invented-word items imported");
        }
        Command::ScoreWinodict { model, items, word, teaching, shots, seed } => {
            let words = match word.as_deref() {
                None => WinoWord::ALL.to_vec(),
                Some(code) => vec![WinoWord::parse(code).ok_or_else(|| format!("--word is original, invented or shifted, not {code:?}"))?],
            };
            let teachings = match teaching.as_deref() {
                None => Teaching::ALL.to_vec(),
                Some(code) => vec![Teaching::parse(code).ok_or_else(|| format!("--teaching is empty, suffix or prefix, not {code:?}"))?],
            };
            let how = crate::winodict::Judging { words, teachings, shots, items, seed };
            score_winodict(&store, model, &how).await?;
        }
        Command::AddStaff { name, role } => {
            let password = match std::env::var("GAPWISE_PASSWORD") {
                Ok(p) => p,
                Err(_) => {
                    let mut line = String::new();
                    std::io::stdin().read_line(&mut line)?;
                    line.trim_end_matches(['\r', '\n']).to_owned()
                }
            };
            store.create_staff(&name, role.parse()?, &password).await?;
            println!("{role} {name} created");
        }
        Command::Token { name, label } => println!("{}", store.create_api_token(&name, &label).await?),
        Command::Report { out, models, drop_source, filter } => {
            let models = store.models_or_all(models).await?;
            let files = gapwise_research::report::write_report(&store, &models, &filter.into(), &drop_source, &out).await?;
            println!("{}: {} files ({})", out.display(), files.len(), files.join(", "));
        }
        Command::Export { out, format, models, filter } => {
            let models = store.models_or_all(models).await?;
            let (path, rows) = gapwise_research::export::export_folder(&store, format.parse()?, &models, &filter.into(), &out).await?;
            println!("{}: {rows} answers", path.display());
        }
    }
    store.close().await;
    Ok(())
}

async fn serve(store: Store, args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    if !args.no_demo {
        if let Some(r) = crate::demo::seed_if_empty(&store).await? {
            tracing::info!(pairs = r.pairs, items = r.items, "loaded the demo data");
        }
        // the word-definition groups and the invented-word items both come from WordNet
        let dir = crate::definitions::default_wordnet_dir();
        if store.count_rows("define_groups").await? == 0 {
            if dir.join("data.noun").is_file() {
                let r = import_wordnet(&store, &dir, None).await?;
                tracing::info!(synsets = r.synsets, groups = r.groups, "loaded WordNet for the word-definition game");
            } else {
                tracing::warn!("no WordNet in {}: the word-definition game has no groups (apt install wordnet-base)", dir.display());
            }
        }
        if store.count_rows("new_words_items").await? == 0 {
            if dir.join("index.noun").is_file() {
                let new = crate::winodict::import_winodict(&store, crate::winodict::ITEMS, &dir, crate::winodict::SEED).await?;
                tracing::info!(items = new, "loaded the invented-word items");
            } else {
                tracing::warn!("no WordNet in {}: the invented-word game has no items (apt install wordnet-base)", dir.display());
            }
        }
    }
    let mut options = get_configuration(None)?.leptos_options;
    if options.output_name.is_empty() {
        options.output_name = "gapwise".into();
    }
    let addr = args.addr.unwrap_or(options.site_addr);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    // Printed for people and for scripts that start the server on port 0.
    println!("listening on http://{}", listener.local_addr()?);
    crate::serve(listener, crate::router(store, options, args.secure_cookies)).await?;
    Ok(())
}

/// Where scripts/fetch_model.sh caches the default model of a language: the
/// multilingual Gemma 3 for es, fr, it and ru, the English SmolLM2 otherwise.
fn default_model(language: Option<&str>) -> PathBuf {
    let file = match language {
        Some("es" | "fr" | "it" | "ru") => "gemma-3-270m-q4_k_m.gguf",
        _ => "SmolLM2-135M-Instruct.Q4_1.gguf",
    };
    models_dir().join(file)
}

/// Where scripts/fetch_model.sh caches models and data: ~/.cache/gapwise/models
/// (GAPWISE_MODEL_DIR overrides it, as in the script).
fn models_dir() -> PathBuf {
    match std::env::var_os("GAPWISE_MODEL_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".cache/gapwise/models"),
    }
}

/// Imports WordNet from `dir`, with the frequencies of `wordfreq` (or the cached
/// English ones, when there are), showing a progress bar.
pub(crate) async fn import_wordnet(store: &Store, dir: &std::path::Path, wordfreq: Option<PathBuf>) -> Result<gapwise_store::WordNetReport, Box<dyn std::error::Error>> {
    let wordfreq = wordfreq.or_else(|| Some(models_dir().join("large_en.msgpack.gz")).filter(|p| p.is_file()));
    let frequencies = wordfreq.as_deref().map(gapwise_prepare::wordfreq::WordFrequencies::from_file).transpose()?;
    let progress = progress_bar(0, "{pos}/{len} rows", "WordNet")?;
    let report = crate::definitions::import_wordnet(store, dir, frequencies.as_ref(), &|written, total| {
        progress.set_length(total);
        progress.set_position(written);
    })
    .await?;
    progress.finish_and_clear();
    Ok(report)
}

async fn score_definitions(store: &Store, args: ModelArgs, how: &crate::definitions::Scoring) -> Result<(), Box<dyn std::error::Error>> {
    let (loaded, model_id) = load_model(store, args, Some("en")).await?;
    let scorer = loaded.definitions.ok_or_else(|| format!("{model_id}: an n-gram baseline cannot play the word-definition tasks"))?;
    let progress = progress_bar(0, "{pos}/{len} groups, {per_sec}", &model_id)?;
    let stop = stop_on_ctrl_c();
    let done = crate::definitions::score_definitions(store, scorer.as_ref(), &model_id, how, &stop, &progress).await?;
    progress.finish_and_clear();
    println!("{model_id}: {done} groups scored");
    Ok(())
}

async fn score_winodict(store: &Store, args: ModelArgs, how: &crate::winodict::Judging) -> Result<(), Box<dyn std::error::Error>> {
    let (loaded, model_id) = load_model(store, args, Some("en")).await?;
    let model = loaded.continuations.ok_or_else(|| format!("{model_id}: only causal language models judge invented-word items"))?;
    let progress = progress_bar(0, "{pos}/{len} judgements, {per_sec}", &model_id)?;
    let stop = stop_on_ctrl_c();
    let done = crate::winodict::judge_winodict(store, model.as_ref(), &model_id, how, &stop, &progress).await?;
    progress.finish_and_clear();
    println!("{model_id}: {done} invented-word judgements");
    Ok(())
}

async fn score_next_words(
    store: &Store,
    args: ModelArgs,
    how: &crate::guessing::Guessing,
    wordfreq: Option<PathBuf>,
    vectors: Option<PathBuf>,
    neighbours: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let (loaded, model_id) = load_model(store, args, Some(&how.language)).await?;
    let model = loaded.next_words.ok_or_else(|| format!("{model_id}: only causal language models guess next words"))?;
    let progress = progress_bar(0, "{pos}/{len} sentences, {per_sec}", &model_id)?;
    let stop = stop_on_ctrl_c();
    let done = crate::guessing::predict_sentences(store, model.as_ref(), &model_id, how, &stop, &progress).await?;
    progress.finish_and_clear();
    let cached = Some(models_dir().join("large_en.msgpack.gz")).filter(|p| how.language == "en" && p.is_file());
    let frequencies = wordfreq.or(cached).as_deref().map(gapwise_prepare::wordfreq::WordFrequencies::from_file).transpose()?;
    let vectors = vectors.as_deref().map(gapwise_scorer::baseline::StaticVectors::from_path).transpose()?;
    let words = crate::guessing::add_word_facts(store, &how.language, frequencies.as_ref(), vectors.as_ref(), neighbours).await?;
    println!("{model_id}: {done} sentences predicted; {words} new words described");
    Ok(())
}

/// A flag that Ctrl-C raises: long runs stop after the work in flight.
fn stop_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let on_signal = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.store(true, std::sync::atomic::Ordering::SeqCst);
            eprintln!("\nstopping after the work in flight; rerun to resume");
        }
    });
    stop
}

/// Loads the model `args` name (the language's default when none is named),
/// registers it with the convention its scores follow, and returns it with the id
/// they are stored under.
async fn load_model(
    store: &Store,
    args: ModelArgs,
    language: Option<&str>,
) -> Result<(gapwise_scorer::LoadedModel, String), Box<dyn std::error::Error>> {
    let spec = args.model.clone().unwrap_or_else(|| default_model(language).display().to_string());
    let path = if args.baseline.is_some() { PathBuf::from(&spec) } else { gapwise_scorer::locate(&spec)? };
    if !path.exists() {
        return Err(format!("{spec}: no such model (scripts/fetch_model.sh fetches the default ones: smollm2, gemma3)").into());
    }
    let loaded = match &args.baseline {
        Some(kind) => gapwise_scorer::load_baseline(kind, &path, args.add_k)?,
        None => gapwise_scorer::load(&path, &candle_core::Device::Cpu, &args.conventions())?,
    };
    // a Hub id is named by its last part; a path by its file or directory name
    let name = if path.as_os_str() == spec.as_str() {
        path.file_stem().map(|s| s.to_string_lossy().into_owned()).ok_or("the model path has no file name")?
    } else {
        spec.rsplit('/').next().unwrap_or(&spec).to_owned()
    };
    let model_id = args.model_id.clone().unwrap_or_else(|| args.default_id(&name, loaded.kind));
    let info = gapwise_store::ModelInfo::new(&model_id, loaded.kind, &spec, &loaded.convention);
    store.register_model(&info).await?;
    println!("{model_id}: {}", loaded.convention);
    Ok((loaded, model_id))
}

/// A progress bar named `name`; `counts` is the indicatif template of what it counts,
/// e.g. `{pos}/{len} pairs, {per_sec}`.
fn progress_bar(len: u64, counts: &str, name: &str) -> Result<indicatif::ProgressBar, Box<dyn std::error::Error>> {
    let style = indicatif::ProgressStyle::with_template(&format!("{{msg}} [{{bar:40}}] {counts}, ETA {{eta}}"))?;
    let progress = indicatif::ProgressBar::new(len).with_style(style.progress_chars("=> "));
    progress.set_message(name.to_owned());
    Ok(progress)
}

async fn select_contexts(
    store: &Store,
    args: ModelArgs,
    language: &str,
    selection: crate::select::Selection,
) -> Result<(), Box<dyn std::error::Error>> {
    let (loaded, model_id) = load_model(store, args, Some(language)).await?;
    let progress = progress_bar(0, "{pos}/{len} pairs, {per_sec}", &model_id)?;
    let report = crate::select::select_contexts(store, loaded.scorer, &model_id, language, selection, &progress).await?;
    progress.finish_and_clear();
    println!(
        "{model_id}: {} pairs, {} Likert items published, {} pairs without a free sentence",
        report.pairs, report.items, report.pairs_without_sentences
    );
    Ok(())
}

async fn score(store: &Store, args: ModelArgs, language: Option<String>, batch: usize) -> Result<(), Box<dyn std::error::Error>> {
    let (loaded, model_id) = load_model(store, args, language.as_deref()).await?;
    let language = language.as_deref();
    let todo = store.count_contexts_to_score(&model_id, language).await?;
    let progress = progress_bar(u64::try_from(todo)?, "{pos}/{len} contexts, {per_sec}", &model_id)?;
    let stop = stop_on_ctrl_c();
    let report = crate::score::score_items(store, loaded.scorer, &model_id, language, batch, &stop, &progress).await?;
    progress.finish_and_clear();
    println!(
        "{model_id}: {} contexts scored, {} items got their Eq. 2 score{}",
        report.contexts,
        report.items,
        if report.interrupted { " (interrupted: rerun to resume)" } else { "" }
    );
    Ok(())
}
