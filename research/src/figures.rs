//! The report's figures, drawn with plotters as SVG documents.

use crate::stats::heatmap::{even_edges, heatmap};
use crate::stats::rates::success_rate;
use gapwise_store::StoreError;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::answers::{languages, Answer};
use crate::table::io;

/// Figure 1: success rate by k for each language, before (dashed) and after filtering.
pub(crate) fn success_by_k(answers: &[Answer], kept: &[bool]) -> Result<String, StoreError> {
    let mut svg = String::new();
    draw_success_by_k(answers, kept, SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area())?;
    Ok(svg)
}

fn draw_success_by_k(answers: &[Answer], kept: &[bool], root: DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), StoreError> {
    root.fill(&WHITE).map_err(io)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Success rate by number of contexts", ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.5f64..5.5f64, 0f64..1f64)
        .map_err(io)?;
    chart.configure_mesh().x_desc("k (sentences shown)").y_desc("success rate").draw().map_err(io)?;
    for (n, language) in languages(answers).into_iter().enumerate() {
        let color = Palette99::pick(n).to_rgba();
        for filtered in [false, true] {
            let points: Vec<(f64, f64)> = [1, 3, 5]
                .into_iter()
                .filter_map(|k| {
                    let c: Vec<bool> = answers
                        .iter()
                        .zip(kept)
                        .filter(|(a, &keep)| &a.language == language && a.k == k && (keep || !filtered))
                        .map(|(a, _)| a.correct)
                        .collect();
                    (!c.is_empty()).then(|| (k as f64, success_rate(&c)))
                })
                .collect();
            let label = format!("{language}{}", if filtered { ", filtered" } else { "" });
            let style = if filtered { color.stroke_width(2) } else { color.mix(0.5).stroke_width(1) };
            chart
                .draw_series(LineSeries::new(points.clone(), style))
                .map_err(io)?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(io)?;
        }
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(io)?;
    root.present().map_err(io)
}

/// One language's points of Fig. 2: mean Likert rating (x) and model score (y).
pub(crate) struct LikertPanel {
    pub language: String,
    pub ratings: Vec<f64>,
    pub scores: Vec<f64>,
}

/// Mean ratings of two raters fall on halves: one bin per half step from 1 to 5.
const RATING_BINS: usize = 9;
const SCORE_BINS: usize = 10;

/// Figure 2: for each language, how often each (mean Likert rating, model score)
/// cell occurs; darker is more.
pub(crate) fn likert_heatmap(model: &str, panels: &[LikertPanel]) -> Result<String, StoreError> {
    let mut svg = String::new();
    let width = 360 * u32::try_from(panels.len().max(1)).unwrap_or(1);
    {
        let root = SVGBackend::with_string(&mut svg, (width, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(io)?;
        let root = root.titled(&format!("Likert ratings against {model} scores"), ("sans-serif", 18)).map_err(io)?;
        for (panel, area) in panels.iter().zip(root.split_evenly((1, panels.len().max(1)))) {
            draw_heatmap_panel(panel, &area)?;
        }
        root.present().map_err(io)?;
    }
    Ok(svg)
}

fn draw_heatmap_panel(panel: &LikertPanel, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), StoreError> {
    let lo = panel.scores.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = panel.scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo < hi { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let x_edges = even_edges(0.75, 5.25, RATING_BINS);
    let y_edges = even_edges(lo, hi, SCORE_BINS);
    let counts = heatmap(&panel.ratings, &panel.scores, &x_edges, &y_edges);
    let most = counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.language, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.75f64..5.25f64, lo..hi)
        .map_err(io)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("mean rating (1 = surely target, 5 = surely distractor)")
        .y_desc("Eq. 2 score")
        .draw()
        .map_err(io)?;
    let cells = counts.iter().enumerate().flat_map(|(i, row)| {
        let (x_edges, y_edges) = (&x_edges, &y_edges);
        row.iter().enumerate().map(move |(j, &n)| {
            let shade = BLUE.mix(n as f64 / most);
            Rectangle::new([(x_edges[i], y_edges[j]), (x_edges[i + 1], y_edges[j + 1])], shade.filled())
        })
    });
    chart.draw_series(cells).map_err(io)?;
    Ok(())
}

/// An item drawn by its curves: its label, and (discrimination, difficulty) under
/// the 1PL and the 2PL.
pub(crate) type CurvedItem = (String, (f64, f64), (f64, f64));

/// One language's abilities for the IRT figure: the players' (fitted), the models'
/// (by name), and the curves of the item chosen (the most answered by default).
pub(crate) struct AbilityPanel {
    pub language: String,
    pub players: Vec<f64>,
    pub models: Vec<(String, f64)>,
    pub item: Option<CurvedItem>,
}

/// The IRT figure of one language: above, the histogram of the players' abilities
/// with each model's marked; below, the item characteristic curves of the item
/// chosen under the 1PL and the 2PL.
pub(crate) fn abilities(panel: &AbilityPanel) -> Result<String, StoreError> {
    let mut svg = String::new();
    draw_abilities(panel, SVGBackend::with_string(&mut svg, (720, 640)).into_drawing_area())?;
    Ok(svg)
}

fn draw_abilities(panel: &AbilityPanel, root: DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), StoreError> {
    root.fill(&WHITE).map_err(io)?;
    let (top, bottom) = root.split_vertically(380);
    draw_ability_histogram(panel, &top)?;
    draw_item_curves(panel, &bottom)?;
    root.present().map_err(io)
}

/// Abilities are binned in half units from -6 to 6.
const ABILITY_BINS: usize = 24;

fn draw_ability_histogram(panel: &AbilityPanel, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), StoreError> {
    let mut counts = [0u32; ABILITY_BINS];
    for &t in &panel.players {
        let bin = (((t + 6.0) * 2.0).floor().max(0.0) as usize).min(ABILITY_BINS - 1);
        counts[bin] += 1;
    }
    let highest = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Abilities ({}): players and models", panel.language), ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-6f64..6f64, 0f64..f64::from(highest) * 1.15)
        .map_err(io)?;
    chart.configure_mesh().x_desc("ability (1PL, players' mean 0, sd 1)").y_desc("players").draw().map_err(io)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &n)| {
            let x = -6.0 + i as f64 / 2.0;
            Rectangle::new([(x, 0.0), (x + 0.5, f64::from(n))], BLUE.mix(0.4).filled())
        }))
        .map_err(io)?;
    for (n, (model, theta)) in panel.models.iter().enumerate().filter(|(_, (_, t))| t.is_finite()) {
        let color = Palette99::pick(n + 1).to_rgba();
        let top = f64::from(highest) * 1.1;
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(*theta, 0.0), (*theta, top)], color.stroke_width(2))))
            .map_err(io)?
            .label(model.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    if !panel.models.is_empty() {
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(io)?;
    }
    Ok(())
}

fn draw_item_curves(panel: &AbilityPanel, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), StoreError> {
    let Some((label, one, two)) = &panel.item else { return Ok(()) };
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Item characteristic curves: {label}"), ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-6f64..6f64, 0f64..1f64)
        .map_err(io)?;
    chart.configure_mesh().x_desc("ability").y_desc("P(right)").draw().map_err(io)?;
    for (n, (name, (a, b))) in [("1PL", *one), ("2PL", *two)].into_iter().enumerate() {
        let color = Palette99::pick(n).to_rgba();
        let curve = (0..=120).map(|s| {
            let t = -6.0 + f64::from(s) / 10.0;
            (t, 1.0 / (1.0 + (-a * (t - b)).exp()))
        });
        chart
            .draw_series(LineSeries::new(curve, color.stroke_width(2)))
            .map_err(io)?
            .label(format!("{name}: a = {a:.2}, b = {b:.2}"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(io)?;
    Ok(())
}
