//! `gapwise export-task --harness lm-eval`: the items as stored, written as
//! lm-evaluation-harness tasks (a YAML file and a JSON Lines data file each) that
//! `lm_eval --include_path DIR --tasks gapwise_<mode>_<language> --log_samples`
//! scores with any backend of the harness.
//!
//! What each mode asks, in the harness's request types:
//! - **substitution** (`multiple_choice`, an empty context, the two sentences as the
//!   choices): `loglikelihood(("", sentence))` for the sentence as written and with
//!   the distractor, read after the harness's prefix token (the tokenizer's BOS, else
//!   EOS), which is the start token Gapwise's `auto` reads; the item's Eq. 2 score is
//!   the sum over its contexts of the two's difference.
//! - **new_words** (`multiple_choice` with one input per option, as the harness's own
//!   Winogrande task): the text after the blank, after the sentence up to the blank
//!   filled with each option (partial scoring), with no solved items before.
//! - **define** and **guess** (`loglikelihood`): the word after its pattern (W2D: the
//!   target word after each candidate definition; D2W: each candidate word after the
//!   target's definition), and each word of a sentence after the text before it.
//!
//! The contexts of the last three begin with `--start-text` (each document carries it
//! as `start_text`): the start token Gapwise reads, written as text, which the
//! harness's tokenizer turns back into that token (`<|endoftext|>` for GPT-2-like
//! vocabularies). Without it a context is read as the tokenizer reads it (a BOS where
//! its template adds one, else nothing).
//!
//! What the harness's requests cannot express, and so differs from `gapwise score`:
//! the word-start correction of word probabilities needs the probability of every
//! word-start piece, which a log-likelihood request does not return, so next-word
//! scores are the pieces' sums only, and a word whose last piece runs on into the
//! text after it gets the sum of the pieces of the text up to its end (Gapwise gives
//! it none); D2W's score is the whole word's log-probability, not its first piece's;
//! a SentencePiece tokenizer that marks the start of a text (`▁`) does not mark the
//! text after a special token's text, so with a start text its first word's pieces
//! differ. A word glued to the text before it (the `écluse` of `l'écluse`) has no
//! next-word document: the harness finds a continuation's pieces by counting the
//! context's pieces, so where one piece crosses the boundary ("'é") it stops the
//! run or scores other pieces; Gapwise scores such a word only where the sentence's
//! own pieces align with it. For the same reason an invented-word item whose text
//! after the blank is glued to the option (`_'s`) is read as the harness splits it.
//! The import records these in the model's convention.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use gapwise_model::words::game_spans;
use gapwise_model::{DefinitionTask, Language, ModelId, NewWordsItem, Teaching};
use gapwise_scorer::define::patterns::causal;
use gapwise_scorer::define::Pos;
use gapwise_scorer::new_words::partial::prompts;
use gapwise_scorer::Context;
use gapwise_store::Store;
use serde_json::{json, Value};

use super::{Request, TaskMode};

type Error = crate::error::CliError;

/// Groups of at most this many members are exported for the definition tasks (the
/// paper's human study: 10).
pub const DEFINE_MAX_SIZE: u32 = 10;

/// Why a word glued to the text before it has no next-word score from the harness.
pub const GLUED: &str = "glued to the text before it: not exported to the harness, which splits pieces by count";

/// Which sentences the guess tasks hold: every playable one, or the first
/// `sentences` that `score-guess --sentences N --seed S` predicts (those people
/// played first, then others in an order drawn from `seed`). An import checks each
/// next-word sentence whole, so it needs no record of the selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Selection {
    pub sentences: Option<usize>,
    pub seed: u64,
}

/// One document: its request and the fields its task's YAML reads.
pub struct Doc {
    pub request: Request,
    pub fields: Value,
}

/// The task name of `mode` in `language`.
pub fn task_name(mode: TaskMode, language: Language) -> String {
    format!("gapwise_{}_{language}", mode.code())
}

/// The languages `mode` has requests in (`only` when it is given).
pub fn languages(mode: TaskMode, only: Option<Language>) -> Result<Vec<Language>, Error> {
    let all: Vec<Language> = match mode {
        // WordNet and the invented-word items are English
        TaskMode::Define | TaskMode::NewWords => vec![Language::En],
        TaskMode::Substitution | TaskMode::Guess => Language::ALL.to_vec(),
    };
    match only {
        Some(language) if all.contains(&language) => Ok(vec![language]),
        Some(language) => {
            let codes: Vec<&str> = all.iter().map(|l| l.code()).collect();
            Err(format!("{mode} tasks are in {}, not {language}", codes.join(", ")).into())
        }
        None => Ok(all),
    }
}

/// A model id that has scored nothing: the queues read with it hold every document.
fn unscored() -> ModelId {
    ModelId::new("")
}

/// Every document of `mode` in `language` (of the guess tasks, those of
/// `selection`), in a stable order; contexts begin with `start` (substitution's are
/// empty: the harness reads its prefix token).
pub async fn docs(store: &Store, mode: TaskMode, language: Language, start: &str, selection: Selection) -> Result<Vec<Doc>, Error> {
    let mut docs = Vec::new();
    match mode {
        TaskMode::Substitution => {
            // every context of every item: what a model that scored none has left
            for c in store.scores().contexts_to_score(&unscored(), Some(language), i64::MAX).await? {
                let context = Context { text: &c.text, blank: c.blank, target: &c.target, distractor: &c.distractor };
                let (with_distractor, _) = context.filled(&c.distractor)?;
                docs.push(Doc {
                    request: Request::Substitution { pair: c.pair, sentence: c.sentence_id },
                    fields: json!({"choices": [c.text, with_distractor]}),
                });
            }
        }
        TaskMode::Guess => {
            let (limit, seed) = (selection.sentences.unwrap_or(usize::MAX), selection.seed);
            for (sentence, text) in store.guess().sentences_to_predict(&unscored(), language, limit, seed, false).await? {
                for (position, &(begin, end)) in game_spans(&text).iter().enumerate().skip(1) {
                    let context = text.get(..begin).unwrap_or_default().trim_end();
                    let continuation = text.get(context.len()..end).unwrap_or_default();
                    if continuation.len() == end - begin {
                        // glued to the text before it (after an apostrophe or a hyphen):
                        // the harness splits context from continuation by piece count,
                        // which fails or moves pieces where one crosses the boundary
                        continue;
                    }
                    docs.push(Doc {
                        request: Request::Guess { sentence, position },
                        fields: json!({"context": format!("{start}{context}"), "continuation": continuation}),
                    });
                }
            }
        }
        TaskMode::Define => {
            for task in DefinitionTask::ALL {
                for group in store.define().groups_to_score(&unscored(), task, DEFINE_MAX_SIZE, usize::MAX, 0).await? {
                    let Some(pos) = Pos::from_wordnet(&group.pos) else { continue };
                    let Some(target) = group.members.iter().find(|m| m.id == group.target) else { continue };
                    for candidate in &group.members {
                        let query = match task {
                            DefinitionTask::W2d => causal(pos, &target.word, &candidate.definition),
                            DefinitionTask::D2w => causal(pos, &candidate.word, &target.definition),
                        };
                        let (context, continuation) = query.split_at_word();
                        docs.push(Doc {
                            request: Request::Define { task, target: group.target.clone(), candidate: candidate.id.clone() },
                            fields: json!({"context": format!("{start}{context}"), "continuation": continuation}),
                        });
                    }
                }
            }
        }
        TaskMode::NewWords => {
            for (item, _) in store.new_words().items().await? {
                for (&word, variant) in &item.variants {
                    let played = NewWordsItem {
                        sentence: variant.sentence.clone(),
                        options: item.options.clone(),
                        answer: item.answer,
                        definition: Some(variant.taught.clone()),
                    };
                    for teaching in Teaching::ALL {
                        let p = prompts(&played, teaching, &[])?;
                        let contexts: Vec<String> = p.prefixes.iter().map(|c| format!("{start}{c}")).collect();
                        docs.push(Doc {
                            request: Request::NewWords { item: item.id.clone(), word, teaching },
                            fields: json!({"answer": item.answer, "contexts": contexts, "continuation": p.continuation}),
                        });
                    }
                }
            }
        }
    }
    Ok(docs)
}

/// The YAML of a task named `task` over the data file `data`.
fn yaml(mode: TaskMode, task: &str, data: &Path) -> String {
    let requests = match mode {
        TaskMode::Substitution => {
            "output_type: multiple_choice\ndoc_to_text: \"\"\ndoc_to_choice: choices\ndoc_to_target: 0\nmetric_list:\n  - metric: acc\n"
        }
        TaskMode::NewWords => {
            "output_type: multiple_choice\ndoc_to_text: answer\ndoc_to_choice: contexts\ndoc_to_target: continuation\nmetric_list:\n  - metric: acc\n"
        }
        TaskMode::Define | TaskMode::Guess => {
            "output_type: loglikelihood\ndoc_to_text: context\ndoc_to_target: continuation\nmetric_list:\n  - metric: perplexity\n"
        }
    };
    format!(
        "# Written by `gapwise export-task`: {mode} requests of a Gapwise database; each\n\
         # document's `id` names its request, `database` the database it came from\n\
         # (`gapwise import-scores` reads them back).\n\
         task: {task}\n\
         dataset_path: json\n\
         dataset_kwargs:\n  data_files:\n    test: {data}\n\
         test_split: test\n\
         target_delimiter: \"\"\n\
         {requests}\
         metadata:\n  version: 1.0\n",
        data = serde_json::to_string(&data.display().to_string()).unwrap_or_default(),
    )
}

/// What an export wrote: a task, its documents.
pub struct Written {
    pub task: String,
    pub docs: usize,
    pub yaml: PathBuf,
}

/// What an export writes: which modes, in which language (every language they have
/// requests in by default), contexts after which start text, which guess sentences.
pub struct ExportAsked<'a> {
    pub modes: &'a [TaskMode],
    pub language: Option<Language>,
    pub start: &'a str,
    pub selection: Selection,
}

/// Writes the tasks `asked` into `dir`; a task with no documents is left out.
pub async fn export(store: &Store, asked: &ExportAsked<'_>, dir: &Path) -> Result<Vec<Written>, Error> {
    let ExportAsked { modes, language, start, selection } = *asked;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let dir = dir.canonicalize().map_err(|e| format!("{}: {e}", dir.display()))?;
    let database = store.research().fingerprint().await?;
    let mut written = Vec::new();
    let unique: BTreeSet<TaskMode> = modes.iter().copied().collect();
    for mode in unique {
        for language in languages(mode, language)? {
            let docs = docs(store, mode, language, start, selection).await?;
            if docs.is_empty() {
                continue;
            }
            let task = task_name(mode, language);
            let data = dir.join(format!("{task}.jsonl"));
            let mut lines = String::new();
            for doc in &docs {
                let mut fields = doc.fields.as_object().cloned().unwrap_or_default();
                fields.insert("id".into(), json!(doc.request.to_string()));
                fields.insert("database".into(), json!(database));
                fields.insert("start_text".into(), json!(start));
                lines.push_str(&serde_json::to_string(&fields)?);
                lines.push('\n');
            }
            std::fs::write(&data, lines).map_err(|e| format!("{}: {e}", data.display()))?;
            let yaml_file = dir.join(format!("{task}.yaml"));
            std::fs::write(&yaml_file, yaml(mode, &task, &data)).map_err(|e| format!("{}: {e}", yaml_file.display()))?;
            written.push(Written { task, docs: docs.len(), yaml: yaml_file });
        }
    }
    Ok(written)
}
