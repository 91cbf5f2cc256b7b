//! The researchers' HTTP API, the anonymised export and its dataset card, and the
//! status of the research pages. Staff prove who they are with an API token
//! (`Authorization: Bearer TOKEN`, made by `gapwise token`) or the staff session
//! cookie of the sign-in page:
//!
//! - no credentials, or an unknown token: 401;
//! - only a player's session cookie (annotators have no staff rights): 403;
//! - a researcher or admin: the file, or the page.

use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use axum_extra::extract::cookie::CookieJar;
use gapwise_app::ssr::staff_of;
use gapwise_app::AppError;
use gapwise_model::AnswerFilter;
use gapwise_store::{Role, Staff, Store};
use serde::Deserialize;
use std::io::Seek;

use gapwise_research::export::{dataset_card, models_info, write_answers, Format};

/// The API's routes, on their own state.
pub fn routes(store: Store) -> Router {
    Router::new().route("/api/export/card", get(card)).route("/api/export/{format}", get(export)).with_state(store)
}

/// The staff member a request's bearer token or staff cookie names, if their role may
/// do what `needed` may, or the 401/403 it gets.
pub(crate) async fn staff(store: &Store, headers: &HeaderMap, jar: &CookieJar, needed: Role) -> Result<Staff, AppError> {
    let bearer = headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok()).and_then(|h| h.strip_prefix("Bearer ")).map(str::trim);
    staff_of(store, bearer, jar, needed).await
}

/// Gives the staff pages the status of the caller's rights: the page still renders
/// (it explains and links to the sign-in), but anyone not signed in gets 401, a
/// player 403, and a researcher 403 on the admin page.
pub async fn staff_page_status(State(store): State<Store>, jar: CookieJar, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let admin_page = path == "/admin" || path.starts_with("/admin/");
    if !(admin_page || path == "/research" || path.starts_with("/research/")) {
        return next.run(req).await;
    }
    let needed = if admin_page { Role::Admin } else { Role::Researcher };
    let verdict = staff(&store, req.headers(), &jar, needed).await;
    let refusal = verdict.err().map(|e| e.into_response().status());
    let mut response = next.run(req).await;
    if let Some(status) = refusal {
        *response.status_mut() = status;
    }
    response
}

/// The query of the export URLs: the models, and the answer filter of the research
/// page (empty values mean "all").
#[derive(Deserialize)]
struct ExportQuery {
    /// Comma-separated model ids; all scored models when absent.
    models: Option<String>,
    language: Option<String>,
    k: Option<String>,
    strategy: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

impl ExportQuery {
    fn filter(&self) -> Result<AnswerFilter, AppError> {
        let k = match self.k.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => Some(raw.parse().map_err(AppError::BadRequest)?),
        };
        Ok(AnswerFilter {
            language: self.language.clone(),
            k,
            strategy: self.strategy.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
        })
    }

    async fn models(&self, store: &Store) -> Result<Vec<String>, AppError> {
        let requested =
            self.models.as_ref().map(|list| list.split(',').map(str::trim).filter(|m| !m.is_empty()).map(str::to_owned).collect());
        Ok(store.research().models_or_all(requested).await?)
    }
}

/// `GET /api/export/{csv|jsonl|parquet}?models=a,b`: every answer, written to a
/// temporary file first (constant memory, and Parquet needs its footer last), then
/// streamed back.
async fn export(
    State(store): State<Store>,
    Path(format): Path<String>,
    Query(query): Query<ExportQuery>,
    headers: HeaderMap,
    jar: CookieJar,
) -> Result<Response, AppError> {
    staff(&store, &headers, &jar, Role::Researcher).await?;
    let format: Format = format.parse().map_err(AppError::NotFound)?;
    let models = query.models(&store).await?;
    let filter = query.filter()?;
    let internal = |e: std::io::Error| {
        tracing::error!("export file: {e}");
        AppError::Internal
    };
    let mut file = tempfile::tempfile().map_err(internal)?;
    write_answers(&store, format, &models, &filter, std::io::BufWriter::new(&mut file)).await?;
    file.rewind().map_err(internal)?;
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file)));
    let disposition = format!("attachment; filename=\"gapwise-answers.{}\"", format.extension());
    Ok(([(header::CONTENT_TYPE, format.content_type().to_owned()), (header::CONTENT_DISPOSITION, disposition)], body).into_response())
}

/// `GET /api/export/card?models=a,b`: the dataset card (Markdown) that goes with an export.
async fn card(
    State(store): State<Store>,
    Query(query): Query<ExportQuery>,
    headers: HeaderMap,
    jar: CookieJar,
) -> Result<Response, AppError> {
    staff(&store, &headers, &jar, Role::Researcher).await?;
    let models = query.models(&store).await?;
    let rows: i64 = store.count_rows("answers").await?;
    let card = dataset_card(Format::Csv, &models_info(&store, &models).await?, u64::try_from(rows).unwrap_or(0));
    Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], card).into_response())
}
