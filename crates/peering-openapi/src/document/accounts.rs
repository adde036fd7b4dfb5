//! The parts of the document served by their own handlers (peering-api's `tokens.rs`): API
//! tokens, provisioning a token with a password, and the caller's preferences.

use openapiv3 as v3;
use paperclip::v2::models::{
    DataType, DataTypeFormat, DefaultApiRaw, DefaultPathItemRaw, DefaultSchemaRaw, Either,
    HttpMethod,
};
use peering_domain::resources::USER;

use super::forms::Form;
use super::paths::{get_item, Op};
use super::refine::{mark, uri};
use super::schemas::{array, id, object, reference, string, typed};

pub(super) const TOKENS: &str = "/api/users/tokens/";
pub(super) const TOKEN: &str = "/api/users/tokens/{id}/";
pub(super) const PROVISION: &str = "/api/users/tokens/provision/";
pub(super) const PREFERENCES: &str = "/api/users/userpref/";

fn time() -> DefaultSchemaRaw {
    typed(DataType::String, Some(DataTypeFormat::DateTime))
}

fn boolean() -> DefaultSchemaRaw {
    typed(DataType::Boolean, None)
}

/// What a new token may be given (all optional): its expiry, write flag, description, and
/// a key to restore; a superuser may name another user.
fn token_request(with_credentials: bool) -> DefaultSchemaRaw {
    let mut members = vec![
        ("expires", time()),
        ("write_enabled", boolean()),
        ("description", string()),
    ];
    if with_credentials {
        members.insert(0, ("password", string()));
        members.insert(0, ("username", string()));
    } else {
        members.push(("key", string()));
        members.push(("user", id()));
    }
    let mut schema = object(&members, false);
    if with_credentials {
        schema.required.insert("username".into());
        schema.required.insert("password".into());
    }
    schema
}

pub(super) fn definitions(api: &mut DefaultApiRaw) {
    let mut token = object(
        &[
            ("id", id()),
            ("url", string()),
            ("display", string()),
            ("user", reference(&Form::Nested.name(&USER))),
            ("created", time()),
            ("expires", time()),
            ("last_used", time()),
            ("write_enabled", boolean()),
            ("description", string()),
        ],
        true,
    );
    token.properties.insert(
        "key".into(),
        Box::new(DefaultSchemaRaw {
            description: Some("The key: in the response that creates the token, only.".into()),
            ..string()
        }),
    );
    let page = object(
        &[
            ("count", id()),
            ("next", string()),
            ("previous", string()),
            ("results", array(reference("Token"))),
        ],
        true,
    );
    let preferences = DefaultSchemaRaw {
        description: Some("Any JSON object; PATCH merges into it.".into()),
        extra_props: Some(Either::Left(true)),
        ..typed(DataType::Object, None)
    };
    let defs = &mut api.definitions;
    defs.insert("Token".into(), token);
    defs.insert("PaginatedTokenList".into(), page);
    defs.insert("TokenRequest".into(), token_request(false));
    defs.insert("TokenProvision".into(), token_request(true));
    defs.insert("Preferences".into(), preferences);
}

pub(super) fn paths(api: &mut DefaultApiRaw) {
    api.paths.insert(TOKENS.into(), tokens_item());
    api.paths.insert(TOKEN.into(), token_item());
    api.paths.insert(PROVISION.into(), provision_item());
    api.paths.insert(PREFERENCES.into(), preferences_item());
}

/// An operation on the caller's own tokens or preferences.
fn op(id: &str, summary: &str, write: bool) -> Op {
    Op::tagged("users", id.into(), summary.into(), write)
}

/// `/api/users/tokens/`: list and create.
fn tokens_item() -> DefaultPathItemRaw {
    let list = op(
        "users_tokens_list",
        "The caller's API tokens (a superuser's: all)",
        false,
    )
    .respond(
        200,
        "The tokens, never their keys.",
        Some(reference("PaginatedTokenList")),
    );
    let create = op("users_tokens_create", "Create an API token", true)
        .body(reference("TokenRequest"), "ObjectBadRequest")
        .respond(
            201,
            "The token, with its key (shown this once).",
            Some(reference("Token")),
        );
    let mut tokens = get_item(list);
    tokens.methods.insert(HttpMethod::Post, create.0);
    tokens
}

/// `/api/users/tokens/{id}/`: read and revoke.
fn token_item() -> DefaultPathItemRaw {
    let get = op(
        "users_tokens_retrieve",
        "One of the caller's API tokens",
        false,
    )
    .not_found()
    .respond(200, "The token, without its key.", Some(reference("Token")));
    let delete = op("users_tokens_destroy", "Revoke an API token", true)
        .not_found()
        .respond(204, "Revoked.", None);
    let mut token = get_item(get);
    token
        .parameters
        .push(Either::Right(super::parameters::id_parameter()));
    token.methods.insert(HttpMethod::Delete, delete.0);
    token
}

/// `/api/users/tokens/provision/`: a password for a token, without a token.
fn provision_item() -> DefaultPathItemRaw {
    let provision = Op::public(
        "users",
        "users_tokens_provision".into(),
        "Exchange a username and password for a new API token".into(),
    )
    .body(reference("TokenProvision"), "ObjectBadRequest")
    .respond(201, "The token, with its key.", Some(reference("Token")))
    .respond(
        403,
        "Wrong username or password.",
        Some(reference("Detail")),
    )
    .respond(
        429,
        "Too many attempts from this address; try again in a minute.",
        Some(reference("Detail")),
    )
    .respond(
        503,
        "The database does not answer.",
        Some(reference("Detail")),
    );
    let mut item = DefaultPathItemRaw::default();
    item.methods.insert(HttpMethod::Post, provision.0);
    item
}

/// `/api/users/userpref/`: read and merge.
fn preferences_item() -> DefaultPathItemRaw {
    let read = op("users_userpref_retrieve", "The caller's preferences", false).respond(
        200,
        "The preferences.",
        Some(reference("Preferences")),
    );
    let merge = op(
        "users_userpref_partial_update",
        "Merge into the caller's preferences",
        true,
    )
    .body(reference("Preferences"), "ObjectBadRequest")
    .respond(
        200,
        "The merged preferences.",
        Some(reference("Preferences")),
    );
    let mut item = get_item(read);
    item.methods.insert(HttpMethod::Patch, merge.0);
    item
}

/// What Swagger 2.0 cannot say: which members may be null, and which are URIs.
pub(super) fn refine(doc: &mut v3::OpenAPI) {
    let schemas = &mut doc.components.get_or_insert_with(Default::default).schemas;
    let nullable = [
        ("Token", &["expires", "last_used"][..]),
        ("PaginatedTokenList", &["next", "previous"][..]),
        ("TokenRequest", &["expires", "user", "key"][..]),
        ("TokenProvision", &["expires"][..]),
    ];
    for (name, members) in nullable {
        let Some(v3::ReferenceOr::Item(schema)) = schemas.get_mut(name) else {
            continue;
        };
        let v3::SchemaKind::Type(v3::Type::Object(object)) = &mut schema.schema_kind else {
            continue;
        };
        for member in members {
            if let Some(property) = object.properties.get_mut(*member) {
                mark(property, true, false);
            }
        }
        for member in ["url", "next", "previous"] {
            if let Some(v3::ReferenceOr::Item(property)) = object.properties.get_mut(member) {
                uri(property);
            }
        }
    }
}
