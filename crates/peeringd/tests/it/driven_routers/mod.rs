//! Routers peeringd drives itself, through the API only, against real daemons on loopback
//! (`daemons.rs`): BIRD as a managed router, FRR as a managed peer. The connection is
//! tested; `import-sessions` creates exactly the neighbours on the exchange; a poll records
//! `established` and the prefixes the peer announces; a configuration is checked, diffed,
//! committed, rolled back by BIRD when unconfirmed and kept when confirmed; one BIRD refuses
//! changes nothing. docs/driving-routers.md is what is tested.

mod daemons;
mod over_ssh;

use std::time::{Duration, Instant};

use crate::common::builders::autonomous_system;
use crate::common::network::{finished, id, ROUTERS};
use crate::common::TestServer;
use daemons::{Site, ANNOUNCED};
use peering_routers::testing::Daemon;
use serde_json::{json, Value as Json};

const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";

/// Where the test driving BIRD through its socket runs its daemons.
const LOCAL: Site = Site {
    lan: "127.0.6",
    a_port: 11601,
    c_port: 11603,
};

/// The stored objects of the exchange where A meets C.
struct Exchange {
    exchange: i64,
    bird: i64,
    frr: i64,
}

/// A managed router for `daemon`, on a platform of `driver`.
fn managed_router(s: &TestServer, name: &str, driver: &str, daemon: &Daemon, us: &Json) -> i64 {
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": name, "slug": name, "napalm_driver": driver}),
    );
    let args = json!({
        "socket": daemon.socket.display().to_string(),
        "config_file": daemon.config_file.display().to_string(),
    });
    id(&s.create(
        ROUTERS,
        json!({"name": name, "hostname": format!("{name}.example.net"),
               "platform": id(&platform), "local_autonomous_system": us,
               "napalm_args": args, "napalm_timeout": 20}),
    ))
}

fn exchange(s: &TestServer, site: &Site, bird: &Daemon, frr: &Daemon) -> Exchange {
    let us = autonomous_system(65001, "Us").id(s);
    let exchange = id(&s.create(
        "/api/peering/internet-exchanges/",
        json!({"name": "Loopback IX", "slug": "loopback-ix", "local_autonomous_system": us}),
    ));
    let bird_router = managed_router(s, "bird-a", "bird", bird, &us);
    let frr_router = managed_router(s, "frr-c", "frr", frr, &us);
    s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": exchange, "router": bird_router,
               "ipv4_address": format!("{}/24", site.a())}),
    );
    Exchange {
        exchange,
        bird: bird_router,
        frr: frr_router,
    }
}

/// Runs a router action as a job; the finished job.
fn job(s: &TestServer, method: &str, path: &str, body: Json) -> Json {
    let r = s.request(method, path, Some(&body), Some(&s.key), &[]);
    assert_eq!(r.status, 202, "{path}: {}", r.text);
    let started = r.json();
    let first = if started.is_array() {
        started[0].clone()
    } else {
        started
    };
    finished(s, &first)
}

fn completed(job: &Json) -> &str {
    assert_eq!(job["status"]["value"], "completed", "{job}");
    job["output"].as_str().unwrap_or_default()
}

/// Polls A until its session with C is established with C's prefixes; the session.
fn polled_until_established(s: &TestServer, site: &Site, router: i64) -> Json {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        completed(&job(
            s,
            "POST",
            &format!("{ROUTERS}{router}/poll-bgp-sessions/"),
            json!({}),
        ));
        let sessions = s.get(&format!("{SESSIONS}?ip_address={}", site.c())).json();
        let session = sessions["results"][0].clone();
        if session["bgp_state"] == "established" && session["received_prefix_count"] == ANNOUNCED {
            return session;
        }
        assert!(Instant::now() < deadline, "never established: {session}");
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_driven_bird_router_is_tested_imported_polled_and_configured() {
    let s = TestServer::start();
    let frr = Daemon::frr(&daemons::frr_config(&LOCAL), &[&LOCAL.c()], LOCAL.c_port);
    let bird = Daemon::bird(&daemons::bird_by_hand(&LOCAL));
    let n = exchange(&s, &LOCAL, &bird, &frr);

    let tested = job(
        &s,
        "GET",
        &format!("{ROUTERS}{}/test-napalm-connection/", n.bird),
        json!({}),
    );
    assert!(completed(&tested).contains("BIRD"), "{tested}");
    let tested = job(
        &s,
        "GET",
        &format!("{ROUTERS}{}/test-napalm-connection/", n.frr),
        json!({}),
    );
    assert!(completed(&tested).contains("FRRouting"), "{tested}");

    // The two neighbours on the exchange's LAN become sessions; the one off it does not.
    let path = format!(
        "/api/peering/internet-exchanges/{}/import-sessions/",
        n.exchange
    );
    let imported = job(&s, "POST", &path, json!({}));
    assert!(
        completed(&imported).starts_with("Imported 2 sessions, created 2"),
        "{imported}"
    );
    let sessions = s
        .get(&format!("{SESSIONS}?internet_exchange_id={}", n.exchange))
        .json();
    let mut addresses: Vec<String> = sessions["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["ip_address"].as_str().unwrap().to_string())
        .collect();
    addresses.sort();
    assert_eq!(addresses, [LOCAL.c(), LOCAL.silent()]);
    let silent = s.get("/api/peering/autonomous-systems/?asn=65004").json();
    assert_eq!(silent["results"][0]["name"], "AS65004", "{silent}");
    let again = job(&s, "POST", &path, json!({}));
    assert!(
        completed(&again).starts_with("Imported 0 sessions, created 0"),
        "{again}"
    );

    let session = polled_until_established(&s, &LOCAL, n.bird);
    assert!(!session["last_established_state"].is_null(), "{session}");
    let silent = s
        .get(&format!("{SESSIONS}?ip_address={}", LOCAL.silent()))
        .json();
    assert_eq!(silent["results"][0]["bgp_state"], "active", "{silent}");
    drop(frr);
    configure_through_the_api(&s, n.bird, &bird);
}

/// Gives the router a template rendering C and `extra`.
fn template(s: &TestServer, router: i64, extra: &str) {
    let template = s.create(
        "/api/devices/configurations/",
        json!({"name": format!("bird {}", extra.len()), "template": daemons::bird_template(&LOCAL, extra)}),
    );
    let r = s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"configuration_template": id(&template)}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

fn configure(s: &TestServer, router: i64, body: Json) -> Json {
    let mut body = body;
    body["routers"] = json!([router]);
    job(s, "POST", &format!("{ROUTERS}configure/"), body)
}

fn configure_through_the_api(s: &TestServer, router: i64, bird: &Daemon) {
    let by_hand = bird.config_on_disk();
    template(s, router, "");
    let checked = configure(s, router, json!({"commit": false}));
    let answer: Json = serde_json::from_str(completed(&checked)).unwrap();
    assert_eq!(answer["committed"], false, "{answer}");
    assert!(
        answer["diff"]
            .as_str()
            .unwrap()
            .contains("-protocol bgp silent"),
        "{answer}"
    );
    assert_eq!(bird.config_on_disk(), by_hand);

    template(s, router, "this is not BIRD;\n");
    let refused = configure(s, router, json!({"commit": true}));
    assert_eq!(refused["status"]["value"], "errored", "{refused}");
    assert!(
        refused["output"].as_str().unwrap().contains("syntax error"),
        "{refused}"
    );
    assert_eq!(bird.config_on_disk(), by_hand);

    template(s, router, "");
    let committed = configure(s, router, json!({"commit": true, "confirm_within": 2}));
    let answer: Json = serde_json::from_str(completed(&committed)).unwrap();
    assert_eq!(answer["committed"], true, "{answer}");
    std::thread::sleep(Duration::from_secs(4));
    let late = s.post(
        &format!("{ROUTERS}{router}/confirm-configuration/"),
        json!({}),
    );
    assert_eq!(
        late.status, 503,
        "BIRD rolled back by itself: {}",
        late.text
    );
    assert_eq!(bird.config_on_disk(), by_hand);

    let committed = configure(s, router, json!({"commit": true, "confirm_within": 30}));
    completed(&committed);
    let kept = s.post(
        &format!("{ROUTERS}{router}/confirm-configuration/"),
        json!({}),
    );
    assert_eq!(kept.status, 200, "{}", kept.text);
    assert!(!bird.config_on_disk().contains("silent"));
}

#[test]
fn confirm_within_needs_commit_and_a_sane_number() {
    let s = TestServer::start();
    let us = autonomous_system(65001, "Us").id(&s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "BIRD", "slug": "bird", "napalm_driver": "bird"}),
    );
    let router = id(&s.create(
        ROUTERS,
        json!({"name": "r", "hostname": "r.example.net", "platform": id(&platform),
               "local_autonomous_system": us}),
    ));
    for body in [
        json!({"routers": [router], "confirm_within": 10}),
        json!({"routers": [router], "commit": true, "confirm_within": 0}),
        json!({"routers": [router], "commit": true, "confirm_within": "10"}),
    ] {
        let r = s.post(&format!("{ROUTERS}configure/"), body.clone());
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert!(r.json()["confirm_within"].is_array(), "{}", r.text);
    }
}
