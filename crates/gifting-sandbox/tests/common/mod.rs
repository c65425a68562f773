//! Shared helpers of the integration tests: an in-process sandbox on a free port, an HTTP
//! client that does not follow redirects, and the real OAuth sign-in flow.
#![allow(dead_code)]

pub mod coverage;

use std::future::Future;

use gifting_api::oauth::{basic_auth_header, code_challenge_s256, TokenResponse};
use gifting_sandbox::{spawn, Config, RunningSandbox, CLIENT_ID, CLIENT_SECRET};
use reqwest::{Client, RequestBuilder, Response, StatusCode};
use serde::de::DeserializeOwned;

pub const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

/// How a client proves itself at the token endpoint.
#[derive(Clone, Copy)]
pub enum Proof<'a> {
    /// The client secret in the body (a confidential client).
    Secret,
    /// A PKCE verifier and no secret (a public client).
    Verifier(&'a str),
    /// Both the secret and a PKCE verifier (what a platform that demands the secret takes).
    SecretAndVerifier(&'a str),
    /// Nothing beyond the client id.
    Nothing,
}

impl<'a> Proof<'a> {
    fn fields(self) -> Vec<(&'static str, &'a str)> {
        match self {
            Proof::Secret => vec![("client_secret", CLIENT_SECRET)],
            Proof::Verifier(v) => vec![("code_verifier", v)],
            Proof::SecretAndVerifier(v) => {
                vec![("code_verifier", v), ("client_secret", CLIENT_SECRET)]
            }
            Proof::Nothing => vec![],
        }
    }
}

/// `send` for tests: a request that gets no answer at all has already failed the test.
pub trait Answer {
    fn answer(self) -> impl Future<Output = Response> + Send;
}

impl Answer for RequestBuilder {
    async fn answer(self) -> Response {
        self.send().await.expect("an answer")
    }
}

/// A server under test, the sandbox or the gateway: requests to it by path.
pub trait Server {
    /// Its base URL, and the client the test talks to it with.
    fn base(&self) -> (&str, &Client);

    fn at(&self, path: &str) -> String {
        format!("{}{path}", self.base().0)
    }

    /// A GET of `path`, ready for headers.
    fn get_req(&self, path: &str) -> RequestBuilder {
        self.base().1.get(self.at(path))
    }

    /// A POST to `path`, ready for headers and a body.
    fn post_req(&self, path: &str) -> RequestBuilder {
        self.base().1.post(self.at(path))
    }

    /// `POST /oauth/token` with a form body.
    fn token_form(&self, form: &[(&str, &str)]) -> impl Future<Output = Response> + Send {
        self.post_req("/oauth/token").form(form).answer()
    }
}

/// A header as text; the test fails when it is missing or not text.
pub fn header<'r>(res: &'r Response, name: &str) -> &'r str {
    res.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no text {name} header"))
}

/// Asserts a 302 and returns where it points.
pub fn redirect_location(res: &Response) -> String {
    assert_eq!(res.status(), StatusCode::FOUND);
    header(res, "location").to_owned()
}

/// The Basic credentials of the sandbox's client, with `secret` or none (a public client).
pub fn basic(secret: Option<&str>) -> String {
    basic_auth_header(CLIENT_ID, secret)
}

pub struct Sandbox {
    pub running: RunningSandbox,
    pub url: String,
    pub http: Client,
}

impl Server for Sandbox {
    fn base(&self) -> (&str, &Client) {
        (&self.url, &self.http)
    }
}

impl Sandbox {
    pub fn redirect_uri(&self) -> String {
        format!("{}/auth/callback", self.url)
    }

    /// GET with a bearer token.
    pub async fn get(&self, path: &str, token: &str) -> Response {
        self.get_req(path).bearer_auth(token).answer().await
    }

    /// The status `/api/v3/me` answers `token` with: whether the token is alive.
    pub async fn me_status(&self, token: &str) -> StatusCode {
        self.get("/api/v3/me", token).await.status()
    }

    /// GET with a bearer token, expecting 200 and a body of type `T`.
    pub async fn get_ok<T: DeserializeOwned>(&self, path: &str, token: &str) -> T {
        let res = self.get(path, token).await;
        assert_eq!(res.status(), StatusCode::OK, "GET {path}");
        res.json().await.expect("body of the contract type")
    }

    /// The authorization request's query for this sandbox.
    pub fn authorize_query(&self, scope: &str, challenge: Option<&str>) -> Vec<(String, String)> {
        let mut q = vec![
            ("client_id".to_owned(), CLIENT_ID.to_owned()),
            ("redirect_uri".to_owned(), self.redirect_uri()),
            ("response_type".to_owned(), "code".to_owned()),
            ("scope".to_owned(), scope.to_owned()),
            ("state".to_owned(), "st4te".to_owned()),
        ];
        if let Some(c) = challenge {
            q.push(("code_challenge".to_owned(), c.to_owned()));
            q.push(("code_challenge_method".to_owned(), "S256".to_owned()));
        }
        q
    }

    /// The consent page for an authorization request.
    pub async fn authorize_page(&self, query: &[(String, String)]) -> Response {
        self.get_req("/oauth/authorize").query(query).answer().await
    }

    /// Posts the consent form: the request's fields, the account picked and the decision.
    pub async fn decide(
        &self,
        query: &[(String, String)],
        email: &str,
        decision: &str,
    ) -> Response {
        let mut form = query.to_vec();
        form.push(("user".to_owned(), email.to_owned()));
        form.push(("decision".to_owned(), decision.to_owned()));
        self.post_req("/oauth/authorize").form(&form).answer().await
    }

    /// Shows the consent page, then posts the decision; returns the redirect `Location`.
    pub async fn consent(&self, query: &[(String, String)], email: &str, decision: &str) -> String {
        assert_eq!(self.authorize_page(query).await.status(), StatusCode::OK);
        redirect_location(&self.decide(query, email, decision).await)
    }

    /// Allows as `email` and returns the code from the redirect.
    pub async fn code(&self, email: &str, scope: &str, challenge: Option<&str>) -> String {
        let location = self
            .consent(&self.authorize_query(scope, challenge), email, "allow")
            .await;
        query_param(&location, "code").expect("code in redirect")
    }

    /// Allows as `email` with a PKCE challenge of [`VERIFIER`]; returns the code.
    pub async fn code_pkce(&self, email: &str, scope: &str) -> String {
        let challenge = code_challenge_s256(VERIFIER);
        self.code(email, scope, Some(&challenge)).await
    }

    /// `POST path` (the revocation endpoint, its query included) with `authorization`, if any.
    pub async fn revoke(&self, path: &str, authorization: Option<&str>) -> Response {
        let mut req = self.post_req(path);
        if let Some(value) = authorization {
            req = req.header("authorization", value);
        }
        req.answer().await
    }

    /// `POST` to a test hook with the header that proves it is no cross-site form.
    pub async fn hook(&self, path: &str) -> Response {
        self.post_req(path)
            .header("x-sandbox-test", "1")
            .answer()
            .await
    }

    /// `grant_type=authorization_code` for `code`, proven as `proof` says.
    pub async fn exchange(&self, code: &str, proof: Proof<'_>) -> Response {
        let redirect = self.redirect_uri();
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect.as_str()),
            ("client_id", CLIENT_ID),
        ];
        form.extend(proof.fields());
        self.token_form(&form).await
    }

    /// `grant_type=refresh_token`, proven as `proof` says.
    pub async fn refresh(&self, refresh_token: &str, proof: Proof<'_>) -> Response {
        let mut form = vec![
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", CLIENT_ID),
        ];
        form.extend(proof.fields());
        self.token_form(&form).await
    }

    async fn signed_in(&self, code: &str, proof: Proof<'_>) -> TokenResponse {
        let res = self.exchange(code, proof).await;
        assert_eq!(res.status(), StatusCode::OK);
        res.json().await.expect("token response")
    }

    /// A full confidential-client sign-in.
    pub async fn sign_in(&self, email: &str, scope: &str) -> TokenResponse {
        let code = self.code(email, scope, None).await;
        self.signed_in(&code, Proof::Secret).await
    }

    /// A full public-client (PKCE) sign-in.
    pub async fn sign_in_pkce(&self, email: &str, scope: &str) -> TokenResponse {
        let code = self.code_pkce(email, scope).await;
        self.signed_in(&code, Proof::Verifier(VERIFIER)).await
    }

    /// An admin token with both scopes.
    pub async fn admin(&self) -> String {
        self.sign_in("admin@example.com", "scim marketplace")
            .await
            .access_token
    }

    pub async fn stats(&self) -> serde_json::Value {
        let req = self.get_req("/__sandbox/stats");
        let res = req.header("x-sandbox-test", "1").answer().await;
        res.json().await.expect("stats json")
    }
}

/// Starts a sandbox with test hooks on a free loopback port; `tweak` adjusts the config.
pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> Sandbox {
    let mut config = Config {
        test_hooks: true,
        ..Config::default()
    };
    tweak(&mut config);
    let running = spawn(config).await.expect("sandbox starts");
    let url = running.url();
    let http = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    Sandbox { running, url, http }
}

pub async fn start() -> Sandbox {
    start_with(|_| {}).await
}

/// A decoded query parameter of a URL.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    gifting_api::query::parse_pairs(query)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// Asserts a REST v3 error: status and a `{"message"}` body.
pub async fn assert_rest_error(res: Response, status: StatusCode) -> String {
    assert_eq!(res.status(), status);
    assert!(header(&res, "content-type").starts_with("application/json"));
    let body: gifting_api::rest::RestError = res.json().await.expect("{\"message\"} body");
    assert!(!body.message.is_empty());
    body.message
}

/// Asserts an OAuth error body.
pub async fn assert_oauth_error(res: Response, status: StatusCode, error: &str) {
    assert_eq!(res.status(), status);
    let body: gifting_api::oauth::OAuthError = res.json().await.expect("OAuth error body");
    assert_eq!(body.error, error, "{:?}", body.error_description);
}

/// Asserts a SCIM error body.
pub async fn assert_scim_error(res: Response, status: StatusCode, scim_type: Option<&str>) {
    assert_eq!(res.status(), status);
    let body: gifting_api::scim::ScimError = res.json().await.expect("SCIM error body");
    assert_eq!(body.schemas, [gifting_api::scim::ERROR_SCHEMA]);
    assert_eq!(body.status, status.as_u16().to_string());
    assert_eq!(body.scim_type.as_deref(), scim_type, "{}", body.detail);
}
