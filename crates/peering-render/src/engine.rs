//! The engine: a sandboxed environment per render, with its bounds.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use minijinja::value::Value;
use minijinja::{Environment, Error, ErrorKind};

use crate::budget::RenderMemory;
use crate::dataset::Dataset;
pub use crate::error::{RenderError, RenderErrorKind};
use crate::include::{self, EXPORT_FUNCTION};
use crate::limits::{self, MAX_TAG_OPERATORS, MAX_VALUE_DEPTH, RENDER_STACKS};
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
    /// The most memory a render may hold, in bytes: what it allocated and has not freed,
    /// its output aside (bounded by `max_output`), counted when the program's allocator
    /// is a [`crate::CountingAllocator`].
    pub max_memory: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            fuel: 100_000_000,
            max_output: 32 * 1024 * 1024,
            max_depth: 8,
            max_memory: 128 * 1024 * 1024,
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

/// Whether a template parses; the error names the line and the problem. A tag with more
/// operators than [`MAX_TAG_OPERATORS`] is refused (the engine would build a tree as
/// deep as its chain). The parse runs on a thread with a large stack.
pub fn check(source: &str) -> Result<(), RenderError> {
    on_render_thread(|_| {
        let rewritten = prepared(source)?;
        let env = Environment::new();
        env.template_from_str(&rewritten)
            .map(|_| ())
            .map_err(|e| RenderError::from_engine(&e, false))
    })?
}

/// Renders a template with a context over a dataset.
pub fn render(
    template: &Template<'_>,
    context: Value,
    data: &Arc<Dataset>,
    bounds: &Bounds,
) -> Result<String, RenderError> {
    render_named("template", template, context, data, bounds)
}

/// [`render`], with the template's name (or id) for the log: a render stopped by a bound
/// is logged at warn level with that name, why, and the memory it held.
pub fn render_named(
    name: &str,
    template: &Template<'_>,
    context: Value,
    data: &Arc<Dataset>,
    bounds: &Bounds,
) -> Result<String, RenderError> {
    let result = on_render_thread(move |stack| {
        let budget = limits::budget_for_stack(stack, bounds.max_memory);
        let watch = Arc::new(Watch::start(budget));
        let renders = Arc::new(Mutex::new(HashMap::new()));
        let result = render_at(template, context, data, bounds, 0, &renders, &watch);
        (result, watch.memory.peak())
    });
    let (result, peak) = match result {
        Ok((result, peak)) => (result, Some(peak)),
        Err(e) => (Err(e), None),
    };
    if let Err(e) = &result {
        if e.kind == RenderErrorKind::Bound {
            tracing::warn!(
                template = name,
                reason = %e.message,
                line = e.line,
                memory_peak = peak,
                "a template render was stopped at a bound"
            );
        }
    }
    result
}

/// Runs `work` on a thread of its own and waits for it. The stack is the largest of
/// [`RENDER_STACKS`] the system grants (a machine with little memory and strict
/// accounting may refuse to reserve the largest); `work` is told its size. The thread ends
/// with the work, so the memory the work used (its stack and what it allocated and
/// freed) goes back to the allocator and the system.
fn on_render_thread<T: Send>(work: impl FnOnce(usize) -> T + Send) -> Result<T, RenderError> {
    let failed = |message: &str| RenderError {
        kind: RenderErrorKind::Runtime,
        message: message.to_string(),
        line: None,
    };
    let work = Mutex::new(Some(work));
    std::thread::scope(|scope| {
        for stack in RENDER_STACKS {
            let work = &work;
            let run = move || {
                let taken = work.lock().unwrap_or_else(|e| e.into_inner()).take();
                taken.map(|work| work(stack))
            };
            let Ok(thread) = std::thread::Builder::new()
                .name("render".into())
                .stack_size(stack)
                .spawn_scoped(scope, run)
            else {
                continue;
            };
            return match thread.join() {
                Ok(Some(done)) => Ok(done),
                Ok(None) => Err(failed("the template was already run")),
                Err(_) => Err(failed("the template engine failed on this template")),
            };
        }
        Err(failed("no thread could be started for the template"))
    })
}

/// The source as the engine gets it: include tags rewritten, a tick in every loop and
/// macro; refused if a tag holds more than [`MAX_TAG_OPERATORS`] operators.
fn prepared(source: &str) -> Result<String, RenderError> {
    let rewritten = include::rewrite(source);
    within_tag_limits(&rewritten)?;
    Ok(limits::with_ticks(&rewritten))
}

/// Refuses a source with a tag past [`MAX_TAG_OPERATORS`].
fn within_tag_limits(source: &str) -> Result<(), RenderError> {
    match limits::first_complex_tag(source, MAX_TAG_OPERATORS) {
        None => Ok(()),
        Some(tag) => Err(RenderError {
            kind: RenderErrorKind::Syntax,
            message: format!(
                "a tag holds {} operators (filters, attributes, calls, operators); at most \
                 {MAX_TAG_OPERATORS} are allowed in one tag: split it with {{% set %}}",
                tag.operators
            ),
            line: Some(tag.line),
        }),
    }
}

/// What one top-level render may still use, and why it was stopped if it was. Checked
/// wherever the engine calls back into us (output, printing, `range`, includes).
struct Watch {
    memory: RenderMemory,
    stopped: OnceLock<String>,
}

impl Watch {
    fn start(max_memory: usize) -> Watch {
        Watch {
            memory: RenderMemory::start(max_memory),
            stopped: OnceLock::new(),
        }
    }

    /// An error once the render holds more than its budget (or was stopped before).
    fn check(&self) -> Result<(), Error> {
        if self.stopped.get().is_none() && self.memory.exceeded() {
            let mib = |bytes: usize| bytes.div_ceil(1024 * 1024);
            let _ = self.stopped.set(format!(
                "the template holds more memory than its budget ({} MiB held, at most {} MiB)",
                mib(self.memory.held()),
                mib(self.memory.limit())
            ));
        }
        match self.stopped.get() {
            Some(reason) => Err(Error::new(ErrorKind::InvalidOperation, reason.clone())),
            None => Ok(()),
        }
    }

    /// [`Watch::check`], and a refusal of values nested past [`MAX_VALUE_DEPTH`]: the
    /// engine prints, serialises and compares them recursively.
    fn check_value(&self, value: &Value) -> Result<(), Error> {
        self.check()?;
        if limits::nested_deeper_than(value, MAX_VALUE_DEPTH) {
            let _ = self.stopped.set(format!(
                "a value nests lists or maps more than {MAX_VALUE_DEPTH} levels deep"
            ));
            return self.check();
        }
        Ok(())
    }
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
    watch: &Arc<Watch>,
) -> Result<String, RenderError> {
    let env = environment(template, data, bounds, depth, renders, watch)?;
    let rewritten = prepared(template.source)?;
    let compiled = env
        .template_from_str(&rewritten)
        .map_err(|e| RenderError::from_engine(&e, false))?;
    let mut out = BoundedOutput::new(bounds.max_output, watch.clone());
    let result = compiled.render_captured_to(context, &mut out);
    if let Some(failure) = data.take_failure() {
        return Err(RenderError {
            kind: RenderErrorKind::Data,
            message: failure,
            line: None,
        });
    }
    let result = result.and_then(|_| watch.check());
    result.map_err(|e| stopped_or_engine(&e, &out, watch))?;
    String::from_utf8(out.buffer).map_err(|_| RenderError {
        kind: RenderErrorKind::Runtime,
        message: "the output is not UTF-8 text".into(),
        line: None,
    })
}

/// The render's error: the bound that stopped it, else the engine's.
fn stopped_or_engine(e: &Error, out: &BoundedOutput, watch: &Watch) -> RenderError {
    match watch.stopped.get() {
        Some(reason) if !out.exceeded => RenderError {
            kind: RenderErrorKind::Bound,
            message: reason.clone(),
            line: e.line(),
        },
        _ => RenderError::from_engine(e, out.exceeded),
    }
}

fn environment<'s>(
    template: &Template<'_>,
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
    watch: &Arc<Watch>,
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
    let (loader_data, loader_watch) = (data.clone(), watch.clone());
    env.set_loader(move |name| {
        loader_watch.check()?;
        load(&loader_data, name)
    });
    let printing = watch.clone();
    env.set_formatter(move |out, state, value| {
        printing.check_value(value)?;
        minijinja::escape_formatter(out, state, value)
    });
    let ticking = watch.clone();
    env.add_function(limits::TICK_FUNCTION, move || {
        ticking.check().map(|()| Value::from(()))
    });
    let counting = watch.clone();
    env.add_function(
        "range",
        move |lower: i64, upper: Option<i64>, step: Option<i64>| {
            watched_range(&counting, lower, upper, step)
        },
    );
    let (data, bounds, renders, watch) = (data.clone(), *bounds, renders.clone(), watch.clone());
    env.add_function(EXPORT_FUNCTION, move |identifier: String| {
        watch.check()?;
        include_export(&data, &bounds, depth, &renders, &watch, &identifier)
    });
    crate::filters::register(&mut env);
    crate::functions::register(&mut env);
    // Python's methods of texts, maps and lists, which Jinja2 templates call.
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    Ok(env)
}

/// The most items a `range` may hold, as the engine's own `range`.
const MAX_RANGE_ITEMS: i64 = 100_000;

/// Jinja2's `range`, whose every step checks the render's budget: a loop that builds
/// values without printing anything still comes back to us at each turn.
fn watched_range(
    watch: &Arc<Watch>,
    lower: i64,
    upper: Option<i64>,
    step: Option<i64>,
) -> Result<Value, Error> {
    let (start, stop) = match upper {
        Some(upper) => (lower, upper),
        None => (0, lower),
    };
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "cannot create range with step of 0",
        ));
    }
    let span = i128::from(stop) - i128::from(start);
    let count = if (span > 0) == (step > 0) && span != 0 {
        (span.abs() + i128::from(step).abs() - 1) / i128::from(step).abs()
    } else {
        0
    };
    if count > i128::from(MAX_RANGE_ITEMS) {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "range has too many elements",
        ));
    }
    let watch = watch.clone();
    Ok(Value::make_iterable(move || {
        let watch = watch.clone();
        let mut failed = false;
        (0..count as i64).map_while(move |i| {
            if failed {
                return None;
            }
            Some(match watch.check() {
                Ok(()) => Value::from(start + i * step),
                Err(e) => {
                    failed = true;
                    Value::from(e)
                }
            })
        })
    }))
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
        Ok(Some(found)) => prepared(&found.source)
            .map(Some)
            .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.message)),
        Ok(None) => Ok(None),
        Err(e) => Err(Error::new(ErrorKind::TemplateNotFound, e)),
    }
}

/// The output of an export template over every object of its resource.
fn include_export(
    data: &Arc<Dataset>,
    bounds: &Bounds,
    depth: usize,
    renders: &ExportRenders,
    watch: &Arc<Watch>,
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
            let done = render_export(data, bounds, depth + 1, renders, watch, identifier);
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
    watch: &Arc<Watch>,
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
    render_at(&template, context, data, bounds, depth, renders, watch)
}

/// Collects the output and refuses to grow past the limit, or once the render holds
/// more memory than its budget.
struct BoundedOutput {
    buffer: Vec<u8>,
    limit: usize,
    exceeded: bool,
    watch: Arc<Watch>,
}

impl BoundedOutput {
    fn new(limit: usize, watch: Arc<Watch>) -> BoundedOutput {
        BoundedOutput {
            buffer: Vec::new(),
            limit,
            exceeded: false,
            watch,
        }
    }
}

impl io::Write for BoundedOutput {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Err(e) = self.watch.check() {
            return Err(io::Error::other(e.to_string()));
        }
        if self.buffer.len() + bytes.len() > self.limit {
            self.exceeded = true;
            return Err(io::Error::other("the output is larger than the limit"));
        }
        // The output has its own limit: it does not count against the memory budget.
        crate::budget::uncounted(|| self.buffer.extend_from_slice(bytes));
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
