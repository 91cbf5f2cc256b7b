//! Secrets and random identifiers: session and API tokens (random, stored as their
//! SHA-256), argon2id password hashes, and random codes for pseudonyms, export
//! identifiers and completion codes.

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::Engine;
use rand::seq::SliceRandom;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::error::StoreError;
use crate::password_rules::PasswordRules;

/// Crockford's base-32 digits, lowercase: no letter that reads as another one or as
/// a digit (no i, l, o or u), one case, so that a code read aloud or copied by hand
/// comes out right.
const CODE_DIGITS: &[u8] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// `len` random [`CODE_DIGITS`] (50 bits for 10).
pub(crate) fn random_code(len: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..len).filter_map(|_| CODE_DIGITS.choose(&mut rng).copied().map(char::from)).collect()
}

/// `len` [`CODE_DIGITS`] from the HMAC-SHA256 of `message` under `key` (5 bits a
/// digit, at most 51 digits): the same code for the same message, and no way back to
/// the message without the key.
pub(crate) fn keyed_code(key: &[u8], message: &str, len: usize) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(message.as_bytes());
    let digest = mac.finalize().into_bytes();
    let bits = digest.iter().flat_map(|byte| (0..8).rev().map(move |i| (byte >> i) & 1));
    let mut code = String::with_capacity(len);
    let mut digit = 0usize;
    for (i, bit) in bits.enumerate().take(5 * len) {
        digit = digit << 1 | usize::from(bit);
        if i % 5 == 4 {
            code.extend(CODE_DIGITS.get(digit).copied().map(char::from));
            digit = 0;
        }
    }
    code
}

/// What is stored of a token: its SHA-256, hex.
pub(crate) fn hash_token(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

/// 32 random bytes, URL-safe base64.
pub(crate) fn new_token() -> String {
    let bytes: [u8; 32] = rand::thread_rng().gen();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// An argon2id hash (the crate's defaults: m = 19 MiB, t = 2, p = 1) of a password
/// that `rules` accept (see [`PasswordRules::check`]; `known` are the words the
/// account is known by), computed off the async threads.
pub(crate) async fn hash_password(password: &str, rules: PasswordRules, known: &[&str]) -> Result<String, StoreError> {
    rules.check(password, known)?;
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string())
    })
    .await
    .map_err(|e| StoreError::Internal(format!("hashing failed: {e}")))?
    .map_err(|e| StoreError::Internal(format!("hashing failed: {e}")))
}

/// Whether `password` matches the stored hash (false for a malformed hash). Without
/// a stored hash (an unknown name) a decoy hash is checked all the same, so that an
/// unknown name takes as long to refuse as a wrong password and timing does not tell
/// which names exist.
pub(crate) async fn verify_password(stored: Option<String>, password: &str) -> bool {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| decoy_hash().to_owned());
        let matches =
            PasswordHash::new(&stored).map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok()).unwrap_or(false);
        known && matches
    })
    .await
    .unwrap_or(false)
}

/// An argon2id hash of a random password, made once, with the parameters of real ones.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(new_token().as_bytes(), &salt).map(|h| h.to_string()).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_keyed_code_is_the_same_for_the_same_key_and_message_only() {
        let code = super::keyed_code(b"key", "player-1", 12);
        assert_eq!(code.len(), 12);
        assert!(code.bytes().all(|b| super::CODE_DIGITS.contains(&b)), "{code}");
        assert_eq!(code, super::keyed_code(b"key", "player-1", 12));
        assert_ne!(code, super::keyed_code(b"key", "player-2", 12));
        assert_ne!(code, super::keyed_code(b"other key", "player-1", 12));
    }

    use super::*;

    #[test]
    fn random_codes_have_no_look_alikes() {
        let p = random_code(10);
        assert_eq!(p.len(), 10);
        assert!(p.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()), "{p}");
        let many: String = (0..200).map(|_| random_code(10)).collect();
        assert!(!many.contains(['i', 'l', 'o', 'u']), "look-alikes");
        assert_ne!(random_code(10), random_code(10));
    }

    #[test]
    fn tokens_are_hashed() {
        let t = new_token();
        assert_eq!(hash_token(&t).len(), 64);
        assert_ne!(hash_token(&t), t);
        assert_eq!(hash_token(&t), hash_token(&t));
        // the stored form is lower-case hex SHA-256 (FIPS 180-2's example for "abc"):
        // sessions stored before stay valid
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[tokio::test]
    async fn passwords_are_argon2id_and_checked() {
        let hash = hash_password("correct horse", PasswordRules::Player, &[]).await.expect("hash");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password(Some(hash.clone()), "correct horse").await);
        assert!(!verify_password(Some(hash), "wrong horse").await);
        assert!(decoy_hash().starts_with("$argon2id$"), "the decoy costs what a real check costs");
        assert!(!verify_password(None, "correct horse").await, "no stored hash never matches");
        assert!(hash_password("short", PasswordRules::Player, &[]).await.is_err());
    }
}
