#![cfg(target_arch = "wasm32")]
//! Sign-in flow pieces in the browser: authorize URL, PKCE, state, callback checks.

use gifting_api::oauth::{code_challenge_s256, is_valid_verifier};
use gifting_api::query::parse_pairs;
use gifting_console::auth::flow::{
    authorize_url, check_callback, new_state, new_verifier, s256_challenge, safe_return_to,
    states_match, CallbackError, CallbackParams,
};
use gifting_console::auth::session::PendingSignIn;
use gifting_console::config::parse_config;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn config() -> gifting_console::config::Config {
    parse_config(
        r#"{"base_url":"http://127.0.0.1:8080","auth_url":"https://auth.example.com/",
            "client_id":"gifting console","scope":"scim marketplace"}"#,
    )
    .expect("valid config")
}

#[wasm_bindgen_test]
fn pkce_challenge_matches_rfc_7636_appendix_b() {
    // RFC 7636 Appendix B: the verifier and its S256 challenge.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    assert_eq!(
        code_challenge_s256(verifier),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
}

#[wasm_bindgen_test]
async fn the_browser_hashes_the_challenge_as_rfc_7636_appendix_b() {
    // The console hashes with WebCrypto: the same challenge as the contract's SHA-256.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = s256_challenge(verifier).await.expect("WebCrypto");
    assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    let fresh = new_verifier().expect("random");
    assert_eq!(
        s256_challenge(&fresh).await,
        Ok(code_challenge_s256(&fresh))
    );
}

#[wasm_bindgen_test]
async fn authorize_url_carries_every_parameter_encoded() {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = s256_challenge(verifier).await.expect("WebCrypto");
    let url = authorize_url(&config(), "http://localhost:9000", "the-state", &challenge);
    let (base, query) = url.split_once('?').expect("a query");
    assert_eq!(base, "https://auth.example.com/oauth/authorize");
    let pairs = parse_pairs(query);
    let get = |key: &str| {
        let values: Vec<&str> = pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(values.len(), 1, "{key} appears once in {url}");
        values[0].to_string()
    };
    assert_eq!(get("client_id"), "gifting console");
    assert_eq!(get("redirect_uri"), "http://localhost:9000/auth/callback");
    assert_eq!(get("response_type"), "code");
    assert_eq!(get("scope"), "scim marketplace");
    assert_eq!(get("state"), "the-state");
    assert_eq!(
        get("code_challenge"),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
    assert_eq!(get("code_challenge_method"), "S256");
    // Encoded, not raw: a space or ':' in a value would break the URL.
    assert!(query.contains("client_id=gifting%20console"), "{query}");
    assert!(!query.contains("http://"), "{query}");
}

#[wasm_bindgen_test]
fn states_and_verifiers_are_fresh_256_bit_base64url() {
    let states: Vec<String> = (0..32).map(|_| new_state().expect("random")).collect();
    for state in &states {
        // 32 random bytes: 43 base64url characters without padding, well over 128 bits.
        assert_eq!(state.len(), 43, "{state}");
        assert!(
            state
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{state}"
        );
    }
    let mut unique = states.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), states.len(), "every state differs");

    let verifier = new_verifier().expect("random");
    assert!(is_valid_verifier(&verifier), "{verifier}");
    assert_ne!(verifier, new_verifier().expect("random"));
    assert_eq!(code_challenge_s256(&verifier).len(), 43);
}

fn pending(state: &str) -> PendingSignIn {
    PendingSignIn {
        state: state.into(),
        verifier: "v".repeat(43),
        return_to: "/sends".into(),
        replaces: None,
    }
}

fn params(code: Option<&str>, state: Option<&str>, error: Option<&str>) -> CallbackParams {
    CallbackParams {
        code: code.map(Into::into),
        state: state.map(Into::into),
        error: error.map(Into::into),
        error_description: error.map(|_| "The user denied access".into()),
    }
}

#[wasm_bindgen_test]
fn callback_with_the_right_state_yields_the_code() {
    let p = params(Some("abc"), Some("s1"), None);
    assert_eq!(
        check_callback(&p, Some(&pending("s1"))),
        Ok("abc".to_string())
    );
}

#[wasm_bindgen_test]
fn callback_with_a_wrong_missing_or_unexpected_state_is_refused() {
    let tampered = params(Some("abc"), Some("s1x"), None);
    assert_eq!(
        check_callback(&tampered, Some(&pending("s1"))),
        Err(CallbackError::StateMismatch)
    );
    let missing = params(Some("abc"), None, None);
    assert_eq!(
        check_callback(&missing, Some(&pending("s1"))),
        Err(CallbackError::StateMismatch)
    );
    // No sign-in started in this tab: even a "matching" looking state is refused.
    let unsolicited = params(Some("abc"), Some("s1"), None);
    assert_eq!(
        check_callback(&unsolicited, None),
        Err(CallbackError::StateMismatch)
    );
    // The state is checked before the error text, so a forged error is not shown either.
    let forged_error = params(None, Some("nope"), Some("access_denied"));
    assert_eq!(
        check_callback(&forged_error, Some(&pending("s1"))),
        Err(CallbackError::StateMismatch)
    );
    assert!(!states_match("abc", "abd"));
    assert!(!states_match("abc", "abcd"));
    assert!(states_match("abc", "abc"));
}

#[wasm_bindgen_test]
fn a_denial_is_reported_in_words() {
    let denied = params(None, Some("s1"), Some("access_denied"));
    let err = check_callback(&denied, Some(&pending("s1"))).expect_err("denied");
    assert!(matches!(err, CallbackError::Denied { .. }));
    let text = err.user_message();
    assert!(text.contains("Access was denied"), "{text}");
    assert!(text.contains("The user denied access"), "{text}");
    let no_code = params(None, Some("s1"), None);
    assert_eq!(
        check_callback(&no_code, Some(&pending("s1"))),
        Err(CallbackError::MissingCode)
    );
}

#[wasm_bindgen_test]
fn return_routes_never_leave_the_site() {
    assert_eq!(
        safe_return_to("/teams/3?x=1#top", "/auth/callback"),
        "/teams/3?x=1#top"
    );
    assert_eq!(safe_return_to("//evil.example/x", "/auth/callback"), "/");
    assert_eq!(safe_return_to("/\\evil.example", "/auth/callback"), "/");
    assert_eq!(safe_return_to("javascript:alert(1)", "/auth/callback"), "/");
    assert_eq!(safe_return_to("/auth/callback", "/auth/callback"), "/");
}

#[wasm_bindgen_test]
fn token_answers_are_read_as_token_refusal_or_try_again() {
    use gifting_console::auth::token_endpoint::{read_token_answer, TokenFailure};
    let token = r#"{"access_token":"a","token_type":"bearer","expires_in":7200,
        "refresh_token":"r","scope":"scim","created_at":1}"#;
    assert_eq!(
        read_token_answer(200, token).map(|t| t.access_token).ok(),
        Some("a".into())
    );
    let refused = r#"{"error":"invalid_grant","error_description":"used"}"#;
    assert!(matches!(
        read_token_answer(400, refused),
        Err(TokenFailure::Refused(_))
    ));
    assert!(matches!(
        read_token_answer(401, r#"{"error":"invalid_client"}"#),
        Err(TokenFailure::Refused(_))
    ));
    // The gateway's rate limit and an unreachable platform behind it are "not now".
    let busy = r#"{"error":"temporarily_unavailable","error_description":"try again in 9 s"}"#;
    for status in [429, 502, 504] {
        assert_eq!(
            read_token_answer(status, busy),
            Err(TokenFailure::Unexpected { status })
        );
    }
    assert_eq!(
        read_token_answer(200, "<html>"),
        Err(TokenFailure::Unexpected { status: 200 })
    );
}
