//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A hidden peer, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbHiddenPeer {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// PeeringDB network
    #[serde(alias = "peeringdb_network")]
    pub extdb_network: Option<NestedPdbNetwork>,
    /// PeeringDB IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    pub extdb_ixlan: Option<NestedPdbIXLan>,
    /// Leave empty to hide for good
    pub until: Option<Timestamp>,
    /// Comments
    pub comments: String,
    /// Expired
    pub is_expired: bool,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a hidden peer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbHiddenPeer {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub extdb_network: Option<NestedPdbNetwork>,
    pub extdb_ixlan: Option<NestedPdbIXLan>,
    pub until: Option<Timestamp>,
}

/// The brief form, which is the nested form.
pub type BriefPdbHiddenPeer = NestedPdbHiddenPeer;

/// The filters of hidden peer lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbHiddenPeerFilters {
    pub id: NumberFilter,
    pub extdb_network_id: RelationFilter,
    pub extdb_ixlan_id: RelationFilter,
    pub until: TimeFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub peeringdb_network_id: RelationFilter,
    pub peeringdb_network_asn: RelationFilter,
    pub peeringdb_ixlan_id: RelationFilter,
    pub is_expired: BoolFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl PdbHiddenPeerFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        extdb_network_id: RelationFilter("extdb_network_id"),
        extdb_ixlan_id: RelationFilter("extdb_ixlan_id"),
        until: TimeFilter("until"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        peeringdb_network_id: RelationFilter("peeringdb_network_id"),
        peeringdb_network_asn: RelationFilter("peeringdb_network_asn"),
        peeringdb_ixlan_id: RelationFilter("peeringdb_ixlan_id"),
        is_expired: BoolFilter("is_expired"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for PdbHiddenPeer {
    type Brief = BriefPdbHiddenPeer;
    type Filters = PdbHiddenPeerFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[42]
    }
    fn filters() -> PdbHiddenPeerFilters {
        PdbHiddenPeerFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a hidden peer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WritablePdbHiddenPeer {
    /// PeeringDB network
    #[serde(alias = "peeringdb_network")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extdb_network: Option<i64>,
    /// PeeringDB IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extdb_ixlan: Option<i64>,
    /// Leave empty to hide for good
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Timestamp>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
}

impl WritablePdbHiddenPeer {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new() -> Self {
        Self {
            extdb_network: None,
            extdb_ixlan: None,
            until: None,
            comments: None,
        }
    }
}

impl Writable for WritablePdbHiddenPeer {
    fn spec() -> &'static ResourceSpec {
        ALL[42]
    }
}

/// The body of a partial update of a hidden peer: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchPdbHiddenPeer {
    /// PeeringDB network
    #[serde(alias = "peeringdb_network")]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub extdb_network: Option<Option<i64>>,
    /// PeeringDB IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub extdb_ixlan: Option<Option<i64>>,
    /// Leave empty to hide for good
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub until: Option<Option<Timestamp>>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
}

impl Editable for PdbHiddenPeer {
    type Writable = WritablePdbHiddenPeer;
    type Patch = PatchPdbHiddenPeer;
}
