//! The PeeringDB jobs: a synchronisation of the local copy followed by the peering data,
//! and an import of the sessions of an exchange's available peers. Each ends with a report
//! in its output.

use peering_jobs::Outcome;
use peering_peeringdb::follow::Followed;
use peering_peeringdb::import::{import_sessions as import, Imported};
use peering_peeringdb::Source;
use peering_store::{ChangeContext, Store};

/// Synchronises the copy from PeeringDB's API, then links and autonomous systems.
pub fn synchronise(
    store: &Store,
    settings: &peering_peeringdb::Settings,
    limits: peering_peeringdb::Limits,
    ctx: &ChangeContext,
) -> Outcome {
    let source = Source::Api(settings.clone());
    let report = match peering_peeringdb::synchronise_within(store, &source, limits, &|_| {}) {
        Ok(report) => report,
        Err(e) => {
            return Outcome::errored(format!("Synchronisation failed, nothing was changed: {e}"))
        }
    };
    let total = report.total();
    let mut out = format!(
        "Created {} objects\nUpdated {} objects\nDeleted {} objects\n",
        total.created, total.updated, total.deleted
    );
    for (namespace, refused) in &report.refused {
        out.push_str(&format!("Refused {namespace} {refused}\n"));
    }
    match peering_peeringdb::follow::after_synchronisation(store, ctx) {
        Ok(followed) => {
            out.push_str(&followed_lines(&followed));
            out.push_str("Synchronisation finished.");
            Outcome::completed(out)
        }
        Err(e) => Outcome::errored(format!(
            "{out}The copy is synchronised, but updating the peering data from it failed: {e}"
        )),
    }
}

fn followed_lines(followed: &Followed) -> String {
    let mut out = format!(
        "Linked {} connections\nUpdated {} internet exchanges\nUpdating values for {} autonomous systems\n",
        followed.connections_linked, followed.exchanges_updated, followed.autonomous_systems_updated
    );
    for problem in &followed.problems {
        out.push_str(&format!("Left as it was: {problem}\n"));
    }
    out
}

/// Imports the sessions of an exchange's available peers.
pub fn import_sessions(store: &Store, exchange: i64, ctx: &ChangeContext) -> Outcome {
    match import(store, exchange, ctx) {
        Ok(Ok(imported)) => Outcome::completed(import_report(&imported)),
        Ok(Err(refused)) => Outcome::errored(format!("Nothing imported: {refused}.")),
        Err(e) => Outcome::errored(format!("Import failed, nothing was changed: {e}")),
    }
}

/// What an import of sessions says it did.
pub fn import_report(imported: &Imported) -> String {
    let mut out = format!(
        "Imported {} sessions, created {} autonomous systems.\n",
        imported.sessions.len(),
        imported.autonomous_systems.len()
    );
    for problem in &imported.problems {
        out.push_str(&format!("Not imported: {problem}\n"));
    }
    out.push_str("Import completed.");
    out
}
