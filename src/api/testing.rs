//! What unit tests of platform work share: a signed-in app and a fake platform of sends
//! (answered through [`crate::http::transport::fake_platform`]).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use gifting_api::oauth::TokenResponse;
use leptos::prelude::*;

use super::NetStatus;
use crate::auth::refresh::{RefreshError, RefreshTransport};
use crate::auth::session::Session;
use crate::auth::Auth;
use crate::config::parse_config;
use crate::http::transport::fake_platform;

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
