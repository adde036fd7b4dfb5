//! `peeringd peeringdb sync` against a fake PeeringDB on 127.0.0.1: full and incremental
//! synchronisations, deletions, bad data and failing answers, read back through the API.

use std::process::{Command, Output};

use crate::common::{output_text, TestServer};
use peering_store::testing::TestDatabase;
use peeringdb_fake::{Dataset, FakePeeringDb, Fault, Sizes};
use serde_json::json;

/// A small PeeringDB (1% of the real one: 330 networks, 600 network-LAN objects).
fn small() -> Dataset {
    Dataset::new(Sizes::scaled(0.01))
}

fn sync(database_url: &str, fake: &FakePeeringDb) -> Output {
    Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", database_url)
        .env("PEERING_PEERINGDB_URL", &fake.url)
        .env("PEERING_PEERINGDB_API_KEY", "fake-key")
        .env("RUST_LOG", "warn")
        .args(["peeringdb", "sync"])
        .output()
        .expect("peeringd runs")
}

fn count(s: &TestServer, path: &str) -> i64 {
    let r = s.get(&format!("/api/peeringdb/{path}/?limit=1"));
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r.json()["count"].as_i64().unwrap()
}

#[test]
fn a_first_sync_copies_everything_then_changes_come_incrementally() {
    let fake = FakePeeringDb::start(small());
    let db = TestDatabase::new();
    let out = sync(&db.url, &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    assert!(report.contains("(everything)"), "{report}");
    let sizes = Sizes::scaled(0.01);
    let s = TestServer::start_on(db, Default::default());
    assert_eq!(count(&s, "networks"), sizes.net as i64);
    assert_eq!(count(&s, "network-ixlans"), sizes.netixlan as i64);
    assert_eq!(count(&s, "ixlan-prefixes"), sizes.ixpfx() as i64);
    assert_eq!(count(&s, "synchronisations"), 1);
    // Every request asked for depth 0 with the API key, as the reference does.
    let requests = fake.requests();
    assert_eq!(requests.len(), 11);
    assert!(requests.iter().all(|(path, key)| path.contains("since=0")
        && path.contains("depth=0")
        && key.as_deref() == Some("Api-Key fake-key")));

    let net = s.get("/api/peeringdb/networks/5/").json();
    assert_eq!(net["asn"], json!(Dataset::asn(5)));
    assert_eq!(
        net["display"],
        json!(format!("AS{} - Network 5", Dataset::asn(5)))
    );
    assert!(net["org"]["name"]
        .as_str()
        .unwrap()
        .starts_with("Organisation "));

    // Counted (and kept) before the exchange goes: its LANs go with it through the
    // database's cascade, which no statement names, and must leave the count.
    let lans = count(&s, "ixlans");
    assert_eq!(count(&s, "ixlans"), lans);
    let of_2 = s.get("/api/peeringdb/ixlans/?ix_id=2&limit=1");
    let lans_of_2 = of_2.json()["count"].as_i64().expect(&of_2.text);
    assert!(lans_of_2 > 0);

    let later = peeringdb_fake_time() + 3600;
    fake.edit(|d| {
        d.change("net", 5, later, |o| o["name"] = json!("Renamed network"));
        d.delete("netixlan", 1, later);
        d.delete("ix", 2, later);
        d.add("org", later, json!({"name": "Newcomer", "country": "FR"}));
    });
    let out = sync(&s.database_url(), &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    assert!(report.contains("changes since"), "{report}");
    assert!(
        report.contains("1 created, 1 updated, 2 deleted"),
        "{report}"
    );
    let incremental = &fake.requests()[11..];
    assert!(
        incremental.iter().all(|(p, _)| !p.contains("since=0")),
        "{incremental:?}"
    );

    assert_eq!(
        s.get("/api/peeringdb/networks/5/").json()["name"],
        "Renamed network"
    );
    assert_eq!(s.get("/api/peeringdb/network-ixlans/1/").status, 404);
    // The exchange's LANs and their members went with it.
    assert_eq!(s.get("/api/peeringdb/internet-exchanges/2/").status, 404);
    let lans_left = s.get("/api/peeringdb/ixlans/?ix_id=2");
    assert_eq!(
        lans_left.status, 400,
        "no exchange 2 any more: {}",
        lans_left.text
    );
    assert_eq!(count(&s, "ixlans"), lans - lans_of_2);
    let named = s.get("/api/peeringdb/organizations/?name=Newcomer").json();
    assert_eq!(named["count"], 1);
    assert_eq!(count(&s, "synchronisations"), 2);
}

/// The time the fake's generated objects were last updated.
fn peeringdb_fake_time() -> i64 {
    // A change must come after the first synchronisation, which happened now.
    chrono::Utc::now().timestamp()
}

#[test]
fn failures_leave_the_copy_as_it_was_and_the_next_sync_completes() {
    let fake = FakePeeringDb::start(small());
    let db = TestDatabase::new();
    fake.fault(Fault::Status {
        namespace: "netixlan".into(),
        status: 500,
        times: 1,
    });
    let out = sync(&db.url, &fake);
    assert!(!out.status.success());
    assert!(
        output_text(&out).contains("PeeringDB answered 500 for netixlan"),
        "{}",
        output_text(&out)
    );

    fake.fault(Fault::Malformed {
        namespace: "poc".into(),
    });
    let out = sync(&db.url, &fake);
    assert!(!out.status.success());
    assert!(
        output_text(&out).contains("answer for poc is malformed"),
        "{}",
        output_text(&out)
    );

    // Throttled twice, then served: the sync waits as asked and completes.
    fake.fault(Fault::Status {
        namespace: "net".into(),
        status: 429,
        times: 2,
    });
    let s = TestServer::start_on(db, Default::default());
    assert_eq!(count(&s, "networks"), 0, "the failed syncs wrote nothing");
    assert_eq!(count(&s, "synchronisations"), 0);
    let out = sync(&s.database_url(), &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    assert_eq!(count(&s, "networks"), Sizes::scaled(0.01).net as i64);
}

#[test]
fn objects_with_missing_fields_or_unknown_parents_are_skipped_and_reported() {
    let mut data = small();
    let t = peeringdb_fake_time();
    data.change("net", 3, t, |o| {
        o.as_object_mut().unwrap().remove("org_id");
    });
    data.change("netixlan", 4, t, |o| o["net_id"] = json!(999_999));
    data.change("netixlan", 6, t, |o| o["ipaddr4"] = json!("not an address"));
    let fake = FakePeeringDb::start(data);
    let db = TestDatabase::new();
    let out = sync(&db.url, &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    // Also refused: the objects of network 3 (its contacts, its places), as it is not kept.
    assert!(report.contains(" objects refused:"), "{report}");
    assert!(report.contains("net #3: org_id: missing"), "{report}");
    assert!(
        report.contains("netixlan #4: net_id: no network #999999 in the copy"),
        "{report}"
    );
    assert!(report.contains("netixlan #6: ipaddr4: "), "{report}");
    let s = TestServer::start_on(db, Default::default());
    assert_eq!(s.get("/api/peeringdb/networks/3/").status, 404);
    assert_eq!(s.get("/api/peeringdb/network-ixlans/4/").status, 404);
    assert_eq!(count(&s, "networks"), Sizes::scaled(0.01).net as i64 - 1);
}

#[test]
fn a_directory_of_answers_is_imported_without_network() {
    let dir = tempfile_dir();
    let data = small();
    for namespace in ["org", "net"] {
        let mut objects = Vec::new();
        data.for_each(namespace, 0, |o| objects.push(o.clone()));
        let body = json!({"data": objects});
        std::fs::write(dir.join(format!("{namespace}.json")), body.to_string()).unwrap();
    }
    let db = TestDatabase::new();
    let out = Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_PEERINGDB_URL", "http://127.0.0.1:9/unreachable")
        .args(["peeringdb", "sync", "--from-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(
        output_text(&out).contains("no file for: campus, fac"),
        "{}",
        output_text(&out)
    );
    let s = TestServer::start_on(db, Default::default());
    assert_eq!(count(&s, "networks"), Sizes::scaled(0.01).net as i64);
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("peeringd-pdb-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The number of networks whose name starts with `prefix`.
fn named(s: &TestServer, prefix: &str) -> i64 {
    let r = s.get(&format!(
        "/api/peeringdb/networks/?name__isw={prefix}&limit=1"
    ));
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["count"].as_i64().unwrap()
}

#[test]
fn a_sync_killed_mid_way_leaves_the_previous_copy_whole() {
    let sizes = Sizes::scaled(0.05);
    let fake = FakePeeringDb::start(Dataset::new(sizes));
    let db = TestDatabase::new();
    let out = sync(&db.url, &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    let s = TestServer::start_on(db, Default::default());
    // Counted (and kept) before the exchange goes: its LANs go with it through the
    // database's cascade, which no statement names, and must leave the count.
    let lans = count(&s, "ixlans");
    assert_eq!(count(&s, "ixlans"), lans);
    let of_2 = s.get("/api/peeringdb/ixlans/?ix_id=2&limit=1");
    let lans_of_2 = of_2.json()["count"].as_i64().expect(&of_2.text);
    assert!(lans_of_2 > 0);

    let later = peeringdb_fake_time() + 3600;
    fake.edit(|d| {
        for id in 1..=sizes.net as i64 {
            d.change("net", id, later, |o| {
                o["name"] = json!(format!("Renamed {id}"))
            });
        }
    });
    let total = sizes.net as i64;
    // Killed at several moments of a synchronisation that renames every network: each
    // time the copy is the old one, whole (or, had it finished, the new one, whole).
    for delay in [30, 100, 250, 500, 900] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_peeringd"))
            .env("PEERING_DATABASE_URL", s.database_url())
            .env("PEERING_PEERINGDB_URL", &fake.url)
            .env("RUST_LOG", "warn")
            .args(["peeringdb", "sync"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("peeringd runs");
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        child.wait().expect("ended");
        let renamed = named(&s, "Renamed");
        assert!(
            renamed == 0 || renamed == total,
            "killed after {delay} ms: {renamed} of {total} renamed"
        );
        if renamed == total {
            // It had committed before the kill.
            break;
        }
        assert_eq!(named(&s, "Network"), total, "the old copy is whole");
        assert_eq!(count(&s, "synchronisations"), 1);
    }
    let before = count(&s, "synchronisations");
    let out = sync(&s.database_url(), &fake);
    assert!(out.status.success(), "{}", output_text(&out));
    assert_eq!(named(&s, "Renamed"), total);
    assert_eq!(count(&s, "synchronisations"), before + 1);
}
