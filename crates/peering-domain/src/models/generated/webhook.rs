//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `HTTP_METHOD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HttpMethod {
    /// "GET"
    #[serde(rename = "GET")]
    Get,
    /// "POST"
    #[serde(rename = "POST")]
    Post,
    /// "PUT"
    #[serde(rename = "PUT")]
    Put,
    /// "PATCH"
    #[serde(rename = "PATCH")]
    Patch,
    /// "DELETE"
    #[serde(rename = "DELETE")]
    Delete,
}

impl HttpMethod {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Put => "PUT",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Delete => "DELETE",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Put => "PUT",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Delete => "DELETE",
        }
    }
}

impl ChoiceValue for HttpMethod {
    fn as_str(self) -> &'static str {
        HttpMethod::as_str(self)
    }
}

/// A webhook, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Content types
    pub content_types: Vec<String>,
    /// Name
    pub name: String,
    /// On create
    pub type_create: bool,
    /// On update
    pub type_update: bool,
    /// On delete
    pub type_delete: bool,
    /// URL
    pub payload_url: String,
    /// Enabled
    pub enabled: bool,
    /// HTTP method
    pub http_method: HttpMethod,
    /// HTTP content type
    pub http_content_type: String,
    /// Additional headers
    pub additional_headers: String,
    /// Body template
    pub body_template: String,
    /// Secret
    pub secret: Option<String>,
    /// Conditions
    pub conditions: serde_json::Value,
    /// SSL verification
    pub ssl_verification: bool,
    /// CA file path
    pub ca_file_path: Option<String>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The brief form of a webhook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BriefWebhook {
    pub id: i64,
    pub name: String,
    pub url: String,
}

/// The form nested in other objects of a webhook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedWebhook {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The filters of webhook lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct WebhookFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub type_create: BoolFilter,
    pub type_update: BoolFilter,
    pub type_delete: BoolFilter,
    pub enabled: BoolFilter,
    pub http_method: ChoiceFilter<HttpMethod>,
    pub http_content_type: TextFilter,
    pub secret: TextFilter,
    pub ssl_verification: BoolFilter,
    pub ca_file_path: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl WebhookFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        type_create: BoolFilter("type_create"),
        type_update: BoolFilter("type_update"),
        type_delete: BoolFilter("type_delete"),
        enabled: BoolFilter("enabled"),
        http_method: ChoiceFilter::new("http_method"),
        http_content_type: TextFilter("http_content_type"),
        secret: TextFilter("secret"),
        ssl_verification: BoolFilter("ssl_verification"),
        ca_file_path: TextFilter("ca_file_path"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for Webhook {
    type Brief = BriefWebhook;
    type Filters = WebhookFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[20]
    }
    fn filters() -> WebhookFilters {
        WebhookFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a webhook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableWebhook {
    /// Content types
    pub content_types: Vec<String>,
    /// Name
    pub name: String,
    /// On create
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_create: Option<bool>,
    /// On update
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_update: Option<bool>,
    /// On delete
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_delete: Option<bool>,
    /// URL
    pub payload_url: String,
    /// Enabled
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// HTTP method
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_method: Option<HttpMethod>,
    /// HTTP content type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_content_type: Option<String>,
    /// Additional headers
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_headers: Option<String>,
    /// Body template
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_template: Option<String>,
    /// Secret
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Conditions
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<serde_json::Value>,
    /// SSL verification
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssl_verification: Option<bool>,
    /// CA file path
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_file_path: Option<String>,
}

impl WritableWebhook {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(content_types: Vec<String>, name: String, payload_url: String) -> Self {
        Self {
            content_types,
            name,
            type_create: None,
            type_update: None,
            type_delete: None,
            payload_url,
            enabled: None,
            http_method: None,
            http_content_type: None,
            additional_headers: None,
            body_template: None,
            secret: None,
            conditions: None,
            ssl_verification: None,
            ca_file_path: None,
        }
    }
}

impl Writable for WritableWebhook {
    fn spec() -> &'static ResourceSpec {
        ALL[20]
    }
}

/// The body of a partial update of a webhook: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchWebhook {
    /// Content types
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_types: Option<Vec<String>>,
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// On create
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_create: Option<bool>,
    /// On update
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_update: Option<bool>,
    /// On delete
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_delete: Option<bool>,
    /// URL
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_url: Option<String>,
    /// Enabled
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// HTTP method
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_method: Option<HttpMethod>,
    /// HTTP content type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_content_type: Option<String>,
    /// Additional headers
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_headers: Option<String>,
    /// Body template
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_template: Option<String>,
    /// Secret
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Conditions
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<serde_json::Value>,
    /// SSL verification
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssl_verification: Option<bool>,
    /// CA file path
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ca_file_path: Option<Option<String>>,
}

impl Editable for Webhook {
    type Writable = WritableWebhook;
    type Patch = PatchWebhook;
}
