//! Which resources an import takes, and in which order: each after those its objects refer
//! to, the generic relations (assignments, journal entries) last.

use peering_domain::resources::{ALL, TAG};
use peering_domain::{Kind, ResourceSpec};

/// What an import takes: the peering data, hidden peers among it, users and groups
/// (without their passwords, which an API does not give). Not change records (brought over
/// as they were, apart), jobs, the PeeringDB copy (synchronised from PeeringDB; hidden
/// peers name its objects by PeeringDB's ids, the same here), nor data sources
/// (synchronised from their directories and repositories, which the source's server
/// reads, not this one).
fn imported(spec: &ResourceSpec) -> bool {
    spec.writes.edits() && (spec.change_logged || spec.app == "users") && spec.app != "core"
}

/// The resources a resource's objects refer to.
fn refers_to(spec: &ResourceSpec) -> Vec<&'static ResourceSpec> {
    spec.fields
        .iter()
        .filter_map(|f| match f.kind {
            Kind::ForeignKey { target, .. } | Kind::ManyToMany { target, .. } => Some(target()),
            Kind::Tags => Some(&TAG),
            _ => None,
        })
        .filter(|target| target.table != spec.table)
        .collect()
}

fn is_generic(spec: &ResourceSpec) -> bool {
    spec.fields
        .iter()
        .any(|f| matches!(f.kind, Kind::GenericObject { .. }))
}

/// The resources to import, each after every one it refers to.
pub fn import_order() -> Vec<&'static ResourceSpec> {
    let wanted: Vec<&'static ResourceSpec> = ALL.iter().copied().filter(|s| imported(s)).collect();
    let mut ordered: Vec<&'static ResourceSpec> = Vec::new();
    let placed = |ordered: &[&ResourceSpec], spec: &ResourceSpec| {
        ordered.iter().any(|s| s.table == spec.table)
    };
    while ordered.len() < wanted.len() {
        let before = ordered.len();
        for spec in wanted.iter().copied() {
            let ready = refers_to(spec)
                .into_iter()
                .all(|t| !imported(t) || placed(&ordered, t));
            let generic_wait = is_generic(spec)
                && wanted
                    .iter()
                    .any(|s| !is_generic(s) && !placed(&ordered, s));
            if ready && !generic_wait && !placed(&ordered, spec) {
                ordered.push(spec);
            }
        }
        assert!(
            ordered.len() > before,
            "the resources refer to each other in a cycle"
        );
    }
    ordered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_resource_comes_after_what_it_refers_to() {
        let order = import_order();
        let position = |spec: &ResourceSpec| order.iter().position(|s| s.table == spec.table);
        for spec in &order {
            for target in refers_to(spec).into_iter().filter(|t| imported(t)) {
                assert!(
                    position(target) < position(spec),
                    "{} before {}",
                    target.table,
                    spec.table
                );
            }
        }
        let last = order.last().unwrap();
        assert!(is_generic(last), "{}", last.table);
        let copy_or_core =
            |s: &&ResourceSpec| (s.app == "peeringdb" && !s.writes.edits()) || s.app == "core";
        assert!(!order.iter().any(copy_or_core));
        let hidden = &peering_domain::resources::PDB_HIDDEN_PEER;
        assert!(order.iter().any(|s| std::ptr::eq(*s, hidden)));
        assert!(order.iter().any(|s| s.app == "users"));
    }
}
