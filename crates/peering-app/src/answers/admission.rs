//! Which answers the answer cache keeps: one is kept the second time its address is asked
//! for at the same version of its data, within the memory of the last few thousand. Traffic
//! in which every request differs (random offsets, ids, search terms), or in which the data
//! an answer shows is written before the answer is asked for again, then fills no memory
//! and pays for no insertion, while an address asked again is kept from its second answer
//! on.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// Addresses remembered, one per slot (a newer address takes an older one's slot).
const SLOTS: usize = 16_384;

#[derive(Debug)]
pub struct Admission {
    /// A hash of the address last seen in each slot (0: none).
    seen: Box<[AtomicU64]>,
}

impl Default for Admission {
    fn default() -> Self {
        Admission {
            seen: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Admission {
    /// Whether `address` was asked for recently at `version` of its data; it is remembered
    /// either way.
    pub fn seen_before(&self, address: &str, version: i64) -> bool {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (address, version).hash(&mut hasher);
        let hash = hasher.finish() | 1;
        let slot = &self.seen[(hash >> 40) as usize % SLOTS];
        slot.swap(hash, Ordering::Relaxed) == hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_admitted_the_second_time() {
        let admission = Admission::default();
        assert!(!admission.seen_before("/a/?offset=1", 7));
        assert!(!admission.seen_before("/a/?offset=2", 7));
        assert!(admission.seen_before("/a/?offset=1", 7));
        assert!(admission.seen_before("/a/?offset=1", 7));
    }

    #[test]
    fn an_address_whose_data_changed_since_is_asked_for_anew() {
        let admission = Admission::default();
        assert!(!admission.seen_before("/a/?offset=1", 7));
        assert!(
            !admission.seen_before("/a/?offset=1", 8),
            "written in between"
        );
        assert!(admission.seen_before("/a/?offset=1", 8));
    }

    #[test]
    fn a_flood_of_new_addresses_is_forgotten_not_admitted() {
        let admission = Admission::default();
        let admitted = (0..100_000)
            .filter(|i| admission.seen_before(&format!("/a/?offset={i}"), 1))
            .count();
        assert_eq!(admitted, 0);
    }
}
