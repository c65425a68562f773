//! What every request shares: the configuration, one connection pool to the platform, the
//! token relay's rate limiter, the last readiness answer, the tokens' users remembered for a
//! few minutes, and the log. Nothing here outlives a request that matters (a replica that
//! never saw a token asks the platform once), so replicas behind a load balancer need no
//! shared store.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use gifting_web::limit::{address_key, RateLimiter};
use gifting_web::log::Log;
use gifting_web::security::Csp;

use crate::config::Config;
use crate::current_user::CurrentUsers;
use crate::telemetry::Telemetry;

pub struct Gateway {
    pub config: Config,
    /// Connections to the platform, kept alive and reused.
    pub http: reqwest::Client,
    pub log: Log,
    /// What the gateway counts, served on `--metrics-addr`.
    pub telemetry: Arc<Telemetry>,
    /// The console's policy: calls only to this origin, images from it and the platform's CDN.
    pub csp: String,
    limiter: Mutex<RateLimiter<IpAddr>>,
    /// When the platform was last probed for `/readyz`, and whether it was ready. A lock held
    /// across the probe: concurrent health checks wait for one probe instead of each sending one.
    pub ready: tokio::sync::Mutex<Option<(Instant, bool)>>,
    /// Who each recent token's user is (`GET /api/v3/me`), asked rarely.
    pub current_users: CurrentUsers,
    /// Whether a request without a client address in the configured header was logged yet.
    unplaced_client_logged: AtomicBool,
}

pub type Shared = Arc<Gateway>;

impl Gateway {
    pub fn new(config: Config, log: Log) -> Result<Shared, reqwest::Error> {
        let http = reqwest::Client::builder()
            // A redirect from the platform goes back to the browser as it is: following it
            // here could carry the Authorization header to another host.
            .redirect(reqwest::redirect::Policy::none())
            // Only the configured platform, never a proxy named by the environment.
            .no_proxy()
            .connect_timeout(Duration::from_secs(5).min(config.timeout))
            .read_timeout(config.timeout)
            .pool_idle_timeout(Duration::from_secs(60))
            .user_agent(concat!("gifting-gateway/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let csp = Csp {
            img_src: config.image_origins.clone(),
            connect_src: Vec::new(),
        }
        .header_value();
        let limiter = RateLimiter::new(config.token_rate_limit, Duration::from_secs(60));
        Ok(Arc::new(Gateway {
            config,
            http,
            log,
            telemetry: Arc::new(Telemetry::new()),
            csp,
            limiter: Mutex::new(limiter),
            ready: tokio::sync::Mutex::new(None),
            current_users: CurrentUsers::default(),
            unplaced_client_logged: AtomicBool::new(false),
        }))
    }

    /// Counts one token relay request from `client` (an IPv6 client by its /64).
    /// `Err(seconds)` when over the limit.
    pub fn count_token_request(&self, client: IpAddr) -> Result<(), u64> {
        self.limiter().allow(address_key(client))
    }

    /// A request whose configured client address header (`name`) is missing or whose last
    /// entry is no address counts against the proxy's address: said once in the log (the
    /// header's name, never its value), as it likely means the header is misconfigured.
    pub fn client_header_unparsed(&self, name: &str) {
        if !self.unplaced_client_logged.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                header = name,
                "no client address in the configured header (missing, or its last entry is \
                 not ip, ip:port, [v6] or [v6]:port): such requests count against the \
                 connection's address; check --client-ip-header (logged once)"
            );
        }
    }

    // A panic while counting cannot leave the counts in a state worth refusing service for.
    fn limiter(&self) -> MutexGuard<'_, RateLimiter<IpAddr>> {
        self.limiter.lock().unwrap_or_else(|e| e.into_inner())
    }
}
