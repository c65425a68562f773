//! The contract's table of endpoints (`gifting_api::paths::ENDPOINTS`) is what the console
//! calls, what the sandbox serves and what the gateway relays: every entry, with its method,
//! sent through the gateway to the sandbox as the console sends it, gets a successful answer.
//! An endpoint the sandbox does not route, or the gateway does not relay, answers 404 or 405
//! here and fails the test; an entry added to the table without a sample below fails it too.

mod support;

use gifting_api::paths::{endpoint, Endpoint, Method, ENDPOINTS};
use gifting_api::rest::{GroupPage, TouchPage};
use gifting_api::scim::{CreateUser, ListResponse, ReplaceUser};
use gifting_api::Role;
use reqwest::StatusCode;
use support::sandbox::{self, Answer, Sandbox, Server};
use support::{dump, gateway};

/// Ids of things the seeded world has, for the templates' parameters.
struct Ids {
    user: String,
    touch: String,
    group: String,
}

async fn seeded_ids(s: &Sandbox, token: &str) -> Ids {
    let users: ListResponse = s.get_ok("/api/scim/v2/Users?count=1", token).await;
    let touches: TouchPage = s.get_ok("/api/v3/touches?per_page=1", token).await;
    let groups: GroupPage = s.get_ok("/api/v3/groups?per_page=1", token).await;
    Ids {
        user: users.resources[0].id.clone(),
        touch: touches.touches[0].id.to_string(),
        group: groups.groups[0].id.to_string(),
    }
}

/// The parameters and JSON body a request to `e` needs.
fn sample(e: Endpoint, ids: &Ids) -> (Vec<&str>, Option<serde_json::Value>) {
    match e {
        endpoint::READ_SCIM_USER => (vec![ids.user.as_str()], None),
        endpoint::REPLACE_SCIM_USER => {
            let change = ReplaceUser {
                user_type: Some(Role::Manager),
                ..Default::default()
            };
            (vec![ids.user.as_str()], serde_json::to_value(change).ok())
        }
        endpoint::CREATE_SCIM_USER => {
            let new = CreateUser::new(
                "table.user@example.com",
                "Table",
                "User",
                Role::Sender,
                "Sales",
            );
            (vec![], serde_json::to_value(new).ok())
        }
        endpoint::READ_TOUCH => (vec![ids.touch.as_str()], None),
        endpoint::LIST_GROUP_MEMBERS => (vec![ids.group.as_str()], None),
        endpoint::LIST_SCIM_USERS
        | endpoint::LIST_SENDS
        | endpoint::LIST_USERS
        | endpoint::ME
        | endpoint::LIST_TOUCHES
        | endpoint::LIST_GROUPS
        | endpoint::LIST_PRODUCTS => (vec![], None),
        other => panic!("{other:?} is new in the table: give it a sample here"),
    }
}

#[tokio::test]
async fn every_endpoint_of_the_table_is_served_by_the_sandbox_and_relayed_by_the_gateway() {
    let s = sandbox::start_with(|c| c.require_client_secret = true).await;
    let g = gateway(&s.url, &[]).await;
    let token = s.admin().await;
    let ids = seeded_ids(&s, &token).await;
    for &e in ENDPOINTS {
        let (params, body) = sample(e, &ids);
        let call = e.call(&params);
        let url = g.at(call.path_and_query());
        let request = match e.method() {
            Method::Get => g.http.get(url),
            Method::Post => g.http.post(url),
            Method::Put => g.http.put(url),
        };
        let request = match &body {
            Some(body) => request
                .header("content-type", "application/scim+json")
                .body(body.to_string()),
            None => request,
        };
        let (status, text) = dump(request.bearer_auth(&token).answer().await).await;
        assert!(
            status.is_success(),
            "{} {} through the gateway: {status} {text}",
            e.method().as_str(),
            e.template()
        );
        assert_ne!(status, StatusCode::NO_CONTENT, "{e:?}");
    }
}
