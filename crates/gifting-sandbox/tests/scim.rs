//! SCIM provisioning, its errors, and the state it shares with REST v3.

mod common;

use common::{assert_scim_error, start, start_with, Answer, Server};
use gifting_api::rest::{Member, UserPage};
use gifting_api::scim::{
    CreateUser, ListResponse, ReplaceUser, ScimError, ScimUser, LIST_RESPONSE_SCHEMA,
};
use gifting_api::Role;
use reqwest::StatusCode;
use serde_json::json;

const USERS: &str = "/api/scim/v2/Users";

async fn create(s: &common::Sandbox, t: &str, body: &serde_json::Value) -> reqwest::Response {
    s.post_req(USERS)
        .bearer_auth(t)
        .header("content-type", "application/scim+json")
        .body(body.to_string())
        .answer()
        .await
}

#[tokio::test]
async fn list_shape_paging_and_inactive_users() {
    let s = start().await;
    let t = s.admin().await;
    let res = s.get(USERS, &t).await;
    assert_eq!(res.headers()["content-type"], "application/scim+json");
    let all: ListResponse = res.json().await.unwrap();
    assert_eq!(all.schemas, [LIST_RESPONSE_SCHEMA]);
    assert_eq!(all.total_results, 60);
    assert_eq!(all.items_per_page, 60);
    assert_eq!(all.start_index, 1);
    assert!(
        all.resources.iter().any(|u| !u.active),
        "inactive users are listed"
    );
    assert!(all
        .resources
        .iter()
        .all(|u| u.emails[0].value == u.user_name));
    let page: ListResponse = s
        .get_ok(&format!("{USERS}?startIndex=26&count=25"), &t)
        .await;
    assert_eq!((page.start_index, page.items_per_page), (26, 25));
    assert_eq!(page.resources[0], all.resources[25]);
    let zero: ListResponse = s.get_ok(&format!("{USERS}?count=0"), &t).await;
    assert_eq!((zero.items_per_page, zero.total_results), (0, 60));
    assert!(zero.resources.is_empty());
    let low: ListResponse = s
        .get_ok(&format!("{USERS}?startIndex=-4&count=500"), &t)
        .await;
    assert_eq!((low.start_index, low.items_per_page), (1, 60));
    let past: ListResponse = s.get_ok(&format!("{USERS}?startIndex=1000"), &t).await;
    assert!(past.resources.is_empty());
    assert_eq!(past.total_results, 60);
    let bad = s.get(&format!("{USERS}?count=ten"), &t).await;
    assert_scim_error(bad, StatusCode::BAD_REQUEST, Some("invalidValue")).await;
}

#[tokio::test]
async fn filter_by_user_name() {
    let s = start().await;
    let t = s.admin().await;
    let path = |f: &str| {
        format!(
            "{USERS}{}",
            gifting_api::query::QueryBuilder::new()
                .push("filter", f)
                .build()
        )
    };
    let one: ListResponse = s
        .get_ok(&path(r#"userName eq "ADMIN@example.com""#), &t)
        .await;
    assert_eq!(one.total_results, 1);
    assert_eq!(one.resources[0].user_name, "admin@example.com");
    let none: ListResponse = s
        .get_ok(&path(r#"userName eq "ghost@example.com""#), &t)
        .await;
    assert_eq!((none.total_results, none.resources.len()), (0, 0));
    for bad in [
        r#"userName co "admin""#,
        r#"emails eq "a@example.com""#,
        "userName eq admin",
        "garbage",
    ] {
        let res = s.get(&path(bad), &t).await;
        assert_scim_error(res, StatusCode::BAD_REQUEST, Some("invalidFilter")).await;
    }
    // A filter longer than any user name could need is refused before any user is read.
    let long = format!(r#"userName eq "{}@example.com""#, "a".repeat(64_000));
    let res = s.get(&path(&long), &t).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let err: ScimError = res.json().await.expect("a SCIM error body");
    assert_eq!(err.scim_type.as_deref(), Some("invalidFilter"));
    assert!(
        err.detail.contains("at most 1000 characters"),
        "{}",
        err.detail
    );
}

#[tokio::test]
async fn read_one_and_unknown_ids() {
    let s = start().await;
    let t = s.admin().await;
    let u: ScimUser = s.get_ok(&format!("{USERS}/1002"), &t).await;
    assert_eq!(u.user_name, "manager@example.com");
    assert_eq!(u.user_type, Role::Manager);
    let raw: serde_json::Value = s
        .get(&format!("{USERS}/1002"), &t)
        .await
        .json()
        .await
        .unwrap();
    assert!(raw["id"].is_string(), "SCIM ids are strings");
    for id in ["999999", "abc", "-1"] {
        let res = s.get(&format!("{USERS}/{id}"), &t).await;
        assert_scim_error(res, StatusCode::NOT_FOUND, None).await;
    }
}

#[tokio::test]
async fn create_then_visible_in_rest_users_and_members() {
    let s = start().await;
    let t = s.admin().await;
    let body = CreateUser::new(
        "new.hire@example.com",
        "New",
        "Hire",
        Role::Sender,
        "Marketing",
    );
    let res = s.post_req(USERS).bearer_auth(&t).json(&body).answer().await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let created: ScimUser = res.json().await.unwrap();
    assert!(created.active);
    assert_eq!(created.division, "Marketing");
    assert_eq!(location, format!("{}{USERS}/{}", s.url, created.id));
    let again: ScimUser = s.get_ok(&format!("{USERS}/{}", created.id), &t).await;
    assert_eq!(again, created);
    let users: UserPage = s.get_ok("/api/v3/users?per_page=100", &t).await;
    let rest = users
        .users
        .iter()
        .find(|u| u.email == "new.hire@example.com")
        .expect("new user listed in v3");
    let members: Vec<Member> = s
        .get_ok(
            &format!("/api/v3/groups/{}/members", rest.team_group_id),
            &t,
        )
        .await;
    assert!(members.iter().any(|m| m.email == "new.hire@example.com"));
}

#[tokio::test]
async fn identity_provider_body_is_accepted() {
    let s = start().await;
    let t = s.admin().await;
    let res = create(
        &s,
        &t,
        &json!({
            "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
            "externalId": "00u1abc",
            "displayName": "Idp Person",
            "active": true,
            "userName": "idp.person@example.org",
            "name": {"givenName": "Idp", "familyName": "Person", "formatted": "Idp Person"},
            "emails": [{"value": "idp.person@example.org", "type": "work", "primary": true}],
            "userType": "manager",
            "division": "Sales",
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "x"}
        }),
    )
    .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(res.headers()["content-type"], "application/scim+json");
    let u: ScimUser = res.json().await.unwrap();
    assert_eq!(u.name.full(), "Idp Person");
    assert_eq!(u.user_type, Role::Manager);
}

#[tokio::test]
async fn accept_application_json_is_honoured() {
    let s = start().await;
    let t = s.admin().await;
    let res = s
        .get_req(USERS)
        .bearer_auth(&t)
        .header("accept", "application/json")
        .answer()
        .await;
    assert_eq!(res.headers()["content-type"], "application/json");
}

#[tokio::test]
async fn create_validation_and_uniqueness() {
    let s = start().await;
    let t = s.admin().await;
    let ok = json!({"userName": "x@example.com", "userType": "sender", "division": "Sales",
                    "name": {"givenName": "X", "familyName": "Y"}});
    let with = |k: &str, v: serde_json::Value| {
        let mut b = ok.clone();
        b[k] = v;
        b
    };
    let cases = [
        with("userName", json!("not-an-email")),
        with("userName", json!("a@example")),
        with("userType", json!("owner")),
        with("division", json!("sales")),
        with("division", json!("No Such Team")),
        with("userType", json!(5)),
        with("name", json!({"givenName": "x".repeat(300)})),
    ];
    for body in cases {
        let res = create(&s, &t, &body).await;
        assert_scim_error(res, StatusCode::BAD_REQUEST, Some("invalidValue")).await;
    }
    let mut missing = ok.clone();
    missing.as_object_mut().unwrap().remove("userType");
    assert_scim_error(
        create(&s, &t, &missing).await,
        StatusCode::BAD_REQUEST,
        Some("invalidValue"),
    )
    .await;
    let syntax = s
        .post_req(USERS)
        .bearer_auth(&t)
        .header("content-type", "application/json")
        .body("{\"userName\": ")
        .answer()
        .await;
    assert_scim_error(syntax, StatusCode::BAD_REQUEST, Some("invalidSyntax")).await;
    let wrong_type = s
        .post_req(USERS)
        .bearer_auth(&t)
        .header("content-type", "text/plain")
        .body(ok.to_string())
        .answer()
        .await;
    assert_eq!(wrong_type.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Uniqueness is case-insensitive and includes seeded users.
    let taken = with("userName", json!("Admin@Example.com"));
    assert_scim_error(
        create(&s, &t, &taken).await,
        StatusCode::CONFLICT,
        Some("uniqueness"),
    )
    .await;
    assert_eq!(create(&s, &t, &ok).await.status(), StatusCode::CREATED);
    assert_scim_error(
        create(&s, &t, &ok).await,
        StatusCode::CONFLICT,
        Some("uniqueness"),
    )
    .await;
}

#[tokio::test]
async fn replace_keeps_omitted_fields_and_deactivation_hides_from_v3() {
    let s = start().await;
    let t = s.admin().await;
    let before: ScimUser = s.get_ok(&format!("{USERS}/1003"), &t).await;
    let put = |id: &str, body: serde_json::Value| {
        let s = &s;
        let t = t.clone();
        let id = id.to_owned();
        async move {
            s.http
                .put(s.at(&format!("{USERS}/{id}")))
                .bearer_auth(&t)
                .header("content-type", "application/scim+json")
                .body(body.to_string())
                .answer()
                .await
        }
    };
    let res = put(
        "1003",
        json!({"userType": "manager", "division": "Finance"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    let after: ScimUser = res.json().await.unwrap();
    assert_eq!(after.user_type, Role::Manager);
    assert_eq!(after.division, "Finance");
    assert_eq!(after.name, before.name, "omitted fields keep their value");
    assert!(after.active);
    let res = put(
        "1003",
        serde_json::to_value(ReplaceUser {
            active: Some(false),
            ..Default::default()
        })
        .unwrap(),
    )
    .await;
    assert!(!res.json::<ScimUser>().await.unwrap().active);
    let users: UserPage = s.get_ok("/api/v3/users?per_page=100", &t).await;
    assert!(users.users.iter().all(|u| u.email != "sender@example.com"));
    // Still listed by SCIM, which shows inactive users.
    let scim: ScimUser = s.get_ok(&format!("{USERS}/1003"), &t).await;
    assert!(!scim.active);
    // Bad input is refused as a whole: nothing of it is applied.
    let res = put(
        "1002",
        json!({"userType": "manager", "division": "Nope", "active": false}),
    )
    .await;
    assert_scim_error(res, StatusCode::BAD_REQUEST, Some("invalidValue")).await;
    let m: ScimUser = s.get_ok(&format!("{USERS}/1002"), &t).await;
    assert!(m.active);
    let res = put("999999", json!({"active": false})).await;
    assert_scim_error(res, StatusCode::NOT_FOUND, None).await;
    let res = put("1002", json!({"active": "maybe"})).await;
    assert_scim_error(res, StatusCode::BAD_REQUEST, Some("invalidValue")).await;
}

#[tokio::test]
async fn scope_and_role_refusals() {
    let s = start().await;
    let manager = s.sign_in("manager@example.com", "scim marketplace").await;
    let res = s.get(USERS, &manager.access_token).await;
    assert_scim_error(res, StatusCode::FORBIDDEN, None).await;
    let market_admin = s.sign_in("admin@example.com", "marketplace").await;
    let res = s.get(USERS, &market_admin.access_token).await;
    assert_eq!(
        res.headers()["www-authenticate"],
        "Bearer error=\"insufficient_scope\", scope=\"scim\""
    );
    assert_scim_error(res, StatusCode::FORBIDDEN, None).await;
    let res = s.get(USERS, "bogus").await;
    common::assert_rest_error(res, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn deleted_user_makes_put_404_mid_bulk_change() {
    let s = start().await;
    let t = s.admin().await;
    // Without the test header (as a cross-site form would post it) nothing is deleted.
    let delete = "/__sandbox/users/1005/delete";
    let form = "application/x-www-form-urlencoded";
    let forged = s
        .post_req(delete)
        .header("content-type", form)
        .answer()
        .await;
    common::assert_rest_error(forged, StatusCode::FORBIDDEN).await;
    let unchanged = s.get(&format!("{USERS}/1005"), &t).await;
    assert_eq!(unchanged.status(), StatusCode::OK);
    assert_eq!(s.hook(delete).await.status(), StatusCode::NO_CONTENT);
    let res = s
        .http
        .put(s.at(&format!("{USERS}/1005")))
        .bearer_auth(&t)
        .json(&json!({"active": false}))
        .answer()
        .await;
    assert_scim_error(res, StatusCode::NOT_FOUND, None).await;
    assert_eq!(s.hook(delete).await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_creates_of_one_user_name_yield_exactly_one() {
    let s = start().await;
    let t = s.admin().await;
    let body = json!({"userName": "race@example.com", "userType": "sender", "division": "Sales"});
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..16 {
        let (http, url, t, body) = (s.http.clone(), s.at(USERS), t.clone(), body.clone());
        tasks.spawn(async move {
            http.post(url)
                .bearer_auth(t)
                .json(&body)
                .send()
                .await
                .map(|r| r.status())
        });
    }
    let mut statuses = Vec::new();
    while let Some(done) = tasks.join_next().await {
        statuses.push(done.expect("task").expect("response"));
    }
    assert_eq!(
        statuses
            .iter()
            .filter(|c| **c == StatusCode::CREATED)
            .count(),
        1
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|c| **c == StatusCode::CONFLICT)
            .count(),
        15
    );
}

#[tokio::test]
async fn deactivating_a_user_ends_their_sessions() {
    let s = start().await;
    let admin = s.admin().await;
    let sender = s.sign_in("sender@example.com", "scim").await;
    assert_eq!(
        s.get("/api/v3/me", &sender.access_token).await.status(),
        StatusCode::OK
    );
    let list: ListResponse = s
        .get_ok(
            "/api/scim/v2/Users?filter=userName%20eq%20%22sender%40example.com%22",
            &admin,
        )
        .await;
    let id = &list.resources[0].id;
    let set_active = |active: bool| {
        s.http
            .put(s.at(&format!("/api/scim/v2/Users/{id}")))
            .bearer_auth(&admin)
            .json(&ReplaceUser {
                active: Some(active),
                ..Default::default()
            })
            .send()
    };
    assert_eq!(set_active(false).await.unwrap().status(), StatusCode::OK);
    assert_eq!(set_active(true).await.unwrap().status(), StatusCode::OK);
    // Active again, but the sessions from before the deactivation stay ended.
    assert_eq!(
        s.get("/api/v3/me", &sender.access_token).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refresh = s
        .refresh(&sender.refresh_token, common::Proof::Secret)
        .await;
    common::assert_oauth_error(refresh, StatusCode::BAD_REQUEST, "invalid_grant").await;
    assert_eq!(s.get("/api/v3/me", &admin).await.status(), StatusCode::OK);
}

/// `PUT /Users/{id}` with a JSON body, as `token`.
async fn put_user(
    s: &common::Sandbox,
    token: &str,
    id: &str,
    body: serde_json::Value,
) -> reqwest::Response {
    s.http
        .put(s.at(&format!("{USERS}/{id}")))
        .bearer_auth(token)
        .json(&body)
        .answer()
        .await
}

/// The signed-in admin (admin@example.com) and every other active admin, as SCIM lists them.
async fn admins(s: &common::Sandbox, token: &str) -> (ScimUser, Vec<ScimUser>) {
    let all: ListResponse = s.get_ok(USERS, token).await;
    let (me, others): (Vec<ScimUser>, Vec<ScimUser>) = all
        .resources
        .into_iter()
        .filter(|u| u.active && u.user_type == Role::Admin)
        .partition(|u| u.user_name == "admin@example.com");
    assert!(!others.is_empty(), "the demo world has several admins");
    (me.into_iter().next().expect("the demo admin"), others)
}

const NO_ADMIN_LEFT: &str = "This change would leave the organisation without an active admin.";

#[tokio::test]
async fn protect_last_admin_refuses_a_change_that_leaves_no_active_admin() {
    let s = start_with(|c| c.protect_last_admin = true).await;
    let t = s.admin().await;
    let (me, others) = admins(&s, &t).await;
    // Every other admin loses the role or is deactivated: an admin (me) remains each time.
    let (last, rest) = others.split_last().expect("another admin");
    for u in rest {
        let res = put_user(&s, &t, &u.id, json!({"userType": "sender"})).await;
        assert_eq!(res.status(), StatusCode::OK, "{}", u.user_name);
    }
    let res = put_user(&s, &t, &last.id, json!({"active": false})).await;
    assert_eq!(res.status(), StatusCode::OK);
    // Now the last active admin can neither be demoted nor deactivated.
    for body in [
        json!({"userType": "manager"}),
        json!({"active": false}),
        json!({"userType": "sender", "active": false, "division": "Sales"}),
    ] {
        let res = put_user(&s, &t, &me.id, body.clone()).await;
        assert_eq!(res.status(), StatusCode::CONFLICT, "{body}");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("scim+json"));
        let err: ScimError = res.json().await.expect("a SCIM error body");
        assert_eq!(err.status, "409");
        assert_eq!(err.scim_type.as_deref(), Some("mutability"));
        assert_eq!(err.detail, NO_ADMIN_LEFT);
    }
    // Refused as a whole: nothing of it applied.
    let unchanged: ScimUser = s.get_ok(&format!("{USERS}/{}", me.id), &t).await;
    assert_eq!((unchanged.active, unchanged.user_type), (true, Role::Admin));
    assert_ne!(unchanged.division, "Sales");
    // A change that keeps the role passes; with another admin active again, so does mine.
    let rename = json!({"userType": "admin", "name": {"givenName": "A", "familyName": "B"}});
    assert_eq!(
        put_user(&s, &t, &me.id, rename).await.status(),
        StatusCode::OK
    );
    let back = put_user(&s, &t, &last.id, json!({"active": true})).await;
    assert_eq!(back.status(), StatusCode::OK);
    let demote = put_user(&s, &t, &me.id, json!({"userType": "manager"})).await;
    assert_eq!(demote.status(), StatusCode::OK);
}

#[tokio::test]
async fn without_protect_last_admin_the_lock_out_is_accepted() {
    let s = start().await;
    let t = s.admin().await;
    let (me, others) = admins(&s, &t).await;
    for u in &others {
        let res = put_user(&s, &t, &u.id, json!({"userType": "sender"})).await;
        assert_eq!(res.status(), StatusCode::OK, "{}", u.user_name);
    }
    let res = put_user(&s, &t, &me.id, json!({"userType": "sender"})).await;
    assert_eq!(res.status(), StatusCode::OK);
    // Nobody can administer the organisation any more.
    let res = s.get(USERS, &t).await;
    assert_scim_error(res, StatusCode::FORBIDDEN, None).await;
}

#[tokio::test]
async fn two_admins_demoting_each_other_at_once_leave_one_admin() {
    let s = start().await;
    let mine = s.admin().await;
    let (me, others) = admins(&s, &mine).await;
    let other = &others[0];
    let theirs = s.sign_in(&other.user_name, "scim").await.access_token;
    // The author's role is read under the write's own lock: whatever the interleaving, the
    // second write finds its author demoted.
    for round in 0..20 {
        let (a, b) = tokio::join!(
            put_user(&s, &mine, &other.id, json!({"userType": "sender"})),
            put_user(&s, &theirs, &me.id, json!({"userType": "sender"})),
        );
        let statuses = [a.status(), b.status()];
        assert!(
            statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::FORBIDDEN),
            "round {round}: {statuses:?}"
        );
        // The one who stayed an admin puts the other back.
        let (winner, loser) = if a.status() == StatusCode::OK {
            (&mine, &other.id)
        } else {
            (&theirs, &me.id)
        };
        let back = put_user(&s, winner, loser, json!({"userType": "admin"})).await;
        assert_eq!(back.status(), StatusCode::OK, "round {round}");
    }
}
