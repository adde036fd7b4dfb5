//! The local copy of PeeringDB, reached through [`Store::peeringdb`]: its synchronisation
//! (`sync.rs`) and the reads peering work makes of it (`reads.rs`).

mod reads;
mod sync;

pub use reads::LanPresence;
pub use sync::{Applied, CopyWriter, Counts};

use crate::Store;

/// The PeeringDB copy of a store: `store.peeringdb().network(asn)`.
#[derive(Debug, Clone, Copy)]
pub struct PeeringDb<'s> {
    store: &'s Store,
}

impl Store {
    /// The local copy of PeeringDB.
    pub fn peeringdb(&self) -> PeeringDb<'_> {
        PeeringDb { store: self }
    }
}
