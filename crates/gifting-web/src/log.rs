//! The log both servers write: one JSON object a line on stderr, through `tracing` and
//! `tracing-subscriber`'s JSON formatter. A request's line carries `timestamp`, `level`,
//! `message: "request"`, `request_id` (when there is one), `method`, `route` (a template or
//! a path, never a query string), `status`, `latency_ms` and, at the gateway, `upstream`
//! when the platform did not answer. Anything else (`shutting down`, a warning) is a line
//! with its `message`.
//!
//! A [`Log`] is where one server's lines go: stderr (also the process's default), or memory,
//! so a test can read what one server in a process full of them wrote.

use std::future::Future;
use std::io;
use std::sync::{Arc, Mutex};

use tracing::instrument::{WithDispatch, WithSubscriber as _};
use tracing::Dispatch;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// Lines written to memory (tests).
pub type Lines = Arc<Mutex<Vec<String>>>;

/// Where one server's log lines go. Cheap to clone.
#[derive(Clone)]
pub struct Log(Dispatch);

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Log")
    }
}

fn json<W>(writer: W, filter: EnvFilter) -> Dispatch
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let subscriber = tracing_subscriber::fmt()
        .json()
        // The event's fields at the top level of its object, beside timestamp and level.
        .flatten_event(true)
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .with_ansi(false)
        .with_writer(writer)
        .with_env_filter(filter)
        .finish();
    Dispatch::new(subscriber)
}

impl Log {
    /// JSON lines on stderr, filtered by `RUST_LOG` (default `info`).
    pub fn stderr() -> Log {
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
        Log(json(io::stderr, filter))
    }

    /// JSON lines kept in memory, returned beside the log.
    pub fn memory() -> (Log, Lines) {
        let lines = Lines::default();
        let writer = MemoryWriter(lines.clone());
        (Log(json(writer, EnvFilter::new("info"))), lines)
    }

    /// Makes this log the process's default too (the binaries: events outside any request).
    pub fn install_as_default(&self) {
        let _ = tracing::dispatcher::set_global_default(self.0.clone());
    }

    /// Runs `work` with its events going to this log.
    pub fn scope<F: Future>(&self, work: F) -> WithDispatch<F> {
        work.with_subscriber(self.0.clone())
    }

    /// Runs `f` with its events going to this log.
    pub fn now<T>(&self, f: impl FnOnce() -> T) -> T {
        tracing::dispatcher::with_default(&self.0, f)
    }
}

/// What a request's line says (see the module's description).
#[derive(Debug, Clone, Copy)]
pub struct RequestLine<'a> {
    pub request_id: Option<&'a str>,
    pub method: &'a str,
    pub route: &'a str,
    /// The status sent, or `None` for a connection dropped without an answer.
    pub status: Option<u16>,
    pub latency_ms: f64,
    pub upstream: Option<&'a str>,
}

impl RequestLine<'_> {
    /// Writes the line to the log in scope: a server error is a warning.
    pub fn write(&self) {
        let latency_ms = (self.latency_ms * 10.0).round() / 10.0;
        let status = self.status;
        let dropped = status.is_none().then_some("dropped");
        macro_rules! line {
            ($level:ident) => {
                tracing::$level!(
                    request_id = self.request_id,
                    method = self.method,
                    route = self.route,
                    status,
                    connection = dropped,
                    latency_ms,
                    upstream = self.upstream,
                    "request"
                )
            };
        }
        if status.is_none_or(|s| s >= 500) {
            line!(warn);
        } else {
            line!(info);
        }
    }
}

/// A writer of whole lines into memory.
#[derive(Clone)]
struct MemoryWriter(Lines);

impl<'w> MakeWriter<'w> for MemoryWriter {
    type Writer = LineBuffer;

    fn make_writer(&'w self) -> LineBuffer {
        LineBuffer(self.0.clone(), Vec::new())
    }
}

/// One event's bytes, pushed as lines when the formatter is done with it.
pub struct LineBuffer(Lines, Vec<u8>);

impl io::Write for LineBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.1.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LineBuffer {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.1);
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        lines.extend(text.lines().map(str::to_owned));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_line_is_one_flat_json_object() {
        let (log, lines) = Log::memory();
        log.now(|| {
            RequestLine {
                request_id: Some("abc"),
                method: "GET",
                route: "/api/v3/send",
                status: Some(504),
                latency_ms: 12.345,
                upstream: Some("timeout"),
            }
            .write();
            RequestLine {
                request_id: None,
                method: "POST",
                route: "/oauth/token",
                status: None,
                latency_ms: 1.0,
                upstream: None,
            }
            .write();
            tracing::info!("shutting down");
        });
        let lines = lines.lock().expect("lines").clone();
        assert_eq!(lines.len(), 3, "{lines:?}");
        let first: serde_json::Value = serde_json::from_str(&lines[0]).expect("json");
        assert_eq!(first["level"], "WARN");
        assert_eq!(first["message"], "request");
        assert_eq!(first["request_id"], "abc");
        assert_eq!(first["route"], "/api/v3/send");
        assert_eq!(first["status"], 504);
        assert_eq!(first["latency_ms"], 12.3);
        assert_eq!(first["upstream"], "timeout");
        assert!(first["timestamp"].is_string());
        let dropped: serde_json::Value = serde_json::from_str(&lines[1]).expect("json");
        assert_eq!(dropped["connection"], "dropped");
        assert!(dropped.get("request_id").is_none() && dropped.get("upstream").is_none());
        assert!(lines[2].contains("\"message\":\"shutting down\""));
    }
}
