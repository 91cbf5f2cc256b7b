//! A page's address as the app rewrites it: its query without some of its keys, and
//! the one check of a path this site sends a browser to.

/// The query keys in which Leptos sends a refused plain form post's error back to
/// the page it came from.
pub const POSTED_ERROR: [&str; 2] = ["__path", "__err"];

/// `query` (`a=1&b=2`, without the `?`) without the keys in `dropped`, ready for
/// more pairs; `finish()` gives the query, empty when nothing is left.
pub fn query_without(query: &str, dropped: &[&str]) -> form_urlencoded::Serializer<'static, String> {
    let kept = form_urlencoded::parse(query.as_bytes()).filter(|(key, _)| !dropped.contains(&key.as_ref()));
    let mut out = form_urlencoded::Serializer::new(String::new());
    out.extend_pairs(kept);
    out
}

/// `raw` when it is a path on this site that is safe to send a browser to, else
/// `None`: the one check of every redirect to a path a request gave (the language
/// switcher's `back`, a form post's `Referer`). A path starts with one `/`, and
/// neither it nor its percent-decoded form has a second `/` or a `\` right after
/// it (`//host` and `/\host` name another site), a backslash anywhere (browsers
/// read it as `/`), a control character (browsers drop tabs and newlines, so that
/// `/\t/host` becomes `//host`; others break the `Location` header) or anything but
/// visible ASCII as sent (a browser percent-encodes the rest). A scheme (`https:`)
/// cannot start a path that starts with `/`.
pub fn local_path(raw: &str) -> Option<&str> {
    let sent_plainly = raw.bytes().all(|b| b.is_ascii_graphic());
    (sent_plainly && is_local(raw) && is_local(&percent_encoding::percent_decode_str(raw).decode_utf8_lossy())).then_some(raw)
}

/// Whether `path` starts with one `/` and holds no backslash or control character.
fn is_local(path: &str) -> bool {
    let mut chars = path.chars();
    chars.next() == Some('/') && !matches!(chars.next(), Some('/' | '\\')) && !path.contains('\\') && !path.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn only_paths_on_this_site_are_redirected_to() {
        for good in ["/", "/play?k=5&lang=fr", "/my-data", "/admin?language=en&page=2", "/a%20b", "/caf%C3%A9"] {
            assert_eq!(local_path(good), Some(good), "{good}");
        }
        for bad in [
            "",
            "play",
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/%09/evil.example",
            "/%2F/evil.example",
            "/%2f%2fevil.example",
            "/%5Cevil.example",
            "/x\\y",
            "/x%5Cy",
            "/x%0Ay",
            "/x%00y",
            "/x\u{7f}",
            "/ evil",
            "/caf\u{e9}",
            "https://evil.example/",
            "javascript:alert(1)",
            "/\u{3000}x\ny",
        ] {
            assert_eq!(local_path(bad), None, "{bad:?}");
        }
    }
}
