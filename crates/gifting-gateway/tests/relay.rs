//! The gateway in front of the real sandbox playing a platform that demands the client
//! secret (`--require-client-secret`): every relay path, the refusals, and the secret never
//! leaving the gateway.

mod support;

use gifting_api::oauth::{revocation_form, OAuthError, TokenResponse};
use gifting_api::rest::RestError;
use gifting_api::scim::{CreateUser, ReplaceUser, ScimError, ScimUser};
use gifting_api::Role;
use reqwest::StatusCode;
use support::sandbox::{basic, header, Answer, Server, VERIFIER};
use support::{assert_no_secret, dump, gateway, secret_platform, sign_in};

#[tokio::test]
async fn sign_in_refresh_and_revoke_through_the_relay() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &[]).await;
    let authorize = g
        .get_req("/oauth/authorize?client_id=gifting-console&state=st4te&scope=scim")
        .answer()
        .await;
    assert_eq!(authorize.status(), StatusCode::FOUND);
    assert_eq!(
        authorize.headers()["location"],
        format!(
            "{}/oauth/authorize?client_id=gifting-console&state=st4te&scope=scim",
            s.url
        )
        .as_str()
    );
    let (_, t) = sign_in(&s, &g).await;
    let me = |token: String| {
        let http = g.http.clone();
        let url = g.at("/api/v3/me");
        async move { http.get(url).bearer_auth(token).answer().await }
    };
    let relayed = me(t.access_token.clone()).await;
    assert_eq!(relayed.status(), StatusCode::OK);
    let direct: serde_json::Value = s.get_ok("/api/v3/me", &t.access_token).await;
    assert_eq!(relayed.json::<serde_json::Value>().await.unwrap(), direct);

    let refreshed = g.refresh(&t.refresh_token).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let t2: TokenResponse = refreshed.json().await.unwrap();
    assert_ne!(t2.refresh_token, t.refresh_token);

    // Revocation as the console sends it: its public Basic credentials, the refresh token in
    // a form body (RFC 7009).
    let revoke = g
        .post_req("/oauth/revoke")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(revocation_form(&t2.refresh_token, "refresh_token"));
    let revoked = revoke.header("authorization", basic(None)).answer().await;
    assert_eq!(revoked.status(), StatusCode::OK);
    assert_eq!(
        me(t2.access_token.clone()).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let stats = s.stats().await;
    assert_eq!(stats["token_refreshes"], 1);
    assert_eq!(stats["tokens_revoked"], 1);
    // The platform's refusal comes back as it is: a used refresh token is invalid_grant.
    let reused = g.refresh(&t.refresh_token).await;
    assert_eq!(reused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        reused.json::<OAuthError>().await.unwrap().error,
        "invalid_grant"
    );
}

#[tokio::test]
async fn scim_writes_and_their_errors_pass_through_unchanged() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &[]).await;
    let (_, t) = sign_in(&s, &g).await;
    let token = t.access_token;
    let body = CreateUser::new(
        "relay.user@example.com",
        "Relay",
        "User",
        Role::Sender,
        "Sales",
    );
    let create = |base: String| {
        s.http
            .post(format!("{base}/api/scim/v2/Users"))
            .bearer_auth(&token)
            .header("content-type", "application/scim+json")
            .json(&body)
            .send()
    };
    let created = create(g.url.clone()).await.unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    assert!(header(&created, "location").starts_with(&s.url));
    let user: ScimUser = created.json().await.unwrap();
    let change = ReplaceUser {
        user_type: Some(Role::Manager),
        ..Default::default()
    };
    let updated = g
        .http
        .put(g.at(&format!("/api/scim/v2/Users/{}", user.id)))
        .bearer_auth(&token)
        .json(&change)
        .answer()
        .await;
    assert_eq!(updated.status(), StatusCode::OK);
    assert_eq!(
        updated.json::<ScimUser>().await.unwrap().user_type,
        Role::Manager
    );
    let read: ScimUser = s
        .get_ok(&format!("/api/scim/v2/Users/{}", user.id), &token)
        .await;
    assert_eq!(read.user_type, Role::Manager);
    // The same create again: the platform's 409 arrives as the platform sent it.
    let relayed = create(g.url.clone()).await.unwrap();
    let direct = create(s.url.clone()).await.unwrap();
    assert_eq!(relayed.status(), StatusCode::CONFLICT);
    assert_eq!(relayed.status(), direct.status());
    assert_eq!(
        relayed.headers()["content-type"],
        direct.headers()["content-type"]
    );
    let relayed: ScimError = relayed.json().await.unwrap();
    assert_eq!(relayed, direct.json::<ScimError>().await.unwrap());
    assert_eq!(relayed.scim_type.as_deref(), Some("uniqueness"));
}

#[tokio::test]
async fn only_the_consoles_grants_paths_and_methods_are_relayed() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &[]).await;
    let before = s.stats().await;
    let huge = "x".repeat(20_000);
    let refused = [
        (
            g.token_form(&[("grant_type", "password"), ("username", "a")])
                .await,
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
        ),
        (
            g.token_form(&[("grant_type", "client_credentials")]).await,
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
        ),
        // A code exchange without its PKCE verifier.
        (
            g.token_form(&[
                ("grant_type", "authorization_code"),
                ("code", "c"),
                ("redirect_uri", "http://x/cb"),
            ])
            .await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            g.token_form(&[
                ("grant_type", "refresh_token"),
                ("refresh_token", "r"),
                ("client_id", "other"),
            ])
            .await,
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            g.token_form(&[]).await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            g.token_form(&[("grant_type", huge.as_str())]).await,
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_request",
        ),
        (
            g.post_req("/oauth/revoke").answer().await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "invalid_request",
        ),
        (
            g.post_req("/oauth/revoke")
                .form(&[("token", "")])
                .answer()
                .await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            g.get_req("/oauth/token").answer().await,
            StatusCode::METHOD_NOT_ALLOWED,
            "invalid_request",
        ),
        (
            g.get_req("/oauth/introspect").answer().await,
            StatusCode::NOT_FOUND,
            "invalid_request",
        ),
    ];
    for (i, (res, status, error)) in refused.into_iter().enumerate() {
        assert_eq!(res.status(), status, "case {i}");
        if res.status() == StatusCode::UNAUTHORIZED {
            assert_eq!(
                res.headers()["www-authenticate"],
                "Basic realm=\"gifting-gateway\""
            );
        }
        assert_eq!(
            res.json::<OAuthError>().await.unwrap().error,
            error,
            "case {i}"
        );
    }
    let api = |method: reqwest::Method, path: &str| {
        g.http.request(method, g.at(path)).bearer_auth("t").send()
    };
    use reqwest::Method;
    for (method, path, status) in [
        (Method::GET, "/api/v3/nothing", StatusCode::NOT_FOUND),
        (Method::GET, "/api", StatusCode::NOT_FOUND),
        (
            Method::GET,
            "/api/v3/touches/..%2F..%2Foauth",
            StatusCode::NOT_FOUND,
        ),
        (Method::GET, "/api/v3/send/", StatusCode::NOT_FOUND),
        (Method::POST, "/api/v3/me", StatusCode::METHOD_NOT_ALLOWED),
        (
            Method::DELETE,
            "/api/v3/groups",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let res = api(method.clone(), path).await.unwrap();
        assert_eq!(res.status(), status, "{method} {path}");
        let body: RestError = res.json().await.expect("{\"message\"} body");
        assert!(!body.message.is_empty());
    }
    for (method, path, status) in [
        (Method::GET, "/api/scim/v2/Groups", StatusCode::NOT_FOUND),
        (
            Method::DELETE,
            "/api/scim/v2/Users/1001",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::PATCH,
            "/api/scim/v2/Users/1001",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let res = api(method.clone(), path).await.unwrap();
        assert_eq!(res.status(), status, "{method} {path}");
        if status == StatusCode::METHOD_NOT_ALLOWED {
            assert_eq!(res.headers()["allow"], "GET, PUT");
        }
        let body: ScimError = res.json().await.expect("SCIM error body");
        assert_eq!(body.status, status.as_u16().to_string());
    }
    let after = s.stats().await;
    assert_eq!(
        after["api_requests"], before["api_requests"],
        "nothing reached the platform's API"
    );
    assert_eq!(
        after["token_refresh_failures"],
        before["token_refresh_failures"]
    );
}

#[tokio::test]
async fn the_token_relay_is_rate_limited_per_client_address() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &["--token-rate-limit", "3"]).await;
    let attempt = || g.token_form(&[("grant_type", "password")]);
    for _ in 0..3 {
        assert_eq!(attempt().await.status(), StatusCode::BAD_REQUEST);
    }
    let limited = attempt().await;
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(
        limited.json::<OAuthError>().await.unwrap().error,
        "temporarily_unavailable"
    );
    // The API relay is not counted: the platform throttles its own API.
    for _ in 0..5 {
        let res = g.get_req("/api/v3/me").answer().await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn the_secret_appears_in_no_response_and_no_log_line() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &["--image-origin", "http://127.0.0.1:1"]).await;
    let (_, t) = sign_in(&s, &g).await;
    let code = s.code_pkce("admin@example.com", "scim").await;
    let redirect = s.redirect_uri();
    let exchange = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", redirect.as_str()),
        ("code_verifier", VERIFIER),
    ];
    let token = |form: &[(&str, &str)]| g.post_req("/oauth/token").form(form);
    let requests = vec![
        g.get_req("/config.json"),
        g.get_req("/"),
        g.get_req("/oauth/authorize?client_id=gifting-console"),
        // The exchange, then its replay (which the platform refuses).
        token(&exchange),
        token(&exchange),
        token(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", "unknown"),
        ]),
        token(&[("grant_type", "password")]),
        g.post_req(&format!("/oauth/revoke?token={}", t.access_token))
            .form(&[("token_type_hint", "access_token")]),
        g.post_req("/oauth/revoke")
            .form(&[("token", t.access_token.as_str())]),
        g.get_req("/api/v3/me").bearer_auth(&t.refresh_token),
        g.get_req("/api/v3/send?per_page=2")
            .bearer_auth(&t.access_token),
        g.get_req("/readyz"),
    ];
    for request in requests {
        let (_, text) = dump(request.answer().await).await;
        assert_no_secret("a response", &text);
    }
    let lines = g.log_lines();
    assert!(lines.len() >= 12, "{lines:?}");
    for line in &lines {
        assert_no_secret("a log line", line);
        for credential in [&t.access_token, &t.refresh_token, &code] {
            assert!(
                !line.contains(credential.as_str()),
                "a credential in {line}"
            );
        }
        assert!(!line.contains('?'), "a query string in {line}");
        let entry: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        assert!(
            entry["timestamp"].is_string() && entry["level"].is_string(),
            "{line}"
        );
        if entry["message"] == "request" {
            for key in ["request_id", "method", "route", "status", "latency_ms"] {
                assert!(entry.get(key).is_some(), "{key} missing from {line}");
            }
        }
    }
}
