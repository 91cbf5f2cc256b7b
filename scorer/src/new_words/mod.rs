//! WinoDict (paper 003): how a causal model judges a Winograd item whose key word is
//! an invented word that the prompt defines, by partial scoring (Sec. 2.3). The items
//! themselves (invented words, their forms, the sentences that define them) are
//! `gapwise_prepare::new_words`.

pub mod partial;
