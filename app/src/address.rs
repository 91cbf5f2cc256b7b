//! A page's address as the app rewrites it: its query without some of its keys.

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
