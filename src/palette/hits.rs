//! What the palette offers for what was typed, from the lists the console holds: plain
//! functions, so what is found and in which order is tested without a browser.

use gifting_api::marketplace::Product;
use gifting_api::query::encode_component;
use gifting_api::rest::TeamGroup;
use gifting_api::scim::ScimUser;

use crate::components::name_search::contains_folded;
use crate::i18n::{msg, t, M};
use crate::pages::users::present::display_name;
use crate::routes::{self, SCREENS};

/// What a result is, said beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Screen,
    User,
    Team,
    Campaign,
    Send,
    Product,
    /// A screen's own search for what was typed, for more than the palette lists.
    Search,
}

impl Kind {
    pub(crate) fn label(self) -> M {
        match self {
            Kind::Screen => M::PaletteKindScreen,
            Kind::User => M::PaletteKindUser,
            Kind::Team => M::PaletteKindTeam,
            Kind::Campaign => M::PaletteKindCampaign,
            Kind::Send => M::PaletteKindSend,
            Kind::Product => M::PaletteKindProduct,
            Kind::Search => M::PaletteKindSearch,
        }
    }

    /// Whether the label is the platform's data (a name), shown as it wrote it.
    pub(crate) fn names_data(self) -> bool {
        matches!(
            self,
            Kind::User | Kind::Team | Kind::Campaign | Kind::Product
        )
    }
}

/// One result: where choosing it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) kind: Kind,
    pub(crate) label: String,
    /// Small print beside the label (an email, a price); may be empty.
    pub(crate) detail: String,
    pub(crate) href: String,
}

/// At most this many results of one kind: the palette is for going somewhere, the screens are
/// for browsing (a "Search" result opens the whole list).
pub(crate) const PER_KIND: usize = 5;

/// What was typed, trimmed and in lower case, as the matchers take it.
pub(crate) fn needle(typed: &str) -> String {
    typed.trim().to_lowercase()
}

/// Whether a word of `text` starts with `needle`: such a match ranks first.
fn word_starts(text: &str, needle: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|word| word.to_lowercase().starts_with(needle))
}

/// The first [`PER_KIND`] of `items` that match, those with a word starting with `needle`
/// first, each group in the list's own order; and how many matched in all.
fn best<T, const N: usize>(
    items: &[T],
    needle: &str,
    texts: impl Fn(&T) -> [&str; N],
    hit: impl Fn(&T) -> Hit,
) -> (Vec<Hit>, usize) {
    let mut first = Vec::new();
    let mut rest = Vec::new();
    let mut all = 0;
    for item in items {
        let texts = texts(item);
        if !texts.iter().any(|t| contains_folded(t, needle)) {
            continue;
        }
        all += 1;
        if texts.iter().any(|t| word_starts(t, needle)) {
            if first.len() < PER_KIND {
                first.push(item);
            }
        } else if rest.len() < PER_KIND {
            rest.push(item);
        }
    }
    let hits = first
        .into_iter()
        .chain(rest)
        .take(PER_KIND)
        .map(hit)
        .collect();
    (hits, all)
}

/// A screen's own search for `typed` when more matched than the palette lists; `what` says
/// it (`msg::palette_all_users`…) from the count and what was typed.
fn more(
    all: usize,
    shown: usize,
    what: fn(u64, &str) -> String,
    href: String,
    typed: &str,
) -> Option<Hit> {
    (all > shown).then(|| Hit {
        kind: Kind::Search,
        label: what(all as u64, typed.trim()),
        detail: String::new(),
        href,
    })
}

/// Home and the screens of the navigation whose name matches (every one for nothing typed);
/// the admin's screens only for an admin.
pub(crate) fn screens(needle: &str, admin: bool) -> Vec<Hit> {
    let home = (M::NavHome, routes::HOME, false);
    std::iter::once(home)
        .chain(SCREENS.iter().map(|s| (s.label, s.path, s.admin)))
        .filter(|(label, _, only_admin)| {
            (admin || !only_admin) && contains_folded(t(*label), needle)
        })
        .map(|(label, path, _)| Hit {
            kind: Kind::Screen,
            label: t(label).to_owned(),
            detail: String::new(),
            href: path.to_owned(),
        })
        .collect()
}

/// Users by any part of their name or email, then the users screen's search for more.
pub(crate) fn users(users: &[ScimUser], needle: &str, typed: &str) -> Vec<Hit> {
    let (mut hits, all) = best(
        users,
        needle,
        |u| {
            [
                u.name.given_name.as_str(),
                u.name.family_name.as_str(),
                u.user_name.as_str(),
            ]
        },
        |u| Hit {
            kind: Kind::User,
            label: display_name(u),
            detail: if u.active {
                u.user_name.clone()
            } else {
                msg::palette_user_inactive(&u.user_name)
            },
            href: routes::user(&u.id),
        },
    );
    let href = format!("{}?q={}", routes::USERS, encode_component(typed.trim()));
    hits.extend(more(all, hits.len(), msg::palette_all_users, href, typed));
    hits
}

/// Team groups by name.
pub(crate) fn teams(groups: &[TeamGroup], needle: &str, typed: &str) -> Vec<Hit> {
    let (mut hits, all) = best(
        groups,
        needle,
        |g| [g.name.as_str()],
        |g| Hit {
            kind: Kind::Team,
            label: g.name.clone(),
            detail: String::new(),
            href: routes::team(g.id),
        },
    );
    let href = format!("{}?q={}", routes::TEAMS, encode_component(typed.trim()));
    hits.extend(more(all, hits.len(), msg::palette_all_teams, href, typed));
    hits
}

/// Campaigns (`(touch id, name)`) by name.
pub(crate) fn campaigns(campaigns: &[(u64, String)], needle: &str, typed: &str) -> Vec<Hit> {
    let (mut hits, all) = best(
        campaigns,
        needle,
        |(_, name)| [name.as_str()],
        |(id, name)| Hit {
            kind: Kind::Campaign,
            label: name.clone(),
            detail: String::new(),
            href: routes::campaign(*id),
        },
    );
    let href = format!("{}?q={}", routes::CAMPAIGNS, encode_component(typed.trim()));
    hits.extend(more(
        all,
        hits.len(),
        msg::palette_all_campaigns,
        href,
        typed,
    ));
    hits
}

/// A send by its id, typed as `12345` or `#12345`: the sends screen showing just that send.
pub(crate) fn send(typed: &str) -> Option<Hit> {
    let digits = typed.trim().trim_start_matches('#');
    let id: u64 = digits.parse().ok().filter(|_| !digits.starts_with('+'))?;
    Some(Hit {
        kind: Kind::Send,
        label: msg::palette_send(&id.to_string()),
        detail: String::new(),
        href: format!("{}?send={id}", routes::SENDS),
    })
}

/// Products the platform found for `typed` (its search is the catalog's), over the catalog
/// searching for the same, then the catalog's whole answer.
pub(crate) fn products(products: &[Product], typed: &str) -> Vec<Hit> {
    let search = format!("?text_search={}", encode_component(typed.trim()));
    let mut hits: Vec<Hit> = products
        .iter()
        .take(PER_KIND)
        .map(|p| Hit {
            kind: Kind::Product,
            label: p.name.clone(),
            detail: String::new(),
            href: format!("{}{search}", routes::product(&p.id)),
        })
        .collect();
    if products.len() > PER_KIND {
        hits.push(Hit {
            kind: Kind::Search,
            label: msg::palette_catalog_matching(typed.trim()),
            detail: String::new(),
            href: format!("{}{search}", routes::CATALOG),
        });
    }
    hits
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use gifting_api::scim::ScimName;

    fn user(id: &str, given: &str, family: &str, email: &str) -> ScimUser {
        ScimUser {
            schemas: Vec::new(),
            id: id.into(),
            user_name: email.into(),
            active: true,
            name: ScimName {
                given_name: given.into(),
                family_name: family.into(),
            },
            emails: Vec::new(),
            user_type: gifting_api::Role::Sender,
            division: String::new(),
        }
    }

    #[wasm_bindgen_test]
    fn screens_for_the_role_and_all_for_nothing_typed() {
        let admin = screens("", true);
        assert_eq!(admin[0].label, "Home");
        assert_eq!(admin.len(), SCREENS.len() + 1);
        let sender: Vec<String> = screens("", false).into_iter().map(|h| h.label).collect();
        assert!(!sender.iter().any(|l| l == "Users"), "{sender:?}");
        let found = screens(&needle("SEN"), true);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].href, routes::SENDS);
    }

    #[wasm_bindgen_test]
    fn users_by_any_part_of_a_name_or_email_word_starts_first() {
        let all = [
            user("1", "Beloved", "Jones", "bj@example.com"),
            user("2", "Ada", "Lovelace", "ada@example.com"),
            user("3", "Grace", "Hopper", "grace.lovelace@example.com"),
            user("4", "Omar", "Dubois", "omar@example.com"),
        ];
        let hits = users(&all, &needle("love"), "love");
        let ids: Vec<&str> = hits.iter().map(|h| h.href.as_str()).collect();
        assert_eq!(ids, ["/users/2", "/users/3", "/users/1"]);
        let family = users(&all, &needle("dubo"), "dubo");
        assert_eq!(family.len(), 1);
        assert_eq!(family[0].label, "Omar Dubois");
        assert!(users(&all, &needle("zzz"), "zzz").is_empty());
    }

    #[wasm_bindgen_test]
    fn a_list_longer_than_the_palette_ends_with_the_screen_s_search() {
        let many: Vec<(u64, String)> = (1..=8).map(|i| (i, format!("Welcome {i}"))).collect();
        let hits = campaigns(&many, &needle("welcome"), " welcome ");
        assert_eq!(hits.len(), PER_KIND + 1);
        let last = &hits[PER_KIND];
        assert_eq!(last.kind, Kind::Search);
        assert_eq!(last.href, "/campaigns?q=welcome");
        assert_eq!(
            last.label,
            "All 8 campaigns matching \u{201c}welcome\u{201d}"
        );
    }

    #[wasm_bindgen_test]
    fn a_send_by_its_number() {
        assert_eq!(
            send(" #4021 ").map(|h| h.href),
            Some("/sends?send=4021".to_owned())
        );
        assert_eq!(send("4021").map(|h| h.label), Some("Send #4021".to_owned()));
        assert_eq!(send("40a"), None);
        assert_eq!(send("+4"), None);
        assert_eq!(send(""), None);
    }
}
