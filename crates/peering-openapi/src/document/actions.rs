//! The declared actions (`crate::actions`) in the document: each one's path, method, body
//! and answers, from its declaration; and the bodies they take and give, which
//! `peering_domain::bodies` types (a test holds each type to its component).

use paperclip::v2::models::{
    DataType, DefaultApiRaw, DefaultPathItemRaw, DefaultSchemaRaw, Either, HttpMethod,
};
use peering_domain::bodies::CacheStatistics;
use peering_domain::resources::JOB;

use super::forms::{collection_path, Form};
use super::parameters::id_parameter;
use super::paths::Op;
use super::schemas::{array, id, object, reference, string, typed};
use crate::actions::{Action, Answer, Scope, ACTIONS};

/// Where an action is served.
pub(super) fn path(action: &Action) -> String {
    match action.scope {
        Scope::Object => format!("{}{{id}}/{}/", collection_path(action.spec), action.name),
        Scope::Collection => format!("{}{}/", collection_path(action.spec), action.name),
        Scope::Under(segment) => format!("/api/{}/{segment}/{}/", action.spec.app, action.name),
    }
}

fn operation(action: &Action) -> Op {
    let segment = match action.scope {
        Scope::Under(segment) => segment,
        _ => action.spec.path,
    };
    let operation_id = format!(
        "{}_{}_{}",
        action.spec.app,
        segment.replace('-', "_"),
        action.name.replace('-', "_")
    );
    let write = action.method == "POST";
    let mut op =
        Op::tagged(action.spec.app, operation_id, action.summary.into(), write).not_found();
    if let Some(body) = action.body {
        let bad_request = if action.scope != Scope::Object {
            "MessagesBadRequest"
        } else {
            "ObjectBadRequest"
        };
        op = op.body(reference(body), bad_request);
    }
    for (name, description) in action.query {
        op = op.param(super::parameters::query(
            *name,
            DataType::String,
            description,
        ));
    }
    for (code, description, answer) in action.answers {
        let body = match answer {
            Answer::Empty => None,
            _ => Some(schema(*answer)),
        };
        op = op.respond(*code, description, body);
    }
    op.respond(
        503,
        "The database does not answer, or what the action needs is not there (a router command, an affiliated network, an SMTP server), or a router did not answer.",
        Some(reference("Detail")),
    )
}

fn schema(answer: Answer) -> DefaultSchemaRaw {
    match answer {
        Answer::Job => reference(&Form::Full.name(&JOB)),
        Answer::Jobs => array(reference(&Form::Full.name(&JOB))),
        // Made `text/plain` by `refine`.
        Answer::Text => string(),
        Answer::Schema(name) => reference(name),
        Answer::ListOf(name) => array(reference(name)),
        Answer::Object(spec) => reference(&Form::Full.name(spec())),
        Answer::Objects(spec) => array(reference(&Form::Full.name(spec()))),
        Answer::Empty => DefaultSchemaRaw::default(),
    }
}

/// Every action's path item.
pub(super) fn paths(api: &mut DefaultApiRaw) {
    for action in ACTIONS {
        let item = api.paths.entry(path(action)).or_insert_with(|| {
            let mut item = DefaultPathItemRaw::default();
            if action.scope == Scope::Object {
                item.parameters.push(Either::Right(id_parameter()));
            }
            item
        });
        let method = if action.method == "POST" {
            HttpMethod::Post
        } else {
            HttpMethod::Get
        };
        item.methods.insert(method, operation(action).0);
    }
}

/// The bodies actions take and give.
pub(super) fn definitions(api: &mut DefaultApiRaw) {
    let definitions = &mut api.definitions;
    let boolean = || typed(DataType::Boolean, None);
    definitions.insert("EmailToRender".into(), object(&[("email", id())], true));
    definitions.insert("EmailToSend".into(), email_to_send());
    definitions.insert(
        "NetworkEmailToRender".into(),
        object(
            &[
                ("email", id()),
                ("autonomous_system", id()),
                ("network", id()),
            ],
            true,
        ),
    );
    definitions.insert("RoutersToConfigure".into(), routers_to_configure());
    definitions.insert(
        "RenderedEmail".into(),
        object(&[("subject", string()), ("body", string())], true),
    );
    definitions.insert(
        "RenderedExport".into(),
        object(&[("rendered", string())], true),
    );
    // An entry of a prefix list as bgpq4 writes it and the reference stores it.
    let mut entry = object(&[("prefix", string()), ("exact", boolean())], true);
    for bound in ["greater-equal", "less-equal"] {
        entry.properties.insert(bound.into(), Box::new(id()));
    }
    definitions.insert("PrefixListEntry".into(), entry);
    let entries = || array(reference("PrefixListEntry"));
    definitions.insert(
        "Prefixes".into(),
        object(&[("ipv6", entries()), ("ipv4", entries())], true),
    );
    // A key only for a family that has prefixes, as the reference.
    definitions.insert(
        "ExchangePrefixes".into(),
        object(
            &[("ipv6", array(string())), ("ipv4", array(string()))],
            false,
        ),
    );
    definitions.insert("CacheStatistics".into(), cache_statistics());
    definitions.insert("CacheCleared".into(), object(&[("status", string())], true));
    definitions.insert(
        "PasswordEncrypted".into(),
        object(&[("encrypted", boolean())], true),
    );
    // Refined into field errors or a list of messages (`refine`).
    let messages = "Field errors, a list of messages (as the reference answers `routers list must not be empty`), or a detail message.";
    definitions.insert(
        "MessagesBadRequest".into(),
        paperclip::v2::models::DefaultSchemaRaw {
            description: Some(messages.into()),
            ..Default::default()
        },
    );
}

/// `CacheStatistics`: the members of `peering_domain::bodies::CacheStatistics`, as the
/// reference names them, each a count.
/// `routers/configure/`'s body: `routers` required.
fn routers_to_configure() -> DefaultSchemaRaw {
    let mut routers = object(
        &[
            ("routers", array(id())),
            ("commit", typed(DataType::Boolean, None)),
            ("confirm_within", typed(DataType::Integer, None)),
        ],
        false,
    );
    routers.required.insert("routers".into());
    routers
}

/// `send-email/`'s body: `email` required, the lists of addresses optional.
fn email_to_send() -> DefaultSchemaRaw {
    let mut body = object(
        &[
            ("email", id()),
            ("recipients", array(string())),
            ("cc", array(string())),
        ],
        false,
    );
    body.required.insert("email".into());
    body
}

fn cache_statistics() -> DefaultSchemaRaw {
    let members = serde_json::to_value(CacheStatistics::default()).unwrap_or_default();
    let names = members.as_object().into_iter().flat_map(|m| m.keys());
    let count = || typed(DataType::Integer, None);
    let mut statistics: Vec<(&str, _)> = names.map(|name| (name.as_str(), count())).collect();
    statistics.sort_by_key(|(name, _)| *name);
    object(&statistics, true)
}

/// Plain-text answers: the media type is `text/plain`, not JSON.
pub(super) fn text_answers() -> impl Iterator<Item = (String, &'static str, u16)> {
    ACTIONS.iter().flat_map(|action| {
        action
            .answers
            .iter()
            .filter(|(_, _, answer)| matches!(answer, Answer::Text))
            .map(move |(code, _, _)| (path(action), action.method, *code))
    })
}
