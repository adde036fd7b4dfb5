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
    let first = texts.begin(&clock, &one, &TAG, &shape("http://a")).unwrap();
    first.render(&tag(7), &NoRelated, &render);
    let next = texts.begin(&clock, &one, &TAG, &shape("http://a")).unwrap();
    assert_eq!(kept_ids(&next, &[7, 8]), [Some("7".into()), None]);
    let other_host = texts.begin(&clock, &one, &TAG, &shape("http://b")).unwrap();
    assert_eq!(kept_ids(&other_host, &[7]), [None], "another shape");
    let after_a_write = texts.begin(&clock, &two, &TAG, &shape("http://a")).unwrap();
    assert_eq!(kept_ids(&after_a_write, &[7]), [None]);
}

#[test]
fn shapes_past_the_bound_keep_nothing() {
    let (texts, clock) = (ObjectTexts::new(1 << 20), RowClock::default());
    for n in 0..MOST_SHAPES {
        assert!(texts
            .begin(&clock, &versions(1), &TAG, &shape(&format!("http://{n}")))
            .is_some());
    }
    assert!(texts
        .begin(&clock, &versions(1), &TAG, &shape("http://one-more"))
        .is_none());
    assert!(texts
        .begin(&clock, &versions(1), &TAG, &shape("http://0"))
        .is_some());
}

#[test]
fn nothing_is_kept_without_memory_or_for_answers_that_follow_the_clock() {
    let clock = RowClock::default();
    assert!(ObjectTexts::new(0)
        .begin(&clock, &versions(1), &TAG, &shape("http://a"))
        .is_none());
    let clocked = ALL
        .iter()
        .find(|s| s.reads_the_clock)
        .expect("a resource reading the clock");
    let texts = ObjectTexts::new(1 << 20);
    assert!(texts
        .begin(&clock, &versions(1), clocked, &shape("http://a"))
        .is_none());
}
