//! The interface in five languages. The words are Fluent catalogues,
//! `app/locales/<code>/main.ftl`, compiled into both the server and the wasm front
//! end; Fluent picks plural forms by each language's rules (Russian has three).
//!
//! The language is the `gapwise_lang` cookie, set by `GET /language?to=<code>`
//! (server/src/language.rs) from the switcher in the page header, or else the
//! browser's `Accept-Language`, or else English. The server renders it into
//! `<html lang>`, where the front end reads it back, so both render the same words.
//! It also chooses which items a player gets unless a page's `?lang=` says otherwise.

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{langid, LanguageIdentifier, Loader};
use gapwise_model::{parse_language, Achievement, Mode, RefusalKey, DEFAULT_LANGUAGE};
use leptos::prelude::*;

fluent_templates::static_loader! {
    static CATALOGUES = {
        locales: "./locales",
        fallback_language: "en",
        // no invisible isolation marks around the numbers and words put into messages
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// The cookie that keeps a visitor's interface language.
pub const LANGUAGE_COOKIE: &str = "gapwise_lang";

/// A message of the catalogues, by its key: only the constants of [`msg`] (made
/// from the English catalogue by `app/build.rs`) and [`Msg::named`] make one, so a
/// key the catalogue lacks does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Msg(&'static str);

impl Msg {
    /// The key as the catalogues write it.
    pub fn key(self) -> &'static str {
        self.0
    }

    /// The message whose key is made from data (`table-<name>`, an achievement's
    /// name); `None` when the catalogue has no such message.
    pub fn named(key: &str) -> Option<Msg> {
        msg::ALL.into_iter().find(|m| m.0 == key)
    }
}

/// Every message key of the catalogues, as constants: `nav-play` is `msg::NAV_PLAY`.
pub mod msg {
    use crate::i18n::Msg;
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

/// The message saying refusal `key` (its `args` fill it).
pub fn refusal_message(key: RefusalKey) -> Msg {
    match key {
        RefusalKey::Busy => msg::ERROR_BUSY,
        RefusalKey::Consent => msg::ERROR_CONSENT,
        RefusalKey::FeedbackLength => msg::ERROR_FEEDBACK_LENGTH,
        RefusalKey::FewChallengeItems => msg::ERROR_FEW_CHALLENGE_ITEMS,
        RefusalKey::GuessLength => msg::ERROR_GUESS_LENGTH,
        RefusalKey::Login => msg::ERROR_LOGIN,
        RefusalKey::MaxFriends => msg::ERROR_MAX_FRIENDS,
        RefusalKey::NoChallenge => msg::ERROR_NO_CHALLENGE,
        RefusalKey::NoPlayer => msg::ERROR_NO_PLAYER,
        RefusalKey::NoSession => msg::ERROR_NO_SESSION,
        RefusalKey::NoStudy => msg::ERROR_NO_STUDY,
        RefusalKey::NoStudyUnderWay => msg::ERROR_NO_STUDY_UNDER_WAY,
        RefusalKey::NotFriend => msg::ERROR_NOT_FRIEND,
        RefusalKey::NotSingleWord => msg::ERROR_NOT_SINGLE_WORD,
        RefusalKey::OwnPseudonym => msg::ERROR_OWN_PSEUDONYM,
        RefusalKey::PairInGame => msg::ERROR_PAIR_IN_GAME,
        RefusalKey::PairProposed => msg::ERROR_PAIR_PROPOSED,
        RefusalKey::PairSame => msg::ERROR_PAIR_SAME,
        RefusalKey::PasswordCurrent => msg::ERROR_PASSWORD_CURRENT,
        RefusalKey::PasswordLength => msg::ERROR_PASSWORD_LENGTH,
        RefusalKey::PasswordWeak => msg::ERROR_PASSWORD_WEAK,
        RefusalKey::StudyElsewhere => msg::ERROR_STUDY_ELSEWHERE,
        RefusalKey::StudyLink => msg::ERROR_STUDY_LINK,
        RefusalKey::StudyReturned => msg::ERROR_STUDY_RETURNED,
        RefusalKey::TooManyRequests => msg::ERROR_TOO_MANY_REQUESTS,
        RefusalKey::WordUnknown => msg::ERROR_WORD_UNKNOWN,
    }
}

/// The message of refusal `key` as a page shows it when the refusal came in the
/// page's address (see `AppError::from_address`): its own where it needs no
/// argument, else the general refusal, since the arguments (words, names, numbers)
/// came with the address and anyone may have written them.
pub fn refusal_message_alone(key: RefusalKey) -> Msg {
    match key {
        RefusalKey::Busy
        | RefusalKey::Consent
        | RefusalKey::Login
        | RefusalKey::NoChallenge
        | RefusalKey::NoSession
        | RefusalKey::NoStudy
        | RefusalKey::NoStudyUnderWay
        | RefusalKey::OwnPseudonym
        | RefusalKey::PairSame
        | RefusalKey::PasswordCurrent
        | RefusalKey::PasswordWeak
        | RefusalKey::StudyElsewhere
        | RefusalKey::StudyLink
        | RefusalKey::StudyReturned => refusal_message(key),
        RefusalKey::FeedbackLength
        | RefusalKey::FewChallengeItems
        | RefusalKey::GuessLength
        | RefusalKey::MaxFriends
        | RefusalKey::NoPlayer
        | RefusalKey::NotFriend
        | RefusalKey::NotSingleWord
        | RefusalKey::PairInGame
        | RefusalKey::PairProposed
        | RefusalKey::PasswordLength
        | RefusalKey::TooManyRequests
        | RefusalKey::WordUnknown => msg::ERROR_REFUSED,
    }
}

/// The message naming `mode` in the menu and in its page's title.
pub fn mode_name(mode: Mode) -> Msg {
    match mode {
        Mode::Play => msg::NAV_PLAY,
        Mode::Rate => msg::NAV_RATE,
        Mode::Define => msg::NAV_DEFINE,
        Mode::Guess => msg::NAV_GUESS,
        Mode::NewWords => msg::NAV_NEW_WORDS,
        Mode::Cloze => msg::NAV_CLOZE,
    }
}

/// An achievement's name, and how to earn it.
pub fn achievement_messages(achievement: Achievement) -> (Msg, Msg) {
    match achievement {
        Achievement::FirstAnswer => (msg::ACH_FIRST_ANSWER, msg::ACH_FIRST_ANSWER_HOW),
        Achievement::EveryK => (msg::ACH_EVERY_K, msg::ACH_EVERY_K_HOW),
        Achievement::Polyglot => (msg::ACH_POLYGLOT, msg::ACH_POLYGLOT_HOW),
        Achievement::TenInARow => (msg::ACH_TEN_IN_A_ROW, msg::ACH_TEN_IN_A_ROW_HOW),
        Achievement::DailyGoal => (msg::ACH_DAILY_GOAL, msg::ACH_DAILY_GOAL_HOW),
        Achievement::LevelFive => (msg::ACH_LEVEL_FIVE, msg::ACH_LEVEL_FIVE_HOW),
        Achievement::PairInGame => (msg::ACH_PAIR_IN_GAME, msg::ACH_PAIR_IN_GAME_HOW),
        Achievement::Unsolvable => (msg::ACH_UNSOLVABLE, msg::ACH_UNSOLVABLE_HOW),
    }
}

/// The interface language of this page, by its code in `model::LANGUAGES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct I18n(pub &'static str);

impl I18n {
    fn id(self) -> LanguageIdentifier {
        match self.0 {
            "es" => langid!("es"),
            "fr" => langid!("fr"),
            "it" => langid!("it"),
            "ru" => langid!("ru"),
            _ => langid!("en"),
        }
    }

    /// The message `key`.
    pub fn t(self, key: Msg) -> String {
        CATALOGUES.lookup(&self.id(), key.0)
    }

    /// A table of players' data named in this language (`table-<name>` in the
    /// catalogues; a test checks that every such table has its message), else its
    /// name.
    pub fn table(self, table: &str) -> String {
        Msg::named(&format!("table-{table}")).map_or_else(|| table.to_owned(), |key| self.t(key))
    }

    /// The message `key` with its arguments: numbers choose plural forms.
    pub fn t_with(self, key: Msg, args: &[(&'static str, Arg)]) -> String {
        let args: HashMap<Cow<'static, str>, FluentValue> = args
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    Arg::Number(n) => FluentValue::from(*n),
                    Arg::Text(s) => FluentValue::from(s.clone()),
                };
                (Cow::Borrowed(*name), value)
            })
            .collect();
        CATALOGUES.lookup_with_args(&self.id(), key.0, &args)
    }

    /// The message `key` with corpus text put in (`words`: each `$name` and its text):
    /// each piece of corpus text is an element in its own `language`, so that a screen
    /// reader reads it in that language's voice and the rest in the interface's.
    pub fn t_words(self, key: Msg, words: &[(&'static str, &str)], language: &'static str) -> Vec<AnyView> {
        // the words go in as characters of Unicode's private use area (no catalogue
        // writes them), where the text is then split
        const FIRST: u32 = 0xE000;
        let mark = |i: u32| Arg::Text(char::from_u32(FIRST + i).unwrap_or_default().to_string());
        let args: Vec<_> = words.iter().zip(0..).map(|(&(name, _), i)| (name, mark(i))).collect();
        let (mut views, mut plain) = (Vec::new(), String::new());
        for c in self.t_with(key, &args).chars() {
            match u32::from(c).checked_sub(FIRST).and_then(|i| words.get(usize::try_from(i).ok()?)) {
                Some(&(_, word)) => {
                    views.push(std::mem::take(&mut plain).into_any());
                    views.push(view! { <span lang=language>{word.to_owned()}</span> }.into_any());
                }
                None => plain.push(c),
            }
        }
        views.push(plain.into_any());
        views
    }
}

/// A value put into a message.
pub enum Arg {
    Number(i64),
    Text(String),
}

impl From<i64> for Arg {
    fn from(n: i64) -> Self {
        Arg::Number(n)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Self {
        Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_owned())
    }
}

/// The page's language: as `App` provided it on the server, or read back from the
/// page in an island (the browser runs islands alone, without `App` around them).
pub fn use_i18n() -> I18n {
    use_context::<I18n>().unwrap_or_else(detect)
}

/// The items' language a page's query asks for (`?lang=xx`), else the interface's.
pub fn query_language() -> &'static str {
    let query = leptos_router::hooks::use_query_map();
    let asked = query.read_untracked().get("lang").and_then(|raw| parse_language(&raw));
    asked.unwrap_or(use_i18n().0)
}

/// A language code as an island's prop carries it, back to one of `model::LANGUAGES`.
pub fn language_of(code: &str) -> &'static str {
    parse_language(code).unwrap_or(DEFAULT_LANGUAGE)
}

/// The language of the request being rendered (server) or of the page the server
/// rendered (browser).
pub fn detect() -> I18n {
    #[cfg(feature = "ssr")]
    {
        let headers = use_context::<axum::http::request::Parts>().map(|parts| parts.headers).unwrap_or_default();
        of_headers(&headers)
    }
    #[cfg(not(feature = "ssr"))]
    {
        let lang = document().document_element().and_then(|html| html.get_attribute("lang"));
        I18n(lang.as_deref().and_then(parse_language).unwrap_or(DEFAULT_LANGUAGE))
    }
}

/// The language a request's headers ask for: its language cookie, else its
/// `Accept-Language` (see [`choose`]). For responses made outside the app too (the
/// server's rate limits).
#[cfg(feature = "ssr")]
pub fn of_headers(headers: &axum::http::HeaderMap) -> I18n {
    use axum::http::header;
    use axum_extra::extract::cookie::CookieJar;
    let accept = headers.get_all(header::ACCEPT_LANGUAGE).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let jar = CookieJar::from_headers(headers);
    I18n(choose(jar.get(LANGUAGE_COOKIE).map(|c| c.value()), &accept.join(",")))
}

/// The language cookie's value, else the first supported language the browser
/// accepts, else English.
pub fn choose(cookie: Option<&str>, accept_language: &str) -> &'static str {
    let chosen = cookie.and_then(parse_language);
    // "ru-RU,ru;q=0.9,en;q=0.8": tags in order of preference (q values are sorted so in practice)
    let accepted = || {
        accept_language
            .split(',')
            .filter_map(|tag| tag.split(';').next())
            .find_map(|tag| parse_language(&tag.trim().split('-').next().unwrap_or_default().to_ascii_lowercase()))
    };
    chosen.or_else(accepted).unwrap_or(DEFAULT_LANGUAGE)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn the_cookie_wins_then_the_browser_then_english() {
        assert_eq!(choose(Some("ru"), "fr-FR,fr;q=0.9"), "ru");
        assert_eq!(choose(Some("xx"), "de-DE,it;q=0.8,fr;q=0.5"), "it");
        assert_eq!(choose(None, "de, nl"), "en");
    }

    /// The message names of a catalogue.
    fn keys(ftl: &str) -> Vec<&str> {
        let mut keys: Vec<&str> =
            ftl.lines().filter(|l| !l.starts_with([' ', '#']) && l.contains(" =")).filter_map(|l| l.split(" =").next()).collect();
        keys.sort_unstable();
        keys
    }

    /// A refusal that came in a page's address is said without arguments: the
    /// message chosen for it has none to fill.
    #[test]
    fn refusals_from_an_address_need_no_argument() {
        for key in RefusalKey::ALL {
            for code in ["en", "es", "fr", "it", "ru"] {
                let said = I18n(code).t(refusal_message_alone(key));
                assert!(!said.is_empty() && !said.contains('{') && !said.contains('$'), "{code} {key:?}: {said}");
            }
        }
    }

    #[test]
    fn every_language_has_every_message_and_russian_plurals() {
        let english = keys(include_str!("../locales/en/main.ftl"));
        assert!(english.len() > 50, "{} messages", english.len());
        let others = [
            ("es", include_str!("../locales/es/main.ftl")),
            ("fr", include_str!("../locales/fr/main.ftl")),
            ("it", include_str!("../locales/it/main.ftl")),
            ("ru", include_str!("../locales/ru/main.ftl")),
        ];
        for (code, ftl) in others {
            assert_eq!(keys(ftl), english, "{code} has other messages than en");
        }
        let ru = I18n("ru");
        let points = |n: i64| ru.t_with(msg::PLAY_POINTS, &[("n", n.into())]);
        assert_eq!([points(1), points(3), points(5), points(21)], ["1 очко", "3 очка", "5 очков", "21 очко"]);
        let en = I18n("en");
        assert_eq!(en.t_with(msg::PLAY_POINTS, &[("n", 1i64.into())]), "1 point");
        assert_eq!(en.t_with(msg::PLAY_POINTS, &[("n", 2i64.into())]), "2 points");
    }

    /// Corpus words go into a message as elements of their own language, and French
    /// guillemets hold to them by no-break spaces.
    #[test]
    fn words_in_messages_carry_their_language() {
        use leptos::tachys::view::RenderHtml;
        // without the hydration markers
        let render = |view: Vec<AnyView>| view.to_html().replace("<!>", "");
        let html = render(I18n("fr").t_words(msg::RATE_PROBABLY, &[("word", "trois")], "ru"));
        assert!(html.starts_with("probablement «\u{a0}<span lang=\"ru\">trois</span>\u{a0}»"), "{html}");
        let html = render(I18n("en").t_words(msg::GUESS_WRONG, &[("word", "dog"), ("guess", "cat")], "en"));
        assert!(html.contains("It was “<span lang=\"en\">dog</span>” (you guessed “<span lang=\"en\">cat</span>”)."), "{html}");
    }

    /// Every refusal a player can meet has its message (in English, and so, by the
    /// test above, in every language).
    #[test]
    fn refusals_have_distinct_codes_and_messages() {
        let codes: HashSet<&str> = RefusalKey::ALL.iter().map(|r| r.code()).collect();
        let messages: HashSet<Msg> = RefusalKey::ALL.into_iter().map(refusal_message).collect();
        assert_eq!((codes.len(), messages.len()), (RefusalKey::ALL.len(), RefusalKey::ALL.len()));
        assert!(codes.iter().all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')), "{codes:?}");
        // the code on the wire is the serialised key
        for key in RefusalKey::ALL {
            let wire = serde_json::to_string(&key).unwrap_or_default();
            assert_eq!(wire, format!("\"{}\"", key.code()));
        }
        // the constants are the catalogue's messages, and data-made keys find theirs
        assert_eq!(msg::ALL.len(), keys(include_str!("../locales/en/main.ftl")).len());
        assert_eq!(Msg::named("table-answers"), Some(msg::TABLE_ANSWERS));
        assert_eq!(Msg::named("table-nothing"), None);
    }
}
