//! The engine: a sandboxed environment per render, with its bounds.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

use minijinja::value::Value;
use minijinja::{Environment, Error, ErrorKind};

use crate::dataset::Dataset;
use crate::include::{self, EXPORT_FUNCTION};
use crate::source::StoredKind;

/// Limits of one render.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The engine's fuel: about one unit per instruction, one per 64 bytes produced.
    pub fuel: u64,
    /// The longest output, in bytes.
    pub max_output: usize,
    /// How deeply export templates may include each other.
    pub max_depth: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            fuel: 100_000_000,
            max_output: 32 * 1024 * 1024,
            max_depth: 8,
        }
    }
}

/// A template's text and whitespace options.
#[derive(Debug, Clone, Copy)]
pub struct Template<'a> {
    pub source: &'a str,
    /// Jinja2's `trim_blocks`: the newline after a block tag is removed.
    pub trim: bool,
    /// Jinja2's `lstrip_blocks`: whitespace before a block tag on its line is removed.
    pub lstrip: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderErrorKind {
    /// The template does not parse.
    Syntax,
    /// It ran past a bound: work, output size or include depth.
    Bound,
    /// It failed while running (an unknown filter, a filter given the wrong value).
    Runtime,
    /// Its data could not be read.
    Data,
}

/// Why a render failed, with the line of the template where the engine knows it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RenderError {
    pub kind: RenderErrorKind,
    pub message: String,
    pub line: Option<usize>,
}

impl RenderError {
    fn from_engine(e: &Error, output_exceeded: bool) -> RenderError {
        let chain = error_chain(e);
        let bound = output_exceeded
            || chain.iter().any(|c| {
                c.kind() == ErrorKind::OutOfFuel || c.to_string().contains("recursion limit")
            });
        let kind = match e.kind() {
            _ if bound => RenderErrorKind::Bound,
            ErrorKind::SyntaxError => RenderErrorKind::Syntax,
            _ => RenderErrorKind::Runtime,
        };
        let root = chain.last().copied().unwrap_or(e);
        let message = if output_exceeded {
            "the output is larger than the limit".to_string()
        } else if root.kind() == ErrorKind::OutOfFuel {
            "the template did too much work (it may loop without end)".to_string()
        } else {
            describe(e, root)
        };
        RenderError {
            kind,
            message,
            line: e.line(),
        }
    }
}

/// The error and the errors it was caused by, outermost first.
fn error_chain(e: &Error) -> Vec<&Error> {
    let mut chain = vec![e];
    let mut current: &dyn std::error::Error = e;
    while let Some(next) = current.source() {
        match next.downcast_ref::<Error>() {
            Some(inner) => chain.push(inner),
            None => break,
        }
        current = next;
    }
    chain
}

/// What went wrong, where: the outer error, then the cause inside an included template.
fn describe(outer: &Error, root: &Error) -> String {
    let text = |e: &Error| {
        let what = e
            .detail()
            .map_or_else(|| e.kind().to_string(), |d| format!("{}: {d}", e.kind()));
        match e.name().filter(|n| *n != "<string>") {
            Some(name) => format!("{what} (in {name}, line {})", e.line().unwrap_or(0)),
            None => what,
        }
    };
    if std::ptr::eq(outer, root) {
        text(outer)
    } else {
        format!("{}: {}", text(outer), text(root))
    }
}

/// Whether a template parses; the error names the line and the problem.
pub fn check(source: &str) -> Result<(), RenderError> {
    let env = Environment::new();
    let rewritten = include::rewrite(source);
    env.template_from_str(&rewritten)
        .map(|_| ())
        .map_err(|e| RenderError::from_engine(&e, false))
}

/// Renders a template with a context over a dataset.
pub fn render(
    template: &Template<'_>,
    context: Value,
    data: &Arc<Dataset>,
    bounds: &Bounds,
) -> Result<String, RenderError> {
    let renders = Arc::new(Mutex::new(HashMap::new()));
    render_at(template, context, data, bounds, 0, &renders)
}

/// Export templates already rendered within one top-level render, by identifier: each
/// is rendered once however often it is included.
type ExportRenders = Arc<Mutex<HashMap<String, Result<String, RenderError>>>>;

fn render_at(
    template: &Template<'_>,
    context: Value,
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
) -> Result<String, RenderError> {
    let env = environment(template, data, bounds, depth, renders)?;
    let rewritten = include::rewrite(template.source);
    let compiled = env
        .template_from_str(&rewritten)
        .map_err(|e| RenderError::from_engine(&e, false))?;
    let mut out = BoundedOutput::new(bounds.max_output);
    let result = compiled.render_captured_to(context, &mut out);
    if let Some(failure) = data.take_failure() {
        return Err(RenderError {
            kind: RenderErrorKind::Data,
            message: failure,
            line: None,
        });
    }
    result.map_err(|e| RenderError::from_engine(&e, out.exceeded))?;
    String::from_utf8(out.buffer).map_err(|_| RenderError {
        kind: RenderErrorKind::Runtime,
        message: "the output is not UTF-8 text".into(),
        line: None,
    })
}

fn environment<'s>(
    template: &Template<'_>,
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
) -> Result<Environment<'s>, RenderError> {
    let mut env = Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(template.trim)
        .lstrip_blocks(template.lstrip)
        .build()
        .map_err(|e| RenderError::from_engine(&e, false))?;
    env.set_syntax(syntax);
    env.set_fuel(Some(bounds.fuel));
    env.set_recursion_limit(200);
    let loader_data = data.clone();
    env.set_loader(move |name| load(&loader_data, name));
    let (data, bounds, renders) = (data.clone(), *bounds, renders.clone());
    env.add_function(EXPORT_FUNCTION, move |identifier: String| {
        include_export(&data, &bounds, depth, &renders, &identifier)
    });
    crate::filters::register(&mut env);
    Ok(env)
}

/// The source of a stored configuration or e-mail template, for `include`.
fn load(data: &Dataset, name: &str) -> Result<Option<String>, Error> {
    let Some((kind, identifier)) = include::parse_loader_name(name) else {
        return Ok(None);
    };
    if kind == StoredKind::ExportTemplate {
        return Ok(None);
    }
    match data.source().template(kind, identifier) {
        Ok(found) => Ok(found.map(|t| include::rewrite(&t.source))),
        Err(e) => Err(Error::new(ErrorKind::TemplateNotFound, e)),
    }
}

/// The output of an export template over every object of its resource.
fn include_export(
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
    identifier: &str,
) -> Result<Value, Error> {
    if depth + 1 > bounds.max_depth {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "recursion limit exceeded: export templates include each other too deeply",
        ));
    }
    let known = renders
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(identifier)
        .cloned();
    let rendered = match known {
        Some(done) => done,
        None => {
            let done = render_export(data, bounds, depth + 1, renders, identifier);
            renders
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(identifier.to_string(), done.clone());
            done
        }
    };
    rendered
        .map(Value::from_safe_string)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.message))
}

fn render_export(
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
    identifier: &str,
) -> Result<String, RenderError> {
    let missing = || RenderError {
        kind: RenderErrorKind::Runtime,
        message: format!("template not found: exporttemplate {identifier:?}"),
        line: None,
    };
    let stored = data
        .source()
        .template(StoredKind::ExportTemplate, identifier)
        .map_err(|e| RenderError {
            kind: RenderErrorKind::Data,
            message: e,
            line: None,
        })?
        .ok_or_else(missing)?;
    let spec = stored
        .content_type
        .as_deref()
        .and_then(peering_domain::resources::by_content_type)
        .ok_or_else(missing)?;
    let context = crate::context::export(data, spec, None);
    let template = Template {
        source: &stored.source,
        trim: stored.trim,
        lstrip: stored.lstrip,
    };
    render_at(&template, context, data, bounds, depth, renders)
}

/// Collects the output and refuses to grow past the limit.
struct BoundedOutput {
    buffer: Vec<u8>,
    limit: usize,
    exceeded: bool,
}

impl BoundedOutput {
    fn new(limit: usize) -> BoundedOutput {
        BoundedOutput {
            buffer: Vec::new(),
            limit,
            exceeded: false,
        }
    }
}

impl io::Write for BoundedOutput {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.buffer.len() + bytes.len() > self.limit {
            self.exceeded = true;
            return Err(io::Error::other("the output is larger than the limit"));
        }
        self.buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
