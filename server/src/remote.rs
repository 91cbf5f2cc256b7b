//! A model behind an OpenAI-compatible completions endpoint as a scorer:
//! `--model openai+http://HOST:PORT/v1#MODEL` (vLLM, llama-cpp-python, or any server
//! that returns the log-probabilities of a prompt's tokens: `echo` with `logprobs`).
//! Sentences, continuations and definition patterns are scored on the server's own
//! tokenization; nothing of candle's is mixed in.
//!
//! - A prompt is `--start-text` (what the model reads before the text, not scored; by
//!   default nothing, so that the server reads what it reads: its BOS where its
//!   tokenizer adds one) followed by the text. The text's tokens are found from the
//!   end of the echoed prompt, by their character offsets: servers count offsets from
//!   different places (llama-cpp-python leaves out a BOS it was given, vLLM counts a
//!   BOS it added), never at the end. A token across the start of the text is refused
//!   by name.
//! - Without a start text the prompt's first token has nothing before it and is not
//!   scored (as `gapwise score --start-token none`). With one, a server that echoes no
//!   value for the token after it (llama-cpp-python nulls the first token it echoes)
//!   is asked once for the whole next-token list after the start text, and the token
//!   is looked up there by its text.
//! - Checked when it connects, and refused by name: a server that does not answer, a
//!   model it does not serve (with the ones it does), one that returns no prompt
//!   log-probabilities, and one whose prompt log-probabilities are not each token's
//!   given the ones before it (llama-cpp-python 0.3 reports each token's probability
//!   after itself unless the prompt starts with the model's BOS,
//!   abetlen/llama-cpp-python#1983): each echoed token of a probe must lie where
//!   its offsets place it, and a generated token's log-probability after a prompt
//!   must equal the echo of that token after the same text.
//! - Requests go up to `--parallel` at a time, each within `--timeout`, retried with a
//!   growing wait (0.5 s, doubling, 5 tries) on 429, 5xx and a dropped connection;
//!   then the run stops with [`ScorerError::Server`]. What a run stored is not asked
//!   again (each scoring command resumes).
//! - The next-word game needs the probability of every next piece at every word,
//!   which the API does not return: refused for such models.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};
use gapwise_scorer::define::{by_continuation, DefinitionScorer, Pos};
use gapwise_scorer::new_words::partial::ContinuationScorer;
use gapwise_scorer::{Context, ContextScorer, LoadedModel, ScorerError, WordLogProbs};
use serde_json::{json, Value};
use tokio::sync::OnceCell;

/// How a remote model is asked.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The API's base, e.g. `http://127.0.0.1:8000/v1`.
    pub base: String,
    pub model: String,
    /// Read before each text, not scored.
    pub start_text: String,
    pub parallel: usize,
    pub timeout: Duration,
}

/// A remote model ready to score.
struct RemoteLm {
    remote: Remote,
    client: reqwest::Client,
    /// The log-probability of each next token after the start text, by its text;
    /// asked for once, where the server echoes none for the first token.
    after_start: OnceCell<HashMap<String, f64>>,
}

const RETRIES: u32 = 5;
const FIRST_WAIT: Duration = Duration::from_millis(500);
/// More than any vocabulary has: the whole next-token list.
const WHOLE_VOCABULARY: usize = 1 << 20;

fn server(message: impl Into<String>) -> ScorerError {
    ScorerError::Server(message.into())
}

fn input(message: impl Into<String>) -> ScorerError {
    ScorerError::Input(message.into())
}

impl Remote {
    /// The API and the model a `--model` spec names, if it names a remote one
    /// (`openai+URL#MODEL`).
    pub fn parse(spec: &str) -> Option<(String, String)> {
        let rest = spec.strip_prefix("openai+")?;
        let (base, model) = rest.split_once('#')?;
        (!model.is_empty() && (base.starts_with("http://") || base.starts_with("https://")))
            .then(|| (base.trim_end_matches('/').to_owned(), model.to_owned()))
    }

    /// How this model's scores are made, in words (stored with them).
    pub fn convention(&self) -> String {
        let start = if self.start_text.is_empty() {
            "read as the server reads it (its BOS where its tokenizer adds one; a first token with nothing before it not scored)".to_owned()
        } else {
            format!("read after {:?}", self.start_text)
        };
        // not the server's address: the same model served elsewhere scores alike
        format!(
            "remote causal: an OpenAI-compatible completions server's model {:?}: the prompt's token log-probabilities (echo) on \
             the server's tokenization; {start}; continuations from the first token at or past the prefix's end; no next-word guesses",
            self.model,
        )
    }

    /// Connects to the server, checks it (see the module) and returns the model to
    /// score with.
    pub async fn connect(self) -> Result<LoadedModel, ScorerError> {
        let client = reqwest::Client::builder().timeout(self.timeout).build().map_err(|e| server(e.to_string()))?;
        let lm = RemoteLm { remote: self, client, after_start: OnceCell::new() };
        lm.check().await?;
        let convention = lm.remote.convention();
        let lm = Arc::new(lm);
        Ok(LoadedModel {
            scorer: lm.clone(),
            definitions: Some(lm.clone()),
            next_words: None,
            continuations: Some(lm),
            kind: "causal",
            convention,
        })
    }
}

/// One token of an echoed prompt.
#[derive(Clone, Debug, PartialEq)]
struct Token {
    text: String,
    /// Characters from the end of the prompt to the token's start.
    from_end: usize,
    log_prob: Option<f64>,
}

/// The prompt's tokens in a completion's `logprobs` (with `echo`), placed from the end
/// of the prompt: the first generated token starts there (when the server generated
/// none, the last token ends there).
fn echoed(response: &Value) -> Result<Vec<Token>, String> {
    let list = |name: &str| response.pointer(&format!("/choices/0/logprobs/{name}")).and_then(Value::as_array);
    let (Some(offsets), Some(values), Some(texts)) = (list("text_offset"), list("token_logprobs"), list("tokens")) else {
        return Err("the server returned no prompt log-probabilities (it must echo them: `echo` with `logprobs`; \
             llama.cpp-based servers need logits_all)"
            .into());
    };
    let generated = response.pointer("/usage/completion_tokens").and_then(Value::as_u64).unwrap_or(1) as usize;
    let prompt = offsets.len().checked_sub(generated).filter(|&n| n > 0 && values.len() == offsets.len() && texts.len() == offsets.len());
    let Some(prompt) = prompt else { return Err("the echoed log-probabilities do not line up with the tokens".into()) };
    let offset = |i: usize| offsets.get(i).and_then(Value::as_u64).map(|o| o as usize).ok_or("a token without an offset");
    let text = |i: usize| texts.get(i).and_then(Value::as_str).unwrap_or_default();
    let end = match generated {
        0 => offset(prompt - 1)? + text(prompt - 1).chars().count(),
        _ => offset(prompt)?,
    };
    (0..prompt)
        .map(|i| {
            let from_end = end.checked_sub(offset(i)?).ok_or("token offsets past the prompt's end")?;
            Ok(Token { text: text(i).to_owned(), from_end, log_prob: values.get(i).and_then(Value::as_f64) })
        })
        .collect()
}

/// The refusal of a server whose echoed prompt log-probabilities are not each
/// token's after the ones before it, with what showed it.
fn misaligned(base: &str, shown: &str) -> ScorerError {
    server(format!(
        "{base}: the server's prompt log-probabilities are not each token's after the ones before it ({shown}); \
         llama-cpp-python 0.3 reports each token after itself unless the prompt starts with the model's BOS \
         (abetlen/llama-cpp-python#1983): give that BOS as --start-text, or use a server that echoes them right (vLLM)"
    ))
}

/// Runs `future` to its end from synchronous code inside the runtime (the scoring
/// traits are synchronous; the commands call them on the runtime's blocking threads).
fn block<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => tokio::task::block_in_place(|| handle.block_on(future)),
        Err(_) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map(|rt| rt.block_on(future))
            .unwrap_or_else(|e| unreachable!("a runtime for one call cannot fail to start: {e}")),
    }
}

impl RemoteLm {
    /// POSTs `body` to `completions`, retried (see the module); the response's JSON.
    async fn complete(&self, body: &Value) -> Result<Value, ScorerError> {
        let url = format!("{}/completions", self.remote.base);
        let mut wait = FIRST_WAIT;
        let mut last = String::new();
        for attempt in 1..=RETRIES {
            match self.client.post(&url).json(body).send().await {
                Ok(response) if response.status().is_success() => {
                    return response.json::<Value>().await.map_err(|e| server(format!("{url}: not a JSON response: {e}")));
                }
                Ok(response) if response.status().as_u16() == 429 || response.status().is_server_error() => {
                    last = format!("{url}: {}", response.status());
                }
                Ok(response) => {
                    let status = response.status();
                    let text = response.text().await.unwrap_or_default();
                    return Err(server(format!("{url}: {status}: {}", text.chars().take(300).collect::<String>())));
                }
                Err(e) if e.is_connect() || e.is_timeout() || e.is_request() => last = format!("{url}: {e}"),
                Err(e) => return Err(server(format!("{url}: {e}"))),
            }
            if attempt < RETRIES {
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
        }
        Err(server(format!("{last} (tried {RETRIES} times)")))
    }

    /// The tokens of `prompt`, echoed with their log-probabilities.
    async fn echo(&self, prompt: &str) -> Result<Vec<Token>, ScorerError> {
        let body = json!({"model": self.remote.model, "prompt": prompt, "max_tokens": 1, "echo": true, "logprobs": 0, "temperature": 0});
        let response = self.complete(&body).await?;
        echoed(&response).map_err(|e| server(format!("{}: {e}", self.remote.base)))
    }

    /// The next-token list after the start text (see the module).
    async fn after_start(&self) -> Result<&HashMap<String, f64>, ScorerError> {
        self.after_start
            .get_or_try_init(|| async {
                let body = json!({"model": self.remote.model, "prompt": self.remote.start_text, "max_tokens": 1,
                                  "logprobs": WHOLE_VOCABULARY, "temperature": 0});
                let response = self.complete(&body).await?;
                let top = response.pointer("/choices/0/logprobs/top_logprobs/0").and_then(Value::as_object).filter(|t| t.len() > 1);
                let top = top.ok_or_else(|| {
                    server(format!(
                        "{}: it echoes no log-probability for the first token after the start text, and lists no next tokens after it",
                        self.remote.base
                    ))
                })?;
                Ok(top.iter().filter_map(|(text, v)| Some((text.clone(), v.as_f64()?))).collect())
            })
            .await
    }

    /// The log-probability of each token of `text` read after `prefix` (both after the
    /// start text); the first token without a start text is not scored.
    async fn continuation(&self, prefix: &str, text: &str) -> Result<Vec<f64>, ScorerError> {
        let tokens = self.echo(&format!("{}{prefix}{text}", self.remote.start_text)).await?;
        let length = text.chars().count();
        let nothing_before = self.remote.start_text.is_empty() && prefix.is_empty();
        let mut scored = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            let end = tokens.get(i + 1).map_or(0, |n| n.from_end);
            if t.from_end > length && end < length {
                return Err(input(format!(
                    "{prefix:?} + {text:?}: a token of the server's ({:?}) holds the end of the first and the start of the second",
                    t.text
                )));
            }
            if t.from_end > length {
                continue;
            }
            match t.log_prob {
                Some(v) => scored.push(v),
                None if i == 0 && nothing_before => {}
                None if i == 0 && t.text.is_empty() => {
                    return Err(input(format!(
                        "{text:?}: the server echoes no value for its first token, and that token is part of a character, \
                         so it has no text to look up after the start text (llama-cpp-python leaves out the first value \
                         after the BOS); score this text with a server that echoes every token's value (vLLM) or here"
                    )));
                }
                None if i == 0 => {
                    let after_start = self.after_start().await?;
                    let v = after_start.get(&t.text).copied().ok_or_else(|| {
                        input(format!("{text:?}: its first token {:?} is not among those the server lists after the start text", t.text))
                    })?;
                    scored.push(v);
                }
                None => return Err(server(format!("{}: no log-probability for the token {:?} of {text:?}", self.remote.base, t.text))),
            }
        }
        if scored.is_empty() && !nothing_before {
            return Err(input(format!("{text:?}: no token of its own in the server's tokenization")));
        }
        Ok(scored)
    }

    /// [`Self::continuation`] of many pairs, up to `parallel` at a time, in order.
    fn continuations(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f64>>, ScorerError> {
        block(async {
            let asked = stream::iter(pairs.iter().map(|(p, t)| self.continuation(p, t))).buffered(self.remote.parallel.max(1));
            asked.collect::<Vec<_>>().await.into_iter().collect()
        })
    }

    /// The checks of the module: the server answers, serves the model, and returns
    /// each prompt token's log-probability after the ones before it.
    async fn check(&self) -> Result<(), ScorerError> {
        let base = &self.remote.base;
        let models =
            self.client.get(format!("{base}/models")).send().await.map_err(|e| server(format!("no server answers at {base}: {e}")))?;
        let models: Value = models.json().await.map_err(|e| server(format!("{base}/models: not a JSON list of models: {e}")))?;
        let served: Vec<&str> =
            models.get("data").and_then(Value::as_array).into_iter().flatten().filter_map(|m| m.get("id")?.as_str()).collect();
        if !served.contains(&self.remote.model.as_str()) {
            return Err(server(format!("{base} serves no model {:?} (it serves: {})", self.remote.model, served.join(", "))));
        }
        // a prompt whose last token a model predicts well, echoed; then that token
        // generated after the text before it: the two log-probabilities must agree
        let probe = format!("{}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12", self.remote.start_text);
        let tokens = self.echo(&probe).await?;
        let Some(last) = tokens.last().filter(|t| t.from_end > 0 && tokens.len() > 1) else {
            return Err(server(format!("{base}: the probe {probe:?} has no tokens to check")));
        };
        // each token of the probe's own text where the offsets place it
        let chars: Vec<char> = probe.chars().collect();
        let own = chars.len() - self.remote.start_text.chars().count();
        let misplaced = tokens.iter().filter(|t| t.from_end <= own).find(|t| {
            let start = chars.len() - t.from_end;
            chars.get(start..start + t.text.chars().count()).is_none_or(|c| c.iter().collect::<String>() != t.text)
        });
        if let Some(t) = misplaced {
            return Err(misaligned(base, &format!("the token {:?} is echoed where the probe {probe:?} has other text", t.text)));
        }
        let Some(echoed) = last.log_prob else { return Err(server(format!("{base}: no log-probability for the probe's last token"))) };
        let before: String = chars.iter().take(chars.len() - last.from_end).collect();
        let body = json!({"model": self.remote.model, "prompt": before, "max_tokens": 1, "logprobs": 20, "temperature": 0});
        let generated = self.complete(&body).await?;
        let top = generated.pointer("/choices/0/logprobs/top_logprobs/0").and_then(Value::as_object).cloned().unwrap_or_default();
        let Some(fresh) = top.get(&last.text).and_then(Value::as_f64) else {
            return Err(server(format!(
                "{base}: cannot check its prompt log-probabilities: {:?} is not among the next tokens it lists after {before:?}",
                last.text
            )));
        };
        if (fresh - echoed).abs() > 0.05 {
            return Err(misaligned(base, &format!("{:?} after {before:?}: {echoed:.3} echoed, {fresh:.3} generated", last.text)));
        }
        Ok(())
    }
}

impl ContextScorer for RemoteLm {
    /// Both sentences of each context, whole, after the start text.
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        let filled: Vec<String> = contexts.iter().map(|c| Ok(c.filled(c.distractor)?.0)).collect::<Result<_, ScorerError>>()?;
        let pairs: Vec<(&str, &str)> = contexts.iter().zip(&filled).flat_map(|(c, other)| [("", c.text), ("", other.as_str())]).collect();
        let sums: Vec<f64> = self.continuations(&pairs)?.iter().map(|s| s.iter().sum()).collect();
        Ok(sums
            .chunks_exact(2)
            .map(|s| WordLogProbs { target: s.first().copied().unwrap_or_default(), distractor: s.last().copied().unwrap_or_default() })
            .collect())
    }
}

impl ContinuationScorer for RemoteLm {
    fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        Ok(self.continuations(pairs)?.into_iter().map(|v| v.into_iter().map(|x| x as f32).collect()).collect())
    }
}

impl DefinitionScorer for RemoteLm {
    fn word_to_definition(&self, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        by_continuation::word_to_definition(self, pos, word, definitions)
    }

    fn definition_to_word(&self, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        by_continuation::definition_to_word(self, pos, definition, words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_names_the_api_and_the_model() {
        assert_eq!(
            Remote::parse("openai+http://127.0.0.1:8000/v1#llama-70b"),
            Some(("http://127.0.0.1:8000/v1".into(), "llama-70b".into()))
        );
        assert_eq!(Remote::parse("openai+https://api.example.org/v1/#m"), Some(("https://api.example.org/v1".into(), "m".into())));
        assert_eq!(Remote::parse("openai+http://host/v1"), None, "no model");
        assert_eq!(Remote::parse("/models/x.gguf"), None);
    }

    fn completion(offsets: &[u64], tokens: &[&str], values: &[Option<f64>], generated: u64) -> Value {
        json!({"choices": [{"logprobs": {"text_offset": offsets, "tokens": tokens, "token_logprobs": values}}],
               "usage": {"completion_tokens": generated}})
    }

    #[test]
    fn tokens_are_placed_from_the_prompts_end_whatever_the_servers_offsets_count_from() {
        // vLLM counts a BOS it added: "<s>The cat" + generated "."
        let vllm = completion(&[0, 3, 6, 10], &["<s>", "The", " cat", "."], &[None, Some(-5.0), Some(-3.0), Some(-1.0)], 1);
        // llama-cpp-python leaves out the BOS it was given: "<|im_start|>The cat" + "."
        let lcp = completion(&[0, 3, 7], &["The", " cat", "."], &[None, Some(-3.0), Some(-1.0)], 1);
        let from_end = |v: &Value| echoed(v).map(|ts| ts.iter().map(|t| t.from_end).collect::<Vec<_>>());
        assert_eq!(from_end(&vllm), Ok(vec![10, 7, 4]));
        assert_eq!(from_end(&lcp), Ok(vec![7, 4]));
        // nothing generated (the model ended the text): the last token ends the prompt
        let ended = completion(&[0, 3], &["The", " cat"], &[None, Some(-3.0)], 0);
        assert_eq!(from_end(&ended), Ok(vec![7, 4]));
        assert!(echoed(&json!({"choices": [{"text": "x"}]})).unwrap_err().contains("no prompt log-probabilities"));
    }
}
