//! The generic routes, `/api/{app}/`, `/api/{app}/{model}/`, `/api/{app}/{model}/{id}/` and
//! `/api/{app}/{model}/{id}/{action}/`, matched by splitting the path once.
//!
//! As actix patterns, each of the four ran a regular expression over the path of every
//! request that reached it, one after the other: about 5% of the time of a detail (the
//! `regex_lite` matcher in a profile of `as_detail`).

use actix_web::HttpRequest;

/// A path that one of the generic routes serves, its segments as the router decoded them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiPath<'a> {
    pub app: &'a str,
    pub model: Option<&'a str>,
    pub id: Option<&'a str>,
    pub action: Option<&'a str>,
}

impl<'a> ApiPath<'a> {
    /// `path` below the base path: `/api/`, then one to four non-empty segments, each
    /// followed by a slash. Anything else is not a generic route.
    pub fn parse(path: &'a str) -> Option<ApiPath<'a>> {
        let inner = path.strip_prefix("/api/")?.strip_suffix('/')?;
        let mut segments = inner.split('/');
        let mut next = || segments.next();
        let app = next().filter(|s| !s.is_empty())?;
        let (model, id, action) = (next(), next(), next());
        if next().is_some() || [model, id, action].contains(&Some("")) {
            return None;
        }
        Some(ApiPath {
            app,
            model,
            id,
            action,
        })
    }

    /// The generic route of a request, if it took one.
    pub fn of(req: &'a HttpRequest) -> Option<ApiPath<'a>> {
        // The path as the router matches it (percent-encoded unreserved characters
        // decoded), below the base path.
        let routed = req.match_info().as_str();
        let below_base = match routed.strip_prefix(crate::respond::base_path(req)) {
            Some(rest) if rest.starts_with('/') => rest,
            _ => routed,
        };
        ApiPath::parse(below_base)
    }

    /// The route's pattern, as a label of few values.
    pub fn pattern(&self) -> &'static str {
        match (self.model, self.id, self.action) {
            (None, _, _) => "/api/{app}/",
            (Some(_), None, _) => "/api/{app}/{model}/",
            (Some(_), Some(_), None) => "/api/{app}/{model}/{id}/",
            (Some(_), Some(_), Some(_)) => "/api/{app}/{model}/{id}/{action}/",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ApiPath;

    type Segments<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<&'a str>);

    fn parsed(path: &str) -> Option<Segments<'_>> {
        ApiPath::parse(path).map(|p| (p.app, p.model, p.id, p.action))
    }

    #[test]
    fn one_to_four_segments_each_ending_in_a_slash() {
        assert_eq!(parsed("/api/peering/"), Some(("peering", None, None, None)));
        assert_eq!(
            parsed("/api/peering/autonomous-systems/"),
            Some(("peering", Some("autonomous-systems"), None, None))
        );
        assert_eq!(
            parsed("/api/peering/autonomous-systems/7/"),
            Some(("peering", Some("autonomous-systems"), Some("7"), None))
        );
        assert_eq!(
            parsed("/api/peering/autonomous-systems/7/sync-with-peeringdb/"),
            Some((
                "peering",
                Some("autonomous-systems"),
                Some("7"),
                Some("sync-with-peeringdb")
            ))
        );
    }

    #[test]
    fn other_paths_take_no_generic_route() {
        for path in [
            "/api/",
            "/api",
            "/api/peering",
            "/api//",
            "/api//autonomous-systems/",
            "/api/peering//",
            "/api/peering/autonomous-systems//",
            "/api/peering/autonomous-systems/7",
            "/api/peering/autonomous-systems/7/a/b/",
            "/other/peering/",
            "",
        ] {
            assert_eq!(ApiPath::parse(path), None, "{path}");
        }
    }

    #[test]
    fn each_shape_has_its_pattern() {
        let pattern = |path| ApiPath::parse(path).map(|p| p.pattern());
        assert_eq!(pattern("/api/a/"), Some("/api/{app}/"));
        assert_eq!(pattern("/api/a/b/"), Some("/api/{app}/{model}/"));
        assert_eq!(pattern("/api/a/b/1/"), Some("/api/{app}/{model}/{id}/"));
        assert_eq!(
            pattern("/api/a/b/1/c/"),
            Some("/api/{app}/{model}/{id}/{action}/")
        );
    }
}
