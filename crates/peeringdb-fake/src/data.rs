//! PeeringDB's objects, each a pure function of its type and index, so that any number
//! can be served without holding them; changes (updates, deletions, additions) are kept
//! apart and win over the generated objects.

use std::collections::BTreeMap;

use serde_json::{json, Value as Json};

/// PeeringDB's object types, parents first.
pub const NAMESPACES: &[&str] = &[
    "org", "campus", "fac", "net", "ix", "ixfac", "ixlan", "ixpfx", "netfac", "netixlan", "poc",
];

/// When the generated objects were last updated (UNIX seconds): 2026-01-01.
pub const BASE_TIME: i64 = 1_767_225_600;

/// How many objects of each type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    pub org: usize,
    pub campus: usize,
    pub fac: usize,
    pub net: usize,
    pub ix: usize,
    pub ixfac: usize,
    pub netfac: usize,
    pub netixlan: usize,
    pub poc: usize,
}

impl Sizes {
    /// About the real PeeringDB's size.
    pub const REAL: Sizes = Sizes {
        org: 30_000,
        campus: 300,
        fac: 5_000,
        net: 33_000,
        ix: 1_300,
        ixfac: 3_000,
        netfac: 30_000,
        netixlan: 60_000,
        poc: 40_000,
    };

    /// A fraction of the real size (at least one object of each type).
    pub fn scaled(fraction: f64) -> Sizes {
        let n = |real: usize| ((real as f64 * fraction).round() as usize).max(1);
        let r = Sizes::REAL;
        Sizes {
            org: n(r.org),
            campus: n(r.campus),
            fac: n(r.fac),
            net: n(r.net),
            ix: n(r.ix),
            ixfac: n(r.ixfac),
            netfac: n(r.netfac),
            netixlan: n(r.netixlan),
            poc: n(r.poc),
        }
    }

    /// Exchange LANs: one per exchange, and a second at one exchange in thirteen.
    pub fn ixlan(&self) -> usize {
        self.ix + self.ix / 13
    }

    /// Two prefixes (IPv4 and IPv6) per LAN.
    pub fn ixpfx(&self) -> usize {
        2 * self.ixlan()
    }

    pub fn of(&self, namespace: &str) -> usize {
        match namespace {
            "org" => self.org,
            "campus" => self.campus,
            "fac" => self.fac,
            "net" => self.net,
            "ix" => self.ix,
            "ixfac" => self.ixfac,
            "ixlan" => self.ixlan(),
            "ixpfx" => self.ixpfx(),
            "netfac" => self.netfac,
            "netixlan" => self.netixlan,
            "poc" => self.poc,
            _ => 0,
        }
    }
}

/// The largest LAN's members: the first LAN has this many (for an exchange with 1,000
/// members), the others share the rest.
const BIG_LAN: usize = 1_000;

/// A generated PeeringDB, with changes.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub sizes: Sizes,
    /// Changed, deleted or added objects by type and id, with their update time.
    changes: BTreeMap<&'static str, BTreeMap<i64, Json>>,
    /// Members per LAN (index 0 is LAN 1).
    lan_members: Vec<usize>,
    /// First member of each LAN, as an index of `netixlan`.
    lan_starts: Vec<usize>,
}

fn mix(mut x: u64) -> u64 {
    // splitmix64: a well-spread value from any integer.
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn pick(namespace: &str, i: usize, salt: u64, n: usize) -> usize {
    let tag = namespace
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
    (mix(tag ^ (i as u64) << 8 ^ salt) % n.max(1) as u64) as usize
}

pub(crate) fn stamp(seconds: i64) -> String {
    // Days since the epoch to a civil date (Howard Hinnant's algorithm).
    let days = seconds.div_euclid(86_400);
    let rem = seconds.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

impl Dataset {
    pub fn new(sizes: Sizes) -> Dataset {
        let lans = sizes.ixlan();
        let big = BIG_LAN.min(sizes.netixlan);
        let rest = sizes.netixlan - big;
        let mut lan_members = vec![0; lans];
        lan_members[0] = big;
        if lans > 1 {
            for i in 0..rest {
                // Skewed: low-numbered LANs are the larger ones, at most 1,000 members.
                let mut lan = 1 + pick("lan", i, 7, lans - 1).min(pick("lan", i, 9, lans - 1));
                while lan_members[lan] >= BIG_LAN {
                    lan = 1 + (lan % (lans - 1));
                }
                lan_members[lan] += 1;
            }
        } else {
            lan_members[0] += rest;
        }
        let mut lan_starts = Vec::with_capacity(lans);
        let mut start = 0;
        for members in &lan_members {
            lan_starts.push(start);
            start += members;
        }
        Dataset {
            sizes,
            changes: BTreeMap::new(),
            lan_members,
            lan_starts,
        }
    }

    /// The ASN of network `id`.
    pub fn asn(id: i64) -> i64 {
        // Spread over public 16- and 32-bit numbers, never a private or reserved one.
        if id <= 20_000 {
            1_000 + id
        } else {
            300_000 + id
        }
    }

    /// The LAN (id) of the `i`-th network-LAN object and its host number on the LAN.
    fn lan_of(&self, i: usize) -> (i64, usize) {
        let lan = self.lan_starts.partition_point(|&s| s <= i) - 1;
        (lan as i64 + 1, i - self.lan_starts[lan] + 1)
    }

    /// Members of LAN `id` in the generated data.
    pub fn lan_size(&self, id: i64) -> usize {
        self.lan_members.get(id as usize - 1).copied().unwrap_or(0)
    }

    /// The IPv4 and IPv6 prefixes of LAN `id`: a /21 of 10.0.0.0/8 and a /64.
    pub fn lan_prefixes(id: i64) -> (String, String) {
        let base = (10u32 << 24) + (id as u32) * 2048;
        (
            format!(
                "{}.{}.{}.0/21",
                base >> 24,
                (base >> 16) & 255,
                (base >> 8) & 255
            ),
            format!("2001:db8:{:x}:{:x}::/64", id >> 16, id & 0xffff),
        )
    }

    /// The addresses of host `host` on LAN `id`.
    pub fn lan_addresses(id: i64, host: usize) -> (String, String) {
        let a = (10u32 << 24) + (id as u32) * 2048 + host as u32;
        (
            format!(
                "{}.{}.{}.{}",
                a >> 24,
                (a >> 16) & 255,
                (a >> 8) & 255,
                a & 255
            ),
            format!("2001:db8:{:x}:{:x}::{:x}", id >> 16, id & 0xffff, host),
        )
    }

    /// The generated object `id` (from 1) of a type, as PeeringDB sends it with `depth=0`.
    pub fn generated(&self, namespace: &str, id: i64) -> Option<Json> {
        let s = &self.sizes;
        if id < 1 || id as usize > s.of(namespace) {
            return None;
        }
        let i = id as usize - 1;
        let one = |n: usize, salt: u64| pick(namespace, i, salt, n) as i64 + 1;
        let mut o = match namespace {
            "org" => crate::objects::org(id),
            "campus" => json!({"org_id": one(s.org, 1), "name": format!("Campus {id}"),
                "name_long": null, "aka": null, "website": null, "notes": "", "social_media": []}),
            "fac" => {
                let campus = i.is_multiple_of(10).then(|| one(s.campus, 2));
                crate::objects::fac(id, one(s.org, 1), campus)
            }
            "net" => crate::objects::net(id, i, one(s.org, 1)),
            "ix" => crate::objects::ix(id, one(s.org, 1)),
            "ixfac" => json!({"ix_id": one(s.ix, 1), "fac_id": one(s.fac, 2)}),
            "ixlan" => {
                let ix = if id as usize <= s.ix {
                    id
                } else {
                    (id as usize - s.ix) as i64 * 13
                };
                json!({"ix_id": ix, "name": "", "descr": "", "mtu": 1500,
                    "vlan": null, "dot1q_support": false, "rs_asn": 0, "arp_sponge": null,
                    "ixf_ixp_member_list_url_visible": "Private"})
            }
            "ixpfx" => crate::objects::ixpfx(i),
            "netfac" => json!({"net_id": one(s.net, 1), "fac_id": one(s.fac, 2), "local_asn": null,
                "avail_sonet": false, "avail_ethernet": true, "avail_atm": false}),
            "netixlan" => {
                let (lan, host) = self.lan_of(i);
                let mut o = crate::objects::netixlan(i, lan, host, one(s.net, 1));
                // Every fourth says at which facilities its two sides are, and supports BFD.
                let side = i.is_multiple_of(4).then(|| one(s.fac, 3));
                o["bfd_support"] = json!(side.is_some());
                o["net_side_id"] = json!(side);
                o["ix_side_id"] = json!(side);
                o
            }
            "poc" => json!({"net_id": one(s.net, 1), "role": "Technical", "visible": "Public",
                "name": format!("Contact {id}"), "phone": "",
                "email": format!("peering{id}@example.net"), "url": ""}),
            _ => return None,
        };
        let fields = o.as_object_mut()?;
        fields.insert("id".into(), json!(id));
        fields.insert("status".into(), json!("ok"));
        fields.insert("created".into(), json!(stamp(BASE_TIME - 86_400 * 365)));
        fields.insert("updated".into(), json!(stamp(BASE_TIME)));
        Some(o)
    }

    fn time_of(object: &Json) -> i64 {
        object["_updated"].as_i64().unwrap_or(BASE_TIME)
    }

    /// Records a change of object `id` at `time` (UNIX seconds): the object as it now is.
    pub fn change(&mut self, namespace: &str, id: i64, time: i64, edit: impl FnOnce(&mut Json)) {
        let namespace = NAMESPACES
            .iter()
            .find(|n| **n == namespace)
            .expect("a type");
        let mut object = self
            .changes
            .get(namespace)
            .and_then(|m| m.get(&id).cloned())
            .or_else(|| self.generated(namespace, id))
            .unwrap_or_else(|| json!({"id": id, "status": "ok"}));
        edit(&mut object);
        object["updated"] = json!(stamp(time));
        object["_updated"] = json!(time);
        self.changes
            .entry(namespace)
            .or_default()
            .insert(id, object);
    }

    /// Records the deletion of object `id` at `time`.
    pub fn delete(&mut self, namespace: &str, id: i64, time: i64) {
        self.change(namespace, id, time, |o| o["status"] = json!("deleted"));
    }

    /// Adds a new object of a type, with the next free id; its id.
    pub fn add(&mut self, namespace: &str, time: i64, object: Json) -> i64 {
        let top = self
            .changes
            .get(namespace)
            .and_then(|m| m.keys().next_back().copied())
            .unwrap_or(0)
            .max(self.sizes.of(namespace) as i64);
        let id = top + 1;
        self.change(namespace, id, time, |o| {
            *o = object;
            o["id"] = json!(id);
            o["status"] = json!("ok");
        });
        id
    }

    /// Calls `each` with the objects of a type PeeringDB would send for `since` (0: every
    /// object not deleted; otherwise every object changed after it, deleted ones
    /// included), in id order.
    pub fn for_each(&self, namespace: &str, since: i64, mut each: impl FnMut(&Json)) {
        let changes = self.changes.get(namespace);
        let changed = |id: i64| changes.and_then(|m| m.get(&id));
        let send = |o: &Json| {
            let deleted = o["status"] == "deleted";
            if since <= 0 {
                !deleted
            } else {
                Dataset::time_of(o) > since
            }
        };
        if since <= 0 || since < BASE_TIME {
            for id in 1..=self.sizes.of(namespace) as i64 {
                match changed(id) {
                    Some(o) => {
                        if send(o) {
                            each(&public(o))
                        }
                    }
                    None => {
                        let o = self.generated(namespace, id).expect("in range");
                        if send(&o) {
                            each(&o)
                        }
                    }
                }
            }
        }
        let top = self.sizes.of(namespace) as i64;
        for (id, o) in changes.into_iter().flatten() {
            let already = since <= 0 || since < BASE_TIME;
            if (*id > top || !already) && send(o) {
                each(&public(o));
            }
        }
    }
}

/// An object without the fake's own bookkeeping.
fn public(o: &Json) -> Json {
    let mut o = o.clone();
    if let Some(fields) = o.as_object_mut() {
        fields.remove("_updated");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_times() {
        assert_eq!(stamp(BASE_TIME), "2026-01-01T00:00:00Z");
        assert_eq!(stamp(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn lans_share_the_members_and_the_first_is_big() {
        let d = Dataset::new(Sizes::scaled(0.1));
        let total: usize = (1..=d.sizes.ixlan() as i64).map(|l| d.lan_size(l)).sum();
        assert_eq!(total, d.sizes.netixlan);
        assert_eq!(d.lan_size(1), 1_000);
        let mut seen = std::collections::HashSet::new();
        d.for_each("netixlan", 0, |o| {
            assert!(seen.insert(o["ipaddr4"].as_str().unwrap().to_string()));
        });
    }

    #[test]
    fn since_gives_the_changes_deletions_included() {
        let mut d = Dataset::new(Sizes::scaled(0.01));
        d.change("net", 3, BASE_TIME + 10, |o| o["name"] = json!("Renamed"));
        d.delete("net", 4, BASE_TIME + 20);
        let added = d.add(
            "net",
            BASE_TIME + 30,
            json!({"org_id": 1, "asn": 64999, "name": "New"}),
        );
        let mut ids = Vec::new();
        d.for_each("net", BASE_TIME + 5, |o| {
            ids.push(o["id"].as_i64().unwrap())
        });
        assert_eq!(ids, vec![3, 4, added]);
        let mut all = 0;
        d.for_each("net", 0, |o| {
            assert_ne!(o["id"], 4);
            all += 1;
        });
        assert_eq!(all, d.sizes.net);
    }
}
