//! Gapwise's database layer.
//!
//! One [`Store`] wraps an sqlx `AnyPool`, so the same queries run on the embedded
//! SQLite default and on PostgreSQL. Queries use `$1` placeholders (both backends
//! accept them) and only integer, text and float columns (what the Any driver maps).

#![forbid(unsafe_code)]

mod admin;
mod audit;
mod changes;
mod cloze;
mod corpus;
mod crowd;
mod define;
mod error;
mod filter;
mod first_start;
mod game;
mod game_positions;
mod game_writes;
mod generators;
mod guess;
mod items;
mod leaderboard;
mod lifetimes;
mod material;
mod new_words;
mod password_rules;
mod players;
mod postings;
mod quality;
mod rate;
mod read_only;
mod research;
mod responses;
mod rights;
mod scores;
mod search;
mod secrets;
mod session;
mod settings;
mod social;
mod sql;
mod staff;
mod store;
mod stored_scores;
mod suggestions;
mod tables;

#[cfg(feature = "testing")]
pub mod testing;

pub use admin::Admin;
pub use audit::utc_minute;
pub use changes::Changes;
pub use cloze::Cloze;
pub use cloze::{ClozeAnswer, ClozeRecord, ClozeServing};
pub use corpus::ROWS_PER_COMMIT;
pub use crowd::Crowd;
pub use crowd::{Assignment, StudyEntry};
pub use define::Define;
pub use define::{DefineServing, DefinitionRound, GroupFacts, GroupToScore, NewSynset, WordNetReport};
pub use error::StoreError;
pub use filter::{check_filter, day_range, filter_language};
pub use first_start::FirstStart;
pub use game::Game;
pub use game::{HoldCount, ItemFacts, PairPlays, PastAnswer, ServedAndFriends};
pub use game_positions::Repaired;
pub use game_writes::{AnswerRow, Pending, ServingRow, Write};
pub use gapwise_model::{LineError, Refusal, RefusalKey};
pub use guess::Guess;
pub use guess::{GuessProgress, GuessRow, GuessServing, HumanGuess, ModelGuess, Prediction, WordFacts};
pub use items::{BuildReport, ITEMS_PER_K};
pub use leaderboard::MIN_ANSWERS_TO_RANK;
pub use lifetimes::{Ended, DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, PLAYER_SESSION_DAYS, STAFF_IDLE_MINUTES, STAFF_SESSION_HOURS};
pub use material::ImportReport;
pub use material::Material;
pub use new_words::NewWords;
pub use new_words::{NewWordsAnswer, NewWordsItemRecord, NewWordsJudgement, NewWordsServing, NewWordsSetup, NewWordsVariant};
pub use password_rules::PasswordRules;
pub use players::Players;
pub use players::CONSENT_VERSION;
pub use rate::Rate;
pub use rate::{RatePair, RateRow, RateServing};
pub use read_only::{sqlite_url_of, APPLICATION_ID};
pub use research::Research;
pub use research::{ExportContext, ExportRow, BLANK};
pub use responses::ModeResponse;
pub use rights::Erased;
pub use rights::Rights;
pub use scores::Scores;
pub use scores::{ContextScore, ContextToScore, ModelInfo};
pub use search::{ContextTally, Found};
pub use session::{Player, Session};
pub use social::Social;
pub use sql::now_ms;
pub use staff::StaffAccounts;
pub use staff::{ApiToken, Role, Staff, TOKEN_ID_CHARS};
pub use store::{sqlite_file, Backend, Store};
pub use stored_scores::{ScoreKeys, StoredScores, StoredValues};
pub use suggestions::Suggestions;
