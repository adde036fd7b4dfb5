//! A deliberately small SQL reader: enough of CREATE TABLE, DROP TABLE and ALTER TABLE to
//! know which tables and columns a series of migrations leaves behind, not their types.

use std::collections::BTreeMap;

/// Table name → column names, in declaration order.
pub type Schema = BTreeMap<String, Vec<String>>;

/// The first word of a table-body item or ADD action that declares a constraint, not a column.
const CONSTRAINT_WORDS: [&str; 6] = [
    "constraint",
    "primary",
    "unique",
    "foreign",
    "check",
    "exclude",
];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// An unquoted word, lower-cased since both backends ignore its case.
    Word(String),
    /// A quoted identifier, kept exactly.
    Quoted(String),
    /// A string literal; its content never matters here.
    Str,
    Punct(char),
}

/// Applies every statement of `sql` to `schema`, in order.
pub fn apply_sql(schema: &mut Schema, sql: &str) -> Result<(), String> {
    let toks = tokenize(sql)?;
    for stmt in toks.split(|t| *t == Tok::Punct(';')) {
        if !stmt.is_empty() {
            apply_statement(schema, stmt)?;
        }
    }
    Ok(())
}

fn tokenize(sql: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = sql.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    // The index just past the closing `quote` of a literal opened before `from`; a doubled
    // quote is an escaped one.
    let close = |from: usize, quote: char| -> Result<(String, usize), String> {
        let mut text = String::new();
        let mut j = from;
        while j < chars.len() {
            if chars[j] == quote {
                if chars.get(j + 1) == Some(&quote) {
                    text.push(quote);
                    j += 2;
                    continue;
                }
                return Ok((text, j + 1));
            }
            text.push(chars[j]);
            j += 1;
        }
        Err(format!("unterminated {quote} quote"))
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && next == Some('-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let end = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars[j] == '*' && chars[j + 1] == '/')
                .ok_or("unterminated /* comment")?;
            i = end + 2;
        } else if c == '\'' {
            i = close(i + 1, '\'')?.1;
            toks.push(Tok::Str);
        } else if c == '"' || c == '`' {
            let (text, end) = close(i + 1, c)?;
            toks.push(Tok::Quoted(text));
            i = end;
        } else if c == '$' {
            // PostgreSQL dollar quoting ($$ … $$ or $tag$ … $tag$), e.g. function bodies,
            // which may contain semicolons.
            let tag_end = (i + 1..chars.len())
                .find(|&j| !(chars[j].is_alphanumeric() || chars[j] == '_'))
                .filter(|&j| chars[j] == '$');
            match tag_end {
                Some(j) => {
                    let tag: String = chars[i..=j].iter().collect();
                    let rest: String = chars[j + 1..].iter().collect();
                    let found = rest
                        .find(&tag)
                        .ok_or_else(|| format!("unterminated {tag} quote"))?;
                    i = j + 1 + rest[..found].chars().count() + tag.chars().count();
                    toks.push(Tok::Str);
                }
                None => {
                    toks.push(Tok::Punct('$'));
                    i += 1;
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            toks.push(Tok::Word(word.to_lowercase()));
        } else {
            toks.push(Tok::Punct(c));
            i += 1;
        }
    }
    Ok(toks)
}

/// Reads a statement token by token.
struct Cursor<'a> {
    toks: &'a [Tok],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek_word(&self, word: &str) -> bool {
        matches!(self.toks.get(self.pos), Some(Tok::Word(w)) if w == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.peek_word(word);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Consumes `words` only if all of them come next.
    fn eat_words(&mut self, words: &[&str]) -> bool {
        let found = words.iter().enumerate().all(
            |(k, word)| matches!(self.toks.get(self.pos + k), Some(Tok::Word(w)) if w == word),
        );
        if found {
            self.pos += words.len();
        }
        found
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let found = self.toks.get(self.pos) == Some(&Tok::Punct(c));
        if found {
            self.pos += 1;
        }
        found
    }

    fn ident(&mut self) -> Result<String, String> {
        let name = match self.toks.get(self.pos) {
            Some(Tok::Word(w)) => w.clone(),
            Some(Tok::Quoted(q)) => q.clone(),
            other => return Err(format!("expected a name, found {other:?}")),
        };
        self.pos += 1;
        Ok(name)
    }

    /// `a`, `schema.a` or `"schema"."a"`: the last part, since both backends use one schema.
    fn table_name(&mut self) -> Result<String, String> {
        let mut name = self.ident()?;
        while self.eat_punct('.') {
            name = self.ident()?;
        }
        Ok(name)
    }

    /// The rest of the statement split at commas outside parentheses.
    fn rest_split_by_commas(&self) -> Vec<&'a [Tok]> {
        split_top_level(&self.toks[self.pos..])
    }
}

fn split_top_level(toks: &[Tok]) -> Vec<&[Tok]> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (k, tok) in toks.iter().enumerate() {
        match tok {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => depth = depth.saturating_sub(1),
            Tok::Punct(',') if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts
}

fn starts_with_constraint(item: &[Tok]) -> bool {
    matches!(item.first(), Some(Tok::Word(w)) if CONSTRAINT_WORDS.contains(&w.as_str()))
}

fn apply_statement(schema: &mut Schema, stmt: &[Tok]) -> Result<(), String> {
    let mut cur = Cursor { toks: stmt, pos: 0 };
    if cur.eat_word("create") {
        for word in ["temp", "temporary", "unlogged"] {
            cur.eat_word(word);
        }
        if cur.eat_word("table") {
            return create_table(schema, &mut cur);
        }
    } else if cur.eat_words(&["drop", "table"]) {
        let if_exists = cur.eat_words(&["if", "exists"]);
        for part in cur.rest_split_by_commas() {
            let name = Cursor { toks: part, pos: 0 }.table_name()?;
            if schema.remove(&name).is_none() && !if_exists {
                return Err(format!("DROP TABLE {name}: no such table"));
            }
        }
    } else if cur.eat_words(&["alter", "table"]) {
        return alter_table(schema, &mut cur);
    }
    // Indexes, views, inserts, triggers…: no effect on tables and columns.
    Ok(())
}

fn create_table(schema: &mut Schema, cur: &mut Cursor) -> Result<(), String> {
    let if_not_exists = cur.eat_words(&["if", "not", "exists"]);
    let name = cur.table_name()?;
    if !cur.eat_punct('(') {
        return Err(format!(
            "CREATE TABLE {name}: only the `CREATE TABLE name (columns…)` form is understood"
        ));
    }
    // The body ends at the `)` matching the one just eaten; split_top_level sees it as the
    // end of the last item, and anything after (e.g. STRICT, PARTITION BY) is dropped.
    let body = &cur.toks[cur.pos..];
    let mut depth = 1usize;
    let end = body
        .iter()
        .position(|t| {
            match t {
                Tok::Punct('(') => depth += 1,
                Tok::Punct(')') => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .ok_or_else(|| format!("CREATE TABLE {name}: unbalanced parentheses"))?;
    let mut columns = Vec::new();
    for item in split_top_level(&body[..end]) {
        if item.is_empty() {
            return Err(format!("CREATE TABLE {name}: empty column definition"));
        }
        if !starts_with_constraint(item) {
            columns.push(Cursor { toks: item, pos: 0 }.ident()?);
        }
    }
    if schema.contains_key(&name) {
        if if_not_exists {
            return Ok(());
        }
        return Err(format!("CREATE TABLE {name}: table already exists"));
    }
    schema.insert(name, columns);
    Ok(())
}

fn alter_table(schema: &mut Schema, cur: &mut Cursor) -> Result<(), String> {
    let if_exists = cur.eat_words(&["if", "exists"]);
    cur.eat_word("only");
    let mut name = cur.table_name()?;
    if !schema.contains_key(&name) {
        if if_exists {
            return Ok(());
        }
        return Err(format!("ALTER TABLE {name}: no such table"));
    }
    for action in cur.rest_split_by_commas() {
        let mut act = Cursor {
            toks: action,
            pos: 0,
        };
        let columns = schema.get_mut(&name).expect("checked above");
        if act.eat_words(&["rename", "to"]) {
            let new_name = act.table_name()?;
            let columns = schema.remove(&name).expect("checked above");
            if schema.insert(new_name.clone(), columns).is_some() {
                return Err(format!(
                    "ALTER TABLE {name} RENAME TO {new_name}: table exists"
                ));
            }
            name = new_name;
        } else if act.eat_word("rename") {
            if act.peek_word("constraint") {
                continue;
            }
            act.eat_word("column");
            let old = act.ident()?;
            if !act.eat_word("to") {
                return Err(format!("ALTER TABLE {name} RENAME {old}: expected TO"));
            }
            let new = act.ident()?;
            let slot = columns
                .iter_mut()
                .find(|c| **c == old)
                .ok_or_else(|| format!("ALTER TABLE {name} RENAME {old}: no such column"))?;
            *slot = new;
        } else if act.eat_word("add") {
            if starts_with_constraint(&action[act.pos..]) {
                continue;
            }
            act.eat_word("column");
            let if_not_exists = act.eat_words(&["if", "not", "exists"]);
            let column = act.ident()?;
            if columns.contains(&column) {
                if !if_not_exists {
                    return Err(format!("ALTER TABLE {name} ADD {column}: column exists"));
                }
            } else {
                columns.push(column);
            }
        } else if act.eat_word("drop") {
            if act.peek_word("constraint") {
                continue;
            }
            act.eat_word("column");
            let if_exists = act.eat_words(&["if", "exists"]);
            let column = act.ident()?;
            let before = columns.len();
            columns.retain(|c| *c != column);
            if columns.len() == before && !if_exists {
                return Err(format!("ALTER TABLE {name} DROP {column}: no such column"));
            }
        }
        // ALTER COLUMN, SET, OWNER TO…: names unchanged.
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(sql: &str) -> Schema {
        let mut schema = Schema::new();
        apply_sql(&mut schema, sql).unwrap();
        schema
    }

    fn cols(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn create_table_skips_constraints_and_comments() {
        let schema = parse(
            "-- a comment; with a semicolon\n\
             CREATE TABLE tags (\n\
                 id INTEGER PRIMARY KEY AUTOINCREMENT,\n\
                 name TEXT NOT NULL DEFAULT 'a, (b); c',\n\
                 price NUMERIC(10, 2),\n\
                 \"Quoted\" TEXT,\n\
                 UNIQUE (name, price),\n\
                 CONSTRAINT positive CHECK (price > 0),\n\
                 FOREIGN KEY (id) REFERENCES other (id)\n\
             ) STRICT;\n\
             /* block; comment */\n\
             CREATE INDEX tags_name ON tags (name);\n\
             CREATE TABLE IF NOT EXISTS public.other (id BIGSERIAL PRIMARY KEY, PRIMARY KEY (id));",
        );
        assert_eq!(schema["tags"], cols(&["id", "name", "price", "Quoted"]));
        assert_eq!(schema["other"], cols(&["id"]));
        assert_eq!(schema.len(), 2);
    }

    #[test]
    fn alter_and_drop_statements_apply_in_order() {
        let schema = parse(
            "CREATE TABLE a (id INT, x INT);\n\
             CREATE TABLE gone (id INT);\n\
             ALTER TABLE a ADD COLUMN y TEXT NOT NULL DEFAULT '';\n\
             ALTER TABLE a ADD z INT, ADD CONSTRAINT u UNIQUE (z);\n\
             ALTER TABLE a DROP COLUMN x;\n\
             ALTER TABLE a RENAME COLUMN z TO w;\n\
             ALTER TABLE a RENAME TO b;\n\
             DROP TABLE gone;\n\
             CREATE FUNCTION f() RETURNS trigger AS $body$ BEGIN; CREATE TABLE no (x INT); END $body$ LANGUAGE plpgsql;",
        );
        assert_eq!(schema.len(), 1);
        assert_eq!(schema["b"], cols(&["id", "y", "w"]));
    }

    #[test]
    fn errors_name_the_problem() {
        let mut schema = Schema::new();
        let err = apply_sql(&mut schema, "ALTER TABLE missing ADD COLUMN x INT;").unwrap_err();
        assert!(err.contains("missing"), "{err}");
        let err = apply_sql(&mut schema, "CREATE TABLE t AS SELECT 1;").unwrap_err();
        assert!(err.contains("CREATE TABLE t"), "{err}");
        assert!(apply_sql(&mut schema, "CREATE TABLE t (x TEXT DEFAULT 'open").is_err());
    }
}
