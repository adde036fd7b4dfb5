//! IRR prefix lists: each autonomous system's prefixes and AS list asked of an IRR server
//! through bgpq4, as the reference does (`retrieve_irr_as_set_prefixes`,
//! `retrieve_irr_as_set_as_list`), and stored in its `prefixes` and `as_list` through
//! [`Edits`] (change-logged; cached answers follow). A refresh that fails writes nothing:
//! the stored values stay as they were.

pub mod bgpq;

use peering_domain::input::{Draft, Input};
use peering_domain::resources::AUTONOMOUS_SYSTEM;
use peering_domain::{Record, Value};
use peering_exec::{Local, Transport};
use peering_filter::Filter;
use peering_store::{ChangeContext, Store};
use serde_json::{json, Value as Json};

use crate::edits::Edits;
pub use bgpq::{Family, Overrides, Settings};

/// Why a refresh wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum IrrError {
    #[error("autonomous system {0} not found")]
    NotFound(i64),
    /// The IRR could not be asked, or answered nothing usable.
    #[error("AS{asn}: {reason}; its stored prefixes are kept")]
    Unresolved { asn: i64, reason: String },
    #[error(transparent)]
    Store(#[from] peering_store::Error),
}

/// What a refresh of one autonomous system did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refreshed {
    pub asn: i64,
    /// How many entries each family now holds.
    pub ipv6: usize,
    pub ipv4: usize,
    /// Whether prefix retrieval is off for it (its prefixes are emptied, as the
    /// reference's `get_irr_data` does).
    pub retrieval_off: bool,
    /// Whether the stored prefixes changed (nothing is written otherwise).
    pub changed: bool,
}

impl Refreshed {
    /// One line saying what was done, for reports.
    pub fn line(&self) -> String {
        let changed = if self.changed { "updated" } else { "unchanged" };
        if self.retrieval_off {
            return format!(
                "AS{}: prefix retrieval is off, no prefixes kept ({changed})",
                self.asn
            );
        }
        format!(
            "AS{}: {} IPv6 and {} IPv4 prefixes ({changed})",
            self.asn, self.ipv6, self.ipv4
        )
    }
}

/// Refreshes the prefixes and the AS list of autonomous system `id`.
pub fn refresh(
    edits: &Edits,
    settings: &Settings,
    id: i64,
    ctx: &ChangeContext,
) -> Result<Refreshed, IrrError> {
    let store = edits.store();
    let (system, _) = store
        .get(&AUTONOMOUS_SYSTEM, id)?
        .ok_or(IrrError::NotFound(id))?;
    let asn = system.int(&AUTONOMOUS_SYSTEM, "asn");
    let unresolved = |reason| IrrError::Unresolved { asn, reason };
    let retrieval_off = !retrieves(&system, "retrieve_prefixes");
    let prefixes = if retrieval_off {
        json!({"ipv6": [], "ipv4": []})
    } else {
        resolve(settings, &system).map_err(unresolved)?
    };
    let as_list = resolve_as_list(settings, &system).map_err(unresolved)?;
    let count = |key: &str| prefixes[key].as_array().map_or(0, Vec::len);
    let (ipv6, ipv4) = (count("ipv6"), count("ipv4"));
    let mut draft = Draft::empty(&AUTONOMOUS_SYSTEM);
    let mut changed = false;
    for (field, now) in [("prefixes", prefixes), ("as_list", as_list)] {
        if !matches!(system.get(&AUTONOMOUS_SYSTEM, field), Value::Json(json) if **json == now) {
            draft.set(&AUTONOMOUS_SYSTEM, field, Input::Value(Value::json(now)));
            changed = true;
        }
    }
    if changed {
        edits.update(&AUTONOMOUS_SYSTEM, vec![(id, draft)], ctx)?;
    }
    Ok(Refreshed {
        asn,
        ipv6,
        ipv4,
        retrieval_off,
        changed,
    })
}

/// Whether the system's flag `field` (`retrieve_prefixes`, `retrieve_as_list`) is on.
fn retrieves(system: &Record, field: &str) -> bool {
    !matches!(system.get(&AUTONOMOUS_SYSTEM, field), Value::Bool(false))
}

/// What the IRR is asked about a system: the sources (its override, else the settings'),
/// and the objects its `irr_as_set` names.
struct Query {
    asn: i64,
    overrides: Overrides,
    sources: String,
    objects: bgpq::Objects,
}

fn query(settings: &Settings, system: &Record) -> Result<Query, String> {
    let text = |name| system.text(&AUTONOMOUS_SYSTEM, name).to_string();
    let overrides = Overrides {
        sources: text("irr_sources_override"),
        ipv6_args: text("irr_ipv6_prefixes_args_override"),
        ipv4_args: text("irr_ipv4_prefixes_args_override"),
    };
    let sources = bgpq::sources(settings, &overrides)?.to_string();
    let known: Vec<&str> = settings
        .sources
        .split(',')
        .chain(sources.split(','))
        .map(str::trim)
        .collect();
    let asn = system.int(&AUTONOMOUS_SYSTEM, "asn");
    let objects = bgpq::objects(asn, system.text(&AUTONOMOUS_SYSTEM, "irr_as_set"), &known)?;
    Ok(Query {
        asn,
        overrides,
        sources,
        objects,
    })
}

/// The system's prefixes as the IRR gives them now, `{"ipv6": […], "ipv4": […]}`: bgpq4
/// asked for each object it names and each family, the lists put end to end as the
/// reference does. Any call that fails fails the whole.
pub fn resolve(settings: &Settings, system: &Record) -> Result<Json, String> {
    let query = query(settings, system)?;
    let sources = query.sources.as_str();
    let mut lists = json!({"ipv6": [], "ipv4": []});
    for object in &query.objects.names {
        let mut found = 0;
        for family in Family::BOTH {
            let args = bgpq::family_args(settings, &query.overrides, family)?;
            let args = bgpq::arguments(settings, sources, &args, family, object);
            let output = run_bgpq(
                settings,
                &args,
                &format!("{object} over {}", family.label()),
            )?;
            let entries = bgpq::prefix_list(&output, family).map_err(|e| {
                format!(
                    "`{}` gave no prefix list: {e}",
                    command_line(settings, &args)
                )
            })?;
            found += entries.len();
            if let Some(Json::Array(list)) = lists.get_mut(family.key()) {
                list.extend(entries);
            }
        }
        if query.objects.named && found == 0 {
            return Err(format!(
                "{object} resolves to no prefix at {} (sources {sources}): the IRR has no such \
                 set, or no route objects for its members",
                display_host(settings)
            ));
        }
    }
    Ok(lists)
}

/// The AS numbers the system's AS-SETs hold now (1.10's `as_list`): for each set it names,
/// bgpq4's expansion with the system's own number, the lists put end to end as the
/// reference does; empty when it names none or `retrieve_as_list` is off.
pub fn resolve_as_list(settings: &Settings, system: &Record) -> Result<Json, String> {
    if !retrieves(system, "retrieve_as_list") {
        return Ok(json!([]));
    }
    let query = query(settings, system)?;
    if !query.objects.named {
        return Ok(json!([]));
    }
    let mut numbers = Vec::new();
    for set in &query.objects.names {
        let args = bgpq::as_list_arguments(settings, &query.sources, query.asn, set);
        let output = run_bgpq(settings, &args, &format!("the AS numbers of {set}"))?;
        let list = bgpq::as_list(&output, query.asn)
            .map_err(|e| format!("`{}` gave no AS list: {e}", command_line(settings, &args)))?;
        numbers.extend(list);
    }
    Ok(json!(numbers))
}

fn command_line(settings: &Settings, args: &[String]) -> String {
    format!("{} {}", settings.program, args.join(" "))
}

fn display_host(settings: &Settings) -> &str {
    match settings.host.trim() {
        "" => "bgpq4's default server",
        host => host,
    }
}

/// Runs bgpq4 once, asking for `what`; its output.
fn run_bgpq(settings: &Settings, args: &[String], what: &str) -> Result<Vec<u8>, String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = Local
        .run(&settings.program, &words, b"", settings.timeout)
        .map_err(|e| format!("asking for {what}: {e}"))?;
    if !ran.success() {
        let code = ran
            .code
            .map_or_else(|| "a signal".to_string(), |c| format!("code {c}"));
        return Err(format!(
            "`{}` failed ({code}): {}",
            command_line(settings, args),
            ran.stderr_tail(5).trim()
        ));
    }
    if ran.stdout.len() as u64 >= peering_exec::MAX_OUTPUT {
        return Err(format!(
            "`{}` wrote more than {} MiB",
            command_line(settings, args),
            peering_exec::MAX_OUTPUT >> 20
        ));
    }
    Ok(ran.stdout)
}

/// The autonomous systems a refresh of all of them goes over, by id: every one (the
/// reference's `get_irr_data`; those with retrieval off are emptied), or the one with
/// number `asn`.
pub fn systems(store: &Store, asn: Option<i64>) -> Result<Vec<i64>, peering_store::Error> {
    let ids = store.list_ids(&AUTONOMOUS_SYSTEM, &Filter::default())?;
    let Some(asn) = asn else {
        return Ok(ids);
    };
    let mut chosen = Vec::new();
    for id in ids {
        if let Some((system, _)) = store.get(&AUTONOMOUS_SYSTEM, id)? {
            if system.int(&AUTONOMOUS_SYSTEM, "asn") == asn {
                chosen.push(id);
            }
        }
    }
    Ok(chosen)
}

/// What a refresh of several systems did: a line for each, and how many failed.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub lines: Vec<String>,
    pub refreshed: usize,
    pub failed: usize,
}

impl Report {
    /// Every line, then the totals.
    pub fn text(&self) -> String {
        let mut out = self.lines.join("\n");
        out.push('\n');
        out.push_str(&self.totals());
        out
    }

    pub fn totals(&self) -> String {
        format!(
            "Refreshed {} autonomous systems, {} failed.",
            self.refreshed, self.failed
        )
    }
}

/// Refreshes each of `ids` in turn, giving `each` every report line as it comes: one
/// that fails keeps its prefixes and the others go on. Only the store failing stops it.
pub fn refresh_each(
    edits: &Edits,
    settings: &Settings,
    ids: &[i64],
    ctx: &ChangeContext,
    each: &mut dyn FnMut(&str),
) -> Result<Report, peering_store::Error> {
    let mut report = Report::default();
    for &id in ids {
        let line = match refresh(edits, settings, id, ctx) {
            Ok(done) => {
                report.refreshed += 1;
                done.line()
            }
            // Deleted meanwhile: nothing to refresh.
            Err(IrrError::NotFound(_)) => continue,
            Err(IrrError::Store(e)) => return Err(e),
            Err(unresolved) => {
                report.failed += 1;
                unresolved.to_string()
            }
        };
        each(&line);
        report.lines.push(line);
    }
    Ok(report)
}
