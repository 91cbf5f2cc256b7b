//! The sentences that teach a model (or a player) an invented word: the templates of
//! paper 003, Appendix B, Table 6, chosen by the part of speech of the word.

use gapwise_model::Pos;

/// Table 6's definition sentence for `lemma` meaning `definition` (a WordNet gloss,
/// without its examples). The gloss is trimmed and ends with one full stop.
pub fn definition_sentence(pos: Pos, lemma: &str, definition: &str) -> String {
    let definition = definition.trim().trim_end_matches(['.', ';', ' ']);
    match pos {
        Pos::Verb => format!("The verb to {lemma} means to {definition}."),
        Pos::Noun => format!("The word {lemma} refers to {definition}."),
        Pos::Adj => format!("The meaning of {lemma} is {definition}."),
        Pos::Adv => format!("The word {lemma} means {definition}."),
    }
}

/// Table 6's synonym sentence: `lemma` explained by a known word instead of a gloss.
pub fn synonym_sentence(lemma: &str, synonym: &str) -> String {
    format!("The meaning of {lemma} is similar to {synonym}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_6_templates_by_part_of_speech() {
        assert_eq!(definition_sentence(Pos::Verb, "plest", "move back and forth"), "The verb to plest means to move back and forth.");
        assert_eq!(
            definition_sentence(Pos::Noun, "drumple", "a small container for salt; "),
            "The word drumple refers to a small container for salt."
        );
        assert_eq!(definition_sentence(Pos::Adj, "vorny", "filled with people."), "The meaning of vorny is filled with people.");
        assert_eq!(definition_sentence(Pos::Adv, "stindly", "in a hurried way"), "The word stindly means in a hurried way.");
        assert_eq!(synonym_sentence("vorny", "crowded"), "The meaning of vorny is similar to crowded.");
        assert_eq!(Pos::from_wordnet("s"), Some(Pos::Adj));
        assert_eq!(Pos::from_wordnet("x"), None);
    }
}
