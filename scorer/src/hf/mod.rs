//! Hugging Face model directories as the Hub ships them: config.json and the family it
//! names, the checkpoint (one file or shards), SentencePiece-only tokenizers, and
//! models found by id in the Hub's cache.

mod config;
pub mod hub;
mod sentencepiece;
mod tokenizer;
mod weights;

pub(crate) use config::{Config, ModelKind};
pub(crate) use tokenizer::load as load_tokenizer;
pub(crate) use weights::Weights;
