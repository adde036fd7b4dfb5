//! The engine: one connection type over both databases (`connection.rs`), SQL with bound
//! parameters (`sql/`), the tables derived from the declarations (`schema/`), queries
//! (`query/`), writes and deletes (`write/`, `delete.rs`) with their change records
//! (`changes.rs`, `copy.rs`), and what each write declares it wrote (`written.rs`,
//! `removals.rs`).

pub(crate) mod changes;
pub(crate) mod computed;
pub(crate) mod connection;
pub(crate) mod copy;
pub(crate) mod delete;
pub(crate) mod follow;
pub(crate) mod query;
pub(crate) mod removals;
pub(crate) mod schema;
pub(crate) mod sql;
pub(crate) mod write;
pub(crate) mod written;
