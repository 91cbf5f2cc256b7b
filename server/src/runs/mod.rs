//! The model runs the command line starts, one file a command, named as it:
//! `gapwise score` ([`score`]: the main game's items), `select-contexts` (sentences
//! to rate), `score-guess` (next-word predictions), `score-define` (definition
//! groups), `score-new-words` (invented-word items), `distributional` (pairs
//! from word vectors) and `giveaway-check` (the item builder's rules checked by a model). Each reads its queue from the store, runs the scorer and
//! writes the results back, with progress; the demo's first start runs them too.

pub mod distributional;
pub mod giveaway_check;
pub mod score;
pub mod score_define;
pub mod score_guess;
pub mod score_new_words;
pub mod select_contexts;
