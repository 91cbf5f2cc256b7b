//! Contexts whose grammar gives the answer away. A two-word item asks which word of
//! a pair fits a sentence; the sentence must not say it by its grammar alone. The
//! item builder keeps a context only when the words around the blank fit both words
//! of the pair equally:
//!
//! - **sound** ([`Giveaway::Article`] in English, [`Giveaway::Elision`] in French and
//!   Italian): the word before the blank takes a form that only some first sounds
//!   allow ("a"/"an"; "d'", "l'", "dell'", "un'" glued by an apostrophe; "le", "de",
//!   "lo", "il", "uno"...). Decided from the spelling of the two words, by the rules
//!   of [`sound`].
//! - **agreement** ([`Giveaway::Agreement`]): the word before the blank is a
//!   determiner of one gender and number (es, fr, it), a Russian word with an
//!   adjective's ending (case, gender and number), or the word after the blank is a
//!   Russian past-tense verb (gender and number). Nothing in the spelling of a noun
//!   says its gender, so the corpus says it: the context is kept only when the
//!   distractor itself stands somewhere in the corpus next to a word of the same
//!   agreement ([`Neighbours`]). A distractor never seen so is taken not to fit:
//!   a context is dropped rather than kept on a guess.
//!
//! What a rule cannot see (agreement across more than one word, a verb's object
//! case) is left to the model check of the manual (docs/src/admins/items.md).

use std::collections::HashSet;

use crate::words::word_spans;
use crate::Language;

/// Why a context gives its answer away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::VariantArray)]
pub enum Giveaway {
    /// English "a"/"an" before the blank fits one word's first sound only.
    Article,
    /// A French or Italian elided or full form before the blank fits one word's
    /// first sound only.
    Elision,
    /// A word next to the blank agrees with the target, and the distractor is not
    /// known to agree with it.
    Agreement,
}

impl Giveaway {
    /// Every reason, in the order of the variants.
    pub const ALL: [Giveaway; 3] = [Giveaway::Article, Giveaway::Elision, Giveaway::Agreement];

    /// Its name in reports.
    pub const fn code(self) -> &'static str {
        match self {
            Giveaway::Article => "article",
            Giveaway::Elision => "elision",
            Giveaway::Agreement => "agreement",
        }
    }
}

crate::all_listed!(Giveaway);

/// The sentences holding a distractor that the item builder reads, at most, to learn
/// its [`Neighbours`].
pub const NEIGHBOUR_SENTENCES: usize = 2000;

/// The agreement marks seen next to a word in the corpus: the marks of the words
/// right before it, and of the words right after it ([`mark_before`], [`mark_after`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Neighbours {
    before: HashSet<&'static str>,
    after: HashSet<&'static str>,
}

impl Neighbours {
    /// Whether a word's neighbours say anything in `language`: English marks no
    /// agreement ([`mark_before`] and [`mark_after`] give it none), so its words'
    /// sentences need not be read.
    pub fn matter_in(language: Language) -> bool {
        language != Language::En
    }

    /// The marks next to each whole-word occurrence of `word` (any case) in `texts`.
    pub fn of<'a>(language: Language, word: &str, texts: impl IntoIterator<Item = &'a str>) -> Self {
        let wanted = word.to_lowercase();
        let mut seen = Neighbours::default();
        for text in texts {
            let spans = word_spans(text);
            for (i, &(s, e)) in spans.iter().enumerate() {
                if text.get(s..e).map(str::to_lowercase).as_deref() != Some(wanted.as_str()) {
                    continue;
                }
                if let Some(mark) = i.checked_sub(1).and_then(|b| spaced_word(text, &spans, b, s)).and_then(|w| mark_before(language, &w)) {
                    seen.before.insert(mark);
                }
                if let Some(mark) = spaced_word(text, &spans, i + 1, e).and_then(|w| mark_after(language, &w)) {
                    seen.after.insert(mark);
                }
            }
        }
        seen
    }
}

/// The lower-cased word `index` of `spans` when only spaces part it from byte
/// `edge` (the blank's start or end).
fn spaced_word(text: &str, spans: &[(usize, usize)], index: usize, edge: usize) -> Option<String> {
    let &(s, e) = spans.get(index)?;
    let gap = if e <= edge { text.get(e..edge)? } else { text.get(edge..s)? };
    (!gap.is_empty() && gap.chars().all(char::is_whitespace)).then(|| text.get(s..e).map(str::to_lowercase)).flatten()
}

/// Whether the context `text` with its blank at `blank` (the target's byte range)
/// gives the answer away between `target` and `distractor`; `distractor_seen` is
/// what the corpus says of the distractor's neighbours.
pub fn giveaway(
    language: Language,
    text: &str,
    blank: (usize, usize),
    target: &str,
    distractor: &str,
    distractor_seen: &Neighbours,
) -> Option<Giveaway> {
    let spans = word_spans(text);
    let at = spans.iter().position(|&(s, _)| s == blank.0)?;
    if let Some(prev) = at.checked_sub(1).and_then(|p| spans.get(p)) {
        let glue = text.get(prev.1..blank.0).unwrap_or_default();
        let word = text.get(prev.0..prev.1).unwrap_or_default().to_lowercase();
        let form = if glue == "'" || glue == "\u{2019}" {
            Some(Form::Elided)
        } else if !glue.is_empty() && glue.chars().all(char::is_whitespace) {
            Form::of(language, &word)
        } else {
            None
        };
        if let Some(form) = form {
            if form.allows(language, target) != form.allows(language, distractor) {
                return Some(if language == Language::En { Giveaway::Article } else { Giveaway::Elision });
            }
        }
    }
    let before = at.checked_sub(1).and_then(|b| spaced_word(text, &spans, b, blank.0)).and_then(|w| mark_before(language, &w));
    let after = spaced_word(text, &spans, at + 1, blank.1).and_then(|w| mark_after(language, &w));
    let unseen = before.is_some_and(|m| !distractor_seen.before.contains(m)) || after.is_some_and(|m| !distractor_seen.after.contains(m));
    unseen.then_some(Giveaway::Agreement)
}

/// How a word begins, as the forms before it care.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sound {
    Vowel,
    /// A written h: silent or not, a lexical fact no rule of spelling decides.
    H,
    /// Italian s before a consonant, z, x, y, gn, ps, pn (which take "lo", "uno").
    Impure,
    Consonant,
}

/// The first sound of `word` in `language`, from its spelling. English follows
/// the sound, not the letter ("an hour", "a union", "a one-off"); abbreviations
/// ("an FAQ") are not attempted.
fn sound(language: Language, word: &str) -> Option<Sound> {
    let lower = word.to_lowercase();
    let mut chars = lower.chars();
    let first = chars.next()?;
    let second = chars.next();
    let vowel = |c: char| "aeiouàáâäèéêëìíîïòóôöùúûüœæ".contains(c);
    let sound = match language {
        Language::En => {
            const SILENT_H: [&str; 4] = ["hour", "honest", "honor", "heir"];
            const YOU: [&str; 8] = ["uni", "use", "usu", "uti", "ura", "uro", "eu", "ewe"];
            if SILENT_H.iter().any(|h| lower.starts_with(h)) {
                Sound::Vowel
            } else if YOU.iter().any(|y| lower.starts_with(y)) || lower.starts_with("one") || lower.starts_with("once") {
                Sound::Consonant
            } else if vowel(first) {
                Sound::Vowel
            } else {
                Sound::Consonant
            }
        }
        Language::It if first == 's' && second.is_some_and(|c| !vowel(c)) => Sound::Impure,
        Language::It
            if matches!(first, 'z' | 'x' | 'y') || lower.starts_with("gn") || lower.starts_with("ps") || lower.starts_with("pn") =>
        {
            Sound::Impure
        }
        _ if first == 'h' => Sound::H,
        _ if vowel(first) || (language == Language::Fr && first == 'y') => Sound::Vowel,
        _ => Sound::Consonant,
    };
    Some(sound)
}

/// A form before the blank that only some first sounds take.
#[derive(Clone, Copy)]
enum Form {
    /// Glued by an apostrophe: "l'", "d'", "qu'", "dell'", "un'".
    Elided,
    /// Takes no vowel: French "le", "de"..., Italian "la", "una"...
    Full,
    /// English "a".
    A,
    /// English "an".
    An,
    /// Italian "il", "del", "un"...: no s impure, z...
    Plain,
    /// Italian "lo", "uno", "dello"...: s impure, z... only.
    Lo,
    /// Italian "gli", "degli"...: a vowel or s impure, z...
    Gli,
}

impl Form {
    fn of(language: Language, word: &str) -> Option<Form> {
        const FR_FULL: [&str; 13] = ["le", "la", "de", "que", "je", "me", "te", "se", "ne", "ce", "jusque", "lorsque", "puisque"];
        const IT_FULL: [&str; 11] = ["la", "una", "della", "alla", "dalla", "nella", "sulla", "quella", "bella", "questa", "questo"];
        const IT_PLAIN: [&str; 17] =
            ["il", "i", "del", "al", "dal", "nel", "sul", "col", "quel", "bel", "dei", "ai", "dai", "nei", "sui", "quei", "bei"];
        const IT_LO: [&str; 9] = ["lo", "uno", "dello", "allo", "dallo", "nello", "sullo", "quello", "bello"];
        const IT_GLI: [&str; 8] = ["gli", "degli", "agli", "dagli", "negli", "sugli", "quegli", "begli"];
        match language {
            Language::En if word == "a" => Some(Form::A),
            Language::En if word == "an" => Some(Form::An),
            Language::Fr if word == "cet" => Some(Form::Elided),
            Language::Fr if FR_FULL.contains(&word) => Some(Form::Full),
            Language::It if IT_FULL.contains(&word) => Some(Form::Full),
            Language::It if IT_PLAIN.contains(&word) => Some(Form::Plain),
            Language::It if IT_LO.contains(&word) => Some(Form::Lo),
            Language::It if IT_GLI.contains(&word) => Some(Form::Gli),
            _ => None,
        }
    }

    /// Whether `word` can follow this form; `None` when its sound is unknown (no
    /// letters), which fits nothing.
    fn allows(self, language: Language, word: &str) -> Option<bool> {
        let s = sound(language, word)?;
        Some(match self {
            // an h may be silent ("l'homme") or not ("le héros"): both forms take it
            Form::Elided => s != Sound::Consonant && s != Sound::Impure,
            Form::Full => s != Sound::Vowel,
            Form::A => s != Sound::Vowel,
            Form::An => s == Sound::Vowel,
            Form::Plain => s != Sound::Impure,
            Form::Lo => s == Sound::Impure,
            Form::Gli => s == Sound::Impure || s == Sound::Vowel || s == Sound::H,
        })
    }
}

/// The agreement a word before a noun marks (gender and number of a determiner in
/// es, fr, it; the ending of a Russian adjective or pronoun, which marks case,
/// gender and number); `None` for a word that marks none.
fn mark_before(language: Language, word: &str) -> Option<&'static str> {
    const ES: [(&str, &[&str]); 4] = [
        ("m", &["el", "del", "al", "un", "este", "ese", "aquel", "nuestro", "vuestro", "ningún", "algún", "otro"]),
        (
            "f",
            &["la", "una", "esta", "esa", "aquella", "nuestra", "vuestra", "ninguna", "alguna", "otra", "poca", "mucha", "tanta", "cierta"],
        ),
        ("mp", &["los", "unos", "estos", "esos", "aquellos", "nuestros", "vuestros", "otros", "pocos", "muchos", "tantos", "ciertos"]),
        ("fp", &["las", "unas", "estas", "esas", "aquellas", "nuestras", "vuestras", "otras", "pocas", "muchas", "tantas", "ciertas"]),
    ];
    const FR: [(&str, &[&str]); 3] = [
        ("m", &["le", "du", "au", "un", "ce", "cet", "mon", "ton", "son", "quel", "aucun"]),
        ("f", &["la", "une", "cette", "ma", "ta", "sa", "quelle", "aucune"]),
        ("p", &["les", "des", "aux", "ces", "mes", "tes", "ses", "quels", "quelles", "quelques", "plusieurs"]),
    ];
    const IT: [(&str, &[&str]); 4] = [
        (
            "m",
            &[
                "il", "lo", "un", "uno", "del", "dello", "al", "allo", "dal", "dallo", "nel", "nello", "sul", "sullo", "questo", "quel",
                "quello", "mio", "tuo", "suo", "nostro", "altro",
            ],
        ),
        (
            "f",
            &[
                "la", "una", "della", "alla", "dalla", "nella", "sulla", "questa", "quella", "mia", "tua", "sua", "nostra", "altra",
                "molta", "poca", "tanta",
            ],
        ),
        (
            "mp",
            &[
                "i", "gli", "dei", "degli", "ai", "agli", "dai", "dagli", "nei", "negli", "sui", "sugli", "questi", "quei", "quegli",
                "miei", "tuoi", "suoi", "nostri", "altri", "molti", "pochi", "tanti",
            ],
        ),
        (
            "fp",
            &[
                "le", "delle", "alle", "dalle", "nelle", "sulle", "queste", "quelle", "mie", "tue", "sue", "nostre", "altre", "molte",
                "poche", "tante",
            ],
        ),
    ];
    /// Endings of Russian adjectives, participles and pronouns, longest first.
    const RU: [&str; 22] = [
        "ого", "его", "ому", "ему", "ыми", "ими", "ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ую", "юю", "ым", "им", "ых", "их",
        "ей",
    ];
    /// Demonstratives whose endings are not an adjective's.
    const RU_THIS: [(&str, &str); 4] = [("этот", "ый"), ("эта", "ая"), ("эту", "ую"), ("эти", "ые")];
    let table: &[(&str, &[&str])] = match language {
        Language::Es => &ES,
        Language::Fr => &FR,
        Language::It => &IT,
        Language::Ru => {
            let ending = RU.into_iter().find(|e| word.chars().count() > e.chars().count() + 1 && word.ends_with(e));
            return RU_THIS.into_iter().find(|&(w, _)| w == word).map(|(_, mark)| mark).or(ending);
        }
        Language::En => return None,
    };
    table.iter().find(|(_, words)| words.contains(&word)).map(|&(mark, _)| mark)
}

/// The agreement a word after a noun marks: the gender of a Russian past-tense
/// verb in the singular ("пришла", "пришёл"; the plural "-ли" is the same for every
/// gender); `None` elsewhere.
fn mark_after(language: Language, word: &str) -> Option<&'static str> {
    const RU_PAST: [&str; 3] = ["ла", "ло", "л"];
    (language == Language::Ru && word.chars().count() >= 4).then(|| RU_PAST.into_iter().find(|e| word.ends_with(e))).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::blank_for;

    /// What the builder decides for `text` blanked at `target`, where the
    /// distractor is seen in `corpus`.
    fn decide(language: Language, text: &str, target: &str, distractor: &str, corpus: &[&str]) -> Option<Giveaway> {
        let blank = blank_for(text, target, distractor).expect("the target is in the text once");
        giveaway(language, text, blank, target, distractor, &Neighbours::of(language, distractor, corpus.iter().copied()))
    }

    #[test]
    fn english_articles_follow_the_first_sound() {
        let text = "There used to be an old caravan route here.";
        assert_eq!(decide(Language::En, text, "old", "new", &[]), Some(Giveaway::Article));
        assert_eq!(decide(Language::En, "He is a friend of mine.", "friend", "enemy", &[]), Some(Giveaway::Article));
        // both take the same article, or none stands before the blank
        assert_eq!(decide(Language::En, "He is a friend of mine.", "friend", "neighbour", &[]), None);
        assert_eq!(decide(Language::En, "It was an honest answer.", "honest", "odd", &[]), None);
        assert_eq!(decide(Language::En, "It was a useful answer.", "useful", "good", &[]), None);
        assert_eq!(decide(Language::En, "The old route is closed.", "old", "new", &[]), None);
    }

    #[test]
    fn french_and_italian_elision_and_full_forms() {
        assert_eq!(decide(Language::Fr, "Beaucoup d'orcs attendaient.", "orcs", "trolls", &[]), Some(Giveaway::Elision));
        assert_eq!(decide(Language::Fr, "Une armée d'hommes arrive.", "hommes", "guerriers", &[]), Some(Giveaway::Elision));
        assert_eq!(decide(Language::Fr, "Beaucoup de trolls attendaient.", "trolls", "orcs", &[]), Some(Giveaway::Elision));
        assert_eq!(decide(Language::Fr, "Beaucoup d'orcs attendaient.", "orcs", "elfes", &[]), None);
        assert_eq!(decide(Language::It, "Il nome dell'arco è antico.", "arco", "spada", &[]), Some(Giveaway::Elision));
        assert_eq!(decide(Language::It, "Ho visto uno scudo rotto.", "scudo", "elmo", &[]), Some(Giveaway::Elision));
        assert_eq!(decide(Language::It, "Ho visto il cane nero.", "cane", "lupo", &["Il lupo dorme."]), None);
    }

    #[test]
    fn agreement_is_read_from_the_distractors_neighbours() {
        let ru = "Красивую женщину видели все.";
        assert_eq!(decide(Language::Ru, ru, "женщину", "мужчину", &["Он видел высокого мужчину."]), Some(Giveaway::Agreement));
        assert_eq!(decide(Language::Ru, ru, "женщину", "девушку", &["Он видел высокую девушку."]), None);
        assert_eq!(
            decide(Language::Ru, "Вчера женщина пришла домой.", "женщина", "мужчина", &["Мужчина пришёл."]),
            Some(Giveaway::Agreement)
        );
        assert_eq!(decide(Language::Es, "Vino del pueblo ayer.", "pueblo", "ciudad", &["Vive en la ciudad."]), Some(Giveaway::Agreement));
        assert_eq!(decide(Language::Es, "Vino del pueblo ayer.", "pueblo", "campo", &["Vive en el campo."]), None);
        assert_eq!(decide(Language::Fr, "Il voit la maison.", "maison", "château", &["Un château fort."]), Some(Giveaway::Agreement));
        assert_eq!(decide(Language::Fr, "Il voit la maison.", "maison", "tour", &["Une tour haute."]), None);
        assert_eq!(decide(Language::It, "Ho visto la casa.", "casa", "palazzo", &["Il palazzo."]), Some(Giveaway::Agreement));
        // a word that marks nothing says nothing
        assert_eq!(decide(Language::Es, "Vino con pueblo.", "pueblo", "ciudad", &[]), None);
    }

    #[test]
    fn marks() {
        assert_eq!(mark_before(Language::Ru, "красивую"), Some("ую"));
        assert_eq!(mark_before(Language::Ru, "и"), None);
        assert_eq!(mark_before(Language::Ru, "эти"), mark_before(Language::Ru, "новые"));
        assert_eq!(mark_before(Language::Es, "poca"), mark_before(Language::Es, "la"));
        assert_eq!(mark_before(Language::Es, "otro"), mark_before(Language::Es, "el"));
        assert_eq!(mark_before(Language::Fr, "quelques"), mark_before(Language::Fr, "les"));
        assert_eq!(mark_before(Language::It, "altre"), mark_before(Language::It, "le"));
        assert_eq!(mark_after(Language::Ru, "пришла"), Some("ла"));
        assert_eq!(mark_after(Language::Ru, "пришёл"), Some("л"));
        assert_eq!(mark_after(Language::Ru, "была"), Some("ла"));
        assert_eq!(mark_after(Language::Ru, "видели"), None);
        assert_eq!(mark_after(Language::Ru, "дом"), None);
        assert_eq!(mark_before(Language::En, "the"), None);
        assert!(!Neighbours::matter_in(Language::En) && Language::ALL.iter().filter(|&&l| Neighbours::matter_in(l)).count() == 4);
    }
}
