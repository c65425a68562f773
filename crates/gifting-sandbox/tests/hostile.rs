//! Malformed and hostile requests: every one gets a 4xx (or a success), never a 5xx, and the
//! server keeps serving afterwards.

mod common;

use base64::Engine as _;
use common::{start, Answer, Server};
use reqwest::{Method, StatusCode};

#[tokio::test]
async fn no_input_produces_a_server_error() {
    let s = start().await;
    let t = s.admin().await;
    let max_cursor =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("v1:{}", usize::MAX));
    let gets = [
        "/api/v3/send?page=%FF%FE&per_page=%",
        "/api/v3/send?page=9223372036854775807&per_page=9223372036854775807",
        "/api/v3/send?page=-9223372036854775808",
        "/api/v3/send?page=&per_page=",
        "/api/v3/touches/18446744073709551616",
        "/api/v3/touches/%FF",
        "/api/v3/groups/%00/members",
        "/api/v3/groups/-1/members",
        "/api/scim/v2/Users/%FF",
        "/api/scim/v2/Users?startIndex=9223372036854775807&count=9223372036854775807",
        "/api/scim/v2/Users?filter=userName%20eq%20%22",
        "/api/scim/v2/Users?filter=%FF",
        "/api/v3/marketplace/products?after=%FF%FF",
        "/api/v3/marketplace/products?price_gte_usd=99999999999",
        "/api/v3/marketplace/products?price_gte_usd=100&price_lte_usd=1",
        "/api/v3/marketplace/products?category_ids[]=&ship_to_country_codes[]=",
        "/cdn/products/%FF/x/1/main.svg",
        "/cdn/products/prd_10001/var_0001_1/300/main.svg",
        "/oauth/authorize",
        "/oauth/authorize?client_id=%FF&redirect_uri=%FF",
        "/oauth/authorize?client_id=gifting-console&client_id=gifting-console",
    ];
    let mut paths: Vec<String> = gets.iter().map(|p| (*p).to_owned()).collect();
    paths.push(format!("/api/v3/marketplace/products?after={max_cursor}"));
    for path in &paths {
        let res = s.get(path, &t).await;
        assert!(
            res.status().is_success() || res.status().is_client_error(),
            "{path}: {}",
            res.status()
        );
    }
    let bodies: [(Method, &str, &str, &[u8]); 8] = [
        (
            Method::POST,
            "/api/scim/v2/Users",
            "application/scim+json",
            b"[]",
        ),
        (
            Method::POST,
            "/api/scim/v2/Users",
            "application/json",
            b"null",
        ),
        (
            Method::POST,
            "/api/scim/v2/Users",
            "application/json",
            b"\xff\xfe",
        ),
        (
            Method::PUT,
            "/api/scim/v2/Users/1002",
            "application/json",
            b"{\"name\": 5}",
        ),
        (
            Method::POST,
            "/oauth/token",
            "application/x-www-form-urlencoded",
            b"%%%=&&==",
        ),
        (Method::POST, "/oauth/token", "application/json", b"[1,2,3]"),
        (
            Method::POST,
            "/oauth/authorize",
            "application/x-www-form-urlencoded",
            b"\xff=\xff",
        ),
        (
            Method::POST,
            "/oauth/revoke",
            "application/json",
            b"{\"token\": 1}",
        ),
    ];
    for (method, path, ct, body) in bodies {
        let res = s
            .http
            .request(method.clone(), s.at(path))
            .bearer_auth(&t)
            .header("content-type", ct)
            .body(body.to_vec())
            .answer()
            .await;
        assert!(
            res.status().is_client_error(),
            "{method} {path}: {}",
            res.status()
        );
    }
    // Still healthy.
    assert_eq!(s.get("/api/v3/me", &t).await.status(), StatusCode::OK);
}
