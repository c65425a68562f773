//! The console's Content-Security-Policy and the headers every response of a server that
//! hosts it carries.

use axum::http::{header, HeaderName, HeaderValue};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

/// What the console's policy allows beyond its own origin. Scripts never come from anywhere
/// else (`'self'` plus wasm compilation, no inline code), whatever these lists hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csp {
    /// Extra sources for images (the platform's image CDN).
    pub img_src: Vec<String>,
    /// Extra sources the console may call (a platform on another origin).
    pub connect_src: Vec<String>,
}

impl Csp {
    pub fn header_value(&self) -> String {
        let list = |extra: &[String]| {
            std::iter::once("'self'")
                .chain(extra.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
             img-src {}; connect-src {}; object-src 'none'; base-uri 'self'; \
             form-action 'self'; frame-ancestors 'none'",
            list(&self.img_src),
            list(&self.connect_src)
        )
    }
}

/// Whether `source` can stand in a CSP source list as one source: a scheme (`https:`), or an
/// origin (`https://cdn.example.com`, `http://127.0.0.1:8081`) without path, query or anything
/// that would end the directive or open a new one.
pub fn is_csp_source(source: &str) -> bool {
    let Some((scheme, rest)) = source.split_once(':') else {
        return false;
    };
    let scheme_ok = matches!(scheme, "http" | "https" | "data");
    let host = rest.strip_prefix("//").unwrap_or("");
    scheme_ok
        && (rest.is_empty()
            || (!host.is_empty()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]*".contains(&b))))
}

/// The policy of an answer that is data, not a page (relayed API and OAuth answers): nothing
/// loads, nothing runs, nothing frames it, even if it is HTML opened on the console's origin.
pub const ANSWER_CSP: &str = "default-src 'none'; sandbox; frame-ancestors 'none'";

/// A layer setting [`ANSWER_CSP`] on every response, replacing any policy already there.
pub fn answers_policy() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(ANSWER_CSP),
    )
}

/// How long browsers keep to https once told (two years, the usual preload figure).
const HSTS: &str = "max-age=63072000";

/// What every answer carries unless it set its own: `nosniff`, `Referrer-Policy: no-referrer`
/// and a policy ([`ANSWER_CSP`], which forbids framing). The answers hyper writes by itself
/// get the same (`serve`).
pub const ON_EVERY_ANSWER: [(HeaderName, &str); 3] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::CONTENT_SECURITY_POLICY, ANSWER_CSP),
];

/// [`ON_EVERY_ANSWER`] on every response that has them not (a page sets its own policy first:
/// the console's, the consent page's), and `Strict-Transport-Security` when the server is
/// reached over TLS (`hsts`). Put it outside every layer that answers by itself (CORS
/// preflights, the panic handler), so that no answer leaves without them.
pub fn with_security_headers<S>(router: Router<S>, hsts: bool) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    let router = ON_EVERY_ANSWER
        .into_iter()
        .fold(router, |router, (name, value)| {
            router.layer(set(name, value))
        });
    if hsts {
        router.layer(set(header::STRICT_TRANSPORT_SECURITY, HSTS))
    } else {
        router
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::response::IntoResponse;
    use axum::routing::get;
    use tower::ServiceExt as _;

    async fn headers_of(router: Router, path: &str) -> axum::http::HeaderMap {
        let req = Request::builder().uri(path).body(Body::empty());
        let res = router.oneshot(req.expect("request")).await;
        res.expect("infallible").headers().clone()
    }

    #[tokio::test]
    async fn every_answer_carries_a_policy_and_nosniff() {
        let own = "default-src 'self'";
        let page = move || async move {
            ([(header::CONTENT_SECURITY_POLICY, own)], "<p>page</p>").into_response()
        };
        let router = Router::new()
            .route("/data", get(|| async { "{}" }))
            .route("/page", get(page))
            .fallback(|| async { StatusCode::NOT_FOUND });
        let router = with_security_headers(router, false);
        for path in ["/data", "/nowhere"] {
            let h = headers_of(router.clone(), path).await;
            assert_eq!(h[header::CONTENT_SECURITY_POLICY], ANSWER_CSP, "{path}");
            assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        }
        let h = headers_of(router, "/page").await;
        assert_eq!(
            h[header::CONTENT_SECURITY_POLICY],
            own,
            "a page keeps its own"
        );
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    }

    #[test]
    fn policy_lists_extra_sources_after_self() {
        let csp = Csp {
            img_src: vec!["https://cdn.example.com".into()],
            connect_src: vec![],
        }
        .header_value();
        assert!(csp.contains("img-src 'self' https://cdn.example.com;"));
        assert!(csp.contains("connect-src 'self';"));
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval';"));
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(!csp.contains("unsafe-inline"));
    }

    #[test]
    fn sources_that_could_widen_the_policy_are_refused() {
        for good in [
            "https:",
            "data:",
            "https://cdn.example.com",
            "http://127.0.0.1:8081",
        ] {
            assert!(is_csp_source(good), "{good}");
        }
        for bad in [
            "",
            "*",
            "'unsafe-inline'",
            "https://a.example; script-src *",
            "https://a.example 'unsafe-eval'",
            "javascript:",
            "https://a.example/path",
            "https://",
        ] {
            assert!(!is_csp_source(bad), "{bad}");
        }
    }
}
