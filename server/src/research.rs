//! The researchers' HTTP API: the anonymised export and its dataset card, for staff
//! API tokens (`Authorization: Bearer TOKEN`, made by `gapwise token`).
//!
//! - no credentials, or an unknown token: 401;
//! - a player's session cookie (annotators have no staff rights): 403;
//! - a researcher's or admin's token: the file.

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use axum_extra::extract::cookie::CookieJar;
use gapwise_app::ssr::SESSION_COOKIE;
use gapwise_app::AppError;
use gapwise_store::{Staff, Store};
use serde::Deserialize;
use std::io::Seek;

use crate::export::{dataset_card, write_answers, Format};

/// The API's routes, on their own state.
pub fn routes(store: Store) -> Router {
    Router::new()
        .route("/api/export/card", get(card))
        .route("/api/export/{format}", get(export))
        .with_state(store)
}

/// The staff member a request's bearer token names, or the 401/403 it gets.
async fn staff(store: &Store, headers: &HeaderMap, jar: &CookieJar) -> Result<Staff, AppError> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim);
    if let Some(token) = bearer {
        return store.staff_for_token(token).await?.ok_or_else(|| AppError::Unauthorized("unknown API token".into()));
    }
    if let Some(cookie) = jar.get(SESSION_COOKIE) {
        if store.session(cookie.value()).await?.is_some() {
            return Err(AppError::Forbidden("players cannot export data; researchers use an API token".into()));
        }
    }
    Err(AppError::Unauthorized("an API token is needed: Authorization: Bearer TOKEN".into()))
}

#[derive(Deserialize)]
struct ExportQuery {
    /// Comma-separated model ids; all scored models when absent.
    models: Option<String>,
}

impl ExportQuery {
    async fn models(&self, store: &Store) -> Result<Vec<String>, AppError> {
        let requested = self.models.as_ref().map(|list| {
            list.split(',').map(str::trim).filter(|m| !m.is_empty()).map(str::to_owned).collect()
        });
        Ok(store.models_or_all(requested).await?)
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
    staff(&store, &headers, &jar).await?;
    let format: Format = format.parse().map_err(AppError::NotFound)?;
    let models = query.models(&store).await?;
    let internal = |e: std::io::Error| {
        tracing::error!("export file: {e}");
        AppError::Internal
    };
    let mut file = tempfile::tempfile().map_err(internal)?;
    write_answers(&store, format, &models, std::io::BufWriter::new(&mut file)).await?;
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
    staff(&store, &headers, &jar).await?;
    let models = query.models(&store).await?;
    let rows: i64 = store.count_rows("answers").await?;
    let card = dataset_card(Format::Csv, &models, u64::try_from(rows).unwrap_or(0));
    Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], card).into_response())
}
