//! The tables a resource's answers are read from: its own, those of every object it shows
//! or filters through (followed to the end, since a related object's label may read its own
//! relations), and those its computed values consult. Caches of answers key them by the
//! versions of these tables alone, so that a write elsewhere leaves them valid.
//!
//! The database writes some rows itself (cascades on delete; triggers that copy sort keys
//! into referring rows), and no statement names those tables. Such writes go from a row to
//! the rows that refer to it, and a resource that reads a referring table reads the table
//! it refers to as well; the one exception, counts of a many-to-many table's rows, is
//! covered by reading the tables of that relation's owners (`owners_of`).

use super::{Computed, FilterSource, Kind, ResourceSpec};

impl Computed {
    /// The tables the value is computed from (the store's expression reads these, and its
    /// tests check that it reads no other).
    pub const fn tables(self) -> &'static [&'static str] {
        match self {
            Computed::SessionInPeeringDb => &["peeringdb_network_ixlans", "autonomous_systems"],
            Computed::SessionAbandoned => &[
                "connections",
                "autonomous_systems",
                "routers",
                "peeringdb_networks",
                "peeringdb_network_ixlans",
            ],
            Computed::AssignedContexts => &["config_context_assignments", "config_contexts"],
        }
    }

    /// [`Computed::tables`] but for the rows the object's own foreign keys name (its
    /// autonomous system, its connection), which a text kept per object depends on one by
    /// one; the value may read any row of these.
    pub const fn tables_beyond_links(self) -> &'static [&'static str] {
        match self {
            Computed::SessionInPeeringDb => &["peeringdb_network_ixlans"],
            Computed::SessionAbandoned => {
                &["routers", "peeringdb_networks", "peeringdb_network_ixlans"]
            }
            Computed::AssignedContexts => Computed::AssignedContexts.tables(),
        }
    }
}

/// The change records, which the filters on the request that created or changed an object
/// (`created_by_request`, `updated_by_request`) read besides [`ResourceSpec::tables_read`]:
/// every write adds to it, so it is left out of what every answer reads.
pub const CHANGE_RECORDS: &str = crate::resources::OBJECT_CHANGE.table;

impl ResourceSpec {
    /// Every table a list page or an object of this resource is read from, with any filter
    /// but those on change requests (which read [`CHANGE_RECORDS`] too), sorted and
    /// without repeats.
    pub fn tables_read(&'static self) -> Vec<&'static str> {
        let all = Reads {
            computed: Computed::tables,
            filters: true,
        };
        self.gather(true, |_| all)
    }

    /// The tables an object's text depends on whole, beside the rows it shows (its own,
    /// those its foreign keys name, and the related objects it looks up, which a text kept
    /// per object depends on one by one): the link tables of its relations and of its tags,
    /// the tables its counts and computed values read; for every resource it reaches.
    pub fn tables_beside_rows(&'static self) -> Vec<&'static str> {
        self.gather(false, |spec| Reads {
            // Computed values read the rows of the object's own links by them; a reached
            // object's links are not among the rows a text names, so all they read counts.
            computed: if std::ptr::eq(spec, self) {
                Computed::tables_beyond_links
            } else {
                Computed::tables
            },
            filters: false,
        })
    }

    /// The tables `reads` names for this resource and every resource it reaches (their own
    /// tables too, with `own_tables`), sorted and without repeats.
    fn gather(
        &'static self,
        own_tables: bool,
        reads: impl Fn(&'static ResourceSpec) -> Reads,
    ) -> Vec<&'static str> {
        let mut tables = Vec::new();
        let mut pending = vec![self];
        let mut seen: Vec<&'static ResourceSpec> = Vec::new();
        while let Some(spec) = pending.pop() {
            if seen.iter().any(|s| std::ptr::eq(*s, spec)) {
                continue;
            }
            seen.push(spec);
            if own_tables {
                tables.push(spec.table);
            }
            spec.own_reads(&mut tables, &mut pending, reads(spec));
        }
        tables.sort_unstable();
        tables.dedup();
        tables
    }

    /// The tables this resource reads beyond its own, and the resources it reaches.
    fn own_reads(
        &'static self,
        tables: &mut Vec<&'static str>,
        reached: &mut Vec<&'static ResourceSpec>,
        reads: Reads,
    ) {
        for field in self.fields {
            match field.kind {
                Kind::ForeignKey { target, .. } => reached.push(target()),
                Kind::ManyToMany { target, table, .. } => {
                    tables.push(table);
                    reached.push(target());
                }
                Kind::Tags => {
                    tables.push("tagged_items");
                    reached.push(&crate::resources::TAG);
                }
                Kind::ReverseCount { table, .. } => {
                    tables.push(table);
                    tables.extend(owners_of(table));
                }
                _ => {}
            }
            if let Some(computed) = field.computed {
                tables.extend_from_slice((reads.computed)(computed));
            }
        }
        if !reads.filters {
            return;
        }
        for extra in self.extra_filters {
            if let FilterSource::ReferredBy { table, .. } = extra.source {
                tables.push(table);
            }
        }
    }
}

/// What [`ResourceSpec::own_reads`] counts beside relations: the tables of computed values
/// (all, or those beyond the object's own links), and those filters read.
#[derive(Clone, Copy)]
struct Reads {
    computed: fn(Computed) -> &'static [&'static str],
    filters: bool,
}

/// The resources whose rows own the rows of `table` (it is their table, or the table of
/// one of their many-to-many relations): deleting one of them deletes rows of `table` by
/// the database's cascade, which no statement names.
fn owners_of(table: &'static str) -> impl Iterator<Item = &'static str> {
    crate::resources::ALL
        .iter()
        .filter(move |spec| {
            spec.table == table
                || spec.fields.iter().any(
                    |f| matches!(f.kind, Kind::ManyToMany { table: through, .. } if through == table),
                )
        })
        .map(|spec| spec.table)
}

#[cfg(test)]
mod tests {
    use crate::resources::{AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE_PEERING_SESSION};

    #[test]
    fn an_autonomous_system_reads_no_session() {
        let tables = AUTONOMOUS_SYSTEM.tables_read();
        assert!(tables.contains(&"autonomous_systems"));
        assert!(tables.contains(&"tagged_items"));
        assert!(tables.contains(&"autonomous_system_import_routing_policies"));
        assert!(!tables.iter().any(|t| t.contains("session")), "{tables:?}");
    }

    #[test]
    fn a_count_of_members_reads_whose_deletion_changes_it() {
        let tables = crate::resources::GROUP.tables_read();
        assert!(tables.contains(&"user_groups"), "{tables:?}");
        assert!(tables.contains(&"users"), "{tables:?}");
    }

    #[test]
    fn a_session_reads_what_it_shows_and_computes() {
        let tables = INTERNET_EXCHANGE_PEERING_SESSION.tables_read();
        for table in [
            "autonomous_systems",
            "connections",
            "peeringdb_network_ixlans",
        ] {
            assert!(tables.contains(&table), "{table} missing from {tables:?}");
        }
        let mut sorted = tables.clone();
        sorted.dedup();
        assert_eq!(sorted, tables);
    }

    #[test]
    fn texts_depend_whole_on_link_tables_and_computed_reads_not_on_the_rows_they_show() {
        let session = INTERNET_EXCHANGE_PEERING_SESSION.tables_beside_rows();
        for shown in ["autonomous_systems", "connections", session_table()] {
            assert!(!session.contains(&shown), "{shown} in {session:?}");
        }
        for whole in ["peeringdb_network_ixlans", "routers", "tagged_items"] {
            assert!(session.contains(&whole), "{whole} missing from {session:?}");
        }
        let autonomous_system = AUTONOMOUS_SYSTEM.tables_beside_rows();
        assert!(autonomous_system.contains(&"autonomous_system_import_routing_policies"));
        assert!(!autonomous_system.contains(&"autonomous_systems"));
    }

    fn session_table() -> &'static str {
        INTERNET_EXCHANGE_PEERING_SESSION.table
    }
}
