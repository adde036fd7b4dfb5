//! Ordering by a field is reading it: pages sorted by a password tell it a character at a
//! time. A caller who may not see a resource's secret fields may neither order nor filter
//! by them; the request is refused as one naming a field there is not.

use crate::common::network::{finished, network, ROUTERS};
use crate::common::TestServer;
use serde_json::json;

const SESSIONS: &str = "/api/peering/direct-peering-sessions/";
const IX_SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";

/// The ordering names a caller without the secrets must not sort by, per list.
fn secret_orderings() -> Vec<(&'static str, &'static str)> {
    vec![
        (SESSIONS, "password"),
        (SESSIONS, "-encrypted_password"),
        (IX_SESSIONS, "password"),
        (IX_SESSIONS, "encrypted_password"),
        (ROUTERS, "napalm_password"),
        ("/api/devices/routers/", "-napalm_password"),
        ("/api/extras/webhooks/", "secret"),
        ("/api/extras/ix-api/", "api_secret"),
        ("/api/core/jobs/", "output"),
    ]
}

#[test]
fn ordering_by_a_secret_is_refused_to_whoever_may_not_see_it() {
    let s = TestServer::start();
    network(&s);
    // A job with an output, so that ordering jobs by it would tell something.
    let job = s.get(&format!("{ROUTERS}1/configuration/"));
    assert_eq!(job.status, 202, "{}", job.text);
    finished(&s, &job.json());
    let viewer = s.user_with(
        "viewer",
        &[
            "peering.view_directpeeringsession",
            "peering.view_router",
            "core.view_job",
        ],
        true,
    );
    let read_only_admin = s.token("admin", true, false, None);
    for (list, ordering) in secret_orderings() {
        let path = format!("{list}?ordering={ordering}");
        for (who, key) in [("anonymous", None), ("a viewer", Some(viewer.as_str()))] {
            let r = s.send("GET", &path, None, key, &[]);
            assert_eq!(r.status, 400, "{who} {path}: {}", r.text);
            let field = ordering.trim_start_matches('-');
            assert_eq!(
                r.json(),
                json!({"ordering": [format!("Unknown ordering field: {field}.")]}),
                "{who} {path}"
            );
        }
        // A read-only token cannot change the objects, so it does not see their secrets.
        let r = s.send("GET", &path, None, Some(&read_only_admin), &[]);
        assert_eq!(r.status, 400, "read-only {path}: {}", r.text);
        // Who may change them sees them, and may order by them.
        let r = s.get(&path);
        assert_eq!(r.status, 200, "admin {path}: {}", r.text);
    }
}

#[test]
fn a_viewer_still_orders_and_filters_by_what_it_sees() {
    let s = TestServer::start();
    network(&s);
    for path in [
        format!("{SESSIONS}?ordering=-ip_address"),
        format!("{ROUTERS}?ordering=-hostname&name__ic=edge"),
        "/api/core/jobs/?ordering=-created".to_string(),
    ] {
        let r = s.send("GET", &path, None, None, &[]);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
    }
}
