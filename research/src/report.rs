//! `gapwise report`: the analyses of 004_fd0640cd187f2eac.txt (Sections 3-6) on the
//! live database, as tables (Markdown and CSV) and figures (SVG) in one folder, with
//! `README.md` as its index. The statistics are [`gapwise_stats`]; this module gathers
//! the answers (through the anonymised export, so a report never sees more than an
//! export does) and puts each mode's tables together.
//!
//! Decisions: the time of an answer is the browser's when it sent one, else the
//! server's; the log-time filter runs per language; Eq. 3 normalises by words for en
//! and es and by sentences for fr, it and ru, as the paper does; every rate and
//! correlation has a 95 % percentile bootstrap interval (seeded, so reruns agree).
//! Table 8 and Fig. 2 use the Likert ratings of Section 6 (see [`rate`]). The
//! word-definition game's tables (001_bf5d15b61b58df06.txt) follow (see [`define`]),
//! then the next-word game's (002_07d3f5412720a88c.txt, see [`guess`]), the
//! invented-word game's (003_e0d4aede4cc7e323.txt, see [`new_words`]) and the cloze
//! game's (see [`cloze`]).
//!
//! The same [`Report`] feeds the `report` command (files) and the researchers' page.

use std::collections::BTreeSet;
use std::path::Path;

use crate::ResearchError;
use gapwise_model::{AnswerFilter, Mode, Report, ReportFigure, ReportOptions};
use gapwise_store::Store;

use crate::answers::Answer;
use crate::table::{io, markdown, write_csv, RESAMPLES};
use crate::{cloze, define, figures, guess, irt, new_words, play, rate, trials};

/// The paper's analyses of the answers `filter` selects, with the scores of
/// `models`, made as `options` say.
pub async fn build_report(
    store: &Store,
    models: &[String],
    filter: &AnswerFilter,
    options: &ReportOptions,
) -> Result<Report, ResearchError> {
    check_options(store, options).await?;
    let drop_sources = &options.drop_sources;
    let mut answers: Vec<Answer> = Vec::new();
    store
        .research()
        .export_answers(models, filter, |row| {
            answers.push(row.into());
            Ok::<(), ResearchError>(())
        })
        .await?;
    let kept = play::filtered(&answers, drop_sources);
    // what an empty figure says
    let empty = if filter == &AnswerFilter::default() { "no answers yet" } else { "no answer matches the filter" };
    let (mut tables, mut figures) = (Vec::new(), Vec::new());
    for mode in Mode::ALL {
        match mode {
            Mode::Play => {
                tables.extend([
                    play::models(&crate::export::models_info(store, models).await?),
                    play::success_rates(&answers, &kept),
                    play::indistinguishable_pairs(&answers),
                    play::mcc_table(&answers, models),
                    play::time_effects(&answers),
                    play::spearman_table(&answers, models),
                    play::agreement(&answers),
                    trials::response_times(&answers),
                ]);
                let (irt_tables, irt_figures) = irt::analyses(&answers, models, options.curve_item, empty)?;
                tables.extend(irt_tables);
                figures.push(ReportFigure {
                    file: "fig1_success_by_k".into(),
                    title: "Figure 1: success rate by number of contexts".into(),
                    svg: figures::success_by_k(&answers, &kept, empty)?,
                });
                figures.extend(irt_figures);
            }
            Mode::Rate => {
                let (table8, figure2) = rate::analyses(store, &answers, models, filter).await?;
                tables.push(table8);
                tables.push(rate::agreement(store, filter).await?);
                figures.extend(figure2);
            }
            Mode::Define => tables.extend(define::tables(store).await?),
            Mode::Guess => tables.extend(guess::tables(store).await?),
            Mode::NewWords => tables.extend(new_words::tables(store).await?),
            Mode::Cloze => tables.extend(cloze::tables(store).await?),
        }
    }
    // the other modes' answers, fitted together (see `ModeResponse`)
    tables.extend(irt::mode_tables(&store.research().mode_responses().await?));
    let summary = format!(
        "{} answers, {} annotators, models: {}. Filtered = log time within one standard deviation \
         of its language's mean{}. Intervals: 95 % percentile bootstrap, {RESAMPLES} resamples.",
        answers.len(),
        answers.iter().map(|a| &a.annotator).collect::<BTreeSet<_>>().len(),
        if models.is_empty() { "none".to_owned() } else { models.join(", ") },
        if drop_sources.is_empty() { String::new() } else { format!(", contexts from {} dropped", drop_sources.join(", ")) },
    );
    Ok(Report { summary, tables, figures })
}

/// Refuses options that name nothing in the database (a source no sentence comes
/// from, an item nobody answered) rather than making a report that silently
/// ignores them.
async fn check_options(store: &Store, options: &ReportOptions) -> Result<(), ResearchError> {
    if !options.drop_sources.is_empty() {
        let known = store.material().sentence_sources().await?;
        if let Some(unknown) = options.drop_sources.iter().find(|s| !known.contains(&s.trim().to_lowercase())) {
            return Err(ResearchError::Invalid(format!(
                "no sentence comes from the source {unknown:?} (the sources: {})",
                known.join(", ")
            )));
        }
    }
    if let Some(item) = options.curve_item {
        if store.material().answers_to_item(item).await? == 0 {
            return Err(ResearchError::NotFound(format!("item {item} has no answers (the curve item is an item id of the export)")));
        }
    }
    Ok(())
}

/// Writes the report into `dir` (see [`build_report`]): each table as Markdown and
/// CSV, each figure as SVG, and `README.md` with all of them. Returns the files written.
pub async fn write_report(
    store: &Store,
    models: &[String],
    filter: &AnswerFilter,
    options: &ReportOptions,
    dir: &Path,
) -> Result<Vec<String>, ResearchError> {
    if dir.exists() && !dir.is_dir() {
        return Err(ResearchError::Invalid(format!("{}: a file; --out names a folder for the report's files", dir.display())));
    }
    let report = build_report(store, models, filter, options).await?;
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut files = Vec::new();
    let mut index = format!("# Gapwise report\n\n{}\n\n", report.summary);
    for table in &report.tables {
        write_csv(table, dir)?;
        let md = markdown(table);
        std::fs::write(dir.join(format!("{}.md", table.file)), &md).map_err(io)?;
        index.push_str(&md);
        index.push_str(&format!("\nFiles: `{0}.md`, `{0}.csv`\n\n", table.file));
        files.extend([format!("{}.md", table.file), format!("{}.csv", table.file)]);
    }
    for figure in &report.figures {
        let file = format!("{}.svg", figure.file);
        std::fs::write(dir.join(&file), &figure.svg).map_err(io)?;
        index.push_str(&format!("## {}\n\n![{}]({file})\n\n", figure.title, figure.title));
        files.push(file);
    }
    std::fs::write(dir.join("README.md"), index).map_err(io)?;
    files.push("README.md".into());
    Ok(files)
}
