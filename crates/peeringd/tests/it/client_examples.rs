//! The examples of `peering-client` against the real server. Each example's logic is a
//! public function of its file, compiled here as a module (`#[path]`), so that the test runs
//! the examples' own code (only their `main`, which parses arguments, is left out) without
//! building and starting their binaries.

use crate::common::client::{block_on, client};
use crate::common::network::network;
use crate::common::TestServer;
use peering_client::Query;
use peering_domain::models::{AutonomousSystem, WritableAutonomousSystem};

#[allow(dead_code)]
#[path = "../../../peering-client/examples/sessions_of_as.rs"]
mod sessions_of_as;

#[allow(dead_code)]
#[path = "../../../peering-client/examples/bulk_tag.rs"]
mod bulk_tag;

fn asns(systems: &[AutonomousSystem]) -> Vec<i64> {
    systems.iter().map(|a| a.asn).collect()
}

#[test]
fn the_examples_run_against_the_server() {
    let s = TestServer::start();
    network(&s);
    let c = client(&s);
    block_on(async {
        let mut out = Vec::new();
        let count = sessions_of_as::sessions_of_as(&c, 65001, &mut out)
            .await
            .expect("sessions_of_as");
        assert_eq!(count, 2);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Example IX\t192.0.2.10\tenabled\nExample IX\t2001:db8::10\tenabled\n"
        );
        let unknown = sessions_of_as::sessions_of_as(&c, 4_200_000_000, &mut Vec::new()).await;
        assert!(unknown.is_err());

        let bodies: Vec<_> = (1..=3)
            .map(|i| WritableAutonomousSystem::new(64600 + i, format!("Example Net {i}")))
            .collect();
        c.create_many::<AutonomousSystem>(&bodies)
            .await
            .expect("create_many");
        let tagged = bulk_tag::bulk_tag(&c, "gold", "example net")
            .await
            .expect("bulk_tag");
        assert_eq!(tagged, 3);
        let gold = Query::<AutonomousSystem>::new()
            .filter(|f| f.tag.has("gold"))
            .ordering("asn");
        let gold = c.list(&gold).await.unwrap();
        assert_eq!(asns(&gold.results), [64601, 64602, 64603, 65001]);
        // Again: nothing left to tag.
        assert_eq!(
            bulk_tag::bulk_tag(&c, "gold", "example net").await.unwrap(),
            0
        );
        assert!(bulk_tag::bulk_tag(&c, "no-such-tag", "x").await.is_err());
    });
}
