//! The researchers' page: the paper's tables and figures on the live database, with
//! filters (kept in the address, so a view can be shared) and the export downloads
//! for the same selection. Researchers and admins only (the server answers 401 or
//! 403 to anyone else, see `require_staff`).

use base64::Engine;
use gapwise_model::{AnswerFilter, Report, ReportFigure, ReportTable, K, LANGUAGES, STRATEGIES};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap;

use crate::api::research_report;
use crate::components::{ErrorNote, StaffBar};

const FILTER_FIELDS: [&str; 5] = ["language", "k", "strategy", "from", "to"];

/// The filter the address asks for; empty fields mean "all".
fn filter_of(query: &ParamsMap) -> AnswerFilter {
    let field = |name: &str| query.get(name).filter(|v| !v.trim().is_empty());
    AnswerFilter {
        language: field("language"),
        k: field("k").and_then(|k| k.parse().ok()),
        strategy: field("strategy"),
        from: field("from"),
        to: field("to"),
    }
}

/// The filter's fields as a query string (`?language=fr&k=3`), for the downloads.
fn query_string(query: &ParamsMap) -> String {
    FILTER_FIELDS
        .into_iter()
        .filter_map(|name| query.get(name).filter(|v| !v.trim().is_empty()).map(|v| (name, v)))
        .collect::<ParamsMap>()
        .to_query_string()
}

#[component]
pub fn Research() -> impl IntoView {
    let query = use_query_map();
    let report = Resource::new(
        move || (filter_of(&query.read()), query.read().get("item").and_then(|id| id.trim().parse().ok())),
        |(filter, curve_item)| research_report(filter, curve_item),
    );
    view! {
        <Title text="Research"/>
        <div class="wide">
            <h1>"Research"</h1>
            // the staff bar, the filters and the downloads are for staff: someone the
            // page refuses sees only why
            <Transition fallback=|| view! { <p class="loading">"Computing the analyses…"</p> }>
                {move || Suspend::new(async move {
                    match report.await {
                        Ok(report) => view! { <StaffBar/> <Filters query/> <Downloads query/> <ReportView report/> }.into_any(),
                        Err(error) => view! {
                            <ErrorNote error/>
                            <p><a href="/staff">"Staff sign-in"</a></p>
                        }.into_any(),
                    }
                })}
            </Transition>
        </div>
    }
}

/// The filter form: a plain GET form, so it works without JavaScript too.
#[component]
fn Filters(query: Memo<ParamsMap>) -> impl IntoView {
    let current = move |name: &'static str| query.read().get(name).unwrap_or_default();
    let option = move |name: &'static str, value: String, label: String| {
        let selected = current(name) == value;
        view! { <option value=value selected=selected>{label}</option> }
    };
    view! {
        <form method="get" action="/research" class="filters">
            <label>"Language "
                <select name="language">
                    {option("language", String::new(), "all".into())}
                    {LANGUAGES.into_iter().map(|(code, name)| option("language", code.into(), name.into())).collect_view()}
                </select>
            </label>
            <label>"Sentences (k) "
                <select name="k">
                    {option("k", String::new(), "all".into())}
                    {K::ALL.into_iter().map(|k| option("k", k.to_string(), k.to_string())).collect_view()}
                </select>
            </label>
            <label>"Pair strategy "
                <select name="strategy">
                    {option("strategy", String::new(), "all".into())}
                    {STRATEGIES.into_iter().map(|s| option("strategy", s.into(), s.into())).collect_view()}
                </select>
            </label>
            <label>"From " <input type="date" name="from" value=move || current("from")/></label>
            <label>"To " <input type="date" name="to" value=move || current("to")/></label>
            <label>"Item for the IRT curves (id) " <input type="number" name="item" min="1" value=move || current("item")/></label>
            <button type="submit" class="primary">"Apply"</button>
        </form>
    }
}

/// One download link per export format, for the answers the filter selects.
#[component]
fn Downloads(query: Memo<ParamsMap>) -> impl IntoView {
    let link = move |format: &'static str, label: &'static str| {
        view! { <a class="download" href=move || format!("/api/export/{format}{}", query_string(&query.read())) download="">{label}</a> }
    };
    view! {
        <p class="downloads">"Download these answers: "
            {link("csv", "CSV")} {link("jsonl", "JSON Lines")} {link("parquet", "Parquet")} {link("card", "dataset card")}
        </p>
    }
}

#[component]
fn ReportView(report: Report) -> impl IntoView {
    view! {
        <p class="summary">{report.summary}</p>
        {report.tables.into_iter().map(|table| view! { <TableView table/> }).collect_view()}
        {report.figures.into_iter().map(|figure| view! { <FigureView figure/> }).collect_view()}
    }
}

#[component]
fn TableView(table: ReportTable) -> impl IntoView {
    let empty = table.rows.is_empty();
    let heading = format!("{}-title", table.file);
    view! {
        <section class="report-table" id=table.file>
            <h2 id=heading.clone()>{table.title}</h2>
            <Show when=move || !empty fallback=|| view! { <p>"No data yet."</p> }>
                // a region a keyboard can reach and scroll, named by the table's heading
                <div class="scroll" tabindex="0" role="region" aria-labelledby=heading.clone()>
                    <table>
                        <thead><tr>{table.header.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view()}</tr></thead>
                        <tbody>
                            {table.rows.iter().map(|row| view! {
                                <tr>{row.iter().map(|cell| view! { <td>{cell.clone()}</td> }).collect_view()}</tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </Show>
        </section>
    }
}

/// A figure as an image: an SVG inside `<img>` cannot run scripts.
#[component]
fn FigureView(figure: ReportFigure) -> impl IntoView {
    let src = format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(figure.svg));
    view! {
        <figure id=figure.file>
            <img src=src alt=figure.title.clone()/>
            <figcaption>{figure.title}</figcaption>
        </figure>
    }
}
