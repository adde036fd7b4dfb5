//! What the demo data show through the API: every exchange's available peers, sessions
//! PeeringDB does not list and abandoned ones, exchanges and facilities shared with a peer,
//! an exchange linked again, every router's configuration holding a neighbour per session,
//! and every e-mail template rendered for the audience it is written for.

use std::collections::HashMap;

use super::all;
use crate::common::network::id;
use crate::common::{demo_network, TestServer};
use peering_api::Settings;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONNECTION, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION,
    ROUTER,
};
use serde_json::{json, Value as Json};

/// The demo's own AS number.
pub(crate) const LOCAL_ASN: i64 = 4_100_064_500;

const EXCHANGES: &str = "/api/peering/internet-exchanges/";
const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
const SYSTEMS: &str = "/api/peering/autonomous-systems/";

fn list(s: &TestServer, path: &str) -> Vec<Json> {
    let r = s.get(path);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    let body = r.json();
    match body.get("results") {
        Some(results) => results.as_array().cloned().unwrap_or_default(),
        None => body.as_array().cloned().unwrap_or_default(),
    }
}

fn count(s: &TestServer, query: &str) -> i64 {
    let r = s.get(&format!("{SESSIONS}?{query}&limit=1"));
    assert_eq!(r.status, 200, "{query}: {}", r.text);
    r.json()["count"].as_i64().unwrap_or(-1)
}

/// The id of the autonomous system with number `asn`.
fn system(s: &TestServer, asn: i64) -> i64 {
    id(&list(s, &format!("{SYSTEMS}?asn={asn}"))[0])
}

#[test]
fn the_peeringdb_copy_shows_in_every_feature() {
    let s = TestServer::start_on(demo_network(), Settings::default());
    let exchanges = list(&s, &format!("{EXCHANGES}?limit=0"));
    assert_eq!(exchanges.len(), 12);
    for x in &exchanges {
        let at = |action: &str| format!("{EXCHANGES}{}/{action}/", id(x));
        // Available peers, on the exchange's own LAN.
        let prefixes = s.get(&at("prefixes")).json();
        let v4: ipnet::IpNet = prefixes["ipv4"][0].as_str().unwrap().parse().unwrap();
        let available = list(&s, &at("available-peers"));
        assert!(!available.is_empty(), "{}: no available peer", x["name"]);
        for record in &available {
            let address: std::net::IpAddr = record["ipaddr4"].as_str().unwrap().parse().unwrap();
            assert!(v4.contains(&address), "{record} is not on {v4}");
        }
        // Linking again finds the same LAN.
        let linked = s.post(&at("link-to-peeringdb"), json!({}));
        assert_eq!(linked.status, 200, "{}", linked.text);
        assert_eq!(linked.json()["extdb_ixlan"], x["extdb_ixlan"]);
    }

    let (found, missing) = (
        count(&s, "exists_in_extdb=true"),
        count(&s, "exists_in_extdb=false"),
    );
    let abandoned = count(&s, "is_abandoned=true");
    assert!(found > 1000 && missing > 0, "{found} found, {missing} not");
    assert!(
        abandoned > 0 && abandoned < missing,
        "{abandoned} abandoned"
    );
    // Abandoned: the disabled sessions of a peer that left the exchange.
    let r = s.get(&format!("{SESSIONS}?is_abandoned=true&limit=0"));
    for session in r.json()["results"].as_array().unwrap() {
        assert_eq!(session["status"]["value"], "disabled", "{session}");
        assert_eq!(session["exists_in_extdb"], false, "{session}");
    }

    // With our AS chosen, the biggest peer shares exchanges and facilities with us.
    let us = system(&s, LOCAL_ASN);
    let r = s.patch("/api/users/userpref/", json!({"context": {"as": us}}));
    assert_eq!(r.status, 200, "{}", r.text);
    let biggest = system(&s, 4_100_100_000);
    let shared = list(&s, &format!("{SYSTEMS}{biggest}/shared-ixps/"));
    assert!(shared.len() >= 10, "{shared:?}");
    assert!(!list(&s, &format!("{SYSTEMS}{biggest}/shared-facilities/")).is_empty());
}

/// Each router's rendered configuration holds a neighbour statement for each of its
/// sessions, in its platform's words.
#[test]
fn every_router_renders_a_neighbour_per_session() {
    let db = demo_network();
    let store = peering_store::Store::open(&db.url, 1).unwrap();
    let router_of: HashMap<i64, i64> = all(&store, &CONNECTION)
        .iter()
        .map(|c| (c.id, c.int(&CONNECTION, "router")))
        .collect();
    let mut addresses: HashMap<i64, Vec<String>> = HashMap::new();
    let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
    for session in all(&store, spec) {
        let router = router_of[&session.int(spec, "ixp_connection")];
        let address = session.text(spec, "ip_address").to_string();
        addresses.entry(router).or_default().push(address);
    }
    let spec = &DIRECT_PEERING_SESSION;
    for session in all(&store, spec) {
        let address = session.text(spec, "ip_address");
        let host = address.split('/').next().unwrap_or_default().to_string();
        addresses
            .entry(session.int(spec, "router"))
            .or_default()
            .push(host);
    }
    let routers = all(&store, &ROUTER);
    let s = TestServer::start_on(db, Settings::default());
    assert_eq!(routers.len(), 3);
    for router in routers {
        let r = s.get(&format!(
            "/api/peering/routers/{}/configuration/?format=text",
            router.id
        ));
        assert_eq!(r.status, 200, "{}", r.text);
        let name = router.text(&ROUTER, "name");
        let wanted = &addresses[&router.id];
        assert!(wanted.len() >= 20, "{name}: {} sessions", wanted.len());
        for address in wanted {
            let statements = [
                format!("neighbor {address} as "),
                format!(" neighbor {address} remote-as "),
                format!("neighbor {address} {{"),
            ];
            assert!(
                statements.iter().any(|n| r.text.contains(n.as_str())),
                "{name} has no neighbour {address}"
            );
        }
    }
}

/// E-mails for an autonomous system render for ours, a peer in PeeringDB and one that is
/// not; e-mails for a network render for a newcomer, from our AS, with the exchanges
/// PeeringDB lists us both at.
#[test]
fn every_email_template_renders_for_its_audience() {
    let s = TestServer::start_on(demo_network(), Settings::default());
    let us = system(&s, LOCAL_ASN);
    let biggest = system(&s, 4_100_100_000);
    // A peer without an AS-SET: PeeringDB has no network for it.
    let outside = all(&s.store, &AUTONOMOUS_SYSTEM)
        .into_iter()
        .find(|a| a.text(&AUTONOMOUS_SYSTEM, "irr_as_set").is_empty())
        .unwrap()
        .id;
    let newcomer = list(&s, "/api/peeringdb/networks/?asn=4100900000");
    let newcomer = id(&newcomer[0]);
    let emails = list(&s, "/api/messaging/emails/");
    assert_eq!(emails.len(), 4);
    let mut rendered = HashMap::new();
    for email in &emails {
        let for_network = email["comments"]
            .as_str()
            .unwrap_or_default()
            .contains("PeeringDB network");
        let answers: Vec<_> = if for_network {
            let body = json!({"email": id(email), "autonomous_system": us, "network": newcomer});
            vec![(
                newcomer,
                s.post("/api/peeringdb/networks/render-email/", body),
            )]
        } else {
            [us, biggest, outside]
                .iter()
                .map(|&system| {
                    let path = format!("{SYSTEMS}{system}/generate-email/");
                    (system, s.post(&path, json!({"email": id(email)})))
                })
                .collect()
        };
        for (to, r) in answers {
            assert_eq!(r.status, 200, "{}: {}", email["name"], r.text);
            let body = r.json();
            assert!(
                body["subject"].as_str().unwrap().contains("AS4100"),
                "{body}"
            );
            let name = email["name"].as_str().unwrap().to_string();
            rendered.insert((name, to), body["body"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(rendered.len(), 3 * 3 + 1);
    // The peering request to the biggest peer lists where PeeringDB shows us both; the
    // newcomer's e-mail reads its PeeringDB record.
    let request = &rendered[&("Peering request".to_string(), biggest)];
    assert!(
        request.contains("PeeringDB lists both our networks at:\n- Example IX Amsterdam"),
        "{request}"
    );
    let welcome = &rendered[&("New network".to_string(), newcomer)];
    assert!(
        welcome.contains("Dear Newcomer Networks 1 peering team")
            && welcome.contains("filtered with AS-NEWCOMER1"),
        "{welcome}"
    );
    // `shared_ixps` takes the network record, as the reference's does.
    assert!(
        welcome.contains("PeeringDB shows AS4100900000 at exchanges where we are:\n- Example IX"),
        "{welcome}"
    );
    assert!(rendered.values().all(|b| !b.contains("{{")));
}
