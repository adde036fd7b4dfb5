//! The columns an `UPDATE` statement sets, told from its text. A list's order kept between
//! reads survives a write of this process that set none of the columns it orders by
//! (`orders.rs`); where the `SET` clause cannot be read plainly, every column counts as set.

use crate::written::is_table_name;

/// The columns `UPDATE <table> SET <column> = …, …` sets, or `None` when the statement is
/// not such an update or a part of its `SET` clause is not `<column> = <value>`.
pub(crate) fn set_columns(text: &str) -> Option<Vec<&str>> {
    let rest = after_word(text.trim_start(), "UPDATE")?;
    let (_table, rest) = rest.trim_start().split_once(char::is_whitespace)?;
    let clause = after_word(rest.trim_start(), "SET")?;
    top_level_parts(clause)
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
/// `FROM`, `WHERE` or `RETURNING` outside them (or the end).
fn top_level_parts(clause: &str) -> Vec<&str> {
    let bytes = clause.as_bytes();
    let (mut parts, mut start, mut depth, mut quoted) = (Vec::new(), 0, 0i32, false);
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\'' => quoted = !quoted,
            _ if quoted => {}
            b'(' => depth += 1,
            b')' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&clause[start..at]);
                start = at + 1;
            }
            c if depth == 0 && c.is_ascii_whitespace() && ends_clause(&clause[at + 1..]) => {
                break;
            }
            _ => {}
        }
        at += 1;
    }
    parts.push(&clause[start..at]);
    parts
}

/// Whether `text` starts with a keyword that ends a `SET` clause.
fn ends_clause(text: &str) -> bool {
    ["FROM", "WHERE", "RETURNING"]
        .iter()
        .any(|word| after_word(text, word).is_some() || text.eq_ignore_ascii_case(word))
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
        let cases: &[(&str, Option<&[&str]>)] = &[
            ("UPDATE t SET a = $1 WHERE id = $2", Some(&["a"])),
            (
                "UPDATE autonomous_systems SET comments = v.column2, updated = v.column3 \
                 FROM (VALUES ($1, $2, $3)) v WHERE autonomous_systems.id = v.column1",
                Some(&["comments", "updated"]),
            ),
            ("update t set a=1,b = 'x, y = 2'", Some(&["a", "b"])),
            (
                "UPDATE t SET a = COALESCE(b, 1), c = (SELECT 1 WHERE x = 2)",
                Some(&["a", "c"]),
            ),
            (
                "UPDATE jobs SET status = 'running', started = $1 RETURNING id",
                Some(&["status", "started"]),
            ),
            ("UPDATE t SET a = 1\nWHERE b = 2", Some(&["a"])),
        ];
        for (text, columns) in cases {
            assert_eq!(set_columns(text).as_deref(), *columns, "{text}");
        }
    }

    #[test]
    fn anything_else_is_not_read() {
        for text in [
            "UPDATE t SET (a, b) = (1, 2)",
            "UPDATE t SET \"A\" = 1",
            "UPDATE t SET a = 1, = 2",
            "UPDATE t SET a =",
            "UPDATE t SET",
            "UPDATE t",
            "UPDATEt SET a = 1",
            "INSERT INTO t (a) VALUES (1)",
            "DELETE FROM t WHERE a = 1",
            "",
        ] {
            assert_eq!(set_columns(text), None, "{text}");
        }
    }
}
