//! The open game's candidates and how many hold each, kept in memory.
//!
//! Counting every candidate's holders in SQL on every choice costs time in
//! proportion to all servings of all candidate items: it was most of a game round's
//! server time, and grew with the database. Instead the process keeps, per k and
//! language, the active choice items with their holder counts, loaded by one grouped
//! query over the same definition of "held" (see [`super::item_choice`]); a serving
//! this process makes adds one to its item at once, so its own players never see a
//! stale count.
//!
//! The table is loaded again when this process changed what counts (items built; a
//! pair's status, an item's gold flag or the answers per item changed; a crowd
//! assignment returned or abandoned; an erasure: the store counts these as
//! [`gapwise_store::Changes::pool`]), and otherwise when it is
//! older than [`MIN_AGE`] or fifty times its own load time, whichever is longer. So
//! servings made by other processes (replicas on one PostgreSQL, CLI commands) and
//! reservations that lapsed count within that time; until then a replica may give an
//! item a few more holders than the cap. A load costs a few percent of one core at
//! most.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::seq::IteratorRandom;

use crate::error::EngineError;
use gapwise_model::{ItemId, Language, PairId, PlayerId, K, RESERVATION_MS};
use gapwise_store::{now_ms, ServedAndFriends, Store};

/// How many of a player's latest items' pairs the next choice avoids.
pub(crate) const RECENT_PAIRS: usize = 4;

/// The shortest time a loaded table is used for.
const MIN_AGE: Duration = Duration::from_secs(2);
/// A table is used for at least this many times as long as it took to load.
const AGE_PER_LOAD_TIME: u32 = 50;

/// What a choice excludes and prefers for one player.
#[derive(Debug)]
pub(crate) struct PlayerView {
    /// Items already served to them.
    pub served: HashSet<ItemId>,
    /// The pairs of their latest items, oldest first: an item of another pair comes
    /// before these, so that a pair's items are spaced apart.
    pub recent_pairs: VecDeque<PairId>,
    /// Their friends, whose pairs come first.
    pub friends: HashSet<PlayerId>,
    /// The store's count of friend changes when read ([`gapwise_store::Changes`]).
    pub friends_read_at: u64,
}

impl PlayerView {
    pub(crate) fn new(seen: ServedAndFriends, friends_read_at: u64) -> PlayerView {
        let ServedAndFriends { served, pairs_served, friends } = seen;
        let recent_pairs = pairs_served.iter().rev().take(RECENT_PAIRS).rev().copied().collect();
        PlayerView { served, recent_pairs, friends, friends_read_at }
    }

    /// How recently the player met `pair`: 0 not lately, then 1 for the meeting
    /// longest ago up to the latest; the lower, the sooner it may come again.
    pub(crate) fn recency(&self, pair: PairId) -> usize {
        self.recent_pairs.iter().rposition(|&p| p == pair).map_or(0, |at| at + 1)
    }

    /// Counts a serving of item `id` of `pair`.
    pub(crate) fn add(&mut self, id: ItemId, pair: PairId) {
        self.served.insert(id);
        self.recent_pairs.push_back(pair);
        while self.recent_pairs.len() > RECENT_PAIRS {
            self.recent_pairs.pop_front();
        }
    }
}

/// One item the open game may serve.
#[derive(Debug)]
struct Candidate {
    id: ItemId,
    gold: bool,
    /// Who proposed its pair (their friends get it first).
    creator: Option<PlayerId>,
    held: i64,
    pair: PairId,
}

impl Candidate {
    /// Whether `player` may get it: never served to them, and gold, or (unless
    /// `gold_only`) held by fewer than `cap`.
    fn eligible(&self, player: &PlayerView, cap: i64, gold_only: bool) -> bool {
        !player.served.contains(&self.id) && (self.gold || (!gold_only && self.held < cap))
    }
}

/// The items of one k and language.
type Game = (K, Language);

#[derive(Debug)]
struct Table {
    /// The store's count of pool changes when it was loaded ([`gapwise_store::Changes`]).
    generation: u64,
    loaded_at: Instant,
    valid_for: Duration,
    /// Holders at which an item retires ([`gapwise_store::Admin::answers_per_item`]).
    cap: i64,
    games: HashMap<Game, Vec<Candidate>>,
}

/// The hold table of one process (shared by the clones of an [`crate::engine::Engine`]).
#[derive(Debug, Default)]
pub(crate) struct HoldTable {
    table: Mutex<Option<Table>>,
    /// Held by the one task that loads the table.
    loading: Arc<tokio::sync::Mutex<()>>,
}

/// How usable the table held is.
#[derive(PartialEq)]
enum Age {
    Fresh,
    /// Past its age but of the current generation: usable while it is loaded again.
    Old,
    /// None, or out of date: a choice must wait for the load.
    Unusable,
}

impl HoldTable {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Table>> {
        // a panic while holding the lock leaves a table that is at worst stale
        self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The table's age when the store's pool changed `generation` times.
    fn age(&self, generation: u64) -> Age {
        match self.lock().as_ref() {
            Some(t) if t.generation == generation && t.loaded_at.elapsed() < t.valid_for => Age::Fresh,
            Some(t) if t.generation == generation => Age::Old,
            _ => Age::Unusable,
        }
    }

    /// Loads the table unless the one held is fresh. One task loads at a time: an
    /// old table of the current generation is loaded again in the background while
    /// choices go on using it (a load takes tens of milliseconds on a large
    /// database: no player waits for it); without a usable table a choice waits.
    pub(crate) async fn refresh(self: &Arc<Self>, store: &Store) -> Result<(), EngineError> {
        match self.age(store.changes().pool()) {
            Age::Fresh => Ok(()),
            Age::Old => {
                if let Ok(loading) = Arc::clone(&self.loading).try_lock_owned() {
                    let (store, holds) = (store.clone(), Arc::clone(self));
                    tokio::spawn(async move {
                        if let Err(e) = holds.load(&store).await {
                            tracing::warn!("loading the hold table again: {e}");
                        }
                        drop(loading);
                    });
                }
                Ok(())
            }
            Age::Unusable => {
                let _loading = self.loading.lock().await;
                // another task may have loaded it meanwhile
                if self.age(store.changes().pool()) == Age::Unusable {
                    self.load(store).await?;
                }
                Ok(())
            }
        }
    }

    /// Reads the table from the database.
    async fn load(&self, store: &Store) -> Result<(), EngineError> {
        let generation = store.changes().pool();
        let started = Instant::now();
        let cap = store.admin().answers_per_item().await?;
        let mut games: HashMap<Game, Vec<Candidate>> = HashMap::new();
        for c in store.game().hold_counts(now_ms() - RESERVATION_MS).await? {
            games.entry((c.k, c.lang)).or_default().push(Candidate {
                id: c.id,
                gold: c.gold,
                creator: c.creator,
                held: c.held,
                pair: c.pair,
            });
        }
        let valid_for = MIN_AGE.max(started.elapsed() * AGE_PER_LOAD_TIME);
        *self.lock() = Some(Table { generation, loaded_at: Instant::now(), valid_for, cap, games });
        Ok(())
    }

    /// Whether the game of `k` contexts in `lang` has gold items (as last loaded).
    pub(crate) fn has_gold(&self, k: K, language: Language) -> bool {
        self.lock().as_ref().and_then(|t| t.games.get(&(k, language))).is_some_and(|g| g.iter().any(|c| c.gold))
    }

    /// The item for `player` with `k` contexts in `lang` from the table as last
    /// loaded ([`HoldTable::refresh`] first): with `gold_only`, a gold item at
    /// random; otherwise among gold items and those not yet retired, a friend's
    /// pair first, then the least held, ties broken at random. Either way an item
    /// whose pair the player just met comes only when no other is left (the older
    /// the meeting, the sooner).
    pub(crate) fn choose(&self, k: K, language: Language, player: &PlayerView, gold_only: bool) -> Option<ItemId> {
        let table = self.lock();
        let table = table.as_ref()?;
        let (cap, candidates) = (table.cap, table.games.get(&(k, language))?);
        let eligible = |c: &&Candidate| c.eligible(player, cap, gold_only);
        let recency = |c: &Candidate| player.recency(c.pair);
        // a gold pick is otherwise at random; else (stranger, held) ranks, a friend's pair first
        let rank = |c: &Candidate| {
            let stranger = !c.creator.as_ref().is_some_and(|who| player.friends.contains(who));
            if gold_only {
                (recency(c), false, 0)
            } else {
                (recency(c), stranger, c.held)
            }
        };
        let best = candidates.iter().filter(eligible).map(rank).min()?;
        candidates.iter().filter(eligible).filter(|c| rank(c) == best).choose(&mut rand::thread_rng()).map(|c| c.id)
    }

    /// The items `player` may get with `k` contexts in `lang` (gold, or not yet
    /// retired; never served to them) with their holders, as last loaded; of a pair
    /// the player just met only when no other is left (as in [`HoldTable::choose`]).
    pub(crate) fn open_items(&self, k: K, language: Language, player: &PlayerView) -> Vec<(ItemId, i64)> {
        let table = self.lock();
        let Some(table) = table.as_ref() else { return Vec::new() };
        let candidates = table.games.get(&(k, language)).map_or(&[][..], Vec::as_slice);
        let open: Vec<&Candidate> = candidates.iter().filter(|c| c.eligible(player, table.cap, false)).collect();
        let fresh = open.iter().map(|c| player.recency(c.pair)).min().unwrap_or(0);
        open.into_iter().filter(|c| player.recency(c.pair) == fresh).map(|c| (c.id, c.held)).collect()
    }

    /// Counts a new serving of item `id` (with `k` contexts in `lang`).
    pub(crate) fn add_holder(&self, k: K, language: Language, id: ItemId) {
        let mut table = self.lock();
        let candidate = table.as_mut().and_then(|t| t.games.get_mut(&(k, language))).and_then(|g| g.iter_mut().find(|c| c.id == id));
        if let Some(c) = candidate {
            c.held += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items (id, gold, creator, held), each of a pair of its own (its id).
    fn table(cap: i64, items: &[(i64, bool, Option<&str>, i64)]) -> HoldTable {
        let candidates = items
            .iter()
            .map(|&(id, gold, creator, held)| Candidate {
                id: ItemId(id),
                gold,
                creator: creator.map(PlayerId::new),
                held,
                pair: PairId(id),
            })
            .collect();
        table_of(cap, candidates)
    }

    /// Items (id, pair), none gold, proposed by nobody, held by nobody.
    fn paired(items: &[(i64, i64)]) -> Vec<Candidate> {
        items.iter().map(|&(id, pair)| Candidate { id: ItemId(id), gold: false, creator: None, held: 0, pair: PairId(pair) }).collect()
    }

    /// A fresh table holding `candidates` as the game of k = 5 in English.
    fn table_of(cap: i64, candidates: Vec<Candidate>) -> HoldTable {
        let holds = HoldTable::default();
        let games = HashMap::from([((K::FIVE, gapwise_model::Language::En), candidates)]);
        *holds.lock() = Some(Table { generation: 0, loaded_at: Instant::now(), valid_for: MIN_AGE, cap, games });
        holds
    }

    fn player(served: &[i64], friends: &[&str]) -> PlayerView {
        let seen = ServedAndFriends {
            served: served.iter().copied().map(ItemId).collect(),
            pairs_served: Vec::new(),
            friends: friends.iter().copied().map(PlayerId::new).collect(),
        };
        PlayerView::new(seen, 0)
    }

    #[test]
    fn only_the_latest_pairs_count_as_met_lately() {
        let seen = ServedAndFriends { pairs_served: (1..=6).map(PairId).collect(), ..ServedAndFriends::default() };
        let view = PlayerView::new(seen, 0);
        assert_eq!([1, 2, 3, 6].map(|pair| view.recency(PairId(pair))), [0, 0, 1, RECENT_PAIRS]);
    }

    #[test]
    fn a_pair_just_met_waits_until_no_other_is_left() {
        // items 1 and 2 of pair 10, 3 and 4 of pair 20; all equally held
        let holds = table_of(5, paired(&[(1, 10), (2, 10), (3, 20), (4, 20)]));
        for _ in 0..20 {
            let mut view = player(&[], &[]);
            let mut order = Vec::new();
            while let Some(id) = holds.choose(K::FIVE, gapwise_model::Language::En, &view, false) {
                let pair = PairId(if id.get() <= 2 { 10 } else { 20 });
                order.push(pair);
                view.add(id, pair);
            }
            assert_eq!(order.len(), 4);
            assert!(order.windows(2).all(|w| w[0] != w[1]), "never the same pair twice in a row: {order:?}");
        }
        // of two pairs met lately, the one met longer ago comes back first
        let holds = table_of(5, paired(&[(2, 10), (5, 20)]));
        let mut view = player(&[1, 3, 4], &[]);
        view.recent_pairs.extend([10, 20, 30].map(PairId));
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &view, false), Some(ItemId(2)));
        // the adaptive rule is offered the same: the pair met longest ago only
        assert_eq!(holds.open_items(K::FIVE, gapwise_model::Language::En, &view), vec![(ItemId(2), 0)]);
    }

    #[test]
    fn the_least_held_open_item_comes_first_and_a_friends_pair_before_it() {
        let holds = table(3, &[(1, false, None, 2), (2, false, Some("ann"), 1), (3, false, None, 0), (4, false, Some("bob"), 2)]);
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), false), Some(ItemId(3)));
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[3], &[]), false), Some(ItemId(2)));
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &["bob"]), false), Some(ItemId(4)));
        assert_eq!(holds.choose(K::THREE, gapwise_model::Language::En, &player(&[], &[]), false), None, "another k");
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::Fr, &player(&[], &[]), false), None, "another language");
    }

    #[test]
    fn items_retire_at_the_cap_but_gold_items_do_not() {
        let holds = table(2, &[(1, false, None, 2), (2, true, None, 9)]);
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), false), Some(ItemId(2)));
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[2], &[]), false), None);
        assert!(holds.has_gold(K::FIVE, gapwise_model::Language::En) && !holds.has_gold(K::ONE, gapwise_model::Language::En));
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), true), Some(ItemId(2)));
        let mut open = holds.open_items(K::FIVE, gapwise_model::Language::En, &player(&[], &[]));
        open.sort_unstable();
        assert_eq!(open, vec![(ItemId(2), 9)], "the adaptive rule is offered the same items");
        assert_eq!(holds.open_items(K::FIVE, gapwise_model::Language::En, &player(&[2], &[])), vec![]);
    }

    #[test]
    fn a_serving_counts_at_once_and_ties_are_spread() {
        let holds = table(1, &[(1, false, None, 0), (2, false, None, 0)]);
        let first = holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), false).expect("an item");
        holds.add_holder(K::FIVE, gapwise_model::Language::En, first);
        let second = holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), false).expect("the other item");
        assert_ne!(first, second);
        holds.add_holder(K::FIVE, gapwise_model::Language::En, second);
        assert_eq!(holds.choose(K::FIVE, gapwise_model::Language::En, &player(&[], &[]), false), None, "both retired");

        let seen: HashSet<ItemId> = (0..200)
            .filter_map(|_| {
                table(5, &[(1, false, None, 0), (2, false, None, 0), (3, false, None, 0)]).choose(
                    K::FIVE,
                    gapwise_model::Language::En,
                    &player(&[], &[]),
                    false,
                )
            })
            .collect();
        assert_eq!(seen.len(), 3, "ties are broken at random: {seen:?}");
    }

    #[test]
    fn an_invalidated_table_is_unusable_and_an_old_one_is_used_while_reloaded() {
        let holds = table(1, &[(1, false, None, 0)]);
        assert!(holds.age(0) == Age::Fresh);
        assert!(holds.age(1) == Age::Unusable, "the pool changed since the load");
        let holds = table(1, &[(1, false, None, 0)]);
        holds.lock().as_mut().expect("table").valid_for = Duration::ZERO;
        assert!(holds.age(0) == Age::Old);
    }
}
