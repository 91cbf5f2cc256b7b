//! Rows that begin alike, run once up to where they part.
//!
//! A context's two sentences are the same text up to the blank, so their tokens agree
//! up to the first piece that holds the blank's word (compared as tokens, after each
//! sentence was tokenized whole, so a piece that spans the blank's edge is never
//! shared). That beginning is packed once and each sentence's rest is packed after
//! it, seeing it as if it were its own ([`super::decoder::Segment`]): the same keys in
//! the same order, so the same numbers as the sentence run whole. The top-k search of
//! the Shannon game asks for a sentence's beginning followed by up to ten partial
//! words: the same holds there.

use super::decoder::Segment;

/// Rows packed together, their first `shared` tokens run once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    pub shared: usize,
    pub rows: Vec<usize>,
}

/// Consecutive rows that begin with the same two tokens or more, as groups (a row
/// joins the group before it when it shares with the group's first row at least what
/// the group shares, and the group stays within `budget` tokens): the two prompts of
/// a new-words item, a definition's candidate words.
pub(crate) fn consecutive_groups(all: &[&[u32]], budget: usize) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (r, row) in all.iter().enumerate() {
        if let Some(group) = groups.last_mut() {
            let first = all[group[0]];
            let shared = if group.len() > 1 { shared_beginning(&[first, all[group[1]]]) } else { 2 };
            let joined: Vec<usize> = group.iter().copied().chain([r]).collect();
            let unit = Unit::of(all, joined.clone());
            if shared_beginning(&[first, row]) >= shared && unit.len() == 1 && unit[0].tokens(all) <= budget {
                *group = joined;
                continue;
            }
        }
        groups.push(vec![r]);
    }
    groups
}

/// How many tokens `rows` all begin with, leaving each at least one of its own (the
/// last token of a row is where it is read or what it is scored on); none for fewer
/// than two rows.
pub(crate) fn shared_beginning(rows: &[&[u32]]) -> usize {
    let Some((first, others)) = rows.split_first() else { return 0 };
    let agree = others.iter().map(|r| first.iter().zip(*r).take_while(|(a, b)| a == b).count()).min().unwrap_or(0);
    let shortest = rows.iter().map(|r| r.len()).min().unwrap_or(0);
    agree.min(shortest.saturating_sub(1))
}

impl Unit {
    /// One unit of `rows` (indices into `all`) reading their shared beginning once,
    /// or one unit per row when they share nothing or are alone.
    pub(crate) fn of(all: &[&[u32]], rows: Vec<usize>) -> Vec<Unit> {
        match shared_beginning(&rows.iter().map(|&r| all[r]).collect::<Vec<_>>()) {
            0 => rows.into_iter().map(|r| Unit { shared: 0, rows: vec![r] }).collect(),
            shared => vec![Unit { shared, rows }],
        }
    }

    /// The tokens the unit packs.
    pub(crate) fn tokens(&self, all: &[&[u32]]) -> usize {
        self.shared + self.rows.iter().map(|&r| all[r].len() - self.shared).sum::<usize>()
    }
}

/// A batch of units as packed segments, and where each row's tokens lie in it.
pub(crate) struct Packed<'a> {
    pub segments: Vec<Segment<'a>>,
    /// For each row of the batch (in the units' order): its index in `all`, the
    /// packed index of its first token, and of the first token after the beginning.
    places: Vec<(usize, usize, usize, usize)>,
}

impl<'a> Packed<'a> {
    pub(crate) fn new(all: &[&'a [u32]], units: impl IntoIterator<Item = &'a Unit>) -> Packed<'a> {
        let (mut segments, mut places, mut at) = (Vec::new(), Vec::new(), 0);
        for unit in units {
            let beginning = (unit.shared > 0).then(|| {
                segments.push(Segment { ids: &all[unit.rows[0]][..unit.shared], after: None });
                at += unit.shared;
                segments.len() - 1
            });
            let begins_at = at - unit.shared;
            for &r in &unit.rows {
                segments.push(Segment { ids: &all[r][unit.shared..], after: beginning });
                places.push((r, begins_at, at, unit.shared));
                at += all[r].len() - unit.shared;
            }
        }
        Packed { segments, places }
    }

    /// Each row (its index in `all`) with a function from its token positions to
    /// packed indices.
    pub(crate) fn rows(&self) -> impl Iterator<Item = (usize, impl Fn(usize) -> usize)> + '_ {
        self.places
            .iter()
            .map(|&(r, begins_at, rest_at, shared)| (r, move |t: usize| if t < shared { begins_at + t } else { rest_at + t - shared }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_share_what_they_all_begin_with_but_their_last_token() {
        assert_eq!(shared_beginning(&[&[1, 2, 3, 4], &[1, 2, 5]]), 2);
        assert_eq!(shared_beginning(&[&[1, 2, 3], &[1, 2, 3, 4]]), 2, "a row that is the other's beginning keeps one token");
        assert_eq!(shared_beginning(&[&[1, 2, 3], &[1, 2, 3]]), 2);
        assert_eq!(shared_beginning(&[&[1, 2, 3], &[1, 9], &[1, 2, 7]]), 1);
        assert_eq!(shared_beginning(&[&[1, 2], &[3, 2]]), 0);
        assert_eq!(shared_beginning(&[&[1, 2]]), 0);
        assert_eq!(shared_beginning(&[]), 0);
    }

    #[test]
    fn consecutive_rows_that_begin_alike_group() {
        let all: [&[u32]; 6] = [&[1, 2, 3, 4], &[1, 2, 3, 5], &[1, 2, 3, 6, 7], &[1, 8, 9], &[1, 8, 9, 9], &[1, 2, 3, 4]];
        assert_eq!(consecutive_groups(&all, 512), vec![vec![0, 1, 2], vec![3, 4], vec![5]]);
        assert_eq!(consecutive_groups(&all, 6), vec![vec![0, 1], vec![2], vec![3, 4], vec![5]], "within the budget");
        assert_eq!(consecutive_groups(&[&[1, 2], &[1, 3]], 512), vec![vec![0], vec![1]], "one token is not worth a group");
    }

    #[test]
    fn units_pack_a_beginning_once_and_place_every_token() {
        let all: [&[u32]; 3] = [&[1, 2, 3, 4], &[1, 2, 5], &[7, 8]];
        let units = [Unit::of(&all, vec![0, 1]), Unit::of(&all, vec![2])].concat();
        assert_eq!(units, vec![Unit { shared: 2, rows: vec![0, 1] }, Unit { shared: 0, rows: vec![2] }]);
        assert_eq!(units.iter().map(|u| u.tokens(&all)).collect::<Vec<_>>(), vec![5, 2]);
        assert_eq!(Unit::of(&all, vec![0, 2]).len(), 2, "nothing shared: each alone");
        let packed = Packed::new(&all, &units);
        let ids: Vec<&[u32]> = packed.segments.iter().map(|s| s.ids).collect();
        assert_eq!(ids, vec![&[1, 2][..], &[3, 4], &[5], &[7, 8]]);
        assert_eq!(packed.segments.iter().map(|s| s.after).collect::<Vec<_>>(), vec![None, Some(0), Some(0), None]);
        let places: Vec<(usize, Vec<usize>)> = packed.rows().map(|(r, at)| (r, (0..all[r].len()).map(at).collect())).collect();
        assert_eq!(places, vec![(0, vec![0, 1, 2, 3]), (1, vec![0, 1, 4]), (2, vec![5, 6])]);
    }
}
