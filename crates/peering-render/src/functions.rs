//! The reference's global functions (its 1.10 `FUNCTION_DICT`): `now()`; and Jinja2's
//! `cycler` and `joiner`, which the engine lacks.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use chrono::format::{Item, StrftimeItems};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use minijinja::value::{Object, Rest, Value, ValueOrKwargs};
use minijinja::{Environment, Error, ErrorKind, State};

use crate::filters::{invalid, Params};

/// The names of the functions [`register`] adds, for documentation and tests.
pub const NAMES: &[&str] = &["now"];

/// The format `now()` writes by default: RFC 3339 as the reference writes it, with a `Z`
/// that is literal text whatever the zone.
pub const DEFAULT_NOW_FORMAT: &str = "%Y-%m-%dT%H:%M:%SZ";

/// Adds every function to an environment.
pub fn register(env: &mut Environment<'_>) {
    env.add_function("now", |rest: Rest<ValueOrKwargs>| {
        let args: Vec<Value> = rest.0.into_iter().map(Value::from).collect();
        let params = Params::new(&args)?;
        let format = params.text(0, "format")?;
        let zone = params.text(1, "timezone")?;
        params.done(2)?;
        now_at(Utc::now(), format.as_deref(), zone.as_deref()).map(Value::from)
    });
    env.add_function("cycler", |items: Rest<Value>| {
        if items.is_empty() {
            return Err(invalid("at least one item has to be provided"));
        }
        Ok(Value::from_object(Cycler {
            items: items.0,
            position: AtomicUsize::new(0),
        }))
    });
    env.add_function("joiner", |separator: Option<String>| {
        Value::from_object(Joiner {
            separator: separator.unwrap_or_else(|| ", ".into()),
            used: AtomicBool::new(false),
        })
    });
}

/// Jinja2's `cycler(a, b, …)`: `next()` gives each item in turn, round and round;
/// `current` the one `next()` gives next; `reset()` starts over.
#[derive(Debug)]
struct Cycler {
    items: Vec<Value>,
    position: AtomicUsize,
}

impl Object for Cycler {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let position = self.position.load(Ordering::Relaxed);
        (key.as_str()? == "current").then(|| self.items[position].clone())
    }

    fn call_method(
        self: &Arc<Self>,
        _state: &mut State<'_, '_>,
        method: &str,
        _args: &[Value],
    ) -> Result<Value, Error> {
        match method {
            "next" => {
                let count = self.items.len();
                let taken = self
                    .position
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |p| {
                        Some((p + 1) % count)
                    })
                    .unwrap_or(0);
                Ok(self.items[taken].clone())
            }
            "reset" => {
                self.position.store(0, Ordering::Relaxed);
                Ok(Value::from(()))
            }
            _ => Err(Error::from(ErrorKind::UnknownMethod)),
        }
    }
}

/// Jinja2's `joiner(sep=", ")`: called, gives nothing the first time and the separator
/// every time after.
#[derive(Debug)]
struct Joiner {
    separator: String,
    used: AtomicBool,
}

impl Object for Joiner {
    fn call(self: &Arc<Self>, _state: &mut State<'_, '_>, _args: &[Value]) -> Result<Value, Error> {
        Ok(Value::from(match self.used.swap(true, Ordering::Relaxed) {
            true => self.separator.as_str(),
            false => "",
        }))
    }
}

/// `now(format, timezone)` at `instant`: the time in the zone named (IANA, `Europe/Paris`;
/// UTC when none, the reference's default `TIME_ZONE`) written with a Python `strftime`
/// format. Text, as the reference returns: a template formats it through `format`.
pub fn now_at(
    instant: DateTime<Utc>,
    format: Option<&str>,
    zone: Option<&str>,
) -> Result<String, Error> {
    let zone = match zone.filter(|z| !z.is_empty()) {
        None => Tz::UTC,
        Some(name) => name
            .parse::<Tz>()
            .map_err(|_| invalid(format!("No time zone found with key {name}")))?,
    };
    let format = python_format(format.unwrap_or(DEFAULT_NOW_FORMAT));
    let items: Vec<Item<'_>> = StrftimeItems::new(&format).collect();
    if items.iter().any(|item| matches!(item, Item::Error)) {
        return Err(invalid(format!("invalid time format {format:?}")));
    }
    let local = instant.with_timezone(&zone);
    Ok(local.format_with_items(items.into_iter()).to_string())
}

/// The directives Python's `strftime` (on the C library) and chrono write the same way.
const SHARED_DIRECTIVES: &str = "aAbBcCdDeFgGhHIjklmMnprRsStTuUVwWxXyYzZ";

/// A Python `strftime` format as chrono reads it: the directives both know pass, with
/// their `-`, `_` or `0` padding flag; `%f` is microseconds (chrono's is nanoseconds);
/// anything else, a `%` of an unknown directive included, is literal text as the C
/// library leaves it.
fn python_format(format: &str) -> String {
    let mut out = String::with_capacity(format.len() + 8);
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let flag = chars.next_if(|f| matches!(f, '-' | '_' | '0'));
        match chars.peek().copied() {
            Some('%') if flag.is_none() => {
                chars.next();
                out.push_str("%%");
            }
            Some('f') if flag.is_none() => {
                chars.next();
                out.push_str("%6f");
            }
            Some(d) if SHARED_DIRECTIVES.contains(d) => {
                chars.next();
                out.push('%');
                out.extend(flag);
                out.push(d);
            }
            _ => {
                out.push_str("%%");
                out.extend(flag);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn instant() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5)
            .single()
            .expect("a valid instant")
            + chrono::Duration::microseconds(123_456)
    }

    #[test]
    fn the_default_is_rfc3339_in_utc() {
        assert_eq!(
            now_at(instant(), None, None).expect("formats"),
            "2026-01-02T03:04:05Z"
        );
        assert_eq!(
            now_at(instant(), None, Some("")).expect("formats"),
            "2026-01-02T03:04:05Z"
        );
    }

    #[test]
    fn a_zone_moves_the_time_and_keeps_the_literal_z() {
        assert_eq!(
            now_at(instant(), None, Some("Asia/Tokyo")).expect("formats"),
            "2026-01-02T12:04:05Z"
        );
        assert_eq!(
            now_at(instant(), Some("%H:%M %Z %z"), Some("Europe/Paris")).expect("formats"),
            "04:04 CET +0100"
        );
    }

    #[test]
    fn python_directives_are_written_as_python_writes_them() {
        let cases = [
            ("%Y-%m-%d", "2026-01-02"),
            ("%f", "123456"),
            ("%j %a %b %p %I %y", "002 Fri Jan AM 03 26"),
            ("%-d/%-m", "2/1"),
            ("100%%", "100%"),
            ("%Q %", "%Q %"),
            ("%:z", "%:z"),
        ];
        for (format, expected) in cases {
            assert_eq!(
                now_at(instant(), Some(format), None).expect("formats"),
                expected,
                "{format}"
            );
        }
    }

    #[test]
    fn an_unknown_zone_is_an_error_naming_it() {
        let e = now_at(instant(), None, Some("Mars/Olympus")).expect_err("unknown");
        assert!(e.to_string().contains("Mars/Olympus"), "{e}");
    }
}
