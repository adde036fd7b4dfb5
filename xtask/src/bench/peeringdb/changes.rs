//! The 1,000 changes of the incremental scenario, made to the fake PeeringDB after the full
//! synchronisation: the kinds PeeringDB sees in a day, more of them. Networks, their
//! exchange ports and their contacts change; ports and contacts go; new members come (an
//! organisation, its network, a contact and a port at the biggest exchange). Only leaves
//! are deleted, so that the counts the synchronisation reports are known in advance.

use peeringdb_fake::Dataset;
use serde_json::{json, Value as Json};

use super::Totals;

/// Objects changed, then deleted, per type: ids spread evenly over the type, the first
/// ones changed and the others deleted.
const TOUCHED: &[(&str, usize, usize)] =
    &[("net", 200, 0), ("netixlan", 300, 100), ("poc", 100, 100)];
/// New members, four objects each.
const NEW_MEMBERS: usize = 50;

/// What the incremental synchronisation must report.
pub fn expected() -> Totals {
    Totals {
        created: 4 * NEW_MEMBERS as u64,
        updated: TOUCHED.iter().map(|t| t.1 as u64).sum(),
        deleted: TOUCHED.iter().map(|t| t.2 as u64).sum(),
    }
}

/// The changes in words, for the report.
pub fn describe() -> String {
    let list = |pick: fn(&(&str, usize, usize)) -> usize| {
        let parts: Vec<String> = TOUCHED
            .iter()
            .filter(|t| pick(t) > 0)
            .map(|t| format!("{} {}", pick(t), t.0))
            .collect();
        parts.join(", ")
    };
    format!(
        "{} changed ({}), {} deleted ({}), {} added ({NEW_MEMBERS} new members: org, net, poc, netixlan each)",
        expected().updated,
        list(|t| t.1),
        expected().deleted,
        list(|t| t.2),
        expected().created,
    )
}

/// Makes the changes, all at `time` (UNIX seconds, after the last synchronisation).
pub fn apply(d: &mut Dataset, time: i64) {
    for &(namespace, changed, deleted) in TOUCHED {
        let ids = spread(d.sizes.of(namespace), changed + deleted);
        for &id in &ids[..changed] {
            d.change(namespace, id, time, |o| edit(namespace, id, o));
        }
        for &id in &ids[changed..] {
            d.delete(namespace, id, time);
        }
    }
    for k in 0..NEW_MEMBERS {
        add_member(d, k, time);
    }
}

/// `count` ids from 1 to `size`, evenly spaced.
fn spread(size: usize, count: usize) -> Vec<i64> {
    assert!(count <= size, "{count} of {size} objects");
    (0..count).map(|k| (k * size / count) as i64 + 1).collect()
}

/// A change PeeringDB's users make to an object of this type.
fn edit(namespace: &str, id: i64, o: &mut Json) {
    match namespace {
        "net" => {
            o["info_prefixes4"] = json!(o["info_prefixes4"].as_i64().unwrap_or(0) + 10);
            o["notes"] = json!("Prefix limits raised.");
        }
        "netixlan" => {
            o["speed"] = json!(100_000);
            o["is_rs_peer"] = json!(!o["is_rs_peer"].as_bool().unwrap_or(false));
        }
        _ => o["email"] = json!(format!("noc{id}@example.org")),
    }
}

/// The `k`-th new member: an organisation, its network (with an ASN no generated network
/// has), a contact, and a port on the first LAN above its generated members' addresses.
fn add_member(d: &mut Dataset, k: usize, time: i64) {
    let template = |d: &Dataset, namespace: &str| d.generated(namespace, 1).expect("object 1");
    let mut org = template(d, "org");
    org["name"] = json!(format!("Benchmark member {k}"));
    let org = d.add("org", time, org);

    let asn = Dataset::asn((d.sizes.net + 1 + k) as i64);
    let mut net = template(d, "net");
    net["org_id"] = json!(org);
    net["asn"] = json!(asn);
    net["name"] = json!(format!("Benchmark network {k}"));
    net["irr_as_set"] = json!(format!("AS-BENCH{k}"));
    let net = d.add("net", time, net);

    let mut poc = template(d, "poc");
    poc["net_id"] = json!(net);
    poc["name"] = json!(format!("Benchmark contact {k}"));
    poc["email"] = json!(format!("peering@member{k}.example.net"));
    d.add("poc", time, poc);

    let mut port = template(d, "netixlan");
    let lan = port["ixlan_id"].as_i64().expect("a LAN");
    let (v4, v6) = Dataset::lan_addresses(lan, d.lan_size(lan) + 1 + k);
    port["net_id"] = json!(net);
    port["asn"] = json!(asn);
    port["ipaddr4"] = json!(v4);
    port["ipaddr6"] = json!(v6);
    d.add("netixlan", time, port);
}

#[cfg(test)]
mod tests {
    use peeringdb_fake::Sizes;

    use super::*;

    /// 2027, after the fake's generated objects' time.
    const LATER: i64 = 1_800_000_000;

    #[test]
    fn a_thousand_changes_all_served_after_their_time() {
        let expected = expected();
        assert_eq!(
            expected.created + expected.updated + expected.deleted,
            1_000
        );
        let mut d = Dataset::new(Sizes::scaled(0.1));
        apply(&mut d, LATER);
        let (mut deleted, mut served) = (0, 0);
        for namespace in peeringdb_fake::NAMESPACES {
            d.for_each(namespace, LATER - 1, |o| {
                served += 1;
                deleted += u64::from(o["status"] == "deleted");
            });
        }
        assert_eq!(served, 1_000);
        assert_eq!(deleted, expected.deleted);
        assert!(describe().starts_with("600 changed (200 net, 300 netixlan, 100 poc)"));
    }

    #[test]
    fn spread_ids_are_distinct_and_in_range() {
        let ids = spread(60_000, 400);
        assert_eq!((ids[0], ids[399]), (1, 59_851));
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
}
