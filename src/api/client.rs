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
use crate::http::pacing::{token_pacer, Lane};
use crate::http::retry::{
    parse_retry_after, Decision, Outcome, RequestKind, RetryPolicy, REQUEST_TIMEOUT_MS,
};
use crate::http::transport::{send_once, Outgoing, RawResponse, SendError};

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
            .request(method.clone(), path, None, RequestKind::Read, Turn::Own)
            .await?;
        decode(method, path, raw)
    }

    /// A read in `lane` (see [`crate::http::pacing`]), a [`RequestKind::PacedRead`]: it waits
    /// for its turn, is tried once by the request layer, and is tried again here as the request
    /// policy says: after a busy answer as long as the pacer waits, after a lost one (network,
    /// timeout, 5xx) backing off. `Cancelled` once the lane is stopped.
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
                Err(error) => {
                    lane_after_error(lane, RequestKind::PacedRead, started, &mut lost, error)?;
                }
            }
        }
    }

    /// As [`ApiClient::get_json`], tried once: for [`ApiClient::get_paced`], so no retry runs
    /// under the pacing unseen.
    async fn get_json_once<T: DeserializeOwned>(&self, call: Call) -> Result<T, ApiError> {
        let (method, path) = method_and_path(&call, Method::GET)?;
        let raw = self
            .request(
                method.clone(),
                path,
                None,
                RequestKind::PacedRead,
                Turn::Lane,
            )
            .await?;
        decode(method, path, raw).map(|r| r.body)
    }

    /// A SCIM PUT of long work in `lane`, a [`RequestKind::IdempotentWrite`]: sent again after
    /// a busy or lost answer, as the request policy says (the bulk change, the import and
    /// every undo send their PUTs through here, so they are treated the same).
    pub(crate) async fn put_in_lane<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        lane: &Lane,
        call: Call,
        body: &B,
    ) -> Written<T> {
        let never_asked = || async { Ok(None) };
        self.write_in_lane(lane, RequestKind::IdempotentWrite, call, body, never_asked)
            .await
    }

    /// A SCIM POST of long work in `lane`, a [`RequestKind::CheckedCreate`]: never sent again
    /// blindly. After a busy or lost answer, `landed` asks the platform whether it landed
    /// (what it found, if it did), and it is sent again only if it did not.
    pub(crate) async fn create_in_lane<T: DeserializeOwned>(
        &self,
        lane: &Lane,
        call: Call,
        body: &(impl Serialize + ?Sized),
        landed: impl AsyncFn() -> Result<Option<T>, ApiError>,
    ) -> Written<T> {
        self.write_in_lane(lane, RequestKind::CheckedCreate, call, body, landed)
            .await
    }

    /// A write of long work to its end, each send in its turn in `lane`, as the request policy
    /// says for `kind` after a busy or lost answer.
    async fn write_in_lane<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        lane: &Lane,
        kind: RequestKind,
        call: Call,
        body: &B,
        landed: impl AsyncFn() -> Result<Option<T>, ApiError>,
    ) -> Written<T> {
        let (mut lost, mut pending, mut check) = (0, false, false);
        loop {
            if lane.stopped() {
                return Written::Stopped { pending };
            }
            if check {
                match landed().await {
                    Ok(Some(found)) => return Written::Confirmed(found),
                    Ok(None) => {}
                    Err(ApiError::Cancelled) => return Written::Stopped { pending },
                    Err(error) => return Written::Unchecked(error),
                }
            }
            let Some(started) = lane.turn().await else {
                return Written::Stopped { pending };
            };
            let error = match self.write::<B, T>(call.clone(), body, Turn::Lane).await {
                Ok(answer) => {
                    lane.answered(started);
                    return Written::Answered(answer.body);
                }
                Err(error) => error,
            };
            if let Some(outcome) = error.outcome().filter(|o| o.is_lost()) {
                // A busy answer comes before any work; a create is checked after it all the
                // same (never sent again blindly), so it may have landed as far as it knows.
                pending |= !outcome.is_busy() || kind == RequestKind::CheckedCreate;
            } else if error.status().is_some() {
                // A final answer: the platform counted it against the token's allowance.
                lane.answered(started);
            }
            match lane_after_error(lane, kind, started, &mut lost, error) {
                Ok(checked) => check = checked,
                Err(error) => return Written::Failed { error, lost },
            }
        }
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
        // The request layer tries a write once: what may follow depends on who sent it (a
        // lane's write: `write_in_lane`; a screen's: the screen, which keeps the admin's input).
        let kind = if method == Method::POST {
            RequestKind::CheckedCreate
        } else {
            RequestKind::IdempotentWrite
        };
        let raw = self
            .request(method.clone(), path, Some(json), kind, turn)
            .await?;
        decode(method, path, raw)
    }

    /// Sends until success or a final error: each try in its turn on the token (see
    /// [`Turn`]), bearer token (refreshed ahead of expiry), one refresh-and-retry on 401, and
    /// for a screen's read the request policy's retries (every other kind is tried once here).
    async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
        kind: RequestKind,
        turn: Turn,
    ) -> Result<RawResponse, ApiError> {
        let Some(scope) = self.scope.try_get_value().map(SendWrapper::take) else {
            return Err(ApiError::Cancelled);
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
            self.wait_or_give_up((kind, tries, outcome), response)
                .await?;
        }
    }

    /// After a failed try: waits as the retry policy says, or ends with the error to report.
    async fn wait_or_give_up(
        &self,
        (kind, tries, outcome): (RequestKind, u32, Outcome),
        response: Option<RawResponse>,
    ) -> Result<(), ApiError> {
        let retry_after_ms = response.as_ref().and_then(retry_after_ms);
        let decided = if kind.retried_by_request_layer() {
            let jitter = js_sys::Math::random();
            RetryPolicy::default().decide(kind, tries, outcome, retry_after_ms, jitter)
        } else {
            Decision::GiveUp
        };
        match decided {
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
            Decision::CheckFirst { .. } | Decision::GiveUp => Err(match response {
                Some(r) => ApiError::from_response(r.status, &r.body, retry_after_ms),
                None => {
                    self.net.note_unreachable(self.auth.config().api_url("/"));
                    ApiError::Network
                }
            }),
        }
    }
}

/// What a write of long work ([`ApiClient::put_in_lane`], [`ApiClient::create_in_lane`])
/// ended with.
#[derive(Debug, PartialEq)]
pub(crate) enum Written<T> {
    /// The platform answered it.
    Answered(T),
    /// Its answer was lost, and the platform, asked, showed it had landed: what it found.
    Confirmed(T),
    /// A final error: refused, or lost `lost` times (other than busy) and given up on.
    Failed { error: ApiError, lost: u32 },
    /// Its answer was lost, and asking whether it landed failed with this.
    Unchecked(ApiError),
    /// The lane stopped first. `pending`: a send of it had no answer, so it may have landed.
    Stopped { pending: bool },
}

impl<T> Written<T> {
    /// The same end, with what was answered or found turned by `f`.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Written<U> {
        match self {
            Written::Answered(t) => Written::Answered(f(t)),
            Written::Confirmed(t) => Written::Confirmed(f(t)),
            Written::Failed { error, lost } => Written::Failed { error, lost },
            Written::Unchecked(error) => Written::Unchecked(error),
            Written::Stopped { pending } => Written::Stopped { pending },
        }
    }

    /// What was answered or found, or the error; stopped first reads as cancelled.
    pub(crate) fn into_result(self) -> Result<T, ApiError> {
        match self {
            Written::Answered(t) | Written::Confirmed(t) => Ok(t),
            Written::Failed { error, .. } | Written::Unchecked(error) => Err(error),
            Written::Stopped { .. } => Err(ApiError::Cancelled),
        }
    }
}

/// In a lane, after the request started at `started` failed with `error`: tells the pacer a
/// busy answer, backs off after a lost one, as the request policy says for `kind`. `lost`
/// counts the lost answers other than busy ones. `Ok(true)`: ask whether it landed before
/// sending it again; `Ok(false)`: send it again; `Err`: the error to end with.
fn lane_after_error(
    lane: &Lane,
    kind: RequestKind,
    started: f64,
    lost: &mut u32,
    error: ApiError,
) -> Result<bool, ApiError> {
    let Some(outcome) = error.outcome() else {
        return Err(error);
    };
    if outcome.is_lost() && !outcome.is_busy() {
        *lost += 1;
    }
    let jitter = js_sys::Math::random();
    let decided = RetryPolicy::default().decide(kind, (*lost).max(1), outcome, None, jitter);
    let (delay_ms, busy, check) = match decided {
        Decision::GiveUp => return Err(error),
        Decision::Retry { delay_ms, busy } => (delay_ms, busy, false),
        Decision::CheckFirst { delay_ms, busy } => (delay_ms, busy, true),
    };
    if busy {
        // The pacer's hold is the wait, for every request of the token; past its patience the
        // work stops and says so.
        let retry_after = match &error {
            ApiError::Busy { retry_after } => *retry_after,
            _ => None,
        };
        if lane.refused(started, retry_after).is_none() {
            return Err(error);
        }
    } else {
        lane.hold(delay_ms);
    }
    Ok(check)
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
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::api::testing::signed_in_app;
    use crate::api::{api_with_scope, CancelScope};
    use crate::http::pacing::Pacer;
    use crate::http::transport::{fake_platform, take_fake_platform};
    use gifting_api::paths::endpoint;
    use gifting_api::scim::{ListResponse, ReplaceUser, ScimUser};
    use wasm_bindgen_test::wasm_bindgen_test;

    const USER: &str =
        r#"{"id":"7","userName":"ana@example.org","active":true,"userType":"sender"}"#;

    /// A SCIM platform played by `answer`, told each request as "METHOD path" and how many of
    /// the same came before; every request is kept in the returned log.
    fn scim_platform(
        answer: impl Fn(&str, usize) -> (u16, String) + 'static,
    ) -> Rc<RefCell<Vec<String>>> {
        let log = Rc::new(RefCell::new(Vec::<String>::new()));
        let kept = log.clone();
        fake_platform(Some(Rc::new(move |method, url: &str| {
            let path = url.split_once("/api/").map_or(url, |(_, p)| p);
            let asked = format!("{method} {}", path.split('?').next().unwrap_or(path));
            let before = kept.borrow().iter().filter(|a| **a == asked).count();
            kept.borrow_mut().push(asked.clone());
            answer(&asked, before)
        })));
        log
    }

    fn list(users: &[&str]) -> String {
        format!(
            r#"{{"totalResults":{n},"itemsPerPage":{n},"startIndex":1,"Resources":[{}]}}"#,
            users.join(","),
            n = users.len()
        )
    }

    /// Creates ana@example.org in a lane, asking "did it land?" by `userName eq`, as the
    /// import does.
    async fn create(api: ApiClient, lane: &Lane) -> Written<ScimUser> {
        let body = serde_json::json!({"userName": "ana@example.org"});
        let landed = || async {
            let call = endpoint::LIST_SCIM_USERS.call(&[]);
            let found: ListResponse = api.get_paced(lane, call).await?;
            Ok(found.resources.into_iter().next())
        };
        let call = endpoint::CREATE_SCIM_USER.call(&[]);
        api.create_in_lane(lane, call, &body, landed).await
    }

    /// The lost-answer rule against a fake platform, one test holding it for the three.
    #[wasm_bindgen_test]
    async fn a_lost_answer_is_checked_for_a_create_and_resent_for_a_put() {
        let _platform = take_fake_platform().await;
        let app = signed_in_app();
        let api = app.with(|| api_with_scope(CancelScope::new()));
        let lane = || Lane::new(Rc::new(Pacer::default()));

        // The create lands but its answer is lost (502): found by the check, never sent again.
        let landed = Rc::new(RefCell::new(false));
        let made = landed.clone();
        let log = scim_platform(move |asked, _| match asked {
            "POST scim/v2/Users" => {
                made.replace(true);
                (502, String::new())
            }
            _ if *made.borrow() => (200, list(&[USER])),
            _ => (200, list(&[])),
        });
        let written = create(api, &lane()).await;
        assert!(
            matches!(written, Written::Confirmed(ref u) if u.id == "7"),
            "{written:?}"
        );
        assert_eq!(*log.borrow(), ["POST scim/v2/Users", "GET scim/v2/Users"]);
        assert!(*landed.borrow());

        // The create is lost before it lands: checked, then sent again, once.
        let log = scim_platform(|asked, before| match (asked, before) {
            ("POST scim/v2/Users", 0) => (500, String::new()),
            ("POST scim/v2/Users", _) => (201, USER.into()),
            _ => (200, list(&[])),
        });
        let written = create(api, &lane()).await;
        assert!(
            matches!(written, Written::Answered(ref u) if u.id == "7"),
            "{written:?}"
        );
        let sent = [
            "POST scim/v2/Users",
            "GET scim/v2/Users",
            "POST scim/v2/Users",
        ];
        assert_eq!(*log.borrow(), sent);

        // A PUT whose answer is lost is sent again as it is, with no read first.
        let log = scim_platform(|_, before| match before {
            0 => (503, String::new()),
            1 => (500, String::new()),
            _ => (200, USER.into()),
        });
        let body = ReplaceUser {
            active: Some(false),
            ..ReplaceUser::default()
        };
        let call = endpoint::REPLACE_SCIM_USER.call(&["7"]);
        let written = api.put_in_lane::<_, ScimUser>(&lane(), call, &body).await;
        assert!(
            matches!(written, Written::Answered(ref u) if u.id == "7"),
            "{written:?}"
        );
        assert_eq!(*log.borrow(), ["PUT scim/v2/Users/7"; 3]);
        fake_platform(None);
    }

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
