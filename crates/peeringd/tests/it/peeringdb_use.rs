//! The local PeeringDB copy at work, on a network built through the API over the fake
//! PeeringDB's data: linking an exchange, its available peers (checked against a list
//! computed from the generator itself), importing their sessions, sessions found in (and
//! gone from) PeeringDB, autonomous systems synchronised by their flags, and the cache
//! management endpoints.

use crate::common::network::{finished, id};
use crate::common::TestServer;
use peering_store::testing::TestDatabase;
use peeringdb_fake::{Dataset, FakePeeringDb, Sizes};
use serde_json::{json, Value as Json};

const EXCHANGES: &str = "/api/peering/internet-exchanges/";
const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
const SYSTEMS: &str = "/api/peering/autonomous-systems/";

/// 1% of PeeringDB, with enough network-LAN objects that LANs past the first (which takes
/// 1,000) have a few dozen members.
fn sizes() -> Sizes {
    Sizes {
        netixlan: 1_300,
        ..Sizes::scaled(0.01)
    }
}

/// A database synchronised from the fake PeeringDB, and a server over it that reaches the
/// same fake for its own synchronisations.
fn synchronised(fake: &FakePeeringDb) -> TestServer {
    let db = TestDatabase::new();
    crate::common::peeringdb_sync(&db, &fake.url);
    let settings = peering_api::Settings {
        peeringdb: peering_peeringdb::Settings {
            url: fake.url.clone(),
            api_key: None,
            proxy: None,
        },
        ..Default::default()
    };
    TestServer::start_on(db, settings)
}

/// The generator's network-LAN objects on a LAN, as PeeringDB serves them.
fn members(data: &Dataset, lan: i64) -> Vec<Json> {
    let mut out = Vec::new();
    data.for_each("netixlan", 0, |o| {
        if o["ixlan_id"] == lan {
            out.push(o.clone());
        }
    });
    out
}

/// A LAN past the first with between 10 and 60 members.
fn middling_lan(data: &Dataset) -> i64 {
    (2..=sizes().ixlan() as i64)
        .find(|&lan| (10..=60).contains(&data.lan_size(lan)))
        .expect("a LAN of a few dozen members")
}

fn ids_of(list: &Json) -> Vec<i64> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(id)
        .collect()
}

/// Our network as member `ours` of `lan`: its AS (affiliated), the exchange and a
/// connection on PeeringDB's addresses for it. (AS id, exchange id, connection id.)
fn our_presence(s: &TestServer, ours: &Json, lan: i64) -> (i64, i64, i64) {
    let asn = ours["asn"].as_i64().unwrap();
    let us = id(&s.create(
        SYSTEMS,
        json!({"asn": asn, "name": "Us", "affiliated": true}),
    ));
    let exchange = id(&s.create(
        EXCHANGES,
        json!({"name": "Our exchange", "slug": "ours", "local_autonomous_system": us}),
    ));
    let platform = id(&s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    ));
    // A router that polls its sessions' states: an idle session can be abandoned.
    let router = id(&s.create(
        "/api/peering/routers/",
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform,
               "local_autonomous_system": us, "poll_bgp_sessions_state": true}),
    ));
    let (v4, v6) = Dataset::lan_prefixes(lan);
    let len = |prefix: &str| prefix.rsplit('/').next().unwrap().to_string();
    let mut connection = json!({
        "internet_exchange_point": exchange,
        "router": router,
        "ipv4_address": format!("{}/{}", ours["ipaddr4"].as_str().unwrap(), len(&v4)),
    });
    if let Some(v6addr) = ours["ipaddr6"].as_str() {
        connection["ipv6_address"] = json!(format!("{v6addr}/{}", len(&v6)));
    }
    let connection = id(&s.create("/api/net/connections/", connection));
    (us, exchange, connection)
}

#[test]
fn an_exchange_linked_to_peeringdb_lists_imports_and_watches_its_peers() {
    let data = Dataset::new(sizes());
    let lan = middling_lan(&data);
    let everyone = members(&data, lan);
    let fake = FakePeeringDb::start(Dataset::new(sizes()));
    let s = synchronised(&fake);
    // A dual-stack member is us.
    let ours = everyone
        .iter()
        .find(|m| !m["ipaddr6"].is_null())
        .unwrap()
        .clone();
    let (_, exchange, connection) = our_presence(&s, &ours, lan);
    let at = |action: &str| format!("{EXCHANGES}{exchange}/{action}/");

    // Not linked yet: no peers, no prefixes.
    assert_eq!(s.get(&at("available-peers")).json(), json!([]));
    assert_eq!(s.get(&at("prefixes")).json(), json!({}));
    let linked = s.post(&at("link-to-peeringdb"), json!({}));
    assert_eq!(linked.status, 200, "{}", linked.text);
    assert_eq!(linked.json()["extdb_ixlan"], json!(lan));
    let (v4, v6) = Dataset::lan_prefixes(lan);
    assert_eq!(
        linked.json()["extdb_prefixes"],
        json!({"ipv6": [v6], "ipv4": [v4]})
    );
    assert_eq!(
        s.get(&at("prefixes")).json(),
        json!({"ipv6": [v6], "ipv4": [v4]})
    );
    let c = s.get(&format!("/api/net/connections/{connection}/")).json();
    assert_eq!(c["extdb_netixlan"], ours["id"]);

    // Available: every other network's record on the LAN, by AS number then id.
    let mut expected: Vec<&Json> = everyone
        .iter()
        .filter(|m| m["asn"] != ours["asn"])
        .collect();
    expected.sort_by_key(|m| (m["asn"].as_i64(), m["id"].as_i64()));
    let expected_ids: Vec<i64> = expected.iter().map(|m| id(m)).collect();
    let available = s.get(&at("available-peers"));
    assert_eq!(available.status, 200, "{}", available.text);
    assert_eq!(ids_of(&available.json()), expected_ids);

    // A dual-stack peer stays available until both its addresses have sessions.
    let peer = *expected.iter().find(|m| !m["ipaddr6"].is_null()).unwrap();
    let peer_as = id(&s.create(SYSTEMS, json!({"asn": peer["asn"], "name": "Known peer"})));
    s.create(
        SESSIONS,
        json!({"autonomous_system": peer_as, "ixp_connection": connection, "ip_address": peer["ipaddr4"]}),
    );
    assert!(ids_of(&s.get(&at("available-peers")).json()).contains(&id(peer)));
    s.create(
        SESSIONS,
        json!({"autonomous_system": peer_as, "ixp_connection": connection, "ip_address": peer["ipaddr6"]}),
    );
    let remaining = ids_of(&s.get(&at("available-peers")).json());
    assert!(!remaining.contains(&id(peer)));
    assert_eq!(remaining.len(), expected_ids.len() - 1);

    // Importing creates a session per address of the remaining peers, with their ASes.
    let job = s.post(&at("import-peeringdb-sessions"), json!({}));
    assert_eq!(job.status, 202, "{}", job.text);
    let done = finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let wanted: usize = expected
        .iter()
        .filter(|m| m["id"] != peer["id"])
        .map(|m| 1 + usize::from(!m["ipaddr6"].is_null()))
        .sum();
    let listed = s.get(&format!(
        "{SESSIONS}?internet_exchange_id={exchange}&limit=0"
    ));
    assert_eq!(
        listed.json()["count"],
        json!(wanted + 2),
        "{}",
        done["output"]
    );
    assert_eq!(s.get(&at("available-peers")).json(), json!([]));
    let in_pdb = s
        .get(&format!("{SESSIONS}?exists_in_extdb=true&limit=1"))
        .json();
    assert_eq!(in_pdb["count"], json!(wanted + 2));
    // Each imported session came through the write path: a creation record each.
    let created = s
        .get("/api/extras/object-changes/?action=create&changed_object_type=peering.internetexchangepeeringsession&limit=1")
        .json();
    assert_eq!(created["count"], json!(wanted + 2));
    let peer_system = s
        .get(&format!(
            "{SYSTEMS}?asn={}",
            expected.last().unwrap()["asn"]
        ))
        .json();
    let network = expected.last().unwrap()["net_id"].as_i64().unwrap();
    assert_eq!(
        peer_system["results"][0]["name"],
        format!("Network {network}")
    );

    // A peer leaves the exchange: its idle session is abandoned.
    let leaving = *expected
        .iter()
        .rev()
        .find(|m| m["asn"] != peer["asn"])
        .unwrap();
    let session = s
        .get(&format!(
            "{SESSIONS}?ip_address={}",
            leaving["ipaddr4"].as_str().unwrap()
        ))
        .json()["results"][0]
        .clone();
    let session_path = format!("{SESSIONS}{}/", id(&session));
    assert_eq!(session["exists_in_extdb"], true);
    assert_eq!(session["is_abandoned"], false);
    let patched = s.patch(&session_path, json!({"bgp_state": "idle"}));
    assert_eq!(patched.json()["is_abandoned"], false, "still in PeeringDB");
    let later = chrono::Utc::now().timestamp() + 3600;
    fake.edit(|d| d.delete("netixlan", id(leaving), later));
    let job = s.post("/api/peeringdb/cache/update-local/", json!({}));
    assert_eq!(job.status, 202, "{}", job.text);
    let done = finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let now = s.get(&session_path).json();
    assert_eq!(now["exists_in_extdb"], false);
    assert_eq!(now["is_abandoned"], true);
    let abandoned = s.get(&format!("{SESSIONS}?is_abandoned=true")).json();
    assert_eq!(ids_of(&abandoned["results"]), vec![id(&session)]);
    let established = s.patch(&session_path, json!({"bgp_state": "established"}));
    assert_eq!(established.json()["is_abandoned"], false);
}

#[test]
fn autonomous_systems_take_from_peeringdb_what_their_flags_allow() {
    let fake = FakePeeringDb::start(Dataset::new(sizes()));
    let s = synchronised(&fake);
    let sync = |system: i64| {
        s.post(
            &format!("{SYSTEMS}{system}/sync-with-peeringdb/"),
            json!({}),
        )
    };
    let all = id(&s.create(SYSTEMS, json!({"asn": Dataset::asn(4), "name": "Old name"})));
    let done = sync(all);
    assert_eq!(done.status, 200, "{}", done.text);
    let net = s.get("/api/peeringdb/networks/4/").json();
    assert_eq!(done.json()["name"], net["name"]);
    assert_eq!(done.json()["irr_as_set"], net["irr_as_set"]);
    assert_eq!(done.json()["ipv4_max_prefixes"], net["info_prefixes4"]);
    assert_eq!(done.json()["ipv6_max_prefixes"], net["info_prefixes6"]);
    let records = s.changes_of(&done);
    assert_eq!(records.len(), 1, "one change record: {records:?}");

    let some = id(&s.create(
        SYSTEMS,
        json!({"asn": Dataset::asn(5), "name": "Kept", "irr_as_set": "AS-KEPT",
               "irr_as_set_peeringdb_sync": false, "ipv4_max_prefixes_extdb_sync": false,
               "ipv4_max_prefixes": 7}),
    ));
    let done = sync(some).json();
    assert_eq!(done["irr_as_set"], "AS-KEPT");
    assert_eq!(done["ipv4_max_prefixes"], 7);
    assert_eq!(
        done["name"], "Network 5",
        "the name follows (its flag is set by default)"
    );

    let private = id(&s.create(SYSTEMS, json!({"asn": 64512, "name": "Private"})));
    let done = sync(private);
    assert_eq!(done.status, 200);
    assert_eq!(done.json()["name"], "Private");
    let unknown = id(&s.create(SYSTEMS, json!({"asn": 4_000_000, "name": "Unknown"})));
    let done = sync(unknown);
    assert_eq!(done.status, 204, "{}", done.text);
    assert_eq!(sync(999_999).status, 404);

    // Without the right to change autonomous systems: 403, nothing done.
    let reader = s.user_with("reader", &["peering.view_autonomoussystem"], true);
    let denied = s.request(
        "POST",
        &format!("{SYSTEMS}{unknown}/sync-with-peeringdb/"),
        Some(&json!({})),
        Some(&reader),
        &[],
    );
    assert_eq!(denied.status, 403);

    // After a synchronisation, every autonomous system follows its network.
    let later = chrono::Utc::now().timestamp() + 3600;
    fake.edit(|d| {
        d.change("net", 4, later, |o| {
            o["name"] = json!("Renamed in PeeringDB")
        })
    });
    let job = s.post("/api/peeringdb/cache/update-local/", json!({}));
    let done = finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("Updating values for 1 autonomous systems"),
        "{done}"
    );
    assert_eq!(
        s.get(&format!("{SYSTEMS}{all}/")).json()["name"],
        "Renamed in PeeringDB"
    );
}

#[test]
fn shared_places_come_from_the_copy() {
    let data = Dataset::new(sizes());
    let fake = FakePeeringDb::start(Dataset::new(sizes()));
    let s = synchronised(&fake);
    let lan = middling_lan(&data);
    let everyone = members(&data, lan);
    // Facilities of a network: those of its records, computed from the generator.
    let facilities_of = |asn: &Json| {
        let mut nets = std::collections::BTreeSet::new();
        data.for_each("net", 0, |n| {
            if n["asn"] == *asn {
                nets.insert(n["id"].as_i64().unwrap());
            }
        });
        let mut facilities = std::collections::BTreeSet::new();
        data.for_each("netfac", 0, |f| {
            if nets.contains(&f["net_id"].as_i64().unwrap()) {
                facilities.insert(f["fac_id"].as_i64().unwrap());
            }
        });
        facilities
    };
    let facilities: std::collections::HashMap<String, _> = everyone
        .iter()
        .map(|m| (m["asn"].to_string(), facilities_of(&m["asn"])))
        .collect();
    // Two members of the LAN that share a facility.
    let (ours, theirs, both) = everyone
        .iter()
        .flat_map(|a| everyone.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a["asn"] != b["asn"])
        .map(|(a, b)| {
            let both: Vec<i64> = facilities[&a["asn"].to_string()]
                .intersection(&facilities[&b["asn"].to_string()])
                .copied()
                .collect();
            (a, b, both)
        })
        .find(|(_, _, both)| !both.is_empty())
        .expect("two members sharing a facility");
    let (us, exchange, _) = our_presence(&s, ours, lan);
    let peer = id(&s.create(SYSTEMS, json!({"asn": theirs["asn"], "name": "Peer"})));
    let shared_ixps = format!("{SYSTEMS}{peer}/shared-ixps/");
    let shared_facilities = format!("{SYSTEMS}{peer}/shared-facilities/");
    // Without an affiliated network chosen: 503, as the reference.
    assert_eq!(s.get(&shared_ixps).status, 503);
    assert_eq!(s.get(&shared_facilities).status, 503);
    let r = s.patch("/api/users/userpref/", json!({"context": {"as": us}}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(s.get(&shared_ixps).json(), json!([]), "not linked yet");
    s.post(
        &format!("{EXCHANGES}{exchange}/link-to-peeringdb/"),
        json!({}),
    );
    assert_eq!(ids_of(&s.get(&shared_ixps).json()), vec![exchange]);

    let shared = s.get(&shared_facilities);
    assert_eq!(shared.status, 200, "{}", shared.text);
    assert_eq!(ids_of(&shared.json()), both);

    // Templates see the same through the reference's filters; the peer's records on the
    // LAN are all missing sessions.
    let theirs_here = everyone
        .iter()
        .filter(|m| m["asn"] == theirs["asn"])
        .count();
    let email = id(&s.create(
        "/api/messaging/emails/",
        json!({"name": "Shared", "subject": "x",
               "template": "{% set us = affiliated_autonomous_systems[0] %}{{ autonomous_system|shared_ixps(us)|map(attribute='id')|join(',') }} {{ autonomous_system|shared_facilities(us)|map(attribute='id')|join(',') }} {{ autonomous_system|missing_sessions(us)|length }}"}),
    ));
    let rendered = s.post(
        &format!("{SYSTEMS}{peer}/generate-email/"),
        json!({"email": email}),
    );
    assert_eq!(rendered.status, 200, "{}", rendered.text);
    let facilities: Vec<String> = both.iter().map(i64::to_string).collect();
    assert_eq!(
        rendered.json()["body"],
        format!("{exchange} {} {theirs_here}", facilities.join(","))
    );
}

#[test]
fn the_cache_is_managed_by_staff() {
    let fake = FakePeeringDb::start(Dataset::new(sizes()));
    let s = synchronised(&fake);
    let stats = s.get("/api/peeringdb/cache/statistics/");
    assert_eq!(stats.status, 200, "{}", stats.text);
    let stats = stats.json();
    assert_eq!(stats["net-count"], json!(sizes().net));
    assert_eq!(stats["netixlan-count"], json!(sizes().netixlan));
    assert_eq!(stats["carrier-count"], json!(0));
    assert_eq!(stats["sync-count"], json!(1));

    let user = s.user_with("operator", &["peering.change_autonomoussystem"], true);
    for (method, action) in [
        ("GET", "statistics"),
        ("POST", "update-local"),
        ("POST", "clear-local"),
    ] {
        let path = format!("/api/peeringdb/cache/{action}/");
        let denied = s.request(method, &path, Some(&json!({})), Some(&user), &[]);
        assert_eq!(denied.status, 403, "{action}");
        let anonymous = s.request(method, &path, Some(&json!({})), None, &[]);
        assert_eq!(anonymous.status, 403, "{action}");
    }

    let cleared = s.post("/api/peeringdb/cache/clear-local/", json!({}));
    assert_eq!(cleared.status, 200, "{}", cleared.text);
    assert_eq!(cleared.json(), json!({"status": "success"}));
    let stats = s.get("/api/peeringdb/cache/statistics/").json();
    assert!(
        stats.as_object().unwrap().values().all(|v| v == 0),
        "{stats}"
    );
    // The next synchronisation is a full one again.
    let job = s.post("/api/peeringdb/cache/update-local/", json!({}));
    let done = finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(
        s.get("/api/peeringdb/cache/statistics/").json()["net-count"],
        json!(sizes().net)
    );
}

#[test]
fn an_email_to_a_peeringdb_network_is_rendered() {
    let fake = FakePeeringDb::start(Dataset::new(sizes()));
    let s = synchronised(&fake);
    let us = id(&s.create(SYSTEMS, json!({"asn": 64500, "name": "Us"})));
    let email = id(&s.create(
        "/api/messaging/emails/",
        json!({"name": "Request", "subject": "Peering with {{ autonomous_systems[1].name }}",
               "template": "AS{{ autonomous_systems[0].asn }} to AS{{ autonomous_systems[1].asn }} ({{ autonomous_systems[1].irr_as_set }})"}),
    ));
    let render = |body: Json| s.post("/api/peeringdb/networks/render-email/", body);
    let done = render(json!({"email": email, "autonomous_system": us, "network": 7}));
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(
        done.json(),
        json!({"subject": "Peering with Network 7",
               "body": format!("AS64500 to AS{} (AS-NET7)", Dataset::asn(7))})
    );
    for (body, status) in [
        (json!({"autonomous_system": us, "network": 7}), 400),
        (json!({"email": email, "network": 7}), 400),
        (json!({"email": email, "autonomous_system": us}), 400),
        (
            json!({"email": email, "autonomous_system": us, "network": "x"}),
            400,
        ),
        (
            json!({"email": 999, "autonomous_system": us, "network": 7}),
            404,
        ),
        (
            json!({"email": email, "autonomous_system": 999, "network": 7}),
            404,
        ),
        (
            json!({"email": email, "autonomous_system": us, "network": 999_999}),
            404,
        ),
    ] {
        assert_eq!(render(body.clone()).status, status, "{body}");
    }
}
