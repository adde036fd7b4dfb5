//! Every declared resource through the generic machinery: create one and several, list,
//! brief, detail, update one and several, filter, OPTIONS, delete one and several, and the
//! change records of it all; then the rules particular to some resources.

use crate::common::builders::{self, autonomous_system, tag};
use crate::common::{column, field_names, TestServer, AS};
use serde_json::{json, Value as Json};

/// One resource's walk through the API.
struct Case {
    path: &'static str,
    content_type: &'static str,
    /// Three valid bodies (dependencies created first with `s`).
    bodies: fn(&TestServer) -> [Json; 3],
    brief: &'static [&'static str],
    update: fn() -> Json,
    /// A filter and how many of the three objects it matches.
    filter: (&'static str, usize),
}

fn platform(s: &TestServer) -> i64 {
    s.create(
        "/api/devices/platforms/",
        json!({"name": "JunOS", "slug": "junos", "password_algorithm": "juniper-type9"}),
    )["id"]
        .as_i64()
        .unwrap()
}

fn local_as(s: &TestServer) -> i64 {
    autonomous_system(64500, "Local")
        .with("affiliated", true)
        .id(s)
        .as_i64()
        .unwrap()
}

fn exchange(s: &TestServer) -> i64 {
    let a = local_as(s);
    builders::exchange("IX", "ix", &json!(a))
        .id(s)
        .as_i64()
        .unwrap()
}

const CASES: &[Case] = &[
    Case {
        path: "/api/extras/tags/",
        content_type: "extras.tag",
        bodies: |_| {
            [
                json!({"name": "Gold", "slug": "gold", "color": "ffd700"}),
                json!({"name": "Silver", "slug": "silver"}),
                json!({"name": "Bronze", "slug": "bronze", "description": "Third"}),
            ]
        },
        brief: &["id", "url", "name", "slug", "color"],
        update: || json!({"description": "Shiny"}),
        filter: ("color=ffd700", 1),
    },
    Case {
        path: "/api/peering/bgp-groups/",
        content_type: "peering.bgpgroup",
        bodies: |_| {
            [
                json!({"name": "Transit", "slug": "transit"}),
                json!({"name": "Peers", "slug": "peers", "status": "maintenance"}),
                json!({"name": "Customers", "slug": "customers", "status": "disabled"}),
            ]
        },
        brief: &["id", "url", "display", "name", "slug", "status"],
        update: || json!({"description": "Updated"}),
        filter: ("status=maintenance&status=disabled", 2),
    },
    Case {
        path: "/api/bgp/relationships/",
        content_type: "bgp.relationship",
        bodies: |_| {
            [
                json!({"name": "Transit", "slug": "transit", "color": "f44336"}),
                json!({"name": "Peer", "slug": "peer", "color": "4caf50"}),
                json!({"name": "Customer", "slug": "customer"}),
            ]
        },
        brief: &["id", "url", "display", "name", "slug"],
        update: || json!({"description": "Foo"}),
        filter: ("name__isw=c", 1),
    },
    Case {
        path: "/api/devices/platforms/",
        content_type: "devices.platform",
        bodies: |_| {
            [
                json!({"name": "IOS", "slug": "ios", "password_algorithm": "cisco-type7"}),
                json!({"name": "JunOS", "slug": "junos", "password_algorithm": "juniper-type9", "napalm_driver": "junos"}),
                json!({"name": "Other", "slug": "other", "napalm_args": {"port": 830}}),
            ]
        },
        brief: &["id", "url", "display", "name", "slug"],
        update: || json!({"description": "Updated"}),
        filter: (
            "password_algorithm=cisco-type7&password_algorithm=juniper-type9",
            2,
        ),
    },
    Case {
        path: "/api/devices/configurations/",
        content_type: "devices.configuration",
        bodies: |_| {
            [
                json!({"name": "Edge", "template": "{{ router.hostname }}"}),
                json!({"name": "Core", "template": "hostname core", "jinja2_trim": true}),
                json!({"name": "Lab", "template": "lab"}),
            ]
        },
        brief: &["id", "url", "display", "name"],
        update: || json!({"template": "{{ router.hostname }} updated"}),
        filter: ("jinja2_trim=true", 1),
    },
    Case {
        path: "/api/peering/internet-exchanges/",
        content_type: "peering.internetexchange",
        bodies: |s| {
            let a = local_as(s);
            [
                json!({"name": "IX 1", "slug": "ix-1", "local_autonomous_system": a}),
                json!({"name": "IX 2", "slug": "ix-2", "local_autonomous_system": {"asn": 64500}, "status": "disabled"}),
                json!({"name": "IX 3", "slug": "ix-3", "local_autonomous_system": a, "peeringdb_ixlan": 42}),
            ]
        },
        brief: &["id", "url", "display", "name", "slug", "status"],
        update: || json!({"description": "Updated"}),
        filter: ("status=enabled&local_autonomous_system_asn=64500", 2),
    },
    Case {
        path: "/api/net/connections/",
        content_type: "net.connection",
        bodies: |s| {
            let ix = exchange(s);
            [
                json!({"internet_exchange_point": ix, "router": null, "vlan": 2001, "mac_address": "790e.0091.9c97", "ipv6_address": "2001:db8:10::1/64", "ipv4_address": "192.0.2.2/24"}),
                json!({"internet_exchange_point": ix, "router": null, "vlan": 2002, "mac_address": "30ad6e2f44c3", "ipv4_address": "192.0.2.3"}),
                json!({"internet_exchange_point": {"slug": "ix"}, "router": null, "status": "disabled"}),
            ]
        },
        brief: &[
            "id",
            "url",
            "display",
            "name",
            "mac_address",
            "ipv6_address",
            "ipv4_address",
        ],
        update: || json!({"status": "disabled"}),
        filter: ("vlan__gte=2002&status=disabled", 1),
    },
    Case {
        path: "/api/peering/internet-exchange-peering-sessions/",
        content_type: "peering.internetexchangepeeringsession",
        bodies: |s| {
            let ix = exchange(s);
            let c = s.create(
                "/api/net/connections/",
                json!({"internet_exchange_point": ix, "router": null, "vlan": 2000}),
            )["id"]
                .clone();
            let peer = autonomous_system(65001, "Peer").id(s);
            // Created before "alpha": shown last, as tags are listed by name.
            tag("zeta").create(s);
            tag("alpha").create(s);
            [
                json!({"service_reference": "IXP-0001", "autonomous_system": peer, "ixp_connection": c, "ip_address": "198.51.100.1", "tags": [{"name": "zeta"}, {"name": "alpha"}]}),
                json!({"autonomous_system": {"asn": 65001}, "ixp_connection": c, "ip_address": "198.51.100.2/24", "is_route_server": true}),
                json!({"autonomous_system": peer, "ixp_connection": c, "ip_address": "2001:db8::2", "status": "requested"}),
            ]
        },
        brief: &[
            "id",
            "url",
            "display",
            "ip_address",
            "status",
            "is_route_server",
        ],
        update: || json!({"status": "disabled"}),
        filter: ("is_route_server=true&ip_address__isw=198.51", 1),
    },
    Case {
        path: "/api/peering/direct-peering-sessions/",
        content_type: "peering.directpeeringsession",
        bodies: |s| {
            let local = local_as(s);
            let peer = autonomous_system(65001, "Peer").id(s);
            let rel = s.create(
                "/api/bgp/relationships/",
                json!({"name": "Transit", "slug": "transit"}),
            )["id"]
                .clone();
            [
                json!({"service_reference": "PNI-0001", "local_autonomous_system": local, "autonomous_system": peer, "relationship": rel, "ip_address": "198.51.100.1/32"}),
                json!({"local_autonomous_system": local, "autonomous_system": peer, "relationship": {"slug": "transit"}, "ip_address": "198.51.100.2"}),
                json!({"local_autonomous_system": local, "autonomous_system": {"asn": 65001}, "relationship": rel, "ip_address": "2001:db8::1", "status": "requested"}),
            ]
        },
        brief: &["id", "url", "display", "ip_address", "status"],
        update: || json!({"status": "disabled"}),
        filter: ("ip_address__iew=/32", 2),
    },
    Case {
        path: "/api/extras/config-contexts/",
        content_type: "extras.configcontext",
        bodies: |_| {
            [
                json!({"name": "NTP", "data": {"ntp": ["192.0.2.1"]}}),
                json!({"name": "SNMP", "data": {"community": "public"}, "is_active": false}),
                json!({"name": "Syslog", "data": {}}),
            ]
        },
        brief: &["id", "url", "display", "name"],
        update: || json!({"description": "Updated"}),
        filter: ("is_active=true", 2),
    },
    Case {
        path: "/api/extras/export-templates/",
        content_type: "extras.exporttemplate",
        bodies: |_| {
            [
                json!({"name": "Peers", "content_type": "peering.autonomoussystem", "template": "{% for a in dataset %}{{ a.asn }}{% endfor %}"}),
                json!({"name": "Groups", "content_type": "peering.bgpgroup", "template": "x"}),
                json!({"name": "Peers", "content_type": "peering.bgpgroup", "template": "y"}),
            ]
        },
        brief: &["id", "url", "display", "name"],
        update: || json!({"description": "Foo"}),
        filter: ("content_type=peering.bgpgroup", 2),
    },
    Case {
        path: "/api/messaging/contact-assignments/",
        content_type: "messaging.contactassignment",
        bodies: |s| {
            let a = local_as(s);
            let contact =
                s.create("/api/messaging/contacts/", json!({"name": "Alice"}))["id"].clone();
            let noc = s.create(
                "/api/messaging/contact-roles/",
                json!({"name": "NOC", "slug": "noc"}),
            )["id"]
                .clone();
            let abuse = s.create(
                "/api/messaging/contact-roles/",
                json!({"name": "Abuse", "slug": "abuse"}),
            )["id"]
                .clone();
            let ix = builders::exchange("IX", "ix", &json!(a)).id(s);
            [
                json!({"content_type": "peering.autonomoussystem", "object_id": a, "contact": contact, "role": noc}),
                json!({"content_type": "peering.autonomoussystem", "object_id": a, "contact": contact, "role": abuse}),
                json!({"content_type": "peering.internetexchange", "object_id": ix, "contact": {"name": "Alice"}, "role": {"slug": "noc"}}),
            ]
        },
        brief: &["id", "url", "display", "contact", "role"],
        update: || json!({"object_id": 1}),
        filter: ("content_type=peering.internetexchange", 1),
    },
    Case {
        path: "/api/extras/webhooks/",
        content_type: "extras.webhook",
        bodies: |_| {
            [
                json!({"name": "Sync", "content_types": ["peering.autonomoussystem", "peering.router"], "type_create": true, "payload_url": "http://127.0.0.1:9/hook"}),
                json!({"name": "Audit", "content_types": ["peering.autonomoussystem"], "type_delete": true, "payload_url": "http://127.0.0.1:9/audit", "http_method": "PUT"}),
                json!({"name": "All", "content_types": ["net.connection"], "type_update": true, "payload_url": "http://127.0.0.1:9/all", "enabled": false}),
            ]
        },
        brief: &["id", "name", "url"],
        update: || json!({"ssl_verification": false}),
        filter: ("enabled=true&http_method=PUT", 1),
    },
    Case {
        path: "/api/peering/routers/",
        content_type: "peering.router",
        bodies: |s| {
            let p = platform(s);
            let a = local_as(s);
            [
                json!({"name": "r1", "hostname": "r1.example.net", "platform": p, "local_autonomous_system": a}),
                json!({"name": "r2", "hostname": "r2.example.net", "platform": {"slug": "junos"}, "local_autonomous_system": {"asn": 64500}, "status": "maintenance"}),
                json!({"name": "r3", "hostname": "r3.example.net", "platform": p, "local_autonomous_system": a, "encrypt_passwords": true}),
            ]
        },
        brief: &["id", "url", "display", "name", "hostname"],
        update: || json!({"status": "maintenance"}),
        filter: ("hostname__iew=example.net&encrypt_passwords=true", 1),
    },
    Case {
        path: "/api/messaging/contact-roles/",
        content_type: "messaging.contactrole",
        bodies: |_| {
            [
                json!({"name": "NOC", "slug": "noc"}),
                json!({"name": "Peering", "slug": "peering"}),
                json!({"name": "Abuse", "slug": "abuse"}),
            ]
        },
        brief: &["id", "url", "display", "name", "slug"],
        update: || json!({"description": "Foo"}),
        filter: ("q=peer", 1),
    },
    Case {
        path: "/api/messaging/contacts/",
        content_type: "messaging.contact",
        bodies: |_| {
            [
                json!({"name": "Alice", "email": "alice@example.net"}),
                json!({"name": "Bob", "phone": "+1 555 0100", "email": "bob@example.org"}),
                json!({"name": "Carol"}),
            ]
        },
        brief: &["id", "url", "display", "name"],
        update: || json!({"comments": "Foo"}),
        filter: ("email__iew=.net", 1),
    },
    Case {
        path: "/api/messaging/emails/",
        content_type: "messaging.email",
        bodies: |_| {
            [
                json!({"name": "Request", "subject": "Peering with {{ autonomous_system.name }}", "template": "Hello"}),
                json!({"name": "Reminder", "subject": "Reminder", "template": "Hi", "jinja2_lstrip": true}),
                json!({"name": "Bye", "subject": "Bye", "template": "Bye"}),
            ]
        },
        brief: &["id", "url", "display", "name"],
        update: || json!({"template": "{{ autonomous_system.asn }}"}),
        filter: ("q=reminder", 1),
    },
];

fn walk(s: &TestServer, case: &Case) {
    let path = case.path;
    let [first, second, third] = (case.bodies)(s);
    let one = s.create(path, first);
    assert_eq!(
        one["url"],
        format!("{}{path}{}/", s.base, one["id"]),
        "{path}"
    );
    let many = s.create(path, json!([second, third]));
    assert_eq!(many.as_array().map(Vec::len), Some(2), "{path}");
    let ids: Vec<i64> = std::iter::once(&one)
        .chain(many.as_array().unwrap())
        .map(|o| o["id"].as_i64().unwrap())
        .collect();

    let list = s.get(path).json();
    assert_eq!(list["count"], 3, "{path}");
    let brief = s.get(&format!("{path}?brief=1")).json();
    let keys = field_names(&brief["results"][0]);
    assert_eq!(keys, case.brief, "{path}");
    // What a write answers is what a read then shows.
    let shown_now = |answer: &Json| {
        let url = format!("{path}{}/", answer["id"]);
        assert_eq!(&s.get(&url).json(), answer, "{url}");
    };
    shown_now(&one);
    many.as_array().unwrap().iter().for_each(shown_now);

    let update = (case.update)();
    let patched = s.patch(&format!("{path}{}/", ids[0]), update.clone());
    assert_eq!(patched.status, 200, "{path}: {}", patched.text);
    shown_now(&patched.json());
    let field = update.as_object().unwrap().keys().next().unwrap().clone();
    let expected = &update[&field];
    let shown = &patched.json()[&field];
    assert!(
        shown == expected || shown["value"] == *expected,
        "{path}: {shown} != {expected}"
    );
    let bulk: Vec<Json> = ids[1..]
        .iter()
        .map(|id| {
            let mut item = update.clone();
            item["id"] = json!(id);
            item
        })
        .collect();
    let r = s.patch(path, Json::Array(bulk));
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    assert_eq!(r.json().as_array().map(Vec::len), Some(2), "{path}");
    r.json().as_array().unwrap().iter().for_each(shown_now);

    let (query, matches) = case.filter;
    let filtered = s.get(&format!("{path}?{query}"));
    assert_eq!(filtered.status, 200, "{path}?{query}: {}", filtered.text);
    assert_eq!(filtered.json()["count"], matches, "{path}?{query}");

    let options = s.request("OPTIONS", path, None, Some(&s.key), &[]).json();
    assert!(options["actions"]["POST"].is_object(), "{path}");

    assert_eq!(
        s.delete(&format!("{path}{}/", ids[0]), None).status,
        204,
        "{path}"
    );
    let r = s.delete(path, Some(json!([{"id": ids[1]}, {"id": ids[2]}])));
    assert_eq!(r.status, 204, "{path}: {}", r.text);
    assert_eq!(s.get(path).json()["count"], 0, "{path}");

    let changes = s
        .get(&format!(
            "/api/extras/object-changes/?changed_object_type={}",
            case.content_type
        ))
        .json();
    assert_eq!(
        changes["count"], 9,
        "{path}: 3 creates, 3 updates, 3 deletes"
    );
}

#[test]
fn every_resource_through_the_generic_machinery() {
    for case in CASES {
        let s = TestServer::start();
        walk(&s, case);
    }
}

#[test]
fn api_root_lists_every_application() {
    let s = TestServer::start();
    let root = s.get("/api/").json();
    for app in ["bgp", "devices", "extras", "messaging", "peering"] {
        assert!(root[app].is_string(), "{app}: {root}");
    }
    let devices = s.get("/api/devices/").json();
    assert_eq!(
        devices["platforms"],
        format!("{}/api/devices/platforms/", s.base)
    );
    assert_eq!(
        devices["configurations"],
        format!("{}/api/devices/configurations/", s.base)
    );
}

#[test]
fn write_answers_nest_the_related_objects_they_now_point_to() {
    let s = TestServer::start();
    let junos = platform(&s);
    let eos = s.create(
        "/api/devices/platforms/",
        json!({"name": "EOS", "slug": "eos"}),
    )["id"]
        .as_i64()
        .unwrap();
    let a = local_as(&s);
    let routers = s.create(
        "/api/peering/routers/",
        json!([
            {"name": "r1", "hostname": "r1", "platform": junos, "local_autonomous_system": a},
            {"name": "r2", "hostname": "r2", "platform": junos, "local_autonomous_system": a},
        ]),
    );
    let ids: Vec<i64> = routers
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(routers[1]["platform"]["name"], "JunOS");
    // One router moves to another platform: its answer nests the new one, the other
    // router's the one it kept.
    let r = s.patch(
        "/api/peering/routers/",
        json!([{"id": ids[0], "platform": eos}, {"id": ids[1], "name": "r2b"}]),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()[0]["platform"]["name"], "EOS");
    assert_eq!(r.json()[0]["platform"]["id"], eos);
    assert_eq!(r.json()[1]["platform"]["name"], "JunOS");
    assert_eq!(r.json()[1]["local_autonomous_system"]["asn"], 64500);
    // A related object renamed since is nested as it now is.
    let r = s.patch(
        &format!("/api/devices/platforms/{eos}/"),
        json!({"name": "Arista EOS"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let r = s.patch(
        "/api/peering/routers/",
        json!([{"id": ids[0], "name": "r1b"}]),
    );
    assert_eq!(r.json()[0]["platform"]["name"], "Arista EOS");
}

#[test]
fn routers_nest_their_relations_and_follow_the_on_delete_rules() {
    let s = TestServer::start();
    let p = platform(&s);
    let a = local_as(&s);
    let config = s.create(
        "/api/devices/configurations/",
        json!({"name": "Edge", "template": "x"}),
    );
    let router = s.create(
        "/api/peering/routers/",
        json!({"name": "r1", "hostname": "r1.example.net", "platform": p, "local_autonomous_system": a, "configuration_template": config["id"]}),
    );
    assert_eq!(
        router["platform"],
        json!({"id": p, "url": format!("{}/api/devices/platforms/{p}/", s.base), "display": "JunOS", "name": "JunOS", "slug": "junos"})
    );
    assert_eq!(router["local_autonomous_system"]["asn"], 64500);
    assert_eq!(
        router["status"],
        json!({"value": "enabled", "label": "Enabled"})
    );
    assert_eq!(router["poll_bgp_sessions_last_updated"], Json::Null);
    assert_eq!(router["napalm_password"], Json::Null);

    // Required relations: missing, null, unknown.
    let r = s.post(
        "/api/peering/routers/",
        json!({"name": "x", "hostname": "x", "local_autonomous_system": a}),
    );
    assert_eq!(r.json(), json!({"platform": ["This field is required."]}));
    let r = s.post(
        "/api/peering/routers/",
        json!({"name": "x", "hostname": "x", "platform": null, "local_autonomous_system": a}),
    );
    assert_eq!(
        r.json(),
        json!({"platform": ["This field may not be null."]})
    );
    let r = s.post(
        "/api/peering/routers/",
        json!({"name": "x", "hostname": "x", "platform": 999, "local_autonomous_system": a}),
    );
    assert_eq!(
        r.json(),
        json!({"platform": ["Related object not found using the provided numeric ID: 999"]})
    );
    let r = s.post(
        "/api/peering/routers/",
        json!({"name": "x", "hostname": "x", "platform": "abc", "local_autonomous_system": a}),
    );
    assert_eq!(
        r.json(),
        json!({"platform": ["Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: abc"]})
    );
    assert_eq!(
        s.get(&format!("/api/peering/routers/?platform_id={p}"))
            .json()["count"],
        1
    );
    assert_eq!(
        s.get(&format!("/api/peering/routers/?platform_id__n={p}"))
            .json()["count"],
        0
    );

    // PROTECT: the platform of a router cannot be deleted, alone or in a bulk delete.
    let other = s.create(
        "/api/devices/platforms/",
        json!({"name": "EOS", "slug": "eos"}),
    );
    let r = s.delete(&format!("/api/devices/platforms/{p}/"), None);
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(
        r.json(),
        json!({"detail": format!("unable to delete object. 1 dependent objects were found: r1 ({})", router["id"])})
    );
    let r = s.delete(
        "/api/devices/platforms/",
        Some(json!([{"id": other["id"]}, {"id": p}])),
    );
    assert_eq!(r.status, 409);
    assert_eq!(
        s.get("/api/devices/platforms/").json()["count"],
        2,
        "nothing deleted"
    );

    // SET NULL: deleting the configuration template leaves the router without one.
    assert_eq!(
        s.delete(
            &format!("/api/devices/configurations/{}/", config["id"]),
            None
        )
        .status,
        204
    );
    let after = s
        .get(&format!("/api/peering/routers/{}/", router["id"]))
        .json();
    assert_eq!(after["configuration_template"], Json::Null);

    // CASCADE: deleting the local AS deletes its routers, each with its change record.
    let r = s.delete(&format!("{AS}{a}/"), None);
    assert_eq!(r.status, 204);
    let request_id = r.header("X-Request-ID").unwrap().to_string();
    assert_eq!(s.get("/api/peering/routers/").json()["count"], 0);
    let changes = s
        .get(&format!(
            "/api/extras/object-changes/?request_id={request_id}"
        ))
        .json();
    let types: Vec<Json> = column(&changes, "changed_object_type");
    assert!(
        types.contains(&json!("peering.router"))
            && types.contains(&json!("peering.autonomoussystem")),
        "{types:?}"
    );
    // Now the platform is free to go.
    assert_eq!(
        s.delete(&format!("/api/devices/platforms/{p}/"), None)
            .status,
        204
    );
}

#[test]
fn internet_exchanges_belong_to_a_local_autonomous_system() {
    let s = TestServer::start();
    let a = local_as(&s);
    let ix = s.create(
        "/api/peering/internet-exchanges/",
        json!({"name": "IX", "slug": "ix", "local_autonomous_system": a, "peeringdb_ixlan": 7}),
    );
    assert_eq!(ix["extdb_ixlan"], 7);
    assert_eq!(ix["extdb_prefixes"], json!({}));
    assert_eq!(
        ix["status"],
        json!({"value": "enabled", "label": "Enabled"})
    );
    assert_eq!(ix["local_autonomous_system"]["display"], "AS64500 - Local");
    let list = s
        .get(&format!(
            "/api/peering/internet-exchanges/?local_autonomous_system_id={a}"
        ))
        .json();
    assert_eq!(list["count"], 1);
    let r = s.get("/api/peering/internet-exchanges/?local_autonomous_system_id=abc");
    assert_eq!(r.status, 400);
    let options = s
        .request(
            "OPTIONS",
            "/api/peering/internet-exchanges/",
            None,
            Some(&s.key),
            &[],
        )
        .json();
    let choices: Vec<Json> = options["actions"]["POST"]["status"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].clone())
        .collect();
    assert_eq!(
        choices,
        [
            "enabled",
            "pre-maintenance",
            "maintenance",
            "post-maintenance",
            "disabled"
        ]
    );
    // Deleting the local AS deletes its exchanges, one change record each.
    let r = s.delete(&format!("{AS}{a}/"), None);
    assert_eq!(r.status, 204);
    assert_eq!(s.get("/api/peering/internet-exchanges/").json()["count"], 0);
    let request_id = r.header("X-Request-ID").unwrap();
    let changes = s.get(&format!("/api/extras/object-changes/?request_id={request_id}&changed_object_type=peering.internetexchange")).json();
    assert_eq!(changes["count"], 1);
    assert_eq!(changes["results"][0]["prechange_data"], Json::Null);
}

#[test]
fn connections_normalise_addresses_and_are_labelled_by_exchange_and_router() {
    let s = TestServer::start();
    let ix = exchange(&s);
    let p = platform(&s);
    let a = s.get(&format!("{AS}?asn=64500")).json()["results"][0]["id"]
        .as_i64()
        .unwrap();
    let router = s.create(
        "/api/peering/routers/",
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": p, "local_autonomous_system": a}),
    );
    let c = s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": router["id"], "interface": "et-0/0/0",
               "mac_address": "79-0E-00-91-9C-97", "ipv6_address": "2001:DB8:10::1/64", "ipv4_address": "192.0.2.2/24"}),
    );
    assert_eq!(c["display"], "IX on edge1 et-0/0/0");
    assert_eq!(c["name"], c["display"]);
    assert_eq!(c["mac_address"], "79:0e:00:91:9c:97");
    assert_eq!(c["ipv6_address"], "2001:db8:10::1/64");
    assert_eq!(c["ipv4_address"], "192.0.2.2/24");
    // Nested exchanges show their status as a plain value (spec 2.3).
    assert_eq!(c["internet_exchange_point"]["status"], "enabled");
    assert_eq!(c["router"]["hostname"], "edge1.example.net");
    let bare = s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "ipv4_address": "192.0.2.10"}),
    );
    assert_eq!(bare["ipv4_address"], "192.0.2.10/32");
    assert_eq!(bare["display"], "IX");

    // Errors name the field, with the reference's messages.
    let r = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "ipv6_address": "192.0.2.1/24"}),
    );
    assert_eq!(
        r.json(),
        json!({"ipv6_address": ["Enter a valid IPv6 address."]})
    );
    let r = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "mac_address": "zz"}),
    );
    assert_eq!(
        r.json(),
        json!({"mac_address": ["failed to detect EUI version: 'zz'"]})
    );
    let r = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "vlan": 4095}),
    );
    assert_eq!(
        r.json(),
        json!({"vlan": ["Ensure this value is less than or equal to 4094."]})
    );
    let r = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix}),
    );
    assert_eq!(r.json(), json!({"router": ["This field is required."]}));

    // Addresses sort numerically, not as text.
    s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "ipv4_address": "192.0.2.9/24"}),
    );
    let sorted = s
        .get("/api/net/connections/?ordering=ipv4_address&ipv4_address__n=null")
        .json();
    assert_eq!(
        column(&sorted, "ipv4_address"),
        [
            json!("192.0.2.2/24"),
            json!("192.0.2.9/24"),
            json!("192.0.2.10/32")
        ]
    );
    assert_eq!(
        s.get("/api/net/connections/?ipv4_address__isw=192.0.2.1")
            .json()["count"],
        1
    );
    assert_eq!(
        s.get(&format!("/api/net/connections/?router_id={}", router["id"]))
            .json()["count"],
        1
    );
    assert_eq!(
        s.get("/api/net/connections/?brief=1").json()["results"][0]["display"],
        "IX on edge1 et-0/0/0"
    );

    // Deleting the router keeps the connection (SET NULL), which is then named by its exchange.
    assert_eq!(
        s.delete(&format!("/api/peering/routers/{}/", router["id"]), None)
            .status,
        204
    );
    assert_eq!(
        s.get(&format!("/api/net/connections/{}/", c["id"])).json()["display"],
        "IX"
    );
    // Deleting the exchange deletes its connections, each with a change record.
    let r = s.delete(&format!("/api/peering/internet-exchanges/{ix}/"), None);
    assert_eq!(r.status, 204);
    assert_eq!(s.get("/api/net/connections/").json()["count"], 0);
    let request_id = r.header("X-Request-ID").unwrap();
    let changes = s.get(&format!("/api/extras/object-changes/?request_id={request_id}&changed_object_type=net.connection")).json();
    assert_eq!(changes["count"], 3);
}

#[test]
fn sessions_at_exchanges_nest_their_peer_and_connection_and_check_their_address() {
    let s = TestServer::start();
    let ix = exchange(&s);
    let p = s.create(
        "/api/devices/platforms/",
        json!({"name": "JunOS", "slug": "junos", "password_algorithm": "juniper-type9"}),
    );
    let local = s.get(&format!("{AS}?asn=64500")).json()["results"][0]["id"].clone();
    let router = s.create(
        "/api/peering/routers/",
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": p["id"], "local_autonomous_system": local, "encrypt_passwords": true}),
    );
    let c = s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": router["id"], "ipv4_address": "192.0.2.2/24", "ipv6_address": "2001:db8:10::2/64", "mac_address": "30ad6e2f44c3"}),
    );
    let peer = s.create(
        AS,
        json!({"asn": 65001, "name": "Peer", "ipv4_max_prefixes": 10}),
    );
    let path = "/api/peering/internet-exchange-peering-sessions/";
    let session = s.create(
        path,
        json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "192.0.2.10/24", "password": "s3cret",
               "bgp_state": "established", "last_established_state": "2026-11-21T10:00:00Z"}),
    );
    assert_eq!(session["ip_address"], "192.0.2.10");
    assert_eq!(session["display"], "IX - AS65001 - IP 192.0.2.10");
    assert_eq!(
        session["status"],
        json!({"value": "enabled", "label": "Enabled"})
    );
    assert_eq!(session["bgp_state"], "established");
    assert_eq!(
        session["last_established_state"],
        "2026-11-21T10:00:00.000000Z"
    );
    assert_eq!(session["exists_in_extdb"], false);
    assert_eq!(session["is_abandoned"], false);
    assert_eq!(session["multihop_ttl"], 1);
    let nested_as = field_names(&session["autonomous_system"]);
    assert_eq!(
        nested_as,
        [
            "id",
            "url",
            "display",
            "asn",
            "name",
            "ipv6_max_prefixes",
            "ipv4_max_prefixes"
        ]
    );
    assert_eq!(session["autonomous_system"]["ipv4_max_prefixes"], 10);
    let nested_c = field_names(&session["ixp_connection"]);
    assert_eq!(
        nested_c,
        [
            "id",
            "url",
            "display",
            "name",
            "mac_address",
            "ipv6_address",
            "ipv4_address"
        ]
    );
    assert_eq!(session["ixp_connection"]["display"], "IX on edge1");
    assert_eq!(session["ixp_connection"]["ipv4_address"], "192.0.2.2/24");

    // The password is encrypted with the platform's algorithm, and kept when unchanged.
    let encrypted = session["encrypted_password"].as_str().unwrap().to_string();
    assert!(encrypted.starts_with("$9$"), "{encrypted}");
    let same = s
        .patch(
            &format!("{path}{}/", session["id"]),
            json!({"status": "maintenance"}),
        )
        .json();
    assert_eq!(same["encrypted_password"], encrypted.as_str());
    let changed = s
        .patch(
            &format!("{path}{}/", session["id"]),
            json!({"password": "other"}),
        )
        .json();
    assert_ne!(changed["encrypted_password"], encrypted.as_str());

    // The address must be in the connection's network of its family, and unique on it.
    let r = s.post(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "198.51.100.1"}));
    assert_eq!(r.status, 400);
    assert!(
        r.json()["ip_address"][0]
            .as_str()
            .unwrap()
            .contains("192.0.2.0/24"),
        "{}",
        r.text
    );
    let r = s.post(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "2001:db8:11::1"}));
    assert_eq!(r.status, 400);
    s.create(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "2001:db8:10::1", "service_reference": "IXP-1"}));
    let r = s.post(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "192.0.2.10"}));
    assert_eq!(
        r.json(),
        json!({"__all__": ["Internet exchange peering session with this IXP connection and IP address already exists."]})
    );
    let r = s.post(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "192.0.2.11", "service_reference": "IXP-1"}));
    assert_eq!(
        r.json(),
        json!({"service_reference": ["internet exchange peering session with this Service reference already exists."]})
    );
    let r = s.post(path, json!({"autonomous_system": peer["id"], "ixp_connection": c["id"], "ip_address": "192.0.2.12", "bgp_state": "up"}));
    assert_eq!(
        r.json(),
        json!({"bgp_state": ["\"up\" is not a valid choice."]})
    );

    // Filters and ordering by address.
    assert_eq!(
        s.get(&format!("{path}?autonomous_system_id={}", peer["id"]))
            .json()["count"],
        2
    );
    assert_eq!(
        s.get(&format!(
            "{path}?ixp_connection_id={}&status=maintenance",
            c["id"]
        ))
        .json()["count"],
        1
    );
    let ordered = s.get(&format!("{path}?ordering=-ip_address")).json();
    assert_eq!(
        column(&ordered, "ip_address"),
        [json!("2001:db8:10::1"), json!("192.0.2.10")]
    );
    let brief = s
        .get(&format!("{path}?brief=1&ip_address=192.0.2.10"))
        .json();
    assert_eq!(
        brief["results"][0]["display"],
        "IX - AS65001 - IP 192.0.2.10"
    );

    // Deleting the connection deletes its sessions, one change record each.
    let r = s.delete(&format!("/api/net/connections/{}/", c["id"]), None);
    assert_eq!(r.status, 204);
    assert_eq!(s.get(path).json()["count"], 0);
    let request_id = r.header("X-Request-ID").unwrap();
    let changes = s
        .get(&format!("/api/extras/object-changes/?request_id={request_id}&changed_object_type=peering.internetexchangepeeringsession"))
        .json();
    assert_eq!(changes["count"], 2);
    assert_eq!(
        changes["results"][0]["display"]
            .as_str()
            .map(|d| d.contains("IX - AS65001 - IP")),
        Some(true)
    );
}

#[test]
fn direct_sessions_keep_prefix_lengths_and_protect_their_relationship() {
    let s = TestServer::start();
    let local = local_as(&s);
    let peer = autonomous_system(65001, "Peer").create(&s);
    let rel = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Private Peering", "slug": "private-peering"}),
    );
    let p = s.create(
        "/api/devices/platforms/",
        json!({"name": "IOS", "slug": "ios", "password_algorithm": "cisco-type7"}),
    );
    let router = s.create(
        "/api/peering/routers/",
        json!({"name": "core1", "hostname": "core1", "platform": p["id"], "local_autonomous_system": local, "encrypt_passwords": true}),
    );
    let path = "/api/peering/direct-peering-sessions/";
    let session = s.create(
        path,
        json!({"local_autonomous_system": local, "autonomous_system": peer["id"], "relationship": rel["id"],
               "ip_address": "192.0.2.1", "local_ip_address": "192.0.2.0/31", "router": router["id"], "password": "cisco"}),
    );
    assert_eq!(session["ip_address"], "192.0.2.1/32");
    assert_eq!(
        session["display"],
        "Private Peering - AS65001 - IP 192.0.2.1/32"
    );
    let encrypted = session["encrypted_password"].as_str().unwrap();
    assert_eq!(encrypted.len(), 2 + 2 * "cisco".len(), "{encrypted}");
    assert!(
        encrypted.bytes().all(|b| b.is_ascii_hexdigit()),
        "{encrypted}"
    );

    let r = s.post(
        path,
        json!({"local_autonomous_system": local, "autonomous_system": peer["id"], "relationship": rel["id"],
               "ip_address": "198.51.100.1", "local_ip_address": "192.0.2.0/31", "multihop_ttl": 1}),
    );
    assert_eq!(
        r.json(),
        json!({"non_field_errors": ["192.0.2.0/31 and 198.51.100.1/32 don't belong to the same subnet."]})
    );
    s.create(
        path,
        json!({"local_autonomous_system": local, "autonomous_system": peer["id"], "relationship": rel["id"],
               "ip_address": "198.51.100.1", "local_ip_address": "192.0.2.0/31", "multihop_ttl": 2}),
    );

    // PROTECT: a relationship in use cannot be deleted; the message lists its sessions.
    let r = s.delete(&format!("/api/bgp/relationships/{}/", rel["id"]), None);
    assert_eq!(r.status, 409);
    let detail = r.json()["detail"].as_str().unwrap().to_string();
    assert!(detail.starts_with("unable to delete object. 2 dependent objects were found: Private Peering - AS65001 - IP "), "{detail}");
    // SET NULL: deleting the router leaves the sessions without one.
    assert_eq!(
        s.delete(&format!("/api/peering/routers/{}/", router["id"]), None)
            .status,
        204
    );
    assert_eq!(
        s.get(&format!("{path}{}/", session["id"])).json()["router"],
        Json::Null
    );
    // CASCADE: deleting the peer deletes its sessions; then the relationship is free.
    assert_eq!(s.delete(&format!("{AS}{}/", peer["id"]), None).status, 204);
    assert_eq!(s.get(path).json()["count"], 0);
    assert_eq!(
        s.delete(&format!("/api/bgp/relationships/{}/", rel["id"]), None)
            .status,
        204
    );
}

#[test]
fn assignments_name_any_object_and_go_with_it() {
    let s = TestServer::start();
    let a = local_as(&s);
    let contact = s.create("/api/messaging/contacts/", json!({"name": "Alice"}));
    let role = s.create(
        "/api/messaging/contact-roles/",
        json!({"name": "NOC", "slug": "noc"}),
    );
    let path = "/api/messaging/contact-assignments/";
    let assignment = s.create(
        path,
        json!({"content_type": "peering.autonomoussystem", "object_id": a, "contact": contact["id"], "role": role["id"]}),
    );
    assert_eq!(assignment["display"], "Alice");
    assert_eq!(assignment["object"]["display"], "AS64500 - Local");
    assert_eq!(assignment["object"]["url"], format!("{}{AS}{a}/", s.base));
    assert_eq!(assignment["content_type"], "peering.autonomoussystem");
    assert_eq!(assignment["contact"]["name"], "Alice");

    let r = s.post(path, json!({"content_type": "foo.bar", "object_id": a, "contact": contact["id"], "role": role["id"]}));
    assert_eq!(
        r.json(),
        json!({"content_type": ["Invalid content type: foo.bar"]})
    );
    let r = s.post(path, json!({"content_type": "peering.autonomoussystem", "object_id": 999, "contact": contact["id"], "role": role["id"]}));
    assert_eq!(
        r.json(),
        json!({"object_id": ["No autonomous system with ID 999 exists."]})
    );
    let r = s.post(path, json!({"content_type": "peering.autonomoussystem", "object_id": a, "contact": contact["id"], "role": role["id"]}));
    assert_eq!(
        r.json(),
        json!({"__all__": ["Contact assignment with this Content type, Object id, Contact and Role already exists."]})
    );
    // A contact in use is protected.
    assert_eq!(
        s.delete(&format!("/api/messaging/contacts/{}/", contact["id"]), None)
            .status,
        409
    );

    let context = s.create(
        "/api/extras/config-contexts/",
        json!({"name": "NTP", "data": {"ntp": "192.0.2.1"}}),
    );
    assert!(context.get("created").is_none());
    let r = s.post(
        "/api/extras/config-contexts/",
        json!({"name": "Bad", "data": [1]}),
    );
    assert_eq!(
        r.json(),
        json!({"data": ["JSON data must be in object form. Example: {\"foo\": 123}"]})
    );
    let cca = s.create(
        "/api/extras/config-context-assignments/",
        json!({"content_type": "peering.autonomoussystem", "object_id": a, "config_context": context["id"]}),
    );
    assert_eq!(cca["weight"], 1000);
    assert_eq!(cca["display"], "NTP");
    assert_eq!(
        s.delete(
            &format!("/api/extras/config-contexts/{}/", context["id"]),
            None
        )
        .status,
        409
    );

    // Deleting the object deletes its assignments, each with a change record.
    let r = s.delete(&format!("{AS}{a}/"), None);
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(s.get(path).json()["count"], 0);
    assert_eq!(
        s.get("/api/extras/config-context-assignments/").json()["count"],
        0
    );
    let request_id = r.header("X-Request-ID").unwrap();
    let changes = s
        .get(&format!(
            "/api/extras/object-changes/?request_id={request_id}"
        ))
        .json();
    let types: Vec<Json> = column(&changes, "changed_object_type");
    assert!(
        types.contains(&json!("messaging.contactassignment")),
        "{types:?}"
    );
    assert!(
        types.contains(&json!("extras.configcontextassignment")),
        "{types:?}"
    );
    // Now the contact and the context are free to go.
    assert_eq!(
        s.delete(&format!("/api/messaging/contacts/{}/", contact["id"]), None)
            .status,
        204
    );
    assert_eq!(
        s.delete(
            &format!("/api/extras/config-contexts/{}/", context["id"]),
            None
        )
        .status,
        204
    );

    let r = s.post(
        "/api/extras/export-templates/",
        json!({"name": "Table", "content_type": "peering.bgpgroup", "template": "x"}),
    );
    assert_eq!(
        r.json(),
        json!({"name": ["\"table\" is a reserved name. Please choose a different name."]})
    );
}

#[test]
fn ix_api_accounts_show_their_endpoint_as_url() {
    let s = TestServer::start();
    let path = "/api/extras/ix-api/";
    let body = json!({"name": "IX", "url": "https://ixapi.example.net/v2/", "api_key": "k", "api_secret": "s", "identity": "1234"});
    let account = s.create(path, body.clone());
    assert_eq!(account["url"], "https://ixapi.example.net/v2/");
    assert_eq!(account["api_secret"], "s");
    let keys = field_names(&account);
    assert_eq!(
        keys,
        [
            "id",
            "display_url",
            "display",
            "name",
            "url",
            "api_url",
            "api_key",
            "api_secret",
            "identity"
        ]
    );
    // 1.10's name for it, shown beside and taken on write.
    assert_eq!(account["api_url"], "https://ixapi.example.net/v2/");
    let renamed = s.create(
        path,
        json!({"name": "IX 2", "api_url": "https://other.example.net/", "api_key": "k",
               "api_secret": "s", "identity": "1"}),
    );
    assert_eq!(
        (&renamed["url"], &renamed["api_url"]),
        (
            &json!("https://other.example.net/"),
            &json!("https://other.example.net/")
        )
    );
    let brief = s.get(&format!("{path}?brief=1")).json();
    assert_eq!(
        brief["results"][0],
        json!({"id": account["id"], "display": "IX", "name": "IX", "url": "https://ixapi.example.net/v2/"})
    );
    let r = s.post(path, body);
    assert_eq!(
        r.json(),
        json!({"__all__": ["IX-API with this URL and API key already exists."]})
    );
    assert_eq!(
        s.patch(
            &format!("{path}{}/", account["id"]),
            json!({"identity": "42"})
        )
        .json()["identity"],
        "42"
    );
    assert_eq!(
        s.delete(&format!("{path}{}/", account["id"]), None).status,
        204
    );
}

#[test]
fn field_rules_of_particular_resources() {
    let s = TestServer::start();
    let r = s.post(
        "/api/messaging/contacts/",
        json!({"name": "x", "email": "not-an-address"}),
    );
    assert_eq!(r.json(), json!({"email": ["Enter a valid email address."]}));
    let r = s.post(
        "/api/devices/platforms/",
        json!({"name": "x", "slug": "x", "password_algorithm": "md5"}),
    );
    assert_eq!(
        r.json(),
        json!({"password_algorithm": ["\"md5\" is not a valid choice."]})
    );
    let p = s.create(
        "/api/devices/platforms/",
        json!({"name": "x", "slug": "x", "password_algorithm": "cisco-type7"}),
    );
    assert_eq!(p["password_algorithm"], "cisco-type7");
    let cleared = s
        .patch(
            &format!("/api/devices/platforms/{}/", p["id"]),
            json!({"password_algorithm": ""}),
        )
        .json();
    assert_eq!(cleared["password_algorithm"], "");
    let r = s.post(
        "/api/peering/bgp-groups/",
        json!({"name": "g", "slug": "g", "status": "up"}),
    );
    assert_eq!(r.json(), json!({"status": ["up is not a valid choice."]}));
    let r = s.post(
        "/api/bgp/relationships/",
        json!({"name": "r", "slug": "not a slug"}),
    );
    assert!(r.json()["slug"][0].as_str().unwrap().contains("slug"));
    s.create("/api/bgp/relationships/", json!({"name": "r", "slug": "r"}));
    let r = s.post(
        "/api/bgp/relationships/",
        json!({"name": "r", "slug": "r2"}),
    );
    assert_eq!(
        r.json(),
        json!({"name": ["relationship with this Name already exists."]})
    );
    let policy = s.create(
        "/api/peering/routing-policies/",
        json!({"name": "P", "slug": "p"}),
    );
    let group = s.create(
        "/api/peering/bgp-groups/",
        json!({"name": "g", "slug": "g", "import_routing_policies": [policy["id"]]}),
    );
    assert_eq!(group["import_routing_policies"][0]["slug"], "p");
    assert_eq!(
        group["status"],
        json!({"value": "enabled", "label": "Enabled"})
    );
}

#[test]
fn bulk_writes_check_uniqueness_within_the_batch_and_write_nothing_on_error() {
    let s = TestServer::start();
    let r = s.post(
        AS,
        json!([{"asn": 65100, "name": "A"}, {"asn": 65101, "name": "B"}, {"asn": 65100, "name": "C"}]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json(),
        json!([{}, {}, {"asn": ["autonomous system with this ASN already exists."]}])
    );
    assert_eq!(s.get(AS).json()["count"], 0);
    let made = s.create(
        AS,
        json!([{"asn": 65100, "name": "A"}, {"asn": 65101, "name": "B"}]),
    );
    let (a, b) = (made[0]["id"].clone(), made[1]["id"].clone());
    // Two updates may not take the same unique value; one may keep its own.
    let r = s.patch(
        AS,
        json!([{"id": a, "asn": 65102}, {"id": b, "asn": 65102}]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    let r = s.patch(
        AS,
        json!([{"id": a, "asn": 65100, "name": "A2"}, {"id": b, "asn": 65103}]),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        column(&s.get(&format!("{AS}?ordering=asn")).json(), "asn"),
        [json!(65100), json!(65103)]
    );
    // Fields unique together, within one request.
    let ix = exchange(&s);
    let connection = s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": ix, "router": null, "ipv4_address": "192.0.2.1/24"}),
    )["id"]
        .clone();
    let session =
        |ip: &str| json!({"autonomous_system": a, "ixp_connection": connection, "ip_address": ip});
    let r = s.post(
        "/api/peering/internet-exchange-peering-sessions/",
        json!([session("192.0.2.10"), session("192.0.2.10")]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json()[1]["__all__"][0],
        "Internet exchange peering session with this IXP connection and IP address already exists."
    );
    assert_eq!(r.json()[0], json!({}));
}

/// Relation lists come in the order of the linked objects' ids, whatever the order they
/// were linked in (the links are read unordered and put in order by the server).
#[test]
fn relation_lists_are_in_linked_id_order() {
    let s = TestServer::start();
    let policies: Vec<i64> = ["a", "b", "c"]
        .iter()
        .map(|slug| {
            let p = s.create(
                "/api/peering/routing-policies/",
                json!({"name": slug, "slug": slug, "type": "import-policy"}),
            );
            p["id"].as_i64().unwrap()
        })
        .collect();
    let linked = [policies[2], policies[0], policies[1]];
    let created = s.create(
        AS,
        json!({"asn": 64_500, "name": "Peer", "import_routing_policies": linked}),
    );
    let path = format!("{AS}{}/", created["id"]);
    let ids = |o: &Json| -> Vec<i64> {
        (o["import_routing_policies"].as_array().unwrap().iter())
            .map(|p| p["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(&s.get(&path).json()), policies);
    let page = s.get(&format!("{AS}?asn=64500")).json();
    assert_eq!(ids(&page["results"][0]), policies);
}
