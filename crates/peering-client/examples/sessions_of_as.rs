//! The sessions of an autonomous system at every exchange: the exchange, the peer's address
//! and the session's status, one line each.
//!
//! ```sh
//! cargo run -p peering-client --example sessions_of_as -- http://127.0.0.1:8000 <token> 65001
//! ```

use std::collections::hash_map::{Entry, HashMap};
use std::error::Error;
use std::io::Write;

use futures_util::StreamExt;
use peering_client::{Client, Query};
use peering_domain::models::{AutonomousSystem, Connection, InternetExchangePeeringSession};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, token, asn] = args.as_slice() else {
        return Err("usage: sessions_of_as BASE_URL TOKEN ASN".into());
    };
    let asn: i64 = asn.parse().map_err(|e| format!("ASN {asn}: {e}"))?;
    let client = Client::new(base)?.with_token(token.as_str());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let mut out = std::io::stdout().lock();
    runtime.block_on(sessions_of_as(&client, asn, &mut out))?;
    Ok(())
}

/// Writes a line per session of the AS `asn` (`exchange  address  status`); how many.
pub async fn sessions_of_as(
    client: &Client,
    asn: i64,
    out: &mut impl Write,
) -> Result<usize, Box<dyn Error>> {
    let systems = Query::<AutonomousSystem>::new().filter(|f| f.asn.eq(asn));
    let page = client.list(&systems).await?;
    let system = page
        .results
        .into_iter()
        .next()
        .ok_or_else(|| format!("no autonomous system has the number {asn}"))?;
    let sessions = Query::<InternetExchangePeeringSession>::new()
        .filter(|f| f.autonomous_system_id.eq(system.id))
        .ordering("ip_address");
    let mut stream = client.stream(sessions);
    // The exchange of each connection, asked once.
    let mut exchanges: HashMap<i64, String> = HashMap::new();
    let mut count = 0;
    while let Some(session) = stream.next().await {
        let session = session?;
        let exchange = match exchanges.entry(session.ixp_connection.id) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => {
                let connection = client.get::<Connection>(*new.key()).await?;
                let exchange = connection.internet_exchange_point;
                new.insert(exchange.map_or_else(|| "-".to_string(), |ixp| ixp.name))
            }
        };
        let status = &session.status.value;
        writeln!(
            out,
            "{exchange}\t{}\t{}",
            session.ip_address,
            status.as_str()
        )?;
        count += 1;
    }
    Ok(count)
}
