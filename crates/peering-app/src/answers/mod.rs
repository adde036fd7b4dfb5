//! The policy of the API's answer cache, apart from HTTP: which answers are kept
//! (`admission.rs`), whether consulting the cache pays off for a kind of lookup
//! (`payoff.rs`), list counts kept beside the answers (`counts.rs`), objects kept rendered
//! (`texts.rs`), and the data versions read once for every request waiting on them
//! (`versions.rs`). The cache itself, keyed by
//! requests, is the API's.

pub mod admission;
pub mod counts;
pub mod page_parts;
pub mod payoff;
pub mod texts;
pub mod versions;
