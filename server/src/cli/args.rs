//! The command line's arguments: the commands, and the options several share.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::BoolishValueParser;
use clap::{ArgAction, Parser, Subcommand, ValueEnum};
use gapwise_model::{AnswerFilter, Language};

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
    /// Exit 0 when the server listening on ADDR answers /readyz with 200 (a
    /// container's health check); opens no database.
    Ready {
        #[arg(long, env = "GAPWISE_ADDR", default_value = "127.0.0.1:3000")]
        addr: SocketAddr,
    },
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
        #[arg(long, value_parser = language)]
        language: Language,
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
        #[arg(long, value_parser = language)]
        language: Language,
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
        #[arg(long, value_parser = language)]
        language: Option<Language>,
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
        #[arg(long, value_parser = language)]
        language: Option<Language>,
        /// Contexts per batch; each batch is committed before the next starts.
        #[arg(long, default_value_t = 64)]
        batch: usize,
    },
    /// Check the item builder's giveaway rules with a model: per pair, a sample of
    /// contexts (before the rules) scored with and without the word before the
    /// blank; prints the share whose gap comes from that word, before the rules and
    /// among the contexts they keep. Writes nothing.
    GiveawayCheck {
        #[command(flatten)]
        model: ModelArgs,
        /// The language of the pairs (en, es, fr, it, ru).
        #[arg(long, value_parser = language)]
        language: Language,
        /// The first this many active pairs.
        #[arg(long, default_value_t = 60)]
        pairs: usize,
        /// Contexts per pair, the first in the corpus.
        #[arg(long, default_value_t = 12)]
        per_pair: usize,
    },
    /// Section 6: for each pair of a language, score a sample of its sentences and
    /// publish the lowest- and highest-scoring ones as single-context Likert items
    /// (a sentence serves one pair only; pairs that have Likert items are skipped).
    SelectContexts {
        #[command(flatten)]
        model: ModelArgs,
        /// The language of the pairs (en, es, fr, it, ru).
        #[arg(long, value_parser = language)]
        language: Language,
        /// Only this many pairs: the hardest half and the easiest half by success
        /// rate in the game (pairs nobody played fill the rest, spread over the
        /// list); every pair without Likert items by default.
        #[arg(long)]
        pairs: Option<usize>,
        /// Sentences scored per pair.
        #[arg(long, default_value_t = crate::runs::select_contexts::Selection::default().sample)]
        sample: usize,
        /// Items kept at each end of the ranking.
        #[arg(long, default_value_t = crate::runs::select_contexts::Selection::default().per_end)]
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
    #[command(visible_alias = "score-definitions")]
    ScoreDefine {
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
    #[command(visible_alias = "score-next-words")]
    ScoreGuess {
        #[command(flatten)]
        model: ModelArgs,
        /// en, es, fr, it or ru.
        #[arg(long, value_parser = language, default_value = "en")]
        language: Language,
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
    ImportNewWords {
        /// Items as JSON lines (see data/new_words/README.md); the shipped 650 by default.
        #[arg(long)]
        items: Option<PathBuf>,
        /// The WordNet database folder; defaults to GAPWISE_WORDNET or /usr/share/wordnet.
        #[arg(long)]
        wordnet: Option<PathBuf>,
        /// Seed of the invented words and meaning-shift partners.
        #[arg(long, default_value_t = crate::runs::score_new_words::SEED)]
        seed: u64,
    },
    /// Judge invented-word items with a causal model by partial scoring: the items
    /// people answered first, then others; each batch is stored when done, so a rerun resumes.
    ScoreNewWords {
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
    /// Write the items as tasks of an evaluation harness, for models it runs (any
    /// backend of lm-evaluation-harness: Hugging Face, vLLM across GPUs, models behind
    /// an API): `lm_eval --include_path DIR --tasks gapwise_<mode>_<language>
    /// --log_samples --output_path OUT`, then `gapwise import-scores OUT`.
    ExportTask {
        /// The harness the tasks are for.
        #[arg(long, value_enum, default_value = "lm-eval")]
        harness: Harness,
        /// Only this mode's tasks; every mode's by default.
        #[arg(long, value_enum)]
        mode: Option<crate::harness::TaskMode>,
        /// Only this language's tasks (en, es, fr, it, ru); every language's by default.
        #[arg(long, value_parser = language)]
        language: Option<Language>,
        /// The start token the model reads, as text, put before the contexts of the
        /// next-word, definition and invented-word tasks (e.g. '<|endoftext|>'), so that
        /// they are read as `gapwise score` reads them; none by default.
        #[arg(long, default_value = "")]
        start_text: String,
        /// Only these many sentences a language in the guess tasks: those
        /// `score-guess --sentences N` predicts (people's first); every sentence by
        /// default. The database must not change until the run is imported.
        #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        sentences: Option<usize>,
        /// With --sentences: the seed of the order of the sentences nobody played, as
        /// score-guess's.
        #[arg(long, default_value_t = 1, requires = "sentences")]
        seed: u64,
        /// The folder the tasks are written into (created when missing).
        dir: PathBuf,
    },
    /// Store scores made elsewhere under a model id, with how they were made: an
    /// lm-evaluation-harness run's --log_samples output (its folder, or its results
    /// file) for tasks export-task wrote, or a plain JSON Lines or CSV file of
    /// per-request log-probabilities. The model then joins the leaderboard, the
    /// report and the export.
    ImportScores {
        /// The run's folder or results_*.json, or a plain .jsonl/.csv file.
        path: PathBuf,
        /// The id the scores are stored under; by default the run's model name (a
        /// plain file needs one).
        #[arg(long)]
        model_id: Option<String>,
        /// For a plain file: what made the scores and how (the tool and its version,
        /// the start token, the precision), stored as the model's convention.
        #[arg(long)]
        convention: Option<String>,
        /// Replace the model's stored values of the run's requests (a rerun with other
        /// values is refused without it); its other scores stay.
        #[arg(long)]
        replace: bool,
    },
    /// Create a researcher or admin account; the password is read from
    /// GAPWISE_PASSWORD or, without it, from the first line of standard input. It
    /// needs 12 characters or more and must not be a common or guessable one.
    AddStaff {
        name: String,
        #[arg(long, value_parser = ["researcher", "admin"])]
        role: String,
    },
    /// Give a staff account a new password (read as add-staff reads it) and end
    /// all its sessions.
    StaffPassword { name: String },
    /// Remove a staff account with its sessions and API tokens, which stop working
    /// at once; what it did stays in the audit log.
    RemoveStaff { name: String },
    /// Make an API token for a staff account (printed once; only its hash is kept),
    /// list the tokens (never the tokens themselves), or revoke one at once.
    /// Scripts send a token as `Authorization: Bearer TOKEN`.
    Token(TokenArgs),
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
        /// The item (its id in the export) whose characteristic curves the IRT
        /// figure of its language draws; by default the item whose curve tells the
        /// players apart best (the most Fisher information over their abilities).
        #[arg(long, allow_negative_numbers = true)]
        curve_item: Option<i64>,
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

impl Command {
    /// Whether the command only reads the database (and so must find one there).
    pub fn only_reads(&self) -> bool {
        matches!(
            self,
            Command::Backup { .. }
                | Command::Token(TokenArgs { list: true, .. })
                | Command::ExportPairs { .. }
                | Command::Report { .. }
                | Command::Export { .. }
                | Command::ExportTask { .. }
        )
    }
}

/// What `gapwise token` does: make a token for NAME, list the tokens, or revoke one.
#[derive(Debug, clap::Args)]
pub struct TokenArgs {
    /// The staff account to make a token for (with --list: whose tokens to list).
    #[arg(required_unless_present_any = ["list", "revoke"])]
    pub name: Option<String>,
    /// What the token is for, to recognise it later.
    #[arg(long, default_value = "", conflicts_with_all = ["list", "revoke"])]
    pub label: String,
    /// Days until the token stops working (1 to 3650).
    #[arg(
        long,
        value_name = "DAYS",
        default_value_t = gapwise_store::DEFAULT_TOKEN_DAYS,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(gapwise_store::MAX_TOKEN_DAYS)),
        conflicts_with_all = ["list", "revoke"]
    )]
    pub expires: u32,
    /// List the tokens (of NAME, or of every account): id, account, label, made, expires.
    #[arg(long, conflicts_with = "revoke")]
    pub list: bool,
    /// Revoke a token at once: the one with this id (as --list shows it), or this token.
    #[arg(long, value_name = "ID", conflicts_with = "name")]
    pub revoke: Option<String>,
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
    pub(super) model: Option<String>,
    /// Name the scores are stored under; defaults to the model's file, directory or
    /// Hub name, with the conventions that differ from the model's defaults.
    #[arg(long)]
    pub(super) model_id: Option<String>,
    /// How a masked LM scores a word: mask (the paper's), pll-original or pll-word-l2r.
    #[arg(long, default_value = "mask")]
    mlm_scoring: gapwise_scorer::masked::MaskedScoring,
    /// The token a causal LM reads before each sentence: auto (a Hugging Face
    /// directory: lm-evaluation-harness's prefix, the BOS token transformers 5 gives
    /// its tokenizer, else its EOS, else none; a GGUF file: BOS where llama.cpp adds
    /// one, else the end-of-text token), bos, eos, or none.
    #[arg(long, default_value = "auto")]
    start_token: gapwise_scorer::StartToken,
    /// Whether a causal LM's first token counts: auto (yes after a start token; it
    /// cannot without one), scored, or unscored.
    #[arg(long, default_value = "auto")]
    first_token: gapwise_scorer::FirstToken,
    /// Where the model runs: cpu, cuda (the first GPU) or cuda:N; a GPU needs a build
    /// with the `cuda` feature (scripts/cuda.sh build).
    #[arg(long, env = "GAPWISE_DEVICE", default_value = "cpu")]
    pub(super) device: String,
    /// The type the model computes in: auto (f32 on the CPU; on a GPU the bf16 or
    /// f16 the checkpoint ships in, else f32), f32, bf16 or f16. Log-probabilities are
    /// f32 whatever it is.
    #[arg(long, default_value = "auto")]
    precision: gapwise_scorer::Precision,
    /// For a model behind a server (--model openai+URL#MODEL): the text the model
    /// reads before each sentence, not scored (e.g. its BOS token as text); nothing by
    /// default (what the server adds, if anything).
    #[arg(long, default_value = "")]
    pub(super) start_text: String,
    /// For a model behind a server: requests at a time.
    #[arg(long, default_value_t = 4)]
    pub(super) parallel: usize,
    /// For a model behind a server: seconds a request may take before it is tried again.
    #[arg(long, default_value_t = 120)]
    pub(super) timeout: u64,
    /// Score with a baseline instead: unigram or bigram (--model is a corpus,
    /// one sentence per line) or vectors (--model is a GloVe/word2vec text file).
    #[arg(long, value_parser = ["unigram", "bigram", "vectors"])]
    pub(super) baseline: Option<String>,
    /// Add-k smoothing of the n-gram baselines.
    #[arg(long, default_value_t = 0.5)]
    pub(super) add_k: f64,
}

impl ModelArgs {
    pub(super) fn conventions(&self) -> gapwise_scorer::Conventions {
        gapwise_scorer::Conventions {
            masked: self.mlm_scoring,
            start: self.start_token,
            first_token: self.first_token,
            precision: self.precision,
        }
    }

    /// The id scores are stored under when none is given: the model's name, with each
    /// convention asked for other than the default.
    pub(super) fn default_id(&self, name: &str, kind: &str) -> String {
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
    pub k: Option<gapwise_model::K>,
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
    #[arg(long, env = "GAPWISE_NO_DEMO", action = ArgAction::SetTrue, value_parser = BoolishValueParser::new())]
    pub no_demo: bool,
    /// Do not prepare the demo's model data (the default English model's scores,
    /// sentences to rate, next-word suggestions) in the background after loading the demo.
    #[arg(long, env = "GAPWISE_NO_DEMO_MODELS", action = ArgAction::SetTrue, value_parser = BoolishValueParser::new())]
    pub no_demo_models: bool,
    /// Mark cookies Secure (set this when serving over TLS).
    #[arg(long, env = "GAPWISE_SECURE_COOKIES", action = ArgAction::SetTrue, value_parser = BoolishValueParser::new())]
    pub secure_cookies: bool,
}

/// The evaluation harnesses tasks are written for.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Harness {
    /// EleutherAI's lm-evaluation-harness (0.4).
    #[value(name = "lm-eval")]
    LmEval,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Kind {
    Sentences,
    Pairs,
}

/// A language named on the command line: one of the game's codes.
fn language(raw: &str) -> Result<Language, String> {
    Language::parse(raw).ok_or_else(|| format!("{raw:?} is not one of {}", gapwise_model::LANGUAGES.map(|(code, _)| code).join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boolean settings take what people write for yes and no.
    #[test]
    fn boolean_environment_variables_take_yes_and_no_in_any_common_spelling() {
        for (value, expected) in
            [("1", true), ("true", true), ("yes", true), ("on", true), ("0", false), ("false", false), ("no", false), ("off", false)]
        {
            std::env::set_var("GAPWISE_NO_DEMO_MODELS", value);
            let cli = Cli::try_parse_from(["gapwise", "serve"]).unwrap_or_else(|e| panic!("{value}: {e}"));
            let Some(Command::Serve(serve)) = cli.command else { panic!("serve") };
            assert_eq!(serve.no_demo_models, expected, "GAPWISE_NO_DEMO_MODELS={value}");
        }
        std::env::remove_var("GAPWISE_NO_DEMO_MODELS");
        std::env::set_var("GAPWISE_NO_DEMO_MODELS", "maybe");
        assert!(Cli::try_parse_from(["gapwise", "serve"]).is_err(), "a value that is neither is refused");
        std::env::remove_var("GAPWISE_NO_DEMO_MODELS");
    }
}
