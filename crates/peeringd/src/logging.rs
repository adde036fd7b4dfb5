//! The process's log: `RUST_LOG` picks what is written (default `info`), and
//! `PEERING_LOG_FORMAT` how: `text`, one readable line per event, or `json`, one object
//! per line for log collectors. The libraries' `log` records go the same way.

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!(
                "PEERING_LOG_FORMAT must be text or json, not {other:?}"
            )),
        }
    }
}

/// Starts writing the log to standard error, from a thread of its own: a request hands
/// its line over and goes on (a line a request, thousands a second, would otherwise cost
/// each request a write to stderr). The returned guard writes what is left when dropped:
/// keep it until the process ends.
pub fn init(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        // Past this many lines waiting, new ones wait too rather than being dropped. The
        // queue's slots are all set up at once (32 bytes a line): 8,192 lines, a fifth of a
        // second of requests at the fastest, hold 256 KiB where 65,536 held 2 MiB. A log
        // reader stalled that long makes requests wait for it sooner: a log is not lost.
        .buffered_lines_limit(8 * 1024)
        .lossy(false)
        // Lines taken together are written at once: under load, one write for many.
        .finish(std::io::BufWriter::with_capacity(
            64 << 10,
            std::io::stderr(),
        ));
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false);
    // A second call (tests starting several servers in one process) keeps the first.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    guard
}
