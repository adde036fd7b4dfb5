//! A schedule's interval as the settings write it: a number and a unit (`2s`, `15m`,
//! `24h`, `1d`), or several from the largest unit down (`1h30m`), read strictly (no
//! spaces, signs, fractions or other units) and bounded to between a second and a year.

use std::fmt;
use std::time::Duration;

/// A whole number of seconds between [`Interval::SHORTEST`] and [`Interval::LONGEST`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Interval {
    secs: u64,
}

/// The units, largest first, with their seconds.
const UNITS: [(char, u64); 4] = [('d', 86_400), ('h', 3_600), ('m', 60), ('s', 1)];

impl Interval {
    /// One second: a schedule wakes about once a second, so shorter would not be kept.
    pub const SHORTEST: Duration = Duration::from_secs(1);
    /// 365 days.
    pub const LONGEST: Duration = Duration::from_secs(365 * 86_400);

    /// The interval `text` writes; `None` for an empty text (the schedule is off).
    pub fn parse(text: &str) -> Result<Option<Interval>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let secs = seconds_of(text).ok_or_else(|| {
            format!(
                "{text:?} is not an interval: write a number and a unit, s, m, h or d \
                 (2s, 15m, 24h, 1d), or several from the largest unit down (1h30m)"
            )
        })?;
        Interval::from_secs(secs)
            .map(Some)
            .ok_or_else(|| format!("{text:?} is out of bounds: an interval is between 1s and 365d"))
    }

    /// `secs` as an interval, if within the bounds.
    pub fn from_secs(secs: u64) -> Option<Interval> {
        (Interval::SHORTEST.as_secs()..=Interval::LONGEST.as_secs())
            .contains(&secs)
            .then_some(Interval { secs })
    }

    pub fn duration(self) -> Duration {
        Duration::from_secs(self.secs)
    }
}

/// The seconds `text` writes, if it is groups of digits and a unit, units in decreasing
/// order, each once.
fn seconds_of(text: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut rest = text;
    let mut units = UNITS.iter();
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        // More digits than any bound needs would only overflow.
        if digits == 0 || digits > 9 {
            return None;
        }
        let number: u64 = rest[..digits].parse().ok()?;
        let unit = rest[digits..].chars().next()?;
        // The unit must come after the previous one: `units` moves past it.
        let (_, per) = units.by_ref().find(|(u, _)| *u == unit)?;
        total = total.checked_add(number.checked_mul(*per)?)?;
        rest = &rest[digits + unit.len_utf8()..];
    }
    Some(total)
}

/// From the largest unit down, without zero groups: `90m` shows as `1h30m`, `24h` as `1d`.
impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut left = self.secs;
        for (unit, per) in UNITS {
            if left >= per {
                write!(f, "{}{unit}", left / per)?;
                left %= per;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn secs(text: &str) -> u64 {
        Interval::parse(text).unwrap().unwrap().duration().as_secs()
    }

    #[test]
    fn reads_the_documented_forms() {
        assert_eq!(secs("2s"), 2);
        assert_eq!(secs("15m"), 900);
        assert_eq!(secs("24h"), 86_400);
        assert_eq!(secs("1d"), 86_400);
        assert_eq!(secs(" 1h30m "), 5_400);
        assert_eq!(secs("1d12h"), 129_600);
        assert_eq!(secs("365d"), 365 * 86_400);
        assert_eq!(secs("90s"), 90);
        assert_eq!(Interval::parse("").unwrap(), None);
        assert_eq!(Interval::parse("   ").unwrap(), None);
    }

    #[test]
    fn refuses_anything_else() {
        for bad in [
            "15",
            "m",
            "15x",
            "15 m",
            "-5m",
            "+5m",
            "1.5h",
            "15M",
            "1m1h",
            "1h1h",
            "1ms",
            "0s",
            "0d",
            "366d",
            "8761h",
            "1w",
            "15m ago",
            "99999999999999999999s",
            "1h 30m",
            "١s",
        ] {
            assert!(Interval::parse(bad).is_err(), "{bad:?} was read");
        }
    }

    #[test]
    fn shows_as_written_from_the_largest_unit() {
        let shown = |t: &str| Interval::parse(t).unwrap().unwrap().to_string();
        assert_eq!(shown("15m"), "15m");
        assert_eq!(shown("24h"), "1d");
        assert_eq!(shown("90m"), "1h30m");
        assert_eq!(shown("3601s"), "1h1s");
    }

    proptest! {
        #[test]
        fn reads_back_what_it_shows(secs in 1u64..=365 * 86_400) {
            let interval = Interval::from_secs(secs).unwrap();
            prop_assert_eq!(Interval::parse(&interval.to_string()).unwrap(), Some(interval));
        }

        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in "\\PC{0,12}") {
            if let Ok(Some(interval)) = Interval::parse(&text) {
                prop_assert!(interval.duration() >= Interval::SHORTEST);
                prop_assert!(interval.duration() <= Interval::LONGEST);
            }
        }
    }
}
