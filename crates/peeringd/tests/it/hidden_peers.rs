//! Hidden peers (`/api/peeringdb/hidden-peers/`, the reference's 1.10): written, filtered
//! and searched through the API with change records; left out of an exchange's available
//! peers until their time passes, with no answer served stale after it; who may read and
//! write them; and how a PeeringDB synchronisation leaves them (unlinked when PeeringDB
//! drops their network, linked again when it lists it anew).

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{import_command, output_text, sorted_field_names, TestServer};
use peering_api::{ExemptViews, Settings};
use peering_store::testing::TestDatabase;
use peeringdb_fake::{Dataset, FakePeeringDb, Sizes};
use serde_json::{json, Value as Json};

const HIDDEN: &str = "/api/peeringdb/hidden-peers/";

/// A server over a database synchronised from a small fake PeeringDB (the fake is kept
/// for later synchronisations).
fn synchronised(settings: Settings) -> (TestServer, FakePeeringDb) {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.01)));
    let db = TestDatabase::new();
    crate::common::peeringdb_sync(&db, &fake.url);
    (TestServer::start_on(db, settings), fake)
}

fn id(object: &Json) -> i64 {
    object["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no id: {object}"))
}

/// The ids of a list's results.
fn ids(s: &TestServer, query: &str) -> Vec<i64> {
    let r = s.get(&format!("{HIDDEN}?{query}"));
    assert_eq!(r.status, 200, "{query}: {}", r.text);
    r.json()["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(id)
        .collect()
}

fn time(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

#[test]
fn hidden_peers_are_written_filtered_and_searched() {
    let (s, _fake) = synchronised(Settings::default());
    let past = time(chrono::Utc::now() - chrono::Duration::days(1));
    let ahead = time(chrono::Utc::now() + chrono::Duration::days(1));
    // Under the reference's names, as its clients write them.
    let r = s.post(
        HIDDEN,
        json!({"peeringdb_network": 1, "peeringdb_ixlan": 1, "comments": "Refused twice"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let forever = r.json();
    assert_eq!(forever["extdb_network"]["id"], 1, "{forever}");
    assert_eq!(forever["extdb_ixlan"]["id"], 1, "{forever}");
    assert_eq!(forever["is_expired"], false);
    assert!(forever["until"].is_null());
    let display = forever["display"].as_str().unwrap();
    assert!(
        display.starts_with(&format!("AS{} - Network 1 hidden on ", Dataset::asn(1))),
        "{display}"
    );
    assert_eq!(s.changes_of(&r).len(), 1, "a creation record");
    // Once per network and LAN.
    let again = s.post(HIDDEN, json!({"extdb_network": 1, "extdb_ixlan": 1}));
    assert_eq!(again.status, 400, "{}", again.text);
    assert!(again.json()["__all__"].is_array(), "{}", again.text);
    let expired = s.create(
        HIDDEN,
        json!({"extdb_network": 2, "extdb_ixlan": 1, "until": past}),
    );
    assert_eq!(expired["is_expired"], true, "{expired}");
    let until = s.create(
        HIDDEN,
        json!({"extdb_network": 3, "extdb_ixlan": 2, "until": ahead, "comments": "later"}),
    );
    assert_eq!(until["is_expired"], false, "{until}");
    let (forever, expired, until) = (id(&forever), id(&expired), id(&until));

    // In the reference's order: by `until` (empty first here), then network and LAN.
    let mut all = ids(&s, "");
    all.sort_unstable();
    assert_eq!(all, vec![forever, expired, until]);
    assert_eq!(ids(&s, "is_expired=true"), vec![expired]);
    let mut current = ids(&s, "is_expired=false");
    current.sort_unstable();
    assert_eq!(current, vec![forever, until]);
    assert_eq!(ids(&s, "peeringdb_network_id=2"), vec![expired]);
    let asn = Dataset::asn(3);
    assert_eq!(
        ids(&s, &format!("peeringdb_network_asn={asn}")),
        vec![until]
    );
    assert_eq!(ids(&s, "peeringdb_ixlan_id=2"), vec![until]);
    assert_eq!(
        ids(&s, &format!("until__gt={}", time(chrono::Utc::now()))),
        vec![until]
    );
    assert_eq!(
        ids(&s, &format!("until__lt={}", time(chrono::Utc::now()))),
        vec![expired]
    );
    assert_eq!(ids(&s, &format!("id={forever}")), vec![forever]);
    assert_eq!(ids(&s, "q=refused"), vec![forever]);
    assert_eq!(ids(&s, &format!("q={asn}")), vec![until]);
    assert_eq!(ids(&s, "q=Network%202"), vec![expired]);
    // A network the copy does not hold is refused, as the reference's choice filters do.
    assert_eq!(
        s.get(&format!("{HIDDEN}?peeringdb_network_id=999999"))
            .status,
        400
    );
    assert_eq!(s.get(&format!("{HIDDEN}?is_expired=perhaps")).status, 400);

    // Brief: the reference's nested form.
    let brief = s.get(&format!("{HIDDEN}{forever}/?brief=true")).json();
    let keys = sorted_field_names(&brief);
    assert_eq!(
        keys,
        [
            "display",
            "extdb_ixlan",
            "extdb_network",
            "id",
            "until",
            "url"
        ],
        "{brief}"
    );

    // Updated and deleted with change records.
    let r = s.patch(
        &format!("{HIDDEN}{forever}/"),
        json!({"until": past, "comments": "Gone"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["is_expired"], true);
    assert_eq!(s.changes_of(&r).len(), 1, "an update record");
    let r = s.delete(&format!("{HIDDEN}{until}/"), None);
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(s.get(&format!("{HIDDEN}{until}/")).status, 404);
    let mut left = ids(&s, "");
    left.sort_unstable();
    assert_eq!(left, vec![forever, expired]);
}

/// An exchange of ours linked to PeeringDB LAN `lan` (by its id, no connection yet).
fn exchange_on(s: &TestServer, lan: i64) -> i64 {
    let us = s.create(
        "/api/peering/autonomous-systems/",
        json!({"asn": 64500, "name": "Us", "affiliated": true}),
    );
    id(&s.create(
        "/api/peering/internet-exchanges/",
        json!({"name": "Ours", "slug": "ours", "local_autonomous_system": us["id"],
               "extdb_ixlan": lan}),
    ))
}

/// The PeeringDB networks of an exchange's available peers.
fn available_networks(s: &TestServer, exchange: i64) -> Vec<i64> {
    let path = format!("/api/peering/internet-exchanges/{exchange}/available-peers/");
    let r = s.get(&path);
    assert_eq!(r.status, 200, "{}", r.text);
    let mut networks: Vec<i64> = (r.json().as_array().expect("a list").iter())
        .map(|record| {
            record["net"]["id"]
                .as_i64()
                .or(record["net"].as_i64())
                .unwrap()
        })
        .collect();
    networks.dedup();
    networks
}

#[test]
fn available_peers_leave_hidden_networks_out_until_their_time() {
    let (s, _fake) = synchronised(Settings::default());
    let exchange = exchange_on(&s, 1);
    let everyone = available_networks(&s, exchange);
    assert!(everyone.len() >= 3, "{everyone:?}");
    let (for_good, for_now, elsewhere) = (everyone[0], everyone[1], everyone[2]);
    s.create(HIDDEN, json!({"extdb_network": for_good, "extdb_ixlan": 1}));
    // Hidden on another LAN: still available here.
    s.create(
        HIDDEN,
        json!({"extdb_network": elsewhere, "extdb_ixlan": 2}),
    );
    let until = chrono::Utc::now() + chrono::Duration::seconds(2);
    let briefly = s.create(
        HIDDEN,
        json!({"extdb_network": for_now, "extdb_ixlan": 1, "until": time(until)}),
    );

    // Each answer asked for twice, as the answer cache keeps an answer from its second time.
    let expired_list = format!("{HIDDEN}?is_expired=true");
    let detail = format!("{HIDDEN}{}/", id(&briefly));
    for _ in 0..2 {
        let available = available_networks(&s, exchange);
        assert!(!available.contains(&for_good) && !available.contains(&for_now));
        assert!(available.contains(&elsewhere));
        assert_eq!(available.len(), everyone.len() - 2);
        assert_eq!(s.get(&expired_list).json()["count"], 0);
        assert_eq!(s.get(&detail).json()["is_expired"], false);
        let count = s.get(&format!("{HIDDEN}?is_expired=false&limit=1"));
        assert_eq!(count.json()["count"], 3);
    }

    // Past its time, with no write in between, the same requests answer anew.
    let deadline = Instant::now() + Duration::from_secs(10);
    while chrono::Utc::now() <= until + chrono::Duration::milliseconds(50) {
        assert!(Instant::now() < deadline, "the clock did not pass {until}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let available = available_networks(&s, exchange);
    assert!(available.contains(&for_now), "{available:?}");
    assert!(!available.contains(&for_good));
    assert_eq!(available.len(), everyone.len() - 1);
    let listed = s.get(&expired_list).json();
    assert_eq!(listed["count"], 1, "{listed}");
    assert_eq!(listed["results"][0]["id"], briefly["id"]);
    assert_eq!(s.get(&detail).json()["is_expired"], true);
    let count = s.get(&format!("{HIDDEN}?is_expired=false&limit=1"));
    assert_eq!(count.json()["count"], 2);
}

#[test]
fn hidden_peers_take_their_permissions() {
    let (s, _fake) = synchronised(Settings {
        exempt_view_permissions: "".parse::<ExemptViews>().unwrap(),
        ..Settings::default()
    });
    let hidden = s.create(HIDDEN, json!({"extdb_network": 1, "extdb_ixlan": 1}));
    let one = format!("{HIDDEN}{}/", id(&hidden));
    let body = json!({"extdb_network": 2, "extdb_ixlan": 1});
    let status = |method: &str, path: &str, body: Option<&Json>, key: Option<&str>| {
        s.request(method, path, body, key, &[]).status
    };

    // Anonymous: neither reads nor writes.
    assert_eq!(status("GET", HIDDEN, None, None), 403);
    assert_eq!(status("POST", HIDDEN, Some(&body), None), 403);
    // A user without the view permission reads nothing.
    let nobody = s.user_with("nobody", &[], true);
    assert_eq!(status("GET", HIDDEN, None, Some(&nobody)), 403);
    assert_eq!(status("GET", &one, None, Some(&nobody)), 403);
    // A reader reads, at both layouts, and writes nothing.
    let reader = s.user_with("reader", &["peeringdb.view_hiddenpeer"], true);
    assert_eq!(status("GET", HIDDEN, None, Some(&reader)), 200);
    let layout = [("Accept", "application/json; version=1.10")];
    let r = s.request("GET", HIDDEN, None, Some(&reader), &layout);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.header("API-Version"), Some("1.10"));
    assert_eq!(status("POST", HIDDEN, Some(&body), Some(&reader)), 403);
    assert_eq!(status("DELETE", &one, None, Some(&reader)), 403);
    // A read-only token of the superuser reads and writes nothing.
    let read_only = s.token("admin", true, false, None);
    assert_eq!(status("GET", &one, None, Some(&read_only)), 200);
    assert_eq!(status("POST", HIDDEN, Some(&body), Some(&read_only)), 403);
    // Writers need their action's permission.
    let adder = s.user_with(
        "adder",
        &["peeringdb.view_hiddenpeer", "peeringdb.add_hiddenpeer"],
        true,
    );
    assert_eq!(status("POST", HIDDEN, Some(&body), Some(&adder)), 201);
    assert_eq!(status("DELETE", &one, None, Some(&adder)), 403);
    let remover = s.user_with("remover", &["peeringdb.delete_hiddenpeer"], true);
    assert_eq!(status("DELETE", &one, None, Some(&remover)), 204);
}

fn sync(s: &TestServer, fake: &FakePeeringDb) {
    let out = Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", s.database_url())
        .env("PEERING_PEERINGDB_URL", &fake.url)
        .env("RUST_LOG", "warn")
        .args(["peeringdb", "sync"])
        .output()
        .expect("peeringd runs");
    assert!(out.status.success(), "{}", output_text(&out));
}

#[test]
fn a_synchronisation_keeps_hidden_peers_and_follows_the_copy() {
    let (s, fake) = synchronised(Settings::default());
    let hidden = s.create(
        HIDDEN,
        json!({"extdb_network": 5, "extdb_ixlan": 1, "comments": "kept"}),
    );
    let other = s.create(HIDDEN, json!({"extdb_network": 6, "extdb_ixlan": 1}));
    let one = format!("{HIDDEN}{}/", id(&hidden));

    // PeeringDB drops the network: the hidden peer stays, unlinked, named by the id kept.
    let later = chrono::Utc::now().timestamp() + 3600;
    fake.edit(|d| {
        d.change("net", 6, later, |o| o["name"] = json!("Renamed"));
        d.delete("net", 5, later);
    });
    sync(&s, &fake);
    let unlinked = s.get(&one).json();
    assert!(unlinked["extdb_network"].is_null(), "{unlinked}");
    assert_eq!(unlinked["extdb_ixlan"]["id"], 1, "{unlinked}");
    assert_eq!(unlinked["comments"], "kept");
    let display = unlinked["display"].as_str().unwrap();
    assert!(display.starts_with("Network ID 5 hidden on "), "{display}");
    let renamed = s.get(&format!("{HIDDEN}{}/", id(&other))).json();
    assert_eq!(renamed["extdb_network"]["id"], 6, "{renamed}");
    assert!(
        renamed["display"].as_str().unwrap().contains("Renamed"),
        "{renamed}"
    );
    // The same network cannot be hidden twice on the LAN while it is gone.
    let again = s.post(HIDDEN, json!({"extdb_network": 6, "extdb_ixlan": 1}));
    assert_eq!(again.status, 400, "{}", again.text);

    // PeeringDB lists it again: the hidden peer follows.
    fake.edit(|d| d.change("net", 5, later + 3600, |o| o["status"] = json!("ok")));
    sync(&s, &fake);
    let linked = s.get(&one).json();
    assert_eq!(linked["extdb_network"]["id"], 5, "{linked}");
    assert_eq!(ids(&s, "peeringdb_network_id=5"), vec![id(&hidden)]);
}

#[test]
fn an_import_brings_hidden_peers_onto_the_same_peeringdb_objects() {
    let (from, fake) = synchronised(Settings::default());
    let until = time(chrono::Utc::now() + chrono::Duration::days(3));
    let hidden = from.create(
        HIDDEN,
        json!({"extdb_network": 4, "extdb_ixlan": 2, "until": until, "comments": "no reply"}),
    );
    // The target holds the same PeeringDB copy (synchronised first), and no peering data.
    let target = TestDatabase::new();
    crate::common::peeringdb_sync(&target, &fake.url);
    let to = TestServer::start_on(target, Settings::default());
    let out = import_command(&to.database_url(), &from.base, &from.key)
        .output()
        .expect("peeringd runs");
    assert!(out.status.success(), "{}", output_text(&out));
    let path = format!("{HIDDEN}{}/", id(&hidden));
    let (theirs, ours) = (from.get(&path).json(), to.get(&path).json());
    for field in [
        "extdb_network",
        "extdb_ixlan",
        "until",
        "comments",
        "created",
        "display",
    ] {
        assert_eq!(
            theirs[field].to_string().replace(&from.base, ""),
            ours[field].to_string().replace(&to.base, ""),
            "{field}"
        );
    }
    // The link's id is kept, as for any hidden peer written here.
    let again = to.post(HIDDEN, json!({"extdb_network": 4, "extdb_ixlan": 2}));
    assert_eq!(again.status, 400, "{}", again.text);
}
