//! Bringing another system's data in (`peering_import`), every object through the same
//! write rules as any other write: a template that does not parse is left out and reported,
//! and no password is taken from the source.

use peering_import::{Event, ImportError, Report, Source};
use peering_store::Store;

use crate::edits::{admit, WriteRules};

/// Imports everything the token reads from `source`; see [`peering_import::import`].
pub fn import(
    store: &Store,
    source: &Source,
    dry_run: bool,
    progress: &dyn Fn(Event),
    rules: WriteRules,
) -> Result<Report, ImportError> {
    let admitted = move |spec, draft: &mut _| admit(spec, draft, &rules);
    peering_import::import(store, source, dry_run, progress, &admitted)
}
