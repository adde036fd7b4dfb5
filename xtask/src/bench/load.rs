//! Loads the benchmark data through the API (tags, communities, routing policies, then
//! autonomous systems in bulk) and times it.

use std::net::SocketAddr;
use std::time::Instant;

use serde_json::{json, Value};

use super::http;

const BATCH: usize = 1000;
const TAGS: usize = 5;
const COMMUNITIES: usize = 10;
const POLICIES: usize = 10;

pub struct LoadStats {
    pub objects: usize,
    pub seconds: f64,
    /// An autonomous system id near the middle, for the detail scenario.
    pub middle_id: i64,
}

impl LoadStats {
    pub fn objects_per_s(&self) -> f64 {
        self.objects as f64 / self.seconds
    }
}

pub fn load(addr: SocketAddr, token: &str, count: usize) -> Result<LoadStats, String> {
    let started = Instant::now();
    let tags: Vec<Value> = (1..=TAGS)
        .map(|i| json!({"name": format!("Tag {i}"), "slug": format!("tag-{i}")}))
        .collect();
    post(addr, token, "/api/extras/tags/", &tags)?;
    let communities: Vec<Value> = (1..=COMMUNITIES)
        .map(|i| json!({"name": format!("C{i}"), "slug": format!("c{i}"), "value": format!("65000:{i}")}))
        .collect();
    let community_ids = post(addr, token, "/api/peering/communities/", &communities)?;
    let policies: Vec<Value> = (1..=POLICIES)
        .map(|i| json!({"name": format!("P{i}"), "slug": format!("p{i}")}))
        .collect();
    let policy_ids = post(addr, token, "/api/peering/routing-policies/", &policies)?;

    let mut as_ids = Vec::with_capacity(count);
    for start in (0..count).step_by(BATCH) {
        let batch: Vec<Value> = (start..count.min(start + BATCH))
            .map(|i| {
                json!({
                    "asn": 64512 + i,
                    "name": format!("Network {i}"),
                    "irr_as_set": format!("AS-NET{i}"),
                    "tags": [
                        {"slug": format!("tag-{}", 1 + i % TAGS)},
                        {"slug": format!("tag-{}", 1 + (i + 1) % TAGS)},
                    ],
                    "import_routing_policies": [
                        policy_ids[i % POLICIES],
                        policy_ids[(i + 1) % POLICIES],
                    ],
                    "export_routing_policies": [policy_ids[(i + 2) % POLICIES]],
                    "communities": [community_ids[i % COMMUNITIES]],
                })
            })
            .collect();
        as_ids.extend(post(
            addr,
            token,
            "/api/peering/autonomous-systems/",
            &batch,
        )?);
        eprintln!("  loaded {} of {count} autonomous systems", as_ids.len());
    }
    let seconds = started.elapsed().as_secs_f64();
    let middle_id = *as_ids
        .get(as_ids.len() / 2)
        .ok_or("no autonomous system was created")?;
    Ok(LoadStats {
        objects: TAGS + COMMUNITIES + POLICIES + count,
        seconds,
        middle_id,
    })
}

/// POSTs a JSON array and returns the ids of the created objects, in order.
fn post(addr: SocketAddr, token: &str, path: &str, items: &[Value]) -> Result<Vec<i64>, String> {
    let body = serde_json::to_string(items).expect("JSON values serialize");
    let response = http::request(addr, "POST", path, Some(token), Some(&body))?;
    if response.status != 201 {
        return Err(format!(
            "POST {path} answered {} instead of 201: {}",
            response.status, response.body
        ));
    }
    let created: Value = serde_json::from_str(&response.body)
        .map_err(|e| format!("POST {path}: invalid JSON response: {e}"))?;
    let ids: Option<Vec<i64>> = created
        .as_array()
        .map(|objects| objects.iter().map(|o| o["id"].as_i64()).collect())
        .unwrap_or_default();
    match ids {
        Some(ids) if ids.len() == items.len() => Ok(ids),
        _ => Err(format!(
            "POST {path}: expected an array of {} objects with ids, got: {}",
            items.len(),
            truncate(&response.body, 500)
        )),
    }
}

fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}
