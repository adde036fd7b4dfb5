//! The objects a fake IRR holds (AS-SETs and route/route6 objects, each in a source), and
//! the answers IRRd's `!` commands give over them.

use std::collections::{BTreeSet, HashMap};

/// AS-SETs and route objects, by source.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Set name (upper case) → (source, members as written).
    sets: HashMap<String, Vec<(String, Vec<String>)>>,
    /// (source, prefix, origin AS number).
    routes: Vec<(String, String, u32)>,
    sources: Vec<String>,
}

/// What a command answers: data, success without data, key not found, or an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Data(String),
    Done,
    NotFound,
    Error(String),
    /// `!!`: nothing is written.
    Nothing,
}

impl Answer {
    /// As IRRd writes it: `A<length>\n<data>\nC\n`, `C\n`, `D\n`, `F <message>\n`.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Answer::Data(data) => format!("A{}\n{data}\nC\n", data.len() + 1).into_bytes(),
            Answer::Done => b"C\n".to_vec(),
            Answer::NotFound => b"D\n".to_vec(),
            Answer::Error(message) => format!("F {message}\n").into_bytes(),
            Answer::Nothing => Vec::new(),
        }
    }
}

fn found(items: Vec<String>) -> Answer {
    if items.is_empty() {
        Answer::NotFound
    } else {
        Answer::Data(items.join(" "))
    }
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    fn add_source(&mut self, source: &str) {
        if !self.sources.iter().any(|s| s == source) {
            self.sources.push(source.to_string());
        }
    }

    /// An AS-SET of `source` with its members (AS numbers `AS64500` or other sets).
    pub fn as_set(mut self, source: &str, name: &str, members: &[&str]) -> Registry {
        self.add_source(source);
        self.sets.entry(name.to_uppercase()).or_default().push((
            source.to_string(),
            members.iter().map(|m| m.to_string()).collect(),
        ));
        self
    }

    /// A route (IPv4) or route6 object of `source` for `prefix`, originated by `origin`.
    pub fn route(mut self, source: &str, prefix: &str, origin: u32) -> Registry {
        self.add_source(source);
        self.routes
            .push((source.to_string(), prefix.to_string(), origin));
        self
    }

    /// The sources known, in the order they were first given.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    fn members(&self, set: &str, sources: &[String]) -> Option<Vec<String>> {
        let entries = self.sets.get(&set.to_uppercase())?;
        let mut members = None;
        for (source, list) in entries {
            if sources.iter().any(|s| s.eq_ignore_ascii_case(source)) {
                members
                    .get_or_insert_with(Vec::new)
                    .extend(list.iter().cloned());
            }
        }
        members
    }

    /// The AS numbers a set holds, its member sets followed (each once); `None` when the
    /// set is not in the sources.
    pub fn expand(&self, set: &str, sources: &[String]) -> Option<BTreeSet<u32>> {
        let mut asns = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut pending = vec![set.to_uppercase()];
        // A set the sources do not hold is not found, unlike one that holds nothing.
        self.members(set, sources)?;
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            for member in self.members(&name, sources).unwrap_or_default() {
                match asn_of(&member) {
                    Some(asn) => {
                        asns.insert(asn);
                    }
                    None => pending.push(member.to_uppercase()),
                }
            }
        }
        Some(asns)
    }

    /// The prefixes of `family` (4 or 6) originated by `asn`, in the sources.
    pub fn prefixes(&self, asn: u32, family: u8, sources: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        for (source, prefix, origin) in &self.routes {
            let is_v6 = prefix.contains(':');
            if *origin == asn
                && (family == 6) == is_v6
                && sources.iter().any(|s| s.eq_ignore_ascii_case(source))
                && !out.contains(prefix)
            {
                out.push(prefix.clone());
            }
        }
        out
    }

    /// The answer to `!i`: a set's members (`,1`: its AS numbers, sets followed).
    pub fn set_members(&self, parameter: &str, sources: &[String]) -> Answer {
        match parameter.strip_suffix(",1") {
            Some(set) => match self.expand(set, sources) {
                Some(asns) => found(asns.iter().map(|a| format!("AS{a}")).collect()),
                None => Answer::NotFound,
            },
            None => found(self.members(parameter, sources).unwrap_or_default()),
        }
    }

    /// The answer to `!a4SET` / `!a6SET`: the prefixes of every AS number the set holds.
    pub fn set_prefixes(&self, parameter: &str, sources: &[String]) -> Answer {
        let (family, set) = match parameter.as_bytes().first() {
            Some(b'4') => (4, &parameter[1..]),
            Some(b'6') => (6, &parameter[1..]),
            _ => return Answer::Error("Missing required set name for A query".into()),
        };
        if set.is_empty() {
            return Answer::Error("Missing required set name for A query".into());
        }
        let Some(asns) = self.expand(set, sources) else {
            return Answer::NotFound;
        };
        let mut prefixes = Vec::new();
        for asn in asns {
            prefixes.extend(self.prefixes(asn, family, sources));
        }
        found(prefixes)
    }

    /// The answer to `!g` / `!6`: the prefixes an AS number originates.
    pub fn origin_prefixes(&self, origin: &str, family: u8, sources: &[String]) -> Answer {
        match asn_of(origin) {
            Some(asn) => found(self.prefixes(asn, family, sources)),
            None => Answer::Error(format!("Invalid AS number {origin}")),
        }
    }
}

/// `AS64500` (any case) as a number.
pub fn asn_of(text: &str) -> Option<u32> {
    let digits = text
        .get(..2)?
        .eq_ignore_ascii_case("as")
        .then(|| &text[2..])?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        Registry::new()
            .as_set("RIPE", "AS-OUTER", &["AS64500", "AS-INNER"])
            .as_set("RIPE", "AS-INNER", &["AS64501", "AS-OUTER"])
            .route("RIPE", "192.0.2.0/24", 64500)
            .route("RADB", "198.51.100.0/24", 64501)
            .route("RIPE", "2001:db8::/32", 64501)
    }

    #[test]
    fn sets_expand_through_their_members_and_cycles_end() {
        let all = vec!["RIPE".to_string(), "RADB".to_string()];
        let answer = registry().set_members("AS-OUTER,1", &all);
        assert_eq!(answer, Answer::Data("AS64500 AS64501".into()));
        assert_eq!(registry().set_members("AS-NONE,1", &all), Answer::NotFound);
    }

    #[test]
    fn prefixes_follow_the_sources_asked() {
        let ripe = vec!["RIPE".to_string()];
        assert_eq!(
            registry().set_prefixes("4AS-OUTER", &ripe),
            Answer::Data("192.0.2.0/24".into())
        );
        assert_eq!(
            registry().origin_prefixes("as64501", 6, &ripe),
            Answer::Data("2001:db8::/32".into())
        );
        assert_eq!(Answer::Data("AS1".into()).bytes(), b"A4\nAS1\nC\n".to_vec());
    }
}
