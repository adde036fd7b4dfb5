//! Data derived once per registered resource (filter catalogs, table layouts, the tables an
//! answer reads), found by the resource's address in constant time.

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

use super::ALL;
use crate::spec::ResourceSpec;

/// The position of `spec` in [`ALL`]: by address, or by table for a copy of a declaration.
pub fn position(spec: &ResourceSpec) -> Option<usize> {
    static POSITIONS: OnceLock<FxHashMap<usize, usize>> = OnceLock::new();
    let positions = POSITIONS.get_or_init(|| {
        ALL.iter()
            .enumerate()
            .map(|(i, s)| (address(s), i))
            .collect()
    });
    (positions.get(&address(spec)).copied())
        .or_else(|| ALL.iter().position(|s| s.table == spec.table))
}

fn address(spec: &ResourceSpec) -> usize {
    std::ptr::from_ref(spec) as usize
}

/// A value derived from each resource of [`ALL`] by `derive`, on first use.
pub struct PerResource<T> {
    values: OnceLock<Vec<T>>,
    derive: fn(&'static ResourceSpec) -> T,
}

impl<T> PerResource<T> {
    pub const fn new(derive: fn(&'static ResourceSpec) -> T) -> Self {
        PerResource {
            values: OnceLock::new(),
            derive,
        }
    }

    /// The value of `spec`; `None` for a resource not registered in [`ALL`].
    pub fn get(&self, spec: &ResourceSpec) -> Option<&T> {
        let values = (self.values).get_or_init(|| ALL.iter().map(|s| (self.derive)(s)).collect());
        position(spec).map(|i| &values[i])
    }
}

/// [`ResourceSpec::tables_read`] of a registered resource, worked out once (one slice per
/// resource, which caches may tell apart by address).
pub fn tables_read(spec: &ResourceSpec) -> Option<&'static [&'static str]> {
    static READ: PerResource<Vec<&'static str>> = PerResource::new(ResourceSpec::tables_read);
    READ.get(spec).map(Vec::as_slice)
}

/// [`ResourceSpec::tables_beside_rows`] of a registered resource, worked out once.
pub fn tables_beside_rows(spec: &ResourceSpec) -> Option<&'static [&'static str]> {
    static BESIDE: PerResource<Vec<&'static str>> =
        PerResource::new(ResourceSpec::tables_beside_rows);
    BESIDE.get(spec).map(Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_resource_is_found_and_a_copy_by_its_table() {
        for (i, spec) in ALL.iter().enumerate() {
            assert_eq!(position(spec), Some(i), "{}", spec.path);
        }
        let copy = ResourceSpec {
            ..super::super::AUTONOMOUS_SYSTEM
        };
        assert_eq!(position(&copy), Some(0));
        let unknown = ResourceSpec {
            table: "nowhere",
            ..super::super::AUTONOMOUS_SYSTEM
        };
        assert_eq!(position(&unknown), None);
    }

    #[test]
    fn values_are_derived_per_resource() {
        static PATHS: PerResource<&str> = PerResource::new(|spec| spec.path);
        for spec in ALL {
            assert_eq!(PATHS.get(spec), Some(&spec.path));
        }
    }
}
