//! What a password must be to be set (OWASP ASVS 2.1): long enough for whose it is,
//! not only white space, and not among the passwords and patterns that are guessed
//! first, as zxcvbn estimates them (its lists of common and breached passwords,
//! names and words, and its patterns: dates, keyboard rows, sequences, repeats).

use gapwise_model::{Refusal, RefusalKey};

use crate::error::StoreError;

/// The most characters a password may have (argon2 takes any length; this bounds
/// the work a request can ask for).
const MAX_PASSWORD_CHARS: usize = 256;

/// Whose password is set: a staff account, which sees every answer and changes the
/// game, needs a longer and harder one than a player's, which only resumes play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordRules {
    Player,
    Staff,
}

impl PasswordRules {
    /// The fewest characters a password may have.
    pub fn min_chars(self) -> usize {
        match self {
            PasswordRules::Player => 8,
            PasswordRules::Staff => 12,
        }
    }

    /// The lowest zxcvbn score accepted: 2 (more than about 10^6 guesses) for a
    /// player, 3 (more than about 10^8) for staff.
    fn min_score(self) -> u8 {
        match self {
            PasswordRules::Player => 2,
            PasswordRules::Staff => 3,
        }
    }

    /// Refuses a password these rules do not take: one of the wrong length, of white
    /// space only, or one zxcvbn guesses too soon. `known` are the words the account
    /// is known by (its name, its pseudonym), which count as guessed.
    pub fn check(self, password: &str, known: &[&str]) -> Result<(), StoreError> {
        let (min, chars) = (self.min_chars(), password.chars().count());
        if !(min..=MAX_PASSWORD_CHARS).contains(&chars) {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::PasswordLength, format!("a password needs {min} to {MAX_PASSWORD_CHARS} characters"))
                    .arg("min", min)
                    .arg("max", MAX_PASSWORD_CHARS),
            ));
        }
        if password.trim().is_empty() || score(password, known) < self.min_score() {
            return Err(StoreError::Refused(Refusal::new(
                RefusalKey::PasswordWeak,
                "this password is too easy to guess: try a few unrelated words",
            )));
        }
        Ok(())
    }
}

/// zxcvbn's score of `password` (0 to 4), `known` counted as guessed words.
fn score(password: &str, known: &[&str]) -> u8 {
    u8::from(zxcvbn::zxcvbn(password, known).score())
}

#[cfg(test)]
mod tests {
    use super::PasswordRules;

    #[test]
    fn common_and_blank_passwords_are_refused_and_staff_need_more() {
        for weak in ["password", "12345678", "        ", "qwertyuiop", "passwordpassword"] {
            assert!(PasswordRules::Player.check(weak, &[]).is_err(), "{weak:?}");
            assert!(PasswordRules::Staff.check(weak, &[]).is_err(), "{weak:?}");
        }
        assert!(PasswordRules::Player.check(" \t ", &[]).is_err(), "too short and blank");
        for strong in ["correct horse battery staple", "a passphrase for the browser test"] {
            assert!(PasswordRules::Player.check(strong, &[]).is_ok(), "{strong:?}");
            assert!(PasswordRules::Staff.check(strong, &[]).is_ok(), "{strong:?}");
        }
        // long enough for a player, too short for staff
        assert!(PasswordRules::Player.check("ravel-oak-9", &[]).is_ok());
        assert!(PasswordRules::Staff.check("ravel-oak-9", &[]).is_err());
        // an account's own name is a guessed word
        assert!(PasswordRules::Player.check("ada.lovelace", &["ada.lovelace"]).is_err());
    }
}
