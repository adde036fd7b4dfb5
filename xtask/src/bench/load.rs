//! Loads the benchmark data through the API in bulk POSTs of 1,000 and times each kind:
//! tags, communities and policies; autonomous systems; exchanges; their connections; and
//! the sessions at the exchanges, the biggest peers' first.

use std::time::Instant;

use serde_json::Value;

use super::addressing::SessionAddresses;
use super::dataset::{self, Fixtures};
use super::scale::Scale;
use super::target::Target;
use super::writes::WRITE_SESSIONS;

pub const BATCH: usize = 1000;

pub struct LoadPhase {
    pub name: &'static str,
    pub objects: u64,
    pub seconds: f64,
}

impl LoadPhase {
    pub fn objects_per_s(&self) -> f64 {
        self.objects as f64 / self.seconds.max(1e-9)
    }
}

/// What was loaded, as the write scenarios need it.
pub struct Loaded {
    pub phases: Vec<LoadPhase>,
    pub peer_ids: Vec<i64>,
    /// One per exchange, in exchange order.
    pub connection_ids: Vec<i64>,
    pub addresses: SessionAddresses,
    pub sessions: u64,
}

pub fn load(target: &Target, scale: Scale) -> Result<Loaded, String> {
    let mut phases = Vec::new();
    let mut timed = |name, objects: u64, started: Instant| {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "   {name}: {objects} in {seconds:.2} s ({:.0} objects/s)",
            objects as f64 / seconds
        );
        phases.push(LoadPhase {
            name,
            objects,
            seconds,
        });
    };

    let started = Instant::now();
    target.create_many("/api/extras/tags/", &dataset::tags())?;
    let fx = Fixtures {
        community_ids: target.create_many("/api/peering/communities/", &dataset::communities())?,
        policy_ids: target.create_many(
            "/api/peering/routing-policies/",
            &dataset::routing_policies(),
        )?,
    };
    let fixtures = dataset::TAGS + dataset::COMMUNITIES + dataset::POLICIES;
    timed(
        "tags, communities, routing policies",
        fixtures as u64,
        started,
    );

    let started = Instant::now();
    let systems = "/api/peering/autonomous-systems/";
    let local_id = target.create_many(systems, &[dataset::local_autonomous_system()])?[0];
    let peers = scale.autonomous_systems() as usize;
    let peer_ids = create_in_batches(target, systems, "autonomous systems", peers, |i| {
        Ok(dataset::autonomous_system(i, &fx))
    })?;
    timed("autonomous systems", peers as u64 + 1, started);

    let exchanges = scale.exchanges();
    let started = Instant::now();
    let exchange_ids = create_in_batches(
        target,
        "/api/peering/internet-exchanges/",
        "internet exchanges",
        exchanges as usize,
        |x| Ok(dataset::exchange(x as u64, local_id)),
    )?;
    timed("internet exchanges", exchanges, started);

    let started = Instant::now();
    let connection_ids = create_in_batches(
        target,
        "/api/net/connections/",
        "connections",
        exchanges as usize,
        |x| Ok(dataset::connection(x as u64, exchange_ids[x])),
    )?;
    timed("connections", exchanges, started);

    let addresses = SessionAddresses::new(exchanges)?;
    addresses.check_room_for(scale.sessions() + WRITE_SESSIONS)?;
    let sessions = scale.sessions();
    let owners: Vec<usize> = dataset::sessions_per_peer(peers, sessions)
        .into_iter()
        .enumerate()
        .flat_map(|(peer, count)| std::iter::repeat_n(peer, count as usize))
        .collect();
    let started = Instant::now();
    create_in_batches(
        target,
        "/api/peering/internet-exchange-peering-sessions/",
        "sessions",
        owners.len(),
        |k| {
            let (exchange, address) = addresses.get(k as u64)?;
            let connection = connection_ids[exchange as usize];
            Ok(dataset::session(
                k as u64,
                peer_ids[owners[k]],
                connection,
                address,
            ))
        },
    )?;
    timed("sessions at exchanges", sessions, started);

    Ok(Loaded {
        phases,
        peer_ids,
        connection_ids,
        addresses,
        sessions,
    })
}

/// Creates `count` objects made by `body(i)` in bulk POSTs of 1,000, reporting progress
/// every tenth, and returns their ids in order.
fn create_in_batches(
    target: &Target,
    path: &str,
    what: &str,
    count: usize,
    mut body: impl FnMut(usize) -> Result<Value, String>,
) -> Result<Vec<i64>, String> {
    let mut ids = Vec::with_capacity(count);
    let tenth = count.div_ceil(10).max(BATCH);
    for start in (0..count).step_by(BATCH) {
        let batch = (start..count.min(start + BATCH))
            .map(&mut body)
            .collect::<Result<Vec<Value>, String>>()?;
        ids.extend(target.create_many(path, &batch)?);
        if ids.len() % tenth < BATCH || ids.len() == count {
            eprintln!("   … {} of {count} {what}", ids.len());
        }
    }
    Ok(ids)
}
