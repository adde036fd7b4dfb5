//! Templates that would exhaust the stack or the memory are refused with an error that
//! says why, and never take the process down: long chains in one tag, values nested
//! deeply, huge strings (generated mixes: `generated_templates.rs`).
//!
//! This binary counts its allocations as the server does (`CountingAllocator`), so the
//! memory budget of a render is enforced here.

use std::alloc::System;

use peering_render::limits::{MAX_TAG_OPERATORS, MAX_VALUE_DEPTH};
use peering_render::{check, Bounds, CountingAllocator, RenderErrorKind};

mod common;

use common::{nested, run};

#[global_allocator]
static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);

/// Ten thousand links of each kind of chain, in one tag of about 40 KB.
fn long_chains() -> Vec<String> {
    vec![
        format!("{{{{ x{} }}}}", "|lower".repeat(10_000)),
        format!("{{{{ x{} }}}}", ".a".repeat(10_000)),
        format!("{{{{ 1{} }}}}", " + 1".repeat(10_000)),
        format!("{{{{ {}true }}}}", "not ".repeat(10_000)),
        format!("{{% if x{} %}}{{% endif %}}", " or x".repeat(10_000)),
    ]
}

#[test]
fn long_chains_are_refused_on_check_and_render() {
    for source in long_chains() {
        let e = check(&source).expect_err("refused");
        assert_eq!(e.kind, RenderErrorKind::Syntax, "{e:?}");
        assert!(e.message.contains("operators"), "{e:?}");
        assert_eq!(e.line, Some(1));
        let e = run(&source, &Bounds::default()).expect_err("refused");
        assert_eq!(e.kind, RenderErrorKind::Syntax, "{e:?}");
    }
}

#[test]
fn chains_up_to_the_limit_are_accepted() {
    let links = MAX_TAG_OPERATORS - 1;
    let filters = format!("{{{{ 'X'{} }}}}", "|lower".repeat(links));
    assert_eq!(check(&filters), Ok(()));
    assert_eq!(run(&filters, &Bounds::default()).as_deref(), Ok("x"));
    let sums = format!("{{{{ 0{} }}}}", "+1".repeat(links));
    assert_eq!(run(&sums, &Bounds::default()), Ok(links.to_string()));
}

#[test]
fn deeply_nested_values_are_refused_when_printed_or_written_out() {
    for then in [
        "{{ ns.x }}",
        "{{ ns.x|as_json }}",
        "{{ ns.x|as_yaml }}",
        "{% set y = ns.x %}{{ [y] }}",
    ] {
        let e = run(&nested("range(100000)", then), &Bounds::default()).expect_err(then);
        assert_eq!(e.kind, RenderErrorKind::Bound, "{then}: {e:?}");
        assert!(
            e.message
                .contains(&format!("{MAX_VALUE_DEPTH} levels deep")),
            "{then}: {e:?}"
        );
    }
    let shallow = nested("range(MAX)", "{{ ns.x|as_json(indent=0)|length }}")
        .replace("MAX", &(MAX_VALUE_DEPTH - 1).to_string());
    assert!(run(&shallow, &Bounds::default()).is_ok());
}

#[test]
fn deeply_nested_values_left_unprinted_are_freed_without_crashing() {
    // A million levels: freed recursively by the engine, on the render's large stack.
    let built = nested("'x' * 1000000", "done");
    assert_eq!(run(&built, &Bounds::default()).as_deref(), Ok("done"));
    let compared = nested(
        "'x' * 100000",
        "{{ ns.x == ns.x }} {{ (ns.x ~ '')|length }}",
    );
    assert_eq!(
        run(&compared, &Bounds::default()).as_deref(),
        Ok("True 200002")
    );
}

#[test]
fn huge_strings_run_into_the_memory_budget() {
    let bounds = Bounds {
        max_memory: 64 * 1024 * 1024,
        ..Bounds::default()
    };
    for source in [
        "{% set s = 'x' * 100000000 %}{{ s|length }}",
        "{% set s = 'x' * 30000000 %}{% set t = s ~ s ~ s %}{{ t|length }}",
        "{% set ns = namespace(s='') %}{% for i in range(1000) %}\
         {% set ns.s = ns.s ~ ('x' * 1000000) %}{% endfor %}{{ ns.s|length }}",
    ] {
        let e = run(source, &bounds).expect_err(source);
        assert_eq!(e.kind, RenderErrorKind::Bound, "{source}: {e:?}");
        assert!(
            e.message.contains("more memory than its budget") && e.message.contains("64 MiB"),
            "{source}: {e:?}"
        );
    }
    let within = "{% set s = 'x' * 10000000 %}{{ s|length }}";
    assert_eq!(run(within, &bounds).as_deref(), Ok("10000000"));
}

#[test]
fn loops_and_macros_that_print_nothing_still_meet_the_budget() {
    let bounds = Bounds {
        max_memory: 64 * 1024 * 1024,
        ..Bounds::default()
    };
    let ten_levels = format!("{}ns.x{}", "[".repeat(10), "]".repeat(10));
    for source in [
        // Ten million levels wanted, over a string (no `range`, nothing printed).
        nested("'x' * 1000000", "").replace("[ns.x]", &ten_levels),
        "{%- set ns = namespace(s='') -%}{%- for c in 'x' * 1000 -%}\
         {%- set ns.s = ns.s ~ ('y' * 1000000) -%}{%- endfor -%}"
            .to_string(),
        "{%- set ns = namespace(s='') -%}{%- macro grow(n) -%}{%- if n > 0 -%}\
         {%- set ns.s = ns.s ~ ('y' * 1000000) -%}{%- set _ = grow(n - 1) -%}\
         {%- set _ = grow(n - 1) -%}{%- endif -%}{%- endmacro -%}{%- set _ = grow(9) -%}"
            .to_string(),
    ] {
        let e = run(&source, &bounds).expect_err(&source);
        assert_eq!(e.kind, RenderErrorKind::Bound, "{source}: {e:?}");
        assert!(e.message.contains("more memory than its budget"), "{e:?}");
    }
}

#[test]
fn the_memory_a_render_held_is_given_back() {
    let before = peering_render::budget::held_by_this_thread();
    let source = "{% set s = 'x' * 50000000 %}{{ s|length }}";
    assert_eq!(run(source, &Bounds::default()).as_deref(), Ok("50000000"));
    // The render ran on a thread of its own: nothing of it is left on ours.
    let after = peering_render::budget::held_by_this_thread();
    assert!(after - before < 1024 * 1024, "{before} -> {after}");
}
