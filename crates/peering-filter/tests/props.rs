//! Property tests: no panics, Display round trips, and values never change structure.

mod common;

use common::{pairs, CATALOG, FIELDS, ORDERABLE, STATUS};
use peering_filter::{
    parse, split_key, split_query, FilterField, FilterKind, Lookup, MAX_VALUE_CHARS, RESERVED_KEYS,
};
use proptest::prelude::*;
use proptest::sample::select;
use std::collections::BTreeSet;

/// Keys that reach every branch: catalog fields with real and fake lookups, reserved keys,
/// `q`, `ordering`, and arbitrary text (unicode, `__` runs, separators).
fn any_key() -> impl Strategy<Value = String> {
    let field = select(FIELDS.iter().map(|f| f.name).collect::<Vec<_>>());
    let suffix = prop_oneof![
        select(Lookup::ALL.to_vec()).prop_map(|l| format!("__{l}")),
        Just(String::new()),
        "(__)?[A-Za-z_]{0,6}",
    ];
    prop_oneof![
        (field, suffix).prop_map(|(f, s)| format!("{f}{s}")),
        select(RESERVED_KEYS.to_vec()).prop_map(str::to_owned),
        Just("q".to_owned()),
        Just("ordering".to_owned()),
        "[a-z_]{0,12}(__[a-z]{0,5}){0,3}",
        any::<String>(),
    ]
}

/// Values of every shape: text, huge and signed numbers, null, blanks, long runs.
fn any_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[-+ ]?[0-9]{1,40} ?",
        Just("null".to_owned()),
        Just(String::new()),
        "[ \t]{1,3}",
        "(true|FALSE|yes|off|2|maybe)",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?",
        "-?[a-z_]{0,10}(, ?-?[a-z_]{0,10}){0,20}",
        "[0-9a-fA-F-]{30,40}",
        "x{1020,1030}",
    ]
}

/// Mixes case so that case-insensitive spellings are exercised.
fn mixed_case(word: &'static str) -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<bool>(), word.len()).prop_map(move |upper| {
        word.chars()
            .zip(upper)
            .map(|(c, up)| if up { c.to_ascii_uppercase() } else { c })
            .collect()
    })
}

fn bool_text() -> BoxedStrategy<String> {
    select(vec!["true", "false", "1", "0", "yes", "no", "on", "off"])
        .prop_flat_map(mixed_case)
        .boxed()
}

fn datetime_text() -> BoxedStrategy<String> {
    (
        1970i32..2100,
        1u32..=12,
        1u32..=28,
        0u32..24,
        0u32..60,
        0u32..60,
        0u32..1_000_000_000,
        0usize..8,
    )
        .prop_map(|(y, mo, d, h, mi, s, nanos, style)| {
            let date = format!("{y:04}-{mo:02}-{d:02}");
            match style {
                0 => format!("{date}T{h:02}:{mi:02}:{s:02}Z"),
                1 => format!("{date}T{h:02}:{mi:02}:{s:02}.{nanos:09}+05:30"),
                2 => format!("{date}T{h:02}:{mi:02}:{s:02}-02:00"),
                3 => format!("{date} {h:02}:{mi:02}"),
                4 => format!("{date} {h:02}:{mi:02}:{s:02}.{:06}", nanos / 1000),
                5 => format!("{date}T{h:02}:{mi:02}"),
                6 => format!("{date}T{h:02}:{mi:02}:{s:02}"),
                _ => date,
            }
        })
        .boxed()
}

/// A value that `kind` accepts with `lookup` (possibly blank where blanks are ignored).
fn valid_value(kind: FilterKind, lookup: Lookup) -> BoxedStrategy<String> {
    let nullable = matches!(lookup, Lookup::Exact | Lookup::N)
        && !matches!(kind, FilterKind::Bool | FilterKind::Uuid);
    let blank = prop_oneof![Just(String::new()), Just("  ".to_owned())];
    let core = if lookup == Lookup::Empty {
        prop_oneof![4 => bool_text(), 1 => blank].boxed()
    } else {
        match kind {
            FilterKind::Number | FilterKind::ForeignKey => prop_oneof![
                4 => any::<i64>().prop_map(|n| n.to_string()),
                1 => any::<i32>().prop_map(|n| format!(" {n} ")),
                1 => blank,
            ]
            .boxed(),
            // Text is taken as is; only the exact `null` spelling is special.
            FilterKind::String => any::<String>()
                .prop_map(|s| if s == "null" { "nul".to_owned() } else { s })
                .boxed(),
            FilterKind::Tag => prop_oneof!["[a-z0-9-]{1,12}", "x\\PC{0,10}"].boxed(),
            FilterKind::Reference => prop_oneof![4 => "[A-Za-z0-9 .-]{1,12}", 1 => blank].boxed(),
            FilterKind::Bool => prop_oneof![4 => bool_text(), 1 => blank].boxed(),
            FilterKind::Choice(choices) => {
                prop_oneof![4 => select(choices.to_vec()).prop_map(str::to_owned), 1 => blank]
                    .boxed()
            }
            FilterKind::Uuid => prop_oneof![
                4 => any::<u128>().prop_map(|n| uuid::Uuid::from_u128(n).to_string()),
                1 => any::<u128>().prop_map(|n| uuid::Uuid::from_u128(n).simple().to_string().to_uppercase()),
                1 => blank,
            ]
            .boxed(),
            FilterKind::DateTime => prop_oneof![4 => datetime_text(), 1 => blank].boxed(),
        }
    };
    if nullable {
        prop_oneof![5 => core, 1 => Just("null".to_owned())].boxed()
    } else {
        core
    }
}

/// One valid parameter: a key for `field` and 1..4 values it accepts.
fn valid_param(field: FilterField) -> impl Strategy<Value = Vec<(String, String)>> {
    select(field.kind.lookups().to_vec()).prop_flat_map(move |lookup| {
        let key = if lookup == Lookup::Exact {
            select(vec![
                field.name.to_owned(),
                format!("{}__exact", field.name),
            ])
            .boxed()
        } else {
            Just(format!("{}__{lookup}", field.name)).boxed()
        };
        (
            key,
            proptest::collection::vec(valid_value(field.kind, lookup), 1..4),
        )
            .prop_map(|(key, values)| {
                values
                    .into_iter()
                    .map(|v| (key.clone(), v))
                    .collect::<Vec<_>>()
            })
    })
}

fn valid_ordering() -> impl Strategy<Value = String> {
    proptest::collection::vec((select(ORDERABLE.to_vec()), any::<bool>(), " {0,2}"), 0..6).prop_map(
        |terms| {
            terms
                .into_iter()
                .map(|(name, desc, pad)| format!("{pad}{}{name}", if desc { "-" } else { "" }))
                .collect::<Vec<_>>()
                .join(",")
        },
    )
}

/// A whole valid query: shuffled parameters, maybe a search, maybe an ordering.
fn valid_query() -> impl Strategy<Value = Vec<(String, String)>> {
    let params =
        proptest::collection::vec(select(FIELDS.to_vec()).prop_flat_map(valid_param), 0..8);
    (
        params,
        proptest::option::of(any::<String>()),
        proptest::option::of(valid_ordering()),
    )
        .prop_flat_map(|(params, search, ordering)| {
            let mut all: Vec<(String, String)> = params.into_iter().flatten().collect();
            all.extend(search.map(|s| ("q".to_owned(), s)));
            all.extend(ordering.map(|o| ("ordering".to_owned(), o)));
            Just(all).prop_shuffle()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// (a) Arbitrary input never panics, and errors stay well-formed.
    #[test]
    fn parse_never_panics(input in proptest::collection::vec((any_key(), any_value()), 0..100)) {
        let keys: BTreeSet<&str> = input.iter().map(|(k, _)| k.as_str()).collect();
        match parse(&input, &CATALOG) {
            Ok(filter) => {
                for predicate in &filter.predicates {
                    prop_assert!(!predicate.values.is_empty());
                    prop_assert!(keys.contains(predicate.param.as_str()));
                    prop_assert_eq!(split_key(&predicate.param), (predicate.field, predicate.lookup));
                    prop_assert!(predicate.kind.allows(predicate.lookup));
                }
                prop_assert!(filter.ordering.len() <= 16);
            }
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                let params: Vec<&str> = errors.iter().map(|e| e.param.as_str()).collect();
                let unique: BTreeSet<&str> = params.iter().copied().collect();
                prop_assert_eq!(unique.len(), params.len(), "one error per param");
                // Errors follow the order in which their params first appear.
                let first = |p: &str| input.iter().position(|(k, _)| k == p);
                let positions: Vec<Option<usize>> = params.iter().map(|p| first(p)).collect();
                prop_assert!(positions.iter().all(Option::is_some));
                prop_assert!(positions.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    /// (b) For valid queries, parsing the Display form gives the same filter.
    #[test]
    fn display_round_trips(input in valid_query()) {
        let filter = parse(&input, &CATALOG);
        prop_assert!(filter.is_ok(), "valid query rejected: {:?} -> {:?}", input, filter);
        let filter = filter.unwrap_or_default();
        let text = filter.to_string();
        prop_assert_eq!(parse(&split_query(&text), &CATALOG), Ok(filter.clone()), "via {}", text);
        prop_assert_eq!(parse(&filter.to_pairs(), &CATALOG), Ok(filter));
    }

    /// (c) Values are data: whatever they contain, keys alone decide the predicates.
    #[test]
    fn values_never_change_structure(
        keys in proptest::collection::vec(
            select(vec!["name", "name__n", "irr_as_set__ic", "parent__name__nie", "tag__n"]),
            1..6,
        ),
        values in proptest::collection::vec(any_value(), 6),
    ) {
        // Tags refuse blanks, non-exact text lookups refuse `null` and long values hit a
        // limit; steer clear of all three so that every value is acceptable data.
        let input: Vec<(String, String)> = keys
            .iter()
            .zip(&values)
            .map(|(key, value)| {
                let value: String = value.chars().take(MAX_VALUE_CHARS - 1).collect();
                let value = if value.trim().is_empty() || value == "null" {
                    format!("x{value}")
                } else {
                    value
                };
                ((*key).to_owned(), value)
            })
            .collect();
        let expected: BTreeSet<(&str, Lookup)> = keys.iter().map(|key| split_key(key)).collect();
        let filter = parse(&input, &CATALOG);
        prop_assert!(filter.is_ok(), "{:?}", filter);
        let filter = filter.unwrap_or_default();
        let got: BTreeSet<(&str, Lookup)> =
            filter.predicates.iter().map(|p| (p.field, p.lookup)).collect();
        prop_assert_eq!(got, expected);
        prop_assert!(filter.search.is_none() && filter.ordering.is_empty());
    }

    /// (c) Across all kinds, swapping in arbitrary values never yields a field or error
    /// param that the keys did not name.
    #[test]
    fn values_never_add_fields_or_params(
        keys in proptest::collection::vec(any_key(), 1..8),
        values in proptest::collection::vec(any_value(), 8),
    ) {
        let input: Vec<(String, String)> = keys.iter().cloned().zip(values).collect();
        let named: BTreeSet<&str> = keys.iter().map(String::as_str).collect();
        match parse(&input, &CATALOG) {
            Ok(filter) => {
                for predicate in &filter.predicates {
                    prop_assert!(named.contains(predicate.param.as_str()));
                    prop_assert_eq!(split_key(&predicate.param).0, predicate.field);
                }
                prop_assert!(filter.search.is_none() || named.contains("q"));
                prop_assert!(filter.ordering.is_empty() || named.contains("ordering"));
            }
            Err(errors) => {
                for error in &errors {
                    prop_assert!(named.contains(error.param.as_str()), "{:?}", error);
                }
            }
        }
    }
}

#[test]
fn lookups_in_keys_survive_values_that_look_like_keys() {
    // A fixed regression for (c): separators inside a value stay inside the value.
    let input = pairs(&[("name", "x&asn__gte=1&ordering=-asn&q=evil")]);
    let filter = parse(&input, &CATALOG);
    let fields: Vec<_> = filter
        .iter()
        .flat_map(|f| f.predicates.iter().map(|p| p.field))
        .collect();
    assert_eq!(fields, ["name"]);
    assert_eq!(
        filter.map(|f| f.search.is_none() && f.ordering.is_empty()),
        Ok(true)
    );
}

#[test]
fn status_choices_fixture_is_used() {
    // Keeps the fixture honest: the Choice field in the sample catalog uses STATUS.
    assert!(FIELDS.iter().any(|f| f.kind == FilterKind::Choice(STATUS)));
}
