//! `peeringd demo-data` as a user runs it: what it writes, that the data hold together, that
//! a seed repeats them, and that it leaves a database with peering data alone; the story
//! its data tell (`story`) and the README's walk through them (`walkthrough`).

mod story;
mod walkthrough;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::process::{Command, Output};

use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, COMMUNITY, CONFIGURATION, CONNECTION, CONTACT, CONTACT_ROLE,
    DIRECT_PEERING_SESSION, EMAIL, INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION,
    OBJECT_CHANGE, PLATFORM, RELATIONSHIP, ROUTER, ROUTING_POLICY, TAG, WEBHOOK,
};
use peering_domain::{Record, ResourceSpec};
use peering_filter::Filter;
use peering_store::testing::TestDatabase;
use peering_store::{Store, Window};

fn demo_data(db: &TestDatabase, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", &db.url)
        .env("RUST_LOG", "warn")
        .arg("demo-data")
        .args(args)
        .output()
        .unwrap()
}

fn succeed(db: &TestDatabase, args: &[&str]) -> String {
    let out = demo_data(db, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "demo-data {args:?} failed: {stderr}");
    stderr
}

pub(crate) fn all(store: &Store, spec: &'static ResourceSpec) -> Vec<Record> {
    let window = Window {
        limit: None,
        offset: 0,
    };
    store
        .list(spec, &Filter::default(), window, false, None)
        .unwrap()
        .records
}

fn count(store: &Store, spec: &'static ResourceSpec) -> usize {
    all(store, spec).len()
}

#[test]
fn scale_one_writes_a_realistic_network_with_its_change_records() {
    let db = TestDatabase::new();
    let summary = succeed(&db, &["--scale", "1"]);
    let store = Store::open(&db.url, 1).unwrap();

    let fixed: &[(&'static ResourceSpec, usize)] = &[
        (&AUTONOMOUS_SYSTEM, 301),
        (&INTERNET_EXCHANGE, 12),
        (&CONNECTION, 24),
        (&ROUTER, 3),
        (&TAG, 5),
        (&COMMUNITY, 10),
        (&ROUTING_POLICY, 10),
        (&BGP_GROUP, 3),
        (&RELATIONSHIP, 3),
        (&PLATFORM, 4),
        (&CONFIGURATION, 3),
        (&CONTACT_ROLE, 3),
        (&EMAIL, 4),
        (&WEBHOOK, 2),
    ];
    for (spec, expected) in fixed {
        assert_eq!(count(&store, spec), *expected, "{}", spec.path);
    }
    let sessions = all(&store, &INTERNET_EXCHANGE_PEERING_SESSION);
    let direct = all(&store, &DIRECT_PEERING_SESSION);
    let contacts = count(&store, &CONTACT);
    assert!(
        (2000..5000).contains(&sessions.len()),
        "{} sessions at exchanges",
        sessions.len()
    );
    assert!((20..200).contains(&direct.len()), "{} direct", direct.len());
    assert!(contacts >= 10, "{contacts} contacts");

    // The summary on stderr gives each resource's count, then the total and the time.
    let counted = |path: &str| -> Option<usize> {
        let line = summary
            .lines()
            .find(|l| l.split_whitespace().next() == Some(path))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    assert_eq!(
        counted("internet-exchange-peering-sessions"),
        Some(sessions.len()),
        "{summary}"
    );
    assert_eq!(counted("autonomous-systems"), Some(301), "{summary}");
    assert!(
        summary.contains("a PeeringDB copy of the first region: 1"),
        "{summary}"
    );

    // One affiliated AS, the local one; the others are its peers.
    let ases = all(&store, &AUTONOMOUS_SYSTEM);
    let affiliated: Vec<i64> = ases
        .iter()
        .filter(|a| a.get(&AUTONOMOUS_SYSTEM, "affiliated").as_bool() == Some(true))
        .map(|a| a.int(&AUTONOMOUS_SYSTEM, "asn"))
        .collect();
    assert_eq!(affiliated, [story::LOCAL_ASN]);
    assert!(ases
        .iter()
        .all(|a| !a.text(&AUTONOMOUS_SYSTEM, "name").is_empty()));

    // Every session's address lies in its connection's network of its family, once per
    // connection.
    let networks: HashMap<i64, (ipnet::IpNet, ipnet::IpNet)> = all(&store, &CONNECTION)
        .iter()
        .map(|c| {
            let net = |f: &str| c.text(&CONNECTION, f).parse::<ipnet::IpNet>().unwrap();
            (c.id, (net("ipv4_address"), net("ipv6_address")))
        })
        .collect();
    let mut seen = HashSet::new();
    let mut per_as: HashMap<i64, usize> = HashMap::new();
    for s in &sessions {
        let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
        let conn = s.int(spec, "ixp_connection");
        let ip: std::net::IpAddr = s.text(spec, "ip_address").parse().unwrap();
        let (v4, v6) = networks[&conn];
        let net = if ip.is_ipv4() { v4 } else { v6 };
        assert!(net.contains(&ip), "{ip} not in {net}");
        assert_ne!(ip, net.addr(), "{ip} is the router's own address");
        assert!(seen.insert((conn, ip)), "{ip} twice on connection {conn}");
        *per_as.entry(s.int(spec, "autonomous_system")).or_default() += 1;
    }
    // Skewed towards a few large networks: the biggest peers at every exchange, over both
    // families and both routers; half the peers at one or two; the biggest tenth of the
    // peers with over a quarter of the sessions.
    let mut sizes: Vec<usize> = per_as.values().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(sizes[0], 12 * 2 * 2, "{sizes:?}");
    assert!(sizes[sizes.len() / 2] <= 2 * 2 * 2, "{sizes:?}");
    assert!(
        sizes[..30].iter().sum::<usize>() * 4 > sessions.len(),
        "{sizes:?}"
    );
    assert!(per_as.len() >= 290, "{} peers with sessions", per_as.len());

    // Passwords on the Junos router that encrypts them are stored in its $9$ form too.
    let junos = all(&store, &ROUTER)
        .into_iter()
        .find(|r| r.get(&ROUTER, "encrypt_passwords").as_bool() == Some(true))
        .unwrap()
        .id;
    let router_of: HashMap<i64, i64> = all(&store, &CONNECTION)
        .iter()
        .map(|c| (c.id, c.int(&CONNECTION, "router")))
        .collect();
    let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
    let with_password: Vec<&Record> = sessions
        .iter()
        .filter(|s| !s.text(spec, "password").is_empty())
        .collect();
    assert!(with_password.len() > 50, "{}", with_password.len());
    for s in with_password {
        let stored = s.text(spec, "encrypted_password");
        if router_of[&s.int(spec, "ixp_connection")] == junos {
            let algorithm = peering_domain::password::Algorithm::JuniperType9;
            assert!(stored.starts_with("$9$"), "{stored}");
            assert_eq!(
                peering_domain::password::decrypt(algorithm, stored).as_deref(),
                Some(s.text(spec, "password"))
            );
        } else {
            assert_eq!(stored, "");
        }
    }

    // Every object has its change record, by the demo-data user.
    let changes = all(&store, &OBJECT_CHANGE);
    let written =
        fixed.iter().map(|(_, n)| n).sum::<usize>() + sessions.len() + direct.len() + contacts;
    assert_eq!(changes.len(), written);
    assert!(changes
        .iter()
        .all(|c| c.text(&OBJECT_CHANGE, "user_name") == "demo-data"
            && c.text(&OBJECT_CHANGE, "action") == "create"));
}

/// What a run wrote, without ids and times: peers, sessions (by peer and connection
/// address), direct sessions and contacts.
fn fingerprint(db: &TestDatabase) -> Vec<String> {
    let store = Store::open(&db.url, 1).unwrap();
    let asn: BTreeMap<i64, i64> = all(&store, &AUTONOMOUS_SYSTEM)
        .iter()
        .map(|a| (a.id, a.int(&AUTONOMOUS_SYSTEM, "asn")))
        .collect();
    let conn: BTreeMap<i64, String> = all(&store, &CONNECTION)
        .iter()
        .map(|c| (c.id, c.text(&CONNECTION, "ipv4_address").to_string()))
        .collect();
    let mut out = Vec::new();
    for a in all(&store, &AUTONOMOUS_SYSTEM) {
        let spec = &AUTONOMOUS_SYSTEM;
        out.push(format!(
            "as {} {} {} {} {}",
            a.int(spec, "asn"),
            a.text(spec, "name"),
            a.text(spec, "irr_as_set"),
            a.int(spec, "ipv4_max_prefixes"),
            a.int(spec, "ipv6_max_prefixes"),
        ));
    }
    for s in all(&store, &INTERNET_EXCHANGE_PEERING_SESSION) {
        let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
        out.push(format!(
            "ixp AS{} via {} {} {} {} {} {}",
            asn[&s.int(spec, "autonomous_system")],
            conn[&s.int(spec, "ixp_connection")],
            s.text(spec, "ip_address"),
            s.text(spec, "status"),
            s.text(spec, "password"),
            s.text(spec, "encrypted_password"),
            s.int(spec, "received_prefix_count"),
        ));
    }
    for s in all(&store, &DIRECT_PEERING_SESSION) {
        let spec = &DIRECT_PEERING_SESSION;
        out.push(format!(
            "direct {} AS{} {} {} {}",
            s.text(spec, "service_reference"),
            asn[&s.int(spec, "autonomous_system")],
            s.text(spec, "ip_address"),
            s.text(spec, "password"),
            s.text(spec, "encrypted_password"),
        ));
    }
    for c in all(&store, &CONTACT) {
        out.push(format!(
            "contact {} {}",
            c.text(&CONTACT, "name"),
            c.text(&CONTACT, "phone")
        ));
    }
    out.sort();
    out
}

#[test]
fn a_seed_gives_the_same_data_and_another_seed_other_data() {
    let (one, two, other) = (
        TestDatabase::new(),
        TestDatabase::new(),
        TestDatabase::new(),
    );
    succeed(&one, &["--seed", "7"]);
    succeed(&two, &["--seed", "7", "--scale", "1"]);
    succeed(&other, &["--seed", "8"]);
    let (one, two, other) = (fingerprint(&one), fingerprint(&two), fingerprint(&other));
    assert!(one.len() > 2000);
    assert!(one == two, "two runs with seed 7 differ");
    assert!(one != other, "seeds 7 and 8 gave the same data");
}

#[test]
fn a_database_with_peering_data_is_left_alone() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 1).unwrap();
    let body = serde_json::json!({"name": "Gold", "slug": "gold"});
    let draft =
        peering_domain::input::parse(&TAG, &body, peering_domain::input::Mode::Create).unwrap();
    let ctx = peering_store::ChangeContext {
        request_id: "00000000-0000-4000-8000-000000000000".into(),
        user_id: None,
        user_name: "test".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    store.create(&TAG, vec![draft], &ctx).unwrap();

    let out = demo_data(&db, &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 tags"), "{stderr}");
    assert!(stderr.contains("fresh database"), "{stderr}");
    assert_eq!(count(&store, &TAG), 1);
    assert_eq!(count(&store, &AUTONOMOUS_SYSTEM), 0);
    assert_eq!(count(&store, &OBJECT_CHANGE), 1);

    let out = demo_data(&TestDatabase::new(), &["--scale", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--scale"));
}
