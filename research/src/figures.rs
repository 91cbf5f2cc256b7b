//! The report's figures, drawn with plotters as SVG documents. Each has a title
//! that fits its width, axes labelled with their units, a legend or a colour scale,
//! whole-number ticks where the quantity is discrete, and a "no data yet" note in
//! place of an empty chart. The snapshot test ([`snapshots`]) renders every figure
//! to PNG and compares it with the reviewed images in `research/fixtures/figures/`.

use std::ops::Range;

use crate::ResearchError;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{AsRangedCoord, KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::answers::{languages, Answer};
use crate::table::io;
use gapwise_stats::heatmap::{even_edges, heatmap};
use gapwise_stats::rates::success_rate;

#[cfg(test)]
mod snapshots;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// A chart on an [`Area`] of plotters' `'b` SVG backend, over axes `X` and `Y`.
type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// plotters' name for the sans-serif font; resvg maps it to DejaVu Sans in the
/// snapshot test, browsers to theirs.
const FONT: &str = "sans-serif";
/// The width of every figure (Fig. 2 grows with its panels).
const WIDTH: u32 = 720;
/// The column at the right of Fig. 1 and of the IRT figure that holds the legend.
const LEGEND_WIDTH: u32 = 220;
/// Font sizes (plotters' units; the SVG's font size is this / 1.24): a figure's
/// title, a part's title, tick labels, axis descriptions and legend lines.
const TITLE: u32 = 22;
const SUBTITLE: u32 = 19;
const TICKS: u32 = 14;
const AXIS: u32 = 15;
const LEGEND: u32 = 14;
const NOTE: u32 = 13;
/// Frames and notes.
const GREY: RGBAColor = RGBAColor(0, 0, 0, 0.6);
/// The margin around a chart, and the room for its axes' ticks and descriptions.
const MARGIN: u32 = 16;
const X_LABELS: u32 = 44;
const Y_LABELS: u32 = 60;

/// Series colours: Tableau's ten, which all stand out on white.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The `n`th series colour.
fn colour(n: usize) -> RGBAColor {
    COLOURS[n % COLOURS.len()].to_rgba()
}

/// Text of plotters' `size` (of any lifetime, which the charts' styles need).
fn font<'a>(size: u32) -> FontDesc<'a> {
    (FONT, size).into_font()
}

/// The characters of plotters' font `size` that fit `width` pixels: a character of
/// DejaVu Sans, the widest usual sans-serif, takes about 0.6 em on average, and the
/// SVG's font size is `size` / 1.24.
fn chars_in(width: u32, size: u32) -> usize {
    (f64::from(width) / (0.6 / 1.24 * f64::from(size))) as usize
}

/// `text`, cut in the middle with an ellipsis where it is longer than `room`
/// characters (a model's name keeps its organisation and its variant).
fn fit(text: &str, room: usize) -> String {
    let length = text.chars().count();
    if length <= room {
        return text.to_owned();
    }
    let kept = room.saturating_sub(1);
    let head: String = text.chars().take(kept - kept / 2).collect();
    let tail: String = text.chars().skip(length - kept / 2).collect();
    format!("{head}…{tail}")
}

/// Whole-number ticks from 0 to `top`, every 1, 2, 5, 10, 20, 50... so that there
/// are at most 8 steps.
fn integer_ticks(top: u32) -> Vec<f64> {
    let step = (0..10).flat_map(|e| [1, 2, 5].map(|m| m * 10u32.pow(e))).find(|s| top / s <= 8).unwrap_or(1);
    (0..=top / step).map(|n| f64::from(n * step)).collect()
}

/// Ticks at a round step (1, 2 or 5 times a power of ten) within [lo, hi], at most
/// eight, each a round number so that it prints as one ("-2", "0.5", not "-2.0").
fn round_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return vec![lo];
    }
    let power = 10f64.powf((span / 8.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| span / s <= 8.0).unwrap_or(10.0 * power);
    let decimals = (-step.log10().floor()).max(0.0) as i32;
    let round = |x: f64| (x * 10f64.powi(decimals)).round() / 10f64.powi(decimals);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|n| round(n as f64 * step)).collect()
}

/// A continuous axis ticked exactly at `ticks`, each labelled as its shortest
/// decimal ("3", "0.25"): plotters' own `with_key_points` cannot be labelled in 0.3.
struct Ticked {
    axis: RangedCoordf64,
    ticks: Vec<f64>,
}

fn ticked(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
    Ticked { axis: range.into(), ticks }
}

impl Ranged for Ticked {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.axis.map(value, limit)
    }

    /// The ticks, as bold points (grid lines), and no light ones.
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.axis.range()
    }
}

impl ValueFormatter<f64> for Ticked {
    fn format_ext(&self, value: &f64) -> String {
        value.to_string()
    }
}

/// Pixels as plotters' coordinates.
fn px(pixels: u32) -> i32 {
    i32::try_from(pixels).unwrap_or(i32::MAX)
}

/// An SVG document of `size` pixels, drawn by `draw` on white.
fn svg(size: (u32, u32), draw: impl FnOnce(&Area<'_>) -> Result<(), ResearchError>) -> Result<String, ResearchError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(io)?;
        draw(&root)?;
        root.present().map_err(io)?;
    }
    Ok(svg)
}

/// `area` below its title, which is shortened to fit its width.
fn titled<'a>(area: &Area<'a>, title: &str, size: u32) -> Result<Area<'a>, ResearchError> {
    let room = chars_in(area.dim_in_pixel().0.saturating_sub(16), size);
    area.titled(&fit(title, room), (FONT, size)).map_err(io)
}

/// A chart over `x` and `y` filling `area` but for the margin and the axes' room.
fn chart<'a, 'b, X: AsRangedCoord, Y: AsRangedCoord>(
    area: &'a Area<'b>,
    x: X,
    y: Y,
) -> Result<Chart<'a, 'b, X::CoordDescType, Y::CoordDescType>, ResearchError> {
    ChartBuilder::on(area).margin(MARGIN).x_label_area_size(X_LABELS).y_label_area_size(Y_LABELS).build_cartesian_2d(x, y).map_err(io)
}

/// The axes of `chart` in the figures' fonts, described as `x` and `y` say; the
/// caller draws them, after any change of its own.
fn axes<'a, 'b, 'c, X, Y>(chart: &'c mut Chart<'a, 'b, X, Y>, x: &str, y: &str) -> MeshStyle<'a, 'c, X, Y, SVGBackend<'b>>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
{
    let mut mesh = chart.configure_mesh();
    mesh.label_style(font(TICKS)).axis_desc_style(font(AXIS)).x_desc(x).y_desc(y);
    mesh
}

/// A figure with nothing to draw: its title, and "no data yet" with `why`.
pub(crate) fn nothing(title: &str, why: &str) -> Result<String, ResearchError> {
    svg((WIDTH, 420), |root| no_data(&titled(root, title, TITLE)?, why))
}

/// In place of an empty chart: a frame saying "no data yet", and `why`.
fn no_data(area: &Area<'_>, why: &str) -> Result<(), ResearchError> {
    let (w, h) = area.dim_in_pixel();
    let (x, y) = (px(w / 2), px(h / 2));
    area.draw(&Rectangle::new([(16, 8), (px(w) - 16, px(h) - 16)], GREY.mix(0.5))).map_err(io)?;
    let centred = |size: u32| TextStyle::from((FONT, size)).color(&GREY).pos(Pos::new(HPos::Center, VPos::Center));
    area.draw(&Text::new("no data yet", (x, y - 14), centred(28))).map_err(io)?;
    area.draw(&Text::new(fit(why, chars_in(w.saturating_sub(48), 16)), (x, y + 18), centred(16))).map_err(io)
}

/// How a legend line shows its series.
#[derive(Clone, Copy)]
enum Mark {
    Line,
    Dashed,
    Bar,
}

/// One entry of a legend: a line, and a note under it (a model's ability).
struct Key {
    label: String,
    note: Option<String>,
    color: RGBAColor,
    mark: Mark,
}

fn key(label: impl Into<String>, color: RGBAColor, mark: Mark) -> Key {
    Key { label: label.into(), note: None, color, mark }
}

/// The dashes of Fig. 1's unfiltered lines, in pixels: dash, then gap.
const DASH: (i32, i32) = (7, 5);

/// The legend column: a framed list of `keys` from the top of `area`.
fn legend(area: &Area<'_>, keys: &[Key]) -> Result<(), ResearchError> {
    const ROW: i32 = 22;
    const NOTE_ROW: i32 = 16;
    const TOP: i32 = 20;
    let width = px(area.dim_in_pixel().0);
    // the text from x = 48, a few pixels short of the frame (at the width less 8)
    let (room, note_room) = (chars_in(LEGEND_WIDTH - 64, LEGEND), chars_in(LEGEND_WIDTH - 64, NOTE));
    let left = Pos::new(HPos::Left, VPos::Center);
    let text = TextStyle::from((FONT, LEGEND)).pos(left);
    let note = TextStyle::from((FONT, NOTE)).color(&GREY).pos(left);
    let mut bottom = TOP;
    for key in keys {
        let y = bottom + ROW / 2;
        bottom += ROW;
        let (from, to) = ((12, y), (40, y));
        let style = key.color.stroke_width(2);
        match key.mark {
            Mark::Line => area.draw(&PathElement::new([from, to], style)),
            Mark::Dashed => area.draw(&DashedPathElement::new([from, to], DASH.0, DASH.1, style)),
            Mark::Bar => area.draw(&Rectangle::new([(12, y - 6), (40, y + 6)], key.color.filled())),
        }
        .map_err(io)?;
        area.draw(&Text::new(fit(&key.label, room), (48, y), text.clone())).map_err(io)?;
        if let Some(line) = &key.note {
            area.draw(&Text::new(fit(line, note_room), (48, bottom + NOTE_ROW / 2 - 4), note.clone())).map_err(io)?;
            bottom += NOTE_ROW;
        }
    }
    area.draw(&Rectangle::new([(4, TOP - 6), (width - 8, bottom + 6)], GREY)).map_err(io)
}

/// `area` split into the plot and the legend column at its right.
fn beside_legend<'a>(area: &Area<'a>) -> (Area<'a>, Area<'a>) {
    area.split_horizontally(area.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH))
}

/// The numbers of contexts (sentences) an item can show.
const KS: [i64; 3] = [1, 3, 5];

/// Figure 1: success rate by k (1, 3 or 5 sentences) for each language, over all
/// answers (dashed) and over those the log-time filter kept (solid).
pub(crate) fn success_by_k(answers: &[Answer], kept: &[bool], empty: &str) -> Result<String, ResearchError> {
    let mut lines = Vec::new();
    for (n, language) in languages(answers).into_iter().enumerate() {
        for (filtered, mark, what) in [(false, Mark::Dashed, "all answers"), (true, Mark::Line, "filtered")] {
            let points = rates_by_k(answers, kept, language, filtered);
            lines.push((key(format!("{language}, {what}"), colour(n), mark), points));
        }
    }
    svg((WIDTH, 420), |root| {
        let area = titled(root, "Success rate by number of contexts", TITLE)?;
        if lines.iter().all(|(_, points)| points.is_empty()) {
            return no_data(&area, empty);
        }
        let (plot, side) = beside_legend(&area);
        draw_success_lines(&plot, &lines)?;
        legend(&side, &lines.into_iter().map(|(key, _)| key).collect::<Vec<_>>())
    })
}

/// (k, success rate) of `language`'s answers at each k that has some; only the
/// answers the filter kept when `filtered`.
fn rates_by_k(answers: &[Answer], kept: &[bool], language: &str, filtered: bool) -> Vec<(f64, f64)> {
    KS.into_iter()
        .filter_map(|k| {
            let correct: Vec<bool> = answers
                .iter()
                .zip(kept)
                .filter(|(a, &keep)| a.language == language && a.k == k && (keep || !filtered))
                .map(|(a, _)| a.correct)
                .collect();
            (!correct.is_empty()).then(|| (k as f64, success_rate(&correct)))
        })
        .collect()
}

fn draw_success_lines(area: &Area<'_>, lines: &[(Key, Vec<(f64, f64)>)]) -> Result<(), ResearchError> {
    let mut chart = chart(area, ticked(0.5..5.5, KS.iter().map(|&k| k as f64).collect()), 0f64..1f64)?;
    axes(&mut chart, "k (sentences shown)", "success rate (share of answers right)").draw().map_err(io)?;
    for (key, points) in lines {
        let style = key.color.stroke_width(2);
        match key.mark {
            Mark::Dashed => chart.draw_series(DashedLineSeries::new(points.clone(), DASH.0, DASH.1, style)),
            _ => chart.draw_series(LineSeries::new(points.clone(), style)),
        }
        .map_err(io)?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, key.color.filled()))).map_err(io)?;
    }
    Ok(())
}

/// One language's points of Fig. 2: mean Likert rating (x) and model score (y).
pub(crate) struct RatePanel {
    pub language: String,
    pub ratings: Vec<f64>,
    pub scores: Vec<f64>,
}

/// Mean ratings of two raters fall on halves: one bin per half step from 1 to 5.
const RATING_BINS: usize = 9;
const SCORE_BINS: usize = 10;
/// The width of one language's panel of Fig. 2, and of its colour scale.
const PANEL_WIDTH: u32 = 420;
const SCALE_WIDTH: u32 = 90;
/// The fullest cell's colour; emptier ones are paler, an empty one is not drawn.
const HEAT: RGBColor = BLUE;

/// Figure 2: for each language, how many items fall in each (mean Likert rating,
/// model score) cell; darker is more, as its colour scale says.
pub(crate) fn likert_heatmap(model: &str, panels: &[RatePanel]) -> Result<String, ResearchError> {
    let width = (PANEL_WIDTH * u32::try_from(panels.len()).unwrap_or(1)).max(WIDTH);
    svg((width, 440), |root| {
        let root = titled(root, &format!("Likert ratings against {model} scores"), TITLE)?;
        if panels.is_empty() {
            return no_data(&root, "no rated item has a score of this model");
        }
        for (panel, area) in panels.iter().zip(root.split_evenly((1, panels.len()))) {
            let area = titled(&area, &panel.language, SUBTITLE)?;
            if panel.ratings.is_empty() {
                no_data(&area, "no rated item")?;
            } else {
                draw_heatmap_panel(panel, &area)?;
            }
        }
        Ok(())
    })
}

/// One language's heatmap, its colour scale at its right.
fn draw_heatmap_panel(panel: &RatePanel, area: &Area<'_>) -> Result<(), ResearchError> {
    let lo = panel.scores.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = panel.scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo < hi { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let x_edges = even_edges(0.75, 5.25, RATING_BINS);
    let y_edges = even_edges(lo, hi, SCORE_BINS);
    let counts = heatmap(&panel.ratings, &panel.scores, &x_edges, &y_edges);
    let most = counts.iter().flatten().copied().max().unwrap_or(0).max(1);
    let most = u32::try_from(most).unwrap_or(u32::MAX);
    let shade = |n: f64| HEAT.mix(n / f64::from(most));
    let (cells_area, scale_area) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(SCALE_WIDTH));
    let mut chart = chart(&cells_area, ticked(0.75..5.25, vec![1.0, 2.0, 3.0, 4.0, 5.0]), ticked(lo..hi, round_ticks(lo, hi)))?;
    axes(&mut chart, "mean rating (1 = target, 5 = distractor)", "Eq. 2 score (log-prob. difference)").disable_mesh().draw().map_err(io)?;
    let cells = counts.iter().enumerate().flat_map(|(i, row)| {
        let (x_edges, y_edges) = (&x_edges, &y_edges);
        row.iter()
            .enumerate()
            .map(move |(j, &n)| Rectangle::new([(x_edges[i], y_edges[j]), (x_edges[i + 1], y_edges[j + 1])], shade(n as f64).filled()))
    });
    chart.draw_series(cells).map_err(io)?;
    draw_colour_scale(&scale_area, most, shade)
}

/// The colour scale of a heatmap whose fullest cell holds `most` items: the shade
/// of each count from 0 to `most`, with whole-number ticks. It shares the top and
/// bottom of the heatmap's chart.
fn draw_colour_scale(area: &Area<'_>, most: u32, shade: impl Fn(f64) -> RGBAColor) -> Result<(), ResearchError> {
    const STEPS: u32 = 64;
    let top = f64::from(most);
    let mut chart = ChartBuilder::on(area)
        .margin_top(MARGIN)
        .margin_bottom(MARGIN)
        .margin_left(8)
        .margin_right(4)
        .x_label_area_size(X_LABELS)
        .right_y_label_area_size(40)
        .build_cartesian_2d(0f64..1f64, ticked(0.0..top, integer_ticks(most)))
        .map_err(io)?;
    axes(&mut chart, "", "items per cell").disable_mesh().disable_x_axis().draw().map_err(io)?;
    let bands = (0..STEPS).map(|s| {
        let (from, to) = (top * f64::from(s) / f64::from(STEPS), top * f64::from(s + 1) / f64::from(STEPS));
        Rectangle::new([(0.0, from), (1.0, to)], shade((from + to) / 2.0).filled())
    });
    chart.draw_series(bands).map_err(io)?;
    chart.draw_series(std::iter::once(Rectangle::new([(0.0, 0.0), (1.0, top)], GREY))).map_err(io)?;
    Ok(())
}

/// An item drawn by its curves: its label, and (discrimination, difficulty) under
/// the 1PL and the 2PL (NaN where a fit could not estimate it).
pub(crate) type CurvedItem = (String, (f64, f64), (f64, f64));

/// One language's abilities for the IRT figure: the players' (fitted), the models'
/// (by name), and the curves of the item chosen (the most answered by default).
pub(crate) struct AbilityPanel {
    pub language: String,
    pub players: Vec<f64>,
    /// Each model's name, EAP ability and its standard error (NaN: none here).
    pub models: Vec<(String, f64, f64)>,
    pub item: Option<CurvedItem>,
}

/// The ability grid spans +-6 logits; the figures show a little more.
const ABILITY_BOUND: f64 = 6.0;
const ABILITY_AXIS: f64 = 6.5;
/// Abilities are binned in half units from -6 to 6.
const ABILITY_BINS: usize = 24;

/// The IRT figure of one language: above, the histogram of the players' abilities
/// with each model's marked; below, the item characteristic curves of the item
/// chosen under the 1PL and the 2PL.
pub(crate) fn abilities(panel: &AbilityPanel) -> Result<String, ResearchError> {
    svg((WIDTH, 640), |root| {
        let (top, bottom) = root.split_vertically(340);
        draw_ability_histogram(panel, &top)?;
        draw_item_curves(panel, &bottom)
    })
}

/// The ability axis: whole logits, a margin past the bounds.
fn ability_axis() -> Ticked {
    ticked(-ABILITY_AXIS..ABILITY_AXIS, (-6..=6).map(f64::from).collect())
}

fn draw_ability_histogram(panel: &AbilityPanel, area: &Area<'_>) -> Result<(), ResearchError> {
    let models: Vec<&(String, f64, f64)> = panel.models.iter().filter(|(_, t, _)| t.is_finite()).collect();
    let title = if models.is_empty() {
        format!("Abilities in {}: players (no model scored these items)", panel.language)
    } else {
        format!("Abilities in {}: players and models", panel.language)
    };
    let area = titled(area, &title, SUBTITLE)?;
    if panel.players.is_empty() && models.is_empty() {
        return no_data(&area, "no player has a fitted ability");
    }
    let (plot, side) = beside_legend(&area);
    let mut counts = [0u32; ABILITY_BINS];
    for &t in &panel.players {
        let bin = (((t + ABILITY_BOUND) * 2.0).floor().max(0.0) as usize).min(ABILITY_BINS - 1);
        counts[bin] += 1;
    }
    let highest = counts.iter().copied().max().unwrap_or(0);
    let top = highest + (highest / 8).max(1);
    let mut chart = chart(&plot, ability_axis(), ticked(0.0..f64::from(top), integer_ticks(top)))?;
    axes(&mut chart, "ability (logits, EAP; N(0, 1) prior)", "players").draw().map_err(io)?;
    let bar = colour(0).mix(0.5);
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &n)| {
            let x = -ABILITY_BOUND + i as f64 / 2.0;
            Rectangle::new([(x, 0.0), (x + 0.5, f64::from(n))], bar.filled())
        }))
        .map_err(io)?;
    let mut keys = vec![key("players", bar, Mark::Bar)];
    for (n, (model, theta, se)) in models.into_iter().enumerate() {
        let color = colour(n + 1);
        let x = theta.clamp(-ABILITY_BOUND, ABILITY_BOUND);
        chart.draw_series(std::iter::once(PathElement::new([(x, 0.0), (x, f64::from(top))], color.stroke_width(3)))).map_err(io)?;
        keys.push(Key { note: Some(format!("ability {theta:.2} ± {se:.2}")), ..key(model, color, Mark::Line) });
    }
    legend(&side, &keys)
}

fn draw_item_curves(panel: &AbilityPanel, area: &Area<'_>) -> Result<(), ResearchError> {
    let Some((label, one, two)) = &panel.item else {
        return no_data(&titled(area, "Item characteristic curves", SUBTITLE)?, "no item estimated yet");
    };
    let (plot, side) = beside_legend(&titled(area, &format!("Item characteristic curves: {label}"), SUBTITLE)?);
    let mut chart = chart(&plot, ability_axis(), ticked(0.0..1.0, (0..=4).map(|q| f64::from(q) / 4.0).collect()))?;
    axes(&mut chart, "ability (logits)", "P(right)").draw().map_err(io)?;
    let mut keys = Vec::new();
    for (n, (name, (a, b))) in [("1PL", *one), ("2PL", *two)].into_iter().enumerate() {
        let color = colour(n);
        if !(a.is_finite() && b.is_finite()) {
            keys.push(key(format!("{name}: not estimated"), color.mix(0.3), Mark::Line));
            continue;
        }
        let curve = (-65..=65).map(|s| {
            let t = f64::from(s) / 10.0;
            (t, 1.0 / (1.0 + (-a * (t - b)).exp()))
        });
        chart.draw_series(LineSeries::new(curve, color.stroke_width(2))).map_err(io)?;
        keys.push(key(format!("{name}: a {a:.2}, b {b:.2}"), color, Mark::Line));
    }
    legend(&side, &keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_whole_and_few() {
        assert_eq!(integer_ticks(0), vec![0.0]);
        assert_eq!(integer_ticks(3), vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(integer_ticks(35), vec![0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0]);
        assert_eq!(integer_ticks(41), vec![0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]);
        assert_eq!(integer_ticks(90), vec![0.0, 20.0, 40.0, 60.0, 80.0]);
    }

    #[test]
    fn long_text_is_cut_in_the_middle() {
        assert_eq!(fit("en", 4), "en");
        assert_eq!(fit("meta-llama/Llama-3.1-8B", 9), "meta…1-8B");
        assert_eq!(fit("abcdef", 5), "ab…ef");
    }
}
