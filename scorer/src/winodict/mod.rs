//! WinoDict (paper 003): Winograd items whose key word is replaced by an invented
//! word that the prompt defines. The invented words and their forms, the sentences
//! that define them (Table 6), and the partial scoring of models (Sec. 2.3).

pub mod invented;
pub mod items;
pub mod morphology;
pub mod partial;
pub mod prompt;
