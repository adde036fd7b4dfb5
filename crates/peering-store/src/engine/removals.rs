//! What the database does beside a `DELETE`, as the resources' foreign keys declare it:
//! the rows it deletes with those named (`ON DELETE CASCADE`) and the keys it clears
//! (`SET NULL`). The answer cache's versions (`versions.rs`) note those tables as written,
//! since no statement names them.

use std::collections::HashMap;
use std::sync::OnceLock;

use peering_domain::resources::ALL;
use peering_domain::spec::{Kind, OnDelete};

/// The tables with a foreign key to `table` whose rows the database treats by `rule` when
/// rows of `table` go, as the resources declare them.
fn tables_referring(table: &str, rule: OnDelete) -> impl Iterator<Item = &'static str> + '_ {
    (ALL.iter())
        .filter(move |other| {
            other.fields.iter().any(|f| {
                matches!(f.kind, Kind::ForeignKey { target, on_delete }
                    if on_delete == rule && target().table == table)
            })
        })
        .map(|other| other.table)
}

/// What the database does beside a `DELETE` from a table, as the resources' foreign keys
/// declare it: the tables whose rows it deletes with it (`ON DELETE CASCADE`, however
/// deep) and those whose keys it clears (`SET NULL`, from the table or any of those).
#[derive(Debug, Default)]
pub(crate) struct Removal {
    pub deleted_with: Vec<&'static str>,
    pub keys_cleared: Vec<&'static str>,
}

/// The [`Removal`] of `table`, worked out once per table; nothing for a table no resource
/// declares (a link table), which nothing refers to.
pub(crate) fn removal_of(table: &str) -> &'static Removal {
    static REMOVALS: OnceLock<HashMap<&'static str, Removal>> = OnceLock::new();
    static NONE: Removal = Removal {
        deleted_with: Vec::new(),
        keys_cleared: Vec::new(),
    };
    let removals = REMOVALS.get_or_init(|| {
        let removal = |table: &'static str| {
            let mut deleted_with: Vec<&'static str> = Vec::new();
            let mut pending: Vec<&'static str> =
                tables_referring(table, OnDelete::Cascade).collect();
            while let Some(child) = pending.pop() {
                if !deleted_with.contains(&child) {
                    deleted_with.push(child);
                    pending.extend(tables_referring(child, OnDelete::Cascade));
                }
            }
            let mut keys_cleared: Vec<&'static str> = Vec::new();
            for &removed in [table].iter().chain(&deleted_with) {
                for cleared in tables_referring(removed, OnDelete::SetNull) {
                    if !keys_cleared.contains(&cleared) {
                        keys_cleared.push(cleared);
                    }
                }
            }
            Removal {
                deleted_with,
                keys_cleared,
            }
        };
        ALL.iter()
            .map(|spec| (spec.table, removal(spec.table)))
            .collect()
    });
    removals.get(table).unwrap_or(&NONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_router_clears_the_keys_of_its_connections_alone() {
        use peering_domain::resources::{AUTONOMOUS_SYSTEM, CONNECTION, ROUTER};
        let cleared: Vec<_> = tables_referring(ROUTER.table, OnDelete::SetNull).collect();
        assert!(cleared.contains(&CONNECTION.table), "{cleared:?}");
        assert!(!cleared.contains(&ROUTER.table), "{cleared:?}");
        let by_peer: Vec<_> =
            tables_referring(AUTONOMOUS_SYSTEM.table, OnDelete::SetNull).collect();
        assert!(!by_peer.contains(&CONNECTION.table), "{by_peer:?}");
    }
}
