//! The integration tests of gapwise-server, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod common;

mod accounts;
mod backup;
mod cloze;
mod define;
mod demo;
mod edge;
mod faults;
mod giveaway;
mod guess;
mod harness;
mod http;
mod model_lookup;
mod new_words;
mod pairs;
mod play;
mod quality;
mod read_only;
mod remote;
mod research;
mod word_scores;
