//! The JSON bodies actions take and answer, beside the resources' models: one type per
//! shape, shared by the server's handlers, the OpenAPI document (a test there holds each
//! type to its component) and `peering-client`.
//!
//! A body the server reads is read by `from_json`, which answers what is wrong in the
//! reference's words (the body of a 400), rather than by serde's own messages.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};

/// `POST autonomous-systems/{id}/generate-email/`: the e-mail template to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailToRender {
    pub email: i64,
}

impl EmailToRender {
    /// The body as the server reads it; `Err` is the 400's body.
    pub fn from_json(body: &Json) -> Result<Self, Json> {
        Ok(Self {
            email: required_id(body, "email")?,
        })
    }
}

/// `POST autonomous-systems/{id}/send-email/`: the e-mail template to send, to whom, and
/// whom in carbon copy. No recipients: the autonomous system's contacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailToSend {
    pub email: i64,
    #[serde(default)]
    pub recipients: Vec<String>,
    #[serde(default)]
    pub cc: Vec<String>,
}

/// The longest e-mail address taken (RFC 3696's 254, with a name around it).
pub const MAX_ADDRESS_LEN: usize = 320;

/// The most addresses a list of a body may hold.
pub const MAX_LISTED_ADDRESSES: usize = 100;

impl EmailToSend {
    /// The body as the server reads it: `email` an id, `recipients` and `cc` lists of
    /// strings or absent; `Err` is the 400's body. Whether each string is an address is
    /// the application's to say.
    pub fn from_json(body: &Json) -> Result<Self, Json> {
        Ok(Self {
            email: required_id(body, "email")?,
            recipients: address_list(body, "recipients")?,
            cc: address_list(body, "cc")?,
        })
    }
}

/// The list of strings `name` of a body (absent or null: empty), each trimmed, within
/// the bounds.
fn address_list(body: &Json, name: &str) -> Result<Vec<String>, Json> {
    let items = match body.get(name) {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(items)) => items,
        Some(_) => return Err(json!({ name: ["Expected a list of e-mail addresses."] })),
    };
    if items.len() > MAX_LISTED_ADDRESSES {
        return Err(json!({ name: [format!("At most {MAX_LISTED_ADDRESSES} addresses.")] }));
    }
    items
        .iter()
        .map(|item| match item.as_str().map(str::trim) {
            Some(text) if !text.is_empty() && text.len() <= MAX_ADDRESS_LEN => Ok(text.to_string()),
            _ => Err(json!({ name: ["Enter a valid email address."] })),
        })
        .collect()
}

/// `POST peeringdb/networks/render-email/`: the e-mail template, which of our autonomous
/// systems it is from, and the PeeringDB network it is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetworkEmailToRender {
    pub email: i64,
    pub autonomous_system: i64,
    pub network: i64,
}

impl NetworkEmailToRender {
    /// The body as the server reads it; `Err` is the 400's body (the first member wrong).
    pub fn from_json(body: &Json) -> Result<Self, Json> {
        Ok(Self {
            email: required_id(body, "email")?,
            autonomous_system: required_id(body, "autonomous_system")?,
            network: required_id(body, "network")?,
        })
    }
}

/// The integer member `name` of a body, or the field error the reference gives.
fn required_id(body: &Json, name: &str) -> Result<i64, Json> {
    match body.get(name) {
        None | Some(Json::Null) => Err(json!({ name: ["This field is required."] })),
        Some(value) => value
            .as_i64()
            .ok_or_else(|| json!({ name: ["A valid integer is required."] })),
    }
}

/// `POST routers/configure/`: the routers to push their configuration to, and whether to
/// commit it (false unless given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutersToConfigure {
    pub routers: Vec<i64>,
    #[serde(default)]
    pub commit: bool,
    /// With `commit`, on a daemon that offers it (BIRD): the router rolls the commit back
    /// by itself unless `routers/{id}/confirm-configuration/` comes within these seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm_within: Option<u64>,
}

impl RoutersToConfigure {
    /// The body as the server reads it: `routers` a non-empty list of ids, `commit` a
    /// boolean or absent; `Err` is the 400's body.
    pub fn from_json(body: &Json) -> Result<Self, Json> {
        let routers = body.get("routers").and_then(Json::as_array);
        let ids: Option<Vec<i64>> =
            routers.and_then(|list| list.iter().map(Json::as_i64).collect());
        let Some(routers) = ids else {
            return Err(json!({"routers": ["Expected a list of router ids."]}));
        };
        if routers.is_empty() {
            return Err(json!(["routers list must not be empty"]));
        }
        let commit = match body.get("commit") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(_) => return Err(json!({"commit": ["Must be a valid boolean."]})),
        };
        let confirm_within = confirm_within(body.get("confirm_within"), commit)?;
        Ok(Self {
            routers,
            commit,
            confirm_within,
        })
    }
}

/// The longest a commit may wait for its confirmation: a day.
pub const MAX_CONFIRM_WITHIN: u64 = 86_400;

/// `confirm_within`: absent, or a number of seconds from 1 to a day, with `commit` only.
fn confirm_within(value: Option<&Json>, commit: bool) -> Result<Option<u64>, Json> {
    let seconds = match value {
        None | Some(Json::Null) => return Ok(None),
        Some(value) => value
            .as_u64()
            .filter(|s| (1..=MAX_CONFIRM_WITHIN).contains(s)),
    };
    let Some(seconds) = seconds else {
        return Err(json!({"confirm_within": [
            format!("Must be a number of seconds from 1 to {MAX_CONFIRM_WITHIN}.")
        ]}));
    };
    if !commit {
        return Err(json!({"confirm_within": ["Only with \"commit\": true."]}));
    }
    Ok(Some(seconds))
}

/// An e-mail rendered from a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderedEmail {
    pub subject: String,
    pub body: String,
}

/// An export template rendered now (`render-synchronous`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderedExport {
    pub rendered: String,
}

/// `encrypt-password`'s answer: the session's password is encrypted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PasswordEncrypted {
    pub encrypted: bool,
}

/// The prefixes stored for an autonomous system's AS-SET, by family, each entry as bgpq4
/// wrote it (`{"prefix", "exact", "greater-equal"?, "less-equal"?}`), as the reference
/// stores them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prefixes {
    pub ipv6: Vec<Json>,
    pub ipv4: Vec<Json>,
}

/// An exchange's prefixes as the reference shows them (`internet-exchanges/{id}/prefixes/`,
/// and stored on the exchange): by family, a key only for a family that has some.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExchangePrefixes {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ipv6: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ipv4: Vec<String>,
}

impl ExchangePrefixes {
    /// The prefixes split by family, each family in the order given.
    pub fn of(prefixes: &[String]) -> Self {
        let (ipv6, ipv4) = prefixes.iter().cloned().partition(|p| p.contains(':'));
        Self { ipv6, ipv4 }
    }
}

/// `cache/clear-local/`'s answer: `"success"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheCleared {
    pub status: String,
}

/// `cache/statistics/`: how many objects of each type the local PeeringDB copy holds and
/// how many synchronisations it has had, by the reference's names (`net-count`, …), in
/// the reference's order. Types the copy does not keep (carriers) count 0.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheStatistics {
    #[serde(rename = "campus-count")]
    pub campus: i64,
    #[serde(rename = "carrier-count")]
    pub carrier: i64,
    #[serde(rename = "carrierfac-count")]
    pub carrierfac: i64,
    #[serde(rename = "fac-count")]
    pub fac: i64,
    #[serde(rename = "ix-count")]
    pub ix: i64,
    #[serde(rename = "ixfac-count")]
    pub ixfac: i64,
    #[serde(rename = "ixlan-count")]
    pub ixlan: i64,
    #[serde(rename = "ixpfx-count")]
    pub ixpfx: i64,
    #[serde(rename = "net-count")]
    pub net: i64,
    #[serde(rename = "poc-count")]
    pub poc: i64,
    #[serde(rename = "netfac-count")]
    pub netfac: i64,
    #[serde(rename = "netixlan-count")]
    pub netixlan: i64,
    #[serde(rename = "org-count")]
    pub org: i64,
    #[serde(rename = "sync-count")]
    pub sync: i64,
}

impl CacheStatistics {
    /// From counts by PeeringDB namespace (`net`, `sync`, …); a namespace absent counts 0.
    pub fn from_counts(counts: &[(&str, i64)]) -> Self {
        let count = |namespace: &str| {
            counts
                .iter()
                .find(|(n, _)| *n == namespace)
                .map_or(0, |(_, c)| *c)
        };
        Self {
            campus: count("campus"),
            carrier: count("carrier"),
            carrierfac: count("carrierfac"),
            fac: count("fac"),
            ix: count("ix"),
            ixfac: count("ixfac"),
            ixlan: count("ixlan"),
            ixpfx: count("ixpfx"),
            net: count("net"),
            poc: count("poc"),
            netfac: count("netfac"),
            netixlan: count("netixlan"),
            org: count("org"),
            sync: count("sync"),
        }
    }
}

/// A message: what a poll updated, or why a request failed (the `Detail` component).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_read_with_the_references_errors() {
        assert_eq!(
            EmailToRender::from_json(&json!({"email": 3})),
            Ok(EmailToRender { email: 3 })
        );
        assert_eq!(
            EmailToRender::from_json(&json!({"email": "x"})),
            Err(json!({"email": ["A valid integer is required."]}))
        );
        assert_eq!(
            NetworkEmailToRender::from_json(&json!({"email": 1, "network": 2})),
            Err(json!({"autonomous_system": ["This field is required."]}))
        );
        assert_eq!(
            RoutersToConfigure::from_json(&json!({"routers": [1, 2]})),
            Ok(RoutersToConfigure {
                routers: vec![1, 2],
                commit: false,
                confirm_within: None,
            })
        );
        assert_eq!(
            RoutersToConfigure::from_json(&json!({"routers": []})),
            Err(json!(["routers list must not be empty"]))
        );
        assert_eq!(
            RoutersToConfigure::from_json(&json!({"routers": [1], "commit": "yes"})),
            Err(json!({"commit": ["Must be a valid boolean."]}))
        );
        let with = |body| RoutersToConfigure::from_json(&body).map(|b| b.confirm_within);
        assert_eq!(
            with(json!({"routers": [1], "commit": true, "confirm_within": 60})),
            Ok(Some(60))
        );
        for bad in [json!(0), json!(-5), json!("60"), json!(86_401), json!(1.5)] {
            let body = json!({"routers": [1], "commit": true, "confirm_within": bad});
            assert!(with(body).is_err(), "{bad} is refused");
        }
        assert!(with(json!({"routers": [1], "confirm_within": 60})).is_err());
    }
}
