//! Hidden peers (reference 1.10, `peeringdb.HiddenPeer`): a PeeringDB network left out of
//! the available peers of the exchanges on one PeeringDB LAN, for good or until a time.
//! Unlike the rest of the application they are user data, written through the API with
//! change records; a synchronisation never writes them but to follow the copy: when their
//! network or LAN leaves PeeringDB the link is cleared (the database's `SET NULL`, as the
//! reference's `on_delete`) and the id kept beside it links it again once PeeringDB lists
//! that object anew (the reference's `link_to_peeringdb`).

use super::{ixlan, network, PDB_IXLAN, PDB_NETWORK};
use crate::record::Record;
use crate::resources::common::{COMMENTS, CREATED, UPDATED};
use crate::spec::{
    kinds, Default, ExtraFilter, Field, FilterSource, Kind, OnDelete, RelatedLookup, ResourceSpec,
    Search, Shown,
};
use crate::value::{now, Value};

/// The members of both the brief and the nested form, as the reference's nested serializer.
const MEMBERS: &[&str] = &[
    "id",
    "url",
    "display",
    "extdb_network",
    "extdb_ixlan",
    "until",
];

pub static PDB_HIDDEN_PEER: ResourceSpec = ResourceSpec {
    app: "peeringdb",
    model: "hiddenpeer",
    path: "hidden-peers",
    name: "Hidden Peer",
    verbose_name: "hidden peer",
    table: "peeringdb_hidden_peers",
    fields: &[
        // Shown as `peeringdb_network` and `peeringdb_ixlan` under the reference's names.
        Field::new(
            "extdb_network",
            "PeeringDB network",
            kinds::fk(network, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        Field::new(
            "extdb_ixlan",
            "PeeringDB IX LAN",
            kinds::fk(ixlan, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        // The ids last linked, kept when PeeringDB drops the object (see the module).
        Field::new(
            "extdb_network_id_copy",
            "PeeringDB network ID",
            kinds::int(0, i64::MAX),
        )
        .nullable()
        .read_only()
        .hidden()
        .default(Default::Null),
        Field::new(
            "extdb_ixlan_id_copy",
            "PeeringDB IX LAN ID",
            kinds::int(0, i64::MAX),
        )
        .nullable()
        .read_only()
        .hidden()
        .default(Default::Null),
        Field::new("until", "Hide until", Kind::Time)
            .nullable()
            .default(Default::Null)
            .filter()
            .help("Leave empty to hide for good"),
        COMMENTS,
        Field::new(
            "is_expired",
            "Expired",
            Kind::Derived {
                derive: is_expired,
                shown: Shown::Bool,
            },
        )
        .read_only(),
        CREATED,
        UPDATED,
    ],
    ordering: &["until", "extdb_network", "extdb_ixlan"],
    brief: MEMBERS,
    nested: MEMBERS,
    search: &[
        Search::Contains("extdb_network.name"),
        Search::Contains("extdb_ixlan.name"),
        Search::Contains("comments"),
        Search::IntEquals("extdb_network.asn"),
    ],
    display: hidden_peer_display,
    reads: &["extdb_network", "extdb_ixlan"],
    unique_together: &[(
        &["extdb_network_id_copy", "extdb_ixlan_id_copy"],
        "This network is already hidden on this IX LAN.",
    )],
    derive: Some(keep_linked_ids),
    extra_filters: &[
        ExtraFilter::related("peeringdb_network_id", "extdb_network.id"),
        ExtraFilter::related("peeringdb_network_asn", "extdb_network.asn"),
        ExtraFilter::related("peeringdb_ixlan_id", "extdb_ixlan.id"),
        ExtraFilter {
            param: "is_expired",
            source: FilterSource::Expired("until"),
        },
    ],
    reads_the_clock: true,
    ..ResourceSpec::DEFAULTS
};

/// Whether `until` is set and past: the peer is listed again.
fn is_expired(spec: &ResourceSpec, r: &Record) -> Value {
    let expired = matches!(r.get(spec, "until"), Value::Time(until) if *until < now());
    Value::Bool(expired)
}

/// "<network> hidden on <LAN>", naming by the kept id what PeeringDB no longer lists.
fn hidden_peer_display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let network = match r.follow(spec, "extdb_network", related) {
        Some(net) => net.display_with(&PDB_NETWORK, related),
        None => format!("Network ID {}", kept_id(spec, r, "extdb_network_id_copy")),
    };
    let ixlan = match r.follow(spec, "extdb_ixlan", related) {
        Some(lan) => lan.display_with(&PDB_IXLAN, related),
        None => format!("IX LAN ID {}", kept_id(spec, r, "extdb_ixlan_id_copy")),
    };
    format!("{network} hidden on {ixlan}")
}

fn kept_id(spec: &ResourceSpec, r: &Record, field: &str) -> String {
    r.get(spec, field)
        .as_int()
        .map_or_else(|| "None".to_string(), |id| id.to_string())
}

/// Before a write: the ids of the network and LAN linked are kept beside the links (an
/// unlinked one keeps the id it had), as the reference's `save()` does.
fn keep_linked_ids(spec: &ResourceSpec, r: &mut Record, _: &dyn RelatedLookup) {
    for (link, copy) in [
        ("extdb_network", "extdb_network_id_copy"),
        ("extdb_ixlan", "extdb_ixlan_id_copy"),
    ] {
        let linked = r.get(spec, link).clone();
        if let (Value::Int(_), Some(i)) = (&linked, spec.index_of(copy)) {
            r.values[i] = linked;
        }
    }
}
