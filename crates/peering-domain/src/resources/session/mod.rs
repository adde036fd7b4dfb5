//! BGP peering sessions (spec 2.5, reference 3.8 and 3.10): the fields both kinds share
//! and their password encryption; each kind in its own module.

mod direct;
mod exchange;

pub use direct::DIRECT_PEERING_SESSION;
pub use exchange::INTERNET_EXCHANGE_PEERING_SESSION;

use super::autonomous_system::AUTONOMOUS_SYSTEM;
use super::bfd::BFD;
use super::common::{
    communities, policies, ASSIGNED_CONTEXTS, COMMENTS, CREATED, LOCAL_CONTEXT_DATA,
    MERGED_CONTEXT, TAGS, UPDATED,
};
use super::connection::CONNECTION;
use super::devices::{PLATFORM, ROUTER};
use super::internet_exchange::INTERNET_EXCHANGE;
use crate::choices::{BGP_SESSION_STATUS, BGP_STATE};
use crate::errors::FieldErrors;
use crate::password::{self, Algorithm};
use crate::record::Record;
use crate::spec::{
    kinds, ChoiceRender, Computed, Default, ExtraFilter, Field, FilterSource, Kind, OnDelete,
    RelatedLookup, ResourceSpec, Search,
};
use crate::value::Value;

pub(super) fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

pub(super) fn connection() -> &'static ResourceSpec {
    &CONNECTION
}

pub(super) const PREFIX_COUNT: Kind = kinds::int(0, 4_294_967_295);

pub(super) const SERVICE_REFERENCE: Field =
    Field::new("service_reference", "Service reference", kinds::text(255))
        .nullable()
        .unique()
        .default(Default::Null)
        .filter();
pub(super) const STATUS: Field = Field::new("status", "Status", kinds::status(&BGP_SESSION_STATUS))
    .default(Default::Text("enabled"))
    .filter();
pub(super) const PASSWORD: Field = Field::new("password", "Password", kinds::plain_text(255))
    .nullable()
    .secret()
    .default(Default::Null);
pub(super) const ENCRYPTED_PASSWORD: Field = Field::new(
    "encrypted_password",
    "Encrypted password",
    kinds::plain_text(255),
)
.nullable()
.secret()
.default(Default::Null);
pub(super) const MULTIHOP_TTL: Field =
    Field::new("multihop_ttl", "Multihop TTL", kinds::int(1, 255))
        .default(Default::Int(1))
        .filter();
pub(super) const PASSIVE: Field = Field::new("passive", "Passive", Kind::Bool)
    .default(Default::Bool(false))
    .filter();
fn bfd() -> &'static ResourceSpec {
    &BFD
}

/// The session's BFD configuration (the reference's 1.9 field).
pub(super) const BFD_FIELD: Field = Field::new("bfd", "BFD", kinds::fk(bfd, OnDelete::SetNull))
    .nullable()
    .default(Default::Null)
    .filter();

pub(super) const BGP_STATE_FIELD: Field = Field::new(
    "bgp_state",
    "BGP state",
    Kind::Choice {
        set: &BGP_STATE,
        render: ChoiceRender::Raw,
    },
)
.nullable()
.default(Default::Null)
.filter();
pub(super) const RECEIVED: Field =
    Field::new("received_prefix_count", "Received prefixes", PREFIX_COUNT).default(Default::Int(0));
pub(super) const ACCEPTED: Field =
    Field::new("accepted_prefix_count", "Accepted prefixes", PREFIX_COUNT).default(Default::Int(0));
pub(super) const ADVERTISED: Field = Field::new(
    "advertised_prefix_count",
    "Advertised prefixes",
    PREFIX_COUNT,
)
.default(Default::Int(0));
pub(super) const LAST_ESTABLISHED: Field = Field::new(
    "last_established_state",
    "Last established state",
    Kind::Time,
)
.nullable()
.default(Default::Null);

/// Encrypts the password, as the reference does, when the session's router encrypts
/// passwords and its platform has an algorithm; an unchanged password keeps its encoding.
pub(super) fn encrypt_password(
    spec: &ResourceSpec,
    r: &mut Record,
    router: Option<&Record>,
    related: &dyn RelatedLookup,
) {
    let Some(router) = router else {
        return;
    };
    if router.get(&ROUTER, "encrypt_passwords").as_bool() != Some(true) {
        return;
    }
    let algorithm = router
        .follow(&ROUTER, "platform", related)
        .and_then(|p| Algorithm::from_choice(p.text(&PLATFORM, "password_algorithm")));
    let Some(algorithm) = algorithm else {
        return;
    };
    let Some(index) = spec.index_of("encrypted_password") else {
        return;
    };
    let plain = r.text(spec, "password").to_string();
    let current = r.text(spec, "encrypted_password");
    let encrypted = if plain.is_empty() {
        String::new()
    } else if password::decrypt(algorithm, current).as_deref() == Some(plain.as_str()) {
        current.to_string()
    } else {
        password::encrypt(algorithm, &plain)
    };
    r.values[index] = Value::Text(encrypted);
}
