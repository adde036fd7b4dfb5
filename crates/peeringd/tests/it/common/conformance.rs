//! Every response of the integration suite is checked against the OpenAPI document the server
//! serves (`/api/schema/`): `TestServer::request` hands each one to [`Conformance::check`],
//! and a response the document does not allow fails the test that received it.
//!
//! A response is matched to its operation by method and path template (the query string
//! stripped; a literal segment wins over a `{parameter}`); its status must be one the
//! operation lists, its media type one the status lists, and a JSON body must conform to
//! that schema (see [`Checker`]). `?brief=…` decides which alternative of a read (`anyOf`
//! complete or brief form) the body must match. HEAD is checked as GET (statuses only: it
//! has no body). What is not checked, and why, is [`EXEMPTIONS`], the one list of them.
//!
//! With `CONFORMANCE_TRACE` set, each response is printed on stderr as `CONFORMANCE method
//! path status checked:template` or `exempt:Exemption`, to see what the suite exercises
//! (`cargo test -p peeringd -- --nocapture 2>&1 | grep ^CONFORMANCE`).

use serde_json::{json, Map, Value as Json};

/// Responses the document does not describe, and what is still required of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exemption {
    /// `/api/schema/swagger-ui/…`: Swagger UI's page and files (HTML, JavaScript, CSS, an
    /// image), not part of the API. Anything goes.
    SwaggerUi,
    /// The pages a person uses in a browser, outside `/api/` (`/login/`, `/logout/`,
    /// `/user/api-tokens/`): HTML, not API. Anything goes (their own tests check them).
    WebPage,
    /// `/api/docs/`: where NetBox-style clients look for the document (`?format=openapi`:
    /// the document itself, byte for byte), else a redirect to Swagger UI. An alias, kept
    /// out of the document so that it lists `/api/schema/` once. Anything goes.
    DocsAlias,
    /// An `/api/…` path without its trailing slash: must be a 302 to the slashed path.
    MissingSlash,
    /// A path no template of the document matches (no such application or resource, a
    /// segment too many, …): must be a 404, or a 405 where a route exists for other
    /// methods; a JSON body must be a `Detail`.
    UnknownPath,
    /// A method the path does not document (writes to read-only resources, POST to a
    /// detail, TRACE…): must be refused, 405 (or 403 when the token is refused first); a
    /// JSON body must be a `Detail`.
    UndocumentedMethod,
}

/// Every exemption with its reason (the doc comments above, in short), for messages and
/// the documentation.
pub const EXEMPTIONS: &[(Exemption, &str)] = &[
    (Exemption::SwaggerUi, "Swagger UI's page and files: not API"),
    (
        Exemption::WebPage,
        "the login and API token pages: HTML, not API",
    ),
    (
        Exemption::DocsAlias,
        "an alias of /api/schema/ for NetBox-style clients, else a redirect",
    ),
    (
        Exemption::MissingSlash,
        "a path without its trailing slash: a 302 to it",
    ),
    (
        Exemption::UnknownPath,
        "a path the API does not serve: a 404 (or 405)",
    ),
    (
        Exemption::UndocumentedMethod,
        "a method the path does not serve: refused (405, or 403 first)",
    ),
];

/// The document, with its path templates ready for matching.
pub struct Conformance {
    doc: Json,
    /// `(template, segments)`, a segment being `None` for a `{parameter}`.
    templates: Vec<(String, Vec<Option<String>>)>,
}

fn segments(path: &str) -> Vec<&str> {
    path.trim_matches('/').split('/').collect()
}

/// Whether a query string asks for the brief form, as the server reads `brief`: the last
/// one, anything but `""`, `0`, `false`, `no`, `off` (any case).
fn wants_brief(query: &str) -> bool {
    query
        .split('&')
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .rfind(|(k, _)| *k == "brief")
        .is_some_and(|(_, v)| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "off"
            )
        })
}

fn is_json(media: &str) -> bool {
    media == "application/json" || media.ends_with("+json")
}

impl Conformance {
    pub fn new(doc: Json) -> Conformance {
        let templates = doc["paths"]
            .as_object()
            .expect("the document has paths")
            .keys()
            .map(|t| {
                let parts = segments(t)
                    .into_iter()
                    .map(|s| (!s.starts_with('{')).then(|| s.to_string()))
                    .collect();
                (t.clone(), parts)
            })
            .collect();
        Conformance { doc, templates }
    }

    pub fn doc(&self) -> &Json {
        &self.doc
    }

    /// The template of the document that `path` (no query) falls under, if any.
    pub fn template(&self, path: &str) -> Option<&str> {
        let concrete = segments(path);
        if !path.ends_with('/') {
            return None;
        }
        self.templates
            .iter()
            .filter(|(_, parts)| {
                parts.len() == concrete.len()
                    && parts
                        .iter()
                        .zip(&concrete)
                        .all(|(p, c)| p.as_deref().is_none_or(|p| p == *c) && !c.is_empty())
            })
            .min_by_key(|(_, parts)| parts.iter().filter(|p| p.is_none()).count())
            .map(|(t, _)| t.as_str())
    }

    /// Which exemption applies to `method` on `path` (no query), if any.
    pub fn exemption(&self, method: &str, path: &str) -> Option<Exemption> {
        if path.starts_with("/api/schema/swagger-ui/") {
            return Some(Exemption::SwaggerUi);
        }
        if !path.starts_with("/api") {
            return Some(Exemption::WebPage);
        }
        if path == "/api/docs/" {
            return Some(Exemption::DocsAlias);
        }
        let Some(template) = self.template(path) else {
            return Some(if path.starts_with("/api") && !path.ends_with('/') {
                Exemption::MissingSlash
            } else {
                Exemption::UnknownPath
            });
        };
        let item = &self.doc["paths"][template];
        let method = method.to_ascii_lowercase();
        let method = if method == "head" {
            "get".to_string()
        } else {
            method
        };
        item.get(&method)
            .is_none()
            .then_some(Exemption::UndocumentedMethod)
    }

    /// Checks one response: `target` is the request's path and query, `content_type` the
    /// response's header, `body` its text. `Err` says what the document does not allow.
    pub fn check(
        &self,
        method: &str,
        target: &str,
        status: u16,
        content_type: Option<&str>,
        body: &str,
    ) -> Result<(), String> {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        if std::env::var_os("CONFORMANCE_TRACE").is_some() {
            let how = match self.exemption(method, path) {
                Some(exemption) => format!("exempt:{exemption:?}"),
                None => format!("checked:{}", self.template(path).unwrap_or_default()),
            };
            eprintln!("CONFORMANCE {method} {path} {status} {how}");
        }
        if let Some(exemption) = self.exemption(method, path) {
            let body = if method.eq_ignore_ascii_case("HEAD") {
                ""
            } else {
                body
            };
            return self.check_exempt(exemption, status, content_type, body);
        }
        let template = self.template(path).expect("a template, else exempt");
        let head = method.eq_ignore_ascii_case("HEAD");
        let key = if head {
            "get".to_string()
        } else {
            method.to_ascii_lowercase()
        };
        let op = &self.doc["paths"][template][&key];
        let responses = op["responses"].as_object().cloned().unwrap_or_default();
        let Some(response) = responses.get(&status.to_string()) else {
            let listed: Vec<&String> = responses.keys().collect();
            return Err(format!(
                "status {status} is not documented for {} {template} (documented: {listed:?})",
                key.to_ascii_uppercase()
            ));
        };
        if head {
            return Ok(());
        }
        let Some(content) = response["content"].as_object() else {
            return if body.is_empty() {
                Ok(())
            } else {
                Err(format!("{status} documents no body, got {body:?}"))
            };
        };
        let media = content_type
            .and_then(|c| c.split(';').next())
            .map(|c| c.trim().to_ascii_lowercase())
            .unwrap_or_default();
        // The browsable API: the same answer, with the documented status, as a page for a
        // browser (its own tests check the page).
        if media == "text/html" && key == "get" {
            return Ok(());
        }
        let Some(documented) = content.get(&media) else {
            let listed: Vec<&String> = content.keys().collect();
            return Err(format!(
                "media type {media:?} is not documented for status {status} (documented: {listed:?})"
            ));
        };
        if !is_json(&media) {
            return Ok(());
        }
        let value: Json = serde_json::from_str(body)
            .map_err(|e| format!("the body is not JSON ({e}): {body:?}"))?;
        let checker = Checker {
            doc: &self.doc,
            brief: Some(wants_brief(query)),
        };
        let errors = checker.errors(&documented["schema"], &value, "");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the body does not match the schema of {} {template} {status}:\n  {}",
                key.to_ascii_uppercase(),
                errors.join("\n  ")
            ))
        }
    }

    fn check_exempt(
        &self,
        exemption: Exemption,
        status: u16,
        content_type: Option<&str>,
        body: &str,
    ) -> Result<(), String> {
        let allowed: &[u16] = match exemption {
            Exemption::SwaggerUi | Exemption::DocsAlias | Exemption::WebPage => return Ok(()),
            Exemption::MissingSlash => &[302],
            Exemption::UnknownPath => &[404, 405],
            Exemption::UndocumentedMethod => &[403, 405],
        };
        if !allowed.contains(&status) {
            return Err(format!(
                "exempt as {exemption:?}, which must answer one of {allowed:?}, not {status}"
            ));
        }
        if !body.is_empty() && content_type.is_some_and(|c| c.starts_with("application/json")) {
            let value: Json = serde_json::from_str(body)
                .map_err(|e| format!("the body is not JSON ({e}): {body:?}"))?;
            let detail = json!({"$ref": "#/components/schemas/Detail"});
            let errors = Checker::new(&self.doc).errors(&detail, &value, "");
            if !errors.is_empty() {
                return Err(format!("exempt as {exemption:?}, not a Detail: {errors:?}"));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// A checker of the JSON Schema subset the document uses (OpenAPI 3.0 flavour): type,
// format (date-time, uuid, uri), enum, nullable, bounds, lengths, properties, required,
// additionalProperties, items, $ref, allOf, anyOf, oneOf. `pattern` is not checked.
//
// Stricter than JSON Schema in one way: an object schema that names its properties and says
// nothing of others allows no others, so a member the document does not list is an error
// (an undocumented member is drift too).
// ---------------------------------------------------------------------------------------

pub struct Checker<'a> {
    doc: &'a Json,
    /// For reads: `Some(true)` when the request asked for the brief form, `Some(false)` when
    /// not, which selects that alternative of an `anyOf` of a complete form `X` and its
    /// `BriefX`; `None` accepts either.
    pub brief: Option<bool>,
}

impl<'a> Checker<'a> {
    pub fn new(doc: &'a Json) -> Checker<'a> {
        Checker { doc, brief: None }
    }

    /// The schema of the JSON response `status` of `method` on the path template `path`.
    pub fn response_schema(&self, path: &str, method: &str, status: u16) -> &'a Json {
        let schema = &self.doc["paths"][path][method]["responses"][status.to_string()]["content"]
            ["application/json"]["schema"];
        assert!(!schema.is_null(), "no schema for {method} {path} {status}");
        schema
    }

    fn resolve(&self, reference: &str) -> Result<&'a Json, String> {
        reference
            .strip_prefix("#/components/schemas/")
            .and_then(|name| self.doc["components"]["schemas"].get(name))
            .ok_or_else(|| format!("unresolved {reference}"))
    }

    /// The errors of `value` against `schema` (empty when it conforms).
    pub fn errors(&self, schema: &Json, value: &Json, at: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.check(schema, value, at, &mut out);
        out
    }

    /// Of the alternatives of an `anyOf`, those the request's `brief` selects: a `$ref` to a
    /// `Brief…` component, or the others.
    fn selected<'s>(&self, alternatives: &'s [Json]) -> Vec<&'s Json> {
        let is_brief = |s: &Json| {
            s["$ref"]
                .as_str()
                .is_some_and(|r| r.starts_with("#/components/schemas/Brief"))
        };
        match self.brief {
            Some(brief) if alternatives.iter().any(is_brief) => alternatives
                .iter()
                .filter(|s| is_brief(s) == brief)
                .collect(),
            _ => alternatives.iter().collect(),
        }
    }

    fn check(&self, schema: &Json, value: &Json, at: &str, out: &mut Vec<String>) {
        if let Some(Json::String(reference)) = schema.get("$ref") {
            match self.resolve(reference) {
                Ok(target) => self.check(target, value, at, out),
                Err(e) => out.push(format!("{at}: {e}")),
            }
            return;
        }
        if value.is_null() && schema["nullable"] == true {
            return;
        }
        if let Some(all) = schema["allOf"].as_array() {
            all.iter().for_each(|s| self.check(s, value, at, out));
        }
        if let Some(any) = schema["anyOf"].as_array() {
            let selected = self.selected(any);
            let failures: Vec<Vec<String>> =
                selected.iter().map(|s| self.errors(s, value, at)).collect();
            if !failures.iter().any(Vec::is_empty) {
                if let [only] = failures.as_slice() {
                    out.extend(only.iter().cloned());
                } else {
                    out.push(format!("{at}: matches none of anyOf: {failures:?}"));
                }
            }
        }
        if let Some(one) = schema["oneOf"].as_array() {
            let failures: Vec<Vec<String>> =
                one.iter().map(|s| self.errors(s, value, at)).collect();
            let matching = failures.iter().filter(|f| f.is_empty()).count();
            if matching != 1 {
                out.push(format!(
                    "{at}: matches {matching} of oneOf, not 1: {failures:?}"
                ));
            }
        }
        if let Some(values) = schema["enum"].as_array() {
            if !values.contains(value) {
                out.push(format!("{at}: {value} not in {values:?}"));
            }
        }
        let Some(kind) = schema["type"].as_str() else {
            return;
        };
        let type_ok = match kind {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            other => {
                out.push(format!("{at}: unknown type {other}"));
                return;
            }
        };
        if !type_ok {
            out.push(format!("{at}: {value} is not of type {kind}"));
            return;
        }
        match value {
            Json::Object(map) => self.check_object(schema, map, at, out),
            Json::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.check(item_schema, item, &format!("{at}/{i}"), out);
                    }
                }
            }
            Json::String(text) => check_string(schema, text, at, out),
            Json::Number(n) => {
                let n = n.as_f64().unwrap_or(f64::NAN);
                if schema["minimum"].as_f64().is_some_and(|min| n < min)
                    || schema["maximum"].as_f64().is_some_and(|max| n > max)
                {
                    out.push(format!("{at}: {n} out of bounds"));
                }
            }
            _ => {}
        }
    }

    fn check_object(
        &self,
        schema: &Json,
        map: &Map<String, Json>,
        at: &str,
        out: &mut Vec<String>,
    ) {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap_or_default();
            if !map.contains_key(name) {
                out.push(format!("{at}: missing required {name}"));
            }
        }
        let properties = schema["properties"].as_object();
        for (name, member) in map {
            let member_at = format!("{at}/{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(property) => self.check(property, member, &member_at, out),
                None => match schema.get("additionalProperties") {
                    Some(Json::Bool(false)) => out.push(format!("{member_at}: not allowed")),
                    Some(extra @ Json::Object(_)) => self.check(extra, member, &member_at, out),
                    Some(_) => {}
                    // Strict: listed properties and nothing said of others allow no others.
                    None if properties.is_some_and(|p| !p.is_empty()) => {
                        out.push(format!("{member_at}: not in the document"))
                    }
                    None => {}
                },
            }
        }
    }
}

fn check_string(schema: &Json, text: &str, at: &str, out: &mut Vec<String>) {
    let length = text.chars().count() as u64;
    if schema["minLength"].as_u64().is_some_and(|min| length < min)
        || schema["maxLength"].as_u64().is_some_and(|max| length > max)
    {
        out.push(format!("{at}: length {length} out of bounds"));
    }
    let well_formed = match schema["format"].as_str() {
        Some("date-time") => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        Some("uuid") => uuid::Uuid::parse_str(text).is_ok(),
        Some("uri") => text.starts_with("http://") || text.starts_with("https://"),
        _ => true,
    };
    if !well_formed {
        out.push(format!("{at}: {text:?} is not a {}", schema["format"]));
    }
}
