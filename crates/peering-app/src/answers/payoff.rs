//! Whether consulting the answer cache, the kept list counts or the objects kept rendered
//! pays off: per resource and kind of lookup (list pages, details, list counts). A lookup
//! costs a key, a read of the tables' versions and, for an answer admitted, a copy into
//! the cache; it pays only when answers are asked for again before their data is
//! written. Traffic in which every request differs (random offsets, ids, filter values),
//! or whose data is written faster than its answers are reused, finds nothing kept:
//! there, a kind of lookup whose recent lookups rarely hit is made by one request in
//! `SAMPLE` only, which keeps measuring, and the others render at once as a server without
//! a cache does. Answers asked for again soon raise its score back. Every kind starts out
//! consulting.

use std::sync::atomic::{AtomicU32, Ordering};

use peering_domain::resources::position;
use peering_domain::ResourceSpec;

/// While a kind of lookup does not pay, one request in this many consults the cache.
const SAMPLE: u32 = 16;
/// A hit raises the score by this much, a miss lowers it by one: consulting goes on while
/// more than one lookup in `HIT_CREDIT + 1` hits, where a hit saves a whole rendering and
/// a miss costs a small part of one.
const HIT_CREDIT: u32 = 4;
/// The most a score holds, so that a run of hits long past is forgotten within this many
/// misses.
const MAX_SCORE: u32 = 64;

/// What is looked up for a resource: a list page, a detail (one object), or a list's count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    Page,
    Detail,
    Count,
}

const KINDS: usize = 3;

#[derive(Debug)]
pub struct CachePayoff {
    /// Per resource of `resources::ALL`, then per kind of lookup; 0 once lookups miss.
    scores: Box<[AtomicU32]>,
    /// Requests that did not consult by score, to pick one in `SAMPLE`.
    skipped: AtomicU32,
}

impl Default for CachePayoff {
    fn default() -> Self {
        let slots = KINDS * peering_domain::resources::ALL.len();
        CachePayoff {
            scores: (0..slots).map(|_| AtomicU32::new(MAX_SCORE)).collect(),
            skipped: AtomicU32::new(0),
        }
    }
}

impl CachePayoff {
    /// Whether this request of `spec` should make `lookup` (and keep what it renders).
    /// Never for a resource whose answers follow the clock (a hidden peer's `is_expired`
    /// turns with no write): versions key what was written, not when it was read, and
    /// keying by the next time an answer turns would mean reading its rows first, the
    /// work a kept answer saves. Those answers are rendered for each request.
    pub fn worth_consulting(&self, spec: &ResourceSpec, lookup: Lookup) -> bool {
        if spec.reads_the_clock {
            return false;
        }
        let Some(score) = self.score(spec, lookup) else {
            return true;
        };
        score.load(Ordering::Relaxed) > 0
            || (self.skipped.fetch_add(1, Ordering::Relaxed)).is_multiple_of(SAMPLE)
    }

    /// Counts a `lookup` of `spec` that found what it looked for kept (`hit`) or not.
    pub fn record(&self, spec: &ResourceSpec, lookup: Lookup, hit: bool) {
        if let Some(score) = self.score(spec, lookup) {
            let next = |s: u32| {
                Some(if hit {
                    (s + HIT_CREDIT).min(MAX_SCORE)
                } else {
                    s.saturating_sub(1)
                })
            };
            // The closure always gives a value: the update cannot fail.
            let _ = score.fetch_update(Ordering::Relaxed, Ordering::Relaxed, next);
        }
    }

    fn score(&self, spec: &ResourceSpec, lookup: Lookup) -> Option<&AtomicU32> {
        let slot = KINDS * position(spec)? + lookup as usize;
        self.scores.get(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use peering_domain::resources::{ALL, AUTONOMOUS_SYSTEM};

    const AS: &ResourceSpec = &AUTONOMOUS_SYSTEM;

    /// Of `requests` requests, how many consult the cache, each missing.
    fn consulted_missing(payoff: &CachePayoff, lookup: Lookup, requests: usize) -> usize {
        (0..requests)
            .filter(|_| payoff.worth_consulting(AS, lookup))
            .inspect(|_| payoff.record(AS, lookup, false))
            .count()
    }

    #[test]
    fn every_request_consults_until_lookups_stop_paying() {
        let payoff = CachePayoff::default();
        assert_eq!(consulted_missing(&payoff, Lookup::Page, 64), 64);
        assert_eq!(consulted_missing(&payoff, Lookup::Page, 1_600), 100);
    }

    #[test]
    fn a_hit_turns_lookups_back_on() {
        let payoff = CachePayoff::default();
        consulted_missing(&payoff, Lookup::Detail, 1_000);
        payoff.record(AS, Lookup::Detail, true);
        assert_eq!(consulted_missing(&payoff, Lookup::Detail, 4), 4);
        assert!(consulted_missing(&payoff, Lookup::Detail, 32) <= 3);
    }

    #[test]
    fn lookups_go_on_while_more_than_one_in_five_hits() {
        let payoff = CachePayoff::default();
        for i in 0..10_000 {
            assert!(payoff.worth_consulting(AS, Lookup::Page), "request {i}");
            payoff.record(AS, Lookup::Page, i % 4 == 0);
        }
    }

    #[test]
    fn answers_that_follow_the_clock_are_never_looked_up() {
        let payoff = CachePayoff::default();
        let hidden = &peering_domain::resources::PDB_HIDDEN_PEER;
        for lookup in [Lookup::Page, Lookup::Detail, Lookup::Count] {
            assert!(!payoff.worth_consulting(hidden, lookup));
            assert!(payoff.worth_consulting(AS, lookup));
        }
    }

    #[test]
    fn kinds_of_lookup_and_resources_are_scored_apart() {
        let payoff = CachePayoff::default();
        consulted_missing(&payoff, Lookup::Page, 1_000);
        assert_eq!(consulted_missing(&payoff, Lookup::Detail, 64), 64);
        let other = ALL.iter().find(|s| s.table != AS.table).unwrap();
        assert!((0..64).all(|_| payoff.worth_consulting(other, Lookup::Page)));
    }
}
