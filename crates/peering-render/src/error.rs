//! Why a render failed, in words a template's author can act on: the kind of failure,
//! the message, and the line where the engine knows it.

use minijinja::{Error, ErrorKind};

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
    pub(crate) fn from_engine(e: &Error, output_exceeded: bool) -> RenderError {
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
