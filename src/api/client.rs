//! The one HTTP client of the console: bearer token, refresh, retries, timeouts, cancellation
//! and typed errors, so pages only say what they want.

use std::time::Duration;

use gifting_api::paths::{self, Call};
use gloo_net::http::Method;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::error::ApiError;
use super::status::NetStatus;
use crate::auth::{Auth, SessionEnd};
use crate::browser::{navigator_online, now_ms, sleep};
use crate::http::cancel::CancelScope;
use crate::http::pacing::{busy_wait_ms, token_pacer, Lane};
use crate::http::retry::{
    parse_retry_after, Decision, Outcome, RequestKind, RetryPolicy, REQUEST_TIMEOUT_MS,
};
use crate::http::transport::{send_once, Outgoing, RawResponse, SendError};

/// Lost answers (network, 5xx) of one paced read before it gives up.
const PACED_READ_TRIES: u32 = 6;

/// A successful answer with what pages may need beyond the body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ApiResponse<T> {
    /// 2xx status, e.g. 201 after a SCIM create.
    pub(crate) status: u16,
    /// The `Location` header, e.g. the created SCIM user's URL.
    pub(crate) location: Option<String>,
    pub(crate) body: T,
}

/// The console's platform client. Get one with [`super::use_api`] in a component's body; its
/// requests are cancelled when that component goes away. `Copy`: move it into closures.
#[derive(Clone, Copy)]
pub(crate) struct ApiClient {
    auth: Auth,
    net: NetStatus,
    /// Disposed with the component that asked for this client; gone means cancelled.
    scope: StoredValue<SendWrapper<CancelScope>>,
}

impl ApiClient {
    /// A client whose requests end with `scope`. Pages use [`super::use_api`] instead.
    pub(crate) fn new(auth: Auth, net: NetStatus, scope: CancelScope) -> Self {
        Self {
            auth,
            net,
            scope: StoredValue::new(SendWrapper::new(scope)),
        }
    }

    /// GET `call` (e.g. `endpoint::LIST_SENDS.call(&[]).query("?page=2&per_page=25")`) and
    /// decode the JSON body. Retried on network errors, 5xx and 429.
    pub(crate) async fn get_json<T: DeserializeOwned>(&self, call: Call) -> Result<T, ApiError> {
        self.get(call).await.map(|r| r.body)
    }

    /// As [`ApiClient::get_json`], keeping the status and `Location`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        call: Call,
    ) -> Result<ApiResponse<T>, ApiError> {
        let (method, path) = method_and_path(&call, Method::GET)?;
        let raw = self
            .request(
                method.clone(),
                path,
                None,
                RetryPolicy::default(),
                Turn::Own,
            )
            .await?;
        decode(method, path, raw)
    }

    /// A read in `lane` (see [`crate::http::pacing`]): it waits for its turn, is tried
    /// once by the request layer, and is tried again here after a busy answer (as long as
    /// the platform asked) or a lost one (network, 5xx: backing off), up to [`PACED_READ_TRIES`]
    /// lost answers. `Cancelled` once the lane is stopped.
    pub(crate) async fn get_paced<T: DeserializeOwned>(
        &self,
        lane: &Lane,
        call: Call,
    ) -> Result<T, ApiError> {
        let mut lost = 0;
        loop {
            let Some(started) = lane.turn().await else {
                return Err(ApiError::Cancelled);
            };
            match self.get_json_once::<T>(call.clone()).await {
                Ok(body) => {
                    lane.answered(started);
                    return Ok(body);
                }
                Err(ApiError::Busy { retry_after }) => {
                    if lane.refused(started, retry_after).is_none() {
                        return Err(ApiError::Busy { retry_after });
                    }
                }
                Err(error) if error.is_transient() && lost + 1 < PACED_READ_TRIES => {
                    lost += 1;
                    lane.hold(busy_wait_ms(None, lost).unwrap_or(1000));
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// As [`ApiClient::get_json`], tried once: for [`ApiClient::get_paced`], so no retry runs
    /// under the pacing unseen.
    async fn get_json_once<T: DeserializeOwned>(&self, call: Call) -> Result<T, ApiError> {
        let policy = RetryPolicy {
            max_tries: 1,
            retry_busy: false,
            ..RetryPolicy::default()
        };
        let (method, path) = method_and_path(&call, Method::GET)?;
        let raw = self
            .request(method.clone(), path, None, policy, Turn::Lane)
            .await?;
        decode(method, path, raw).map(|r| r.body)
    }

    /// POST or PUT (the call's own method) a JSON body. Never retried automatically: a create
    /// is not idempotent, so the page reports the error and keeps the user's input for a
    /// resend.
    pub(crate) async fn write_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        call: Call,
        body: &B,
    ) -> Result<ApiResponse<T>, ApiError> {
        self.write(call, body, Turn::Own).await
    }

    /// As [`ApiClient::write_json`], its turn taken in the caller's lane (a job's write).
    pub(crate) async fn write_json_in_lane<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        call: Call,
        body: &B,
    ) -> Result<ApiResponse<T>, ApiError> {
        self.write(call, body, Turn::Lane).await
    }

    async fn write<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        call: Call,
        body: &B,
        turn: Turn,
    ) -> Result<ApiResponse<T>, ApiError> {
        let asked = match call.method() {
            paths::Method::Post => Method::POST,
            _ => Method::PUT,
        };
        let (method, path) = method_and_path(&call, asked)?;
        let json = serde_json::to_string(body).map_err(|e| ApiError::Decode {
            endpoint: endpoint_name(&method, path),
            detail: format!("the request could not be encoded: {e}"),
        })?;
        let raw = self
            .request(
                method.clone(),
                path,
                Some(json),
                RetryPolicy::default(),
                turn,
            )
            .await?;
        decode(method, path, raw)
    }

    /// Sends until success or a final error: each try in its turn on the token (see
    /// [`Turn`]), bearer token (refreshed ahead of expiry), one refresh-and-retry on 401, and
    /// for reads the retry policy.
    async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
        policy: RetryPolicy,
        turn: Turn,
    ) -> Result<RawResponse, ApiError> {
        let Some(scope) = self.scope.try_get_value().map(SendWrapper::take) else {
            return Err(ApiError::Cancelled);
        };
        let kind = if method == Method::GET {
            RequestKind::Read
        } else {
            RequestKind::Write
        };
        let url = self.auth.config().api_url(path);
        let pacer = token_pacer();
        let mut tries = 0;
        let mut refreshed_after_401 = false;
        loop {
            if scope.is_cancelled() {
                return Err(ApiError::Cancelled);
            }
            let started = match turn {
                Turn::Own => pacer
                    .turn(|| scope.is_cancelled(), |_| {})
                    .await
                    .ok_or(ApiError::Cancelled)?,
                Turn::Lane => now_ms() as f64,
            };
            let token = self.auth.access_token().await?;
            let outgoing = outgoing(&method, &url, path, &token, body.clone());
            tries += 1;
            let sent = send_once(outgoing, &scope, REQUEST_TIMEOUT_MS).await;
            if let Ok(response) = &sent {
                self.net.note_answered();
                if response.status != 429 {
                    // The platform counted it against the token's allowance: the pace is
                    // learned from every request of the tab.
                    pacer.note_answered(started);
                } else if turn == Turn::Own {
                    // A lane tells its own refusals; this one every other request must know.
                    let retry_after = retry_after_ms(response).map(|ms| ms.div_ceil(1000));
                    let _ = pacer.refused(started, retry_after);
                }
            }
            let (outcome, response) = match sent {
                Ok(response) if (200..300).contains(&response.status) => return Ok(response),
                Ok(response) if response.status == 401 => {
                    if refreshed_after_401 {
                        // A fresh token was refused too: the grant is gone.
                        self.auth.end(SessionEnd::Expired);
                        return Err(ApiError::Unauthorized);
                    }
                    refreshed_after_401 = true;
                    self.auth.recover_from_unauthorized(&token).await?;
                    // The retry after a refresh is not one of the policy's tries.
                    tries -= 1;
                    continue;
                }
                Ok(response) => (Outcome::Status(response.status), Some(response)),
                Err(SendError::Cancelled) => return Err(ApiError::Cancelled),
                Err(SendError::Timeout) => return Err(ApiError::Timeout),
                Err(SendError::Network) if !navigator_online() => {
                    // Retrying now is pointless; the screen retries when the browser is back.
                    self.net.note_offline();
                    return Err(ApiError::Offline);
                }
                Err(SendError::Network) => (Outcome::Network, None),
            };
            let decided = (kind, tries, outcome);
            self.wait_or_give_up(&policy, decided, response).await?;
        }
    }

    /// After a failed try: waits as the retry policy says, or ends with the error to report.
    async fn wait_or_give_up(
        &self,
        policy: &RetryPolicy,
        (kind, tries, outcome): (RequestKind, u32, Outcome),
        response: Option<RawResponse>,
    ) -> Result<(), ApiError> {
        let retry_after_ms = response.as_ref().and_then(retry_after_ms);
        match policy.decide(kind, tries, outcome, retry_after_ms, js_sys::Math::random()) {
            Decision::Retry { delay_ms, busy } => {
                if busy {
                    self.net.note_busy_until(now_ms() + delay_ms as i64);
                }
                sleep(Duration::from_millis(delay_ms)).await;
                if busy {
                    self.net.note_busy_over();
                }
                Ok(())
            }
            Decision::GiveUp => Err(match response {
                Some(r) => ApiError::from_response(r.status, &r.body, retry_after_ms),
                None => {
                    self.net.note_unreachable(self.auth.config().api_url("/"));
                    ApiError::Network
                }
            }),
        }
    }
}

/// Who takes a request's turn on the token ([`crate::http::pacing`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// The request layer, for each try: a screen's read or write.
    Own,
    /// The caller's lane, before it asked (a job's paced request, tried once).
    Lane,
}

/// How long an answer asks the client to wait (`Retry-After`, seconds or a date), in ms.
fn retry_after_ms(response: &RawResponse) -> Option<u64> {
    let value = response.headers.get("Retry-After")?;
    parse_retry_after(&value, now_ms())
}

/// The method a call is sent with (the endpoint's own: a read of a write endpoint is a bug) and
/// its path; a call built wrong (an id missing or blank) is refused before anything is sent.
fn method_and_path(call: &Call, asked: Method) -> Result<(Method, &str), ApiError> {
    if let Some(problem) = call.problem() {
        return Err(ApiError::Unsendable(problem));
    }
    let method = match call.method() {
        paths::Method::Get => Method::GET,
        paths::Method::Post => Method::POST,
        paths::Method::Put => Method::PUT,
    };
    debug_assert_eq!(method, asked, "{}", call.path_and_query());
    Ok((method, call.path_and_query()))
}

/// One try's request: the bearer token, and SCIM's media type on SCIM paths.
fn outgoing<'a>(
    method: &Method,
    url: &'a str,
    path: &str,
    token: &str,
    body: Option<String>,
) -> Outgoing<'a> {
    let media = if path.starts_with("/api/scim/") {
        "application/scim+json"
    } else {
        "application/json"
    };
    let mut headers = vec![
        ("Authorization", format!("Bearer {token}")),
        ("Accept", format!("{media}, application/json")),
    ];
    if body.is_some() {
        headers.push(("Content-Type", media.to_string()));
    }
    Outgoing {
        method: method.clone(),
        url,
        headers,
        body,
    }
}

/// "GET /api/v3/send": the method and path, without the query, for error messages.
fn endpoint_name(method: &Method, path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    format!("{method} {path}")
}

fn decode<T: DeserializeOwned>(
    method: Method,
    path: &str,
    raw: RawResponse,
) -> Result<ApiResponse<T>, ApiError> {
    // An empty 2xx body reads as JSON null, so `()` and `Option<_>` callers work.
    let text = if raw.body.trim().is_empty() {
        "null"
    } else {
        raw.body.as_str()
    };
    let body = serde_json::from_str(text).map_err(|e| ApiError::Decode {
        endpoint: endpoint_name(&method, path),
        detail: e.to_string(),
    })?;
    Ok(ApiResponse {
        status: raw.status,
        location: raw.headers.get("Location"),
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gifting_api::paths::endpoint;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_call_without_its_id_is_refused_before_it_is_sent() {
        let blank = endpoint::READ_SCIM_USER.call(&[""]);
        let message = method_and_path(&blank, Method::GET).map_err(|e| e.user_message());
        assert_eq!(
            message,
            Err("This request is missing the id of the user, so it was not sent.".into())
        );
        let call = endpoint::READ_SCIM_USER.call(&["7"]);
        let sent = method_and_path(&call, Method::GET);
        assert_eq!(sent, Ok((Method::GET, "/api/scim/v2/Users/7")));
    }
}
