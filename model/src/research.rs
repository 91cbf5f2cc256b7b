//! What researchers select and get: the answers an analysis covers, and the report.

use serde::{Deserialize, Serialize};

use crate::K;

/// Which answers an analysis or export covers; every field left empty means "all".
/// Dates are UTC days, `YYYY-MM-DD`, both ends included.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerFilter {
    pub language: Option<String>,
    pub k: Option<K>,
    pub strategy: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// One table of the research report, as shown on the page and written as CSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportTable {
    /// File name without extension, e.g. `table5_mcc`.
    pub file: String,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One figure of the research report: an SVG document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportFigure {
    pub file: String,
    pub title: String,
    pub svg: String,
}

/// How a report is made, besides the answers it covers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportOptions {
    /// Answers with a context from one of these sources (e.g. `wikipedia`) are
    /// left out of the filtered rates.
    pub drop_sources: Vec<String>,
    /// The item whose characteristic curves the IRT figures draw (its language's
    /// figure); the most answered item of each language when unset or not there.
    pub curve_item: Option<crate::ItemId>,
}

/// The paper's analyses on the answers a filter selects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// One paragraph: how many answers, annotators and models, and the filtering.
    pub summary: String,
    pub tables: Vec<ReportTable>,
    pub figures: Vec<ReportFigure>,
}
