//! `peeringd irr refresh [--asn N]`: asks the IRR for autonomous systems' prefixes through
//! bgpq4 now (as the jobs do) and prints what each got; fails when one could not be
//! refreshed (its stored prefixes are kept).

use clap::Subcommand;
use peering_app::edits::Edits;
use peering_app::irr;
use peering_store::{ChangeContext, Store};

use crate::config::Settings;

#[derive(Debug, Subcommand)]
pub enum IrrCommand {
    /// Refresh the stored prefixes of every autonomous system (those with prefix
    /// retrieval off are emptied), or of the one numbered `--asn`.
    Refresh {
        /// Only the autonomous system with this number.
        #[arg(long)]
        asn: Option<i64>,
    },
}

pub fn run(settings: &Settings, command: IrrCommand) -> Result<(), String> {
    let IrrCommand::Refresh { asn } = command;
    let store = Store::open(&settings.database_url, 2).map_err(|e| e.to_string())?;
    let ids = irr::systems(&store, asn).map_err(|e| e.to_string())?;
    if let (Some(asn), true) = (asn, ids.is_empty()) {
        return Err(format!("no autonomous system has number {asn}"));
    }
    let edits = Edits::new(store, settings.write_rules());
    let ctx = ChangeContext {
        request_id: uuid::Uuid::new_v4().to_string(),
        user_id: None,
        user_name: "irr-refresh".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    // A line per system as it is done: a refresh of thousands takes a while.
    let mut print = |line: &str| println!("{line}");
    let report = irr::refresh_each(&edits, &settings.irr, &ids, &ctx, &mut print)
        .map_err(|e| e.to_string())?;
    println!("{}", report.totals());
    if report.failed > 0 {
        return Err(format!(
            "{} of {} autonomous systems could not be refreshed",
            report.failed,
            report.failed + report.refreshed
        ));
    }
    Ok(())
}
