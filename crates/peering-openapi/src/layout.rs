//! Where the API serves its resources: the applications under `/api/`, the resources under
//! each (in the 1.8 layout, and again where 1.10 moved them), the links an application root
//! lists beyond its resources, and peeringd's own API version.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use peering_domain::resources::{ALIASES, ALL};
use peering_domain::ResourceSpec;

/// Applications by name, with their resources by path.
pub type Apps = BTreeMap<&'static str, Vec<(&'static str, &'static ResourceSpec)>>;

/// Links an application root lists beyond its resources: endpoints with handlers of their
/// own (API tokens, user preferences).
pub fn extra_links(app: &str) -> &'static [&'static str] {
    match app {
        "users" => &["tokens", "userpref"],
        _ => &[],
    }
}

/// Applications served, with the resources under each (by their path there): each
/// resource where the 1.8 layout serves it and, for those that moved, where 1.10 does.
pub fn apps() -> Apps {
    let mut apps: BTreeMap<&str, Vec<_>> = BTreeMap::new();
    for spec in ALL.iter().copied() {
        apps.entry(spec.app).or_default().push((spec.path, spec));
    }
    for alias in ALIASES {
        apps.entry(alias.app)
            .or_default()
            .push((alias.path, alias.spec));
    }
    apps
}

/// `major.minor` of the package version: a version `Accept` may name besides the
/// reference's (`API-Version` names the reference release of the request's layout).
pub fn api_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let v = env!("CARGO_PKG_VERSION");
        v.splitn(3, '.').take(2).collect::<Vec<_>>().join(".")
    })
}
