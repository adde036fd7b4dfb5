//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An user, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Username
    pub username: String,
    /// First name
    pub first_name: String,
    /// Last name
    pub last_name: String,
    /// Email address
    pub email: String,
    /// Staff status
    pub is_staff: bool,
    /// Active
    pub is_active: bool,
    /// Date joined
    pub date_joined: Timestamp,
    /// Groups
    pub groups: Vec<NestedGroup>,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    pub permissions: serde_json::Value,
}

/// The form nested in other objects of an user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedUser {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub username: String,
}

/// The brief form, which is the nested form.
pub type BriefUser = NestedUser;

/// The filters of user lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct UserFilters {
    pub id: NumberFilter,
    pub username: TextFilter,
    pub first_name: TextFilter,
    pub last_name: TextFilter,
    pub email: TextFilter,
    pub is_staff: BoolFilter,
    pub is_active: BoolFilter,
    pub group_id: RelationFilter,
    pub group: ValueFilter,
}

impl UserFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        username: TextFilter("username"),
        first_name: TextFilter("first_name"),
        last_name: TextFilter("last_name"),
        email: TextFilter("email"),
        is_staff: BoolFilter("is_staff"),
        is_active: BoolFilter("is_active"),
        group_id: RelationFilter("group_id"),
        group: ValueFilter("group"),
    };
}

impl Model for User {
    type Brief = BriefUser;
    type Filters = UserFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[28]
    }
    fn filters() -> UserFilters {
        UserFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableUser {
    /// Username
    pub username: String,
    /// Password
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// First name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Email address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Staff status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_staff: Option<bool>,
    /// Active
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_active: Option<bool>,
    /// Groups
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<i64>>,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<serde_json::Value>,
}

impl WritableUser {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(username: String) -> Self {
        Self {
            username,
            password: None,
            first_name: None,
            last_name: None,
            email: None,
            is_staff: None,
            is_active: None,
            groups: None,
            permissions: None,
        }
    }
}

impl Writable for WritableUser {
    fn spec() -> &'static ResourceSpec {
        ALL[28]
    }
}

/// The body of a partial update of an user: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchUser {
    /// Username
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// Password
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// First name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Email address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Staff status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_staff: Option<bool>,
    /// Active
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_active: Option<bool>,
    /// Groups
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<i64>>,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<serde_json::Value>,
}

impl Editable for User {
    type Writable = WritableUser;
    type Patch = PatchUser;
}
