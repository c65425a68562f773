//! The OAuth life cycle against a running sandbox.

mod common;

use common::{
    assert_oauth_error, assert_rest_error, basic, header, query_param, redirect_location, start,
    start_with, Answer, Proof, Sandbox, Server, VERIFIER,
};
use gifting_api::oauth::{code_challenge_s256, TokenRequest, TokenResponse};
use gifting_api::paths::oauth_revoke;
use gifting_sandbox::{CLIENT_ID, CLIENT_SECRET};
use reqwest::StatusCode;

#[tokio::test]
async fn consent_page_lists_demo_accounts_first_with_the_agreed_form() {
    let s = start().await;
    let res = s
        .authorize_page(&s.authorize_query("scim marketplace", None))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let csp = header(&res, "content-security-policy").to_owned();
    assert!(csp.contains("default-src 'none'"));
    assert!(csp.contains("frame-ancestors 'none'"));
    assert!(!csp.contains("unsafe-inline"));
    let html = res.text().await.unwrap();
    let position = |email: &str| html.find(&format!("value=\"{email}\"")).expect(email);
    let admin = position("admin@example.com");
    let manager = position("manager@example.com");
    let sender = position("sender@example.com");
    assert!(admin < manager && manager < sender);
    assert!(html[admin..admin + 80].contains("checked"));
    assert!(html.contains("name=\"decision\" value=\"allow\">Allow</button>"));
    assert!(html.contains("name=\"decision\" value=\"deny\">Deny</button>"));
    assert!(html.contains("<input type=\"hidden\" name=\"state\" value=\"st4te\">"));
    assert!(html.contains("<label for=\"user-0\">admin@example.com"));
    // Seeded hostile names are shown as text, never as markup; no inline script or style.
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!html.contains("<img"));
    assert!(!html.contains("<script"));
    assert!(!html.contains("style="));
    // Inactive users cannot be picked; every active one can.
    let token = s.admin().await;
    let users: gifting_api::scim::ListResponse = s.get_ok("/api/scim/v2/Users", &token).await;
    let inactive: Vec<_> = users.resources.iter().filter(|u| !u.active).collect();
    assert!(!inactive.is_empty());
    for u in &users.resources {
        let radio = format!("value=\"{}\"", u.user_name);
        assert_eq!(html.contains(&radio), u.active, "{}", u.user_name);
    }
    let css = s.get_req("/oauth/consent.css").answer().await;
    assert_eq!(css.status(), StatusCode::OK);
    assert!(header(&css, "content-type").starts_with("text/css"));
}

#[tokio::test]
async fn state_and_hostile_parameters_are_escaped_on_the_page() {
    let s = start().await;
    let mut q = s.authorize_query("scim", None);
    q.retain(|(k, _)| k != "state");
    q.push(("state".into(), "\"><script>alert(1)</script>".into()));
    let html = s.authorize_page(&q).await.text().await.unwrap();
    assert!(!html.contains("<script>alert(1)</script>"));
    assert!(html.contains("&quot;&gt;&lt;script&gt;"));
}

/// The admin's decision on the consent page; checks the redirect goes back to the app with
/// its state, and returns it.
async fn decided(s: &Sandbox, scope: &str, decision: &str) -> String {
    let q = s.authorize_query(scope, None);
    let location = s.consent(&q, "admin@example.com", decision).await;
    assert!(location.starts_with(&s.redirect_uri()));
    assert_eq!(query_param(&location, "state").as_deref(), Some("st4te"));
    location
}

#[tokio::test]
async fn full_life_cycle_with_client_secret() {
    let s = start().await;
    let location = decided(&s, "scim marketplace", "allow").await;
    let code = query_param(&location, "code").unwrap();
    assert!(code.len() >= 22, "at least 128 bits");
    let res = s.exchange(&code, Proof::Secret).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()["content-type"],
        "application/json;charset=UTF-8"
    );
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.headers()["pragma"], "no-cache");
    let raw: serde_json::Value = res.json().await.unwrap();
    assert!(raw["expires_in"].is_u64(), "expires_in is a number");
    assert!(raw["created_at"].is_u64(), "created_at is Unix seconds");
    let t: TokenResponse = serde_json::from_value(raw).unwrap();
    assert_eq!(t.token_type, "bearer");
    assert_eq!(t.expires_in, 7200);
    assert_eq!(t.scope, "scim marketplace");
    let me: gifting_api::rest::CurrentUser = s.get_ok("/api/v3/me", &t.access_token).await;
    assert_eq!(me.email, "admin@example.com");

    // A code is single use; replaying it also ends the grant it produced.
    let again = s.exchange(&code, Proof::Secret).await;
    assert_oauth_error(again, StatusCode::BAD_REQUEST, "invalid_grant").await;
    let res = s.get("/api/v3/me", &t.access_token).await;
    assert_rest_error(res, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn refresh_rotates_and_old_refresh_tokens_are_dead() {
    let s = start().await;
    let t = s.sign_in("admin@example.com", "scim").await;
    let res = s.refresh(&t.refresh_token, Proof::Secret).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let t2: TokenResponse = res.json().await.unwrap();
    assert_ne!(t2.access_token, t.access_token);
    assert_ne!(t2.refresh_token, t.refresh_token);
    assert_eq!(t2.scope, "scim");
    let _: gifting_api::rest::CurrentUser = s.get_ok("/api/v3/me", &t2.access_token).await;
    let reused = s.refresh(&t.refresh_token, Proof::Secret).await;
    assert_oauth_error(reused, StatusCode::BAD_REQUEST, "invalid_grant").await;
    // A reuse (a stolen copy, say) ends the whole grant: the newest tokens die with it.
    assert_eq!(
        s.me_status(&t2.access_token).await,
        StatusCode::UNAUTHORIZED
    );
    let newest = s.refresh(&t2.refresh_token, Proof::Secret).await;
    assert_oauth_error(newest, StatusCode::BAD_REQUEST, "invalid_grant").await;
    let stats = s.stats().await;
    assert_eq!(stats["token_refreshes"], 1);
    assert_eq!(stats["refresh_token_reuse"], 1);
    assert_eq!(stats["live_grants"], 0);
    assert_eq!(stats["authorization_codes_exchanged"], 1);
}

#[tokio::test]
async fn revocation_with_basic_auth_then_401_and_dead_refresh() {
    let s = start().await;
    let t = s.sign_in("admin@example.com", "scim").await;
    let secret = basic(Some(CLIENT_SECRET));
    let res = s
        .revoke(&oauth_revoke(&t.access_token), Some(&secret))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = s.get("/api/v3/me", &t.access_token).await;
    assert_eq!(
        res.headers()["www-authenticate"],
        "Bearer error=\"invalid_token\""
    );
    assert_rest_error(res, StatusCode::UNAUTHORIZED).await;
    let refresh = s.refresh(&t.refresh_token, Proof::Secret).await;
    assert_oauth_error(refresh, StatusCode::BAD_REQUEST, "invalid_grant").await;
    // Unknown tokens: still 200 (RFC 7009).
    let res = s
        .revoke("/oauth/revoke?token=nonsense", Some(&secret))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(s.stats().await["revocations"], 2);
}

#[tokio::test]
async fn revocation_refuses_missing_or_wrong_client_auth_and_missing_token() {
    let s = start().await;
    let t = s.sign_in("admin@example.com", "scim").await;
    let path = oauth_revoke(&t.access_token);
    let none = s.revoke(&path, None).await;
    assert_eq!(
        none.headers()["www-authenticate"],
        "Basic realm=\"gifting-sandbox\""
    );
    assert_oauth_error(none, StatusCode::UNAUTHORIZED, "invalid_client").await;
    let (wrong, secret) = (basic(Some("nope")), basic(Some(CLIENT_SECRET)));
    let cases = [
        (
            path.as_str(),
            wrong.as_str(),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            &path,
            "Basic !!!",
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            "/oauth/revoke",
            &secret,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ];
    for (path, authorization, status, error) in cases {
        let res = s.revoke(path, Some(authorization)).await;
        assert_oauth_error(res, status, error).await;
    }
    // The token survived all of that.
    let _: gifting_api::rest::CurrentUser = s.get_ok("/api/v3/me", &t.access_token).await;
}

#[tokio::test]
async fn public_client_pkce_sign_in_refresh_and_revoke() {
    let s = start().await;
    let t = s
        .sign_in_pkce("manager@example.com", "scim marketplace")
        .await;
    let me: gifting_api::rest::CurrentUser = s.get_ok("/api/v3/me", &t.access_token).await;
    assert_eq!(me.email, "manager@example.com");
    // A public grant refreshes without a secret.
    let res = s.refresh(&t.refresh_token, Proof::Nothing).await;
    assert_eq!(res.status(), StatusCode::OK);
    let t2: TokenResponse = res.json().await.unwrap();
    // And revokes with `base64(client_id:)`.
    let path = oauth_revoke(&t2.access_token);
    let res = s.revoke(&path, Some(&basic(None))).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        s.me_status(&t2.access_token).await,
        StatusCode::UNAUTHORIZED
    );
    // Revoking the grant ended the first access token too.
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn pkce_bad_or_missing_verifier_is_invalid_grant() {
    let s = start().await;
    let challenge = code_challenge_s256(VERIFIER);
    let wrong_verifier = "x".repeat(43);
    let cases = [
        (
            Some(challenge.as_str()),
            Proof::Verifier(&wrong_verifier),
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        (
            Some(&challenge),
            Proof::Nothing,
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        // A public client without PKCE cannot redeem a code at all.
        (
            None,
            Proof::Nothing,
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
    ];
    for (challenge, proof, status, error) in cases {
        let code = s.code("admin@example.com", "scim", challenge).await;
        assert_oauth_error(s.exchange(&code, proof).await, status, error).await;
    }
}

#[tokio::test]
async fn token_endpoint_reads_json_and_basic_client_auth() {
    let s = start().await;
    let code = s.code("admin@example.com", "scim", None).await;
    let redirect = s.redirect_uri();
    let body =
        TokenRequest::authorization_code(&code, &redirect, CLIENT_ID, Some(CLIENT_SECRET), None);
    let res = s.post_req("/oauth/token").json(&body).answer().await;
    assert_eq!(res.status(), StatusCode::OK);
    let t: TokenResponse = res.json().await.unwrap();
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", &t.refresh_token),
    ];
    let req = s.post_req("/oauth/token").form(&form);
    let req = req.header("authorization", basic(Some(CLIENT_SECRET)));
    assert_eq!(req.answer().await.status(), StatusCode::OK);
}

#[tokio::test]
async fn token_endpoint_errors() {
    let s = start().await;
    let redirect = s.redirect_uri();
    let code = s.code("admin@example.com", "scim", None).await;
    let base = |code: &str| {
        vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code.to_owned()),
            ("redirect_uri", redirect.clone()),
            ("client_id", CLIENT_ID.to_owned()),
            ("client_secret", CLIENT_SECRET.to_owned()),
        ]
    };
    let send = |form: Vec<(&'static str, String)>| s.post_req("/oauth/token").form(&form).answer();
    // Each case changes one field of a good exchange (or drops it) and names the refusal.
    let unknown_code = "not-a-code".to_owned();
    let elsewhere = format!("{}/elsewhere", s.url);
    let cases: [(&str, Option<&str>, StatusCode, &str); 7] = [
        (
            "client_secret",
            Some("nope"),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            "client_id",
            Some("someone-else"),
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            "redirect_uri",
            Some(&elsewhere),
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        (
            "code",
            Some(&unknown_code),
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        ("code", None, StatusCode::BAD_REQUEST, "invalid_request"),
        (
            "grant_type",
            Some("password"),
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
        ),
        (
            "grant_type",
            None,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ];
    for (field, value, status, error) in cases {
        let mut form = base(&code);
        match value {
            Some(v) => form
                .iter_mut()
                .filter(|(k, _)| *k == field)
                .for_each(|(_, old)| *old = v.to_owned()),
            None => form.retain(|(k, _)| *k != field),
        }
        assert_oauth_error(send(form).await, status, error).await;
    }
    // Malformed bodies: broken JSON, wrong JSON types.
    let broken = s.post_req("/oauth/token").body("{not json");
    let wrong_types = s
        .post_req("/oauth/token")
        .json(&serde_json::json!({"grant_type": 5}));
    for req in [
        broken.header("content-type", "application/json"),
        wrong_types,
    ] {
        assert_oauth_error(
            req.answer().await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        )
        .await;
    }
    // After all those failures the code is still good (none of them consumed it).
    assert_eq!(send(base(&code)).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn codes_expire() {
    let s = start_with(|c| c.code_ttl = 1).await;
    let code = s.code("admin@example.com", "scim", None).await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let res = s.exchange(&code, Proof::Secret).await;
    assert_oauth_error(res, StatusCode::BAD_REQUEST, "invalid_grant").await;
}

#[tokio::test]
async fn access_tokens_expire_with_token_ttl() {
    let s = start_with(|c| c.token_ttl = 1).await;
    let t = s.sign_in("admin@example.com", "scim").await;
    assert_eq!(t.expires_in, 1);
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::OK);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn deny_redirects_with_access_denied_and_state() {
    let s = start().await;
    let location = decided(&s, "scim", "deny").await;
    assert_eq!(
        query_param(&location, "error").as_deref(),
        Some("access_denied")
    );
    assert_eq!(query_param(&location, "code"), None);
}

#[tokio::test]
async fn bad_client_or_redirect_uri_shows_a_page_and_never_redirects() {
    let s = start_with(|c| c.redirect_uris = vec!["http://app.example.com/cb".into()]).await;
    let cases = [
        ("client_id", "evil-client".to_owned()),
        (
            "redirect_uri",
            "http://evil.example.com/auth/callback".to_owned(),
        ),
        ("redirect_uri", format!("{}/auth/callback/extra", s.url)),
    ];
    for (name, value) in cases {
        let mut q = s.authorize_query("scim", None);
        for pair in q.iter_mut().filter(|(k, _)| k == name) {
            pair.1 = value.clone();
        }
        let get = s.authorize_page(&q).await;
        assert_eq!(get.status(), StatusCode::BAD_REQUEST, "{name}={value}");
        assert!(get.headers().get("location").is_none());
        let page = get.text().await.unwrap();
        assert!(page.contains("Sign-in request refused"));
        let post = s.decide(&q, "admin@example.com", "allow").await;
        assert_eq!(post.status(), StatusCode::BAD_REQUEST, "{name}={value}");
        assert!(post.headers().get("location").is_none());
    }
    // Both loopback names and the extra URI are registered.
    for redirect in [
        format!("http://localhost:{}/auth/callback", s.running.addr.port()),
        "http://app.example.com/cb".to_owned(),
    ] {
        let mut q = s.authorize_query("scim", None);
        q[1].1 = redirect;
        assert_eq!(s.authorize_page(&q).await.status(), StatusCode::OK);
    }
}

#[tokio::test]
async fn other_request_errors_go_back_through_the_redirect() {
    let s = start().await;
    let cases = [
        ("response_type", "token", "unsupported_response_type"),
        ("scope", "scim admin", "invalid_scope"),
    ];
    for (name, value, error) in cases {
        let mut q = s.authorize_query("scim", None);
        for pair in q.iter_mut().filter(|(k, _)| k == name) {
            pair.1 = value.to_owned();
        }
        let location = redirect_location(&s.authorize_page(&q).await);
        assert_eq!(query_param(&location, "error").as_deref(), Some(error));
        assert_eq!(query_param(&location, "state").as_deref(), Some("st4te"));
    }
    let mut plain = s.authorize_query("scim", None);
    plain.push(("code_challenge".into(), "x".repeat(43)));
    plain.push(("code_challenge_method".into(), "plain".into()));
    let location = redirect_location(&s.authorize_page(&plain).await);
    assert_eq!(
        query_param(&location, "error").as_deref(),
        Some("invalid_request")
    );
}

#[tokio::test]
async fn scope_omitted_means_scim_and_unknown_user_is_asked_again() {
    let s = start().await;
    let mut q = s.authorize_query("scim", None);
    q.retain(|(k, _)| k != "scope");
    let location = s.consent(&q, "sender@example.com", "allow").await;
    let code = query_param(&location, "code").unwrap();
    let t: TokenResponse = s.exchange(&code, Proof::Secret).await.json().await.unwrap();
    assert_eq!(t.scope, "scim");
    let q = s.authorize_query("scim", None);
    let res = s.decide(&q, "nobody@example.com", "allow").await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(res.text().await.unwrap().contains("role=\"alert\""));
}

#[tokio::test]
async fn oauth_is_not_behind_faults_even_at_rate_one() {
    let s = start_with(|c| c.fault_rate = 1.0).await;
    // The whole flow works; only /api is faulty.
    let t = s.sign_in_pkce("admin@example.com", "scim").await;
    assert_eq!(t.token_type, "bearer");
}

#[tokio::test]
async fn require_client_secret_refuses_pkce_alone_as_the_platform_does() {
    let s = start_with(|c| c.require_client_secret = true).await;
    let code = s.code_pkce("admin@example.com", "scim").await;
    let res = s.exchange(&code, Proof::Verifier(VERIFIER)).await;
    assert_eq!(
        res.headers()["www-authenticate"],
        "Basic realm=\"gifting-sandbox\""
    );
    assert_oauth_error(res, StatusCode::UNAUTHORIZED, "invalid_client").await;
    // The refused request did not spend the code: with the secret and the verifier it works.
    let res = s.exchange(&code, Proof::SecretAndVerifier(VERIFIER)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let t: TokenResponse = res.json().await.unwrap();
    let res = s.refresh(&t.refresh_token, Proof::Nothing).await;
    assert_oauth_error(res, StatusCode::UNAUTHORIZED, "invalid_client").await;
    let path = oauth_revoke(&t.access_token);
    let public_revoke = s.revoke(&path, Some(&basic(None))).await;
    assert_oauth_error(public_revoke, StatusCode::UNAUTHORIZED, "invalid_client").await;
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::OK);
    let revoke = s.revoke(&path, Some(&basic(Some(CLIENT_SECRET)))).await;
    assert_eq!(revoke.status(), StatusCode::OK);
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_grant_store_stays_bounded_however_often_one_signs_in() {
    let s = start().await;
    let first = s.sign_in("manager@example.com", "scim").await;
    let mut last = first.clone();
    for _ in 0..40 {
        last = s.sign_in("manager@example.com", "scim").await;
    }
    let other = s.sign_in("sender@example.com", "scim").await;
    let stats = s.stats().await;
    assert_eq!(
        stats["live_grants"],
        gifting_sandbox::stores::oauth::MAX_GRANTS_PER_USER as u64 + 1
    );
    // The oldest sign-in ended; the newest and another user's still work.
    assert_eq!(
        s.me_status(&first.access_token).await,
        StatusCode::UNAUTHORIZED
    );
    let refused = s.refresh(&first.refresh_token, Proof::Secret).await;
    assert_oauth_error(refused, StatusCode::BAD_REQUEST, "invalid_grant").await;
    assert_eq!(s.me_status(&last.access_token).await, StatusCode::OK);
    assert_eq!(s.me_status(&other.access_token).await, StatusCode::OK);
}
