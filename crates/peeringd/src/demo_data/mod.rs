//! `peeringd demo-data`: fills an empty database with a realistic, repeatable network for
//! trying the API and for benchmarks. Everything is written through `Store::create`, as the
//! HTTP API writes it: validated, with its change records, in batches of one transaction.
//!
//! Scale 1 is one region: the local AS4100064500 and 300 peers, 3 routers (edge routers on
//! Junos and FRR, a customer router on BIRD), 12 exchanges with a connection per edge
//! router, about 2,600 sessions at the exchanges (skewed: the biggest peers are at every
//! exchange) and 50 direct sessions; shared by all regions, 5 tags, 10 communities, 10
//! routing policies, 3 BGP groups, 3 relationships, 4 platforms, the 3 starting
//! configuration templates of `templates/` (each router renders its platform's), 3 contact
//! roles, 4 e-mail templates and 2 example webhooks (disabled); and a PeeringDB copy of the
//! first region's exchanges and networks (`peeringdb`). `--scale N` makes N regions. The
//! same seed gives the same data.

mod fixtures;
mod messages;
mod network;
mod peeringdb;
mod rng;
mod sessions;
mod writer;

use std::time::{Duration, Instant};

use peering_app::edits::{Edits, WriteRules};
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, COMMUNITY, CONFIGURATION, CONNECTION, CONTACT, CONTACT_ROLE,
    DIRECT_PEERING_SESSION, EMAIL, INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION, PLATFORM,
    RELATIONSHIP, ROUTER, ROUTING_POLICY, TAG, WEBHOOK,
};
use peering_domain::ResourceSpec;
use peering_filter::Filter;
use peering_store::{ChangeContext, Store, Window};

use network::{EXCHANGES_PER_REGION, PEERS_PER_REGION, ROUTERS_PER_REGION};
use writer::Writer;

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 64500;

/// The largest scale: exchange LANs are /22s of 10.0.0.0/8, twelve per region.
pub const MAX_SCALE: u32 = 1000;

/// Every resource this command writes; it refuses a database holding any of them.
const WRITTEN: &[&ResourceSpec] = &[
    &TAG,
    &COMMUNITY,
    &ROUTING_POLICY,
    &RELATIONSHIP,
    &BGP_GROUP,
    &PLATFORM,
    &CONFIGURATION,
    &CONTACT_ROLE,
    &EMAIL,
    &AUTONOMOUS_SYSTEM,
    &ROUTER,
    &INTERNET_EXCHANGE,
    &CONNECTION,
    &INTERNET_EXCHANGE_PEERING_SESSION,
    &DIRECT_PEERING_SESSION,
    &CONTACT,
    &WEBHOOK,
];

pub fn run(
    database_url: &str,
    rules: WriteRules,
    scale: u32,
    seed: Option<u64>,
) -> Result<(), String> {
    let started = Instant::now();
    if !(1..=MAX_SCALE).contains(&scale) {
        return Err(format!("--scale must be between 1 and {MAX_SCALE}"));
    }
    let seed = seed.unwrap_or(DEFAULT_SEED);
    let store = Store::open(database_url, 1).map_err(|e| e.to_string())?;
    refuse_unless_empty(&store)?;
    let ctx = ChangeContext {
        request_id: uuid::Uuid::new_v4().to_string(),
        user_id: None,
        user_name: "demo-data".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    let request_id = ctx.request_id.clone();
    let mut w = Writer::new(Edits::new(store.clone(), rules), store.clone(), ctx);
    let copy = generate(&mut w, scale as usize, seed)?;
    messages::webhooks(&mut w)?;
    past_jobs(&store)?;
    let (records, took) = peeringdb::apply(&store, &copy)?;
    print_summary(&w, scale, seed, &store, &request_id, started.elapsed());
    eprintln!(
        "  and a PeeringDB copy of the first region: {records} records in {:.2} s",
        took.as_secs_f64()
    );
    Ok(())
}

/// The data use fixed ASNs, names and slugs: on a database that already has peering data
/// they would collide halfway through, so refuse up front.
fn refuse_unless_empty(store: &Store) -> Result<(), String> {
    let window = Window {
        limit: Some(1),
        offset: 0,
    };
    let mut found = Vec::new();
    for spec in WRITTEN {
        let page = store
            .list(spec, &Filter::default(), window, false, None)
            .map_err(|e| e.to_string())?;
        if page.count > 0 {
            found.push(format!("{} {}", page.count, spec.path));
        }
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "demo-data fills an empty database, and this one has {}; use a fresh database",
            found.join(", ")
        ))
    }
}

/// The peering data of every region; the PeeringDB copy that goes with the first.
fn generate(w: &mut Writer, scale: usize, seed: u64) -> Result<peeringdb::LocalCopy, String> {
    let fx = fixtures::create(w)?;
    let net = Network::create(w, scale, seed, &fx)?;
    let peers_of = |r: usize| r * PEERS_PER_REGION..(r + 1) * PEERS_PER_REGION;
    let per_region = EXCHANGES_PER_REGION * ROUTERS_PER_REGION;
    let mut first_members = Vec::new();
    w.create(
        &INTERNET_EXCHANGE_PEERING_SESSION,
        (0..scale).flat_map(|r| {
            let (bodies, members) = sessions::exchange_sessions(
                seed,
                r,
                &net.peers[peers_of(r)],
                &net.peer_ids[peers_of(r)],
                &net.connections[r * per_region..(r + 1) * per_region],
                &fx,
            );
            if r == 0 {
                first_members = members;
            }
            bodies
        }),
    )?;
    let mut link = 0;
    let direct: Vec<_> = (0..scale)
        .flat_map(|r| {
            sessions::direct_sessions(
                seed,
                r,
                &net.peer_ids[peers_of(r)],
                (net.routers_of(r), net.cores[r]),
                &fx,
                &mut link,
            )
        })
        .collect();
    w.create(&DIRECT_PEERING_SESSION, direct)?;
    w.create(
        &CONTACT,
        (0..scale).flat_map(|r| network::contacts(seed, r, &net.peers[peers_of(r)])),
    )?;
    Ok(peeringdb::build(&net.peers[peers_of(0)], &first_members))
}

/// The regions' peers, routers, exchanges and connections, region after region in each
/// list, with their ids.
struct Network {
    peers: Vec<network::Peer>,
    peer_ids: Vec<i64>,
    routers: Vec<i64>,
    /// The customer router of each region.
    cores: Vec<i64>,
    connections: Vec<i64>,
}

impl Network {
    fn create(
        w: &mut Writer,
        scale: usize,
        seed: u64,
        fx: &fixtures::Fixtures,
    ) -> Result<Network, String> {
        let mut peers = Vec::with_capacity(scale * PEERS_PER_REGION);
        let peer_ids = w.create(
            &AUTONOMOUS_SYSTEM,
            (0..scale).flat_map(|region| {
                let bodies: Vec<_> = network::peers(seed, region, fx)
                    .into_iter()
                    .map(|(peer, body)| {
                        peers.push(peer);
                        body
                    })
                    .collect();
                bodies
            }),
        )?;
        let routers = w.create(&ROUTER, (0..scale).flat_map(|r| network::routers(r, fx)))?;
        let cores = w.create(&ROUTER, (0..scale).map(|r| network::core_router(r, fx)))?;
        let exchanges = w.create(
            &INTERNET_EXCHANGE,
            (0..scale).flat_map(|r| network::exchanges(r, fx)),
        )?;
        let exchanges_of =
            |r: usize| &exchanges[r * EXCHANGES_PER_REGION..(r + 1) * EXCHANGES_PER_REGION];
        let mut net = Network {
            peers,
            peer_ids,
            routers,
            cores,
            connections: Vec::new(),
        };
        net.connections = w.create(
            &CONNECTION,
            (0..scale).flat_map(|r| network::connections(r, exchanges_of(r), net.routers_of(r))),
        )?;
        Ok(net)
    }

    fn routers_of(&self, region: usize) -> &[i64] {
        &self.routers[region * ROUTERS_PER_REGION..(region + 1) * ROUTERS_PER_REGION]
    }
}

/// A few jobs that ran before, one of each ending, so that the jobs list has something to
/// show: a configuration rendered, one that failed to render, an export.
fn past_jobs(store: &Store) -> Result<(), String> {
    use peering_store::{JobEnd, NewJob};
    let endings = [
        (
            "peering.router.generate_configuration",
            "peering.router",
            JobEnd::Completed,
            "! no template",
        ),
        (
            "peering.router.generate_configuration",
            "peering.router",
            JobEnd::Errored,
            "syntax error at line 3",
        ),
        (
            "extras.exporttemplate.render",
            "extras.exporttemplate",
            JobEnd::Failed,
            "unknown export template",
        ),
    ];
    for (name, object_type, end, output) in endings {
        let job = NewJob {
            name: name.into(),
            object: Some((object_type.into(), 1)),
            user_id: None,
            params: serde_json::json!({}),
        };
        let e = |e: peering_store::Error| e.to_string();
        store.jobs().enqueue(&job).map_err(e)?;
        let lease = Duration::from_secs(60);
        if let Some(claimed) = store.jobs().claim("demo-data", lease).map_err(e)? {
            let data = serde_json::json!({"log": [{"status": "info", "message": output}]});
            store
                .jobs()
                .finish(claimed.id, "demo-data", end, output, &data)
                .map_err(e)?;
        }
    }
    Ok(())
}

fn print_summary(
    w: &Writer,
    scale: u32,
    seed: u64,
    store: &Store,
    request_id: &str,
    elapsed: Duration,
) {
    eprintln!(
        "demo-data: scale {scale}, seed {seed}, {:?}, change records under request id {request_id}",
        store.backend()
    );
    eprintln!(
        "  {:<36} {:>8} {:>10} {:>8}",
        "resource", "objects", "statements", "seconds"
    );
    let (mut objects, mut statements) = (0, 0);
    for t in &w.tallies {
        objects += t.count;
        statements += t.queries;
        eprintln!(
            "  {:<36} {:>8} {:>10} {:>8.2}",
            t.spec.path,
            t.count,
            t.queries,
            t.time.as_secs_f64()
        );
    }
    eprintln!(
        "  {:<36} {:>8} {:>10} {:>8.2}",
        "total",
        objects,
        statements,
        elapsed.as_secs_f64()
    );
}
