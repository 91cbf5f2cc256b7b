//! WinoDict's items (paper 003): Winograd sentences whose key word is played as itself,
//! as an invented word ([`invented`]: a letter model of WordNet's lemmas, in the key
//! word's form, [`morphology`]) or as another item's key word (the meaning shift), each
//! defined by the Table 6 sentence of its part of speech ([`definition`]). People and
//! models read exactly these texts.

pub mod definition;
pub mod invented;
pub mod items;
pub mod morphology;
