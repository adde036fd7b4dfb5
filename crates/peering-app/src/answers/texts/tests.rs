//! Texts kept per object, against a row clock without a database.

use super::*;
use peering_domain::resources::{ALL, TAG};
use peering_domain::spec::NoRelated;
use peering_domain::Value;

fn shape(base: &str) -> Shape {
    Shape {
        brief: false,
        secrets: SecretView::Hidden,
        names: FieldNames::default(),
        layout: Layout::default(),
        base: base.to_owned(),
    }
}

/// Versions of every table `TAG`'s texts read, all at `version`.
fn versions(version: i64) -> TableVersions {
    TableVersions::from_pairs(TAG.tables_read().into_iter().map(|t| (t, version)))
}

fn tag(id: i64) -> Record {
    Record {
        id,
        values: TAG.fields.iter().map(|_| Value::Null).collect(),
    }
}

/// Renders the id alone: what a text holds matters less here than when it is served.
fn render(out: &mut String, record: &Record, _related: &dyn RelatedLookup) {
    out.push_str(&record.id.to_string());
}

fn kept_ids(assembly: &Assembly<'_>, ids: &[i64]) -> Vec<Option<String>> {
    (assembly.kept(ids).into_iter())
        .map(|kept| kept.map(|k| k.text.to_string()))
        .collect()
}

#[test]
fn a_text_is_served_until_another_write_is_seen_to_its_table() {
    let (texts, clock) = (ObjectTexts::new(1 << 20), RowClock::default());
    let (one, two) = (versions(1), versions(2));
    let first = texts
        .begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Detail))
        .unwrap();
    first.render(&tag(7), &NoRelated, &render);
    let next = texts
        .begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Detail))
        .unwrap();
    assert_eq!(kept_ids(&next, &[7, 8]), [Some("7".into()), None]);
    let other_host = texts
        .begin(&clock, &one, &TAG, (&shape("http://b"), Lookup::Detail))
        .unwrap();
    assert_eq!(kept_ids(&other_host, &[7]), [None], "another shape");
    let after_a_write = texts
        .begin(&clock, &two, &TAG, (&shape("http://a"), Lookup::Detail))
        .unwrap();
    assert_eq!(kept_ids(&after_a_write, &[7]), [None]);
}

#[test]
fn shapes_past_the_bound_keep_nothing() {
    let (texts, clock) = (ObjectTexts::new(1 << 20), RowClock::default());
    for n in 0..MOST_SHAPES {
        assert!(texts
            .begin(
                &clock,
                &versions(1),
                &TAG,
                (&shape(&format!("http://{n}")), Lookup::Detail)
            )
            .is_some());
    }
    assert!(texts
        .begin(
            &clock,
            &versions(1),
            &TAG,
            (&shape("http://one-more"), Lookup::Detail)
        )
        .is_none());
    assert!(texts
        .begin(
            &clock,
            &versions(1),
            &TAG,
            (&shape("http://0"), Lookup::Detail)
        )
        .is_some());
}

#[test]
fn nothing_is_kept_without_memory_or_for_answers_that_follow_the_clock() {
    let clock = RowClock::default();
    assert!(ObjectTexts::new(0)
        .begin(
            &clock,
            &versions(1),
            &TAG,
            (&shape("http://a"), Lookup::Detail)
        )
        .is_none());
    let clocked = ALL
        .iter()
        .find(|s| s.reads_the_clock)
        .expect("a resource reading the clock");
    let texts = ObjectTexts::new(1 << 20);
    assert!(texts
        .begin(
            &clock,
            &versions(1),
            clocked,
            (&shape("http://a"), Lookup::Detail)
        )
        .is_none());
}

/// Of `requests` requests looking up the texts of `ids`, how many consulted them.
fn consulted(texts: &ObjectTexts, (lookup, ids): (Lookup, &[i64]), requests: usize) -> usize {
    let (clock, one) = (RowClock::default(), versions(1));
    (0..requests)
        .filter(|_| texts.worth_consulting(&TAG, lookup))
        .inspect(|_| {
            let assembly = texts.begin(&clock, &one, &TAG, (&shape("http://a"), lookup));
            assembly.expect("texts kept").kept(ids);
        })
        .count()
}

#[test]
fn texts_are_consulted_only_while_lookups_serve_them() {
    let (texts, clock, one) = (ObjectTexts::new(1 << 20), RowClock::default(), versions(1));
    let page = texts.begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Page));
    page.expect("texts kept")
        .render(&tag(1), &NoRelated, &render);
    // A page serving a quarter of its objects pays.
    let quarter = (Lookup::Page, &[1, 2, 3, 4][..]);
    assert_eq!(consulted(&texts, quarter, 2_000), 2_000);
    // Details are scored apart: those that find nothing stop looking but for samples.
    assert_eq!(consulted(&texts, (Lookup::Detail, &[2]), 64), 64);
    assert_eq!(consulted(&texts, (Lookup::Detail, &[2]), 1_600), 100);
    let less = (Lookup::Page, &[1, 2, 3, 4, 5][..]);
    assert_eq!(consulted(&texts, less, 64), 64);
    assert!(consulted(&texts, less, 1_600) <= 101);
}

#[test]
fn once_full_one_text_rendered_in_eight_is_kept() {
    let (texts, clock, one) = (ObjectTexts::new(64 << 10), RowClock::default(), versions(1));
    let assembly = texts.begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Page));
    let assembly = assembly.expect("texts kept");
    let fits = |texts: &ObjectTexts| texts.usage().1 + 200 <= (64 << 10) * 15 / 16;
    let mut id = 0;
    while fits(&texts) {
        id += 1;
        assembly.render(&tag(id), &NoRelated, &render);
    }
    let (_, rendered_to_fill, kept_to_fill) = texts.tally();
    assert_eq!(kept_to_fill, rendered_to_fill, "every text while they fit");
    for more in 1..=800 {
        assembly.render(&tag(id + more), &NoRelated, &render);
    }
    let (_, rendered, kept) = texts.tally();
    assert_eq!(rendered, rendered_to_fill + 800);
    let kept_when_full = kept - kept_to_fill;
    assert!(
        (100..=200).contains(&kept_when_full),
        "{kept_when_full} of 800"
    );
}
