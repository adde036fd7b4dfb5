//! The objects every region shares: tags, communities, routing policies, BGP groups,
//! relationships, platforms, the configuration templates (the starting templates of
//! `templates/`), contact roles, e-mail templates and the local (affiliated) autonomous
//! system.

use std::collections::HashMap;

use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, COMMUNITY, CONFIGURATION, CONTACT_ROLE, PLATFORM, RELATIONSHIP,
    ROUTING_POLICY, TAG,
};
use serde_json::{json, Value as Json};

use super::writer::Writer;

/// Our AS number: public, as PeeringDB's networks are, in a block IANA has not allocated
/// (`network::peer_asn`), ending as RFC 5398's AS64500 does.
pub const LOCAL_ASN: u64 = 4_100_064_500;

/// Ids of the shared objects, by slug.
pub struct Fixtures {
    pub local_as: i64,
    policies: Ids,
    communities: Ids,
    pub groups: Ids,
    pub relationships: Ids,
    pub platforms: Ids,
    /// The starting configuration templates, by platform slug.
    pub configurations: Ids,
}

impl Fixtures {
    /// Ids of routing policies by slug, as a JSON list.
    pub fn policies(&self, slugs: &[&str]) -> Json {
        json!(slugs.iter().map(|s| self.policies[s]).collect::<Vec<_>>())
    }

    pub fn communities(&self, slugs: &[&str]) -> Json {
        json!(slugs
            .iter()
            .map(|s| self.communities[s])
            .collect::<Vec<_>>())
    }
}

/// Tags, referred to by slug (`{"slug": "gold"}`) as a client would.
pub fn tags(slugs: &[&str]) -> Json {
    json!(slugs
        .iter()
        .map(|s| json!({ "slug": s }))
        .collect::<Vec<_>>())
}

const TAGS: &[(&str, &str, &str, &str)] = &[
    (
        "Gold",
        "gold",
        "ffc107",
        "Largest networks: peer everywhere",
    ),
    ("Silver", "silver", "9e9e9e", "Large networks"),
    ("Bronze", "bronze", "795548", "Regional networks"),
    (
        "PNI candidate",
        "pni-candidate",
        "2196f3",
        "Traffic high enough for a private interconnect",
    ),
    (
        "Review",
        "review",
        "f44336",
        "Needs a look from the peering team",
    ),
];

/// (name, slug, value, type): ours are large communities (RFC 8092), as a 32-bit AS number
/// needs.
const COMMUNITIES: &[(&str, &str, &str, &str)] = &[
    (
        "From transit",
        "from-transit",
        "4100064500:1:1000",
        "ingress",
    ),
    ("From peer", "from-peer", "4100064500:1:2000", "ingress"),
    ("From IX", "from-ix", "4100064500:1:2100", "ingress"),
    ("From PNI", "from-pni", "4100064500:1:2200", "ingress"),
    (
        "From customer",
        "from-customer",
        "4100064500:1:3000",
        "ingress",
    ),
    ("Prepend once", "prepend-1", "4100064500:2:1", "egress"),
    ("Prepend twice", "prepend-2", "4100064500:2:2", "egress"),
    (
        "Prepend three times",
        "prepend-3",
        "4100064500:2:3",
        "egress",
    ),
    ("No export", "no-export", "65535:65281", "egress"),
    ("Blackhole", "blackhole", "65535:666", "ingress"),
];

/// (name, slug, type, weight, address family, communities)
type Policy = (
    &'static str,
    &'static str,
    &'static str,
    u32,
    &'static str,
    &'static [&'static str],
);

const POLICIES: &[Policy] = &[
    (
        "Reject bogons",
        "reject-bogons",
        "import-policy",
        1000,
        "0",
        &[],
    ),
    (
        "IRR filter",
        "irr-filter",
        "import-policy",
        500,
        "0",
        &["from-peer"],
    ),
    ("Accept all", "accept-all", "import-policy", 0, "0", &[]),
    (
        "Customer routes",
        "customer-routes",
        "import-policy",
        200,
        "0",
        &["from-customer"],
    ),
    (
        "Transit routes",
        "transit-routes",
        "import-policy",
        100,
        "0",
        &["from-transit"],
    ),
    (
        "Announce own IPv4",
        "announce-own-v4",
        "export-policy",
        100,
        "4",
        &[],
    ),
    (
        "Announce own IPv6",
        "announce-own-v6",
        "export-policy",
        100,
        "6",
        &[],
    ),
    (
        "Announce customers",
        "announce-customers",
        "export-policy",
        50,
        "0",
        &[],
    ),
    ("Full table", "full-table", "export-policy", 0, "0", &[]),
    (
        "Blackhole",
        "blackhole",
        "import-export-policy",
        2000,
        "0",
        &["blackhole"],
    ),
];

/// The starting templates of `templates/` (name, file, platform slug): each demo router
/// renders the one of its platform.
const CONFIGURATIONS: &[(&str, &str, &str)] = &[
    (
        "Junos starting template",
        include_str!("../../../../templates/junos.j2"),
        "junos",
    ),
    (
        "FRR starting template",
        include_str!("../../../../templates/frr.j2"),
        "frr",
    ),
    (
        "BIRD 2 starting template",
        include_str!("../../../../templates/bird2.j2"),
        "bird",
    ),
];

/// Ids by slug.
type Ids = HashMap<&'static str, i64>;

/// A BGP group: name, slug, import and export policies, community.
type Group = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
);

const GROUPS: &[Group] = &[
    (
        "Transit",
        "transit",
        &["reject-bogons", "transit-routes"],
        &["announce-own-v4", "announce-own-v6"],
        "from-transit",
    ),
    (
        "Customers",
        "customers",
        &["reject-bogons", "irr-filter", "customer-routes"],
        &["full-table"],
        "from-customer",
    ),
    (
        "Private peering",
        "private-peering",
        &["reject-bogons", "irr-filter"],
        &["announce-own-v4", "announce-own-v6", "announce-customers"],
        "from-pni",
    ),
];

/// The shared objects, each kind after those it refers to.
pub fn create(w: &mut Writer) -> Result<Fixtures, String> {
    w.create(
        &TAG,
        TAGS.iter().map(|(name, slug, color, description)| {
            json!({"name": name, "slug": slug, "color": color, "description": description})
        }),
    )?;
    let ids = w.create(
        &COMMUNITY,
        COMMUNITIES.iter().map(|(name, slug, value, kind)| {
            json!({"name": name, "slug": slug, "value": value, "type": kind})
        }),
    )?;
    let mut fixtures = Fixtures {
        local_as: 0,
        policies: HashMap::new(),
        communities: COMMUNITIES.iter().map(|c| c.1).zip(ids).collect(),
        groups: HashMap::new(),
        relationships: HashMap::new(),
        platforms: HashMap::new(),
        configurations: HashMap::new(),
    };
    fixtures.policies = policies(w, &fixtures)?;
    fixtures.relationships = relationships(w)?;
    fixtures.groups = groups(w, &fixtures)?;
    fixtures.platforms = platforms(w)?;
    fixtures.configurations = configurations(w)?;
    w.create(
        &CONTACT_ROLE,
        [("NOC", "noc"), ("Peering", "peering"), ("Abuse", "abuse")]
            .map(|(name, slug)| json!({"name": name, "slug": slug})),
    )?;
    super::messages::emails(w)?;
    fixtures.local_as = local_as(w, &fixtures)?;
    Ok(fixtures)
}

fn policies(w: &mut Writer, fixtures: &Fixtures) -> Result<Ids, String> {
    let bodies: Vec<Json> = POLICIES
        .iter()
        .map(|(name, slug, kind, weight, family, communities)| {
            json!({"name": name, "slug": slug, "type": kind, "weight": weight,
                   "address_family": family, "communities": fixtures.communities(communities)})
        })
        .collect();
    let ids = w.create(&ROUTING_POLICY, bodies)?;
    Ok(POLICIES.iter().map(|p| p.1).zip(ids).collect())
}

/// The starting templates, rendered with Jinja2's `trim_blocks` and `lstrip_blocks` as
/// they are written for.
fn configurations(w: &mut Writer) -> Result<Ids, String> {
    let ids = w.create(
        &CONFIGURATION,
        CONFIGURATIONS.iter().map(|(name, template, platform)| {
            json!({"name": name, "template": template, "jinja2_trim": true, "jinja2_lstrip": true,
                   "description": format!("peeringd's starting template for {platform} routers")})
        }),
    )?;
    Ok(CONFIGURATIONS.iter().map(|c| c.2).zip(ids).collect())
}

fn relationships(w: &mut Writer) -> Result<Ids, String> {
    let ids = w.create(
        &RELATIONSHIP,
        [
            ("Transit", "transit", "f44336"),
            ("Peering", "peering", "4caf50"),
            ("Customer", "customer", "2196f3"),
        ]
        .map(|(name, slug, color)| json!({"name": name, "slug": slug, "color": color})),
    )?;
    Ok(["transit", "peering", "customer"]
        .into_iter()
        .zip(ids)
        .collect())
}

fn groups(w: &mut Writer, fixtures: &Fixtures) -> Result<Ids, String> {
    let bodies: Vec<Json> = GROUPS
        .iter()
        .map(|(name, slug, import, export, community)| {
            json!({"name": name, "slug": slug,
                   "import_routing_policies": fixtures.policies(import),
                   "export_routing_policies": fixtures.policies(export),
                   "communities": fixtures.communities(&[community])})
        })
        .collect();
    let ids = w.create(&BGP_GROUP, bodies)?;
    Ok(GROUPS.iter().map(|g| g.1).zip(ids).collect())
}

fn platforms(w: &mut Writer) -> Result<Ids, String> {
    let ids = w.create(
        &PLATFORM,
        [
            json!({"name": "Juniper Junos", "slug": "junos", "password_algorithm": "juniper-type9",
                   "napalm_driver": "junos"}),
            json!({"name": "Cisco IOS", "slug": "ios", "password_algorithm": "cisco-type7",
                   "napalm_driver": "ios"}),
            json!({"name": "FRRouting", "slug": "frr"}),
            json!({"name": "BIRD", "slug": "bird"}),
        ],
    )?;
    Ok(["junos", "ios", "frr", "bird"]
        .into_iter()
        .zip(ids)
        .collect())
}

/// The network these data are seen from.
fn local_as(w: &mut Writer, fixtures: &Fixtures) -> Result<i64, String> {
    let own = fixtures.policies(&["announce-own-v4", "announce-own-v6"]);
    w.create_one(
        &AUTONOMOUS_SYSTEM,
        json!({"asn": LOCAL_ASN, "name": "Demo Network", "affiliated": true,
               "irr_as_set": "AS-DEMO", "ipv4_max_prefixes": 50, "ipv6_max_prefixes": 20,
               "comments": "The network these demo data are seen from.",
               "export_routing_policies": own}),
    )
}
