//! Every mode's answers as right or wrong per person and item, for item response
//! theory: the word-definition rounds (the first pick of a round; an item is a
//! task and its target), the next-word guesses (an item is a position of a
//! sentence), the invented-word items (an item played in one setup) and the cloze
//! answers (an item is the blanked position of a sentence). The main
//! game's answers come with the export (see [`super::export`]).

use gapwise_model::Mode;

use crate::error::StoreError;
use crate::research::Research;

/// One person's answer to one item of a mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeResponse {
    pub mode: Mode,
    /// Items fitted together: a task (w2d, d2w), a language, a setup.
    pub group: String,
    pub item: String,
    pub annotator: String,
    pub correct: bool,
}

/// What a mode's answers are for item response theory: the columns group, item,
/// annotator and right (1) or wrong (0) of a `SELECT` without its keyword; `None`
/// for a mode whose answers are not fitted here.
const fn responses_of(mode: Mode) -> Option<&'static str> {
    match mode {
        // the main game's answers come with the export; a rating is neither right nor wrong
        Mode::Play | Mode::Rate => None,
        Mode::Define => Some(
            "s.task, CAST(s.target AS TEXT), s.annotator_id, CAST(p.correct AS BIGINT) \
             FROM define_servings s JOIN define_picks p ON p.serving_id = s.id AND p.attempt = 1",
        ),
        Mode::Guess => Some(
            "t.lang, 'sentence ' || CAST(s.sentence_id AS TEXT) || ' word ' || CAST(g.position AS TEXT), s.annotator_id, \
             CAST(g.correct AS BIGINT) \
             FROM guess_servings s JOIN guess_answers g ON g.serving_id = s.id JOIN sentences t ON t.id = s.sentence_id",
        ),
        Mode::NewWords => Some(
            "s.word || CASE WHEN s.with_definition = 1 THEN ', with definition' ELSE ', without definition' END, \
             s.item_id, s.annotator_id, CAST(s.correct AS BIGINT) \
             FROM new_words_servings s WHERE s.correct IS NOT NULL",
        ),
        Mode::Cloze => Some(
            "t.lang, 'sentence ' || CAST(s.sentence_id AS TEXT) || ' word ' || CAST(s.position AS TEXT), s.annotator_id, \
             CAST(a.correct AS BIGINT) \
             FROM cloze_servings s JOIN cloze_answers a ON a.serving_id = s.id JOIN sentences t ON t.id = s.sentence_id",
        ),
    }
}

/// Every fitted mode's answers, one `UNION ALL` with the mode's code first.
fn mode_responses_sql() -> String {
    let parts: Vec<String> =
        Mode::ALL.into_iter().filter_map(|mode| responses_of(mode).map(|columns| format!("SELECT '{}', {columns}", mode.code()))).collect();
    parts.join(" UNION ALL ")
}

impl Research<'_> {
    /// The answers of the define, guess, new-words and cloze modes (see the module).
    pub async fn mode_responses(self) -> Result<Vec<ModeResponse>, StoreError> {
        let rows: Vec<(String, String, String, String, i64)> = sqlx::query_as(&mode_responses_sql()).fetch_all(self.pool()).await?;
        rows.into_iter()
            .map(|(mode, group, item, annotator, correct)| {
                let mode = Mode::parse(&mode).ok_or_else(|| StoreError::Corrupt(format!("answers of an unknown mode {mode:?}")))?;
                Ok(ModeResponse { mode, group, item, annotator, correct: correct == 1 })
            })
            .collect()
    }
}
