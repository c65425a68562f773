//! No change locks the organisation out: the platform's description has no last-admin rule,
//! so the console holds it itself (`docs/platform.md`, "The last admin"). This module owns the
//! rule: what counts as an admin, the count a change leaves and its words; [`run`] is the one
//! way a write that can take the admin role away or deactivate reaches the platform.
//!
//! Job work: plain data and the job's own client; nothing of a screen.

use gifting_api::paths::endpoint;
use gifting_api::rest::CurrentUser;
use gifting_api::scim::{ListResponse, ListUsersQuery, ReplaceUser, ScimUser, MAX_COUNT};
use gifting_api::Role;

use super::bulk::Picked;
use crate::api::{ApiClient, ApiError};
use crate::http::pacing::Lane;
use crate::i18n::{msg, t, M};
use crate::jobs::{JobEnd, JobState};

mod runner;

pub(crate) use runner::{
    can_remove, run, yours_refused, GuardHost, Guarded, NotSent, Target, World, Writer,
};

/// What a change does to an admin who stops being one, for the guard's words. Callers name
/// it, or give its English phrase ("lose the admin role", "are deactivated", "lose the admin
/// role or are deactivated"), which [`Loss::from`] reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loss {
    /// They lose the admin role.
    Role,
    /// They are deactivated.
    Deactivated,
    /// Either (an import, an undo).
    Either,
}

impl Loss {
    /// Its English phrase, as callers may name it.
    fn phrase(self) -> &'static str {
        match self {
            Loss::Role => "lose the admin role",
            Loss::Deactivated => "are deactivated",
            Loss::Either => "lose the admin role or are deactivated",
        }
    }
}

impl From<&str> for Loss {
    fn from(phrase: &str) -> Self {
        [Loss::Role, Loss::Deactivated]
            .into_iter()
            .find(|loss| loss.phrase() == phrase)
            .unwrap_or(Loss::Either)
    }
}

/// What an undo puts back on one user, if the user still holds what the run wrote. `id` is
/// empty for a user the run created (found again by `who.email`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reversal {
    pub(crate) id: String,
    pub(crate) who: Picked,
    pub(crate) wrote: ReplaceUser,
    pub(crate) restore: ReplaceUser,
}

/// Whether `user` can administer the organisation: an active admin.
pub(crate) fn is_admin(user: &ScimUser) -> bool {
    user.active && user.user_type == Role::Admin
}

/// Whether `user`, once `body` is written, is an active admin.
pub(crate) fn admin_after(user: &ScimUser, body: &ReplaceUser) -> bool {
    body.active.unwrap_or(user.active)
        && body.user_type.as_ref().unwrap_or(&user.user_type) == &Role::Admin
}

/// Whether `user` still holds every attribute `body` writes (an undo leaves alone a user
/// someone changed since).
pub(crate) fn holds(user: &ScimUser, body: &ReplaceUser) -> bool {
    body.active.is_none_or(|a| a == user.active)
        && body.user_type.as_ref().is_none_or(|r| r == &user.user_type)
        && body.division.as_ref().is_none_or(|d| d == &user.division)
        && body.name.as_ref().is_none_or(|n| {
            n.given_name == user.name.given_name && n.family_name == user.name.family_name
        })
}

/// `user` once `body` is written.
pub(crate) fn applied(user: &ScimUser, body: &ReplaceUser) -> ScimUser {
    let mut after = user.clone();
    if let Some(active) = body.active {
        after.active = active;
    }
    if let Some(role) = &body.user_type {
        after.user_type = role.clone();
    }
    if let Some(team) = &body.division {
        after.division = team.clone();
    }
    if let Some(name) = &body.name {
        after.name = name.clone();
    }
    after
}

/// The write that puts back what `body` would change on `before`.
pub(crate) fn restore(before: &ScimUser, body: &ReplaceUser) -> ReplaceUser {
    ReplaceUser {
        active: body.active.map(|_| before.active),
        user_type: body.user_type.as_ref().map(|_| before.user_type.clone()),
        division: body.division.as_ref().map(|_| before.division.clone()),
        name: body.name.as_ref().map(|_| before.name.clone()),
        ..ReplaceUser::default()
    }
}

/// The active admins a change leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AdminCount {
    /// Active admins now.
    pub(crate) now: usize,
    /// Admins who stop being active admins, and whether the signed-in admin is one of them.
    pub(crate) losing: usize,
    pub(crate) you_losing: bool,
    /// Active admins once every write has landed.
    pub(crate) remaining: usize,
}

/// Counts the admins of `directory` once each user `after` names is written (`after(user)`:
/// `Some(admin or not)` for a user written), plus `created_admins` new ones; `you` is the
/// signed-in admin's SCIM id.
pub(crate) fn count_admins(
    directory: &[ScimUser],
    after: impl Fn(&ScimUser) -> Option<bool>,
    created_admins: usize,
    you: Option<&str>,
) -> AdminCount {
    let mut count = AdminCount {
        now: 0,
        losing: 0,
        you_losing: false,
        remaining: created_admins,
    };
    for user in directory {
        let before = is_admin(user);
        let later = after(user).unwrap_or(before);
        count.now += usize::from(before);
        count.remaining += usize::from(later);
        if before && !later {
            count.losing += 1;
            count.you_losing |= you == Some(user.id.as_str());
        }
    }
    count
}

impl AdminCount {
    /// "3 admins lose the admin role, you among them; 2 remain."
    pub(crate) fn words(&self, what: impl Into<Loss>) -> String {
        let you = match (self.you_losing, self.losing) {
            (false, _) => "no",
            (true, 1) => "alone",
            (true, _) => "among",
        };
        let (losing, remaining) = (self.losing as u64, self.remaining as u64);
        match what.into() {
            Loss::Role => msg::guard_count_role(losing, you, remaining),
            Loss::Deactivated => msg::guard_count_deactivated(losing, you, remaining),
            Loss::Either => msg::guard_count_either(losing, you, remaining),
        }
    }

    /// Why the change is refused, when it leaves no admin.
    pub(crate) fn refusal(&self, what: impl Into<Loss>) -> Option<String> {
        (self.losing > 0 && self.remaining == 0).then(|| msg::guard_refused(&self.words(what)))
    }
}

/// The signed-in user (`/api/v3/me`), read before a run: without it, the run does not start.
pub(crate) async fn read_me(api: ApiClient, lane: &Lane) -> Result<CurrentUser, ApiError> {
    api.get_paced(lane, endpoint::ME.call(&[])).await
}

/// The signed-in admin among `directory` (SCIM `userName` is the email, compared without case).
pub(crate) fn you<'a>(directory: &'a [ScimUser], me: &CurrentUser) -> Option<&'a ScimUser> {
    directory.iter().find(|u| is_you(u, me))
}

/// Whether `user` is the signed-in user `me`.
pub(crate) fn is_you(user: &ScimUser, me: &CurrentUser) -> bool {
    user.user_name.eq_ignore_ascii_case(&me.email)
}

/// Whether writing `body` to `user` takes the admin role or the active status from the
/// signed-in admin (`me`): no one does that to themselves through the console.
pub(crate) fn takes_yours(user: &ScimUser, me: &CurrentUser, body: &ReplaceUser) -> bool {
    is_you(user, me) && is_admin(user) && !admin_after(user, body)
}

/// Every user, a page of [`MAX_COUNT`] at a time under `lane`; `read(read, total)` after
/// each page.
pub(crate) async fn read_directory(
    api: ApiClient,
    lane: &Lane,
    read: impl Fn(usize, u64),
) -> Result<Vec<ScimUser>, ApiError> {
    let mut found: Vec<ScimUser> = Vec::new();
    let mut start = 1;
    loop {
        let query = ListUsersQuery {
            start_index: Some(start),
            count: Some(MAX_COUNT),
            filter: None,
        };
        let call = endpoint::LIST_SCIM_USERS
            .call(&[])
            .query(&query.to_query_string());
        let page: ListResponse = api.get_paced(lane, call).await?;
        let got = page.resources.len() as u64;
        found.extend(page.resources);
        read(found.len(), page.total_results);
        start += got;
        if got == 0 || start > page.total_results {
            return Ok(found);
        }
        if lane.stopped() {
            return Err(ApiError::Cancelled);
        }
    }
}

/// Why a run could not start because the signed-in user could not be read.
pub(crate) fn no_identity(error: &ApiError) -> JobEnd {
    match error {
        ApiError::Cancelled => JobEnd {
            state: JobState::Cancelled,
            note: t(M::GuardCancelled).into(),
        },
        error => JobEnd {
            state: JobState::Failed,
            note: msg::guard_no_identity(&error.user_message()),
        },
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn user(id: &str, role: &str, active: bool) -> ScimUser {
        serde_json::from_value(serde_json::json!({
            "id": id, "userName": format!("{id}@example.com"), "active": active,
            "name": {"givenName": "A", "familyName": id},
            "userType": role, "division": "Sales"
        }))
        .unwrap()
    }

    fn org() -> Vec<ScimUser> {
        vec![
            user("a1", "admin", true),
            user("a2", "admin", true),
            user("a3", "admin", false),
            user("s1", "sender", true),
        ]
    }

    #[wasm_bindgen_test]
    fn a_change_that_leaves_no_admin_is_refused_in_numbers() {
        let demote = ReplaceUser {
            user_type: Some(Role::Sender),
            ..ReplaceUser::default()
        };
        let all = count_admins(&org(), |u| Some(admin_after(u, &demote)), 0, Some("a1"));
        assert_eq!(
            all,
            AdminCount {
                now: 2,
                losing: 2,
                you_losing: true,
                remaining: 0
            },
            "an inactive admin is no admin"
        );
        let refusal = all.refusal("lose the admin role").expect("refused");
        assert!(
            refusal.contains("2 admins lose the admin role, you among them; none remains."),
            "{refusal}"
        );
        // Only the other admin: one remains, nothing refused.
        let one = count_admins(
            &org(),
            |u| (u.id == "a2").then(|| admin_after(u, &demote)),
            0,
            Some("a1"),
        );
        assert_eq!(one.refusal("lose the admin role"), None);
        assert_eq!(
            one.words("lose the admin role"),
            "1 admin loses the admin role; 1 remains."
        );
        // A new admin in the same run keeps one.
        let with_new = count_admins(&org(), |u| Some(admin_after(u, &demote)), 1, Some("a1"));
        assert_eq!(with_new.remaining, 1);
        let deactivate = ReplaceUser {
            active: Some(false),
            ..ReplaceUser::default()
        };
        let you = count_admins(
            &org(),
            |u| (u.id == "a1").then(|| admin_after(u, &deactivate)),
            0,
            Some("a1"),
        );
        assert_eq!(
            you.words("are deactivated"),
            "1 admin is deactivated: you; 1 remains."
        );
    }

    #[wasm_bindgen_test]
    fn an_undo_restores_what_was_written_and_only_where_it_still_holds() {
        let before = user("s1", "sender", true);
        let wrote = ReplaceUser {
            user_type: Some(Role::Manager),
            ..ReplaceUser::default()
        };
        let back = restore(&before, &wrote);
        assert_eq!(back.user_type, Some(Role::Sender));
        assert_eq!(
            (back.active, back.division),
            (None, None),
            "only what was written"
        );
        let now = user("s1", "manager", true);
        assert!(holds(&now, &wrote));
        let changed_since = user("s1", "admin", true);
        assert!(!holds(&changed_since, &wrote));
    }
}
