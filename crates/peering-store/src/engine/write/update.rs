//! Updates: each item applied from where the previous item for its object left it, the
//! batch checked, then only the columns that changed written, rows changing the same
//! columns together in multi-row `UPDATE … FROM` statements.

use std::collections::HashMap;

use peering_domain::input::{apply, Draft};
use peering_domain::{Record, ResourceSpec};

use super::links::write_links;
use super::resolve::{resolve, Memo};
use super::unique::check_batch;
use super::{as_read, column_binds, set_times};
use crate::changes::{record_changes, snapshot, tag_names, Action, Change, ChangeContext};
use crate::connection::Db;
use crate::error::Error;
use crate::query::Related;
use crate::sql::{Bind, Sql};
use crate::written::Writes;

/// Updates existing objects; ids that do not exist are skipped. Returns the updated
/// objects in input order, as a read shows them (without their related objects), and the
/// related objects the checks loaded; an object given twice shows its final state both
/// times.
pub(crate) fn update(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    items: Vec<(i64, Draft)>,
    ctx: &ChangeContext,
) -> Result<(Vec<Record>, Related), Error> {
    let mut memo = Memo::default();
    memo.prefetch_ids(db, spec, items.iter().map(|(_, draft)| draft))?;
    let wanted: Vec<i64> = items.iter().map(|(id, _)| *id).collect();
    let (existing, related) = crate::query::by_ids(db, spec, &wanted)?;
    let existing: HashMap<i64, Record> = existing.into_iter().map(|r| (r.id, r)).collect();
    let mut steps = Steps::default();
    for (index, (id, draft)) in items.into_iter().enumerate() {
        let Some(old) = steps.start(id, &existing) else {
            continue;
        };
        let resolved = resolve(db, &mut memo, spec, draft).map_err(|e| e.at(index))?;
        let named: Vec<bool> = resolved.iter().map(Option::is_some).collect();
        let mut values = apply(spec, resolved, Some(&old));
        set_times(spec, &mut values, false);
        steps.push(old, Record { id, values }, named);
    }
    let related = check_batch(db, spec, &mut steps.after, Some(&steps.before), related)?;
    write_final_states(db, spec, &steps, &existing)?;
    if spec.change_logged {
        record_updates(db, ctx, spec, &steps, &related)?;
    }
    as_read(spec, &mut steps.after, false);
    crate::query::fill_computed(db, spec, &mut steps.after)?;
    Ok((steps.into_answers(), related))
}

/// The items of an update, in input order (those of unknown objects left out), kept in
/// step: each object as the item found it and as it left it, and the fields it named. An
/// object given again is changed from where its previous item left it, as the reference
/// saves the items one after the other.
#[derive(Debug, Default)]
struct Steps {
    before: Vec<Record>,
    after: Vec<Record>,
    named: Vec<Vec<bool>>,
    /// Each object's last item.
    latest: HashMap<i64, usize>,
}

impl Steps {
    /// Where an item for `id` starts: where its previous item left the object, else as
    /// stored (none: no such object).
    fn start(&self, id: i64, existing: &HashMap<i64, Record>) -> Option<Record> {
        match (self.latest.get(&id), existing.get(&id)) {
            (Some(&i), _) => Some(self.after[i].clone()),
            (None, stored) => stored.cloned(),
        }
    }

    fn push(&mut self, before: Record, after: Record, named: Vec<bool>) {
        self.latest.insert(after.id, self.after.len());
        self.before.push(before);
        self.after.push(after);
        self.named.push(named);
    }

    /// Each object's final state (its last item), in input order.
    fn finals(&self) -> Vec<&Record> {
        self.after
            .iter()
            .enumerate()
            .filter(|(i, r)| self.latest[&r.id] == *i)
            .map(|(_, r)| r)
            .collect()
    }

    /// For each of `finals`, the fields any of its object's items named.
    fn named_by_object(&self, finals: &[&Record]) -> Vec<Vec<bool>> {
        let mut named_once: HashMap<i64, Vec<bool>> = HashMap::new();
        for (record, named) in self.after.iter().zip(&self.named) {
            let flags = named_once
                .entry(record.id)
                .or_insert_with(|| vec![false; named.len()]);
            for (flag, given) in flags.iter_mut().zip(named) {
                *flag |= *given;
            }
        }
        finals
            .iter()
            .map(|r| named_once.remove(&r.id).unwrap_or_default())
            .collect()
    }

    /// The answer: each item shows its object's final state.
    fn into_answers(self) -> Vec<Record> {
        let records = self.after;
        if self.latest.len() < records.len() {
            (0..records.len())
                .map(|i| records[self.latest[&records[i].id]].clone())
                .collect()
        } else {
            records
        }
    }
}

/// Rows and links are written once per object, from its stored state to where its last
/// item left it, with every field any of its items named.
fn write_final_states(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    steps: &Steps,
    existing: &HashMap<i64, Record>,
) -> Result<(), Error> {
    let finals = steps.finals();
    let pairs: Vec<(&Record, &Record)> = finals.iter().map(|r| (&existing[&r.id], *r)).collect();
    update_rows(db, spec, &pairs)?;
    write_links(db, spec, &finals, Some(&steps.named_by_object(&finals)))
}

/// The change records of an update's items, each from where the item found its object.
fn record_updates(
    db: &mut Db<'_>,
    ctx: &ChangeContext,
    spec: &'static ResourceSpec,
    steps: &Steps,
    related: &Related,
) -> Result<(), Error> {
    let names = tag_names(db, spec, steps.before.iter().chain(&steps.after), related)?;
    let changes = steps
        .before
        .iter()
        .zip(&steps.after)
        .map(|(old, record)| Change {
            record,
            action: Action::Update,
            pre: Some(snapshot(&names, spec, old, None)),
            post: Some(snapshot(&names, spec, record, Some(old))),
        })
        .collect();
    record_changes(db, ctx, spec, related, changes)
}

/// Rows changing the same columns: the columns, then each row's id and new values.
struct ChangeGroup {
    columns: Vec<&'static str>,
    rows: Vec<(i64, Vec<Bind>)>,
}

/// Rows by the set of columns they change (each object once: stored, then final state).
fn change_groups(spec: &'static ResourceSpec, changes: &[(&Record, &Record)]) -> Vec<ChangeGroup> {
    let mut groups: Vec<ChangeGroup> = Vec::new();
    for (old, new) in changes {
        let (columns, binds): (Vec<&'static str>, Vec<Bind>) = column_binds(spec, &new.values)
            .into_iter()
            .zip(column_binds(spec, &old.values))
            .filter(|((_, now), (_, was))| now != was)
            .map(|(now, _)| now)
            .unzip();
        if columns.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|g| g.columns == columns) {
            Some(group) => group.rows.push((new.id, binds)),
            None => groups.push(ChangeGroup {
                columns,
                rows: vec![(new.id, binds)],
            }),
        }
    }
    groups
}

/// From how many changed rows an update tells PostgreSQL's planner how to join them.
const PLANNER_HINT_FROM_ROWS: usize = 64;

/// Writes the columns that changed, in multi-row statements: rows changing the same columns
/// are updated together from a table of rows (`Sql::push_rows`, whose `column1` is the
/// id). Columns left as they were are not written, so the indexes over them are not
/// rewritten.
fn update_rows(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    changes: &[(&Record, &Record)],
) -> Result<(), Error> {
    let groups = change_groups(spec, changes);
    // PostgreSQL, costing random reads at four sequential ones, would rather scan and hash
    // the whole table than probe its primary key once per row: told to join by nested loops
    // for these statements alone, a 1,000-session update on 100,000 takes 47 ms, not 86. A
    // few rows are joined by nested loops anyway, and the two round trips of the hint would
    // be a third of a single change's.
    let hint = db.backend() == crate::Backend::Postgres && changes.len() >= PLANNER_HINT_FROM_ROWS;
    if hint {
        db.execute(&Sql::new(
            "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)",
        ))?;
    }
    for group in groups {
        update_group(db, spec, group)?;
    }
    if hint {
        db.execute(&Sql::new(
            "SELECT set_config('enable_hashjoin', 'on', true), set_config('enable_mergejoin', 'on', true)",
        ))?;
    }
    Ok(())
}

/// One group's rows: one statement on PostgreSQL (a column per array parameter), chunks
/// under SQLite's parameter limit there.
fn update_group(db: &mut Db<'_>, spec: &ResourceSpec, group: ChangeGroup) -> Result<(), Error> {
    let set: Vec<String> = group
        .columns
        .iter()
        .enumerate()
        .map(|(i, name)| format!("{name} = v.column{}", i + 2))
        .collect();
    let per_statement = Sql::rows_per_statement(db.backend(), group.columns.len() + 1);
    let mut rows = group.rows.into_iter().peekable();
    while rows.peek().is_some() {
        let (ids, chunk): (Vec<i64>, Vec<Vec<Bind>>) = rows
            .by_ref()
            .take(per_statement)
            .map(|(id, binds)| (id, std::iter::once(Bind::Int(id)).chain(binds).collect()))
            .unzip();
        let writes = Writes::updates(spec.table)
            .setting(&group.columns)
            .of_rows(ids);
        db.execute(&update_sql(db.backend(), writes, &set, chunk))?;
    }
    Ok(())
}

/// `UPDATE` of rows (each its id, then the values of `set`'s columns) from a table of rows,
/// writing what `writes` declares.
pub(crate) fn update_sql(
    backend: crate::Backend,
    writes: Writes,
    set: &[String],
    chunk: Vec<Vec<Bind>>,
) -> Sql {
    let table = writes.table();
    let mut sql = Sql::writing(
        writes,
        &format!("UPDATE {table} SET {set} FROM ", set = set.join(", ")),
    );
    sql.push_rows(backend, chunk);
    sql.push(&format!(" WHERE {table}.id = v.column1"));
    sql
}
