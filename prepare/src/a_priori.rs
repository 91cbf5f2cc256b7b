//! A-priori word pairs: words of one closed category (cardinals, ordinals, months,
//! days of the week, colours) can stand for one another in many sentences, so every
//! two words of a category make a pair. The lists are `data/pairs/a_priori.tsv`.
//!
//! English "May" is left out of the months: as the modal verb it would fill
//! sentences that are not about the month.

const LISTS: &str = include_str!("../../data/pairs/a_priori.tsv");

/// Every pair of two words of one category in `language`, in list order (the
/// earlier word is the target). Empty for a language without lists.
pub fn a_priori_pairs(language: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for line in LISTS.lines().skip(1) {
        let mut fields = line.split('\t');
        if fields.next() != Some(language) {
            continue;
        }
        let words: Vec<&str> = fields.nth(1).unwrap_or_default().split_whitespace().collect();
        for (i, a) in words.iter().enumerate() {
            pairs.extend(words.iter().skip(i + 1).map(|b| ((*a).to_owned(), (*b).to_owned())));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::a_priori_pairs;

    #[test]
    fn every_language_has_every_category() {
        // 45 cardinal, 45 ordinal, 21 weekday and 15 colour pairs, plus the months
        for (language, months) in [("en", 11), ("es", 12), ("fr", 12), ("it", 12), ("ru", 12)] {
            let expected = 45 + 45 + 21 + 15 + months * (months - 1) / 2;
            assert_eq!(a_priori_pairs(language).len(), expected, "{language}");
        }
        assert!(a_priori_pairs("de").is_empty());
    }

    #[test]
    fn pairs_stay_within_a_category() {
        let pairs = a_priori_pairs("ru");
        assert!(pairs.contains(&("два".to_owned(), "три".to_owned())));
        assert!(pairs.contains(&("красный".to_owned(), "зелёный".to_owned())));
        assert!(!pairs.iter().any(|(a, b)| (a == "два" && b == "красный") || (a == "красный" && b == "два")));
    }
}
