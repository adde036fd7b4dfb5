//! Lookup suffixes (`__gte`, `__ic`, ...) and their spelling in query keys.

use std::fmt;
use std::str::FromStr;

/// A comparison applied to a field, spelled as the key suffix after `__`.
///
/// A key without a suffix means [`Lookup::Exact`]; `field__exact` is accepted too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lookup {
    /// Equal to one of the values.
    Exact,
    /// Not equal to any of the values.
    N,
    /// Less than.
    Lt,
    /// Less than or equal.
    Lte,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Gte,
    /// Contains, case-insensitive.
    Ic,
    /// Does not contain, case-insensitive.
    Nic,
    /// Starts with, case-insensitive.
    Isw,
    /// Does not start with, case-insensitive.
    Nisw,
    /// Ends with, case-insensitive.
    Iew,
    /// Does not end with, case-insensitive.
    Niew,
    /// Equal, case-insensitive.
    Ie,
    /// Not equal, case-insensitive.
    Nie,
    /// Is empty (`true`) or is not empty (`false`).
    Empty,
}

/// The error returned when a string is not a lookup suffix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown lookup: {0}")]
pub struct UnknownLookup(pub String);

impl Lookup {
    /// Every lookup, in declaration order.
    pub const ALL: [Lookup; 15] = [
        Lookup::Exact,
        Lookup::N,
        Lookup::Lt,
        Lookup::Lte,
        Lookup::Gt,
        Lookup::Gte,
        Lookup::Ic,
        Lookup::Nic,
        Lookup::Isw,
        Lookup::Nisw,
        Lookup::Iew,
        Lookup::Niew,
        Lookup::Ie,
        Lookup::Nie,
        Lookup::Empty,
    ];

    /// The suffix spelling used in query keys, e.g. `"gte"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Lookup::Exact => "exact",
            Lookup::N => "n",
            Lookup::Lt => "lt",
            Lookup::Lte => "lte",
            Lookup::Gt => "gt",
            Lookup::Gte => "gte",
            Lookup::Ic => "ic",
            Lookup::Nic => "nic",
            Lookup::Isw => "isw",
            Lookup::Nisw => "nisw",
            Lookup::Iew => "iew",
            Lookup::Niew => "niew",
            Lookup::Ie => "ie",
            Lookup::Nie => "nie",
            Lookup::Empty => "empty",
        }
    }

    /// Whether this lookup means NOT(positive lookup).
    pub fn is_negated(&self) -> bool {
        matches!(
            self,
            Lookup::N | Lookup::Nic | Lookup::Nisw | Lookup::Niew | Lookup::Nie
        )
    }

    /// The lookup without its negation (`Nic` -> `Ic`, `N` -> `Exact`); others map to themselves.
    pub fn positive(&self) -> Lookup {
        match self {
            Lookup::N => Lookup::Exact,
            Lookup::Nic => Lookup::Ic,
            Lookup::Nisw => Lookup::Isw,
            Lookup::Niew => Lookup::Iew,
            Lookup::Nie => Lookup::Ie,
            other => *other,
        }
    }
}

impl FromStr for Lookup {
    type Err = UnknownLookup;

    /// Parses the exact, case-sensitive suffix spelling, as Django does.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lookup::ALL
            .iter()
            .copied()
            .find(|lookup| lookup.as_str() == s)
            .ok_or_else(|| UnknownLookup(s.to_owned()))
    }
}

impl fmt::Display for Lookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_round_trips_for_every_lookup() {
        for lookup in Lookup::ALL {
            assert_eq!(lookup.to_string().parse::<Lookup>(), Ok(lookup));
        }
    }

    #[test]
    fn spelling_is_case_sensitive_and_strict() {
        assert!("GTE".parse::<Lookup>().is_err());
        assert!("".parse::<Lookup>().is_err());
        assert!("gte ".parse::<Lookup>().is_err());
    }

    #[test]
    fn negated_lookups_map_to_their_positive() {
        let negated: Vec<Lookup> = Lookup::ALL.into_iter().filter(Lookup::is_negated).collect();
        assert_eq!(
            negated,
            [
                Lookup::N,
                Lookup::Nic,
                Lookup::Nisw,
                Lookup::Niew,
                Lookup::Nie
            ]
        );
        assert_eq!(Lookup::N.positive(), Lookup::Exact);
        assert_eq!(Lookup::Nic.positive(), Lookup::Ic);
        assert_eq!(Lookup::Nisw.positive(), Lookup::Isw);
        assert_eq!(Lookup::Niew.positive(), Lookup::Iew);
        assert_eq!(Lookup::Nie.positive(), Lookup::Ie);
        for lookup in Lookup::ALL {
            assert!(!lookup.positive().is_negated());
        }
        assert_eq!(Lookup::Gte.positive(), Lookup::Gte);
    }
}
