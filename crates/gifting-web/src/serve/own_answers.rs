//! The answers hyper writes by itself get the security headers too.
//!
//! hyper answers a request head it cannot parse with a bare head of its own — 400 (a bad
//! request line, method, header or version), 414 (a path over 65,534 bytes), 431 (more than
//! 100 headers, or a head that does not end within its 417,792-byte read buffer) — and closes
//! the connection. It has no hook to add a header (hyper 1.x, `proto/h1/role.rs`,
//! `Server::on_error`), so the connection's IO is wrapped and rewrites that answer on its way
//! out.
//!
//! hyper's own answer is told from a response by where the connection stands, never by its
//! bytes (a relayed body may hold anything). hyper parses a head only when the connection is
//! idle, the previous answer complete (`proto/h1/conn.rs`, `State::idle`), and it writes its
//! own answer only then (`Conn::on_parse_error`, when `Writing::Init`). So the service marks
//! the connection [busy](Phase::busy) when hyper calls it, the response body marks it ending
//! when hyper drops it (the answer's last bytes are then in hyper's write buffer), and the next
//! flush, which hyper calls once it has handed over its whole buffer, marks it idle. Whatever
//! hyper writes while the connection is idle is its own answer.
//!
//! While it ends, the IO takes every byte hyper writes, holding what the socket does not take
//! yet (the end of one answer, which hyper held already): hyper can also go idle without a
//! flush (a request body read after its answer went out, `Conn::poll_read_body`), and its own
//! answer must not then be written in one piece with the end of the previous one.
//!
//! The normal path costs an atomic load per write and a small wrapper per response body.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use axum::body::{Body, Bytes};
use hyper::body::{Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::security::ON_EVERY_ANSWER;

const IDLE: u64 = 0;
const BUSY: u64 = 1;
const ENDING: u64 = 2;

/// Where one connection stands (the low two bits) and how many requests it has had (the
/// rest), shared by its service, its response bodies and its IO, all polled by the
/// connection's task one after the other.
#[derive(Clone, Default)]
pub(super) struct Phase(Arc<AtomicU64>);

impl Phase {
    /// hyper has parsed a request head and called the service; what the request's answer
    /// ends ([`Watched::new`]).
    pub(super) fn busy(&self) -> u64 {
        let busy = ((self.0.load(Ordering::Relaxed) >> 2) + 1) << 2 | BUSY;
        self.0.store(busy, Ordering::Relaxed);
        busy
    }

    fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed) & 3
    }

    /// The answer of the request in `busy` is out of hyper's hands. Only that one: a body
    /// dropped late must not end the next request's answer.
    fn ending(&self, busy: u64) {
        let ending = busy & !3 | ENDING;
        let _ = (self.0).compare_exchange(busy, ending, Ordering::Relaxed, Ordering::Relaxed);
    }

    fn idle(&self) {
        let now = self.0.load(Ordering::Relaxed);
        self.0.store(now & !3 | IDLE, Ordering::Relaxed);
    }
}

/// A response body that marks the connection ending when hyper is done with it.
pub(super) struct Watched {
    body: Body,
    phase: Phase,
    busy: u64,
}

impl Watched {
    /// `body`, the answer to the request `phase.busy()` returned `busy` for.
    pub(super) fn new(body: Body, phase: Phase, busy: u64) -> Self {
        Watched { body, phase, busy }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.phase.ending(self.busy);
    }
}

impl hyper::body::Body for Watched {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection's IO that adds the security headers to the answers hyper writes by itself.
pub(super) struct OwnAnswers<S> {
    io: S,
    phase: Phase,
    /// Bytes hyper handed over that the socket has not taken yet, in order, from `sent` on.
    held: Vec<u8>,
    sent: usize,
    /// hyper's own answer as hyper wrote it, until the flush that sends it rewritten.
    own: Vec<u8>,
}

impl<S: AsyncWrite + Unpin> OwnAnswers<S> {
    pub(super) fn new(io: S, phase: Phase) -> Self {
        OwnAnswers {
            io,
            phase,
            held: Vec::new(),
            sent: 0,
            own: Vec::new(),
        }
    }

    /// Writes out what is held.
    fn poll_held(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.held.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.held[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        // Rarely used: give its memory back rather than keep it for the connection's life.
        self.held = Vec::new();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }

    /// Writes `bufs` (`len` bytes in all) as hyper handed them over.
    fn poll_bufs(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
        len: usize,
    ) -> Poll<io::Result<usize>> {
        match self.phase.get() {
            IDLE => {
                bufs.iter().for_each(|b| self.own.extend_from_slice(b));
                Poll::Ready(Ok(len))
            }
            ENDING => {
                let mut taken = 0;
                if self.held.is_empty() {
                    let io = Pin::new(&mut self.io);
                    match io.poll_write_vectored(cx, bufs) {
                        Poll::Ready(Ok(n)) => taken = n,
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                        Poll::Pending => {}
                    }
                }
                for buf in bufs {
                    let skip = taken.min(buf.len());
                    self.held.extend_from_slice(&buf[skip..]);
                    taken -= skip;
                }
                Poll::Ready(Ok(len))
            }
            _ => {
                ready!(self.poll_held(cx))?;
                Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for OwnAnswers<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for OwnAnswers<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.phase.get() == BUSY && self.held.is_empty() {
            return Pin::new(&mut self.io).poll_write(cx, buf);
        }
        self.poll_bufs(cx, &[io::IoSlice::new(buf)], buf.len())
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let len = bufs.iter().map(|b| b.len()).sum();
        self.poll_bufs(cx, bufs, len)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.phase.get() == ENDING {
            // hyper flushes once it has handed over everything it buffered: the response is out
            // of its hands, and it may read the next head.
            self.phase.idle();
        }
        if !self.own.is_empty() {
            let own = std::mem::take(&mut self.own);
            self.held.extend_from_slice(&with_security_headers(&own));
        }
        ready!(self.poll_held(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.as_mut().poll_flush(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// hyper's own answer (`HTTP/1.1 400 Bad Request`, `connection: close`, `content-length: 0`,
/// `date`) with [`ON_EVERY_ANSWER`] after its status line, and `connection: close` if it
/// lacked it (hyper closes after its own answer either way). Anything that is not a head is
/// left as it is.
fn with_security_headers(head: &[u8]) -> Vec<u8> {
    let status_line = head.windows(2).position(|w| w == b"\r\n");
    let Some(end) = status_line.filter(|_| head.starts_with(b"HTTP/")) else {
        return head.to_vec();
    };
    let mut added = String::new();
    for (name, value) in ON_EVERY_ANSWER {
        added.push_str(&format!("{}: {value}\r\n", name.as_str()));
    }
    let lower = head.to_ascii_lowercase();
    if !lower.windows(21).any(|w| w == b"\r\nconnection: close\r\n") {
        added.push_str("connection: close\r\n");
    }
    [&head[..end + 2], added.as_bytes(), &head[end + 2..]].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headers_go_after_the_status_line() {
        let hyper = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        let out = String::from_utf8(with_security_headers(hyper)).expect("ascii");
        assert_eq!(
            out,
            "HTTP/1.1 414 URI Too Long\r\nx-content-type-options: nosniff\r\n\
             referrer-policy: no-referrer\r\ncontent-security-policy: default-src 'none'; \
             sandbox; frame-ancestors 'none'\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
        );
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let out = String::from_utf8(with_security_headers(bare)).expect("ascii");
        assert!(
            out.contains("\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"),
            "{out}"
        );
        assert_eq!(with_security_headers(b"not a head"), b"not a head");
    }
}
