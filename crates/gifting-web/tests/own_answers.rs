//! The answers hyper writes by itself to a request head it cannot parse (400, 414, 431) carry
//! the security headers every answer carries, and close the connection: on a new connection
//! and on a kept-alive one after a good request.

use std::time::Duration;

mod guarded;

use axum::routing::get;
use axum::Router;
use gifting_web::security::with_security_headers;
use gifting_web::serve::{run, Limits};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

use guarded::assert_guarded;

/// More than the socket buffers hold, so that the server waits on the client mid-answer.
const BIG: usize = 8 << 20;

/// The connection loop serving a one-route router, in the background until the test ends.
async fn server() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let big = || async { "x".repeat(BIG) };
    // Answers at once and reads the request body afterwards, in a task of its own.
    let later = |body: axum::body::Body| async move {
        tokio::spawn(axum::body::to_bytes(body, 100));
        "x".repeat(BIG)
    };
    let routes = Router::new()
        .route("/later", axum::routing::post(later))
        .route(
            "/",
            get(|| async { "hello" }).post(|body: String| async { body }),
        )
        .route("/big", get(big));
    let router = with_security_headers(routes, false);
    let handle = move |req: axum::http::Request<hyper::body::Incoming>, _| {
        tower::ServiceExt::oneshot(router.clone(), req.map(axum::body::Body::new))
    };
    let limits = Limits {
        header_read: Duration::from_secs(5),
        drain: Duration::from_secs(1),
    };
    tokio::spawn(run(listener, handle, limits, || {}, std::future::pending()));
    addr
}

/// Everything the server sends until it closes the connection; panics if it is still open
/// after a few seconds.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut seen = Vec::new();
    let read = stream.read_to_end(&mut seen);
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("the server closed the connection")
        .expect("read");
    String::from_utf8_lossy(&seen).into_owned()
}

/// Reads until `end` has arrived (the end of a good answer), without waiting for a close.
async fn until(stream: &mut TcpStream, end: &str) -> String {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        while !seen.ends_with(end.as_bytes()) {
            let n = stream.read(&mut buf).await.expect("read");
            assert!(n > 0, "closed after {:?}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..n]);
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("the answer arrived");
    String::from_utf8_lossy(&seen).into_owned()
}

/// Heads hyper refuses by itself, each with the status it answers.
fn malformed() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let long_path = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let many_headers = format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(101));
    // Exactly hyper's read buffer (8 KiB + 100 × 4 KiB), all of it read: a byte more left
    // unread when the server closes would reset the connection before the answer is read.
    let mut endless = b"GET / HTTP/1.1\r\nX-A: ".to_vec();
    endless.resize(8192 + 4096 * 100, b'a');
    vec![
        (
            "a bad request line",
            b"GET / HTTZ/1.1\r\n\r\n".to_vec(),
            "400",
        ),
        ("a bad method", b"G@T / HTTP/1.1\r\n\r\n".to_vec(), "400"),
        (
            "a bad header",
            b"GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n".to_vec(),
            "400",
        ),
        ("a path over 65,534 bytes", long_path.into_bytes(), "414"),
        ("over 100 headers", many_headers.into_bytes(), "431"),
        ("a head that does not end", endless, "431"),
    ]
}

#[tokio::test]
async fn hypers_own_answers_carry_the_security_headers_and_close() {
    let addr = server().await;
    for (what, head, status) in malformed() {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream.write_all(&head).await.expect("write");
        let answer = until_closed(&mut stream).await;
        assert_guarded(&answer, status, true);
        assert!(answer.ends_with("\r\n\r\n"), "{what}: no body: {answer}");
    }
}

#[tokio::test]
async fn a_bad_head_after_a_good_request_on_a_kept_alive_connection_gets_them_too() {
    let addr = server().await;
    let good = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    for (what, head, status) in malformed() {
        // One request answered, then the bad head on the same connection.
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream.write_all(good).await.expect("write");
        let first = until(&mut stream, "hello").await;
        assert_guarded(&first, "200", false);
        stream.write_all(&head).await.expect("write");
        assert_guarded(&until_closed(&mut stream).await, status, true);
        // Both in one write (pipelined): hyper reads the second head from what it buffered.
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(&[&good[..], &head].concat())
            .await
            .expect("write");
        let both = until_closed(&mut stream).await;
        let (first, second) = both.split_once("hello").expect(what);
        assert_guarded(first, "200", false);
        assert_guarded(second, status, true);
    }
}

#[tokio::test]
async fn a_bad_head_after_any_kind_of_answer_gets_them_too() {
    let addr = server().await;
    let bad = b"G@T / HTTP/1.1\r\n\r\n";
    let goods: [(&str, &[u8], &str); 4] = [
        // An answer larger than the socket takes at once: its end waits in the connection.
        (
            "a large answer",
            b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n",
            "200",
        ),
        (
            "an answer without a body",
            b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n",
            "200",
        ),
        // Answered before its body is read: hyper reads the body after the answer.
        (
            "a request body never read",
            b"POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde",
            "405",
        ),
        (
            "a request that asked to continue",
            b"POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nabcde",
            "100 Continue\r\n\r\nHTTP/1.1 200",
        ),
    ];
    for (what, good, status) in goods {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(&[good, &bad[..]].concat())
            .await
            .expect("write");
        let both = until_closed(&mut stream).await;
        let (first, second) = both.rsplit_once("HTTP/1.1 ").expect(what);
        assert_guarded(first, status, false);
        assert_guarded(&format!("HTTP/1.1 {second}"), "400", true);
        if what == "a large answer" {
            assert!(first.ends_with(&"x".repeat(1000)), "{what}: cut short");
            assert!(first.len() > BIG, "{what}: {} bytes", first.len());
        }
    }
}

#[tokio::test]
async fn a_bad_head_read_while_a_large_answer_is_still_going_out_gets_them_too() {
    let addr = server().await;
    // The answer is on its way before the request body has arrived (a task reads it later);
    // hyper reads that body, and the bad head behind it, while the end of the answer still
    // waits for the socket: its own answer goes after the whole of the first.
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let head = b"POST /later HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n";
    stream.write_all(head).await.expect("write");
    let mut start = [0u8; 12];
    stream.read_exact(&mut start).await.expect("read");
    assert_eq!(&start, b"HTTP/1.1 200");
    stream
        .write_all(b"abcdeG@T / HTTP/1.1\r\n\r\n")
        .await
        .expect("write");
    let rest = until_closed(&mut stream).await;
    let (first, second) = rest.rsplit_once("HTTP/1.1 ").expect("two answers");
    assert!(first.len() + start.len() > BIG, "{} bytes", first.len());
    assert_guarded(&format!("HTTP/1.1 200{first}"), "200", false);
    assert_guarded(&format!("HTTP/1.1 {second}"), "400", true);
}
