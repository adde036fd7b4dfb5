//! Filters, ordering, related objects, authentication and change records, over HTTP.

use crate::common::builders::autonomous_system;
use crate::common::{column, TestServer, AS};
use serde_json::{json, Value as Json};

fn seed(s: &TestServer) {
    s.create(
        "/api/extras/tags/",
        json!([{"name": "Gold", "slug": "gold"}, {"name": "Silver", "slug": "silver"}]),
    );
    s.create(AS, json!([
        {"asn": 64500, "name": "Alpha Net", "irr_as_set": "AS-ALPHA", "tags": [{"slug": "gold"}, {"slug": "silver"}]},
        {"asn": 64501, "name": "Beta_Net", "tags": [{"slug": "gold"}]},
        {"asn": 65000, "name": "Gamma 100%", "irr_as_set": "", "affiliated": true},
        {"asn": 4200000001_i64, "name": "Delta", "ipv6_max_prefixes": null},
    ]));
}

fn asns(s: &TestServer, query: &str) -> Vec<i64> {
    let r = s.get(&format!("{AS}?{query}"));
    assert_eq!(r.status, 200, "{query}: {}", r.text);
    column(&r.json(), "asn")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

#[test]
fn numeric_and_string_lookups() {
    let s = TestServer::start();
    seed(&s);
    assert_eq!(asns(&s, "asn=64500"), [64500]);
    assert_eq!(asns(&s, "asn=64500&asn=65000"), [64500, 65000]);
    assert_eq!(asns(&s, "asn__n=64500"), [64501, 65000, 4200000001]);
    assert_eq!(asns(&s, "asn__gte=64501&asn__lt=65000"), [64501]);
    assert_eq!(asns(&s, "asn__lte=64501"), [64500, 64501]);
    assert_eq!(asns(&s, "asn__gt=65000"), [4200000001]);
    assert_eq!(asns(&s, "name__ic=NET"), [64500, 64501]);
    assert_eq!(asns(&s, "name__nic=net"), [65000, 4200000001]);
    assert_eq!(asns(&s, "name__isw=alpha"), [64500]);
    assert_eq!(asns(&s, "name__nisw=alpha"), [64501, 65000, 4200000001]);
    assert_eq!(asns(&s, "name__iew=NET"), [64500, 64501]);
    assert_eq!(asns(&s, "name__niew=net"), [65000, 4200000001]);
    assert_eq!(asns(&s, "name__ie=delta"), [4200000001]);
    assert_eq!(asns(&s, "name__nie=delta"), [64500, 64501, 65000]);
    assert_eq!(asns(&s, "name=Delta"), [4200000001]);
    assert_eq!(asns(&s, "name__n=Delta"), [64500, 64501, 65000]);
    // LIKE wildcards in a value match literally.
    assert_eq!(asns(&s, "name__ic=a_n"), [64501]);
    assert_eq!(asns(&s, "name__ic=100%25"), [65000]);
    assert_eq!(asns(&s, "irr_as_set=null"), [64501, 4200000001]);
    assert_eq!(asns(&s, "irr_as_set__n=null"), [64500, 65000]);
    assert_eq!(
        asns(&s, "irr_as_set__empty=true"),
        [64501, 65000, 4200000001]
    );
    assert_eq!(asns(&s, "irr_as_set__empty=false"), [64500]);
    assert_eq!(asns(&s, "ipv6_max_prefixes__empty=true"), [4200000001]);
    assert_eq!(asns(&s, "affiliated=true"), [65000]);
    assert_eq!(
        asns(&s, "asn__gte=64501&name__ic=a"),
        [64501, 65000, 4200000001]
    );
}

#[test]
fn tags_search_and_ordering() {
    let s = TestServer::start();
    seed(&s);
    assert_eq!(asns(&s, "tag=gold"), [64500, 64501]);
    assert_eq!(asns(&s, "tag=gold&tag=silver"), [64500]);
    assert_eq!(asns(&s, "tag__n=gold"), [65000, 4200000001]);
    assert_eq!(asns(&s, "q=alpha"), [64500]);
    assert_eq!(asns(&s, "q=65000"), [65000]);
    assert_eq!(asns(&s, "q=as-alp"), [64500]);
    assert_eq!(asns(&s, "ordering=-asn"), [4200000001, 65000, 64501, 64500]);
    assert_eq!(
        asns(&s, "ordering=-affiliated,name"),
        [65000, 64500, 64501, 4200000001]
    );
    assert_eq!(
        asns(&s, "ordering=ipv6_max_prefixes,-asn"),
        [65000, 64501, 64500, 4200000001]
    );
}

/// `q` as a substring of names and AS-SETs, through the trigram index where the backend
/// has one, following every kind of write.
#[test]
fn free_text_search_follows_writes() {
    let s = TestServer::start();
    seed(&s);
    // Every byte but letters and digits percent-encoded.
    let encode = |q: &str| -> String {
        q.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    let search = |q: &str| asns(&s, &format!("q={}", encode(q)));
    assert_eq!(search("Net"), [64500, 64501]);
    assert_eq!(search("a n"), [64500]);
    assert_eq!(search("beta_"), [64501]);
    assert_eq!(search("100%"), [65000]);
    assert_eq!(search("et"), [64500, 64501], "two characters: no trigram");
    assert_eq!(search("a\"b"), Vec::<i64>::new());
    assert_eq!(search("ALPHA"), [64500]);
    let ids: Vec<Json> = column(&s.get(&format!("{AS}?ordering=asn")).json(), "id");
    let r = s.patch(
        AS,
        json!([
            {"id": ids[2], "name": "Gamma Networks"},
            {"id": ids[3], "irr_as_set": "AS-NETWORKS"},
        ]),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(search("networks"), [65000, 4200000001]);
    assert_eq!(search("gamma 100"), Vec::<i64>::new());
    assert_eq!(s.delete(&format!("{AS}{}/", ids[0]), None).status, 204);
    assert_eq!(search("net"), [64501, 65000, 4200000001]);
    autonomous_system(64999, "Epsilon Net").create(&s);
    assert_eq!(search("lon n"), [64999]);
}

#[test]
fn bad_filters_are_400_naming_the_parameter() {
    let s = TestServer::start();
    seed(&s);
    for (query, param) in [
        ("foo=1", "foo"),
        ("asn=abc", "asn"),
        ("asn__ic=1", "asn__ic"),
        ("affiliated=maybe", "affiliated"),
        ("ordering=nope", "ordering"),
        ("tag=platinum", "tag"),
        ("created__gte=yesterday", "created__gte"),
        ("created_by_request=not-a-uuid", "created_by_request"),
    ] {
        let r = s.get(&format!("{AS}?{query}"));
        assert_eq!(r.status, 400, "{query}: {}", r.text);
        let body = r.json();
        assert!(body[param].is_array(), "{query}: {body}");
    }
    assert_eq!(
        s.get(&format!("{AS}?asn=abc")).json(),
        json!({"asn": ["Enter a whole number."]})
    );
}

#[test]
fn related_objects_by_id_or_attributes() {
    let s = TestServer::start();
    let p = s.create("/api/peering/routing-policies/", json!([{"name": "Import", "slug": "imp"}, {"name": "Export", "slug": "exp", "type": "export-policy"}]));
    s.create(
        "/api/peering/communities/",
        json!([
            {"name": "A", "slug": "a", "value": "65000:1"},
            {"name": "B", "slug": "b", "value": "65000:1"},
        ]),
    );
    let o = s.create(
        AS,
        json!({
            "asn": 1, "name": "x",
            "import_routing_policies": [p[0]["id"]],
            "export_routing_policies": [{"slug": "exp"}],
            "communities": [{"name": "B"}],
        }),
    );
    assert_eq!(o["import_routing_policies"][0]["display"], "Import");
    assert_eq!(
        o["export_routing_policies"][0],
        json!({"id": p[1]["id"], "url": format!("{}/api/peering/routing-policies/{}/", s.base, p[1]["id"]), "display": "Export", "name": "Export", "slug": "exp", "type": "export-policy"})
    );
    assert_eq!(o["communities"][0]["name"], "B");
    let r = s.post(
        AS,
        json!({"asn": 2, "name": "y", "export_routing_policies": [{"slug": "nope"}]}),
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json(),
        json!({"export_routing_policies": ["Related object not found using the provided attributes: {'slug': 'nope'}"]})
    );
    let r = s.post(
        AS,
        json!({"asn": 2, "name": "y", "communities": [{"value": "65000:1"}]}),
    );
    assert_eq!(
        r.json(),
        json!({"communities": ["Multiple objects match the provided attributes: {'value': '65000:1'}"]})
    );
    let r = s.post(
        AS,
        json!({"asn": 2, "name": "y", "import_routing_policies": [9999]}),
    );
    assert_eq!(
        r.json(),
        json!({"import_routing_policies": ["Invalid pk \"9999\" - object does not exist."]})
    );
    let r = s.post(
        AS,
        json!({"asn": 2, "name": "y", "tags": [{"name": "nope"}]}),
    );
    assert_eq!(
        r.json(),
        json!({"tags": [["Related object not found using the provided attributes: {'name': 'nope'}"]]})
    );
    s.create(
        "/api/extras/tags/",
        json!([{"name": "Zeta", "slug": "zeta"}, {"name": "Alpha", "slug": "alpha"}]),
    );
    let tagged = s
        .patch(
            &format!("{AS}{}/", o["id"]),
            json!({"tags": [{"slug": "zeta"}, {"slug": "alpha"}]}),
        )
        .json();
    assert_eq!(
        column(&json!({"results": tagged["tags"]}), "name"),
        [json!("Alpha"), json!("Zeta")]
    );
    let zeta = s.get("/api/extras/tags/?slug=zeta").json();
    assert_eq!(zeta["results"][0]["tagged_items"], 1);
    let zeta_id = zeta["results"][0]["id"].as_i64().unwrap();
    assert_eq!(
        s.get(&format!("/api/extras/tags/{zeta_id}/")).json()["tagged_items"],
        1
    );
    // Deleting a policy in use removes it from the AS (no protection on many-to-many).
    assert_eq!(
        s.delete(
            &format!("/api/peering/routing-policies/{}/", p[0]["id"]),
            None
        )
        .status,
        204
    );
    let after = s.get(&format!("{AS}{}/", o["id"])).json();
    assert_eq!(after["import_routing_policies"], json!([]));
}

#[test]
fn authentication_and_write_permission() {
    let s = TestServer::start();
    let r = s.request("POST", AS, Some(&json!({"asn": 1, "name": "x"})), None, &[]);
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json(),
        json!({"detail": "Authentication credentials were not provided."})
    );
    let bogus = "0".repeat(40);
    let r = s.request("GET", AS, None, Some(&bogus), &[]);
    assert_eq!(r.status, 403);
    assert_eq!(r.json(), json!({"detail": "Invalid token"}));
    let read_only = s.token("admin", true, false, None);
    assert_eq!(
        s.request("GET", AS, None, Some(&read_only), &[]).status,
        200
    );
    let r = s.request(
        "POST",
        AS,
        Some(&json!({"asn": 1, "name": "x"})),
        Some(&read_only),
        &[],
    );
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json(),
        json!({"detail": "You do not have permission to perform this action."})
    );
    let expired = s.token(
        "admin",
        true,
        true,
        Some(chrono::Utc::now() - chrono::Duration::minutes(1)),
    );
    let r = s.request("GET", AS, None, Some(&expired), &[]);
    assert_eq!(r.json(), json!({"detail": "Token expired"}));
    let plain_user = s.token("viewer", false, true, None);
    let r = s.request("DELETE", AS, Some(&json!([])), Some(&plain_user), &[]);
    assert_eq!(r.status, 403);
    // Other schemes leave the request anonymous; anonymous reads are allowed by default.
    let r = s.request("GET", AS, None, None, &[("Authorization", "Bearer abc")]);
    assert_eq!(r.status, 200);

    let locked = TestServer::start_with(peering_api::Settings {
        login_required: true,
        ..Default::default()
    });
    let r = locked.request("GET", AS, None, None, &[]);
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json(),
        json!({"detail": "Authentication credentials were not provided."})
    );
    assert_eq!(locked.get(AS).status, 200);
}

#[test]
fn change_records_by_request() {
    let s = TestServer::start();
    let r = s.post(
        AS,
        json!([{"asn": 1, "name": "a"}, {"asn": 2, "name": "b"}]),
    );
    let request_id = r.header("X-Request-ID").unwrap().to_string();
    let changes = s
        .get(&format!(
            "/api/extras/object-changes/?request_id={request_id}"
        ))
        .json();
    assert_eq!(changes["count"], 2);
    let first = &changes["results"][0];
    assert_eq!(
        first["action"],
        json!({"value": "create", "label": "Created"})
    );
    assert_eq!(first["changed_object_type"], "peering.autonomoussystem");
    assert_eq!(first["user_name"], "admin");
    assert_eq!(first["prechange_data"], Json::Null);
    assert!(first["postchange_data"]["asn"].is_i64());
    // Times in milliseconds, as the reference's serializer stores them:
    // "2026-11-23T19:30:01.123456Z" is kept as "2026-11-23T19:30:01.123Z".
    let object = &r.json()[0];
    let change = changes["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["changed_object_id"] == object["id"])
        .unwrap();
    let shown = object["created"].as_str().unwrap().to_string();
    let stored = change["postchange_data"]["created"].as_str().unwrap();
    assert_eq!(stored, format!("{}Z", &shown[..shown.len() - 4]), "{shown}");
    let created = s
        .get(&format!("{AS}?created_by_request={request_id}"))
        .json();
    assert_eq!(created["count"], 2);

    let id = r.json()[0]["id"].as_i64().unwrap();
    let upd = s.patch(&format!("{AS}{id}/"), json!({"name": "renamed"}));
    let upd_id = upd.header("X-Request-ID").unwrap().to_string();
    let c = s
        .get(&format!("/api/extras/object-changes/?request_id={upd_id}"))
        .json();
    assert_eq!(c["results"][0]["prechange_data"]["name"], "a");
    assert_eq!(c["results"][0]["postchange_data"]["name"], "renamed");
    assert_eq!(
        s.get(&format!("{AS}?updated_by_request={upd_id}")).json()["count"],
        1
    );

    let del = s.delete(&format!("{AS}{id}/"), None);
    let del_id = del.header("X-Request-ID").unwrap().to_string();
    let c = s
        .get(&format!(
            "/api/extras/object-changes/?request_id={del_id}&action=delete"
        ))
        .json();
    assert_eq!(c["count"], 1);
    assert_eq!(c["results"][0]["changed_object_id"], id);
    assert_eq!(
        s.get("/api/extras/object-changes/?action=create").json()["count"],
        2
    );
    assert_eq!(
        s.get(&format!(
            "/api/extras/object-changes/?changed_object_id={id}"
        ))
        .json()["count"],
        3
    );
    let oc = "/api/extras/object-changes/";
    assert_eq!(s.get(&format!("{oc}?user=admin")).json()["count"], 4);
    assert_eq!(s.get(&format!("{oc}?user=nobody")).json()["count"], 0);
    assert_eq!(
        s.get(&format!(
            "{oc}?changed_object_type=peering.autonomoussystem"
        ))
        .json()["count"],
        4
    );
    assert_eq!(
        s.get(&format!("{oc}?time__gte=2000-01-01T00:00:00Z"))
            .json()["count"],
        4
    );
    assert_eq!(
        s.get(&format!("{oc}?time__lte=2000-01-01")).json()["count"],
        0
    );
    assert_eq!(s.get(&format!("{oc}?q=renamed")).json()["count"], 2);
    // Newest first.
    let times: Vec<Json> = column(&s.get(oc).json(), "time");
    assert!(
        times.windows(2).all(|w| w[0].as_str() >= w[1].as_str()),
        "{times:?}"
    );
    // Change records are read-only.
    assert_eq!(s.post("/api/extras/object-changes/", json!({})).status, 405);
}

/// A server that keeps no object rendered (`object_texts.rs`): its reads show what
/// rendering an answer costs.
fn rendering_every_object() -> TestServer {
    TestServer::start_with(peering_api::Settings {
        object_texts_bytes: 0,
        ..peering_api::Settings::default()
    })
}

#[test]
fn a_list_costs_a_fixed_number_of_queries() {
    let s = rendering_every_object();
    s.create("/api/extras/tags/", json!([{"name": "T", "slug": "t"}]));
    s.create(
        "/api/peering/communities/",
        json!([{"name": "C", "slug": "c", "value": "1:1"}]),
    );
    s.create(
        "/api/peering/routing-policies/",
        json!([{"name": "P", "slug": "p"}]),
    );
    let items: Vec<Json> = (1..=60)
        .map(|i| json!({"asn": i, "name": format!("n{i}"), "tags": [{"slug": "t"}], "communities": [{"slug": "c"}], "import_routing_policies": [{"slug": "p"}]}))
        .collect();
    s.create(AS, Json::Array(items));
    let cost = |query: &str| {
        let before = s.store.queries_executed();
        assert_eq!(s.get(&format!("{AS}?{query}")).status, 200);
        s.store.queries_executed() - before
    };
    // The first read also reads the related objects, kept for the next (`kept.rs`): one
    // statement per related resource.
    let first = cost("limit=2&asn__gte=0");
    let small = cost("limit=2");
    assert_eq!(first, small + 3, "tags, communities and policies kept");
    // Another list (the same objects), so that it is counted too (`counts.rs`).
    let large = cost("limit=50&asn__gte=1");
    assert_eq!(small, large, "queries grow with the page size");
    // (Reads of the tables' versions, the keys of the answer cache, are counted apart.)
    assert!(large <= 6, "{large} queries for one page");
}

#[test]
fn a_detail_reads_what_it_points_to_with_its_row_and_shows_what_a_list_shows() {
    let s = rendering_every_object();
    crate::common::network::network(&s);
    let cost = |path: &str| {
        let before = s.store.queries_executed();
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}");
        (s.store.queries_executed() - before, r.json())
    };
    // A detail is shown as the list shows it, though it reads the objects it points to
    // and its lists in its own statement, and the list in one per related resource.
    let path_of = |url: &Json| -> Option<String> {
        let url = url.as_str()?;
        url.strip_prefix(&s.base).map(str::to_string)
    };
    let root = s.get("/api/").json();
    let mut compared = 0;
    for app in root.as_object().unwrap().values().filter_map(path_of) {
        for list in s
            .get(&app)
            .json()
            .as_object()
            .unwrap()
            .values()
            .filter_map(path_of)
        {
            let page = s.get(&format!("{list}?limit=0"));
            let Some(items) = page.json()["results"].as_array().cloned() else {
                continue;
            };
            for item in items {
                let path = path_of(&item["url"]).unwrap();
                assert_eq!(s.get(&path).json(), item, "{path}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "{compared} objects compared");
    // A session with no relation: its row with its AS, its connection, the connection's
    // exchange and router, where each related resource cost a statement.
    let sessions = s
        .get("/api/peering/internet-exchange-peering-sessions/?ip_address=192.0.2.20")
        .json();
    let id = sessions["results"][0]["id"].as_i64().unwrap();
    let (statements, detail) = cost(&format!(
        "/api/peering/internet-exchange-peering-sessions/{id}/"
    ));
    // The connection's label reads its exchange and its router, joined too.
    assert_eq!(detail["ixp_connection"]["display"], "Example IX on edge1");
    assert_eq!(detail["autonomous_system"]["asn"], 65002);
    // One statement: its row, what it points to, its (empty) lists and the versions.
    assert_eq!(statements, 1, "statements for a session");
}
