//! Command line flags. The same struct configures the in-process server of the tests.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

/// A local stand-in for the gifting platform: OAuth 2.0, SCIM, REST v3, marketplace and a
/// small image CDN, with seeded data and optional fault injection.
#[derive(Debug, Clone, Parser)]
#[command(name = "gifting-sandbox", version, about)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port (the real one is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Serve the built console from this directory, with index.html as the fallback for
    /// client-side routes.
    #[arg(long = "static", value_name = "DIR")]
    pub static_dir: Option<PathBuf>,

    /// Lifetime of access tokens in seconds (`expires_in`).
    #[arg(long, default_value_t = 7200, value_parser = clap::value_parser!(u64).range(1..=MAX_TTL_SECS))]
    pub token_ttl: u64,

    /// Lifetime of a refresh token in seconds: one not used within it ends its grant (each
    /// refresh issues a new one). Default 14 days.
    #[arg(long, default_value_t = DEFAULT_REFRESH_TTL_SECS, value_parser = clap::value_parser!(u64).range(1..=MAX_TTL_SECS))]
    pub refresh_token_ttl: u64,

    /// Lifetime of authorization codes in seconds.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub code_ttl: u64,

    /// Seed of the generated data (same seed, same data) and of the fault dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Size of the generated organization: the demo (60 users, 300 sends) or a large one
    /// (5,000 users, 100,000 sends, 10,000 products). --users, --groups, --campaigns, --sends
    /// and --products replace its counts.
    #[arg(long, value_enum, default_value_t = WorldKind::Demo)]
    pub world: WorldKind,

    // A negative count is read as a value, so its error names the flag.
    /// Users, the three demo accounts included (instead of the world's count).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(3..=MAX_USERS))]
    pub users: Option<u64>,

    /// Team groups (instead of the world's count).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_GROUPS))]
    pub groups: Option<u64>,

    /// Campaigns (instead of the world's count); at least two, one for mail and one for email.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(2..=MAX_CAMPAIGNS))]
    pub campaigns: Option<u64>,

    /// Sends (instead of the world's count).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=MAX_SENDS))]
    pub sends: Option<u64>,

    /// Marketplace products (instead of the world's count).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=MAX_PRODUCTS))]
    pub products: Option<u64>,

    /// The day the seeded world ends (YYYY-MM-DD, the organization's calendar, UTC-05:00):
    /// its timeline is moved by whole days so the newest seeded send is from before this day
    /// began, and this month and the last hold every send that needs attention and groups
    /// under, near and over budget. Default: today. 2026-06-30 is the world as first seeded.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_today)]
    pub today: Option<i64>,

    /// An extra redirect URI to register for the client (repeatable). The loopback
    /// `/auth/callback` URIs of the bound port are always registered.
    #[arg(long = "redirect-uri", value_name = "URI")]
    pub redirect_uris: Vec<String>,

    /// An origin allowed to call the API from a browser (CORS and CSP connect-src; repeatable).
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    pub allow_origins: Vec<String>,

    /// Share of /api requests (0.0..=1.0) answered with a random fault: 500, 503, 429 or a
    /// dropped connection.
    #[arg(long, default_value_t = 0.0, value_parser = parse_rate)]
    pub fault_rate: f64,

    /// Delay each /api response by a random 0..=N milliseconds.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub latency_ms: u64,

    /// Allow N /api requests per second per token; the rest get 429 (0 = no limit).
    #[arg(long, default_value_t = 0)]
    pub rate_limit: u32,

    /// Enable the test inspection routes under /__sandbox (stats, token expiry, rate-limit
    /// windows, user deletion).
    #[arg(long)]
    pub test_hooks: bool,

    /// Refuse token and revocation requests that do not carry the client secret, as the real
    /// platform does: PKCE alone no longer authenticates the client.
    #[arg(long)]
    pub require_client_secret: bool,

    /// Refuse (409) a SCIM change that would leave the organisation without an active admin.
    /// Off by default: the platform's description names no such rule, so the console must
    /// guard on its own, and its tests run against a sandbox that accepts the lock-out.
    #[arg(long)]
    pub protect_last_admin: bool,

    /// Largest accepted request body in bytes; bigger ones get 413.
    #[arg(long, default_value_t = 64 * 1024, value_parser = parse_body_limit)]
    pub body_limit: usize,

    /// A platform that moves: new sends arrive (newest on top, see --live-sends-per-second),
    /// sends in progress advance along their timeline, and an unfinished send's cost changes.
    /// Off by default: the seeded world stands still.
    #[arg(long)]
    pub live: bool,

    /// With --live: new sends per second, on average (0 to 1000; 0: only statuses and costs
    /// move). Arrivals stop at 1,000,000 sends in all.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIVE_SENDS_PER_SECOND, requires = "live", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub live_sends_per_second: u64,

    /// Tests only (no flag): the live platform's clock stands still until the test moves it.
    #[arg(skip)]
    pub live_manual_clock: bool,
}

/// The generated organization `--world` names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum WorldKind {
    /// The seeded organization every screen was built against.
    #[default]
    Demo,
    /// An enterprise a thousand times larger.
    Large,
}

impl WorldKind {
    pub fn name(self) -> &'static str {
        match self {
            WorldKind::Demo => "demo",
            WorldKind::Large => "large",
        }
    }
}

/// Upper bounds of the explicit counts: several times the large world, and within what a
/// developer's machine holds in memory (a send takes about a kilobyte).
pub const MAX_USERS: u64 = 100_000;
pub const MAX_GROUPS: u64 = 10_000;
pub const MAX_CAMPAIGNS: u64 = 10_000;
pub const MAX_SENDS: u64 = 500_000;
pub const MAX_PRODUCTS: u64 = 100_000;

/// New sends per second with `--live`.
pub const DEFAULT_LIVE_SENDS_PER_SECOND: u64 = 3;

/// The longest token lifetime accepted (30 days): far beyond any test, far below an overflow.
pub const MAX_TTL_SECS: u64 = 30 * 24 * 3600;

/// How long an unused refresh token lives by default (14 days).
pub const DEFAULT_REFRESH_TTL_SECS: u64 = 14 * 24 * 3600;

/// `http(s)://host[:port]`: what a browser sends as `Origin`, and what the CSP can name.
fn parse_origin(s: &str) -> Result<String, String> {
    let origin = s.trim().trim_end_matches('/');
    let (scheme, rest) = origin
        .split_once("://")
        .ok_or("must be an origin such as http://localhost:3000")?;
    let host_ok = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if !matches!(scheme, "http" | "https") || !host_ok {
        return Err(
            "must be an origin such as http://localhost:3000 (no path, no wildcard)".into(),
        );
    }
    Ok(origin.to_owned())
}

/// A day as days since 1970-01-01.
fn parse_today(s: &str) -> Result<i64, String> {
    gifting_api::attention::parse_day(s.trim())
        .ok_or_else(|| format!("`{s}` is not a date YYYY-MM-DD of the years 2000 to 2999"))
}

fn parse_body_limit(s: &str) -> Result<usize, String> {
    let v: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of bytes"))?;
    if (1..=16 * 1024 * 1024).contains(&v) {
        Ok(v)
    } else {
        Err("must be between 1 and 16777216 bytes".into())
    }
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err("must be between 0.0 and 1.0".into())
    }
}

impl Default for Config {
    /// Defaults as the binary has them, but on a free loopback port (what tests want).
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            static_dir: None,
            token_ttl: 7200,
            refresh_token_ttl: DEFAULT_REFRESH_TTL_SECS,
            code_ttl: 60,
            seed: 1,
            world: WorldKind::Demo,
            users: None,
            groups: None,
            campaigns: None,
            sends: None,
            products: None,
            today: None,
            redirect_uris: Vec::new(),
            allow_origins: Vec::new(),
            fault_rate: 0.0,
            latency_ms: 0,
            rate_limit: 0,
            test_hooks: false,
            require_client_secret: false,
            protect_last_admin: false,
            body_limit: 64 * 1024,
            live: false,
            live_sends_per_second: DEFAULT_LIVE_SENDS_PER_SECOND,
            live_manual_clock: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_flag() {
        let c = Config::try_parse_from([
            "gifting-sandbox",
            "--addr",
            "127.0.0.1:0",
            "--static",
            "dist",
            "--token-ttl",
            "5",
            "--seed",
            "9",
            "--redirect-uri",
            "http://a.example/cb",
            "--redirect-uri",
            "http://b.example/cb",
            "--allow-origin",
            "http://localhost:3000",
            "--fault-rate",
            "0.25",
            "--latency-ms",
            "40",
            "--rate-limit",
            "10",
            "--test-hooks",
            "--require-client-secret",
            "--protect-last-admin",
            "--today",
            "2026-11-26",
        ])
        .expect("flags parse");
        assert_eq!(
            c.today.map(gifting_api::attention::day_text).as_deref(),
            Some("2026-11-26")
        );
        assert_eq!(c.token_ttl, 5);
        assert_eq!(c.redirect_uris.len(), 2);
        assert_eq!(c.fault_rate, 0.25);
        assert!(c.test_hooks);
        assert!(c.require_client_secret);
        assert!(c.protect_last_admin);
    }

    #[test]
    fn refuses_values_out_of_range_with_the_flag_named() {
        for (flag, value) in [
            ("--fault-rate", "1.5"),
            ("--token-ttl", "0"),
            ("--refresh-token-ttl", "0"),
            // Would overflow the clock at the first sign-in.
            ("--token-ttl", "18446744073709551615"),
            ("--code-ttl", "99999999999"),
            ("--latency-ms", "86400000"),
            ("--body-limit", "0"),
            ("--allow-origin", "*"),
            ("--allow-origin", "http://a.example/path"),
            ("--allow-origin", "http://a.example; script-src *"),
            ("--allow-origin", "javascript:alert(1)"),
            ("--world", "huge"),
            // The three demo accounts are always there.
            ("--users", "2"),
            ("--users", "100001"),
            ("--users", "many"),
            ("--groups", "0"),
            // One campaign for mail and one for email, or a send has none to go out with.
            ("--campaigns", "1"),
            ("--sends", "500001"),
            ("--sends", "-1"),
            ("--products", "100001"),
            ("--today", "2026-02-30"),
            ("--today", "26-11-2026"),
            ("--today", "tomorrow"),
        ] {
            let err = Config::try_parse_from(["gifting-sandbox", flag, value])
                .expect_err(value)
                .to_string();
            assert!(err.contains(flag), "{flag} {value}: {err}");
        }
        let ok = Config::try_parse_from([
            "gifting-sandbox",
            "--allow-origin",
            "http://localhost:3000/",
            "--token-ttl",
            "2592000",
        ])
        .expect("valid flags");
        assert_eq!(ok.allow_origins, ["http://localhost:3000"]);
    }

    #[test]
    fn the_world_is_the_demo_unless_asked_and_counts_are_optional() {
        let demo = Config::try_parse_from(["gifting-sandbox"]).expect("no flags");
        assert_eq!(demo.world, WorldKind::Demo);
        assert_eq!(demo.users, None);
        let sized = Config::try_parse_from([
            "gifting-sandbox",
            "--world",
            "large",
            "--users",
            "400",
            "--groups",
            "12",
            "--campaigns",
            "2",
            "--sends",
            "0",
            "--products",
            "100000",
        ])
        .expect("counts in range");
        assert_eq!(sized.world, WorldKind::Large);
        let counts = (
            sized.users,
            sized.groups,
            sized.campaigns,
            sized.sends,
            sized.products,
        );
        assert_eq!(
            counts,
            (Some(400), Some(12), Some(2), Some(0), Some(100_000))
        );
    }

    #[test]
    fn live_is_off_unless_asked_and_its_rate_needs_it() {
        let still = Config::try_parse_from(["gifting-sandbox"]).expect("no flags");
        assert!(!still.live);
        assert_eq!(still.live_sends_per_second, DEFAULT_LIVE_SENDS_PER_SECOND);
        let live = Config::try_parse_from(["gifting-sandbox", "--live"]).expect("--live");
        assert!(live.live && !live.live_manual_clock);
        let fast =
            Config::try_parse_from(["gifting-sandbox", "--live", "--live-sends-per-second", "50"])
                .expect("a rate");
        assert_eq!(fast.live_sends_per_second, 50);
        for rate in ["1001", "-1", "many"] {
            let err = Config::try_parse_from([
                "gifting-sandbox",
                "--live",
                "--live-sends-per-second",
                rate,
            ])
            .expect_err(rate)
            .to_string();
            assert!(err.contains("--live-sends-per-second"), "{rate}: {err}");
        }
        let err = Config::try_parse_from(["gifting-sandbox", "--live-sends-per-second", "5"])
            .expect_err("a rate without --live")
            .to_string();
        assert!(err.contains("--live"), "{err}");
    }
}
