//! bgpq4 itself against the fake IRR: the same prefix lists whether it asks with `!a` (as
//! of IRRd 4) or expands sets and asks per origin.

use irrd_fake::{Behaviour, FakeIrrd, Registry};
use std::process::Command;

fn registry() -> Registry {
    Registry::new()
        .as_set("RIPE", "AS-OUTER", &["AS65600", "AS-INNER"])
        .as_set("RIPE", "AS-INNER", &["AS65601"])
        .route("RIPE", "192.0.2.0/24", 65600)
        .route("RIPE", "198.51.100.0/24", 65601)
        .route("RADB", "203.0.113.0/24", 65601)
        .route("RIPE", "2001:db8:1::/48", 65601)
}

fn bgpq4(irrd: &FakeIrrd, args: &[&str]) -> (bool, String, String) {
    let out = Command::new("bgpq4")
        .args(["-h", &irrd.address])
        .args(args)
        .output()
        .expect("bgpq4 runs (install the bgpq4 package)");
    (
        out.status.success(),
        // bgpq4's JSON writes `/` as `\/`.
        String::from_utf8_lossy(&out.stdout).replace("\\/", "/"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bgpq4_resolves_nested_sets_either_way() {
    for behaviour in [Behaviour::Irrd4, Behaviour::WithoutA] {
        let irrd = FakeIrrd::start_with(registry(), behaviour);
        let (ok, out, err) = bgpq4(&irrd, &["-S", "RIPE", "-4", "-j", "-l", "p", "AS-OUTER"]);
        assert!(ok, "{behaviour:?}: {err}");
        assert!(
            out.contains("192.0.2.0/24") && out.contains("198.51.100.0/24"),
            "{behaviour:?} {out} {:?} {err}",
            irrd.queries()
        );
        assert!(!out.contains("203.0.113.0/24"), "RADB was not asked: {out}");
        let (ok, out, err) = bgpq4(&irrd, &["-S", "RIPE", "-6", "-j", "-l", "p", "AS-OUTER"]);
        assert!(ok, "{err}");
        assert!(out.contains("2001:db8:1::/48"), "{out}");
        let queries = irrd.queries();
        assert!(queries.contains(&"!sRIPE".to_string()), "{queries:?}");
        match behaviour {
            Behaviour::Irrd4 => {
                assert!(queries.contains(&"!a4AS-OUTER".to_string()), "{queries:?}")
            }
            _ => assert!(queries.contains(&"!iAS-OUTER,1".to_string()), "{queries:?}"),
        }
    }
}

#[test]
fn unknown_sources_fail_bgpq4() {
    let irrd = FakeIrrd::start(registry());
    let (ok, _, err) = bgpq4(&irrd, &["-S", "NOPE", "-4", "-j", "AS-OUTER"]);
    assert!(!ok);
    assert!(err.contains("Invalid source"), "{err}");
}

#[test]
fn a_set_the_irr_lacks_gives_an_empty_list_and_success() {
    // Why peeringd refuses a named set that resolves to nothing: bgpq4 does not tell.
    for behaviour in [Behaviour::Irrd4, Behaviour::WithoutA] {
        let irrd = FakeIrrd::start_with(registry(), behaviour);
        let (ok, out, err) = bgpq4(&irrd, &["-S", "RIPE", "-4", "-j", "-l", "p", "AS-MISSING"]);
        assert!(ok, "{err}");
        assert!(!out.contains("prefix"), "{out}");
    }
}
