//! Whether our PostgreSQL connections encrypt. libpq's default (`sslmode=prefer`) encrypts
//! every connection the server accepts TLS on, the same host included, where it protects
//! nothing (whoever can read the loopback interface can read the server's memory) and costs
//! both sides CPU on every statement: a sixth of a detail's time on our side, more on the
//! database's (docs/performance.md, twenty-first round). So on loopback, where the operator
//! chose nothing, we ask for `sslmode=allow`: a plain connection first, and TLS only if the
//! server refuses a plain one (a `hostssl` line in `pg_hba.conf`). Whatever the operator
//! chose, in the URL, in libpq's environment or in a service file, is kept.

use std::borrow::Cow;

/// The parameters and environment variables through which an operator chooses how libpq
/// encrypts (a service file may set `sslmode` too, so naming one counts as a choice), or
/// names hosts outside the URL's address (`host`, `hostaddr`), which are left as written.
const CHOSEN_IN_URL: [&str; 5] = ["sslmode", "requiressl", "service", "host", "hostaddr"];
const CHOSEN_IN_ENV: [&str; 3] = ["PGSSLMODE", "PGREQUIRESSL", "PGSERVICE"];

/// `url` with `sslmode=allow` added when every host it names is on loopback and the
/// operator chose no TLS setting (`env_chose` tells whether libpq's environment does).
pub(crate) fn plain_on_loopback(url: &str, env_chose: impl Fn(&str) -> bool) -> Cow<'_, str> {
    let chosen = query_keys(url).any(|key| CHOSEN_IN_URL.contains(&key))
        || CHOSEN_IN_ENV.iter().any(|name| env_chose(name));
    if chosen || !hosts_are_loopback(url) {
        return Cow::Borrowed(url);
    }
    Cow::Owned(with_parameter(url, "sslmode=allow"))
}

/// `url` with `parameter` (`key=value`) added to its query.
fn with_parameter(url: &str, parameter: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}{parameter}")
}

/// Whether libpq's environment variable `name` is set in this process.
pub(crate) fn set_in_environment(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// The keys of the URL's query parameters.
fn query_keys(url: &str) -> impl Iterator<Item = &str> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    (query.split('&')).map(|pair| pair.split_once('=').map_or(pair, |(key, _)| key))
}

/// Whether the URL names hosts, all of them on loopback (`localhost`, `127.0.0.0/8`,
/// `::1`), after the scheme, the user and before the port. No host (a Unix socket, where
/// libpq never encrypts) or any other host is left as the operator wrote it.
fn hosts_are_loopback(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let hosts = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    !hosts.is_empty() && hosts.split(',').all(|host| is_loopback(without_port(host)))
}

/// `host` without its `:port` (an IPv6 address is bracketed, `[::1]:5432`).
fn without_port(host: &str) -> &str {
    if let Some(bracketed) = host.strip_prefix('[') {
        return bracketed.split(']').next().unwrap_or("");
    }
    host.split(':').next().unwrap_or("")
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing_in_env(_: &str) -> bool {
        false
    }

    #[test]
    fn loopback_without_a_choice_connects_plain_first() {
        for (url, expected) in [
            (
                "postgres://u@127.0.0.1:5432/db",
                "postgres://u@127.0.0.1:5432/db?sslmode=allow",
            ),
            (
                "postgresql://u:p@localhost/db?application_name=x",
                "postgresql://u:p@localhost/db?application_name=x&sslmode=allow",
            ),
            (
                "postgres://[::1]:5433/db",
                "postgres://[::1]:5433/db?sslmode=allow",
            ),
            (
                "postgres://127.0.0.2,localhost:5433/db",
                "postgres://127.0.0.2,localhost:5433/db?sslmode=allow",
            ),
        ] {
            assert_eq!(plain_on_loopback(url, nothing_in_env), expected, "{url}");
        }
    }

    #[test]
    fn another_host_or_the_operators_choice_is_kept() {
        for url in [
            "postgres://u@db.example.net/db",
            "postgres://u@10.0.0.5:5432/db",
            "postgres://u@127.0.0.1,db.example.net/db",
            "postgres://u@127.0.0.1/db?sslmode=require",
            "postgres://u@localhost/db?sslmode=prefer",
            "postgres://u@localhost/db?service=peering",
            "postgres://u@localhost/db?host=/run/postgresql",
            "postgres:///db",
            "postgres://u@/db",
            // A user name that looks like a loopback host does not make the host one.
            "postgres://localhost@db.example.net/db",
        ] {
            assert_eq!(plain_on_loopback(url, nothing_in_env), url, "{url}");
        }
    }

    #[test]
    fn a_choice_in_libpqs_environment_is_kept() {
        let url = "postgres://u@127.0.0.1/db";
        for name in CHOSEN_IN_ENV {
            assert_eq!(plain_on_loopback(url, |n| n == name), url, "{name}");
        }
    }

    /// 1 when a session of a store on `url` is encrypted.
    fn encrypted(url: &str) -> i64 {
        let store = crate::Store::open(url, 1).unwrap();
        let sql = crate::sql::Sql::new(
            "SELECT CASE WHEN ssl THEN 1 ELSE 0 END FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
        );
        store.read(|db| db.scalar(&sql)).unwrap().unwrap()
    }

    #[test]
    fn a_store_on_loopback_reads_in_plain_unless_told_otherwise() {
        let Some(url) = crate::testing::postgres_url() else {
            return; // a PostgreSQL client setting; SQLite has no connection to encrypt
        };
        let db = crate::testing::TestDatabase::new();
        assert!(hosts_are_loopback(&url), "tests run on loopback: {url}");
        assert_eq!(encrypted(&db.url), 0, "plain on loopback");
        let sql = crate::sql::Sql::new(
            "SELECT CASE WHEN current_setting('ssl') = 'on' THEN 1 ELSE 0 END",
        );
        let store = crate::Store::open(&db.url, 1).unwrap();
        if store.read(|db| db.scalar(&sql)).unwrap() == Some(1) {
            let required = with_parameter(&db.url, "sslmode=require");
            assert_eq!(encrypted(&required), 1, "the operator's choice kept");
        }
    }
}
