//! Every filter, test and function the reference's templates may use (its own, listed in
//! `reference/template-names.txt`, and Jinja2's, in `reference/jinja2-builtins.txt`)
//! renders here and does what it should for one input, or is listed with its reason in
//! `docs/differences.md`.

mod network;

use std::collections::BTreeSet;

use peering_render::{context, render, Bounds, Template};

const OWN: &str = include_str!("../reference/template-names.txt");
const BUILTINS: &str = include_str!("../reference/jinja2-builtins.txt");
const DIFFERENCES: &str = include_str!("../../../docs/differences.md");

/// Set in every case: an exchange, a direct session (198.51.100.1, with AS 65002, in the
/// group `transit`), a session at the exchange (192.0.2.10, with AS 65001) and a peer
/// (AS 65001).
const PRELUDE: &str = "{% set ixp = internet_exchange_points[0] %}\
    {% set s = router|direct_sessions|first %}{% set xs = router|ixp_sessions|first %}\
    {% set peer = autonomous_systems[0] %}";

/// (kind, name, template, what router 1's configuration context renders it as). A test
/// `t` is rendered as `{% if t %}y{% else %}n{% endif %}`.
const CASES: &[(&str, &str, &str, &str)] = &[
    // The reference's own filters.
    ("filter", "safe_string", "{{ 'Péer Twö'|safe_string }}", "Peer Two"),
    ("filter", "quote", "{{ 64500|quote(\"'\") }}{{ ''|quote }}", "'64500'"),
    ("filter", "tags", "{{ router|tags|map(attribute='name')|join }}", "Gold"),
    ("filter", "has_tag", "{% if router|has_tag('gold') %}y{% endif %}", "y"),
    ("filter", "has_not_tag", "{% if s|has_not_tag('x') %}y{% endif %}", "y"),
    ("filter", "inherited_status", "{{ s|inherited_status }}", "enabled"),
    ("filter", "ipv4", "{{ '192.0.2.1/24'|ipv4 }}", "192.0.2.1/24"),
    ("filter", "ipv6", "{{ '2001:db8::1'|ipv6 }}", "2001:db8::1"),
    ("filter", "mac", "{{ '00:1B:77:49:54:FD'|mac('cisco') }}", "001b.7749.54fd"),
    ("filter", "length", "{{ autonomous_systems|length }}", "2"),
    ("filter", "len", "{{ 'abc'|len }}", "3"),
    ("filter", "count", "{{ router|ixp_sessions|count }}", "3"),
    ("filter", "filter", "{{ autonomous_systems|filter(asn=65002)|map(attribute='name')|join }}", "Péer Twö"),
    ("filter", "get", "{{ (autonomous_systems|get(asn=65001)).name }}", "Peer One"),
    ("filter", "unique_items", "{{ router|ixp_sessions|unique_items('autonomous_system')|length }}", "2"),
    ("filter", "iterate", "{{ autonomous_systems|iterate('asn')|join(',') }}", "65001,65002"),
    ("filter", "ixps", "{{ peer|ixps(local_as)|map(attribute='slug')|join }}", "example-ix"),
    // No PeeringDB copy: nothing is shared.
    ("filter", "shared_ixps", "{{ peer|shared_ixps(local_as)|length }}", "0"),
    ("filter", "shared_facilities", "{{ peer|shared_facilities(local_as)|length }}", "0"),
    ("filter", "missing_sessions", "{{ peer|missing_sessions(local_as)|length }}{{ peer|missing_sessions({'asn': 65002})|length }}", "00"),
    ("filter", "prefix_list", "{{ peer|prefix_list(4)|join }}", "198.51.100.0/24"),
    ("filter", "as_list", "{{ peer|as_list|length }}", "0"),
    ("filter", "strip_irr_sources", "{{ peer|strip_irr_sources|join(',') }}|{{ 'RADB::AS-X'|strip_irr_sources|join }}", "AS-PEERONE,AS-OTHER|AS-X"),
    ("filter", "relationships", "{{ autonomous_systems[1]|relationships|map(attribute='slug')|join }}|{{ autonomous_systems[1]|relationships(peer)|length }}", "transit-provider|0"),
    ("filter", "local_ips", "{{ xs|local_ips }}", "192.0.2.1/24"),
    ("filter", "direct_sessions", "{{ router|direct_sessions|map(attribute='ip_address')|join }}", "198.51.100.1"),
    ("filter", "ixp_sessions", "{{ router|ixp_sessions(family=6)|length }}", "1"),
    ("filter", "sessions", "{{ ixp|sessions(4)|length }}", "2"),
    ("filter", "route_server", "{{ ixp|route_server|map(attribute='ip_address')|join }}", "192.0.2.20"),
    ("filter", "ip", "{{ '192.0.2.1/24'|ip }}", "192.0.2.1"),
    ("filter", "ip_version", "{{ xs|ip_version }}", "4"),
    ("filter", "max_prefix", "{{ xs|max_prefix }}", "100"),
    ("filter", "arista_password", "{{ '7 0822455D0A16'|arista_password }}", "0822455D0A16"),
    ("filter", "cisco_password", "{{ '7 0822455D0A16'|cisco_password }}", "0822455D0A16"),
    ("filter", "connections", "{{ router|connections|map(attribute='vlan')|join }}", "100"),
    ("filter", "direct_peers", "{{ router|direct_peers('transit')|map(attribute='asn')|join }}", "65002"),
    ("filter", "ixp_peers", "{{ router|ixp_peers|map(attribute='asn')|join(',') }}", "65001,65002"),
    ("filter", "bfds", "{{ router|bfds|map(attribute='name')|join(',') }}", "fast,slow"),
    ("filter", "communities", "{{ s|communities('value')|join }}", "64500:2"),
    ("filter", "merge_communities", "{{ s|merge_communities|map(attribute='value')|join(',') }}", "64500:2,64500:1"),
    ("filter", "contact", "{{ peer|contact('noc', 'email') }}", "noc@peer-one.example"),
    ("filter", "iter_export_policies", "{{ ixp|iter_export_policies('slug')|join(',') }}", "export-own,export-v4-only"),
    ("filter", "iter_import_policies", "{{ ixp|iter_import_policies('slug')|join }}", "reject-v6-bogons"),
    ("filter", "merge_export_policies", "{{ s|merge_export_policies|map(attribute='slug')|join(',') }}", "export-v4-only,export-own"),
    ("filter", "merge_import_policies", "{{ s|merge_import_policies|map(attribute='slug')|join }}", "accept-all"),
    ("filter", "routing_policies", "{{ router|routing_policies('slug')|join(',') }}|{{ router|routing_policies('slug', family=4)|join(',') }}", "accept-all,export-own,export-v4-only,reject-v6-bogons|accept-all,export-own,export-v4-only"),
    ("filter", "context_has_key", "{% if router|context_has_key('ntp') %}y{% endif %}", "y"),
    ("filter", "context_has_not_key", "{% if router|context_has_not_key('bgp') %}y{% endif %}", "y"),
    ("filter", "context_get_key", "{{ router|context_get_key('server') }}", "192.0.2.123"),
    ("filter", "as_json", "{{ [1]|as_json }}", "[\n    1\n]"),
    ("filter", "as_yaml", "{{ {'a': 1}|as_yaml }}", "a: 1\n"),
    ("filter", "indent", "{{ 'a\nb'|indent(2) }}", "  a\n  b"),
    ("function", "now", "{{ now('%Y')|length }}{{ now(timezone='Asia/Tokyo')[-1] }}", "4Z"),
    // Jinja2's filters.
    ("filter", "abs", "{{ (-3)|abs }}", "3"),
    ("filter", "attr", "{{ router|attr('name') }}", "edge1"),
    ("filter", "batch", "{{ [1, 2, 3]|batch(2)|map('join')|join(';') }}", "12;3"),
    ("filter", "capitalize", "{{ 'hELLO'|capitalize }}", "Hello"),
    ("filter", "center", "[{{ 'ab'|center(6) }}]", "[  ab  ]"),
    ("filter", "d", "{{ missing|d('x') }}", "x"),
    ("filter", "default", "{{ missing|default('y') }}", "y"),
    ("filter", "dictsort", "{{ {'b': 1, 'a': 2}|dictsort|map('first')|join }}", "ab"),
    ("filter", "e", "{{ '<a>'|e }}", "&lt;a&gt;"),
    ("filter", "escape", "{{ '\"'|escape }}{{ '<'|e|e }}", "&#34;&lt;"),
    ("filter", "filesizeformat", "{{ 1500|filesizeformat }}", "1.5 kB"),
    ("filter", "first", "{{ [3, 4]|first }}", "3"),
    ("filter", "float", "{{ '2.5'|float }}", "2.5"),
    ("filter", "forceescape", "{{ '<'|e|forceescape }}", "&amp;lt;"),
    ("filter", "format", "{{ '%s-%03d'|format('a', 7) }}", "a-007"),
    ("filter", "groupby", "{% for g in [{'k': 'b'}, {'k': 'a'}, {'k': 'b'}]|groupby('k') %}{{ g.grouper }}{{ g.list|length }}{% endfor %}", "a1b2"),
    ("filter", "int", "{{ '42'|int + 1 }}", "43"),
    ("filter", "join", "{{ [1, 2]|join('-') }}", "1-2"),
    ("filter", "last", "{{ [3, 4]|last }}", "4"),
    ("filter", "list", "{{ 'ab'|list|join(',') }}", "a,b"),
    ("filter", "lower", "{{ 'AB'|lower }}", "ab"),
    ("filter", "items", "{% for k, v in {'a': 1}|items %}{{ k }}={{ v }}{% endfor %}", "a=1"),
    ("filter", "map", "{{ ['a', 'b']|map('upper')|join }}", "AB"),
    ("filter", "min", "{{ [3, 1, 2]|min }}", "1"),
    ("filter", "max", "{{ [3, 1, 2]|max }}", "3"),
    ("filter", "pprint", "{{ 'a'|pprint }}", "'a'"),
    ("filter", "random", "{{ [7]|random }}{{ 'aa'|random }}", "7a"),
    ("filter", "reject", "{{ [1, 2, 3, 4]|reject('odd')|join }}", "24"),
    ("filter", "rejectattr", "{{ autonomous_systems|rejectattr('asn', 'eq', 65001)|map(attribute='asn')|join }}", "65002"),
    ("filter", "replace", "{{ 'aXa'|replace('a', 'b') }}", "bXb"),
    ("filter", "reverse", "{{ [1, 2]|reverse|join }}", "21"),
    ("filter", "round", "{{ 2.567|round(1) }}", "2.6"),
    ("filter", "safe", "{{ '<b>'|safe }}", "<b>"),
    ("filter", "select", "{{ [1, 2, 3, 4]|select('even')|join }}", "24"),
    ("filter", "selectattr", "{{ autonomous_systems|selectattr('asn', 'gt', 65001)|map(attribute='asn')|join }}", "65002"),
    ("filter", "slice", "{{ [1, 2, 3]|slice(2)|map('join')|join(';') }}", "12;3"),
    ("filter", "sort", "{{ [3, 1, 2]|sort|join }}", "123"),
    ("filter", "string", "{{ 1|string ~ 'x' }}", "1x"),
    ("filter", "striptags", "{{ '<b>a</b>   b'|striptags }}", "a b"),
    ("filter", "sum", "{{ [1, 2, 3]|sum }}", "6"),
    ("filter", "title", "{{ 'hello world'|title }}", "Hello World"),
    ("filter", "trim", "[{{ '  a  '|trim }}]", "[a]"),
    ("filter", "truncate", "{{ 'hello world foo'|truncate(9) }}", "hello..."),
    ("filter", "unique", "{{ [1, 2, 1]|unique|join }}", "12"),
    ("filter", "upper", "{{ 'a'|upper }}", "A"),
    ("filter", "urlencode", "{{ 'a b&c/'|urlencode }}|{{ {'n': 1, 'q': 'a b'}|urlencode }}", "a%20b%26c/|n=1&q=a+b"),
    ("filter", "wordcount", "{{ 'a b c'|wordcount }}", "3"),
    ("filter", "xmlattr", "{{ {'class': 'x'}|xmlattr }}", " class=\"x\""),
    ("filter", "tojson", "{{ {'b': '<é>', 'a': [1, none]}|tojson }}|{{ [1]|tojson(indent=2) }}", "{\"a\": [1, null], \"b\": \"\\u003c\\u00e9\\u003e\"}|[\n  1\n]"),
    // Jinja2's tests.
    ("test", "odd", "3 is odd", "y"),
    ("test", "even", "2 is even", "y"),
    ("test", "divisibleby", "6 is divisibleby(3)", "y"),
    ("test", "defined", "router is defined", "y"),
    ("test", "undefined", "missing is undefined", "y"),
    ("test", "filter", "'join' is filter", "y"),
    ("test", "test", "'odd' is test", "y"),
    ("test", "none", "none is none", "y"),
    ("test", "boolean", "true is boolean", "y"),
    ("test", "false", "false is false", "y"),
    ("test", "true", "true is true", "y"),
    ("test", "integer", "1 is integer", "y"),
    ("test", "float", "1.5 is float", "y"),
    ("test", "lower", "'a' is lower", "y"),
    ("test", "upper", "'A' is upper", "y"),
    ("test", "string", "'a' is string", "y"),
    ("test", "mapping", "{} is mapping", "y"),
    ("test", "number", "1 is number", "y"),
    ("test", "sequence", "[1] is sequence", "y"),
    ("test", "iterable", "[1] is iterable", "y"),
    ("test", "sameas", "router is sameas(router)", "y"),
    ("test", "escaped", "('<'|e) is escaped", "y"),
    ("test", "in", "1 is in([1, 2])", "y"),
    ("test", "==", "[1, 2]|select('==', 1)|list == [1]", "y"),
    ("test", "eq", "1 is eq(1)", "y"),
    ("test", "equalto", "1 is equalto(1)", "y"),
    ("test", "!=", "[1, 2]|select('!=', 1)|list == [2]", "y"),
    ("test", "ne", "1 is ne(2)", "y"),
    ("test", ">", "[1, 2]|select('>', 1)|list == [2]", "y"),
    ("test", "gt", "2 is gt(1)", "y"),
    ("test", "greaterthan", "2 is greaterthan(1)", "y"),
    ("test", "ge", "2 is ge(2)", "y"),
    ("test", ">=", "[1, 2]|select('>=', 2)|list == [2]", "y"),
    ("test", "<", "[1, 2]|select('<', 2)|list == [1]", "y"),
    ("test", "lt", "1 is lt(2)", "y"),
    ("test", "lessthan", "1 is lessthan(2)", "y"),
    ("test", "<=", "[1, 2]|select('<=', 1)|list == [1]", "y"),
    ("test", "le", "1 is le(1)", "y"),
    // Jinja2's functions.
    ("function", "range", "{{ range(3)|join }}", "012"),
    ("function", "dict", "{{ dict(a=1).a }}", "1"),
    ("function", "cycler", "{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}", "aba"),
    ("function", "joiner", "{% set j = joiner(',') %}{% for i in [1, 2] %}{{ j() }}{{ i }}{% endfor %}", "1,2"),
    ("function", "namespace", "{% set ns = namespace(a=1) %}{% set ns.a = 2 %}{{ ns.a }}", "2"),
];

/// (kind, name) of each entry of a list (blank lines and `#` comments aside), with the
/// releases it names.
fn entries(list: &'static str) -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace();
            let kind = words.next().expect("a kind");
            let name = words.next().expect("a name");
            (kind, name, words.collect())
        })
        .collect()
}

fn rendered(template: &str) -> Result<String, String> {
    let data = network::data();
    let ctx = context::router_configuration(&data, 1).expect("router 1");
    let template = Template {
        source: template,
        trim: false,
        lstrip: false,
    };
    render(&template, ctx, &data, &Bounds::default()).map_err(|e| e.message)
}

/// The part of docs/differences.md about templates: a name listed there is a difference.
fn documented(name: &str) -> bool {
    let templates = DIFFERENCES
        .split("\n## ")
        .find(|part| part.starts_with("Templates"))
        .expect("docs/differences.md has a Templates part");
    templates.contains(&format!("`{name}`"))
}

#[test]
fn every_name_of_the_references_templates_renders_or_is_a_documented_difference() {
    let mut failures = Vec::new();
    let mut rendered_count = 0;
    for (kind, name, _) in entries(OWN).into_iter().chain(entries(BUILTINS)) {
        let Some((_, _, template, expected)) =
            CASES.iter().find(|(k, n, _, _)| *k == kind && *n == name)
        else {
            // Refused, with the reason in docs/differences.md.
            if !documented(name) {
                failures.push(format!(
                    "{kind} {name}: no case, and not in docs/differences.md"
                ));
            }
            continue;
        };
        let source = match kind {
            "test" => format!("{PRELUDE}{{% if {template} %}}y{{% else %}}n{{% endif %}}"),
            _ => format!("{PRELUDE}{template}"),
        };
        match rendered(&source) {
            Ok(out) if out == *expected => rendered_count += 1,
            Ok(out) => failures.push(format!("{kind} {name}: {out:?}, not {expected:?}")),
            Err(e) => failures.push(format!("{kind} {name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(rendered_count >= 148, "{rendered_count} names rendered");
}

#[test]
fn every_case_names_an_entry_of_the_lists() {
    let listed: BTreeSet<(&str, &str)> = entries(OWN)
        .into_iter()
        .chain(entries(BUILTINS))
        .map(|(kind, name, _)| (kind, name))
        .collect();
    for (kind, name, _, _) in CASES {
        assert!(
            listed.contains(&(*kind, *name)),
            "{kind} {name} is listed nowhere"
        );
    }
}

#[test]
fn the_registered_names_are_the_references_of_its_latest_release() {
    let latest = |kind: &str| -> BTreeSet<&str> {
        entries(OWN)
            .into_iter()
            .filter(|(k, _, releases)| *k == kind && releases.contains(&"1.10.4"))
            .map(|(_, name, _)| name)
            .collect()
    };
    let filters: BTreeSet<&str> = peering_render::filters::NAMES.iter().copied().collect();
    assert_eq!(filters, latest("filter"));
    let functions: BTreeSet<&str> = peering_render::functions::NAMES.iter().copied().collect();
    assert_eq!(functions, latest("function"));
    // Every filter of 1.8.3 is still one of 1.10.4.
    for (kind, name, releases) in entries(OWN) {
        if releases.contains(&"1.8.3") {
            assert!(releases.contains(&"1.10.4"), "{kind} {name}");
        }
    }
}

#[test]
fn fields_of_the_external_database_answer_to_both_spellings() {
    let both = |spec: &str, reference: &str| {
        let ours = rendered(&format!("{PRELUDE}{spec}")).expect(spec);
        let theirs = rendered(&format!("{PRELUDE}{reference}")).expect(reference);
        assert_eq!(ours, theirs, "{spec} and {reference}");
        ours
    };
    assert_eq!(
        both("{{ ixp.extdb_ixlan }}", "{{ ixp.peeringdb_ixlan }}"),
        "42"
    );
    assert_eq!(
        both(
            "{{ ixp.extdb_prefixes.ipv4|join }}",
            "{{ ixp.peeringdb_prefixes.ipv4|join }}"
        ),
        "192.0.2.0/24"
    );
    // On objects reached through attributes, and in what filters give and compare.
    assert_eq!(
        both(
            "{{ xs.autonomous_system.irr_as_set_extdb_sync }}",
            "{{ xs.autonomous_system.irr_as_set_peeringdb_sync }}"
        ),
        "True"
    );
    assert_eq!(
        both(
            "{{ router|ixp_sessions|selectattr('exists_in_extdb')|map(attribute='ip_address')|join(',') }}",
            "{{ router|ixp_sessions|selectattr('exists_in_peeringdb')|map(attribute='ip_address')|join(',') }}"
        ),
        "192.0.2.10,2001:db8::10"
    );
    assert_eq!(
        both(
            "{{ autonomous_systems|filter(irr_as_set_extdb_sync=false)|iterate('asn')|join }}",
            "{{ autonomous_systems|filter(irr_as_set_peeringdb_sync=false)|iterate('asn')|join }}"
        ),
        "65002"
    );
}

#[test]
fn a_name_in_neither_spelling_is_empty_and_an_attribute_of_it_an_error() {
    assert_eq!(
        rendered(&format!("{PRELUDE}[{{{{ s.exists_in_nowhere }}}}]")).expect("renders"),
        "[]"
    );
    let e = rendered(&format!("{PRELUDE}{{{{ s.exists_in_nowhere.id }}}}")).expect_err("fails");
    assert!(e.contains("undefined"), "{e}");
}

#[test]
fn pythons_methods_of_texts_maps_and_lists_answer() {
    let cases = [
        ("{{ 'a,b'.split(',')|join('|') }}", "a|b"),
        ("{{ router.name.startswith('edge') }}", "True"),
        (
            "{{ ' x '.strip() }}|{{ 'ab'.upper() }}|{{ 'a-b'.replace('-', '_') }}",
            "x|AB|a_b",
        ),
        (
            "{% for k, v in {'a': 1}.items() %}{{ k }}={{ v }}{% endfor %}",
            "a=1",
        ),
        ("{{ {'a': 1}.get('b', 2) }}|{{ [1, 1, 2].count(1) }}", "2|2"),
    ];
    for (template, expected) in cases {
        assert_eq!(rendered(template).as_deref(), Ok(expected), "{template}");
    }
}
