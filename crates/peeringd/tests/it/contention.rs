//! Writers that collide: conflicting bulk writes in opposite orders, through two instances
//! on one database, each succeed or fail cleanly (never a 5xx), and every object's last
//! change record shows the object as it is.

use std::sync::Barrier;

use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

fn ases(s: &TestServer, count: i64) -> Vec<i64> {
    let body: Vec<Json> = (0..count)
        .map(|i| json!({"asn": 64600 + i, "name": format!("AS {i}")}))
        .collect();
    let r = s.post(AS, Json::Array(body));
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

/// The object's last change record's snapshot.
fn last_snapshot(s: &TestServer, id: i64) -> Json {
    let page = s
        .get(&format!(
            "/api/extras/object-changes/?changed_object_type=peering.autonomoussystem&changed_object_id={id}&ordering=-id&limit=1"
        ))
        .json();
    page["results"][0]["postchange_data"].clone()
}

fn send(base: &str, s: &TestServer, method: &str, path: &str, body: Json) -> u16 {
    s.send(
        method,
        &format!("{base}{path}"),
        Some(&body),
        Some(&s.key),
        &[],
    )
    .status
}

#[test]
fn conflicting_bulk_patches_through_two_instances_all_land() {
    let s = TestServer::start();
    let other = s.another_instance(peering_api::Settings::default());
    let ids = ases(&s, 30);
    let writers = 8;
    let rounds = 5;
    let barrier = Barrier::new(writers);
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let (ids, barrier, s) = (&ids, &barrier, &s);
                let base = if w % 2 == 0 {
                    s.base.clone()
                } else {
                    other.base.clone()
                };
                scope.spawn(move || {
                    barrier.wait();
                    let mut out = Vec::new();
                    for round in 0..rounds {
                        // Every writer takes the objects in its own order.
                        let mut order = ids.clone();
                        order.rotate_left((w * 7 + round) % ids.len());
                        if w % 3 == 0 {
                            order.reverse();
                        }
                        let body: Vec<Json> = order
                            .iter()
                            .map(|id| json!({"id": id, "comments": format!("w{w} r{round}")}))
                            .collect();
                        out.push(send(&base, s, "PATCH", AS, Json::Array(body)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(statuses.iter().all(|&st| st == 200), "{statuses:?}");
    for id in ids {
        let object = s.get(&format!("{AS}{id}/")).json();
        assert_eq!(
            last_snapshot(&s, id)["comments"],
            object["comments"],
            "AS {id}"
        );
    }
}

#[test]
fn opposite_order_bulk_creates_of_the_same_objects_conflict_cleanly() {
    let s = TestServer::start();
    let other = s.another_instance(peering_api::Settings::default());
    for round in 0..6 {
        let forward: Vec<Json> = (0..20)
            .map(|i| json!({"asn": 65000 + round * 100 + i, "name": format!("N{i}")}))
            .collect();
        let mut backward = forward.clone();
        backward.reverse();
        let barrier = Barrier::new(2);
        let mut statuses: Vec<u16> = std::thread::scope(|scope| {
            let a = scope.spawn(|| {
                barrier.wait();
                send(&s.base, &s, "POST", AS, Json::Array(forward.clone()))
            });
            let b = scope.spawn(|| {
                barrier.wait();
                send(&other.base, &s, "POST", AS, Json::Array(backward.clone()))
            });
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        statuses.sort_unstable();
        // One lands whole; the other finds the numbers taken.
        assert_eq!(statuses, vec![201, 400], "round {round}");
    }
    let count = s.get(&format!("{AS}?limit=1")).json()["count"].clone();
    assert_eq!(count, 120);
}

#[test]
fn parallel_patches_of_one_object_leave_a_change_record_matching_it() {
    let s = TestServer::start();
    let other = s.another_instance(peering_api::Settings::default());
    let ids = ases(&s, 1);
    let path = format!("{AS}{}/", ids[0]);
    for attempt in 0..25 {
        let barrier = Barrier::new(2);
        std::thread::scope(|scope| {
            let a = scope.spawn(|| {
                barrier.wait();
                send(
                    &s.base,
                    &s,
                    "PATCH",
                    &path,
                    json!({"name": format!("N{attempt}")}),
                )
            });
            let b = scope.spawn(|| {
                barrier.wait();
                send(
                    &other.base,
                    &s,
                    "PATCH",
                    &path,
                    json!({"comments": format!("C{attempt}")}),
                )
            });
            assert_eq!((a.join().unwrap(), b.join().unwrap()), (200, 200));
        });
        let object = s.get(&path).json();
        let snapshot = last_snapshot(&s, ids[0]);
        assert_eq!(snapshot["name"], object["name"], "attempt {attempt}");
        assert_eq!(
            snapshot["comments"], object["comments"],
            "attempt {attempt}"
        );
        assert_eq!(object["name"], format!("N{attempt}"));
        assert_eq!(object["comments"], format!("C{attempt}"));
    }
}

#[test]
fn small_writes_wait_for_a_large_bulk_create_instead_of_failing() {
    let s = TestServer::start();
    let ids = ases(&s, 4);
    let large: Vec<Json> = (0..3000)
        .map(|i| json!({"asn": 4_200_000_000i64 + i, "name": format!("Bulk {i}")}))
        .collect();
    let barrier = Barrier::new(1 + ids.len());
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let mut handles = vec![scope.spawn(|| {
            barrier.wait();
            send(&s.base, &s, "POST", AS, Json::Array(large.clone()))
        })];
        for id in &ids {
            let (s, barrier) = (&s, &barrier);
            handles.push(scope.spawn(move || {
                barrier.wait();
                (0..5)
                    .map(|i| {
                        send(
                            &s.base,
                            s,
                            "PATCH",
                            &format!("{AS}{id}/"),
                            json!({"comments": format!("{i}")}),
                        )
                    })
                    .max()
                    .unwrap()
            }));
        }
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(statuses[0], 201);
    assert!(statuses[1..].iter().all(|&st| st == 200), "{statuses:?}");
}
