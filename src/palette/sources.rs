//! The lists the palette searches: the session's user directory (the users screen's, read
//! once), the team groups every screen shares, every campaign's name (read once per session
//! here, paced, when the palette first opens), and the catalog's own answer for what was
//! typed (asked a moment after typing stops; only the newest answer is shown).

use std::time::Duration;

use gifting_api::marketplace::{Product, ProductsPage, ProductsQuery};
use gifting_api::oauth::SCOPE_MARKETPLACE;
use gifting_api::paths::endpoint;
use leptos::prelude::*;

use super::hits::{self, needle, Hit};
use crate::api::{admin_allowed, use_api, use_current_user, use_team_groups, ApiError, TeamGroups};
use crate::auth::session::on_session_end;
use crate::auth::use_auth;
use crate::components::format::count_of;
use crate::components::{use_job, UseJob};
use crate::i18n::msg;
use crate::jobs::{JobKind, JobState};
use crate::pages::campaigns::search::search_all;
use crate::pages::users::directory::{self, Directory};

/// How long typing must pause before the catalog is asked.
const CATALOG_AFTER: Duration = Duration::from_millis(300);

/// Every campaign's id and name, once read this session.
type Campaigns = Option<Vec<(u64, String)>>;

thread_local! {
    static CAMPAIGNS: ArcRwSignal<Campaigns> = ArcRwSignal::new(None);
}

fn campaigns_read() -> ArcRwSignal<Campaigns> {
    on_session_end(|| CAMPAIGNS.with(|c| c.set(None)));
    CAMPAIGNS.with(Clone::clone)
}

/// The catalog's answer for one search.
#[derive(Clone, Debug, Default, PartialEq)]
struct Found {
    /// What was searched, trimmed.
    typed: String,
    products: Vec<Product>,
}

#[derive(Clone, Copy)]
pub(crate) struct Sources {
    admin: Signal<bool>,
    users: RwSignal<Directory>,
    users_job: UseJob<()>,
    groups: TeamGroups,
    campaigns: RwSignal<Campaigns>,
    /// Why the campaigns could not be read, said in the language shown.
    campaigns_failed: RwSignal<Option<ApiError>>,
    catalog: bool,
    found: RwSignal<Found>,
    /// The catalog search in flight (typed, trimmed), if any.
    searching: RwSignal<Option<String>>,
}

impl Sources {
    /// The palette's sources, following `typed` for the catalog's search.
    pub(crate) fn new(typed: RwSignal<String>) -> Self {
        let me = use_current_user();
        let sources = Sources {
            admin: Signal::derive(move || admin_allowed(me) == Some(true)),
            users: RwSignal::from(directory::directory()),
            users_job: use_job(JobKind::Directory),
            groups: use_team_groups(),
            campaigns: RwSignal::from(campaigns_read()),
            campaigns_failed: RwSignal::new(None),
            catalog: use_auth().has_scope(SCOPE_MARKETPLACE),
            found: RwSignal::new(Found::default()),
            searching: RwSignal::new(None),
        };
        sources.read_campaigns();
        sources.follow_catalog(typed);
        sources
    }

    /// Reads every campaign's name, unless this session did.
    fn read_campaigns(self) {
        if self.campaigns.with_untracked(Option::is_some) {
            return;
        }
        let api = use_api();
        leptos::task::spawn_local(async move {
            match search_all(api, None, String::new()).await {
                Ok(all) => {
                    let names = all.into_iter().map(|c| (c.id, c.name)).collect();
                    self.campaigns.try_set(Some(names));
                }
                Err(error) => {
                    self.campaigns_failed.try_set(Some(error));
                }
            }
        });
    }

    /// Reads the directory the first time something is typed, for an admin (the users screens
    /// are theirs).
    pub(crate) fn want_users(self) {
        let unread = self.users.with_untracked(|d| d.as_of_ms.is_none());
        if unread && self.admin.get_untracked() && !self.users_job.running() {
            let _ = self.users_job.start(directory::start);
        }
    }

    /// Asks the catalog for what is typed once typing pauses; an answer for older text is
    /// dropped.
    fn follow_catalog(self, typed: RwSignal<String>) {
        if !self.catalog {
            return;
        }
        let api = use_api();
        Effect::new(move |_| {
            let text = typed.with(|t| t.trim().to_owned());
            if text.chars().count() < 2 {
                self.searching.set(None);
                return;
            }
            self.searching.set(Some(text.clone()));
            set_timeout(
                move || {
                    if self.searching.try_get_untracked().flatten().as_ref() != Some(&text) {
                        return;
                    }
                    let query = ProductsQuery {
                        text_search: Some(text.clone()),
                        ..ProductsQuery::default()
                    };
                    let call = endpoint::LIST_PRODUCTS
                        .call(&[])
                        .query(&query.to_query_string());
                    leptos::task::spawn_local(async move {
                        let answer = api.get_json::<ProductsPage>(call).await;
                        if self.searching.try_get_untracked().flatten().as_ref() != Some(&text) {
                            return;
                        }
                        self.searching.try_set(None);
                        let products = answer.map(|page| page.products).unwrap_or_default();
                        self.found.try_set(Found {
                            typed: text,
                            products,
                        });
                    });
                },
                CATALOG_AFTER,
            );
        });
    }

    /// What the palette offers for `typed`: a send when it is a number, the screens, then
    /// users, team groups, campaigns and products (tracked).
    pub(crate) fn hits(self, typed: &str) -> Vec<Hit> {
        let needle = needle(typed);
        let admin = self.admin.get();
        let mut out: Vec<Hit> = hits::send(typed).into_iter().collect();
        out.extend(hits::screens(&needle, admin));
        if needle.is_empty() {
            return out;
        }
        if admin {
            self.users
                .with(|d| out.extend(hits::users(&d.users, &needle, typed)));
        }
        if let Some(Ok(groups)) = self.groups.get() {
            out.extend(hits::teams(&groups, &needle, typed));
        }
        self.campaigns.with(|c| {
            if let Some(c) = c {
                out.extend(hits::campaigns(c, &needle, typed));
            }
        });
        self.found.with(|f| {
            if f.typed == typed.trim() {
                out.extend(hits::products(&f.products, typed));
            }
        });
        out
    }

    /// What is still being read, or failed: a message per part, the first written to start
    /// the list (the dialog puts them in a row, each its own text); empty when all is in.
    pub(crate) fn reading(self) -> Vec<String> {
        let mut parts = Vec::new();
        let at = |parts: &[String]| if parts.is_empty() { "first" } else { "other" };
        if let Some(status) = self.users_job.status() {
            if status.state == JobState::Running {
                let progress = count_of(status.done, status.of.unwrap_or(0));
                parts.push(msg::palette_reading_users(at(&parts), &progress));
            }
        }
        if let Some(error) = self.campaigns_failed.get() {
            let error = error.user_message();
            parts.push(msg::palette_campaigns_failed(at(&parts), &error));
        } else if self.campaigns.with(Option::is_none) {
            parts.push(msg::palette_reading_campaigns(at(&parts)));
        }
        if self.searching.with(Option::is_some) {
            parts.push(msg::palette_searching_catalog(at(&parts)));
        }
        parts
    }
}
