//! Hugging Face model directories as the Hub ships them: config.json and the family it
//! names, the checkpoint (one file or shards), SentencePiece-only tokenizers, and
//! models found by id in the Hub's cache.

mod config;
pub mod hub;
mod sentencepiece;
mod special_tokens;
mod tokenizer;
mod weights;

pub(crate) use config::{Config, ModelKind};
pub(crate) use special_tokens::resolve as special_tokens;
pub use special_tokens::transformers_version;
pub(crate) use tokenizer::load as load_tokenizer;
pub(crate) use weights::Weights;
