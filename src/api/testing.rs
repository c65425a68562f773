//! What unit tests of platform work share: a signed-in app, a fake platform of sends and one
//! of SCIM users (answered through [`crate::http::transport::fake_platform`]).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use gifting_api::oauth::TokenResponse;
use gifting_api::scim::{
    CreateUser, ListResponse, ReplaceUser, ScimError, ScimErrorType, ScimUser, UserFilter,
    LIST_RESPONSE_SCHEMA, MAX_COUNT, USER_SCHEMA,
};
use leptos::prelude::*;

use super::NetStatus;
use crate::auth::refresh::{RefreshError, RefreshTransport};
use crate::auth::session::Session;
use crate::auth::Auth;
use crate::config::parse_config;
use crate::http::transport::{fake_platform, fake_request_body};

/// Waits, a few milliseconds at a time, until `ready` says so (a fact, never a fixed time);
/// fails naming `what` after some twenty seconds.
pub(crate) async fn until(what: &str, ready: impl Fn() -> bool) {
    for _ in 0..4_000 {
        if ready() {
            return;
        }
        crate::browser::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("never so: {what}");
}

/// Lets other tasks run once (a resolved promise: no timer, so it runs in Node too).
pub(crate) async fn yield_now() {
    let resolved = js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL);
    let _ = wasm_bindgen_futures::JsFuture::from(resolved).await;
}

/// [`until`] for work that yields only microtasks (a timer would never get its turn): checks
/// once per turn of the microtask queue, and fails naming `what` after 10,000 turns.
pub(crate) async fn until_turns(what: &str, ready: impl Fn() -> bool) {
    for _ in 0..10_000 {
        if ready() {
            return;
        }
        yield_now().await;
    }
    panic!("never so: {what}");
}

/// A platform of `sends` sends, newest first, answering each URL it is asked for (kept in
/// `asked`); `answer` may replace an answer (a status and body) by the page asked.
pub(crate) fn platform(
    sends: u64,
    asked: Rc<RefCell<Vec<u32>>>,
    answer: impl Fn(u32) -> Option<(u16, String)> + 'static,
) {
    fake_platform(Some(Rc::new(move |_, url: &str| {
        let query = url.split_once('?').map_or("", |(_, q)| q);
        let number = |name: &str| {
            query
                .split('&')
                .find_map(|kv| {
                    kv.strip_prefix(name)?
                        .strip_prefix('=')?
                        .parse::<u64>()
                        .ok()
                })
                .unwrap_or(1)
        };
        let (page, per_page) = (number("page"), number("per_page"));
        asked.borrow_mut().push(page as u32);
        if let Some(answer) = answer(page as u32) {
            return answer;
        }
        let first = (page - 1) * per_page;
        let ids: Vec<String> = (first..(first + per_page).min(sends))
            .map(|i| send_json(sends - i))
            .collect();
        let body = format!(
            r#"{{"sends":[{}],"current_page":{page},"per_page":{per_page},"total_count":{sends}}}"#,
            ids.join(",")
        );
        (200, body)
    })));
}

/// A send as the platform lists it (only its id matters here).
fn send_json(id: u64) -> String {
    format!(
        r#"{{"id":{id},"send_gid":"snd_{id}","type":"eGifts USA","subtype":"eGift Cards USA",
        "currency":"USD","current_total_cost":"25.00","status":"Delivered",
        "created_at":"2026-03-01T14:05:00+00:00","touch":{{"id":7,"name":"Thanks"}},
        "recipient":{{"name":"Ana","email":"ana@example.org","company_name":"Acme"}},
        "sender":{{"id":3,"name":"Sam","email":"sam@example.com","team_id":1,"team_name":"Sales"}},
        "sent_via":"web","status_updates":[]}}"#
    )
}

/// The app's owner, signed in (a session that needs no refresh), with what a client needs.
pub(crate) fn signed_in_app() -> Owner {
    let app = Owner::new();
    app.with(|| {
        let config = parse_config(
            r#"{"base_url":"http://127.0.0.1:9","auth_url":"http://127.0.0.1:9","client_id":"c"}"#,
        )
        .expect("config");
        let transport: RefreshTransport =
            Rc::new(|_| Box::pin(async { Err(RefreshError::Unavailable) }));
        let auth = Auth::with_transport(Arc::new(config), transport);
        let now = crate::browser::now_ms();
        let token = TokenResponse {
            access_token: "a".into(),
            token_type: "Bearer".into(),
            expires_in: 3_600,
            refresh_token: "r".into(),
            scope: "admin".into(),
            created_at: now / 1000,
        };
        auth.store()
            .set(Session::from_token_response(&token, now, "admin"));
        provide_context(auth);
        provide_context(NetStatus::new());
    });
    app
}

/// One request the fake SCIM platform was asked: its method, its path with the query, and
/// its JSON body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Asked {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) body: Option<serde_json::Value>,
}

impl Asked {
    /// Whether it is `method` on exactly `path` ("PUT", "/api/scim/v2/Users/7").
    pub(crate) fn is(&self, method: &str, path: &str) -> bool {
        self.method == method && self.path == path
    }

    /// Whether it writes (POST or PUT).
    pub(crate) fn writes(&self) -> bool {
        self.method == "POST" || self.method == "PUT"
    }
}

/// A platform of SCIM users as the SCIM endpoints and `/api/v3/me` answer them
/// (`docs/platform.md`): its users, who is signed in, and every request it was asked, so a test
/// sees what landed and which bodies were sent.
#[derive(Debug, Default)]
pub(crate) struct Scim {
    pub(crate) users: Vec<ScimUser>,
    /// The signed-in admin's email, as `/api/v3/me` answers it.
    pub(crate) me: String,
    pub(crate) asked: Vec<Asked>,
    next_id: u64,
}

/// A user as the SCIM platform has it: `id`, email, role, team, active or not.
pub(crate) fn scim_user(id: &str, email: &str, role: &str, team: &str, active: bool) -> ScimUser {
    let given = email.split('@').next().unwrap_or_default();
    serde_json::from_value(serde_json::json!({
        "schemas": [USER_SCHEMA], "id": id, "userName": email, "active": active,
        "name": {"givenName": given, "familyName": "Test"},
        "emails": [{"value": email}], "userType": role, "division": team
    }))
    .expect("a SCIM user")
}

impl Scim {
    pub(crate) fn user(&self, id: &str) -> Option<&ScimUser> {
        self.users.iter().find(|u| u.id == id)
    }

    pub(crate) fn by_email(&self, email: &str) -> Option<&ScimUser> {
        let filter = UserFilter::user_name_eq(email);
        self.users.iter().find(|u| filter.matches(&u.user_name))
    }

    pub(crate) fn user_mut(&mut self, id: &str) -> Option<&mut ScimUser> {
        self.users.iter_mut().find(|u| u.id == id)
    }

    /// The writes asked (POST and PUT), in order.
    pub(crate) fn writes(&self) -> Vec<Asked> {
        self.asked.iter().filter(|a| a.writes()).cloned().collect()
    }

    /// What the platform does with `asked` and answers.
    pub(crate) fn answer(&mut self, asked: &Asked) -> (u16, String) {
        let (path, query) = asked
            .path
            .split_once('?')
            .unwrap_or((asked.path.as_str(), ""));
        let id = path.strip_prefix("/api/scim/v2/Users/");
        match (asked.method.as_str(), path, id) {
            ("GET", "/api/v3/me", _) => (200, self.me_json()),
            ("GET", "/api/scim/v2/Users", _) => self.list(query),
            ("POST", "/api/scim/v2/Users", _) => self.create(asked.body.clone()),
            ("GET", _, Some(id)) => match self.user(id) {
                Some(user) => (200, json(user)),
                None => not_found(),
            },
            ("PUT", _, Some(id)) => self.replace(id, asked.body.clone()),
            _ => not_found(),
        }
    }

    fn me_json(&self) -> String {
        serde_json::json!({
            "id": 1, "first_name": "Me", "last_name": "Admin", "email": self.me,
            "balance": "0.00", "team_balance": "0", "role": "admin"
        })
        .to_string()
    }

    fn list(&self, query: &str) -> (u16, String) {
        let mut start = 1u64;
        let mut count = MAX_COUNT;
        let mut filter = None;
        for (key, value) in gifting_api::query::pairs(query) {
            match key.as_str() {
                "startIndex" => start = value.parse().unwrap_or(1).max(1),
                "count" => count = value.parse().unwrap_or(MAX_COUNT).min(MAX_COUNT),
                "filter" => filter = UserFilter::parse(&value).ok(),
                _ => {}
            }
        }
        let matching: Vec<&ScimUser> = self
            .users
            .iter()
            .filter(|u| filter.as_ref().is_none_or(|f| f.matches(&u.user_name)))
            .collect();
        let page: Vec<ScimUser> = matching
            .iter()
            .skip(start as usize - 1)
            .take(count as usize)
            .map(|u| (*u).clone())
            .collect();
        let list = ListResponse {
            schemas: vec![LIST_RESPONSE_SCHEMA.to_owned()],
            total_results: matching.len() as u64,
            items_per_page: page.len() as u64,
            start_index: start,
            resources: page,
        };
        (200, json(&list))
    }

    fn create(&mut self, body: Option<serde_json::Value>) -> (u16, String) {
        let Some(body) = body.and_then(|b| serde_json::from_value::<CreateUser>(b).ok()) else {
            return error(400, ScimErrorType::InvalidSyntax, "unreadable body");
        };
        if self.by_email(&body.user_name).is_some() {
            return error(409, ScimErrorType::Uniqueness, "userName is already taken");
        }
        self.next_id += 1;
        let user = ScimUser {
            schemas: vec![USER_SCHEMA.to_owned()],
            id: format!("new{}", self.next_id),
            user_name: body.user_name,
            active: true,
            name: body.name.unwrap_or_default(),
            emails: body.emails,
            user_type: body.user_type,
            division: body.division,
        };
        self.users.push(user.clone());
        (201, json(&user))
    }

    fn replace(&mut self, id: &str, body: Option<serde_json::Value>) -> (u16, String) {
        let Some(body) = body.and_then(|b| serde_json::from_value::<ReplaceUser>(b).ok()) else {
            return error(400, ScimErrorType::InvalidSyntax, "unreadable body");
        };
        let Some(user) = self.user_mut(id) else {
            return not_found();
        };
        if let Some(active) = body.active {
            user.active = active;
        }
        if let Some(role) = body.user_type {
            user.user_type = role;
        }
        if let Some(team) = body.division {
            user.division = team;
        }
        if let Some(name) = body.name {
            user.name = name;
        }
        (200, json(&*user))
    }
}

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("JSON")
}

fn error(status: u16, kind: ScimErrorType, detail: &str) -> (u16, String) {
    (status, json(&ScimError::new(status, Some(kind), detail)))
}

fn not_found() -> (u16, String) {
    (404, json(&ScimError::new(404, None, "Resource not found")))
}

/// What a test makes of a request before the platform does: `None` lets the platform answer;
/// an answer replaces it (the twist may first change the users, or let the platform do its
/// work with [`Scim::answer`] and lose the answer).
pub(crate) type Twist = Box<dyn FnMut(&Asked, &mut Scim) -> Option<(u16, String)>>;

/// Plays a SCIM platform of `users`, `me` signed in, through `twist`: its state, shared with
/// the test.
pub(crate) fn scim_platform(me: &str, users: Vec<ScimUser>, twist: Twist) -> Rc<RefCell<Scim>> {
    let state = Rc::new(RefCell::new(Scim {
        users,
        me: me.to_owned(),
        ..Scim::default()
    }));
    let twist = RefCell::new(twist);
    let shared = state.clone();
    fake_platform(Some(Rc::new(move |method, url: &str| {
        let path = url.find("/api/").map_or(url, |at| &url[at..]);
        let asked = Asked {
            method: method.to_string(),
            path: path.to_owned(),
            body: fake_request_body().and_then(|b| serde_json::from_str(&b).ok()),
        };
        let mut state = shared.borrow_mut();
        state.asked.push(asked.clone());
        let twisted = (twist.borrow_mut())(&asked, &mut state);
        twisted.unwrap_or_else(|| state.answer(&asked))
    })));
    state
}

/// A twist that changes nothing.
pub(crate) fn as_is() -> Twist {
    Box::new(|_, _| None)
}
