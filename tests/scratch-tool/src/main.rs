//! A tool outside the workspace, written as another project would use peeringd's crates:
//! typed bodies validated by the server's own rules (and the server's answer to an invalid
//! one), a list with a typed filter, a bulk creation and its deletion through the client.
//! Exits non-zero on any failure.
//!
//! Usage: `scratch-tool BASE_URL TOKEN`

use std::error::Error;
use std::process::ExitCode;

use peering_client::{Client, Query};
use peering_domain::models::{
    AutonomousSystem, BgpSessionStatus, InternetExchangePeeringSession, Writable,
    WritableAutonomousSystem,
};

const AT_LEAST_ONE: &str = "Ensure this value is greater than or equal to 1.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, token] = args.as_slice() else {
        eprintln!("usage: scratch-tool BASE_URL TOKEN");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("scratch-tool: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(base, token)) {
        Ok(()) => {
            println!("scratch-tool: every check passed");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("scratch-tool: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(base: &str, token: &str) -> Result<(), Box<dyn Error>> {
    let client = Client::new(base)?.with_token(token);
    validation(&client).await?;
    bulk(&client).await
}

/// A valid body passes the server's rules here; an invalid one fails them here and there,
/// with the same words.
async fn validation(client: &Client) -> Result<(), Box<dyn Error>> {
    let valid = WritableAutonomousSystem::new(64_496, "Scratch Net".into());
    if let Err(errors) = valid.validate() {
        return Err(format!("a valid body was refused: {}", errors.into_json()).into());
    }
    println!("AS{} ({}) is valid", valid.asn, valid.name);
    let invalid = WritableAutonomousSystem::new(0, "Zero".into());
    let local = match invalid.validate() {
        Ok(()) => return Err("asn 0 passed validation".into()),
        Err(errors) => errors.into_json()["asn"][0].clone(),
    };
    if local != serde_json::json!(AT_LEAST_ONE) {
        return Err(format!("asn 0: validation said {local}").into());
    }
    match client.create::<AutonomousSystem>(&invalid).await {
        Err(peering_client::Error::BadRequest(errors))
            if errors.messages("asn") == [AT_LEAST_ONE] =>
        {
            println!("asn 0: the server says \"{}\"", errors.messages("asn")[0]);
            Ok(())
        }
        other => Err(format!("asn 0: expected a 400 on asn, got {other:?}").into()),
    }
}

/// The enabled sessions with the AS `asn`, by typed filters (the server refuses a filter
/// naming no AS: `asn` must exist; a fresh server holds no session).
async fn sessions(client: &Client, asn: i64) -> Result<(), Box<dyn Error>> {
    let query = Query::<InternetExchangePeeringSession>::new()
        .filter(|f| f.status.eq(BgpSessionStatus::Enabled))
        .filter(|f| f.autonomous_system_asn.eq(asn));
    let page = client.list(&query).await?;
    if page.count != page.results.len() as u64 {
        return Err(format!(
            "{} sessions counted, {} listed",
            page.count,
            page.results.len()
        )
        .into());
    }
    println!("{} enabled sessions with AS{asn}", page.count);
    Ok(())
}

/// Three autonomous systems created in one request, found by a typed filter, their
/// sessions listed, deleted in one request.
async fn bulk(client: &Client) -> Result<(), Box<dyn Error>> {
    let bodies: Vec<WritableAutonomousSystem> = (1..=3)
        .map(|i| WritableAutonomousSystem::new(64_496 + i, format!("Scratch {i}")))
        .collect();
    let created = client.create_many::<AutonomousSystem>(&bodies).await?;
    let asns: Vec<i64> = created.iter().map(|a| a.asn).collect();
    if asns != [64_497, 64_498, 64_499] {
        return Err(format!("created {asns:?}").into());
    }
    let scratch = Query::<AutonomousSystem>::new().filter(|f| f.name.isw("Scratch "));
    let found = client.list(&scratch).await?.count;
    if found != 3 {
        return Err(format!("{found} scratch systems listed, 3 expected").into());
    }
    sessions(client, created[0].asn).await?;
    let ids: Vec<i64> = created.iter().map(|a| a.id).collect();
    client.delete_many::<AutonomousSystem>(&ids).await?;
    let left = client.list(&scratch).await?.count;
    if left != 0 {
        return Err(format!("{left} scratch systems left after the delete").into());
    }
    println!("created AS64497-AS64499 in bulk, then deleted them");
    Ok(())
}
