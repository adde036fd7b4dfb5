//! The columns an `UPDATE` statement sets, told from its text. A list's order kept between
//! reads survives a write of this process that set none of the columns it orders by
//! (`orders.rs`); where the `SET` clause cannot be read plainly, every column counts as set.
//!
//! Writes note the text before a statement's first parameter (`Sql::head`), so the clause
//! is read only when that text reaches its end (`FROM`, `WHERE` or `RETURNING`): a clause
//! cut by a parameter may set more columns after it.

use crate::written::is_table_name;

/// The columns `UPDATE <table> SET <column> = …, … <FROM|WHERE|RETURNING>` sets, or `None`
/// when the text is not such an update, ends before its clause does, or a part of the
/// clause is not `<column> = <value>`.
pub(crate) fn set_columns(text: &str) -> Option<Vec<&str>> {
    let rest = after_word(text.trim_start(), "UPDATE")?;
    let (_table, rest) = rest.trim_start().split_once(char::is_whitespace)?;
    let clause = after_word(rest.trim_start(), "SET")?;
    top_level_parts(clause)?
        .into_iter()
        .map(column_set)
        .collect()
}

/// `text` after its first word, when that word is `word` (in any case).
fn after_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let head = text.get(..word.len())?;
    let rest = &text[word.len()..];
    (head.eq_ignore_ascii_case(word) && rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// The clause's parts, split at the commas outside parentheses and quotes, up to the first
/// `FROM`, `WHERE` or `RETURNING` outside them; `None` when there is none (the text ends
/// first) or the clause holds a backslash (an escape this reading does not follow).
fn top_level_parts(clause: &str) -> Option<Vec<&str>> {
    let bytes = clause.as_bytes();
    let (mut parts, mut start, mut depth, mut quoted) = (Vec::new(), 0, 0i32, false);
    for (at, &byte) in bytes.iter().enumerate() {
        match byte {
            b'\\' => return None,
            b'\'' => quoted = !quoted,
            _ if quoted => {}
            b'(' => depth += 1,
            b')' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&clause[start..at]);
                start = at + 1;
            }
            c if depth == 0
                && c.is_ascii_whitespace()
                && ends_clause(&clause[..at], &clause[at + 1..]) =>
            {
                parts.push(&clause[start..at]);
                return Some(parts);
            }
            _ => {}
        }
    }
    None
}

/// Whether `after` starts with a keyword that ends a `SET` clause (`before` is the text
/// before it: `IS DISTINCT FROM` compares, it does not end the clause).
fn ends_clause(before: &str, after: &str) -> bool {
    let keyword =
        |word: &str| after_word(after, word).is_some() || after.eq_ignore_ascii_case(word);
    let distinct = before.trim_end().to_ascii_uppercase().ends_with("DISTINCT");
    (keyword("FROM") && !distinct) || keyword("WHERE") || keyword("RETURNING")
}

/// The column of one `<column> = <value>` part.
fn column_set(part: &str) -> Option<&str> {
    let (column, value) = part.split_once('=')?;
    let column = column.trim();
    (is_table_name(column) && !value.trim().is_empty()).then_some(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_of_a_plain_set_clause_are_told() {
        let cases: &[(&str, &[&str])] = &[
            ("UPDATE t SET a = $1 WHERE id = $2", &["a"]),
            // What the store's updates note (`Sql::head`, before the rows' parameters).
            (
                "UPDATE autonomous_systems SET comments = v.column2, updated = v.column3 FROM ",
                &["comments", "updated"],
            ),
            ("update t set a=1,b = 'x, y = 2' where c", &["a", "b"]),
            (
                "UPDATE t SET a = COALESCE(b, 1), c = (SELECT 1 WHERE x = 2) WHERE d",
                &["a", "c"],
            ),
            (
                "UPDATE t SET a = b IS DISTINCT FROM c, asn = 1 WHERE id = 2",
                &["a", "asn"],
            ),
            (
                "UPDATE jobs SET status = 'running' RETURNING id",
                &["status"],
            ),
            ("UPDATE t SET a = 1\nWHERE b = 2", &["a"]),
        ];
        for (text, columns) in cases {
            assert_eq!(set_columns(text).as_deref(), Some(*columns), "{text}");
        }
    }

    #[test]
    fn anything_else_is_not_read() {
        for text in [
            // Cut by a parameter: more may follow.
            "UPDATE t SET a = ",
            "UPDATE t SET a = COALESCE(",
            "UPDATE t SET a = a || ",
            "UPDATE t SET a = 1",
            "UPDATE t SET a = 'x WHERE' ",
            "UPDATE t SET a = E'\\'', asn = 1 WHERE id = 2",
            "UPDATE t SET (a, b) = (1, 2) WHERE c",
            "UPDATE t SET \"A\" = 1 WHERE c",
            "UPDATE t SET a = 1, = 2 WHERE c",
            "UPDATE t SET a = WHERE c",
            "UPDATE t SET",
            "UPDATE t",
            "UPDATEt SET a = 1 WHERE c",
            "INSERT INTO t (a) VALUES (1)",
            "DELETE FROM t WHERE a = 1",
            "",
        ] {
            assert_eq!(set_columns(text), None, "{text}");
        }
    }
}
