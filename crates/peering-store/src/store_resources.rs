//! The store's reads and writes of resources: pages, objects by id, the check that filter
//! values name objects, and creates, updates and deletes with their guards.

use peering_domain::input::Draft;
use peering_domain::{FieldErrors, Record, ResourceSpec};
use peering_filter::Filter;

use crate::connection::Db;
use crate::schema::MustExist;
use crate::together::Reader;
use crate::versions::TableVersions;
use crate::{accounts, delete, query, schema, sql, write};
use crate::{Answer, ChangeContext, EachSlice, Error, Page, PickIds, Related, Run, Store, Window};

impl Store {
    /// Every object of a resource in list order, with its relation lists (many-to-many
    /// ids, tags) but without loading the related objects themselves.
    pub fn everything(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, Error> {
        self.read(|db| query::everything(db, spec))
    }

    /// One page of a list; `relations: false` skips loading related objects (for
    /// representations that show none). A `known_count` (kept from another page of the same
    /// list at the same data) is not counted again.
    pub fn list(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
        window: Window,
        relations: bool,
        known_count: Option<i64>,
    ) -> Result<Page, Error> {
        self.read(|db| query::list(db, spec, filter, window, relations, known_count))
    }

    /// Whether a page of this list is read through an order kept between reads, which
    /// tells the list's count with the page: a count kept apart would save nothing.
    pub fn counts_with_page(&self, spec: &'static ResourceSpec, asked: (&Filter, Window)) -> bool {
        query::counted_by_kept_order(self.kept.orders(), spec, asked)
    }

    /// One page read in slices of `slice` objects, each handed to `each` with the list's
    /// count before the next is read (for large pages, whose objects all at once would
    /// take megabytes); returns the count. The page is read in one snapshot of the data.
    /// `relations` and `known_count` as in [`Store::list`].
    pub fn page_in_slices(
        &self,
        spec: &'static ResourceSpec,
        (filter, window): (&Filter, Window),
        (relations, known_count): (bool, Option<i64>),
        slice: usize,
        each: &mut dyn FnMut(i64, &[Record], &Related),
    ) -> Result<i64, Error> {
        self.read_snapshot(|db| {
            let asked = (filter, window);
            query::page_in_slices(db, spec, asked, (relations, known_count), slice, each)
        })
    }

    /// One page for objects kept rendered, `slice` ids at a time: for each slice, in order,
    /// `pick` is given the list's count and the slice's ids and says which objects to read,
    /// and `each` takes them. Returns the count. The ids come from the list's order when it
    /// is kept under `versions` (read after the request arrived), with no statement; else
    /// the page is read in one snapshot. `relations` and `known_count` as in
    /// [`Store::list`].
    pub fn page_assembled(
        &self,
        spec: &'static ResourceSpec,
        (asked, versions): ((&Filter, Window), &TableVersions),
        (relations, known_count): (bool, Option<i64>),
        slice: usize,
        (pick, each): (PickIds<'_>, EachSlice<'_>),
    ) -> Result<i64, Error> {
        if let Some((ids, count)) = query::ids_kept_at(self.kept.orders(), spec, asked, versions) {
            let mut read = |ids: &[i64]| self.objects(spec, ids, relations);
            query::picked_in_slices((&ids, count), slice, &mut read, (pick, each))?;
            return Ok(count);
        }
        self.read_snapshot(|db| {
            let reads = (&mut *pick, &mut *each);
            query::page_assembled(db, spec, asked, (relations, known_count), slice, reads)
        })
    }

    /// Every id of a list, in list order (for answers read in slices).
    pub fn list_ids(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
    ) -> Result<Vec<i64>, Error> {
        self.read(|db| query::list_ids(db, spec, filter))
    }

    /// Objects by id, in the order given; `relations` as in [`Store::list`].
    pub fn objects(
        &self,
        spec: &'static ResourceSpec,
        ids: &[i64],
        relations: bool,
    ) -> Result<(Vec<Record>, Related), Error> {
        self.read(|db| query::in_order(db, spec, ids, relations))
    }

    /// Whether object `id` of `spec` exists (one indexed probe, nothing loaded).
    pub fn exists(&self, spec: &'static ResourceSpec, id: i64) -> Result<bool, Error> {
        self.read(|db| {
            let mut sql = sql::Sql::new(&format!("SELECT 1 FROM {} WHERE id = ", spec.table));
            sql.bind(sql::Bind::Int(id));
            Ok(db.scalar(&sql)?.is_some())
        })
    }

    pub fn get(
        &self,
        spec: &'static ResourceSpec,
        id: i64,
    ) -> Result<Option<(Record, Related)>, Error> {
        self.read(|db| {
            let (mut records, related) = query::by_ids(db, spec, &[id])?;
            Ok(records.pop().map(|r| (r, related)))
        })
    }

    /// Object `id` of `spec`, as [`Store::get`] reads it, given to `answer` once read: for
    /// a server whose requests wait without a thread. `run` is given the reading to do,
    /// when there is some, to run on a thread that may block, after the work already
    /// waiting for one. The details of a resource asked while others are being read are
    /// read together, in the next statement (`together.rs`).
    pub fn get_together(&self, spec: &'static ResourceSpec, id: i64, answer: Answer, run: Run) {
        let store = self.clone();
        let Some(together) = &self.together else {
            return run(Box::new(move || answer(store.get(spec, id))));
        };
        if let Some(reader) = together.ask(spec, id, answer) {
            run(Box::new(move || store.read_details(spec, reader, run)));
        }
    }

    /// One statement of a reader of details, then its next turn, if it has one.
    fn read_details(self, spec: &'static ResourceSpec, reader: Reader, run: Run) {
        let read = |ids: &[i64]| self.read(|db| query::details(db, spec, ids));
        if let Some(reader) = reader.read_next(&read) {
            run(Box::new(move || self.read_details(spec, reader, run)));
        }
    }

    /// The first filter value that names no object, as `(parameter, value)`: foreign keys
    /// by id or attribute and tags must name existing objects, as in the reference system.
    /// `rows_found` says the list the filter selects has rows: every row then matches each
    /// predicate, so one that requires a single object by id or a tag by slug is proven to
    /// name an existing one (a foreign key or a tagging points at it) and is not looked up.
    pub fn unknown_filter_value(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
        rows_found: bool,
    ) -> Result<Option<(String, String)>, Error> {
        let table = schema::table(spec);
        let checks: Vec<_> = filter
            .predicates
            .iter()
            .filter(|p| !(rows_found && proven_by_a_row(p)))
            .filter_map(|p| {
                let must_exist = table.targets.get(p.field)?.must_exist()?;
                let values: Vec<String> = p
                    .values
                    .iter()
                    .filter(|v| **v != peering_filter::Value::Null)
                    .map(ToString::to_string)
                    .collect();
                (!values.is_empty()).then_some((p, must_exist, values))
            })
            .collect();
        if checks.is_empty() {
            return Ok(None);
        }
        self.read(|db| {
            for (p, must_exist, values) in checks {
                let numeric = matches!(p.kind, peering_filter::FilterKind::ForeignKey);
                let known: Vec<String> = db
                    .load(&existing_values_sql(must_exist, numeric, &values))?
                    .into_iter()
                    .filter_map(|mut r| r.take(0).into_text())
                    .collect();
                if let Some(missing) = values.into_iter().find(|v| !known.contains(v)) {
                    return Ok(Some((p.param.clone(), missing)));
                }
            }
            Ok(None)
        })
    }

    /// Creates objects all-or-none; returns them as a read shows them.
    pub fn create(
        &self,
        spec: &'static ResourceSpec,
        drafts: Vec<Draft>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        self.write(|db| {
            accounts::require_active(db, &ctx.authority)?;
            let guard = accounts::Guard::before(db, spec, &[], &ctx.authority)?;
            let (records, related) = write::create(db, spec, drafts.clone(), ctx)?;
            guard.after(db, &ids_of(&records))?;
            with_related(db, spec, records, related)
        })
    }

    /// Updates existing objects all-or-none (unknown ids are skipped); returns them as a
    /// read shows them. An update that found none of its objects changes nothing, and no
    /// cached answer goes stale for it.
    pub fn update(
        &self,
        spec: &'static ResourceSpec,
        items: Vec<(i64, Draft)>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        let ids: Vec<i64> = items.iter().map(|(id, _)| *id).collect();
        self.write_changing(|db| {
            accounts::require_active(db, &ctx.authority)?;
            write::lock_rows(db, spec, &ids, write::Lock::NoKeyUpdate)?;
            let guard = accounts::Guard::before(db, spec, &ids, &ctx.authority)?;
            let passwords = accounts::Passwords::before(db, spec, &ids)?;
            let (records, related) = write::update(db, spec, items.clone(), ctx)?;
            guard.after(db, &ids_of(&records))?;
            passwords.end_sessions_of_changed(db)?;
            let found = !records.is_empty();
            Ok((with_related(db, spec, records, related)?, found))
        })
    }

    /// Deletes objects all-or-none (unknown ids are skipped).
    pub fn delete(
        &self,
        spec: &'static ResourceSpec,
        ids: &[i64],
        ctx: &ChangeContext,
    ) -> Result<(), Error> {
        self.write(|db| {
            accounts::require_active(db, &ctx.authority)?;
            write::lock_rows(db, spec, ids, write::Lock::Update)?;
            let guard = accounts::Guard::before(db, spec, ids, &ctx.authority)?;
            delete::delete(db, spec, ids, ctx)?;
            guard.after(db, &[])
        })
    }
}

/// The statement that reads which of `values` exist in `must_exist`'s column (for a
/// foreign key, the values that are numbers bound as numbers). It runs whenever a
/// filtered page is empty; for one value, its text is the same whatever the value, so it
/// stays prepared.
fn existing_values_sql(must_exist: MustExist, numeric: bool, values: &[String]) -> sql::Sql {
    let mut sql = sql::Sql::new(&format!(
        "SELECT {column} FROM {table} WHERE {column} IN ",
        column = must_exist.column,
        table = must_exist.table,
    ));
    sql.bind_list(values.iter().map(|v| match v.parse::<i64>() {
        Ok(n) if numeric => sql::Bind::Int(n),
        _ => sql::Bind::Text(v.clone()),
    }));
    sql
}

/// Whether any row the predicate selects points at the object its value names, so that a
/// row found proves the object exists: one id of a foreign key, or one tag's slug (repeated
/// tags are separate predicates, ANDed), compared exactly. Several values, negations and
/// comparisons prove nothing of any one value.
fn proven_by_a_row(p: &peering_filter::Predicate) -> bool {
    use peering_filter::{FilterKind, Lookup, Value};
    matches!(p.kind, FilterKind::ForeignKey | FilterKind::Tag)
        && p.lookup == Lookup::Exact
        && matches!(p.values.as_slice(), [value] if *value != Value::Null)
}

fn ids_of(records: &[Record]) -> Vec<i64> {
    records.iter().map(|r| r.id).collect()
}

/// Written objects with the objects they point to, as an answer nests them; `related`
/// holds those the write's checks already loaded (objects of other resources, which the
/// write did not change), so that only the rest are read.
fn with_related(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    mut records: Vec<Record>,
    mut related: Related,
) -> Result<(Vec<Record>, Related), Error> {
    query::load_related(db, spec, &mut records, &mut related)?;
    Ok((records, related))
}

/// What `leaving_out_refused` gives: the last write's result (none when every item was
/// refused) and the items left out, with their errors.
pub type LeftOut<T, R> = (Option<R>, Vec<(T, FieldErrors)>);

/// Writes items with `write`; one the checks refuse (`Error::Invalid` at its place) is left
/// out, with its errors, and the others are written again. What the last write returned
/// (none when every item was refused), and the items left out.
pub fn leaving_out_refused<T: Clone, R>(
    mut items: Vec<T>,
    mut write: impl FnMut(Vec<T>) -> Result<R, Error>,
) -> Result<LeftOut<T, R>, Error> {
    let mut refused = Vec::new();
    while !items.is_empty() {
        match write(items.clone()) {
            Ok(written) => return Ok((Some(written), refused)),
            Err(Error::Invalid {
                index: Some(index),
                errors,
            }) if index < items.len() => refused.push((items.remove(index), errors)),
            Err(e) => return Err(e),
        }
    }
    Ok((None, refused))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASES: MustExist = MustExist {
        table: "autonomous_systems",
        column: "id",
    };

    const TAGS: MustExist = MustExist {
        table: "tags",
        column: "slug",
    };

    #[test]
    fn one_filter_value_is_looked_up_by_a_statement_that_stays_prepared() {
        let values = |v: &[&str]| v.iter().map(|v| (*v).to_owned()).collect::<Vec<_>>();
        let snapshot = |sql: sql::Sql| sql.snapshot(crate::Backend::Postgres);
        assert_eq!(
            snapshot(existing_values_sql(ASES, true, &values(&["17"]))),
            "SELECT id FROM autonomous_systems WHERE id IN ($1)\n-- cached: true\n-- 1: Int(17)"
        );
        assert_eq!(
            snapshot(existing_values_sql(TAGS, false, &values(&["17"]))),
            "SELECT slug FROM tags WHERE slug IN ($1)\n-- cached: true\n-- 1: Text(\"17\")"
        );
        assert_eq!(
            snapshot(existing_values_sql(ASES, true, &values(&["17", "x"]))),
            "SELECT id FROM autonomous_systems WHERE id IN ($1, $2)\n-- cached: false\n\
             -- 1: Int(17)\n-- 2: Text(\"x\")"
        );
    }
}
