//! The free-text search `q`: any of the resource's search terms matches, read from a
//! trigram index where one covers them.

use peering_domain::net::sort_key;

use super::column::like_pattern;
use super::filter::along;
use crate::connection::Backend;
use crate::schema::{SearchHow, SearchIndex, SearchTerm, Table};
use crate::sql::{Bind, Sql};

/// `q` in the forms the terms compare: a LIKE pattern, a number, a host's sort key.
struct Query {
    pattern: String,
    number: Option<i64>,
    host_key: Option<String>,
}

impl Query {
    fn of(q: &str) -> Query {
        Query {
            pattern: like_pattern(q, true, true),
            number: q.trim().parse::<i64>().ok(),
            host_key: q
                .trim()
                .parse::<std::net::IpAddr>()
                .ok()
                .map(|addr| sort_key(&addr, None)),
        }
    }
}

/// `q`: any search term matches. On SQLite, the terms a trigram index covers are one
/// lookup in it, when `q` has the three characters a trigram needs.
pub(super) fn search_condition(backend: Backend, table: &Table, q: &str) -> Sql {
    let lower = q.to_lowercase();
    let index = table
        .search_index
        .filter(|_| backend == Backend::Sqlite && lower.chars().count() >= 3);
    let (indexed, scanned): (Vec<&SearchTerm>, Vec<&SearchTerm>) =
        table.search.iter().partition(|term| covers(index, term));
    let mut terms: Vec<Sql> = Vec::new();
    if let Some(index) = index {
        terms.extend(index_condition(index, &indexed, &lower));
    }
    let query = Query::of(q);
    terms.extend(
        scanned
            .iter()
            .filter_map(|term| term_condition(term, &query)),
    );
    let mut sql = Sql::new("(");
    if terms.is_empty() {
        sql.push("1 = 1");
    }
    for (i, term) in terms.iter().enumerate() {
        if i > 0 {
            sql.push(" OR ");
        }
        sql.append(term);
    }
    sql.push(")");
    sql
}

/// Whether the index (when `q` may use one) holds the term's column.
fn covers(index: Option<&SearchIndex>, term: &SearchTerm) -> bool {
    index.is_some_and(|i| {
        matches!(term.how, SearchHow::Contains)
            && term.path.hops.is_empty()
            && term.path.lc.is_some_and(|lc| i.columns.contains(&lc))
    })
}

/// One lookup in the index for all the terms it covers (none: no condition).
fn index_condition(index: &SearchIndex, indexed: &[&SearchTerm], lower: &str) -> Option<Sql> {
    let columns: Vec<&str> = indexed.iter().filter_map(|t| t.path.lc).collect();
    if columns.is_empty() {
        return None;
    }
    // A phrase of the trigrams of `q`, in order: `q` as a substring, as `LIKE` has it.
    let phrase = lower.replace('"', "\"\"");
    let mut sql = Sql::new(&format!(
        "o.id IN (SELECT rowid FROM {i} WHERE {i} MATCH ",
        i = index.index
    ));
    sql.bind(Bind::Text(format!(
        "{{{}}} : \"{phrase}\"",
        columns.join(" ")
    )))
    .push(")");
    Some(sql)
}

/// One term scanned, through the relations its path follows (none: `q` cannot match it,
/// as a word for a number).
fn term_condition(term: &SearchTerm, query: &Query) -> Option<Sql> {
    let path = &term.path;
    let column = path.column;
    Some(match term.how {
        SearchHow::Contains => along(path, |alias: &str| {
            let lower = path
                .lc
                .map(|l| format!("{alias}.{l}"))
                .unwrap_or_else(|| format!("LOWER({alias}.{column})"));
            let mut sql = Sql::new(&lower);
            sql.push(" LIKE ")
                .bind(Bind::Text(query.pattern.clone()))
                .push(" ESCAPE '\\'");
            sql
        }),
        SearchHow::IntEquals => {
            let number = query.number?;
            along(path, |alias: &str| {
                let mut sql = Sql::new(&format!("{alias}.{column} = "));
                sql.bind(Bind::Int(number));
                sql
            })
        }
        SearchHow::IpHost => {
            let key = query.host_key.as_deref()?;
            // A host matches with or without a prefix length (`<key>` or `<key>/<len>`).
            along(path, |alias: &str| {
                let col = format!("{alias}.{column}");
                let mut sql = Sql::new(&format!("({col} = "));
                sql.bind(Bind::Text(key.to_string()))
                    .push(&format!(" OR {col} LIKE "))
                    .bind(Bind::Text(format!("{key}/%")))
                    .push(")");
                sql
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use peering_domain::resources::AUTONOMOUS_SYSTEM;

    use super::*;
    use crate::schema::table;

    /// An edited name is found by the next search; on PostgreSQL, no edit waits in the
    /// trigram indexes' pending list, which every search would read whole (the migration
    /// `search_indexes_take_changes_at_once`).
    #[test]
    fn an_edit_is_in_the_search_index_at_once() {
        let store = crate::testing::TestStore::new(1);
        let found = |db: &mut crate::connection::Db<'_>, q: &str| {
            let mut sql = Sql::new("SELECT COUNT(*) FROM autonomous_systems o WHERE ");
            sql.append(&search_condition(
                db.backend(),
                table(&AUTONOMOUS_SYSTEM),
                q,
            ));
            db.scalar(&sql)
        };
        store
            .read(|db| {
                db.execute(&Sql::new(
                    "INSERT INTO autonomous_systems (asn, name, name_lc, created, updated) \
                     VALUES (64500, 'Example Transit', 'example transit', 0, 0)",
                ))?;
                db.execute(&Sql::new(
                    "UPDATE autonomous_systems SET name = 'Renamed Transit', \
                     name_lc = 'renamed transit' WHERE asn = 64500",
                ))?;
                assert_eq!(found(db, "Renamed Tran")?, Some(1));
                assert_eq!(found(db, "example tran")?, Some(0));
                if db.backend() == Backend::Postgres {
                    for index in [
                        "autonomous_systems_name_trgm",
                        "autonomous_systems_irr_as_set_trgm",
                    ] {
                        let exists = Sql::new(&format!(
                            "SELECT COUNT(*) FROM pg_class WHERE relname = '{index}'"
                        ));
                        assert_eq!(db.scalar(&exists)?, Some(1), "{index}: is pg_trgm there?");
                        let waiting = Sql::new(&format!(
                            "SELECT gin_clean_pending_list('{index}'::regclass)"
                        ));
                        assert_eq!(db.scalar(&waiting)?, Some(0), "{index}");
                    }
                }
                Ok(())
            })
            .unwrap();
    }
}
