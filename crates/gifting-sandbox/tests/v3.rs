//! REST v3 reads: shapes, pagination edges, errors, auth.

mod common;

use common::{assert_rest_error, start, start_with, Answer, Server};
use gifting_api::marketplace::ProductsPage;
use gifting_api::rest::{
    CurrentUser, GroupPage, Member, SendPage, TouchPage, TouchResponse, UserPage,
};
use gifting_api::{DeliveryType, Role};
use gifting_sandbox::config::WorldKind;
use reqwest::StatusCode;

#[tokio::test]
async fn sends_cover_the_seed_and_are_newest_first() {
    let s = start().await;
    let t = s.admin().await;
    let mut all = Vec::new();
    for page in 1..=3 {
        let p: SendPage = s
            .get_ok(&format!("/api/v3/send?page={page}&per_page=100"), &t)
            .await;
        assert_eq!(
            (p.current_page, p.per_page, p.total_count),
            (page, 100, 300)
        );
        all.extend(p.sends);
    }
    assert_eq!(all.len(), 300);
    common::coverage::assert_every_status_subtype_and_type(&all);
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    for send in &all {
        assert_eq!(
            send.status_updates.last().map(|u| &u.status),
            Some(&send.status)
        );
        assert!(gifting_api::money::Decimal::parse(&send.current_total_cost).is_some());
        // ISO 8601 with an explicit offset.
        assert_eq!(send.created_at.len(), 25, "{}", send.created_at);
        assert!(send.created_at[19..].starts_with(['+', '-']));
    }
    assert!(all.iter().any(|x| x.recipient.name.contains("<script>")));
}

#[tokio::test]
async fn pagination_edges() {
    let s = start().await;
    let t = s.admin().await;
    let default: SendPage = s.get_ok("/api/v3/send", &t).await;
    assert_eq!(
        (default.current_page, default.per_page, default.sends.len()),
        (1, 25, 25)
    );
    let zero: SendPage = s.get_ok("/api/v3/send?page=0&per_page=0", &t).await;
    assert_eq!(
        (zero.current_page, zero.per_page, zero.sends.len()),
        (1, 1, 1)
    );
    let negative: SendPage = s.get_ok("/api/v3/send?page=-3&per_page=-10", &t).await;
    assert_eq!((negative.current_page, negative.per_page), (1, 1));
    let big: SendPage = s.get_ok("/api/v3/send?per_page=500", &t).await;
    assert_eq!((big.per_page, big.sends.len()), (100, 100));
    let past: SendPage = s.get_ok("/api/v3/send?page=99&per_page=10", &t).await;
    assert_eq!((past.current_page, past.total_count), (99, 300));
    assert!(past.sends.is_empty());
    let huge: SendPage = s.get_ok("/api/v3/send?page=99999999999999999999", &t).await;
    assert!(huge.sends.is_empty());
    let last: SendPage = s.get_ok("/api/v3/send?page=12&per_page=25", &t).await;
    assert_eq!(last.sends.len(), 25);
    assert_eq!(
        last.sends.last().map(|x| x.id),
        default_last_id(&s, &t).await
    );
    for bad in ["page=abc", "per_page=abc", "page=1.5", "per_page=2x"] {
        for path in [
            "/api/v3/send",
            "/api/v3/users",
            "/api/v3/touches",
            "/api/v3/groups",
        ] {
            let res = s.get(&format!("{path}?{bad}"), &t).await;
            let msg = assert_rest_error(res, StatusCode::BAD_REQUEST).await;
            assert!(msg.contains("integer"), "{msg}");
        }
    }
}

async fn default_last_id(s: &common::Sandbox, t: &str) -> Option<u64> {
    let p: SendPage = s.get_ok("/api/v3/send?page=3&per_page=100", t).await;
    p.sends.last().map(|x| x.id)
}

#[tokio::test]
async fn users_are_active_only_and_by_id() {
    let s = start().await;
    let t = s.admin().await;
    let p: UserPage = s.get_ok("/api/v3/users?per_page=100", &t).await;
    assert_eq!(p.total_users, p.users.len() as u64);
    assert!(p.total_users < 60, "inactive users are hidden");
    assert!(p.total_users >= 50);
    assert!(p.users.windows(2).all(|w| w[0].id < w[1].id));
    for demo in [
        "admin@example.com",
        "manager@example.com",
        "sender@example.com",
    ] {
        assert!(p.users.iter().any(|u| u.email == demo), "{demo}");
    }
    let raw: serde_json::Value = s
        .get("/api/v3/users?per_page=1", &t)
        .await
        .json()
        .await
        .unwrap();
    assert!(raw["users"][0]["id"].is_u64());
    assert!(raw["total_users"].is_u64());
}

#[tokio::test]
async fn me_for_each_demo_account() {
    let s = start().await;
    for (email, role) in [
        ("admin@example.com", Role::Admin),
        ("manager@example.com", Role::Manager),
        ("sender@example.com", Role::Sender),
    ] {
        let t = s.sign_in(email, "scim").await;
        let me: CurrentUser = s.get_ok("/api/v3/me", &t.access_token).await;
        assert_eq!(me.email, email);
        assert_eq!(me.role, role);
        assert!(gifting_api::money::Decimal::parse(&me.balance).is_some());
        assert!(
            me.team_balance.parse::<u64>().is_ok(),
            "integer team balance"
        );
    }
}

#[tokio::test]
async fn touches_list_filter_and_single() {
    let s = start().await;
    let t = s.admin().await;
    let all: TouchPage = s.get_ok("/api/v3/touches?per_page=100", &t).await;
    assert_eq!(all.total_posts, 40);
    assert!(all
        .touches
        .windows(2)
        .all(|w| w[0].created_at >= w[1].created_at));
    assert!(all.touches.iter().all(|c| c.status == "Active"));
    assert!(all
        .touches
        .iter()
        .any(|c| c.starting_egift_price.is_some() && !c.is_default_price));
    let mut currencies: Vec<&str> = all.touches.iter().map(|c| c.currency.as_str()).collect();
    currencies.sort();
    currencies.dedup();
    assert!(currencies.len() >= 3);
    for (q, kind) in [("mail", DeliveryType::Mail), ("email", DeliveryType::Email)] {
        let p: TouchPage = s
            .get_ok(
                &format!("/api/v3/touches?delivery_type={q}&per_page=100"),
                &t,
            )
            .await;
        assert!(p.total_posts > 0 && p.total_posts < 40);
        assert!(p.touches.iter().all(|c| c.delivery_type == kind));
    }
    let res = s.get("/api/v3/touches?delivery_type=pigeon", &t).await;
    assert_rest_error(res, StatusCode::BAD_REQUEST).await;
    let first = &all.touches[0];
    let one: TouchResponse = s.get_ok(&format!("/api/v3/touches/{}", first.id), &t).await;
    assert!(one.success);
    assert_eq!(&one.touch, first);
    let res = s.get("/api/v3/touches/999999", &t).await;
    let msg = assert_rest_error(res, StatusCode::NOT_FOUND).await;
    assert_eq!(msg, "Touch not found");
    let res = s.get("/api/v3/touches/abc", &t).await;
    assert_rest_error(res, StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn groups_and_members() {
    let s = start().await;
    let t = s.admin().await;
    let groups: GroupPage = s.get_ok("/api/v3/groups", &t).await;
    assert!(groups.total_groups >= 8);
    assert!(groups.groups.windows(2).all(|w| w[0].id < w[1].id));
    for g in &groups.groups {
        assert!(gifting_api::money::Decimal::parse(&g.monthly_budget).is_some());
    }
    let mut seen = 0;
    for g in &groups.groups {
        let members: Vec<Member> = s
            .get_ok(&format!("/api/v3/groups/{}/members", g.id), &t)
            .await;
        assert!(members.iter().all(|m| m.team_group_id == g.id));
        seen += members.len();
    }
    let users: UserPage = s.get_ok("/api/v3/users?per_page=100", &t).await;
    assert_eq!(
        seen as u64, users.total_users,
        "every active user is in one group"
    );
    let res = s.get("/api/v3/groups/x/members", &t).await;
    assert_rest_error(res, StatusCode::BAD_REQUEST).await;
    let res = s.get("/api/v3/groups/424242/members", &t).await;
    let msg = assert_rest_error(res, StatusCode::NOT_FOUND).await;
    assert_eq!(msg, "Team group not found");
}

#[tokio::test]
async fn bearer_errors_and_scopes() {
    let s = start().await;
    for auth in [
        None,
        Some("Bearer nonsense"),
        Some("Basic Zm9vOmJhcg=="),
        Some("Bearer "),
    ] {
        let mut req = s.get_req("/api/v3/users");
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let res = req.answer().await;
        assert_eq!(
            res.headers()["www-authenticate"],
            "Bearer error=\"invalid_token\"",
            "{auth:?}"
        );
        assert_rest_error(res, StatusCode::UNAUTHORIZED).await;
    }
    // Any live token reads v3, whatever its scope.
    let market_only = s.sign_in("sender@example.com", "marketplace").await;
    let _: UserPage = s.get_ok("/api/v3/users", &market_only.access_token).await;
    let scim_only = s.sign_in("sender@example.com", "scim").await;
    let _: SendPage = s.get_ok("/api/v3/send", &scim_only.access_token).await;
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_json() {
    let s = start().await;
    let t = s.admin().await;
    for path in [
        "/api/v3/nope",
        "/api/v4/send",
        "/api/",
        "/api/v3/send/extra",
    ] {
        let res = s.get(path, &t).await;
        assert_rest_error(res, StatusCode::NOT_FOUND).await;
    }
    let res = s
        .http
        .delete(s.at("/api/v3/send"))
        .bearer_auth(&t)
        .answer()
        .await;
    assert_rest_error(res, StatusCode::METHOD_NOT_ALLOWED).await;
}

#[tokio::test]
async fn same_seed_same_data_across_servers() {
    let a = start().await;
    let b = start().await;
    let ta = a.admin().await;
    let tb = b.admin().await;
    let pa: SendPage = a.get_ok("/api/v3/send?per_page=100", &ta).await;
    let pb: SendPage = b.get_ok("/api/v3/send?per_page=100", &tb).await;
    assert_eq!(pa, pb);
    let c = common::start_with(|c| c.seed = 77).await;
    let tc = c.admin().await;
    let pc: SendPage = c.get_ok("/api/v3/send?per_page=100", &tc).await;
    assert_ne!(pa, pc);
}

/// A world of explicit counts on the large world's shape, served whole: every list has the
/// asked-for total and pages to its end, and the big team has 60 % of the users.
#[tokio::test]
async fn a_world_of_explicit_counts_is_served_whole_and_paged() {
    let s = start_with(|c| {
        c.world = WorldKind::Large;
        c.users = Some(300);
        c.groups = Some(12);
        c.campaigns = Some(30);
        c.sends = Some(1_234);
        c.products = Some(60);
    })
    .await;
    let t = s.admin().await;
    let mut active = 0;
    for start in [1, 101, 201] {
        let page: serde_json::Value = s
            .get_ok(&format!("/api/scim/v2/Users?startIndex={start}"), &t)
            .await;
        assert_eq!(page["totalResults"], 300);
        let users = page["Resources"].as_array().expect("Resources");
        assert_eq!(users.len(), 100);
        active += users.iter().filter(|u| u["active"] == true).count() as u64;
    }
    let users: UserPage = s.get_ok("/api/v3/users?page=3&per_page=100", &t).await;
    assert_eq!(users.total_users, active);
    assert_eq!(users.users.len() as u64, active - 200);
    let groups: GroupPage = s.get_ok("/api/v3/groups?page=3&per_page=5", &t).await;
    assert_eq!((groups.total_groups, groups.groups.len()), (12, 2));
    let members: Vec<Member> = s.get_ok("/api/v3/groups/101/members", &t).await;
    assert_eq!(members.len(), 180);
    let touches: TouchPage = s.get_ok("/api/v3/touches", &t).await;
    assert_eq!(touches.total_posts, 30);
    let mut sends = Vec::new();
    for page in 1..=14 {
        let p: SendPage = s
            .get_ok(&format!("/api/v3/send?page={page}&per_page=100"), &t)
            .await;
        assert_eq!(p.total_count, 1_234);
        let expected = match page {
            1..=12 => 100,
            13 => 34,
            _ => 0,
        };
        assert_eq!(p.sends.len(), expected, "page {page}");
        sends.extend(p.sends);
    }
    assert!(sends.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    let mut ids: Vec<u64> = sends.iter().map(|x| x.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 1_234, "every send once");
    let mut products = 0;
    let mut path = "/api/v3/marketplace/products".to_owned();
    loop {
        let p: ProductsPage = s.get_ok(&path, &t).await;
        products += p.products.len();
        match p.pagination.after {
            Some(after) => path = format!("/api/v3/marketplace/products?after={after}"),
            None => break,
        }
    }
    assert_eq!(products, 60);
}
