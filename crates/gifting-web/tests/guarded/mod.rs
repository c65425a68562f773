//! What both servers' tests check on an answer read off a raw connection: the security headers
//! every answer carries, including the answers hyper writes by itself.

use gifting_web::security::ANSWER_CSP;

/// `answer` (head first) has `status`, `nosniff`, `Referrer-Policy: no-referrer` and the
/// answers' policy, and `Connection: close` exactly when `close`.
pub fn assert_guarded(answer: &str, status: &str, close: bool) {
    assert!(
        answer.starts_with(&format!("HTTP/1.1 {status}")),
        "{answer}"
    );
    let head = answer.to_ascii_lowercase();
    for line in [
        "x-content-type-options: nosniff".to_owned(),
        "referrer-policy: no-referrer".to_owned(),
        format!("content-security-policy: {ANSWER_CSP}"),
    ] {
        assert!(
            head.contains(&format!("\r\n{line}\r\n")),
            "{line}: {answer}"
        );
    }
    assert_eq!(
        head.contains("\r\nconnection: close\r\n"),
        close,
        "{answer}"
    );
}
