//! The local copy of PeeringDB (reference 3.23): organisations, campuses, facilities,
//! exchanges and their LANs, networks and where they are, read through the API and written
//! only by a synchronisation. Fields keep PeeringDB's own names; what the reference stores
//! without showing is kept as hidden fields, so a later release can show it without a
//! new synchronisation.

mod exchanges;
mod hidden;
mod networks;
mod places;

pub use exchanges::{PDB_INTERNET_EXCHANGE, PDB_IXLAN, PDB_IXLAN_PREFIX, PDB_IX_FACILITY};
pub use hidden::PDB_HIDDEN_PEER;
pub use networks::{PDB_NETWORK, PDB_NETWORK_CONTACT, PDB_NETWORK_FACILITY, PDB_NETWORK_IXLAN};
pub use places::{PDB_CAMPUS, PDB_FACILITY, PDB_ORGANIZATION, PDB_SYNCHRONISATION};

use super::common::display_name;
use crate::spec::{kinds, Default, Field, Kind, OnDelete, ResourceSpec, TextFormat, Writes};

/// What every resource of the copy shares: read-only, not change-logged, in id order
/// (the reference's models have no ordering of their own), without a brief form (the
/// reference's plain viewsets ignore `brief`).
const COPY: ResourceSpec = ResourceSpec {
    app: "peeringdb",
    ordering: &["id"],
    display: display_name,
    change_logged: false,
    writes: Writes::None,
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

/// Text PeeringDB may leave blank (stored as `""`, as the reference does).
const fn text(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::plain_text(255)).default(Default::Text(""))
}

/// Long free text.
const fn notes(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::LONG_TEXT).default(Default::Text(""))
}

/// Text that may be null.
const fn optional_text(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::plain_text(255))
        .nullable()
        .default(Default::Null)
}

/// A name, filtered and searched case-insensitively.
const NAME: Field = Field::new("name", "Name", kinds::text(255))
    .default(Default::Text(""))
    .filter();

const fn flag(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, Kind::Bool).default(Default::Bool(false))
}

const fn count(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::int(0, i64::MAX))
        .nullable()
        .default(Default::Null)
}

const fn time(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, Kind::Time)
        .nullable()
        .default(Default::Null)
}

/// An AS number (PeeringDB's `asn`, `local_asn`, `rs_asn`).
const fn asn(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::int(0, 4_294_967_295))
}

/// A decimal coordinate, kept as the reference shows it: text with six decimals.
const fn coordinate(name: &'static str, label: &'static str) -> Field {
    Field::new(
        name,
        label,
        Kind::Text {
            max_len: None,
            ci: false,
            format: TextFormat::Plain,
        },
    )
    .nullable()
    .default(Default::Null)
}

/// A JSON document (social media, multiple choices).
const fn document(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::JSON)
        .nullable()
        .default(Default::Null)
}

/// A foreign key to another object of the copy, deleted with it.
const fn parent(
    name: &'static str,
    label: &'static str,
    target: fn() -> &'static ResourceSpec,
) -> Field {
    Field::new(name, label, kinds::fk(target, OnDelete::Cascade))
        .required()
        .filter()
}

/// The fields of a resource: the postal address PeeringDB keeps for organisations and
/// facilities, then the given ones.
macro_rules! with_address {
    ($($field:expr),* $(,)?) => {
        &[
            text("address1", "Address 1"),
            text("address2", "Address 2"),
            text("city", "City"),
            text("state", "State"),
            text("zipcode", "Zip code"),
            text("country", "Country"),
            coordinate("latitude", "Latitude"),
            coordinate("longitude", "Longitude"),
            text("suite", "Suite"),
            text("floor", "Floor"),
            $($field),*
        ]
    };
}
use with_address;

fn organization() -> &'static ResourceSpec {
    &PDB_ORGANIZATION
}

fn campus() -> &'static ResourceSpec {
    &PDB_CAMPUS
}

fn facility() -> &'static ResourceSpec {
    &PDB_FACILITY
}

fn internet_exchange() -> &'static ResourceSpec {
    &PDB_INTERNET_EXCHANGE
}

fn ixlan() -> &'static ResourceSpec {
    &PDB_IXLAN
}

fn network() -> &'static ResourceSpec {
    &PDB_NETWORK
}

/// The copy's resources in the order a synchronisation writes them (parents first), with
/// the PeeringDB API's name for each.
pub static NAMESPACES: &[(&str, &ResourceSpec)] = &[
    ("org", &PDB_ORGANIZATION),
    ("campus", &PDB_CAMPUS),
    ("fac", &PDB_FACILITY),
    ("net", &PDB_NETWORK),
    ("ix", &PDB_INTERNET_EXCHANGE),
    ("ixfac", &PDB_IX_FACILITY),
    ("ixlan", &PDB_IXLAN),
    ("ixpfx", &PDB_IXLAN_PREFIX),
    ("netfac", &PDB_NETWORK_FACILITY),
    ("netixlan", &PDB_NETWORK_IXLAN),
    ("poc", &PDB_NETWORK_CONTACT),
];
