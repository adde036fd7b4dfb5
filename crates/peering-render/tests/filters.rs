//! Every filter, over a small network kept in memory.

mod network;

use minijinja::value::Value as V;
use network::*;
use peering_domain::resources::*;
use peering_domain::Value;
use peering_render::{context, render, Bounds, Dataset, RenderErrorKind, Secrets, Template};

#[test]
fn the_router_context_holds_what_the_reference_gives() {
    assert_eq!(
        on_router("{{ router }}|{{ router.hostname }}|{{ local_as.asn }}"),
        "edge1|edge1.example.net|64500"
    );
    assert_eq!(
        on_router("{% for a in autonomous_systems %}{{ a.asn }} {% endfor %}"),
        "65001 65002 "
    );
    assert_eq!(
        on_router("{{ bgp_groups|map(attribute='slug')|join(',') }}"),
        "transit"
    );
    assert_eq!(
        on_router("{{ internet_exchange_points|map(attribute='name')|join }}"),
        "Example IX"
    );
    assert_eq!(
        on_router("{{ communities|length }} {{ routing_policies|count }}"),
        "2 4"
    );
    assert_eq!(
        on_router("{{ router.platform.password_algorithm }} {{ router.status }}"),
        "juniper-type9 enabled"
    );
}

#[test]
fn sessions_by_object_family_group_and_exchange() {
    assert_eq!(
        on_router("{% for s in router|ixp_sessions %}{{ s.ip_address }},{% endfor %}"),
        "192.0.2.10,2001:db8::10,192.0.2.20,"
    );
    assert_eq!(on_router("{{ router|ixp_sessions(family=6)|length }}"), "1");
    assert_eq!(
        on_router("{{ router|direct_sessions|map(attribute='ip_address')|join }}"),
        "198.51.100.1"
    );
    assert_eq!(
        on_router("{{ router|direct_sessions(group=bgp_groups[0])|length }}"),
        "1"
    );
    let ixp = "{% set ixp = internet_exchange_points[0] %}";
    assert_eq!(
        on_router(&format!("{ixp}{{{{ ixp|sessions(family=4)|length }}}}")),
        "2"
    );
    assert_eq!(
        on_router(&format!(
            "{ixp}{{{{ ixp|route_server|map(attribute='ip_address')|join }}}}"
        )),
        "192.0.2.20"
    );
    assert_eq!(
        on_router(&format!(
            "{ixp}{{{{ ixp|connections|length }}}} {{{{ router|connections|length }}}}"
        )),
        "1 1"
    );
    assert_eq!(on_router("{{ bgp_groups[0]|sessions|length }}"), "1");
    assert_eq!(on_router("{% set a = autonomous_systems[0] %}{{ a|ixp_sessions|length }} {{ a|direct_sessions|length }}"), "2 1");
    assert_eq!(
        on_router("{{ router|ixp_sessions(ixp=internet_exchange_points[0])|length }}"),
        "3"
    );
    assert!(on_router_err("{{ local_as|sessions }}")
        .message
        .contains("try `direct_sessions`"));
}

#[test]
fn peers_and_exchanges() {
    assert_eq!(
        on_router("{{ router|direct_peers|map(attribute='asn')|join(',') }}"),
        "65002"
    );
    assert_eq!(
        on_router("{{ router|direct_peers('private')|length }}"),
        "0"
    );
    assert_eq!(
        on_router("{{ router|ixp_peers|map(attribute='asn')|join(',') }}"),
        "65001,65002"
    );
    assert_eq!(
        on_router("{{ router|ixp_peers('example-ix')|length }}"),
        "2"
    );
    assert_eq!(
        on_router("{{ (autonomous_systems[0]|ixps(local_as))[0].slug }}"),
        "example-ix"
    );
    assert_eq!(
        on_router("{{ autonomous_systems[0]|ixps(autonomous_systems[1])|length }}"),
        "0"
    );
    assert_eq!(on_router("{{ autonomous_systems[0]|shared_ixps(local_as)|length }} {{ local_as|shared_facilities(autonomous_systems[0])|length }} {{ local_as|missing_sessions(autonomous_systems[0])|length }}"), "0 0 0");
    assert!(on_router_err("{{ router|shared_ixps(router) }}")
        .message
        .contains("autonomous system"));
    // A PeeringDB network record stands for the other network, on either side.
    assert_eq!(
        on_router("{{ {'asn': 65010}|shared_ixps(local_as)|length }} {{ local_as|shared_ixps({'asn': 65010})|length }} {{ local_as|shared_facilities({'asn': 65010})|length }}"),
        "0 0 0"
    );
    assert!(on_router_err("{{ 'x'|shared_ixps(local_as) }}")
        .message
        .contains("not an autonomous system or a peeringdb network"));
    assert!(
        on_router_err("{{ {'asn': 1}|shared_facilities({'asn': 2}) }}")
            .message
            .contains("no peering data")
    );
}

#[test]
fn addresses() {
    assert_eq!(on_router("{% for s in router|ixp_sessions %}{{ s|ip_version }}{{ s.ip_address|ipv4 is none }}{{ s.ip_address|ipv6 is none }} {% endfor %}"), "4FalseTrue 6TrueFalse 4FalseTrue ");
    let c = "{% set c = router|connections|first %}";
    assert_eq!(on_router(&format!("{c}{{{{ c.ipv4_address|ip }}}} {{{{ c.ipv6_address|ip }}}} {{{{ [c.ipv4_address]|ip|join }}}}")), "192.0.2.1 2001:db8::1 192.0.2.1");
    assert_eq!(
        on_router(&format!(
            "{c}{{{{ c|mac }}}} {{{{ c|mac('cisco') }}}} {{{{ c.mac_address|mac('bare') }}}}"
        )),
        "00:1b:77:49:54:fd 001b.7749.54fd 001b774954fd"
    );
    assert_eq!(
        on_router("{% for s in router|ixp_sessions %}{{ s|local_ips }} {% endfor %}"),
        "192.0.2.1/24 2001:db8::1/64 192.0.2.1/24 "
    );
    assert_eq!(
        on_router("{{ router|direct_sessions|map('local_ips')|join }}"),
        "198.51.100.0/31"
    );
    assert_eq!(on_router("{{ internet_exchange_points[0]|local_ips|join(' ') }}|{{ internet_exchange_points[0]|local_ips(6)|join }}"), "192.0.2.1/24 2001:db8::1/64|2001:db8::1/64");
    assert_eq!(on_router("{% for s in router|ixp_sessions %}{{ s|max_prefix }} {% endfor %}{{ (router|direct_sessions)[0]|ip }}"), "100 20 50 198.51.100.1");
    assert_eq!(on_router("{{ (router|direct_sessions)[0].password|cisco_password }} {{ 'plain'|cisco_password }}"), "0822455D0A16 plain");
    assert!(on_router_err("{{ 'zz'|mac }}")
        .message
        .contains("not a valid mac"));
    assert!(on_router_err("{{ router|ip_version }}")
        .message
        .contains("not a bgp session"));
}

#[test]
fn statuses_are_inherited_from_parents() {
    let data = data();
    let mut source = network();
    // An exchange in maintenance passes it to its connection and sessions.
    source.insert(
        &INTERNET_EXCHANGE,
        2,
        &[
            ("name", text("Down IX")),
            ("slug", text("down")),
            ("status", text("maintenance")),
            ("communities", ids(&[])),
            ("tags", ids(&[])),
        ],
    );
    source.insert(
        &CONNECTION,
        2,
        &[
            ("internet_exchange_point", Value::Int(2)),
            ("router", Value::Int(1)),
            ("status", text("enabled")),
            ("tags", ids(&[])),
        ],
    );
    source.insert(
        &INTERNET_EXCHANGE_PEERING_SESSION,
        4,
        &[
            ("autonomous_system", Value::Int(2)),
            ("ixp_connection", Value::Int(2)),
            ("ip_address", text("203.0.113.9")),
            ("status", text("enabled")),
            ("communities", ids(&[])),
            ("tags", ids(&[])),
        ],
    );
    let other = Dataset::new(Box::new(source), Secrets::all());
    let ctx = context::router_configuration(&other, 1).unwrap();
    let t = Template { source: "{% for s in router|ixp_sessions %}{{ s|inherited_status }} {% endfor %}{% for c in router|connections %}{{ c|inherited_status }} {% endfor %}", trim: false, lstrip: false };
    assert_eq!(
        render(&t, ctx, &other, &Bounds::default()).unwrap(),
        "enabled enabled enabled maintenance enabled maintenance "
    );
    // A session in a group under maintenance, on a router under maintenance.
    let ctx = minijinja::context! { s => peering_render::Model::find(&data, &DIRECT_PEERING_SESSION, 2).unwrap().value() };
    let t = Template {
        source: "{{ s|inherited_status }}",
        trim: false,
        lstrip: false,
    };
    assert_eq!(
        render(&t, ctx, &data, &Bounds::default()).unwrap(),
        "maintenance"
    );
    assert!(on_router_err("{{ 'x'|inherited_status }}")
        .message
        .contains("no status"));
}

#[test]
fn communities_and_policies_merge_as_the_reference_does() {
    let ixp1 = "{% set s = (router|ixp_sessions)[0] %}";
    assert_eq!(
        on_router(&format!(
            "{ixp1}{{{{ s|merge_communities|map(attribute='value')|join(',') }}}}"
        )),
        "64500:2,64500:1"
    );
    assert_eq!(on_router("{{ bgp_groups[0]|communities('value')|join }} {{ bgp_groups[0]|merge_communities|length }}"), "64500:1 1");
    assert_eq!(
        on_router(&format!(
            "{ixp1}{{{{ s|merge_import_policies|map(attribute='name')|join(',') }}}}"
        )),
        "accept-all"
    );
    let ixp2 = "{% set s = (router|ixp_sessions)[1] %}";
    assert_eq!(
        on_router(&format!(
            "{ixp2}{{{{ s|merge_import_policies|map(attribute='name')|join(',') }}}}"
        )),
        "accept-all,reject-v6-bogons"
    );
    assert_eq!(
        on_router(&format!(
            "{ixp2}{{{{ s|merge_export_policies('reverse')|map(attribute='name')|join(',') }}}}"
        )),
        "export-own"
    );
    assert_eq!(
        on_router(&format!(
            "{ixp1}{{{{ s|merge_export_policies|map(attribute='name')|join(',') }}}}"
        )),
        "export-own,export-v4-only"
    );
    let ixp = "{% set x = internet_exchange_points[0] %}";
    assert_eq!(on_router(&format!("{ixp}{{{{ x|iter_export_policies('name')|join(',') }}}}|{{{{ x|iter_export_policies(family=6)|length }}}}|{{{{ x|iter_import_policies('slug', 6)|join }}}}")), "export-own,export-v4-only|1|reject-v6-bogons");
    assert!(on_router_err("{{ 'x'|iter_export_policies }}")
        .message
        .contains("has no export policies"));
}

#[test]
fn tags_contacts_and_lookups() {
    assert_eq!(on_router("{{ router|tags|map(attribute='name')|join }} {{ router|has_tag('gold') }} {{ router|has_tag('Gold') }} {{ router|has_not_tag('silver') }}"), "Gold True True True");
    let peer = "{% set p = autonomous_systems[0] %}";
    assert_eq!(on_router(&format!("{peer}{{{{ p|contact('noc', 'email') }}}} {{{{ (p|contact('NOC')).name }}}} {{{{ p|contact('abuse') is none }}}}")), "noc@peer-one.example Peer One NOC True");
    assert_eq!(
        on_router("{{ (router|ixp_sessions)[0]|contact('noc', 'name') }}"),
        "Peer One NOC"
    );
    assert_eq!(on_router("{{ router|ixp_sessions|filter(is_route_server=True)|length }} {{ router|ixp_sessions|filter(autonomous_system__asn=65001, ip_address__family=6)|length }}"), "1 1");
    assert_eq!(on_router("{{ (router|ixp_sessions|get(ip_address='192.0.2.20')).autonomous_system.asn }} {{ router|ixp_sessions|get(status='enabled')|length }}"), "65002 3");
    assert_eq!(on_router("{{ router|ixp_sessions|unique_items('autonomous_system')|length }} {{ router|ixp_sessions|iterate('ip_address')|join(' ') }}"), "2 192.0.2.10 2001:db8::10 192.0.2.20");
    assert_eq!(on_router("{{ routing_policies|filter(address_family__in=[4, 6])|length }} {{ autonomous_systems|filter(asn__gte=65002)|length }} {{ autonomous_systems|filter(name__icontains='one')|length }}"), "2 1 1");
    assert!(on_router_err("{{ 3|filter(a=1) }}")
        .message
        .contains("cannot be filtered"));
}

#[test]
fn prefixes_contexts_and_formatting() {
    assert_eq!(on_router("{{ autonomous_systems[0]|prefix_list(6)|join }} {{ autonomous_systems[0]|prefix_list(4)|join }} {{ autonomous_systems[1]|prefix_list(4)|length }}"), "2001:db8:1::/48 198.51.100.0/24 0");
    assert_eq!(
        on_router("{{ internet_exchange_points[0]|prefix_list(4)|join }}"),
        "192.0.2.0/24"
    );
    assert_eq!(on_router("{{ router|context_get_key('server') }} {{ router|context_get_key('pool') }} {{ router|context_has_key('syslog') }} {{ router|context_has_not_key('pool', recursive=False) }} {{ router|context_get_key('none', 'dflt') }}"), "192.0.2.123 True True True dflt");
    assert_eq!(on_router("{{ router.config_context.site }}"), "par1");
    assert_eq!(on_router("{{ autonomous_systems[1].name|safe_string }} {{ 'x'|quote }} {{ 'x'|quote('|') }}[{{ ''|quote }}]"), "Peer Two \"x\" |x|[]");
    assert_eq!(
        on_router(
            "{{ 'a\nb'|indent(2) }}|{{ '  a'|indent(1, '-', ) }}|{{ '--a'|indent(1, '-', True) }}"
        ),
        "  a\n  b|-  a|-a"
    );
    assert_eq!(
        on_router("{{ {'b': 1, 'a': 'é'}|as_json }}"),
        "{\n    \"a\": \"\\u00e9\",\n    \"b\": 1\n}"
    );
    assert_eq!(
        on_router("{{ {'b': [1], 'a': 2}|as_yaml }}"),
        "a: 2\nb:\n- 1\n"
    );
    let as_json = on_router("{{ local_as|as_json(2) }}");
    assert!(as_json.contains("  \"asn\": 64500,"), "{as_json}");
    assert!(on_router_err("{{ router|len }}")
        .message
        .contains("has no length"));
}

#[test]
fn secrets_are_shown_only_when_allowed() {
    let shown = on_router("{{ (router|ixp_sessions)[0].password }}");
    assert_eq!(shown, "s3cret");
    let data = Dataset::new(
        Box::new(network()),
        Secrets::of(["peering.directpeeringsession".to_string()]),
    );
    let ctx = context::router_configuration(&data, 1).unwrap();
    let t = Template {
        source:
            "{{ (router|ixp_sessions)[0].password }}|{{ (router|direct_sessions)[0].password }}",
        trim: false,
        lstrip: false,
    };
    assert_eq!(
        render(&t, ctx, &data, &Bounds::default()).unwrap(),
        "None|7 0822455D0A16"
    );
}

#[test]
fn includes_of_stored_templates() {
    assert_eq!(
        on_router("{% include_configuration \"header\" %}/{% include_configuration 7 %}"),
        "# edge1.example.net/# edge1.example.net"
    );
    assert_eq!(
        on_router("{% include_exporttemplate peers %}"),
        "64500;65001;65002;"
    );
    let e = on_router_err("{% include_configuration \"loop\" %}");
    assert_eq!(e.kind, RenderErrorKind::Bound, "{e:?}");
    let e = on_router_err("{% include_configuration \"missing\" %}");
    assert!(e.message.contains("not found"), "{e:?}");
}

#[test]
fn bounds_stop_runaway_templates() {
    let data = data();
    let tight = Bounds {
        fuel: 1_000_000,
        max_output: 1 << 20,
        max_depth: 4,
        ..Bounds::default()
    };
    let run = |source: &str| {
        let t = Template {
            source,
            trim: false,
            lstrip: false,
        };
        render(&t, V::from(()), &data, &tight).expect_err(source)
    };
    let endless = run(
        "{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}",
    );
    assert_eq!(endless.kind, RenderErrorKind::Bound);
    let huge = run("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}");
    assert_eq!(huge.kind, RenderErrorKind::Bound);
    let recursive = run("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}");
    assert_eq!(recursive.kind, RenderErrorKind::Bound, "{recursive:?}");
}

#[test]
fn whitespace_options_follow_jinja2() {
    let data = data();
    let source = "<ul>\n  {% for i in [1, 2] %}\n  <li>{{ i }}</li>\n  {% endfor %}\n</ul>";
    let both = Template {
        source,
        trim: true,
        lstrip: true,
    };
    assert_eq!(
        render(&both, V::from(()), &data, &Bounds::default()).unwrap(),
        "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>"
    );
    let none = Template {
        source,
        trim: false,
        lstrip: false,
    };
    assert_eq!(
        render(&none, V::from(()), &data, &Bounds::default()).unwrap(),
        "<ul>\n  \n  <li>1</li>\n  \n  <li>2</li>\n  \n</ul>"
    );
}

#[test]
fn syntax_errors_name_the_line() {
    let e = peering_render::check("line one\n{% if x %}\nno end").unwrap_err();
    assert_eq!(e.kind, RenderErrorKind::Syntax);
    assert_eq!(e.line, Some(2));
    assert!(peering_render::check("{{ x|sessions }}{% include_email \"a\" %}").is_ok());
}

#[test]
fn every_filter_is_registered() {
    let data = data();
    for name in peering_render::filters::NAMES {
        let t = Template {
            source: &format!("{{% if false %}}{{{{ 1|{name} }}}}{{% endif %}}ok"),
            trim: false,
            lstrip: false,
        };
        assert_eq!(
            render(&t, V::from(()), &data, &Bounds::default()).unwrap(),
            "ok",
            "{name}"
        );
    }
}

#[test]
fn emails_and_exports_have_their_contexts() {
    let data = data();
    let ctx = context::email(&data, 2).unwrap();
    let t = Template { source: "Dear AS{{ autonomous_system.asn }}, from {{ affiliated_autonomous_systems|map(attribute='name')|join }}", trim: false, lstrip: false };
    assert_eq!(
        render(&t, ctx, &data, &Bounds::default()).unwrap(),
        "Dear AS65001, from Us"
    );
    let ctx = context::export(&data, &AUTONOMOUS_SYSTEM, Some(&[3, 1]));
    let t = Template {
        source: "{% for a in dataset %}{{ a.asn }},{{ a.name }}\n{% endfor %}",
        trim: false,
        lstrip: false,
    };
    assert_eq!(
        render(&t, ctx, &data, &Bounds::default()).unwrap(),
        "65002,Péer Twö\n64500,Us\n"
    );
    assert!(context::email(&data, 99).is_none());
}
