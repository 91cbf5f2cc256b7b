//! Admins import small files from the admin page: `POST /api/admin/import`, a plain
//! multipart form (file and kind), so it works without JavaScript. The import is all
//! or nothing, as on the command line; the browser is sent back to `/admin` with what
//! was imported in `?notice=` (a [`Notice`]'s code: the page shows only notices the
//! server writes), and a refused file gets 422 with its first problems and their line
//! numbers. Large corpora go through `gapwise import-corpus`.

use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::Router;
use axum_extra::extract::cookie::CookieJar;
use gapwise_app::notice::{Imported, Notice};
use gapwise_app::AppError;
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::{Role, Store, StoreError};

use crate::research::staff;

/// Largest file the admin page takes.
pub const UPLOAD_LIMIT_BYTES: usize = 8 * 1024 * 1024;
/// Problems shown on the page (the CLI shows them all).
const SHOWN_PROBLEMS: usize = 5;

pub fn routes(store: Store) -> Router {
    Router::new().route("/api/admin/import", post(import)).layer(DefaultBodyLimit::max(UPLOAD_LIMIT_BYTES)).with_state(store)
}

/// The file and what it holds, from the form.
struct Upload {
    name: String,
    text: String,
    kind: ImportKind,
}

async fn read_form(mut form: Multipart) -> Result<Upload, AppError> {
    let bad = |m: &str| AppError::BadRequest(m.to_owned());
    let (mut file, mut kind) = (None, None);
    while let Some(field) = form.next_field().await.map_err(|e| AppError::BadRequest(format!("malformed upload: {e}")))? {
        match field.name() {
            Some("file") => {
                let name = field.file_name().unwrap_or_default().to_owned();
                let bytes = field.bytes().await.map_err(|e| AppError::BadRequest(format!("the file did not arrive whole: {e}")))?;
                let text = String::from_utf8(bytes.to_vec()).map_err(|_| bad("the file is not UTF-8 text"))?;
                file = Some((name, text));
            }
            Some("kind") => {
                kind = Some(match field.text().await.map_err(|_| bad("malformed kind"))?.as_str() {
                    "sentences" => ImportKind::Sentences,
                    "pairs" => ImportKind::Pairs,
                    _ => return Err(bad("kind must be sentences or pairs")),
                });
            }
            _ => {}
        }
    }
    let (name, text) = file.ok_or_else(|| bad("no file"))?;
    Ok(Upload { name, text, kind: kind.ok_or_else(|| bad("no kind"))? })
}

async fn import(State(store): State<Store>, headers: HeaderMap, jar: CookieJar, form: Multipart) -> Result<Response, AppError> {
    let admin = staff(&store, &headers, &jar, Role::Admin).await?;
    let upload = read_form(form).await?;
    let format = ImportFormat::from_path(std::path::Path::new(&upload.name))
        .ok_or_else(|| AppError::BadRequest(format!("{}: use a .tsv or .jsonl file", upload.name)))?;
    let (what, rows) = match upload.kind {
        ImportKind::Sentences => ("sentences", Imported::Sentences),
        ImportKind::Pairs => ("pairs", Imported::Pairs),
    };
    let notice = match store.material().import(upload.kind, format, &upload.text).await {
        Ok(report) => {
            let detail = format!("{}: {} {what} imported, {} already present", upload.name, report.inserted, report.duplicates);
            store.staff().audit(&admin.name, &format!("import {what}"), &detail).await?;
            Notice::Imported { rows, inserted: report.inserted, duplicates: report.duplicates }
        }
        Err(StoreError::Import(problems)) => {
            let shown: Vec<String> = problems.iter().take(SHOWN_PROBLEMS).map(ToString::to_string).collect();
            let more = problems.len().saturating_sub(SHOWN_PROBLEMS);
            return Err(AppError::BadRequest(format!(
                "{} was not imported: {}{}",
                upload.name,
                shown.join("; "),
                if more > 0 { format!("; and {more} more") } else { String::new() }
            )));
        }
        Err(other) => return Err(other.into()),
    };
    let query = serde_urlencoded::to_string([("notice", notice.code())]).map_err(|_| AppError::Internal)?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Redirect::to(&format!("/admin?{query}"))).into_response())
}
