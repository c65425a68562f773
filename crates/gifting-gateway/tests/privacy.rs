//! What a session leaves where it should not: no `/api` or `/oauth` answer stays in the
//! browser's cache (`Cache-Control: no-store` on every one, relayed or the gateway's own), and no invitation
//! key reaches a browser whose token is not an admin's (the members list read whole, its
//! keys removed, the role asked of `/me` once per token and remembered).

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gifting_api::rest::{GroupPage, Member};
use serde_json::Value;
use support::sandbox::{Answer, Server};
use support::{closed_port, fake_platform, gateway, secret_platform, sign_in, sign_in_as, Rig};

/// Fails unless `res` tells the browser to store nothing, and carries no validator or date a
/// cache would keep it by.
fn assert_never_stored(what: &str, res: &reqwest::Response) {
    let h = res.headers();
    let all = |name: &str| h.get_all(name).iter().collect::<Vec<_>>();
    assert_eq!(all("cache-control"), ["no-store"], "{what}");
    assert_eq!(all("pragma"), ["no-cache"], "{what}");
    for gone in ["etag", "expires", "last-modified"] {
        assert!(h.get(gone).is_none(), "{what}: {gone}");
    }
}

#[tokio::test]
async fn no_api_or_oauth_answer_is_stored_relayed_or_the_gateways_own() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &["--body-limit", "100"]).await;
    let (_, t) = sign_in(&s, &g).await;
    let token = t.access_token.as_str();
    let oversized = g
        .post_req("/api/scim/v2/Users")
        .bearer_auth(token)
        .header("content-type", "application/scim+json")
        .body("x".repeat(200));
    let cases = [
        (
            "relayed 200",
            g.get_req("/api/v3/me").bearer_auth(token),
            200,
        ),
        (
            "relayed 401",
            g.get_req("/api/v3/me").bearer_auth("nope"),
            401,
        ),
        ("404", g.get_req("/api/v3/nothing"), 404),
        ("405", g.post_req("/api/v3/me"), 405),
        ("413", oversized, 413),
        ("/oauth 404", g.get_req("/oauth/nothing"), 404),
        ("/oauth 405", g.get_req("/oauth/token"), 405),
        (
            "/oauth refused post",
            g.post_req("/oauth/token")
                .header("content-type", "text/plain"),
            415,
        ),
    ];
    for (what, request, status) in cases {
        let res = request.answer().await;
        assert_eq!(res.status().as_u16(), status, "{what}");
        assert_never_stored(what, &res);
    }
    let gone = gateway(&closed_port().await, &[]).await;
    let res = gone.get_req("/api/v3/me").answer().await;
    assert_eq!(res.status(), StatusCode::BAD_GATEWAY);
    assert_never_stored("502", &res);
}

/// What the fake platform saw of the browser's validator.
type Seen = Arc<Mutex<Vec<Option<String>>>>;

#[tokio::test]
async fn the_platforms_caching_headers_are_replaced_by_no_store() {
    let seen = Seen::default();
    let record = seen.clone();
    let cacheable = move |headers: HeaderMap| {
        let validator = headers.get("if-none-match").map(|v| format!("{v:?}"));
        record.lock().expect("seen").push(validator);
        async move {
            let cache = [
                ("content-type", "application/json"),
                ("cache-control", "public, max-age=600"),
                ("pragma", "cache"),
                ("etag", "\"v1\""),
                ("expires", "Wed, 01 Jan 2031 00:00:00 GMT"),
                ("last-modified", "Mon, 01 Jan 2029 00:00:00 GMT"),
            ];
            (cache, r#"{"id":1}"#).into_response()
        }
    };
    let url = fake_platform(Router::new().route("/api/v3/me", get(cacheable))).await;
    let g = gateway(&url, &[]).await;
    let res = g
        .get_req("/api/v3/me")
        .header("if-none-match", "\"v1\"")
        .answer()
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_never_stored("a cacheable platform answer", &res);
    assert_eq!(res.text().await.expect("body"), r#"{"id":1}"#);
    assert_eq!(*seen.lock().expect("seen"), [None], "no validator crossed");
}

/// A team group's members as `token` reads them through the gateway, the way a browser that
/// accepts compressed answers asks.
async fn members_through(g: &Rig, group: u64, token: &str) -> reqwest::Response {
    let path = format!("/api/v3/groups/{group}/members");
    let req = g.get_req(&path).bearer_auth(token);
    req.header("accept-encoding", "gzip, br").answer().await
}

fn without_keys(mut members: Value) -> Value {
    for member in members.as_array_mut().into_iter().flatten() {
        member.as_object_mut().map(|m| m.remove("key"));
    }
    members
}

#[tokio::test]
async fn a_senders_token_reads_members_without_keys_an_admins_with_them() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &[]).await;
    let (_, admin) = sign_in(&s, &g).await;
    let (_, sender) = sign_in_as(&s, &g, "sender@example.com").await;
    let groups: GroupPage = s
        .get_ok("/api/v3/groups?per_page=100", &admin.access_token)
        .await;
    let mut keys = 0;
    for group in groups.groups.iter().map(|g| g.id) {
        let path = format!("/api/v3/groups/{group}/members");
        // The platform itself gives every key to the sender's token.
        let direct = s.get(&path, &sender.access_token).await;
        let direct = direct.text().await.expect("body");
        let platform: Value = serde_json::from_str(&direct).expect("a members list");
        keys += platform
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["key"].as_str().is_some_and(|k| !k.is_empty()))
            .count();
        let res = members_through(&g, group, &admin.access_token).await;
        assert_eq!(res.status(), StatusCode::OK);
        let as_admin = res.text().await.expect("body");
        assert_eq!(
            as_admin, direct,
            "an admin's answer is the platform's, unchanged"
        );
        let res = members_through(&g, group, &sender.access_token).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers().get("content-encoding").is_none());
        assert!(res.headers()["content-type"]
            .to_str()
            .is_ok_and(|ct| ct.starts_with("application/json")));
        let body = res.text().await.expect("body");
        assert!(!body.contains("\"key\""), "a key in {body}");
        let read: Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(read, without_keys(platform), "everything but the keys");
        let members: Vec<Member> = serde_json::from_str(&body).expect("the contract's members");
        assert!(members.iter().all(|m| m.key.is_empty()));
    }
    assert!(keys > 10, "the seeded world has keys to hide ({keys})");
}

/// The platform's count of API requests (the gateway's `/me` questions among them).
async fn api_requests(s: &support::sandbox::Sandbox) -> u64 {
    s.stats().await["api_requests"].as_u64().expect("a count")
}

#[tokio::test]
async fn one_me_per_token_however_many_members_reads() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &[]).await;
    let (_, sender) = sign_in_as(&s, &g, "sender@example.com").await;
    let token = sender.access_token.as_str();
    let groups: GroupPage = s.get_ok("/api/v3/groups", token).await;
    let path = format!("/api/v3/groups/{}/members", groups.groups[0].id);
    let read = || async {
        let res = g.get_req(&path).bearer_auth(token).answer().await;
        assert_eq!(res.status(), StatusCode::OK);
        res.text().await.expect("body")
    };
    let before = api_requests(&s).await;
    let (a, b) = tokio::join!(read(), read());
    assert_eq!(a, b);
    assert_eq!(api_requests(&s).await - before, 3, "two reads, one /me");
    read().await;
    assert_eq!(api_requests(&s).await - before, 4, "the role is remembered");
    // A members answer that is no 2xx passes as it is, and asks nobody who the token is.
    let missing = g.get_req("/api/v3/groups/999/members").bearer_auth(token);
    let missing = missing.answer().await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let other = g.get_req(&path).bearer_auth("nope");
    assert_eq!(other.answer().await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(api_requests(&s).await - before, 6);
    assert_eq!(g.gateway.state.current_users.len(), 1);
    // The /me question is one of the gateway's requests to the platform: the code exchange,
    // five reads and one /me.
    let metrics = g.gateway.state.telemetry.render();
    let answered = r#"gateway_platform_requests_total{outcome="answered"} 7"#;
    assert!(metrics.contains(answered), "{metrics}");
    assert!(!metrics.contains(token));
}

/// Who asked the fake platform's `/me`, by `Authorization` value, in order.
type MeAsked = Arc<Mutex<Vec<String>>>;

/// A platform whose `/me` answers by token: `admin` is an admin, `failing` gets a 500,
/// `refused` a 401, `garbled` no JSON, `slow` its answer after 3 s; group 4's members list is
/// over the gateway's limit; each members list holds keys, and group 5 is a 404 naming one.
fn fake(asked: MeAsked, encodings: Arc<Mutex<Vec<String>>>) -> Router {
    let me = move |headers: HeaderMap| {
        let auth = headers["authorization"].to_str().unwrap_or("").to_owned();
        asked.lock().expect("asked").push(auth.clone());
        me_answer(auth)
    };
    let members = move |Path(id): Path<u64>, headers: HeaderMap| {
        let encoding = headers.get("accept-encoding").map(|v| format!("{v:?}"));
        encodings
            .lock()
            .expect("encodings")
            .push(encoding.unwrap_or_default());
        members_answer(id)
    };
    Router::new()
        .route("/api/v3/me", get(me))
        .route("/api/v3/groups/{id}/members", get(members))
}

async fn me_answer(auth: String) -> Response {
    let json = [("content-type", "application/json")];
    let user = |role: &str| {
        format!(
            r#"{{"id":1,"first_name":"A","last_name":"B","email":"a@example.com","balance":"1.00","team_balance":1,"role":"{role}"}}"#
        )
    };
    match auth.trim_start_matches("Bearer ") {
        "admin" => (json, user("admin")).into_response(),
        "failing" => (StatusCode::INTERNAL_SERVER_ERROR, json, "{}").into_response(),
        "refused" => (StatusCode::UNAUTHORIZED, json, r#"{"message":"no"}"#).into_response(),
        "garbled" => (json, "<html>").into_response(),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            (json, user("admin")).into_response()
        }
        _ => (json, user("sender")).into_response(),
    }
}

async fn members_answer(id: u64) -> Response {
    let json = [("content-type", "application/json; charset=utf-8")];
    let member = r#"{"id":1,"first_name":"A","extra":[1,2],"key":"inv_secret"}"#;
    match id {
        // Some 8.7 MB.
        4 => (json, format!("[{}]", vec![member; 150_000].join(","))).into_response(),
        5 => (
            StatusCode::NOT_FOUND,
            json,
            r#"{"message":"no key inv_secret"}"#,
        )
            .into_response(),
        _ => (json, format!("[{member},{member}]")).into_response(),
    }
}

#[tokio::test]
async fn a_role_that_cannot_be_read_means_no_keys_and_the_members_still_come() {
    let asked = MeAsked::default();
    let encodings = Arc::new(Mutex::new(Vec::new()));
    let url = fake_platform(fake(asked.clone(), encodings.clone())).await;
    let g = gateway(&url, &["--timeout-secs", "1"]).await;
    let read = |group: u64, token: &'static str| {
        g.get_req(&format!("/api/v3/groups/{group}/members"))
            .bearer_auth(token)
            .header("accept-encoding", "gzip")
            .answer()
    };
    for token in ["failing", "refused", "garbled", "slow", "sender"] {
        for _ in 0..2 {
            let res = read(1, token).await;
            assert_eq!(res.status(), StatusCode::OK, "{token}");
            let body = res.text().await.expect("body");
            assert!(!body.contains("key"), "{token}: {body}");
            assert!(body.contains(r#""extra":[1,2]"#), "{token}: {body}");
        }
    }
    let admin = read(1, "admin").await.text().await.expect("body");
    assert!(admin.contains(r#""key":"inv_secret""#), "{admin}");
    // Over the limit: nothing rather than keys, said plainly; an admin's passes unread.
    let big = read(4, "sender").await;
    assert_eq!(big.status(), StatusCode::BAD_GATEWAY);
    assert!(big.text().await.expect("body").contains("8 MiB"));
    assert_eq!(read(4, "admin").await.status(), StatusCode::OK);
    let refused = read(5, "refused").await;
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    assert!(refused.text().await.expect("body").contains("inv_secret"));
    let asked = asked.lock().expect("asked").clone();
    let mut once = asked.clone();
    once.dedup();
    assert_eq!(asked, once, "one /me per token: {asked:?}");
    assert_eq!(asked.len(), 6, "{asked:?}");
    let encodings = encodings.lock().expect("encodings");
    assert!(
        encodings.iter().all(|e| e == "\"identity\""),
        "{encodings:?}"
    );
    for line in g.log_lines() {
        for token in ["failing", "refused", "garbled", "inv_secret"] {
            assert!(!line.contains(token), "{token} in {line}");
        }
    }
}
