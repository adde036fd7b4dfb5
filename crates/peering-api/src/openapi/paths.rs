//! Path items and operations of a resource: the collection (list, create, bulk update and
//! delete) and the detail (retrieve, update, delete), with their statuses and bodies.

use std::collections::BTreeMap;

use paperclip::v2::models::{
    DefaultOperationRaw, DefaultParameterRaw, DefaultPathItemRaw, DefaultResponseRaw,
    DefaultSchemaRaw, Either, HttpMethod, ParameterIn,
};
use peering_domain::ResourceSpec;

use super::forms::{paginated_name, Form};
use super::parameters::{brief_parameter, id_parameter, list_parameters};
use super::schemas::{array, reference};
use super::TOKEN_AUTH;

/// A small builder over paperclip's `DefaultOperationRaw`.
struct Op(DefaultOperationRaw);

impl Op {
    /// Reads accept a token or none (unless `LOGIN_REQUIRED`); writes need one.
    fn new(spec: &ResourceSpec, action: &str, summary: String, write: bool) -> Op {
        let id = format!("{}_{}_{action}", spec.app, spec.path.replace('-', "_"));
        Op::tagged(spec.app, id, summary, write)
    }

    fn tagged(tag: &str, operation_id: String, summary: String, write: bool) -> Op {
        let token = BTreeMap::from([(TOKEN_AUTH.to_string(), Vec::new())]);
        let security = if write {
            vec![token]
        } else {
            vec![token, BTreeMap::new()]
        };
        Op(DefaultOperationRaw {
            operation_id: Some(operation_id),
            summary: Some(summary),
            tags: vec![tag.into()],
            security,
            ..DefaultOperationRaw::default()
        })
        .respond(
            403,
            "Missing or insufficient credentials.",
            Some(reference("Detail")),
        )
    }

    fn param(mut self, param: DefaultParameterRaw) -> Op {
        self.0.parameters.push(Either::Right(param));
        self
    }

    fn body(self, schema: DefaultSchemaRaw) -> Op {
        self.param(DefaultParameterRaw {
            in_: ParameterIn::Body,
            name: "body".into(),
            required: true,
            schema: Some(schema),
            ..DefaultParameterRaw::default()
        })
        .respond(400, "Invalid input.", Some(reference("BadRequest")))
        .respond(413, "Request body too large.", Some(reference("Detail")))
    }

    fn respond(mut self, code: u16, description: &str, schema: Option<DefaultSchemaRaw>) -> Op {
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

    fn not_found(self) -> Op {
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

/// `/api/{app}/{path}/`: a list for every resource; create and the bulk forms if writable.
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
        .respond(400, "Invalid filter.", Some(reference("BadRequest")));
    for param in list_parameters(spec) {
        list = list.param(param);
    }
    let mut item = DefaultPathItemRaw::default();
    item.methods.insert(HttpMethod::Get, list.0);
    if !spec.writable {
        return item;
    }
    let ops = [
        (
            HttpMethod::Post,
            op("create", "Create one or more", true)
                .body(reference(&Form::Writable.name(spec)))
                .respond(201, "The created object(s).", Some(full())),
        ),
        (
            HttpMethod::Put,
            op("bulk_update", "Replace several", true)
                .body(many(Form::BulkWritable))
                .respond(200, "The updated objects.", Some(array(full())))
                .not_found(),
        ),
        (
            HttpMethod::Patch,
            op("bulk_partial_update", "Update several", true)
                .body(many(Form::PatchedBulkWritable))
                .respond(200, "The updated objects.", Some(array(full())))
                .not_found(),
        ),
        (
            HttpMethod::Delete,
            op("bulk_destroy", "Delete several", true)
                .body(array(reference("ObjectId")))
                .respond(204, "Deleted.", None)
                .not_found()
                .protected(),
        ),
    ];
    item.methods.extend(ops.map(|(method, op)| (method, op.0)));
    item
}

/// `/api/{app}/{path}/{id}/`: retrieve; replace, update and delete if writable.
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
        .respond(200, "The object.", full());
    item.methods.insert(HttpMethod::Get, get.0);
    if !spec.writable {
        return item;
    }
    let ops = [
        (
            HttpMethod::Put,
            op("update", "Replace", true)
                .body(reference(&Form::Writable.name(spec)))
                .respond(200, "The updated object.", full()),
        ),
        (
            HttpMethod::Patch,
            op("partial_update", "Update", true)
                .body(reference(&Form::PatchedWritable.name(spec)))
                .respond(200, "The updated object.", full()),
        ),
        (
            HttpMethod::Delete,
            op("destroy", "Delete", true)
                .respond(204, "Deleted.", None)
                .protected(),
        ),
    ];
    item.methods.extend(ops.map(|(method, op)| (method, op.0)));
    item
}

/// `/api/status/`: versions and the database's health (503 when it does not answer).
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
    let mut item = DefaultPathItemRaw::default();
    item.methods.insert(HttpMethod::Get, get.0);
    item
}
