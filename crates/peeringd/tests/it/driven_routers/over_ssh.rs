//! The same BIRD router reached over SSH, as operators reach routers: a real OpenSSH
//! server on loopback, a key file, the server's host key pinned; `birdc` runs through the
//! SSH session against the daemon's socket (`remote_socket`).

use serde_json::json;

use super::daemons::{self, Site};
use super::{completed, job, polled_until_established};
use crate::common::builders::autonomous_system;
use crate::common::network::{id, ROUTERS};
use crate::common::TestServer;
use peering_exec::testing::Server as SshServer;
use peering_routers::testing::Daemon;

/// Where this test runs its daemons.
const OVER_SSH: Site = Site {
    lan: "127.0.7",
    a_port: 11701,
    c_port: 11703,
};

#[test]
fn a_bird_router_reached_over_ssh_is_tested_polled_and_configured() {
    let s = TestServer::start();
    let sshd = SshServer::start();
    let site = &OVER_SSH;
    let frr = Daemon::frr(&daemons::frr_config(site), &[&site.c()], site.c_port);
    let bird = Daemon::bird(&daemons::bird_by_hand(site));
    let us = autonomous_system(65001, "Us").id(&s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "BIRD", "slug": "bird", "napalm_driver": "bird"}),
    );
    let args = json!({
        "port": sshd.port,
        "ssh_key": sshd.path("client").display().to_string(),
        "host_key": sshd.host_key(),
        "remote_socket": bird.socket.display().to_string(),
        "config_file": bird.config_file.display().to_string(),
    });
    let router = id(&s.create(
        ROUTERS,
        json!({"name": "bird-a", "hostname": "127.0.0.1", "platform": id(&platform),
               "local_autonomous_system": us, "napalm_username": sshd.user,
               "napalm_args": args, "napalm_timeout": 20}),
    ));
    let exchange = id(&s.create(
        "/api/peering/internet-exchanges/",
        json!({"name": "Loopback IX", "slug": "loopback-ix", "local_autonomous_system": us}),
    ));
    s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": exchange, "router": router,
               "ipv4_address": format!("{}/24", site.a())}),
    );

    let tested = job(
        &s,
        "GET",
        &format!("{ROUTERS}{router}/test-napalm-connection/"),
        json!({}),
    );
    assert!(completed(&tested).contains("BIRD"), "{tested}");
    assert!(sshd.log().contains("Accepted publickey"), "{}", sshd.log());

    let path = format!("/api/peering/internet-exchanges/{exchange}/import-sessions/");
    let imported = job(&s, "POST", &path, json!({}));
    assert!(
        completed(&imported).starts_with("Imported 2 sessions"),
        "{imported}"
    );
    polled_until_established(&s, site, router);

    let template = s.create(
        "/api/devices/configurations/",
        json!({"name": "bird", "template": daemons::bird_template(site, "")}),
    );
    let r = s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"configuration_template": id(&template)}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let body = json!({"routers": [router], "commit": true});
    let committed = job(&s, "POST", &format!("{ROUTERS}configure/"), body);
    completed(&committed);
    assert!(!bird.config_on_disk().contains("silent"));
    drop(frr);
}

#[test]
fn an_unknown_host_key_is_refused_and_named() {
    let s = TestServer::start();
    let sshd = SshServer::start();
    let us = autonomous_system(65001, "Us").id(&s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "FRR", "slug": "frr", "napalm_driver": "frr"}),
    );
    let missing_known_hosts = sshd.path("no-such-known-hosts");
    let args = json!({
        "port": sshd.port,
        "ssh_key": sshd.path("client").display().to_string(),
        "known_hosts": missing_known_hosts.display().to_string(),
    });
    let router = id(&s.create(
        ROUTERS,
        json!({"name": "frr-b", "hostname": "127.0.0.1", "platform": id(&platform),
               "local_autonomous_system": us, "napalm_username": sshd.user,
               "napalm_args": args, "napalm_timeout": 10}),
    ));
    let tested = job(
        &s,
        "GET",
        &format!("{ROUTERS}{router}/test-napalm-connection/"),
        json!({}),
    );
    assert_eq!(tested["status"]["value"], "errored", "{tested}");
    let output = tested["output"].as_str().unwrap_or_default();
    assert!(output.contains(&sshd.host_fingerprint()), "{output}");
}
