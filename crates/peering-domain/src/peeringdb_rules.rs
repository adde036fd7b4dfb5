//! The reference's rules for using the local PeeringDB copy in the peering data, as pure
//! functions: which autonomous system fields a synchronisation copies, what an autonomous
//! system created from a PeeringDB network holds, which network-LAN record a connection's
//! addresses name, and how an exchange's prefixes are shown. The store reads and writes;
//! these decide.

use serde_json::Value as Json;

use crate::input::{Draft, Input};
use crate::record::Record;
use crate::resources::{AUTONOMOUS_SYSTEM, PDB_NETWORK};
use crate::value::Value;

/// Private and reserved AS numbers (RFCs 4893, 5398, 6996, 7300, 7607 and IANA's reserved
/// range), as the reference counts them: PeeringDB is never asked about them.
pub fn is_private_asn(asn: i64) -> bool {
    matches!(asn,
        0 | 23456 | 64496..=64511 | 64512..=65534 | 65535 | 65536..=65551
        | 65552..=131071 | 4200000000..=4294967294 | 4294967295)
}

/// Each synchronised field of an autonomous system: its flag and the network's field.
const SYNCHRONISED: &[(&str, &str, &str)] = &[
    ("name", "name_extdb_sync", "name"),
    ("irr_as_set", "irr_as_set_extdb_sync", "irr_as_set"),
    (
        "ipv6_max_prefixes",
        "ipv6_max_prefixes_extdb_sync",
        "info_prefixes6",
    ),
    (
        "ipv4_max_prefixes",
        "ipv4_max_prefixes_extdb_sync",
        "info_prefixes4",
    ),
];

/// What a synchronisation changes in an autonomous system from its PeeringDB network: each
/// field whose flag is set and whose value differs. `None` when nothing changes.
pub fn autonomous_system_update(system: &Record, network: &Record) -> Option<Draft> {
    let spec = &AUTONOMOUS_SYSTEM;
    let mut draft = Draft::empty(spec);
    let mut changed = false;
    for (field, flag, source) in SYNCHRONISED {
        if system.get(spec, flag).as_bool() != Some(true) {
            continue;
        }
        let wanted = network.get(&PDB_NETWORK, source);
        if system.get(spec, field) != wanted {
            draft.set(spec, field, Input::Value(wanted.clone()));
            changed = true;
        }
    }
    changed.then_some(draft)
}

/// A new autonomous system made from its PeeringDB network, as the reference creates one
/// (number, name, IRR AS-SET and max prefixes; everything else by default).
pub fn autonomous_system_from_network(network: &Record) -> Draft {
    let spec = &AUTONOMOUS_SYSTEM;
    let mut draft = Draft::empty(spec);
    let pairs =
        std::iter::once(("asn", "asn")).chain(SYNCHRONISED.iter().map(|(f, _, s)| (*f, *s)));
    for (field, source) in pairs {
        draft.set(
            spec,
            field,
            Input::Value(network.get(&PDB_NETWORK, source).clone()),
        );
    }
    draft
}

/// A network-LAN record as addresses match it: its id and its addresses' sort keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed<'a> {
    pub id: i64,
    pub ipv4_key: Option<&'a str>,
    pub ipv6_key: Option<&'a str>,
}

/// The network-LAN record a connection's addresses name (as sort keys of its host
/// addresses): every address the connection has must be listed on the same record. Of
/// several, the oldest. A connection without addresses names none.
pub fn record_for_addresses(
    ipv4_key: Option<&str>,
    ipv6_key: Option<&str>,
    candidates: &[Listed<'_>],
) -> Option<i64> {
    if ipv4_key.is_none() && ipv6_key.is_none() {
        return None;
    }
    candidates
        .iter()
        .filter(|c| ipv4_key.is_none_or(|k| c.ipv4_key == Some(k)))
        .filter(|c| ipv6_key.is_none_or(|k| c.ipv6_key == Some(k)))
        .map(|c| c.id)
        .min()
}

/// An exchange's prefixes as the reference shows them: `{"ipv6": […], "ipv4": […]}`, a key
/// only for a family that has some.
pub fn prefixes_by_family(prefixes: &[String]) -> Json {
    serde_json::to_value(crate::bodies::ExchangePrefixes::of(prefixes))
        .expect("two lists of strings serialise")
}

/// A value for an optional input (`null` for none).
pub fn optional_id(id: Option<i64>) -> Input {
    Input::Value(id.map_or(Value::Null, Value::Int))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn network(name: &str, irr: &str, v6: Option<i64>, v4: Option<i64>) -> Record {
        let mut values = vec![Value::Null; PDB_NETWORK.fields.len()];
        let mut set = |field: &str, v: Value| {
            values[PDB_NETWORK.index_of(field).unwrap()] = v;
        };
        set("asn", Value::Int(64500));
        set("name", Value::Text(name.into()));
        set("irr_as_set", Value::Text(irr.into()));
        set("info_prefixes6", v6.map_or(Value::Null, Value::Int));
        set("info_prefixes4", v4.map_or(Value::Null, Value::Int));
        Record { id: 1, values }
    }

    fn system(flags: [bool; 4]) -> Record {
        let spec = &AUTONOMOUS_SYSTEM;
        let mut values = vec![Value::Null; spec.fields.len()];
        let mut set = |field: &str, v: Value| values[spec.index_of(field).unwrap()] = v;
        set("asn", Value::Int(64500));
        set("name", Value::Text("Old".into()));
        set("irr_as_set", Value::Text("AS-OLD".into()));
        set("ipv6_max_prefixes", Value::Int(1));
        set("ipv4_max_prefixes", Value::Int(2));
        for ((_, flag, _), on) in SYNCHRONISED.iter().zip(flags) {
            set(flag, Value::Bool(on));
        }
        Record { id: 7, values }
    }

    fn changed_fields(draft: &Draft) -> Vec<&'static str> {
        AUTONOMOUS_SYSTEM
            .fields
            .iter()
            .zip(&draft.inputs)
            .filter(|(_, i)| i.is_some())
            .map(|(f, _)| f.name)
            .collect()
    }

    #[test]
    fn a_synchronisation_copies_only_flagged_fields_that_differ() {
        let net = network("New", "AS-NEW", Some(10), None);
        let all = autonomous_system_update(&system([true; 4]), &net).unwrap();
        assert_eq!(
            changed_fields(&all),
            [
                "name",
                "irr_as_set",
                "ipv6_max_prefixes",
                "ipv4_max_prefixes"
            ]
        );
        let some = autonomous_system_update(&system([false, true, false, true]), &net).unwrap();
        assert_eq!(changed_fields(&some), ["irr_as_set", "ipv4_max_prefixes"]);
        assert!(autonomous_system_update(&system([false; 4]), &net).is_none());
        let same = network("Old", "AS-OLD", Some(1), Some(2));
        assert!(autonomous_system_update(&system([true; 4]), &same).is_none());
    }

    #[test]
    fn private_numbers_are_the_references() {
        for asn in [
            0,
            23456,
            64512,
            65535,
            65551,
            131071,
            4_200_000_000,
            4_294_967_295,
        ] {
            assert!(is_private_asn(asn), "{asn}");
        }
        for asn in [1, 13335, 64495, 131072, 4_199_999_999] {
            assert!(!is_private_asn(asn), "{asn}");
        }
    }

    #[test]
    fn a_connection_names_the_record_listing_all_its_addresses() {
        let listed = [
            Listed {
                id: 3,
                ipv4_key: Some("4a"),
                ipv6_key: Some("6a"),
            },
            Listed {
                id: 2,
                ipv4_key: Some("4b"),
                ipv6_key: None,
            },
        ];
        assert_eq!(
            record_for_addresses(Some("4a"), Some("6a"), &listed),
            Some(3)
        );
        assert_eq!(record_for_addresses(Some("4a"), None, &listed), Some(3));
        assert_eq!(record_for_addresses(None, Some("6a"), &listed), Some(3));
        assert_eq!(record_for_addresses(Some("4a"), Some("6x"), &listed), None);
        assert_eq!(record_for_addresses(Some("4b"), None, &listed), Some(2));
        assert_eq!(record_for_addresses(None, None, &listed), None);
    }

    #[test]
    fn prefixes_show_only_families_that_have_some() {
        let both = prefixes_by_family(&["192.0.2.0/24".into(), "2001:db8::/64".into()]);
        assert_eq!(
            both,
            json!({"ipv6": ["2001:db8::/64"], "ipv4": ["192.0.2.0/24"]})
        );
        assert_eq!(prefixes_by_family(&[]), json!({}));
        assert_eq!(
            prefixes_by_family(&["192.0.2.0/24".into()]),
            json!({"ipv4": ["192.0.2.0/24"]})
        );
    }
}
