//! The two spellings of the fields that name the external peering database: the spec's
//! (`irr_as_set_extdb_sync`, `exists_in_extdb`, `extdb_ixlan`, …) and the reference's
//! (`irr_as_set_peeringdb_sync`, `exists_in_peeringdb`, `peeringdb_ixlan`, …). Writes and
//! filters take either; answers use the one chosen (`FieldNames`).

use std::borrow::Cow;

/// Which spelling answers use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FieldNames {
    /// The spec's names (`*_extdb_*`).
    #[default]
    Spec,
    /// The reference's names (`*_peeringdb_*`).
    PeeringDb,
}

impl FieldNames {
    /// A field's name in this spelling.
    pub fn of(self, name: &'static str) -> Cow<'static, str> {
        match self {
            FieldNames::Spec => name.into(),
            FieldNames::PeeringDb => to_reference(name),
        }
    }
}

/// The spec's name for a name the reference used (other names as they are).
pub fn from_reference(key: &str) -> Cow<'_, str> {
    if let Some(stem) = key.strip_suffix("_peeringdb_sync") {
        return format!("{stem}_extdb_sync").into();
    }
    match key {
        "exists_in_peeringdb" => "exists_in_extdb".into(),
        "peeringdb_netixlan" => "extdb_netixlan".into(),
        "peeringdb_ixlan" => "extdb_ixlan".into(),
        "peeringdb_network" => "extdb_network".into(),
        "peeringdb_prefixes" => "extdb_prefixes".into(),
        _ => key.into(),
    }
}

/// The reference's name for one of the spec's (other names as they are).
pub fn to_reference(name: &'static str) -> Cow<'static, str> {
    if let Some(stem) = name.strip_suffix("_extdb_sync") {
        return format!("{stem}_peeringdb_sync").into();
    }
    match name {
        "exists_in_extdb" => "exists_in_peeringdb".into(),
        "extdb_netixlan" => "peeringdb_netixlan".into(),
        "extdb_ixlan" => "peeringdb_ixlan".into(),
        "extdb_network" => "peeringdb_network".into(),
        "extdb_prefixes" => "peeringdb_prefixes".into(),
        _ => name.into(),
    }
}

/// A filter parameter in the spec's spelling (`exists_in_peeringdb__n` →
/// `exists_in_extdb__n`).
pub fn filter_from_reference(param: &str) -> Cow<'_, str> {
    let (base, lookup) = match param.split_once("__") {
        Some((base, lookup)) => (base, Some(lookup)),
        None => (param, None),
    };
    let spec = from_reference(base);
    match lookup {
        _ if spec == base => param.into(),
        None => spec.into_owned().into(),
        Some(lookup) => format!("{spec}__{lookup}").into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::ALL;

    #[test]
    fn both_spellings_name_the_same_fields() {
        let mut renamed = 0;
        for spec in ALL {
            for field in spec.fields {
                let reference = to_reference(field.name);
                assert_eq!(from_reference(&reference), field.name);
                renamed += usize::from(reference != field.name);
            }
        }
        // An autonomous system's four flags, a session's, a connection's, an exchange's two,
        // a hidden peer's two.
        assert_eq!(renamed, 10);
        assert_eq!(
            filter_from_reference("exists_in_peeringdb__n"),
            "exists_in_extdb__n"
        );
        assert_eq!(filter_from_reference("peeringdb_ixlan"), "extdb_ixlan");
        assert_eq!(filter_from_reference("asn__gte"), "asn__gte");
    }
}
