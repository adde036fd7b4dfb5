//! The two layouts of the API (the reference's 1.8 and 1.10 releases): where each serves
//! a resource, the version each names in `API-Version`, so that the links of an answer
//! name the paths of the layout the request came through.

use super::ALIASES;
use crate::spec::ResourceSpec;

/// The reference release whose paths and version an answer follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// 1.8: routers and communities under `/api/peering/`, object changes under
    /// `/api/extras/`. Requests that say nothing are answered in it.
    #[default]
    V1_8,
    /// 1.9 and 1.10: routers under `/api/devices/`, object changes under `/api/core/`,
    /// communities under `/api/bgp/`.
    V1_10,
}

impl Layout {
    /// The layout a client names in `Accept` (`version=1.10`): none for a version that is
    /// not one of the reference's.
    pub fn of_version(version: &str) -> Option<Layout> {
        match version {
            "1.8" => Some(Layout::V1_8),
            "1.9" | "1.10" => Some(Layout::V1_10),
            _ => None,
        }
    }

    /// The layout whose own path `/api/<app>/<path>/` is: 1.10 for the paths only it
    /// has (where it moved resources), none for a path both serve.
    pub fn of_path(app: &str, path: &str) -> Option<Layout> {
        ALIASES
            .iter()
            .any(|a| a.app == app && a.path == path)
            .then_some(Layout::V1_10)
    }

    /// `major.minor` of the release, as its `API-Version` header says.
    pub fn api_version(self) -> &'static str {
        match self {
            Layout::V1_8 => "1.8",
            Layout::V1_10 => "1.10",
        }
    }

    /// The release whose API this layout answers as.
    pub fn release(self) -> &'static str {
        match self {
            Layout::V1_8 => "1.8.3",
            Layout::V1_10 => "1.10.4",
        }
    }

    /// Where this layout serves `spec`: its application and collection path.
    pub fn place(self, spec: &'static ResourceSpec) -> (&'static str, &'static str) {
        let moved = match self {
            Layout::V1_8 => None,
            Layout::V1_10 => ALIASES.iter().find(|a| std::ptr::eq(a.spec, spec)),
        };
        moved.map_or((spec.app, spec.path), |a| (a.app, a.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{AUTONOMOUS_SYSTEM, COMMUNITY, OBJECT_CHANGE, ROUTER};

    #[test]
    fn each_layout_names_its_own_paths() {
        assert_eq!(Layout::V1_8.place(&ROUTER), ("peering", "routers"));
        assert_eq!(Layout::V1_10.place(&ROUTER), ("devices", "routers"));
        assert_eq!(
            Layout::V1_10.place(&OBJECT_CHANGE),
            ("core", "object-changes")
        );
        assert_eq!(Layout::V1_10.place(&COMMUNITY), ("bgp", "communities"));
        for layout in [Layout::V1_8, Layout::V1_10] {
            assert_eq!(
                layout.place(&AUTONOMOUS_SYSTEM),
                ("peering", "autonomous-systems")
            );
        }
    }

    #[test]
    fn only_moved_paths_and_named_versions_choose_a_layout() {
        assert_eq!(Layout::of_path("devices", "routers"), Some(Layout::V1_10));
        assert_eq!(Layout::of_path("peering", "routers"), None);
        assert_eq!(Layout::of_version("1.10"), Some(Layout::V1_10));
        assert_eq!(Layout::of_version("1.8"), Some(Layout::V1_8));
        assert_eq!(Layout::of_version("0.1"), None);
    }
}
