//! Templates rendered through the API, on both databases: a Junos-style and an
//! IOS-XR-style router configuration of a small network, an e-mail, a CSV export (at once,
//! as a job and over a filtered list), templates refused on write, bounds, permissions and
//! secrets. Expected texts are the reviewed snapshots in `snapshots/`.

use std::time::{Duration, Instant};

use crate::common::network::{finished, id, network, one, ROUTERS};
use crate::common::TestServer;
use serde_json::json;

const JUNOS: &str = r#"system {
  host-name {{ router.hostname }};
  ntp { server {{ router|context_get_key('server') }}; }
}
routing-options { autonomous-system {{ local_as.asn }}; }
protocols {
  bgp {
{% for ixp in internet_exchange_points %}
{% for session in ixp|sessions %}
    group {{ ixp.slug }}-v{{ session|ip_version }} {
      neighbor {{ session.ip_address }} {
        description "AS{{ session.autonomous_system.asn }} {{ session.autonomous_system.name|safe_string }}";
        peer-as {{ session.autonomous_system.asn }};
        local-address {{ session|local_ips|ip }};
{% if session.password %}
        authentication-key "{{ session.password }}";
{% endif %}
{% if session.is_route_server %}
        passive;
{% endif %}
        family inet{{ '6' if session|ip_version == 6 }} { unicast { prefix-limit { maximum {{ session|max_prefix }}; } } }
        import [ {{ session|merge_import_policies|map(attribute='slug')|join(' ') }} ];
        export [ {{ session|merge_export_policies|map(attribute='slug')|join(' ') }} ];
        community [ {{ session|merge_communities|map(attribute='value')|join(' ') }} ];
        inherited-status {{ session|inherited_status }};
      }
    }
{% endfor %}
{% endfor %}
{% for group in bgp_groups %}
    group {{ group.slug }} {
{% for session in router|direct_sessions(group=group) %}
      neighbor {{ session.ip_address }} { peer-as {{ session.autonomous_system.asn }}; local-address {{ session|local_ips|ip }}; }
{% endfor %}
    }
{% endfor %}
  }
}
"#;

const IOSXR: &str = r#"hostname {{ router.name }}
router bgp {{ local_as.asn }}
{%- for session in router|direct_sessions %}
 neighbor {{ session|ip }}
  remote-as {{ session.autonomous_system.asn }}
  description {{ session.autonomous_system.name|quote }}
  password encrypted {{ session.password|cisco_password }}
  update-source {{ session|local_ips|ip }}
  address-family ipv{{ session|ip_version }} unicast
   maximum-prefix {{ session|max_prefix }}
   route-policy {{ session|iter_export_policies('slug')|join(',') or 'none' }} out
{%- endfor %}
!
"#;

fn template(s: &TestServer, name: &str, source: &str, trim: bool) -> i64 {
    one(
        s,
        "/api/devices/configurations/",
        json!({"name": name, "template": source, "jinja2_trim": trim, "jinja2_lstrip": trim}),
    )
}

fn text_of(s: &TestServer, path: &str) -> String {
    let r = s.get(path);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r.text
}

#[test]
fn router_configurations_render_as_text_and_as_jobs() {
    let s = TestServer::start();
    let n = network(&s);
    let junos = template(&s, "junos", JUNOS, true);
    let iosxr = template(&s, "iosxr", IOSXR, false);
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"configuration_template": junos}),
    );
    s.patch(
        &format!("{ROUTERS}{}/", n.iosxr),
        json!({"configuration_template": iosxr}),
    );
    let junos_text = text_of(
        &s,
        &format!("{ROUTERS}{}/configuration/?format=text", n.junos),
    );
    insta::assert_snapshot!("junos", junos_text);
    let iosxr_text = text_of(
        &s,
        &format!("{ROUTERS}{}/configuration/?format=text", n.iosxr),
    );
    insta::assert_snapshot!("iosxr", iosxr_text);
    // As a job: 202, then the job's output is the same text.
    let r = s.get(&format!("{ROUTERS}{}/configuration/", n.junos));
    assert_eq!(r.status, 202, "{}", r.text);
    let job = r.json();
    assert_eq!(job["name"], "peering.router.generate_configuration");
    assert_eq!(job["object_type"], "peering.router");
    assert_eq!(job["object_id"], n.junos);
    let done = finished(&s, &job);
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(done["output"].as_str(), Some(junos_text.as_str()));
    assert_eq!(done["user"]["username"], "admin");
    // Another user sees the job, not its output; the owner can delete it.
    let other = s.token("viewer", false, false, None);
    let seen = s.send(
        "GET",
        &format!("/api/core/jobs/{}/", id(&job)),
        None,
        Some(&other),
        &[],
    );
    assert!(seen.json()["output"].is_null(), "{}", seen.text);
    assert_eq!(
        s.delete(&format!("/api/core/jobs/{}/", id(&job)), None)
            .status,
        204
    );
}

#[test]
fn a_router_without_template_renders_nothing_and_permissions_are_checked() {
    let s = TestServer::start();
    let n = network(&s);
    assert_eq!(
        text_of(
            &s,
            &format!("{ROUTERS}{}/configuration/?format=text", n.junos)
        ),
        ""
    );
    let viewer = s.token("viewer", false, true, None);
    let path = format!("{ROUTERS}{}/configuration/?format=text", n.junos);
    assert_eq!(s.send("GET", &path, None, Some(&viewer), &[]).status, 403);
    assert_eq!(s.send("GET", &path, None, None, &[]).status, 403);
    assert_eq!(
        s.get(&format!("{ROUTERS}999/configuration/?format=text"))
            .status,
        404
    );
    // Nor is a job enqueued for a router that does not exist.
    assert_eq!(s.get(&format!("{ROUTERS}999/configuration/")).status, 404);
    assert_eq!(s.get("/api/core/jobs/").json()["count"], 0);
}

#[test]
fn passwords_render_only_for_callers_who_may_change_sessions() {
    let s = TestServer::start();
    let n = network(&s);
    let t = template(
        &s,
        "pw",
        "{% for x in router|ixp_sessions %}[{{ x.password }}]{% endfor %}",
        false,
    );
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"configuration_template": t}),
    );
    let path = format!("{ROUTERS}{}/configuration/?format=text", n.junos);
    assert_eq!(text_of(&s, &path), "[s3cret][None][None]");
    let key = s.user_with("renderer", &["peering.view_router_configuration"], false);
    let r = s.send("GET", &path, None, Some(&key), &[]);
    assert_eq!((r.status, r.text.as_str()), (200, "[None][None][None]"));
}

#[test]
fn templates_that_do_not_parse_are_refused_on_write() {
    let s = TestServer::start();
    let r = s.post(
        "/api/devices/configurations/",
        json!({"name": "bad", "template": "ok\n{% if x %}\nno end"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    let message = r.json()["template"][0].as_str().unwrap().to_string();
    assert!(
        message.starts_with("Invalid template at line 2:"),
        "{message}"
    );
    let r = s.post(
        "/api/messaging/emails/",
        json!({"name": "bad", "subject": "{{ x", "template": "fine"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.json()["subject"][0].as_str().unwrap().contains("line 1"),
        "{}",
        r.text
    );
    let r = s.post(
        "/api/extras/export-templates/",
        json!({"name": "bad", "content_type": "peering.autonomoussystem", "template": "{% for %}"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    let good = s.create(
        "/api/devices/configurations/",
        json!({"name": "good", "template": "{% include_configuration \"other\" %}"}),
    );
    let r = s.patch(
        &format!("/api/devices/configurations/{}/", id(&good)),
        json!({"template": "{{"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(s.get("/api/devices/configurations/").json()["count"], 1);
}

#[test]
fn runaway_templates_end_with_a_clear_error_and_the_server_stays_responsive() {
    let s = TestServer::start();
    let n = network(&s);
    let sources = [
        ("loop", "{% for i in range(100000) %}{% for j in range(100000) %}{% set x = i %}{% endfor %}{% endfor %}", "too much work"),
        ("huge", "{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", "larger than the limit"),
        ("self", "{% include_configuration \"self\" %}", "recursion"),
    ];
    for (name, source, expected) in sources {
        let t = template(&s, name, source, false);
        s.patch(
            &format!("{ROUTERS}{}/", n.junos),
            json!({"configuration_template": t}),
        );
        let started = Instant::now();
        let r = s.get(&format!("{ROUTERS}{}/configuration/?format=text", n.junos));
        assert_eq!(r.status, 400, "{name}: {}", r.text);
        assert!(
            r.json()["detail"].as_str().unwrap().contains(expected),
            "{name}: {}",
            r.text
        );
        // The bound is the render's work budget, not a time: this only tells a render that
        // ended from one that hung, with room for a debug build on a loaded machine.
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{name} took {:?}",
            started.elapsed()
        );
        let job = s
            .get(&format!("{ROUTERS}{}/configuration/", n.junos))
            .json();
        let done = finished(&s, &job);
        assert_eq!(done["status"]["value"], "errored", "{done}");
        assert!(
            done["output"].as_str().unwrap().contains(expected),
            "{done}"
        );
        assert_eq!(s.get("/api/status/").status, 200);
    }
}

#[test]
fn emails_render_for_a_peer() {
    let s = TestServer::start();
    let n = network(&s);
    let email = one(
        &s,
        "/api/messaging/emails/",
        json!({
            "name": "Peering request",
            "subject": "Peering with AS{{ affiliated_autonomous_systems[0].asn }}",
            "template": "Hello {{ autonomous_system.name }},\n\nWe would like to peer at:\n{% for ixp in autonomous_system|ixps(affiliated_autonomous_systems[0]) %}- {{ ixp.name }}\n{% endfor %}Max prefixes: {{ autonomous_system.ipv4_max_prefixes }}/{{ autonomous_system.ipv6_max_prefixes }}\n",
            "jinja2_trim": false,
        }),
    );
    let r = s.post(
        &format!("/api/peering/autonomous-systems/{}/generate-email/", n.peer),
        json!({"email": email}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let body = r.json();
    assert_eq!(body["subject"], "Peering with AS64500");
    insta::assert_snapshot!("email", body["body"].as_str().unwrap());
    let path = format!("/api/peering/autonomous-systems/{}/generate-email/", n.peer);
    assert_eq!(
        s.post(&path, json!({})).json(),
        json!({"email": ["This field is required."]})
    );
    assert_eq!(s.post(&path, json!({"email": 999})).status, 404);
    assert_eq!(
        s.post(
            "/api/peering/autonomous-systems/999/generate-email/",
            json!({"email": email})
        )
        .status,
        404
    );
}

#[test]
fn exports_render_at_once_as_jobs_and_over_filtered_lists() {
    let s = TestServer::start();
    network(&s);
    let csv = "asn,name,ipv4_max_prefixes\n{% for a in dataset %}{{ a.asn }},{{ a.name|quote }},{{ a.ipv4_max_prefixes }}\n{% endfor %}";
    let export = one(
        &s,
        "/api/extras/export-templates/",
        json!({"name": "csv", "content_type": "peering.autonomoussystem", "template": csv}),
    );
    let r = s.get(&format!(
        "/api/extras/export-templates/{export}/render-synchronous/"
    ));
    assert_eq!(r.status, 200, "{}", r.text);
    let all = r.json()["rendered"].as_str().unwrap().to_string();
    insta::assert_snapshot!("csv", all);
    let job = s.get(&format!("/api/extras/export-templates/{export}/render/"));
    assert_eq!(job.status, 202, "{}", job.text);
    assert_eq!(
        finished(&s, &job.json())["output"].as_str(),
        Some(all.as_str())
    );
    let r = s.get("/api/peering/autonomous-systems/?export=csv&asn__gte=65000&ordering=-asn");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.header("Content-Disposition"),
        Some("attachment; filename=\"csv.txt\"")
    );
    assert_eq!(
        r.text,
        "asn,name,ipv4_max_prefixes\n65002,\"Péer Twö\",50\n65001,\"Peer One\",100\n"
    );
    let r = s.get("/api/peering/autonomous-systems/?export=nope");
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.json()["export"][0].as_str().unwrap().contains("\"csv\""),
        "{}",
        r.text
    );
    assert_eq!(s.get("/api/peering/routers/?export=csv").status, 400);
}

#[test]
fn autonomous_system_and_session_actions() {
    let s = TestServer::start();
    let n = network(&s);
    let r = s.get(&format!(
        "/api/peering/autonomous-systems/{}/as-set-prefixes/",
        n.peer
    ));
    assert_eq!(r.json(), json!({"ipv6": [], "ipv4": []}));
    let r = s.get(&format!(
        "/api/peering/autonomous-systems/{}/shared-ixps/",
        n.peer
    ));
    assert_eq!(
        (r.status, r.json()),
        (
            503,
            json!({"detail": "User did not choose an affiliated AS."})
        )
    );
    s.patch("/api/users/userpref/", json!({"context": {"as": 1}}));
    let r = s.get(&format!(
        "/api/peering/autonomous-systems/{}/shared-ixps/",
        n.peer
    ));
    assert_eq!((r.status, r.json()), (200, json!([])));
    // Encryption needs a router that encrypts with its platform's algorithm.
    let session = s
        .get("/api/peering/direct-peering-sessions/?limit=1")
        .json()["results"][0]
        .clone();
    let path = format!(
        "/api/peering/direct-peering-sessions/{}/encrypt-password/",
        id(&session)
    );
    assert_eq!(s.post(&path, json!({})).status, 503);
    let router = session["router"]["id"].clone();
    let platform = s.get(&format!("{ROUTERS}{router}/")).json()["platform"]["id"].clone();
    s.patch(
        &format!("/api/devices/platforms/{platform}/"),
        json!({"password_algorithm": "cisco-type7"}),
    );
    s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"encrypt_passwords": true}),
    );
    let r = s.post(&path, json!({}));
    assert_eq!((r.status, r.json()), (200, json!({"encrypted": true})));
    let after = s
        .get(&format!(
            "/api/peering/direct-peering-sessions/{}/",
            id(&session)
        ))
        .json();
    assert!(
        !after["encrypted_password"]
            .as_str()
            .unwrap_or_default()
            .is_empty(),
        "{after}"
    );
    assert_eq!(
        s.post(
            "/api/peering/direct-peering-sessions/999/encrypt-password/",
            json!({})
        )
        .status,
        404
    );
}

/// One line per filter of the reference, over the network kept in the database.
const TOUR: &str = r#"{% set ixp = internet_exchange_points[0] %}{% set s = (ixp|sessions)[0] %}{% set d = (router|direct_sessions)[0] %}{% set peer = s.autonomous_system %}{% set c = (router|connections)[0] %}
safe_string: {{ (autonomous_systems|get(asn=65002)).name|safe_string }}
quote: {{ router.name|quote }} {{ router.name|quote("'") }}
tags: {{ peer|tags|map(attribute='slug')|join(',') }}
has_tag: {{ peer|has_tag('gold') }} {{ peer|has_tag('Gold') }} {{ peer|has_not_tag('gold') }}
inherited_status: {{ s|inherited_status }} {{ c|inherited_status }} {{ d|inherited_status }}
ipv4/ipv6: {{ s.ip_address|ipv4 }} {{ s.ip_address|ipv6 }} {{ c.ipv6_address|ipv6 }}
mac: {{ c|mac }} {{ c|mac('cisco') }} {{ c.mac_address|mac('bare') }}
length/len/count: {{ ixp|sessions|length }} {{ router.name|len }} {{ autonomous_systems|count }}
filter: {{ ixp|sessions|filter(is_route_server=True)|iterate('ip_address')|join(',') }} {{ ixp|sessions|filter(ip_address__family=6)|length }}
get: {{ (ixp|sessions|get(ip_address='192.0.2.20')).autonomous_system.asn }}
unique_items: {{ ixp|sessions|unique_items('autonomous_system')|length }}
iterate: {{ autonomous_systems|iterate('asn')|join(',') }}
ixps: {{ peer|ixps(local_as)|map(attribute='slug')|join(',') }}
shared_ixps/shared_facilities/missing_sessions: {{ peer|shared_ixps(local_as)|length }} {{ peer|shared_facilities(local_as)|length }} {{ peer|missing_sessions(local_as)|length }}
prefix_list: {{ peer|prefix_list }} {{ peer|prefix_list(4)|length }}
local_ips: {{ s|local_ips }} {{ d|local_ips }} {{ ixp|local_ips|join(' ') }} {{ ixp|local_ips(6)|join(' ') }}
direct_sessions: {{ router|direct_sessions|length }} {{ peer|direct_sessions|length }} {{ router|direct_sessions(4, bgp_groups[0])|length }}
ixp_sessions: {{ router|ixp_sessions|length }} {{ router|ixp_sessions(6)|length }} {{ peer|ixp_sessions(ixp=ixp)|length }}
sessions: {{ ixp|sessions|length }} {{ ixp|sessions(family=4)|length }} {{ bgp_groups[0]|sessions|length }}
route_server: {{ ixp|route_server|iterate('ip_address')|join }}
ip/ip_version: {{ d|ip }} {{ d.ip_address|ip }} {{ [c.ipv4_address, c.ipv6_address]|ip|join(' ') }} {{ s|ip_version }}
max_prefix: {{ s|max_prefix }} {{ d|max_prefix }}
cisco_password: {{ d.password|cisco_password }}
arista_password: {{ d.password|arista_password }}
as_list/strip_irr_sources: {{ peer|as_list|length }} {{ 'RIPE::AS-X RADB:AS-X ipv6:AS-Y'|strip_irr_sources|join(',') }}
relationships: {{ peer|relationships|iterate('slug')|join(',') }} {{ peer|relationships(local_as)|length }}
bfds: {{ router|bfds|length }}
routing_policies: {{ router|routing_policies('slug')|join(',') }} {{ router|routing_policies('slug', 6)|join(',') }}
now: {{ now('%Y')|length }} {{ now(timezone='Asia/Tokyo')[-1] }}
connections: {{ ixp|connections|length }} {{ router|connections|map(attribute='vlan')|join }}
direct_peers/ixp_peers: {{ router|direct_peers|iterate('asn')|join(',') }} {{ router|ixp_peers|iterate('asn')|join(',') }} {{ router|ixp_peers('example-ix')|length }}
communities: {{ ixp|communities('value')|join(',') }} {{ peer|communities|length }}
merge_communities: {{ s|merge_communities|map(attribute='value')|join(',') }} {{ d|merge_communities|map(attribute='value')|join(',') }}
contact: {{ peer|contact('noc', 'email') }} {{ (s|contact('NOC')).name }} {{ peer|contact('abuse') }}
iter_export_policies/iter_import_policies: {{ ixp|iter_export_policies('slug')|join(',') }} {{ ixp|iter_export_policies(family=6)|length }} {{ ixp|iter_import_policies('slug')|join(',') }}
merge_export_policies/merge_import_policies: {{ s|merge_export_policies|map(attribute='slug')|join(',') }} {{ s|merge_import_policies('reverse')|map(attribute='slug')|join(',') }}
context_has_key/context_has_not_key/context_get_key: {{ router|context_has_key('server') }} {{ router|context_has_not_key('ntp') }} {{ router|context_get_key('server') }} {{ router|context_get_key('nothing', 'default') }}
as_json: {{ {'asn': peer.asn, 'name': peer.name}|as_json(indent=1) }}
as_yaml: {{ {'asn': peer.asn, 'exchanges': peer|ixps(local_as)|map(attribute='slug')|list}|as_yaml }}
indent: {{ "a\nb"|indent(4) }}"#;

#[test]
fn every_filter_renders_over_stored_data() {
    let s = TestServer::start();
    let n = network(&s);
    let role = one(
        &s,
        "/api/messaging/contact-roles/",
        json!({"name": "NOC", "slug": "noc"}),
    );
    let contact = one(
        &s,
        "/api/messaging/contacts/",
        json!({"name": "Peer One NOC", "email": "noc@peer-one.example"}),
    );
    s.create("/api/messaging/contact-assignments/", json!({"content_type": "peering.autonomoussystem", "object_id": n.peer, "role": role, "contact": contact}));
    let tour = template(&s, "tour", TOUR, false);
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"configuration_template": tour}),
    );
    let text = text_of(
        &s,
        &format!("{ROUTERS}{}/configuration/?format=text", n.junos),
    );
    for name in peering_render::filters::NAMES {
        assert!(
            TOUR.contains(&format!("|{name}")),
            "the tour does not use {name}"
        );
    }
    insta::assert_snapshot!("tour", text);
}
