//! Path items and operations: a resource's collection (list, create, bulk update and delete,
//! OPTIONS) and detail (retrieve, update, delete, OPTIONS), the API and application roots,
//! `/api/status/` and `/api/schema/`, each with every status the server answers and its body
//! (peering-api's `error.rs` is the table of errors to statuses; its `resource/` says which
//! can occur where).

use std::collections::BTreeMap;

use paperclip::v2::models::{
    DataType, DefaultOperationRaw, DefaultParameterRaw, DefaultPathItemRaw, DefaultResponseRaw,
    DefaultSchemaRaw, Either, HttpMethod, ParameterIn,
};
use peering_domain::ResourceSpec;

use super::forms::{app_root_name, paginated_name, Form, API_ROOT};
use super::parameters::{brief_parameter, format_parameter, id_parameter, list_parameters};
use super::schemas::{array, reference, typed};
use super::TOKEN_AUTH;

/// A small builder over paperclip's `DefaultOperationRaw`.
pub(super) struct Op(pub(super) DefaultOperationRaw);

impl Op {
    /// An operation of a resource, tagged with its application.
    pub(super) fn new(spec: &ResourceSpec, action: &str, summary: String, write: bool) -> Op {
        let id = format!("{}_{}_{action}", spec.app, spec.path.replace('-', "_"));
        Op::tagged(spec.app, id, summary, write)
    }

    /// An operation that looks at the caller's token. Reads accept a token or none (unless
    /// `LOGIN_REQUIRED`); writes need one. A refused token (or none where one is needed) is a
    /// 403; a database that does not answer (tokens are looked up there) a 503.
    pub(super) fn tagged(tag: &str, operation_id: String, summary: String, write: bool) -> Op {
        let token = BTreeMap::from([(TOKEN_AUTH.to_string(), Vec::new())]);
        let security = if write {
            vec![token]
        } else {
            vec![token, BTreeMap::new()]
        };
        let mut op = Op::public(tag, operation_id, summary);
        op.0.security = security;
        op.respond(
            403,
            "Missing or insufficient credentials.",
            Some(reference("Detail")),
        )
        .respond(
            503,
            "The database does not answer.",
            Some(reference("Detail")),
        )
    }

    /// An operation anyone may call, whatever `LOGIN_REQUIRED` says, with no token checked.
    pub(super) fn public(tag: &str, operation_id: String, summary: String) -> Op {
        Op(DefaultOperationRaw {
            operation_id: Some(operation_id),
            summary: Some(summary),
            tags: vec![tag.into()],
            ..DefaultOperationRaw::default()
        })
        .respond(
            406,
            "`Accept` asks for an API version there is not (`version=` other than 1.8, 1.9, 1.10 or the server's own).",
            Some(reference("Detail")),
        )
        .respond(
            414,
            "The request's address (path and query) is longer than the server reads.",
            Some(reference("Detail")),
        )
    }

    pub(super) fn param(mut self, param: DefaultParameterRaw) -> Op {
        self.0.parameters.push(Either::Right(param));
        self
    }

    /// A JSON body: a 400 when it is invalid (`bad_request`, the component of its shapes),
    /// a 413 when it is larger than `MAX_BODY_BYTES`, a 408 when it is slower to arrive
    /// than `BODY_TIMEOUT_SECS`.
    pub(super) fn body(self, schema: DefaultSchemaRaw, bad_request: &str) -> Op {
        self.param(DefaultParameterRaw {
            in_: ParameterIn::Body,
            name: "body".into(),
            required: true,
            schema: Some(schema),
            ..DefaultParameterRaw::default()
        })
        .respond(400, "Invalid input.", Some(reference(bad_request)))
        .respond(413, "Request body too large.", Some(reference("Detail")))
        .respond(
            415,
            "The body's declared media type is not JSON (nor a form).",
            Some(reference("Detail")),
        )
        .respond(
            408,
            "Request body too slow to arrive.",
            Some(reference("Detail")),
        )
    }

    /// A write that takes `If-Match`: a 412 when the object's `ETag` is another one.
    pub(super) fn unless_changed(self) -> Op {
        self.respond(
            412,
            "The object changed since it was read: its `ETag` is not the one in `If-Match`.",
            Some(reference("Detail")),
        )
    }

    pub(super) fn respond(
        mut self,
        code: u16,
        description: &str,
        schema: Option<DefaultSchemaRaw>,
    ) -> Op {
        let response = DefaultResponseRaw {
            description: Some(description.into()),
            schema,
            ..DefaultResponseRaw::default()
        };
        self.0
            .responses
            .insert(code.to_string(), Either::Right(response));
        self
    }

    pub(super) fn not_found(self) -> Op {
        self.respond(404, "No such object.", Some(reference("Detail")))
    }

    fn protected(self) -> Op {
        self.respond(
            409,
            "Other objects still depend on it.",
            Some(reference("Detail")),
        )
    }
}

/// `OPTIONS`: what the endpoint renders and parses, and for a caller allowed to write, the
/// fields a write accepts (`actions`).
fn metadata(spec: &ResourceSpec, action: &str, what: &str) -> Op {
    let summary = format!("Describe the {what} endpoint of {}", spec.verbose_name);
    Op::new(spec, action, summary, false).respond(
        200,
        "What the endpoint renders and accepts.",
        Some(reference("Metadata")),
    )
}

/// `/api/{app}/{path}/`: list and OPTIONS for every resource; create and the bulk forms if
/// writable. Bulk updates and deletes skip ids that name no object (as the reference does),
/// so they answer no 404.
pub(super) fn collection_item(spec: &'static ResourceSpec) -> DefaultPathItemRaw {
    let full = || reference(&Form::Full.name(spec));
    let many = |form: Form| array(reference(&form.name(spec)));
    let op = |action, verb, write| {
        let summary = format!("{verb} {} objects", spec.verbose_name);
        Op::new(spec, action, summary, write)
    };
    let page = reference(&paginated_name(spec));
    let mut list = op("list", "List", false)
        .respond(200, "A page of objects.", Some(page))
        .respond(
            400,
            "Invalid filter, or malformed query string.",
            Some(reference("ObjectBadRequest")),
        );
    for param in list_parameters(spec) {
        list = list.param(param);
    }
    let mut item = DefaultPathItemRaw::default();
    item.methods.insert(HttpMethod::Get, list.0);
    item.methods
        .insert(HttpMethod::Options, metadata(spec, "metadata", "list").0);
    if !spec.writes.edits() {
        return item;
    }
    let ops = [
        (
            HttpMethod::Post,
            op("create", "Create one or more", true)
                .body(reference(&Form::Writable.name(spec)), "BadRequest")
                .respond(201, "The created object(s).", Some(full())),
        ),
        (
            HttpMethod::Put,
            op("bulk_update", "Replace several", true)
                .body(many(Form::BulkWritable), "BadRequest")
                .respond(200, "The updated objects.", Some(array(full()))),
        ),
        (
            HttpMethod::Patch,
            op("bulk_partial_update", "Update several", true)
                .body(many(Form::PatchedBulkWritable), "BadRequest")
                .respond(200, "The updated objects.", Some(array(full()))),
        ),
        (
            HttpMethod::Delete,
            op("bulk_destroy", "Delete several", true)
                .body(array(reference("ObjectId")), "BadRequest")
                .respond(204, "Deleted.", None)
                .protected(),
        ),
    ];
    item.methods.extend(ops.map(|(method, op)| (method, op.0)));
    item
}

/// `/api/{app}/{path}/{id}/`: retrieve and OPTIONS; replace, update and delete if writable.
/// An id that is not a number names no object (404).
pub(super) fn detail_item(spec: &'static ResourceSpec) -> DefaultPathItemRaw {
    let full = || Some(reference(&Form::Full.name(spec)));
    let op = |action, verb, write| {
        let summary = format!("{verb} one {}", spec.verbose_name);
        Op::new(spec, action, summary, write).not_found()
    };
    let mut item = DefaultPathItemRaw::default();
    item.parameters.push(Either::Right(id_parameter()));
    let get = op("retrieve", "Get", false)
        .param(brief_parameter())
        .respond(200, "The object.", full())
        .respond(
            304,
            "Not modified: the `ETag` given in `If-None-Match`.",
            None,
        )
        .respond(400, "Malformed query string.", Some(reference("Detail")));
    item.methods.insert(HttpMethod::Get, get.0);
    let options = metadata(spec, "detail_metadata", "detail").not_found();
    item.methods.insert(HttpMethod::Options, options.0);
    let destroy = || {
        op("destroy", "Delete", true)
            .respond(204, "Deleted.", None)
            .protected()
            .unless_changed()
    };
    if !spec.writes.edits() {
        if spec.writes.deletes() {
            item.methods.insert(HttpMethod::Delete, destroy().0);
        }
        return item;
    }
    let ops = [
        (
            HttpMethod::Put,
            op("update", "Replace", true)
                .body(reference(&Form::Writable.name(spec)), "ObjectBadRequest")
                .respond(200, "The updated object.", full())
                .unless_changed(),
        ),
        (
            HttpMethod::Patch,
            op("partial_update", "Update", true)
                .body(
                    reference(&Form::PatchedWritable.name(spec)),
                    "ObjectBadRequest",
                )
                .respond(200, "The updated object.", full())
                .unless_changed(),
        ),
        (HttpMethod::Delete, destroy()),
    ];
    item.methods.extend(ops.map(|(method, op)| (method, op.0)));
    item
}

/// `/api/status/`: versions and the database's health (503 when it does not answer; a 503
/// with a detail instead when the token could not be looked up, see `refine`).
pub(super) fn status_item() -> DefaultPathItemRaw {
    let summary = "Versions and database health".to_string();
    let get = Op::tagged("status", "status_retrieve".into(), summary, false)
        .respond(
            200,
            "The server and its database work.",
            Some(reference("Status")),
        )
        .respond(
            503,
            "The database does not answer.",
            Some(reference("Status")),
        );
    get_item(get)
}

/// `/api/`: the URL of each application's root, and of `/api/status/`. JSON, or a page of
/// links for `Accept: text/html` (added by `refine`). Public: no token is looked at.
pub(super) fn api_root_item() -> DefaultPathItemRaw {
    let get = Op::public("api", "api_root_retrieve".into(), "The API root".into()).respond(
        200,
        "The URL of each application's root.",
        Some(reference(API_ROOT)),
    );
    get_item(get)
}

/// `/api/{app}/`: the list URL of each resource of the application, like the API root.
pub(super) fn app_root_item(app: &str) -> DefaultPathItemRaw {
    let summary = format!("The root of the {app} application");
    let get = Op::public(app, format!("{app}_root_retrieve"), summary).respond(
        200,
        "The list URL of each resource of the application.",
        Some(reference(&app_root_name(app))),
    );
    get_item(get)
}

/// `/api/schema/`: this document, as JSON or (`format=yaml`) YAML (added by `refine`).
pub(super) fn schema_item() -> DefaultPathItemRaw {
    let summary = "This OpenAPI document".to_string();
    let get = Op::public("schema", "schema_retrieve".into(), summary)
        .param(format_parameter())
        .respond(
            200,
            "The OpenAPI 3 document.",
            Some(typed(DataType::Object, None)),
        );
    get_item(get)
}

pub(super) fn get_item(get: Op) -> DefaultPathItemRaw {
    let mut item = DefaultPathItemRaw::default();
    item.methods.insert(HttpMethod::Get, get.0);
    item
}
