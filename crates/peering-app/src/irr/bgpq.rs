//! What bgpq4 is asked and what it answers, without running it: the AS-SETs an
//! autonomous system's `irr_as_set` names, the arguments of each call (as the reference
//! builds them), and the prefix list read from bgpq4's JSON.

use std::time::Duration;

use serde_json::Value as Json;

/// The reference's default sources (`BGPQ3_SOURCES`).
pub const DEFAULT_SOURCES: &str =
    "RPKI,RIPE,ARIN,APNIC,AFRINIC,LACNIC,RIPE-NONAUTH,RADB,ALTDB,NTTCOM,LEVEL3,TC";
/// The reference's default arguments (`BGPQ3_ARGS`), by family.
pub const DEFAULT_IPV4_ARGS: &str = "-A -r 8 -R 24";
pub const DEFAULT_IPV6_ARGS: &str = "-A -r 16 -R 48";
/// The name bgpq4 gives the list in its JSON (`-l`), as the reference names it.
const LIST_NAME: &str = "prefix_list";

/// How bgpq4 is run and what it asks (`PEERING_BGPQ_*`, `PEERING_IRR_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The program (`PEERING_BGPQ_PATH`).
    pub program: String,
    /// The IRR server, `host` or `host:port` (`PEERING_IRR_HOST`); empty: bgpq4's own.
    pub host: String,
    /// Comma-separated sources (`PEERING_IRR_SOURCES`); empty: the server's.
    pub sources: String,
    pub ipv4_args: Vec<String>,
    pub ipv6_args: Vec<String>,
    /// How long one call of bgpq4 may take.
    pub timeout: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            program: "bgpq4".into(),
            host: "rr.ntt.net".into(),
            sources: DEFAULT_SOURCES.into(),
            ipv4_args: words(DEFAULT_IPV4_ARGS),
            ipv6_args: words(DEFAULT_IPV6_ARGS),
            timeout: Duration::from_secs(120),
        }
    }
}

/// The words of an argument string, split at white space.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// An address family, as bgpq4 takes it (`-4`, `-6`) and the stored prefixes name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    V6,
    V4,
}

impl Family {
    pub const BOTH: [Family; 2] = [Family::V6, Family::V4];

    pub fn key(self) -> &'static str {
        match self {
            Family::V6 => "ipv6",
            Family::V4 => "ipv4",
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Family::V6 => "-6",
            Family::V4 => "-4",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Family::V6 => "IPv6",
            Family::V4 => "IPv4",
        }
    }
}

/// An autonomous system's own choices (the reference's 1.10 fields); blank: the settings'.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    pub sources: String,
    pub ipv6_args: String,
    pub ipv4_args: String,
}

/// What is asked of the IRR for one autonomous system: the sets (or its own number when it
/// names none), and whether they were named (a named set that resolves to nothing is an
/// error; a number without routes is only an empty list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objects {
    pub names: Vec<String>,
    pub named: bool,
}

/// The options an autonomous system's argument override may give bgpq4, with whether each
/// takes a number: they shape the list; the server, the sources, the output format and the
/// list's name stay the settings'.
const OVERRIDE_OPTIONS: &[(&str, bool)] = &[
    ("-A", false),
    ("-w", false),
    ("-T", false),
    ("-r", true),
    ("-R", true),
    ("-m", true),
    ("-L", true),
];

/// The objects `irr_as_set` names, as the reference splits it (at `/`, `,`, `&` and white
/// space), each without a `SOURCE:` or `SOURCE::` prefix naming a known source nor an
/// `ipv4:`/`ipv6:` one; `AS{asn}` when it names none. Names bgpq4 could take for options,
/// or holding what no RPSL name holds, are refused.
pub fn objects(asn: i64, irr_as_set: &str, known_sources: &[&str]) -> Result<Objects, String> {
    let mut names = Vec::new();
    for item in irr_as_set.split(['/', ',', '&', ' ', '\t', '\r', '\n']) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let name = strip_family(strip_source(item, known_sources));
        if name.is_empty() {
            continue;
        }
        check_name(name)?;
        names.push(name.to_string());
    }
    if names.is_empty() {
        return Ok(Objects {
            names: vec![format!("AS{asn}")],
            named: false,
        });
    }
    Ok(Objects { names, named: true })
}

fn strip_source<'a>(item: &'a str, known_sources: &[&str]) -> &'a str {
    let Some((source, rest)) = item.split_once(':') else {
        return item;
    };
    if known_sources.iter().any(|s| s.eq_ignore_ascii_case(source)) {
        rest.trim_start_matches(':').trim()
    } else {
        item
    }
}

fn strip_family(name: &str) -> &str {
    for prefix in ["ipv4:", "ipv6:"] {
        if name.len() > prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix) {
            return name[prefix.len()..].trim();
        }
    }
    name
}

fn check_name(name: &str) -> Result<(), String> {
    let valid = !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'));
    if valid {
        Ok(())
    } else {
        Err(format!(
            "{name:?} is not an AS-SET or AS number bgpq4 can be asked for"
        ))
    }
}

/// The sources asked: the system's override, else the settings'. Refused unless they are
/// names separated by commas (they travel on the IRR connection as one line).
pub fn sources<'a>(settings: &'a Settings, overrides: &'a Overrides) -> Result<&'a str, String> {
    let chosen = overrides.sources.trim();
    let chosen = if chosen.is_empty() {
        settings.sources.trim()
    } else {
        chosen
    };
    let valid = chosen
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b','));
    if valid {
        Ok(chosen)
    } else {
        Err(format!(
            "IRR sources {chosen:?} are not names separated by commas"
        ))
    }
}

/// The family's arguments: the system's override (checked against the options it may
/// give), else the settings'.
pub fn family_args(
    settings: &Settings,
    overrides: &Overrides,
    family: Family,
) -> Result<Vec<String>, String> {
    let (chosen, configured) = match family {
        Family::V6 => (&overrides.ipv6_args, &settings.ipv6_args),
        Family::V4 => (&overrides.ipv4_args, &settings.ipv4_args),
    };
    let chosen = words(chosen);
    if chosen.is_empty() {
        return Ok(configured.clone());
    }
    check_override_args(&chosen, family)?;
    Ok(chosen)
}

fn check_override_args(args: &[String], family: Family) -> Result<(), String> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let refused = || {
            format!(
                "the {} arguments override may give bgpq4 only -A, -w, -T, and -r, -R, -m, \
                 -L with a number: {word:?} is not one of them",
                family.label()
            )
        };
        let takes_number = OVERRIDE_OPTIONS
            .iter()
            .find(|(option, _)| option == word)
            .map(|(_, number)| *number)
            .ok_or_else(refused)?;
        if takes_number {
            let number = words.next().ok_or_else(refused)?;
            if number.parse::<u8>().is_err() {
                return Err(format!(
                    "the {} arguments override gives {word} {number:?}, not a number",
                    family.label()
                ));
            }
        }
    }
    Ok(())
}

/// bgpq4's arguments for one object and family, as the reference orders them: the host,
/// the sources, the family, its arguments, JSON output and the list's name, the object.
pub fn arguments(
    settings: &Settings,
    sources: &str,
    family_args: &[String],
    family: Family,
    object: &str,
) -> Vec<String> {
    let mut args = Vec::new();
    if !settings.host.trim().is_empty() {
        args.extend(["-h".to_string(), settings.host.trim().to_string()]);
    }
    if !sources.is_empty() {
        args.extend(["-S".to_string(), sources.to_string()]);
    }
    args.push(family.flag().into());
    args.extend(family_args.iter().cloned());
    args.extend(["-j", "-l", LIST_NAME, object].map(str::to_string));
    args
}

/// The name bgpq4 gives the AS list in its JSON (`-l`), as the reference names it.
const AS_LIST_NAME: &str = "as_list";

/// The AS number bgpq4 writes for a 4-byte number on 2-byte sessions (AS_TRANS), which
/// the reference leaves out of AS lists.
const AS_TRANS: u64 = 23_456;

/// bgpq4's arguments to expand one AS-SET into the AS numbers it holds, as the reference
/// builds them: an AS-path filter (`-f`) of the system's own number, which the JSON output
/// does not use.
pub fn as_list_arguments(settings: &Settings, sources: &str, asn: i64, set: &str) -> Vec<String> {
    let mut args = Vec::new();
    if !settings.host.trim().is_empty() {
        args.extend(["-h".to_string(), settings.host.trim().to_string()]);
    }
    if !sources.is_empty() {
        args.extend(["-S".to_string(), sources.to_string()]);
    }
    args.extend(["-j", "-l", AS_LIST_NAME, "-f"].map(str::to_string));
    args.extend([asn.to_string(), set.to_string()]);
    args
}

/// The AS numbers of bgpq4's JSON output (`{"as_list": [64500, …]}`) with `asn` added and
/// AS_TRANS left out, sorted and without repeats, as the reference keeps them.
pub fn as_list(output: &[u8], asn: i64) -> Result<Vec<u64>, String> {
    let document: Json =
        serde_json::from_slice(output).map_err(|e| format!("its output is not JSON ({e})"))?;
    let Some(Json::Array(entries)) = document.get(AS_LIST_NAME) else {
        return Err(format!("its output holds no {AS_LIST_NAME:?} list"));
    };
    let mut numbers = std::collections::BTreeSet::new();
    numbers.extend(u64::try_from(asn).ok());
    for entry in entries {
        match entry.as_u64() {
            Some(n) if (1..=u64::from(u32::MAX)).contains(&n) => numbers.insert(n),
            _ => return Err(format!("its output holds {entry}, not an AS number")),
        };
    }
    numbers.remove(&AS_TRANS);
    Ok(numbers.into_iter().collect())
}

/// The prefix list of bgpq4's JSON output (`{"prefix_list": [{"prefix": …, "exact": …,
/// …}]}`), each entry kept as bgpq4 wrote it (the reference stores them so), once checked
/// to name a prefix of the family asked.
pub fn prefix_list(output: &[u8], family: Family) -> Result<Vec<Json>, String> {
    let document: Json =
        serde_json::from_slice(output).map_err(|e| format!("its output is not JSON ({e})"))?;
    let Some(Json::Array(entries)) = document.get(LIST_NAME) else {
        return Err(format!("its output holds no {LIST_NAME:?} list"));
    };
    for entry in entries {
        let prefix = entry.get("prefix").and_then(Json::as_str);
        if !prefix.is_some_and(|p| is_prefix_of(p, family))
            || entry.get("exact").and_then(Json::as_bool).is_none()
        {
            return Err(format!(
                "its output holds {entry}, not an {} prefix entry",
                family.label()
            ));
        }
    }
    Ok(entries.clone())
}

/// Whether `text` is a prefix (`address/length`) of `family`.
fn is_prefix_of(text: &str, family: Family) -> bool {
    let Some((address, length)) = text.split_once('/') else {
        return false;
    };
    let (Ok(address), Ok(length)) = (address.parse::<std::net::IpAddr>(), length.parse::<u8>())
    else {
        return false;
    };
    match (address, family) {
        (std::net::IpAddr::V4(_), Family::V4) => length <= 32,
        (std::net::IpAddr::V6(_), Family::V6) => length <= 128,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["RIPE", "RADB"];

    fn names(asn: i64, text: &str) -> Objects {
        objects(asn, text, KNOWN).unwrap()
    }

    #[test]
    fn a_system_without_a_set_is_asked_for_by_its_number() {
        let asked = names(64500, "  ");
        assert_eq!(asked.names, ["AS64500"]);
        assert!(!asked.named);
    }

    #[test]
    fn several_sets_split_as_the_reference_splits_them() {
        let asked = names(64500, "AS-ONE, AS-TWO/AS-THREE & AS64501:AS-FOUR");
        assert_eq!(
            asked.names,
            ["AS-ONE", "AS-TWO", "AS-THREE", "AS64501:AS-FOUR"]
        );
        assert!(asked.named);
    }

    #[test]
    fn known_sources_and_families_are_stripped_other_prefixes_kept() {
        let asked = names(1, "RIPE::AS-ONE radb:AS-TWO ipv6:AS-THREE OTHER::AS-FOUR");
        assert_eq!(
            asked.names,
            ["AS-ONE", "AS-TWO", "AS-THREE", "OTHER::AS-FOUR"]
        );
    }

    #[test]
    fn names_bgpq4_could_take_for_options_are_refused() {
        assert!(objects(1, "-h evil", KNOWN).is_err());
        assert!(objects(1, "AS-ONE;rm", KNOWN).is_err());
    }

    #[test]
    fn arguments_follow_the_reference_order() {
        let settings = Settings::default();
        let overrides = Overrides::default();
        let sources = sources(&settings, &overrides).unwrap();
        let args = family_args(&settings, &overrides, Family::V6).unwrap();
        assert_eq!(
            arguments(&settings, sources, &args, Family::V6, "AS-ONE").join(" "),
            format!(
                "-h rr.ntt.net -S {DEFAULT_SOURCES} -6 -A -r 16 -R 48 -j -l prefix_list AS-ONE"
            )
        );
        let bare = Settings {
            host: String::new(),
            sources: String::new(),
            ..Settings::default()
        };
        let args = family_args(&bare, &overrides, Family::V4).unwrap();
        assert_eq!(
            arguments(&bare, "", &args, Family::V4, "AS1").join(" "),
            "-4 -A -r 8 -R 24 -j -l prefix_list AS1"
        );
    }

    #[test]
    fn overrides_replace_sources_and_arguments() {
        let settings = Settings::default();
        let overrides = Overrides {
            sources: "RADB".into(),
            ipv6_args: "-A -R 64".into(),
            ipv4_args: String::new(),
        };
        assert_eq!(sources(&settings, &overrides).unwrap(), "RADB");
        assert_eq!(
            family_args(&settings, &overrides, Family::V6).unwrap(),
            ["-A", "-R", "64"]
        );
        assert_eq!(
            family_args(&settings, &overrides, Family::V4).unwrap(),
            words(DEFAULT_IPV4_ARGS)
        );
    }

    #[test]
    fn overrides_may_not_move_the_server_nor_break_the_line() {
        let settings = Settings::default();
        let host = Overrides {
            ipv4_args: "-h 192.0.2.1".into(),
            ..Overrides::default()
        };
        assert!(family_args(&settings, &host, Family::V4).is_err());
        let no_number = Overrides {
            ipv4_args: "-R".into(),
            ..Overrides::default()
        };
        assert!(family_args(&settings, &no_number, Family::V4).is_err());
        let line = Overrides {
            sources: "RIPE\n!iAS-X".into(),
            ..Overrides::default()
        };
        assert!(sources(&settings, &line).is_err());
    }

    #[test]
    fn prefix_lists_are_read_and_kept_as_bgpq4_wrote_them() {
        let output = br#"{ "prefix_list": [
            { "prefix": "192.0.2.0/24", "exact": true },
            { "prefix": "198.51.100.0/22", "exact": false, "greater-equal": 23, "less-equal": 24 }
        ] }"#;
        let list = prefix_list(output, Family::V4).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1]["less-equal"], 24);
        let empty = prefix_list(b"{ \"prefix_list\": [\n] }", Family::V6).unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn as_lists_are_asked_and_read_as_the_reference_does() {
        let settings = Settings::default();
        assert_eq!(
            as_list_arguments(&settings, "RIPE", 64500, "AS-FOO").join(" "),
            "-h rr.ntt.net -S RIPE -j -l as_list -f 64500 AS-FOO"
        );
        let out = br#"{"as_list": [64511, 23456, 64501, 64511]}"#;
        assert_eq!(as_list(out, 64500), Ok(vec![64500, 64501, 64511]));
        assert!(as_list(br#"{"as_list": ["AS1"]}"#, 64500).is_err());
        assert!(as_list(br#"{"prefix_list": []}"#, 64500).is_err());
    }

    #[test]
    fn output_that_is_no_prefix_list_is_refused() {
        assert!(prefix_list(b"no", Family::V4).is_err());
        assert!(prefix_list(br#"{"other": []}"#, Family::V4).is_err());
        let wrong_family = br#"{"prefix_list": [{"prefix": "2001:db8::/32", "exact": true}]}"#;
        assert!(prefix_list(wrong_family, Family::V4).is_err());
        let no_exact = br#"{"prefix_list": [{"prefix": "192.0.2.0/24"}]}"#;
        assert!(prefix_list(no_exact, Family::V4).is_err());
    }
}
