//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange LAN, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbIXLan {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Description
    pub descr: String,
    /// MTU
    pub mtu: Option<i64>,
    /// VLAN
    pub vlan: Option<i64>,
    /// 802.1Q support
    pub dot1q_support: bool,
    /// Route server ASN
    pub rs_asn: Option<i64>,
    /// ARP sponging MAC
    pub arp_sponge: Option<String>,
    /// IX-F member export URL
    pub ixf_ixp_member_list_url: Option<String>,
    /// IX-F member export URL visibility
    pub ixf_ixp_member_list_url_visible: String,
    /// Internet Exchange
    pub ix: NestedPdbInternetExchange,
}

/// The form nested in other objects of an Internet Exchange LAN.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbIXLan {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub ix: NestedPdbInternetExchange,
}

/// The filters of Internet Exchange LAN lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbIXLanFilters {
    pub id: NumberFilter,
    pub vlan: NumberFilter,
    pub rs_asn: NumberFilter,
    pub ix_id: RelationFilter,
}

impl PdbIXLanFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        vlan: NumberFilter("vlan"),
        rs_asn: NumberFilter("rs_asn"),
        ix_id: RelationFilter("ix_id"),
    };
}

impl Model for PdbIXLan {
    type Brief = PdbIXLan;
    type Filters = PdbIXLanFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[35]
    }
    fn filters() -> PdbIXLanFilters {
        PdbIXLanFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
