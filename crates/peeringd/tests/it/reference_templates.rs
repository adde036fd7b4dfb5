//! Templates written for the reference's 1.10 (its `*_peeringdb_*` names, `now()` and the
//! filters it added) render over HTTP as the same templates with our names, whichever
//! spelling the API answers with, on both databases.

use crate::common::network::{network, one, ROUTERS};
use crate::common::TestServer;
use peering_domain::names::FieldNames;
use serde_json::json;

/// A configuration written for the reference.
const WRITTEN_FOR_THE_REFERENCE: &str = r#"# generated {{ now('%Y')|length }} {{ now(format='%Y-%m-%d', timezone='Europe/Paris')|length }} {{ now()[-1] }}
{% for ixp in internet_exchange_points -%}
ixp {{ ixp.slug }} ixlan={{ ixp.peeringdb_ixlan }} v4={{ ixp.peeringdb_prefixes.ipv4|join(',') }}
{% for s in ixp|sessions -%}
  neighbor {{ s|ip }} as {{ s.autonomous_system.asn }} in_pdb={{ s.exists_in_peeringdb }} sync={{ s.autonomous_system.irr_as_set_peeringdb_sync }} sets={{ s.autonomous_system|strip_irr_sources|join(',') }}
{% endfor %}
{%- endfor %}
{% for c in router|connections %}connection {{ c.vlan }} netixlan={{ c.peeringdb_netixlan }}
{% endfor -%}
synced: {{ autonomous_systems|filter(irr_as_set_peeringdb_sync=True)|iterate('asn')|join(',') }}
not in pdb: {{ router|ixp_sessions|rejectattr('exists_in_peeringdb')|map(attribute='ip_address')|join(',') }}
bfd: {% for b in router|bfds %}{{ b.slug }}/{{ b.detection_multiplier }} {% endfor %}
policies: {{ router|routing_policies('slug', family=6)|join(' ') }}
relationships: {% for a in autonomous_systems %}{{ a.asn }}={{ a|relationships(local_as)|iterate('slug')|join(',') }} {% endfor %}
as_list: {{ local_as|as_list|length }}
password: {{ (router|direct_sessions|first).password|arista_password }}
"#;

/// The reference's names of the external database's fields, and ours.
const RENAMED: &[(&str, &str)] = &[
    ("peeringdb_ixlan", "extdb_ixlan"),
    ("peeringdb_prefixes", "extdb_prefixes"),
    ("peeringdb_netixlan", "extdb_netixlan"),
    ("exists_in_peeringdb", "exists_in_extdb"),
    ("irr_as_set_peeringdb_sync", "irr_as_set_extdb_sync"),
];

fn with_our_names() -> String {
    RENAMED.iter().fold(
        WRITTEN_FOR_THE_REFERENCE.to_string(),
        |text, (theirs, ours)| text.replace(theirs, ours),
    )
}

/// The configuration of the router `router` rendered from a template stored as `name`.
fn rendered(s: &TestServer, router: i64, name: &str, source: &str) -> String {
    let template = one(
        s,
        "/api/devices/configurations/",
        json!({"name": name, "template": source}),
    );
    s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"configuration_template": template}),
    );
    let r = s.get(&format!("{ROUTERS}{router}/configuration/?format=text"));
    assert_eq!(r.status, 200, "{name}: {}", r.text);
    r.text
}

/// The templates' network, with what the 1.10 filters and the renamed fields read.
fn prepared(s: &TestServer) -> i64 {
    let n = network(s);
    let exchange = s
        .get("/api/peering/internet-exchanges/?slug=example-ix")
        .json()["results"][0]["id"]
        .as_i64()
        .expect("the exchange");
    s.patch(
        &format!("/api/peering/internet-exchanges/{exchange}/"),
        json!({"peeringdb_ixlan": 42}),
    );
    s.patch(
        &format!("/api/peering/autonomous-systems/{}/", n.peer),
        json!({"irr_as_set": "RIPE::AS-PEERONE RADB:AS-PEERONE,AS-OTHER", "irr_as_set_peeringdb_sync": false}),
    );
    let bfd = one(
        s,
        "/api/net/bfd/",
        json!({"name": "Fast", "slug": "fast", "detection_multiplier": 4}),
    );
    let sessions = s.get("/api/peering/direct-peering-sessions/").json();
    let session = sessions["results"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["router"]["id"].as_i64() == Some(n.junos))
        .and_then(|d| d["id"].as_i64())
        .expect("a direct session on the router");
    s.patch(
        &format!("/api/peering/direct-peering-sessions/{session}/"),
        json!({"bfd": bfd}),
    );
    n.junos
}

#[test]
fn templates_written_for_the_reference_render_as_with_our_names() {
    for names in [FieldNames::Spec, FieldNames::PeeringDb] {
        let s = TestServer::start_with(peering_api::Settings {
            field_names: names,
            ..Default::default()
        });
        let router = prepared(&s);
        let theirs = rendered(&s, router, "reference", WRITTEN_FOR_THE_REFERENCE);
        let ours = rendered(&s, router, "ours", &with_our_names());
        assert_eq!(theirs, ours, "{names:?}");
        // Every name resolved: none rendered as the empty text of an unknown one.
        for expected in [
            "# generated 4 10 Z\n",
            "ixp example-ix ixlan=42 v4=\n",
            "neighbor 192.0.2.10 as 65001 in_pdb=False sync=False sets=AS-PEERONE,AS-OTHER\n",
            "neighbor 192.0.2.20 as 65002 in_pdb=False sync=True sets=AS65002\n",
            "connection 100 netixlan=None\n",
            "synced: 65002\n",
            "not in pdb: 192.0.2.10,2001:db8::10,192.0.2.20\n",
            "bfd: fast/4 \n",
            "policies: accept-all export-own reject-v6-bogons\n",
            "relationships: 65001=transit-provider 65002=transit-provider \n",
            "as_list: 0\n",
        ] {
            assert!(theirs.contains(expected), "{expected:?} in\n{theirs}");
        }
        // Jinja2 drops the template's last newline.
        assert!(theirs.ends_with("\npassword: 0822455D0A16"), "{theirs}");
    }
}
