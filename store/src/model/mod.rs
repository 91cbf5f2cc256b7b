//! Types that travel between the server and the browser.

use serde::{Deserialize, Serialize};

mod crowd;
mod quality;
mod social;
mod winodict;
pub use crowd::*;
pub use quality::*;
pub use social::*;
pub use winodict::*;

/// The numbers of sentences a player may choose to see at once (the paper's k).
pub const ALLOWED_K: [u8; 3] = [1, 3, 5];
/// The languages of the game: code and name in the language itself.
pub const LANGUAGES: [(&str, &str); 5] = [("en", "English"), ("es", "Español"), ("fr", "Français"), ("it", "Italiano"), ("ru", "Русский")];
/// The language played when the player has not chosen.
pub const DEFAULT_LANGUAGE: &str = "en";

/// Parses a language code chosen by a player; `None` when it is not one of [`LANGUAGES`].
pub fn parse_language(raw: &str) -> Option<&'static str> {
    LANGUAGES.iter().map(|(code, _)| *code).find(|code| *code == raw.trim())
}

/// How a word pair was made: from closed word lists, from word vectors, or proposed by a player.
pub const STRATEGIES: [&str; 3] = ["a-priori", "distributional", "suggested"];
/// k when the player has not chosen.
pub const DEFAULT_K: u8 = 5;

/// One context sentence with its blank: the text before and after the hidden word.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Context {
    pub before: String,
    pub after: String,
}

/// An item as shown to a player: no hint of which option is right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCard {
    /// The answer id the client sends back (one per serving).
    pub answer_id: String,
    pub k: u8,
    pub contexts: Vec<Context>,
    /// The two words in the order shown.
    pub options: [String; 2],
}

/// The running score of a player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub answered: i64,
    pub correct: i64,
}

/// What a player sees after answering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feedback {
    pub k: u8,
    pub correct: bool,
    pub chosen: String,
    pub target: String,
    pub contexts: Vec<Context>,
    pub score: Score,
}

/// Where a player stands in the game; the page renders exactly this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayState {
    Item { card: ItemCard, score: Score, pseudonym: String },
    Feedback { feedback: Feedback, pseudonym: String },
    /// Every item with this k has been served to the player.
    Exhausted { k: u8, score: Score, pseudonym: String },
    /// The player's level is below the one that unlocks this k ([`unlock_level`]).
    Locked { k: u8, level: i64, pseudonym: String },
    /// A crowd participant answered the study's items: back to the platform with
    /// the completion code.
    Completed { redirect: String },
}

impl PlayState {
    /// The same, with `score` as the player's score where it shows one.
    pub fn with_score(mut self, score: Score) -> PlayState {
        if let PlayState::Item { score: shown, .. } | PlayState::Exhausted { score: shown, .. } = &mut self {
            *shown = score;
        }
        self
    }
}

/// An answer and what comes after it, from one request: the answer's feedback, and
/// the play state the player moves on to (usually the next item, already served).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub feedback: Feedback,
    pub next: PlayState,
}

/// The level that unlocks playing with `k` sentences: five sentences from the start,
/// three at level 2, one (the hardest) at level 3.
pub fn unlock_level(k: u8) -> i64 {
    match k {
        1 => 3,
        3 => 2,
        _ => 1,
    }
}

/// A player's progression: points, level, streaks and the daily goal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub points: i64,
    pub level: i64,
    /// Points at which the next level starts.
    pub next_level_at: i64,
    /// Right answers in a row, up to the latest answer.
    pub streak: i64,
    pub best_streak: i64,
    /// Answers given today (UTC).
    pub today: i64,
    /// Points (included in `points`) from other people playing the pairs this
    /// player proposed: see [`PAIR_PLAYED_POINTS`].
    pub from_pairs: i64,
    /// What the player has achieved so far, in the order of [`Achievement::ALL`].
    pub achievements: Vec<Achievement>,
}

/// Milestones shown on the game page; each is worked out from the stored answers
/// and pairs, so nothing extra is kept about the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Achievement {
    /// One answer.
    FirstAnswer,
    /// Answers with 1, 3 and 5 sentences.
    EveryK,
    /// Answers in two languages or more.
    Polyglot,
    /// Ten right answers in a row.
    TenInARow,
    /// The daily goal met on some day.
    DailyGoal,
    /// Level 5.
    LevelFive,
    /// A proposed pair in the game.
    PairInGame,
    /// Someone missed one of your pairs with five sentences.
    Unsolvable,
}

impl Achievement {
    pub const ALL: [Achievement; 8] = [
        Achievement::FirstAnswer,
        Achievement::EveryK,
        Achievement::Polyglot,
        Achievement::TenInARow,
        Achievement::DailyGoal,
        Achievement::LevelFive,
        Achievement::PairInGame,
        Achievement::Unsolvable,
    ];

    /// Its name in the interface catalogues; `<key>-how` says how to get it.
    pub fn key(self) -> &'static str {
        match self {
            Achievement::FirstAnswer => "ach-first-answer",
            Achievement::EveryK => "ach-every-k",
            Achievement::Polyglot => "ach-polyglot",
            Achievement::TenInARow => "ach-ten-in-a-row",
            Achievement::DailyGoal => "ach-daily-goal",
            Achievement::LevelFive => "ach-level-five",
            Achievement::PairInGame => "ach-pair-in-game",
            Achievement::Unsolvable => "ach-unsolvable",
        }
    }
}

/// Reciprocal scoring for blankers: a player whose proposed pair is in the game
/// earns this each time someone else answers one of its items...
pub const PAIR_PLAYED_POINTS: i64 = 1;
/// ...and this much more when that answer is wrong with five sentences: pairs that
/// people cannot tell apart even then are the valuable ones.
pub const PAIR_UNSOLVED_AT_5_POINTS: i64 = 3;

/// Milliseconds in a day, the unit of stored times being the millisecond (UTC days).
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Answers a day that make the daily goal.
pub const DAILY_GOAL: i64 = 20;

/// Points of an answer: one for taking part, and for a right answer a bonus that is
/// larger the fewer sentences the item showed (fewer sentences = harder).
pub fn answer_points(k: u8, correct: bool) -> i64 {
    let bonus = match k {
        1 => 4,
        3 => 2,
        _ => 1,
    };
    1 + if correct { bonus } else { 0 }
}

/// Points needed to reach `level` (level 1 at 0; each level 10 points more than the
/// one before: 10, 30, 60, 100, ...).
pub fn level_threshold(level: i64) -> i64 {
    5 * level * (level - 1)
}

/// The level that `points` reach.
pub fn level_of(points: i64) -> i64 {
    let mut level = 1;
    while level_threshold(level + 1) <= points {
        level += 1;
    }
    level
}

/// Raters per Likert item: an item is served until this many people rated it.
pub const LIKERT_RATERS: i64 = 2;

/// A Likert item as shown to a rater: one context and the two words, in the order
/// of the scale (which of them is the target is not told).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LikertCard {
    /// The serving id the rating is sent back with.
    pub serving_id: String,
    pub context: Context,
    /// The word at position 1 of the scale ("surely ...") and at position 5.
    pub left: String,
    pub right: String,
    /// Ratings this player has given so far.
    pub rated: i64,
}

/// Parses a k chosen by a player; `None` when it is not one of [`ALLOWED_K`].
pub fn parse_k(raw: &str) -> Option<u8> {
    raw.trim().parse::<u8>().ok().filter(|k| ALLOWED_K.contains(k))
}

/// Parses the response time a browser sent (milliseconds, maybe with a fraction);
/// `None` when it sent none (no JavaScript). Any number is accepted here, rounded
/// and saturated to an integer: whether it can be true is the store's call.
pub fn parse_client_ms(raw: &str) -> Result<Option<i64>, String> {
    match raw.trim() {
        "" => Ok(None),
        raw => match raw.parse::<f64>() {
            Ok(ms) if ms.is_finite() => Ok(Some(ms.round() as i64)),
            _ => Err(format!("client_ms must be a number of milliseconds, not {raw:?}")),
        },
    }
}

/// Which answers an analysis or export covers; every field left empty means "all".
/// Dates are UTC days, `YYYY-MM-DD`, both ends included.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerFilter {
    pub language: Option<String>,
    pub k: Option<u8>,
    pub strategy: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// One table of the research report, as shown on the page and written as CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportTable {
    /// File name without extension, e.g. `table5_mcc`.
    pub file: String,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One figure of the research report: an SVG document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportFigure {
    pub file: String,
    pub title: String,
    pub svg: String,
}

/// The paper's analyses on the answers a filter selects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// One paragraph: how many answers, annotators and models, and the filtering.
    pub summary: String,
    pub tables: Vec<ReportTable>,
    pub figures: Vec<ReportFigure>,
}

/// Who stands on the leaderboard: a player (by pseudonym) or a scored model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Contender {
    Player(String),
    Model(String),
}

/// Which answers a leaderboard counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Period {
    /// Since Monday 00:00 UTC.
    Week,
    AllTime,
}

impl Period {
    /// The period named in a page's `?period=` (`all`; anything else is the week).
    pub fn parse(raw: Option<&str>) -> Period {
        if raw == Some("all") { Period::AllTime } else { Period::Week }
    }

    /// First millisecond (Unix time) that counts, at `now_ms`.
    pub fn start_ms(self, now_ms: i64) -> i64 {
        match self {
            Period::AllTime => 0,
            // 1970-01-01 was a Thursday, three days after a Monday
            Period::Week => {
                let day = now_ms.div_euclid(DAY_MS);
                (day - (day + 3).rem_euclid(7)) * DAY_MS
            }
        }
    }
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub who: Contender,
    /// Items answered (for a model: items people answered that it has scored).
    pub answered: i64,
    pub correct: i64,
}

impl Standing {
    pub fn rate(&self) -> f64 {
        if self.answered == 0 {
            0.0
        } else {
            self.correct as f64 / self.answered as f64
        }
    }
}

/// Where a proposed word pair stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SuggestionStatus {
    Pending,
    Approved,
    Rejected,
}

impl SuggestionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SuggestionStatus::Pending => "pending",
            SuggestionStatus::Approved => "approved",
            SuggestionStatus::Rejected => "rejected",
        }
    }
}

/// A word pair a player proposed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    pub id: i64,
    pub language: String,
    pub target: String,
    pub distractor: String,
    pub status: SuggestionStatus,
    /// Why it was rejected, or how an admin edited it.
    pub reason: Option<String>,
}

/// One change made by a staff member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    pub staff: String,
    pub action: String,
    pub detail: String,
    /// When, as `YYYY-MM-DD HH:MM UTC`.
    pub at: String,
}

/// Pairs per page of the admin's pair list.
pub const PAIRS_PER_PAGE: u8 = 50;

/// A word pair as the admin's pair list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRow {
    pub id: i64,
    pub target: String,
    pub distractor: String,
    pub strategy: String,
    /// Active pairs are served; retired ones are not.
    pub active: bool,
    pub items: i64,
    pub answers: i64,
    pub correct: i64,
}

/// One item of a pair as the admin's item list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRow {
    pub id: i64,
    pub k: u8,
    /// `choice` (the two-button game) or `likert` (Section 6 ratings).
    pub kind: String,
    pub contexts: Vec<Context>,
    /// Answers (choice) or ratings (likert) collected.
    pub answers: i64,
    /// Right answers (choice items only).
    pub correct: i64,
    /// Whether an admin verified its answer (see `model::quality`).
    pub gold: bool,
}

/// A pair with its items, for the admin's item list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairItems {
    pub language: String,
    pub target: String,
    pub distractor: String,
    pub items: Vec<ItemRow>,
}

/// Sentences of one language, source and genre, as the admin page counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusPart {
    pub language: String,
    pub source: String,
    pub genre: String,
    pub sentences: i64,
}

/// One answer of a player, as their "my data" page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyAnswer {
    pub item_id: i64,
    pub k: u8,
    pub chosen: String,
    pub correct: bool,
    /// Response time measured in the browser, if it was.
    pub client_ms: Option<i64>,
    pub server_ms: i64,
    /// When, as `YYYY-MM-DD HH:MM UTC`.
    pub at: String,
}

/// One Likert rating of a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyRating {
    pub item_id: i64,
    pub rating: u8,
    pub at: String,
}

/// One feedback message of a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedbackNote {
    pub message: String,
    pub at: String,
}

/// Everything stored about a player (the "my data" page and its download).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyData {
    pub pseudonym: String,
    /// The version of the consent text they agreed to.
    pub consent_version: String,
    pub joined: String,
    pub has_password: bool,
    /// Browsers signed in as them.
    pub sessions: i64,
    /// Items shown to them (answered or not).
    pub servings: i64,
    pub answers: Vec<MyAnswer>,
    pub ratings: Vec<MyRating>,
    /// Picks made in the word-definition game.
    pub definition_picks: i64,
    /// Words guessed in the next-word game.
    pub word_guesses: i64,
    /// Items answered in the invented-word game.
    pub invented_word_answers: i64,
    pub suggestions: Vec<Suggestion>,
    /// Word pairs in the game that they proposed (they keep no link after erasure).
    pub pairs_created: i64,
    pub feedback: Vec<FeedbackNote>,
    /// Whether a random export ID was made for them (exports never hold the pseudonym).
    pub has_export_id: bool,
    /// The pseudonyms they added as friends.
    pub friends: Vec<String>,
    /// Challenges they made or were given.
    pub challenges: i64,
    /// A crowd study they took part in: (study, the platform's participant id, status).
    pub crowd: Option<(String, String, String)>,
}

/// Longest feedback message, in characters.
pub const MAX_FEEDBACK_CHARS: usize = 2000;

/// What the admin page shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminOverview {
    /// (table, rows) for the main tables.
    pub counts: Vec<(String, i64)>,
    /// The corpus by language, source and genre.
    pub corpora: Vec<CorpusPart>,
    pub pending: Vec<Suggestion>,
    pub audit: Vec<AuditEntry>,
    /// The latest feedback, newest first (without who sent it).
    pub feedback: Vec<FeedbackNote>,
    /// Answers flagged `too_fast` (see [`answer_flag`]), and the players who gave them.
    pub too_fast: (i64, i64),
    /// Players with a quality flag, most gold misses first.
    pub flagged: Vec<FlaggedPlayer>,
    /// The per-item redundancy: answers an item collects before it retires.
    pub answers_per_item: i64,
    /// Choice items marked gold.
    pub gold_items: i64,
    pub studies: Vec<CrowdStudy>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_by_ten_points_more_each_time() {
        assert_eq!((level_of(0), level_of(9), level_of(10), level_of(29), level_of(30), level_of(100)), (1, 1, 2, 2, 3, 5));
        assert_eq!(level_threshold(2), 10);
        assert_eq!(level_threshold(4), 60);
        assert_eq!((unlock_level(5), unlock_level(3), unlock_level(1)), (1, 2, 3));
        assert_eq!((answer_points(1, true), answer_points(3, true), answer_points(5, true), answer_points(1, false)), (5, 3, 2, 1));
    }

    #[test]
    fn a_week_starts_on_monday_at_midnight_utc() {
        // Wednesday 2026-11-25 13:45:10 UTC -> Monday 2026-11-23 00:00 UTC
        assert_eq!(Period::Week.start_ms(1_795_614_310_000), 1_795_392_000_000);
        // a Monday midnight is its own week's start
        assert_eq!(Period::Week.start_ms(1_795_392_000_000), 1_795_392_000_000);
        assert_eq!(Period::AllTime.start_ms(1_795_614_310_000), 0);
        assert_eq!(Period::parse(Some("all")), Period::AllTime);
        assert_eq!(Period::parse(None), Period::Week);
    }

    #[test]
    fn languages_are_the_five_codes() {
        assert_eq!(parse_language(" ru"), Some("ru"));
        assert_eq!(parse_language("de"), None);
        assert_eq!(parse_language("EN"), None);
    }

    #[test]
    fn k_must_be_one_three_or_five() {
        assert_eq!(parse_k("1"), Some(1));
        assert_eq!(parse_k(" 5"), Some(5));
        assert_eq!(parse_k("3"), Some(3));
        assert_eq!(parse_k("2"), None);
        assert_eq!(parse_k("-1"), None);
        assert_eq!(parse_k("five"), None);
    }
}


/// The two ways round of the word-definition game (001_bf5d15b61b58df06.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DefinitionTask {
    /// A word; pick its definition among its taxonomic sisters'.
    W2d,
    /// A definition; pick its word.
    D2w,
}

impl DefinitionTask {
    pub const ALL: [DefinitionTask; 2] = [DefinitionTask::W2d, DefinitionTask::D2w];

    /// `w2d` or `d2w`, as stored and in URLs.
    pub fn code(self) -> &'static str {
        match self {
            DefinitionTask::W2d => "w2d",
            DefinitionTask::D2w => "d2w",
        }
    }

    pub fn parse(code: &str) -> Option<DefinitionTask> {
        DefinitionTask::ALL.into_iter().find(|t| t.code() == code.trim())
    }
}

/// The caps on a group's size a player can choose (the difficulty: groups of at
/// most this many candidates are served, every member shown). The paper's human
/// study used groups of at most 10.
pub const DEFINITION_CAPS: [u32; 3] = [5, 10, 20];
pub const DEFAULT_DEFINITION_CAP: u32 = 10;

/// One round of the word-definition game as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefinitionCard {
    pub serving_id: String,
    pub task: DefinitionTask,
    /// The word (W2D) or the definition (D2W).
    pub prompt: String,
    /// The definitions (W2D) or words (D2W), in the order shown; picks name a position.
    pub options: Vec<String>,
    /// Positions picked so far in this round, with whether each was right.
    pub picked: Vec<(usize, bool)>,
    /// Rounds of this task the player has finished.
    pub finished: i64,
}

/// What a pick in the word-definition game did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefinitionPick {
    pub correct: bool,
    /// Picks so far in the round (the rank the player gave the right one, once found).
    pub attempts: i64,
}

/// How a next-word round is played: every guess typed, or a model's suggestions
/// offered as well (the easier setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GuessMode {
    Type,
    Choose,
}

impl GuessMode {
    /// `type` or `choose`, as stored and in URLs.
    pub fn code(self) -> &'static str {
        match self {
            GuessMode::Type => "type",
            GuessMode::Choose => "choose",
        }
    }

    pub fn parse(code: &str) -> Option<GuessMode> {
        [GuessMode::Type, GuessMode::Choose].into_iter().find(|m| m.code() == code.trim())
    }
}

/// Sentences of the next-word game have this many words (inclusive).
pub const GUESS_WORDS: (usize, usize) = (4, 25);
/// Longest guess, in characters.
pub const MAX_GUESS_CHARS: usize = 60;

/// A next-word round as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuessCard {
    pub serving_id: String,
    pub mode: GuessMode,
    /// The sentence up to the word to guess.
    pub revealed: String,
    /// The word to guess: 1 is the sentence's second word.
    pub position: usize,
    /// Words to guess in the sentence.
    pub positions: usize,
    /// A model's words for this position, best first (the easier setting).
    pub suggestions: Vec<String>,
    /// Sentences the player has finished.
    pub finished: i64,
}

/// What a guess was, and the word that was there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessResult {
    pub guess: String,
    pub word: String,
    pub correct: bool,
    /// Whether that was the sentence's last word.
    pub sentence_done: bool,
}
