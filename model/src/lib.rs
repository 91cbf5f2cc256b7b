//! Types that travel between the server and the browser, and the game's rules that
//! need nothing else (points, levels, what a player may choose). No dependency but
//! serde: the wasm front end compiles it too. One module per game mode (`play`,
//! `rate`, `define`, `guess`, `new_words`, `cloze`) and per feature; everything is re-exported
//! here.

#![forbid(unsafe_code)]

/// Stops the build unless `$ty::ALL` lists every variant of the enum `$ty`, in the
/// order of the variants (strum lists them): a variant added to the enum but not to
/// `ALL` does not compile. The indexing is evaluated by the compiler, below the
/// length it checked first.
macro_rules! all_listed {
    ($ty:ident) => {
        #[allow(clippy::indexing_slicing)]
        const _: () = {
            let variants = <$ty as strum::VariantArray>::VARIANTS;
            assert!(variants.len() == $ty::ALL.len(), concat!(stringify!($ty), "::ALL must list every variant"));
            let mut i = 0;
            while i < variants.len() {
                assert!(variants[i] as u8 == $ty::ALL[i] as u8, concat!(stringify!($ty), "::ALL must list the variants in their order"));
                i += 1;
            }
        };
    };
}
pub(crate) use all_listed;

mod admin;
mod cloze;
mod crowd;
mod define;
mod giveaway;
mod guess;
mod ids;
mod k;
mod language;
mod leaderboard;
mod mode;
mod new_words;
mod play;
mod pos;
mod preparation;
mod quality;
mod rate;
mod refusal;
mod research;
mod rights;
mod round;
mod social;
mod suggest;
mod trial;
pub mod words;

pub use admin::*;
pub use cloze::*;
pub use crowd::*;
pub use define::*;
pub use giveaway::{giveaway, Giveaway, Neighbours, NEIGHBOUR_SENTENCES};
pub use guess::*;
pub use ids::{ChallengeId, ItemId, ModelId, PairId, PlayerId, ServingId, StudyId};
pub use k::K;
pub use language::Language;
pub use leaderboard::*;
pub use mode::Mode;
pub use new_words::*;
pub use play::*;
pub use pos::*;
pub use preparation::*;
pub use quality::*;
pub use rate::*;
pub use refusal::*;
pub use research::*;
pub use rights::*;
pub use round::*;
pub use social::*;
pub use suggest::*;
pub use trial::*;

/// The languages of the game: code and name in the language itself (of [`Language::ALL`]).
pub const LANGUAGES: [(&str, &str); 5] = {
    let [en, es, fr, it, ru] = Language::ALL;
    [(en.code(), en.name()), (es.code(), es.name()), (fr.code(), fr.name()), (it.code(), it.name()), (ru.code(), ru.name())]
};

/// The language played when the player has not chosen.
pub const DEFAULT_LANGUAGE: &str = Language::En.code();

/// Parses a language code chosen by a player; `None` when it is not one of [`LANGUAGES`].
pub fn parse_language(raw: &str) -> Option<&'static str> {
    Language::parse(raw).map(Language::code)
}

/// How a word pair was made: from closed word lists, from word vectors, or proposed by a player.
pub const STRATEGIES: [&str; 3] = ["a-priori", "distributional", "suggested"];

/// Milliseconds in a day, the unit of stored times being the millisecond (UTC days).
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_the_five_codes() {
        assert_eq!(parse_language(" ru"), Some("ru"));
        assert_eq!(parse_language("de"), None);
        assert_eq!(parse_language("EN"), None);
    }
}
