//! Each starting template over the test network: the daemon's parser accepts it (BIRD,
//! FRR), and it holds every session, limit, password, policy and community.

use super::network::{network, EVERY_PLATFORM};
use super::{
    accepted, assert_balanced, bird, configuration, contains_all, frr, render, BIRD, FRR, JUNOS,
};
use crate::common::TestServer;

#[test]
fn bird_accepts_every_session_with_its_limits_passwords_policies_and_communities() {
    let s = TestServer::start();
    let n = network(&s);
    let text = render(&s, n.router, configuration(&s, "bird", BIRD), None);
    accepted("bird -p", &text, bird(&text));
    contains_all("BIRD", &text, EVERY_PLATFORM);
    contains_all(
        "BIRD",
        &text,
        &[
            "router id 192.0.2.1;",
            "protocol bgp 'AS65001-192.0.2.10' {",
            "local 192.0.2.1 as 64500;",
            "neighbor 192.0.2.10 as 65001;",
            "password \"s3cret-ix\";",
            "ipv4 {\n    import limit 100 action restart;",
            "ipv6 {\n    import limit 20 action restart;",
            "neighbor 2001:db8::30 as 4200000001;",
            "import limit 70 action restart;",
            "passive on;",
            "enforce first as off;",
            "disabled;  # status disabled",
            "local 198.51.100.0 as 64500;",
            "multihop 2;",
            "function 'policy-irr-filter'() {\n  bgp_community.add((64500, 200));",
            "bgp_community.add((64500, 100));  # from-ix",
            "bgp_large_community.add((64500, 1, 2));  # ix-large",
            "'policy-irr-filter'();\n      'policy-reject-bogons'();\n      accept;",
            "export filter {\n      bgp_community.add((64500, 9001));  # prepend\n      'policy-announce-own'();",
            "'policy-announce-own-v6'();",
            "description \"AS65002 Route 'Server' at Example IX\";",
        ],
    );
    // The direct session outside groups has no policy: nothing in or out (RFC 8212).
    let ungrouped = &text[text
        .find("protocol bgp 'AS4200000001-203.0.113.1'")
        .unwrap()..];
    contains_all("BIRD", ungrouped, &["import none;", "export none;"]);
    // The export policy rejects everything until written, so nothing leaks by default.
    contains_all(
        "BIRD",
        &text,
        &["function 'policy-announce-own'() {\n  reject;"],
    );
}

#[test]
fn frr_accepts_every_session_with_its_limits_passwords_policies_and_communities() {
    let s = TestServer::start();
    let n = network(&s);
    let text = render(&s, n.router, configuration(&s, "frr", FRR), None);
    accepted("vtysh -C", &text, frr(&text));
    contains_all("FRR", &text, EVERY_PLATFORM);
    contains_all(
        "FRR",
        &text,
        &[
            "router bgp 64500\n bgp router-id 192.0.2.1\n",
            " neighbor 192.0.2.10 remote-as 65001\n",
            " neighbor 192.0.2.10 password s3cret-ix\n",
            " neighbor 192.0.2.10 update-source 192.0.2.1\n",
            " neighbor 198.51.100.1 password s3cret-direct\n",
            " neighbor 198.51.100.1 ebgp-multihop 2\n",
            " neighbor 2001:db8::30 remote-as 4200000001\n",
            " neighbor 2001:db8::30 passive\n",
            " no neighbor 192.0.2.20 enforce-first-as\n",
            " neighbor 192.0.2.20 shutdown",
            " address-family ipv4 unicast\n  neighbor 192.0.2.10 activate\n  neighbor 192.0.2.10 maximum-prefix 100\n",
            "  neighbor 2001:db8::10 maximum-prefix 20\n",
            "  neighbor 192.0.2.10 route-map AS65001-192.0.2.10-in in\n",
            "  neighbor 192.0.2.10 route-map AS65001-192.0.2.10-out out\n",
            "bgp community-list standard from-ix permit 64500:100\n",
            "bgp large-community-list standard ix-large permit 64500:1:2\n",
            "route-map AS65001-192.0.2.10-in permit 10\n set community 64500:100 additive\n set large-community 64500:1:2 additive\n on-match next\n",
            " call irr-filter\n",
            " call reject-bogons\n",
            "route-map AS65001-192.0.2.10-out permit 10\n set community 64500:9001 additive\n",
            " call announce-own\n",
            "route-map irr-filter permit 10\n set community 64500:200 additive\n",
            "route-map announce-own deny 10\n",
        ],
    );
    // No policy, no route-map: bgpd exchanges no route with it (RFC 8212).
    assert!(
        !text.contains("route-map AS4200000001-203.0.113.1-"),
        "{text}"
    );
    assert!(text.contains(" bgp ebgp-requires-policy\n"), "{text}");
}

#[test]
fn junos_holds_every_session_with_its_limits_passwords_policies_and_communities() {
    let s = TestServer::start();
    let n = network(&s);
    let text = render(&s, n.router, configuration(&s, "junos", JUNOS), None);
    contains_all("Junos", &text, EVERY_PLATFORM);
    contains_all(
        "Junos",
        &text,
        &[
            "routing-options {\n    router-id 192.0.2.1;\n    autonomous-system 64500;\n}",
            "group example-ix {\n            type external;",
            "neighbor 192.0.2.10 {",
            "peer-as 65001;",
            "local-address 192.0.2.1;",
            "authentication-key \"s3cret-ix\"; ## SECRET-DATA",
            "family inet {\n                    unicast {\n                        prefix-limit {\n                            maximum 100;",
            "family inet6 {\n                    unicast {\n                        prefix-limit {\n                            maximum 20;",
            "inactive: neighbor 192.0.2.20 {",
            "peer-as 4200000001;",
            "passive;",
            "multihop ttl 2;",
            "group transit {",
            "group peeringd-direct {",
            "import [ peeringd-tag-from-ix peeringd-tag-ix-large irr-filter reject-bogons peeringd-accept ];",
            "export [ peeringd-tag-prepend announce-own peeringd-accept ];",
            "import peeringd-reject;",
            "community from-ix members 64500:100;",
            "community ix-large members large:64500:1:2;",
            "policy-statement irr-filter {",
            "policy-statement announce-own {\n        term announce-nothing-yet {\n            then reject;",
        ],
    );
    assert_balanced(&text);
}
