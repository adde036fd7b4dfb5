//! Generated templates (long chains, deep nesting, huge literals, loops, in any mix) fed
//! to `check` and `render`: none takes the process down, and the process stays under a
//! stated memory bound. A test binary of its own, so the bound is this test's alone.

use std::alloc::System;

use peering_render::{check, Bounds, CountingAllocator};
use proptest::prelude::*;

mod common;

use common::{nested, run};

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

/// Pieces of templates: chains, nesting, huge literals and loops, in any mix.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..6_000).prop_map(|n| format!("{{{{ 'a'{} }}}}", "|upper".repeat(n))),
        (1usize..6_000).prop_map(|n| format!("{{{{ 1{} }}}}", "*1".repeat(n))),
        (1usize..400).prop_map(|n| format!("{{{{ {}1{} }}}}", "(".repeat(n), ")".repeat(n))),
        (1usize..400).prop_map(|n| format!("{{{{ {}1{} }}}}", "[".repeat(n), "]".repeat(n))),
        (0u32..10).prop_map(|e| format!("{{% set s = 'x' * {} %}}{{{{ s|length }}}}", 10u64.pow(e))),
        (0u32..7, 0usize..3).prop_map(|(e, k)| {
            let iterable = ["range(N)", "'x' * N", "[0] * N"][k].replace("N", &10u64.pow(e).to_string());
            nested(&iterable, "{{ ns.x|length }}")
        }),
        (0u32..5).prop_map(|e| format!(
            "{{% for i in range({0}) %}}{{% for j in range({0}) %}}{{{{ i * j }}}}{{% endfor %}}{{% endfor %}}",
            10u64.pow(e)
        )),
        (1usize..300).prop_map(|n| format!("{}x{}", "{% if true %}".repeat(n), "{% endif %}".repeat(n))),
        (0u32..7, 1usize..20).prop_map(|(e, k)| {
            let deep = format!("{}ns.x{}", "[".repeat(k), "]".repeat(k));
            nested(&format!("'x' * {}", 10u64.pow(e)), "").replace("[ns.x]", &deep)
        }),
        (1u32..14).prop_map(|d| format!(
            "{{% macro f(n) %}}{{% if n > 0 %}}{{{{ f(n - 1) }}}}{{{{ f(n - 1) }}}}{{% endif %}}x{{% endmacro %}}{{{{ f({d}) }}}}"
        )),
        (0u32..4).prop_map(|e| format!(
            "{{% set ns = namespace(s='') %}}{{% for i in range({}) %}}{{% set ns.s = ns.s ~ 'abc' * 1000 %}}{{% endfor %}}{{{{ ns.s|length }}}}",
            10u64.pow(e)
        )),
        "[a-z{}%#|.()\\[\\] '~*+-]{0,40}",
    ]
}

/// The peak resident memory of this process, from `/proc/self/status`, in bytes.
fn peak_resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The stated bound: however a generated template is made, checking and rendering it
/// under a budget of 64 MiB never makes this process reach 1 GiB resident.
const PEAK_BOUND: u64 = 1024 * 1024 * 1024;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generated_templates_never_crash_and_stay_within_memory(
        pieces in proptest::collection::vec(piece(), 1..4)
    ) {
        let source = pieces.concat();
        let bounds = Bounds {
            fuel: 20_000_000,
            max_memory: 64 * 1024 * 1024,
            ..Bounds::default()
        };
        let checked = check(&source);
        let rendered = run(&source, &bounds);
        if let Err(e) = &checked {
            prop_assert!(rendered.is_err(), "check refused but render passed: {e:?}");
        }
        if let Err(e) = &rendered {
            prop_assert!(!e.message.is_empty());
        }
        let peak = peak_resident();
        prop_assert!(peak < PEAK_BOUND, "peak resident memory {peak} bytes");
    }
}
