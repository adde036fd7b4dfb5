//! PostgreSQL's own limit on the server's statements: the statements one detail request
//! runs are captured from the server's SQL trace log (`peering_store::sql`), written as a
//! `pgbench` script with the object's id drawn at random for each transaction, and run
//! with prepared statements and the scenario's connections. The report sets the server's
//! figure beside it.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::server::Server;

/// A detail request and its replay.
pub struct Baseline {
    pub name: &'static str,
    /// The statements of one request, as PostgreSQL receives them.
    pub statements: Vec<String>,
    /// Transactions (each the request's statements) a second.
    pub tps: f64,
}

/// A detail to capture: `<collection><id>/`, with ids drawn from `low..=high`.
pub struct Detail {
    pub name: &'static str,
    pub collection: &'static str,
    pub low: i64,
    pub high: i64,
}

/// Captures the statements of `detail` on `server` (started with the trace log on and the
/// answer cache off) and replays them on `database_url`; `None` when the server logs no
/// statement (a build older than the trace log, measured for a before-and-after).
pub fn measure(
    server: &Server,
    database_url: &str,
    detail: &Detail,
    connections: u32,
    duration_s: u64,
) -> Result<Option<Baseline>, String> {
    let statements = capture(server, format!("{}{}/", detail.collection, detail.low))?;
    if statements.is_empty() {
        return Ok(None);
    }
    let script_text = script(&statements, detail)?;
    let path = std::env::temp_dir().join(format!(
        "xtask-pgbench-{}-{:016x}.sql",
        detail.name,
        super::database::random_u64()
    ));
    std::fs::write(&path, &script_text).map_err(|e| format!("{}: {e}", path.display()))?;
    // The server connects to a PostgreSQL on loopback without TLS unless its URL says
    // otherwise (`peering-store`'s `pg_tls.rs`); pgbench, on the same URL, does the same,
    // so that both pay for the same connections.
    let output = Command::new("pgbench")
        .env("PGSSLMODE", "allow")
        .args(["-n", "-M", "prepared", "-j", "2"])
        .arg(format!("-c{connections}"))
        .arg(format!("-T{duration_s}"))
        .arg("-f")
        .arg(&path)
        .arg(database_url)
        .stdin(Stdio::null())
        .output();
    let _ = std::fs::remove_file(&path);
    let output = output.map_err(|e| format!("cannot run pgbench: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "pgbench failed: {stdout}{stderr}\nscript:\n{script_text}"
        ));
    }
    Ok(Some(Baseline {
        name: detail.name,
        tps: parse_tps(&stdout).ok_or_else(|| format!("no tps in pgbench's output: {stdout}"))?,
        statements: statements.iter().map(|s| s.sql.clone()).collect(),
    }))
}

pub fn pgbench_present() -> bool {
    Command::new("pgbench")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One logged statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub sql: String,
    pub binds: Vec<Value>,
}

/// The statements of the second of two identical requests (the first may read what the
/// server then keeps).
fn capture(server: &Server, path: String) -> Result<Vec<Statement>, String> {
    let target = super::target::Target::local(server.addr, &server.token);
    let mut lines = Vec::new();
    for _ in 0..2 {
        let answer = target.send("GET", &path, None)?;
        if answer.status != 200 {
            return Err(format!("GET {path} answered {}", answer.status));
        }
        // Log lines reach stderr through the server's writer thread.
        std::thread::sleep(Duration::from_millis(300));
        lines = server.take_stderr();
    }
    // A detail only reads; a write among its lines is the server's own bookkeeping that
    // happened to run then (a token's last use, noted now and then), not the request's.
    Ok((lines.iter())
        .filter_map(|l| parse_line(l))
        .filter(|s| is_read(&s.sql))
        .collect())
}

/// A trace line's statement: the JSON object after the log target.
fn parse_line(line: &str) -> Option<Statement> {
    let start = line.find("{\"")?;
    let value: Value = serde_json::from_str(line[start..].trim()).ok()?;
    Some(Statement {
        sql: value["sql"].as_str()?.to_string(),
        binds: value["binds"].as_array()?.clone(),
    })
}

fn is_read(sql: &str) -> bool {
    let first = sql.split_whitespace().next().unwrap_or_default();
    first.eq_ignore_ascii_case("SELECT") || first.eq_ignore_ascii_case("WITH")
}

/// The pgbench script: the id drawn at random, then each statement with its parameters in
/// place: the id (alone or as a one-element array) as `:id`, the rest as literals.
fn script(statements: &[Statement], detail: &Detail) -> Result<String, String> {
    let id = detail.low;
    let mut text = format!("\\set id random({}, {})\n", detail.low, detail.high);
    for statement in statements {
        let mut sql = statement.sql.clone();
        // From the last parameter down, so that `$1` never matches the start of `$12`.
        for (i, bind) in statement.binds.iter().enumerate().rev() {
            let value = if bind.as_i64() == Some(id) {
                ":id".to_string()
            } else if bind
                .as_array()
                .is_some_and(|a| a.len() == 1 && a[0].as_i64() == Some(id))
            {
                "ARRAY[:id]::BIGINT[]".to_string()
            } else {
                literal(bind)?
            };
            sql = sql.replace(&format!("${}", i + 1), &value);
        }
        if sql.contains(';') {
            return Err(format!(
                "a statement holds a `;`, which pgbench would split: {sql}"
            ));
        }
        text.push_str(&sql);
        text.push_str(";\n");
    }
    Ok(text)
}

fn literal(value: &Value) -> Result<String, String> {
    Ok(match value {
        Value::Null => "NULL".into(),
        Value::Bool(b) => b.to_string().to_uppercase(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("'{}'", s.replace('\'', "''")),
        Value::Array(items) if items.is_empty() => "'{}'".into(),
        Value::Array(items) => {
            let kind = if items.iter().all(Value::is_i64) {
                "BIGINT"
            } else {
                "TEXT"
            };
            let items: Result<Vec<String>, String> = items.iter().map(literal).collect();
            format!("ARRAY[{}]::{kind}[]", items?.join(","))
        }
        Value::Object(_) => return Err(format!("no literal for {value}")),
    })
}

/// `tps = 8712.345678 (without initial connection time)`.
fn parse_tps(stdout: &str) -> Option<f64> {
    stdout
        .lines()
        .find_map(|line| line.trim().strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|number| number.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn detail() -> Detail {
        Detail {
            name: "as_detail",
            collection: "/api/x/",
            low: 12,
            high: 99,
        }
    }

    #[test]
    fn trace_lines_become_statements() {
        let line = r#"2026-11-25T10:00:00Z TRACE peering_store::sql: {"sql":"SELECT 1 WHERE a = $1","binds":[12]}"#;
        assert_eq!(
            parse_line(line),
            Some(Statement {
                sql: "SELECT 1 WHERE a = $1".into(),
                binds: vec![json!(12)]
            })
        );
        assert_eq!(parse_line("GET /api/ 200"), None);
    }

    #[test]
    fn only_reads_are_a_details_statements() {
        assert!(is_read("SELECT 1"));
        assert!(is_read(" with x AS (SELECT 1) SELECT * FROM x"));
        assert!(!is_read("UPDATE tokens SET last_used = $1 WHERE id = $2"));
        assert!(!is_read(""));
    }

    #[test]
    fn the_id_is_drawn_and_other_values_are_literals() {
        let statements = [
            Statement {
                sql: "SELECT v FROM data_version".into(),
                binds: vec![],
            },
            Statement {
                sql: "SELECT * FROM t WHERE id = $1 AND n = $2 AND name = $10 AND x = ANY(CAST($3 AS BIGINT[]))".into(),
                binds: vec![
                    json!(12),
                    json!(5),
                    json!([12]),
                    json!(null),
                    json!(null),
                    json!(null),
                    json!(null),
                    json!(null),
                    json!(null),
                    json!("it's"),
                ],
            },
        ];
        let text = script(&statements, &detail()).unwrap();
        assert_eq!(
            text,
            "\\set id random(12, 99)\nSELECT v FROM data_version;\n\
             SELECT * FROM t WHERE id = :id AND n = 5 AND name = 'it''s' AND x = ANY(CAST(ARRAY[:id]::BIGINT[] AS BIGINT[]));\n"
        );
    }

    #[test]
    fn tps_from_pgbench_output() {
        let out = "number of transactions actually processed: 87123\nlatency average = 3.6 ms\ntps = 8712.345678 (without initial connection time)\n";
        assert_eq!(parse_tps(out), Some(8712.345678));
        assert_eq!(parse_tps("nothing"), None);
    }
}
