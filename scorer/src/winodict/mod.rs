//! WinoDict (paper 003): Winograd items whose key word is replaced by an invented
//! word that the prompt defines. This module holds what does not depend on the
//! items: the invented words.

pub mod invented;
