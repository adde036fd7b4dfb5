//! Actions beyond reading and writing objects (rendering a router's configuration, an
//! e-mail or an export, jobs, talking to routers), declared once here on their resource:
//! where each is, what it takes and answers, what its caller needs. peering-api serves
//! each declared action with its handler; the document describes them from here.

mod data_sources;
mod declared;
mod needs;

use peering_domain::ResourceSpec;

pub use declared::ACTIONS;
pub use needs::{Grant, Needs};

/// Whether an action is on one object (`…/{id}/name/`) or on the collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Object,
    Collection,
    /// Served under another name of the resource's application, as the reference's
    /// viewsets without a model (`/api/peeringdb/cache/statistics/`).
    Under(&'static str),
}

/// What an action answers with, for its OpenAPI description.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// The job enqueued (`Job`).
    Job,
    /// The jobs enqueued.
    Jobs,
    /// Plain text.
    Text,
    /// A component of the document.
    Schema(&'static str),
    /// A list of a component.
    ListOf(&'static str),
    /// A resource's object, in its complete form.
    Object(fn() -> &'static ResourceSpec),
    /// A list of a resource's objects, in their complete form (not paginated).
    Objects(fn() -> &'static ResourceSpec),
    /// No body.
    Empty,
}

/// One action, declared once: where it is, what it takes and answers, what its caller
/// needs. Its handler is peering-api's, found by resource, name and scope.
#[derive(Debug)]
pub struct Action {
    pub spec: &'static ResourceSpec,
    pub name: &'static str,
    pub scope: Scope,
    /// `GET` or `POST`.
    pub method: &'static str,
    pub summary: &'static str,
    /// The component of its JSON body, if it takes one.
    pub body: Option<&'static str>,
    /// Its query parameters: name and description.
    pub query: &'static [(&'static str, &'static str)],
    /// Its answers besides the errors every action may give (403, 404, 503).
    pub answers: &'static [(u16, &'static str, Answer)],
    /// What its caller must be or hold, checked before anything else.
    pub needs: Needs,
}

impl Action {
    /// Whether this is the action `name` of `spec` in `scope`.
    pub fn is(&self, spec: &ResourceSpec, name: &str, scope: Scope) -> bool {
        self.spec.table == spec.table && self.name == name && self.scope == scope
    }
}

/// The action of a resource by name and scope.
pub fn find(spec: &ResourceSpec, name: &str, scope: Scope) -> Option<&'static Action> {
    ACTIONS.iter().find(|a| a.is(spec, name, scope))
}

/// The action served at `/api/{app}/{segment}/{name}/` (`Scope::Under`).
pub fn find_under(app: &str, segment: &str, name: &str) -> Option<&'static Action> {
    ACTIONS.iter().find(|a| {
        a.spec.app == app && matches!(a.scope, Scope::Under(s) if s == segment) && a.name == name
    })
}
