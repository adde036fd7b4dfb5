//! Pagination parameters and the `next` / `previous` links of a list.

/// The server's bounds on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLimits {
    /// The most objects a page holds; 0 for no maximum.
    pub max_page_size: i64,
    /// The objects a page holds when the request does not say.
    pub paginate_count: i64,
}

/// The page a request asks for, after the server's limits are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// `None` reads every object (only when the maximum page size is removed).
    pub limit: Option<i64>,
    pub offset: i64,
}

fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

impl PageRequest {
    /// Reads `limit` and `offset`: a garbage or negative limit means the default,
    /// `limit=0` means the maximum (all objects only when there is no maximum).
    pub fn from_query(pairs: &[(String, String)], settings: PageLimits) -> PageRequest {
        let max = settings.max_page_size;
        let default = settings.paginate_count.max(1);
        let limit = match param(pairs, "limit").map(|v| v.trim().parse::<i64>()) {
            Some(Ok(0)) => {
                if max > 0 {
                    Some(max)
                } else {
                    None
                }
            }
            Some(Ok(n)) if n > 0 => Some(if max > 0 { n.min(max) } else { n }),
            _ => Some(if max > 0 { default.min(max) } else { default }),
        };
        let offset = param(pairs, "offset")
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|o| *o >= 0)
            .unwrap_or(0);
        PageRequest { limit, offset }
    }

    /// Links to the next and previous pages, keeping every other parameter (repeated ones
    /// included) in its place.
    pub fn links(
        &self,
        base_url: &str,
        pairs: &[(String, String)],
        count: i64,
    ) -> (Option<String>, Option<String>) {
        let Some(limit) = self.limit else {
            return (None, None);
        };
        // `offset` comes from the client, up to `i64::MAX`.
        let end = self.offset.saturating_add(limit);
        let next = (end < count).then(|| with_window(base_url, pairs, limit, Some(end)));
        let previous = (self.offset > 0).then(|| {
            let prev = (self.offset - limit).max(0);
            with_window(base_url, pairs, limit, (prev > 0).then_some(prev))
        });
        (next, previous)
    }
}

/// A query key or value as DRF's next and previous links write it (`urlencode`): spaces as
/// `+`, separators and non-ASCII bytes escaped.
fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn with_window(base: &str, pairs: &[(String, String)], limit: i64, offset: Option<i64>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut limit_done = false;
    let mut offset_done = false;
    for (k, v) in pairs {
        match k.as_str() {
            "limit" => {
                if !limit_done {
                    parts.push(format!("limit={limit}"));
                    limit_done = true;
                }
            }
            "offset" => {
                if let (false, Some(o)) = (offset_done, offset) {
                    parts.push(format!("offset={o}"));
                }
                offset_done = true;
            }
            _ => parts.push(format!("{}={}", encode(k), encode(v))),
        }
    }
    if !limit_done {
        parts.push(format!("limit={limit}"));
    }
    if let (false, Some(o)) = (offset_done, offset) {
        parts.push(format!("offset={o}"));
    }
    format!("{base}?{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(max: i64) -> PageLimits {
        PageLimits {
            paginate_count: 50,
            max_page_size: max,
        }
    }

    fn q(s: &str) -> Vec<(String, String)> {
        form_urlencoded::parse(s.as_bytes()).into_owned().collect()
    }

    #[test]
    fn limits() {
        let s = settings(1000);
        assert_eq!(PageRequest::from_query(&q(""), s).limit, Some(50));
        assert_eq!(
            PageRequest::from_query(&q("limit=5000"), s).limit,
            Some(1000)
        );
        assert_eq!(PageRequest::from_query(&q("limit=0"), s).limit, Some(1000));
        assert_eq!(PageRequest::from_query(&q("limit=-3"), s).limit, Some(50));
        assert_eq!(PageRequest::from_query(&q("limit=abc"), s).limit, Some(50));
        assert_eq!(
            PageRequest::from_query(&q("limit=0"), settings(0)).limit,
            None
        );
        assert_eq!(PageRequest::from_query(&q("offset=-1"), s).offset, 0);
    }

    #[test]
    fn links_keep_every_parameter() {
        let p = PageRequest {
            limit: Some(10),
            offset: 10,
        };
        let pairs = q("tag=a&limit=10&tag=b&offset=10&name__ic=x%20y%25&ordering=-asn,name");
        let (next, prev) = p.links("http://h/api/x/", &pairs, 35);
        assert_eq!(
            next.as_deref(),
            Some("http://h/api/x/?tag=a&limit=10&tag=b&offset=20&name__ic=x+y%25&ordering=-asn%2Cname")
        );
        assert_eq!(
            prev.as_deref(),
            Some("http://h/api/x/?tag=a&limit=10&tag=b&name__ic=x+y%25&ordering=-asn%2Cname")
        );
        let last = PageRequest {
            limit: Some(10),
            offset: 30,
        };
        assert_eq!(last.links("b", &pairs, 35).0, None);
    }
}
