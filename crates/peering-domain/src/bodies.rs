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
        Ok(Self { routers, commit })
    }
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

/// The prefixes stored for an autonomous system's AS-SET, by family (each as the import
/// stored it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prefixes {
    pub ipv6: Vec<Json>,
    pub ipv4: Vec<Json>,
}

/// `cache/clear-local/`'s answer: `"success"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheCleared {
    pub status: String,
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
                commit: false
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
    }
}
