//! The sandbox's whole state, in memory.
//!
//! The organization's data and the OAuth store share one `RwLock`, so every write (a SCIM
//! change, a token exchange, deleting a user and ending their tokens) is applied all at once
//! and no reader ever sees half of it. No lock is held across an `.await`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use gifting_api::marketplace::CategoryGroup;
use gifting_api::rest::{Campaign, TeamGroup};
use serde::Serialize;

use crate::config::{Config, WorldKind};
use crate::data::catalog::ProductRecord;
use crate::data::people::UserRecord;
use crate::data::{self, prng::SplitMix64, time, WorldSize};
use crate::live::{self, Clock, Motion, Moved, Scene, SendLog};
use crate::stores::oauth::{Lifetimes, OAuthStore};

/// The platform's throttle: fixed one-second windows per token (keyed by the token's digest,
/// so the limiter's table never holds a usable token).
pub type RateLimiter = gifting_web::limit::RateLimiter<[u8; 32]>;

pub const CLIENT_ID: &str = "gifting-console";
pub const CLIENT_SECRET: &str = "sandbox-secret";

/// The organization's data.
#[derive(Debug)]
pub struct Db {
    pub groups: Vec<TeamGroup>,
    pub users: BTreeMap<u64, UserRecord>,
    pub next_user_id: u64,
    /// Newest first.
    pub touches: Vec<Campaign>,
    /// Listed newest first.
    pub sends: SendLog,
    pub products: Vec<ProductRecord>,
    /// Each product's name and description in lower case, in catalog order: a text search
    /// reads these rather than lowercasing every product of the catalog per request.
    pub product_text: Vec<(String, String)>,
    pub categories: Vec<CategoryGroup>,
    /// With `--live`: how the platform moves.
    pub live: Option<Motion>,
}

impl Db {
    /// The world of `size` for `seed` as it stands on `today` (see [`data::world`]).
    pub fn seeded(seed: u64, size: &WorldSize, today: i64) -> Self {
        let d = data::world(seed, size, today);
        let next_user_id = d.users.iter().map(|u| u.id).max().unwrap_or(1000) + 1;
        let product_text = d
            .products
            .iter()
            .map(|p| (p.name.to_lowercase(), p.description.to_lowercase()))
            .collect();
        Db {
            groups: d.groups,
            users: d.users.into_iter().map(|u| (u.id, u)).collect(),
            next_user_id,
            touches: d.touches,
            sends: SendLog::from_newest_first(d.sends),
            products: d.products,
            product_text,
            categories: d.categories,
            live: None,
        }
    }

    /// With `--live`: applies what happened on the platform in `elapsed` (see [`live::advance`]).
    pub fn advance(&mut self, elapsed: Duration) -> Option<Moved> {
        let motion = self.live.as_mut()?;
        let scene = Scene {
            sends: &mut self.sends,
            users: &self.users,
            groups: &self.groups,
            touches: &self.touches,
        };
        Some(live::advance(motion, scene, elapsed))
    }

    pub fn group_by_name(&self, name: &str) -> Option<&TeamGroup> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// A team group by id. Groups are generated in id order and never added or removed.
    pub fn group(&self, id: u64) -> Option<&TeamGroup> {
        let at = self.groups.binary_search_by_key(&id, |g| g.id).ok()?;
        self.groups.get(at)
    }

    pub fn group_name(&self, id: u64) -> String {
        self.group(id).map(|g| g.name.clone()).unwrap_or_default()
    }

    /// The number of active users of the team group with the most of them.
    fn largest_team(&self) -> u64 {
        let mut members: BTreeMap<u64, u64> = BTreeMap::new();
        for u in self.users.values().filter(|u| u.active) {
            *members.entry(u.team_group_id).or_default() += 1;
        }
        members.into_values().max().unwrap_or(0)
    }

    /// What the world holds, in one line: `5000 users (102 inactive), 250 team groups, …`.
    pub fn summary(&self) -> String {
        let inactive = self.users.values().filter(|u| !u.active).count();
        format!(
            "{} users ({inactive} inactive), {} team groups (largest: {} active members), \
             {} campaigns, {} sends, {} products",
            self.users.len(),
            self.groups.len(),
            self.largest_team(),
            self.touches.len(),
            self.sends.len(),
            self.products.len(),
        )
    }

    pub fn user_by_email(&self, email: &str) -> Option<&UserRecord> {
        self.users
            .values()
            .find(|u| u.email.eq_ignore_ascii_case(email))
    }
}

/// The size of the world `config` asks for: its `--world`, with any explicit count instead of
/// that world's own.
pub fn world_size(config: &Config) -> WorldSize {
    let base = match config.world {
        WorldKind::Demo => WorldSize::DEMO,
        WorldKind::Large => WorldSize::LARGE,
    };
    WorldSize {
        groups: config.groups.unwrap_or(base.groups),
        users: config.users.unwrap_or(base.users),
        campaigns: config.campaigns.unwrap_or(base.campaigns),
        sends: config.sends.unwrap_or(base.sends),
        products: config.products.unwrap_or(base.products),
        ..base
    }
}

/// Data and credentials, under one lock.
#[derive(Debug)]
pub struct World {
    pub db: Db,
    pub oauth: OAuthStore,
}

/// Counters for tests (`GET /__sandbox/stats`).
#[derive(Debug, Default)]
pub struct Stats {
    pub token_refreshes: AtomicU64,
    pub token_refresh_failures: AtomicU64,
    /// Spent refresh tokens presented again (each ended its grant).
    pub refresh_token_reuse: AtomicU64,
    pub authorization_codes_issued: AtomicU64,
    pub authorization_codes_exchanged: AtomicU64,
    pub revocations: AtomicU64,
    pub tokens_revoked: AtomicU64,
    pub api_requests: AtomicU64,
    pub faults_injected: AtomicU64,
    pub rate_limited: AtomicU64,
}

#[derive(Debug, Serialize)]
pub struct StatsSnapshot {
    pub token_refreshes: u64,
    pub token_refresh_failures: u64,
    pub refresh_token_reuse: u64,
    pub authorization_codes_issued: u64,
    pub authorization_codes_exchanged: u64,
    /// Same as `authorization_codes_exchanged`, under the name the team guide uses.
    pub token_codes: u64,
    pub revocations: u64,
    pub tokens_revoked: u64,
    pub api_requests: u64,
    pub faults_injected: u64,
    pub rate_limited: u64,
}

impl Stats {
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        StatsSnapshot {
            token_refreshes: get(&self.token_refreshes),
            token_refresh_failures: get(&self.token_refresh_failures),
            refresh_token_reuse: get(&self.refresh_token_reuse),
            authorization_codes_issued: get(&self.authorization_codes_issued),
            authorization_codes_exchanged: get(&self.authorization_codes_exchanged),
            token_codes: get(&self.authorization_codes_exchanged),
            revocations: get(&self.revocations),
            tokens_revoked: get(&self.tokens_revoked),
            api_requests: get(&self.api_requests),
            faults_injected: get(&self.faults_injected),
            rate_limited: get(&self.rate_limited),
        }
    }
}

pub struct AppState {
    pub config: Config,
    /// The port actually bound (the loopback redirect URIs and /config.json use it).
    pub port: u16,
    /// Every redirect URI registered for the client.
    pub redirect_uris: Vec<String>,
    /// How long generating the world took (the start line prints it).
    pub generated_in: Duration,
    /// The day the seeded world ends (`--today`, else the day it started), days since
    /// 1970-01-01.
    pub today: i64,
    world: RwLock<World>,
    pub stats: Stats,
    /// Fault and latency dice, seeded from `--seed` so a sequential test run is repeatable.
    dice: Mutex<SplitMix64>,
    limiter: Mutex<RateLimiter>,
    /// With `--live`: the time the platform moves by, and how far it had moved at the last
    /// catch-up (ms).
    live_clock: Option<Clock>,
    caught_up_ms: AtomicU64,
}

/// A sends read catches up with the live platform at most this often (ms).
const CATCH_UP_EVERY_MS: u64 = 100;

pub type Shared = Arc<AppState>;

impl AppState {
    pub fn new(config: Config, port: u16) -> Shared {
        let mut redirect_uris = vec![
            format!("http://127.0.0.1:{port}/auth/callback"),
            format!("http://localhost:{port}/auth/callback"),
        ];
        redirect_uris.extend(config.redirect_uris.iter().cloned());
        let oauth = OAuthStore::new(Lifetimes {
            access: Duration::from_secs(config.token_ttl),
            code: Duration::from_secs(config.code_ttl),
            refresh: Duration::from_secs(config.refresh_token_ttl),
        });
        let started = Instant::now();
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let today = config.today.unwrap_or_else(|| time::org_day(wall));
        let mut db = Db::seeded(config.seed, &world_size(&config), today);
        let live_clock = config.live.then(|| {
            // New sends arrive now, or from the anchor day's start if `--today` is later:
            // never before a seeded send.
            let origin = wall.max(time::org_midnight(today));
            let per_second = config.live_sends_per_second;
            db.live = Some(Motion::new(config.seed, per_second, &db.sends, origin));
            if config.live_manual_clock {
                Clock::manual()
            } else {
                Clock::system()
            }
        });
        let generated_in = started.elapsed();
        Arc::new(AppState {
            world: RwLock::new(World { db, oauth }),
            generated_in,
            today,
            dice: Mutex::new(SplitMix64::fork(config.seed, "faults")),
            limiter: Mutex::new(RateLimiter::new(config.rate_limit, Duration::from_secs(1))),
            live_clock,
            caught_up_ms: AtomicU64::new(0),
            port,
            redirect_uris,
            stats: Stats::default(),
            config,
        })
    }

    // A panic while holding a lock cannot leave these structures half-written in a way that
    // matters more than refusing service forever, so poisoning is ignored.
    pub fn read(&self) -> RwLockReadGuard<'_, World> {
        self.world.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, World> {
        self.world.write().unwrap_or_else(|e| e.into_inner())
    }

    /// `world large: 5000 users (102 inactive), …, up to 2026-11-26, generated in 0.41 s`.
    pub fn world_summary(&self) -> String {
        format!(
            "world {}: {}, up to {}, generated in {:.2} s",
            self.config.world.name(),
            self.read().db.summary(),
            time::day_text(self.today),
            self.generated_in.as_secs_f64()
        )
    }

    /// The live platform's clock; `None` without `--live`.
    pub fn live_clock(&self) -> Option<&Clock> {
        self.live_clock.as_ref()
    }

    /// With `--live`: applies what happened on the platform since the last catch-up, unless
    /// that was less than a tenth of a second ago. Without it, nothing.
    pub fn catch_up(&self) {
        let Some(clock) = &self.live_clock else {
            return;
        };
        let now = clock.now();
        let now_ms = u64::try_from(now.as_millis()).unwrap_or(u64::MAX);
        let last = self.caught_up_ms.load(Ordering::Relaxed);
        if now_ms < last.saturating_add(CATCH_UP_EVERY_MS) {
            return;
        }
        let mut world = self.write();
        let moved = world.db.live.as_ref().map_or(now, Motion::elapsed);
        world.db.advance(now.saturating_sub(moved));
        self.caught_up_ms.fetch_max(now_ms, Ordering::Relaxed);
    }

    pub fn dice(&self) -> MutexGuard<'_, SplitMix64> {
        self.dice.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn limiter(&self) -> MutexGuard<'_, RateLimiter> {
        self.limiter.lock().unwrap_or_else(|e| e.into_inner())
    }
}
