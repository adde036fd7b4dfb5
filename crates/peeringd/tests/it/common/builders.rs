//! Builders of the objects many tests create through the API (an autonomous system, an
//! exchange, a router, a session, a tag): a test names the fields it cares about, and the
//! others take plain values (`autonomous_system(64500, "Us").with("affiliated", true)`).

use serde_json::{json, Map, Value as Json};

use super::TestServer;

/// An object to create at `path`, with the fields set so far.
pub struct Build {
    path: &'static str,
    body: Map<String, Json>,
}

impl Build {
    fn new(path: &'static str, body: Json) -> Build {
        let Json::Object(body) = body else {
            unreachable!("builders start from objects")
        };
        Build { path, body }
    }

    /// Sets `field` to `value`.
    pub fn with(mut self, field: &str, value: impl Into<Json>) -> Build {
        self.body.insert(field.to_string(), value.into());
        self
    }

    /// Creates the object, asserting success; the object as the API answered it.
    pub fn create(self, s: &TestServer) -> Json {
        s.create(self.path, Json::Object(self.body))
    }

    /// Creates the object, asserting success; its id.
    pub fn id(self, s: &TestServer) -> Json {
        self.create(s)["id"].clone()
    }
}

/// An autonomous system.
pub fn autonomous_system(asn: i64, name: &str) -> Build {
    Build::new(super::AS, json!({"asn": asn, "name": name}))
}

/// An exchange of the autonomous system `local` (an id).
pub fn exchange(name: &str, slug: &str, local: &Json) -> Build {
    Build::new(
        "/api/peering/internet-exchanges/",
        json!({"name": name, "slug": slug, "local_autonomous_system": local}),
    )
}

/// A router of the autonomous system `local` (an id), at `<name>.example.net`.
pub fn router(name: &str, local: &Json) -> Build {
    Build::new(
        "/api/peering/routers/",
        json!({"name": name, "hostname": format!("{name}.example.net"),
               "local_autonomous_system": local}),
    )
}

/// A direct session from `local` to `peer` (autonomous systems' ids) at `address`.
pub fn direct_session(local: &Json, peer: &Json, address: &str) -> Build {
    Build::new(
        "/api/peering/direct-peering-sessions/",
        json!({"local_autonomous_system": local, "autonomous_system": peer,
               "ip_address": address}),
    )
}

/// A tag, its slug its name in lower case.
pub fn tag(name: &str) -> Build {
    Build::new(
        "/api/extras/tags/",
        json!({"name": name, "slug": name.to_lowercase()}),
    )
}
