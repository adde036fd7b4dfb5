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

/// The texts of a detail of `spec` in `shape`, at `versions`.
fn detail<'a>(
    texts: &'a ObjectTexts,
    clock: &'a RowClock,
    versions: &'a TableVersions,
    (spec, shape): (&'static ResourceSpec, &Shape),
) -> Option<Assembly<'a>> {
    texts.begin(clock, versions, spec, (shape, Lookup::Detail))
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
    let first = detail(&texts, &clock, &one, (&TAG, &shape("http://a"))).unwrap();
    first.render(&tag(7), &NoRelated, &render);
    let next = detail(&texts, &clock, &one, (&TAG, &shape("http://a"))).unwrap();
    assert_eq!(kept_ids(&next, &[7, 8]), [Some("7".into()), None]);
    let other_host = detail(&texts, &clock, &one, (&TAG, &shape("http://b"))).unwrap();
    assert_eq!(kept_ids(&other_host, &[7]), [None], "another shape");
    let after_a_write = detail(&texts, &clock, &two, (&TAG, &shape("http://a"))).unwrap();
    assert_eq!(kept_ids(&after_a_write, &[7]), [None]);
}

#[test]
fn shapes_past_the_bound_keep_nothing() {
    let (texts, clock) = (ObjectTexts::new(1 << 20), RowClock::default());
    for n in 0..MOST_SHAPES {
        assert!(detail(
            &texts,
            &clock,
            &versions(1),
            (&TAG, &shape(&format!("http://{n}")))
        )
        .is_some());
    }
    assert!(detail(
        &texts,
        &clock,
        &versions(1),
        (&TAG, &shape("http://one-more"))
    )
    .is_none());
    assert!(detail(&texts, &clock, &versions(1), (&TAG, &shape("http://0"))).is_some());
}

#[test]
fn nothing_is_kept_without_memory_or_for_answers_that_follow_the_clock() {
    let clock = RowClock::default();
    assert!(detail(
        &ObjectTexts::new(0),
        &clock,
        &versions(1),
        (&TAG, &shape("http://a"))
    )
    .is_none());
    let clocked = ALL
        .iter()
        .find(|s| s.reads_the_clock)
        .expect("a resource reading the clock");
    let texts = ObjectTexts::new(1 << 20);
    assert!(detail(&texts, &clock, &versions(1), (clocked, &shape("http://a"))).is_none());
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

/// Renders tags from id 1,000 up into `assembly` until one rendered is not kept: the
/// texts' memory is full.
fn fill(texts: &ObjectTexts, assembly: &Assembly<'_>) {
    for id in 1_000.. {
        assembly.render(&tag(id), &NoRelated, &render);
        let (_, rendered, kept) = texts.tally();
        if kept < rendered {
            return;
        }
    }
}

#[test]
fn texts_are_consulted_until_full_then_while_lookups_serve_them() {
    let (texts, clock, one) = (ObjectTexts::new(64 << 10), RowClock::default(), versions(1));
    // While there is room, a miss tells only that the object was not asked for yet.
    assert_eq!(consulted(&texts, (Lookup::Detail, &[2]), 1_000), 1_000);
    let page = texts.begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Page));
    let page = page.expect("texts kept");
    fill(&texts, &page);
    // Full: details that find nothing stop looking but for one in 16.
    assert_eq!(consulted(&texts, (Lookup::Detail, &[2]), 1_600), 100);
    // Pages are scored apart, and one serving a quarter of its objects pays.
    while page.kept(&[1])[0].is_none() {
        page.render(&tag(1), &NoRelated, &render);
    }
    let quarter = (Lookup::Page, &[1, 2, 3, 4][..]);
    assert_eq!(consulted(&texts, quarter, 2_000), 2_000);
    let less = (Lookup::Page, &[1, 2, 3, 4, 5][..]);
    assert_eq!(consulted(&texts, less, 64), 64);
    assert!(consulted(&texts, less, 1_600) <= 101);
}

#[test]
fn once_full_one_text_rendered_in_eight_is_kept() {
    let (texts, clock, one) = (ObjectTexts::new(64 << 10), RowClock::default(), versions(1));
    let assembly = texts.begin(&clock, &one, &TAG, (&shape("http://a"), Lookup::Page));
    let assembly = assembly.expect("texts kept");
    fill(&texts, &assembly);
    let (_, rendered_to_fill, kept_to_fill) = texts.tally();
    assert_eq!(
        kept_to_fill + 1,
        rendered_to_fill,
        "every text while they fit"
    );
    for id in 1..=800 {
        assembly.render(&tag(id), &NoRelated, &render);
    }
    let (_, rendered, kept) = texts.tally();
    assert_eq!(rendered, rendered_to_fill + 800);
    let kept_when_full = kept - kept_to_fill;
    assert!(
        (100..=200).contains(&kept_when_full),
        "{kept_when_full} of 800"
    );
    // A text no longer current is replaced by the next one rendered, full or not.
    let id = (1..=800).find(|&id| assembly.kept(&[id])[0].is_some());
    let id = id.expect("a text kept once full");
    let two = versions(2);
    let after_a_write = texts.begin(&clock, &two, &TAG, (&shape("http://a"), Lookup::Page));
    let after_a_write = after_a_write.expect("texts kept");
    assert!(after_a_write.kept(&[id])[0].is_none());
    after_a_write.render(&tag(id), &NoRelated, &render);
    assert!(after_a_write.kept(&[id])[0].is_some());
}
