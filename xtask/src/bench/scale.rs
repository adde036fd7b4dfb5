//! The data sizes `--scale` names, and the exchanges that follow from them.

use clap::ValueEnum;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scale {
    /// 300 autonomous systems, 1,000 sessions.
    Small,
    /// 5,000 autonomous systems, 15,000 sessions.
    Medium,
    /// 30,000 autonomous systems, 100,000 sessions.
    Large,
    /// 30,000 autonomous systems, 1,000,000 sessions.
    #[value(name = "1m")]
    OneMillion,
}

/// Sessions per exchange the data aim at (a big real exchange LAN has a few thousand).
const SESSIONS_PER_EXCHANGE: u64 = 2_500;
const MIN_EXCHANGES: u64 = 4;

impl Scale {
    pub fn name(self) -> &'static str {
        match self {
            Scale::Small => "small",
            Scale::Medium => "medium",
            Scale::Large => "large",
            Scale::OneMillion => "1m",
        }
    }

    /// Peer autonomous systems, not counting the local one.
    pub fn autonomous_systems(self) -> u64 {
        match self {
            Scale::Small => 300,
            Scale::Medium => 5_000,
            Scale::Large | Scale::OneMillion => 30_000,
        }
    }

    pub fn sessions(self) -> u64 {
        match self {
            Scale::Small => 1_000,
            Scale::Medium => 15_000,
            Scale::Large => 100_000,
            Scale::OneMillion => 1_000_000,
        }
    }

    /// One exchange (with one connection) per 2,500 sessions, at least four.
    pub fn exchanges(self) -> u64 {
        self.sessions()
            .div_ceil(SESSIONS_PER_EXCHANGE)
            .max(MIN_EXCHANGES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_table() {
        let table: Vec<_> = Scale::value_variants()
            .iter()
            .map(|s| {
                (
                    s.name(),
                    s.autonomous_systems(),
                    s.sessions(),
                    s.exchanges(),
                )
            })
            .collect();
        assert_eq!(
            table,
            [
                ("small", 300, 1_000, 4),
                ("medium", 5_000, 15_000, 6),
                ("large", 30_000, 100_000, 40),
                ("1m", 30_000, 1_000_000, 400),
            ]
        );
    }

    #[test]
    fn names_parse_back() {
        for scale in Scale::value_variants() {
            assert_eq!(Scale::from_str(scale.name(), false), Ok(*scale));
        }
    }
}
