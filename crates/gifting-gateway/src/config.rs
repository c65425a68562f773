//! Flags (each also an environment variable) and the checked configuration built from them.
//!
//! The client secret is the one value that never comes from the command line, where `ps`
//! and shell history would show it: it is read from `GATEWAY_CLIENT_SECRET` or from the file
//! `--client-secret-file` names.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::http::{HeaderMap, HeaderName};
use clap::Parser;
use gifting_api::oauth::TOKEN_REQUEST_TIMEOUT_MS;
use gifting_web::security::is_csp_source;
use ipnet::IpNet;
use url::{Host, Url};

/// The environment variable that may hold the client secret.
pub const SECRET_ENV: &str = "GATEWAY_CLIENT_SECRET";

/// The longest `--timeout-secs`: a second less than the browser waits for a token answer
/// ([`TOKEN_REQUEST_TIMEOUT_MS`]), so the browser always hears how a refresh ended.
pub const MAX_TIMEOUT_SECS: u64 = TOKEN_REQUEST_TIMEOUT_MS as u64 / 1000 - 1;

/// The console's production server: serves the built console, relays its token requests to
/// the platform with the client secret added, and relays its API calls on the same origin.
#[derive(Debug, Clone, Parser)]
#[command(name = "gifting-gateway", version, about)]
pub struct Flags {
    /// Address to listen on; port 0 picks a free port (the real one is printed).
    #[arg(long, env = "GATEWAY_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// The built console (`dist/`).
    #[arg(
        long = "static",
        env = "GATEWAY_STATIC",
        value_name = "DIR",
        default_value = "dist"
    )]
    pub static_dir: PathBuf,

    /// The platform's API origin (its `base_url`), e.g. https://api.gifting.example.
    #[arg(long, env = "GATEWAY_PLATFORM_URL", value_name = "URL")]
    pub platform_url: String,

    /// The platform's OAuth origin (its `auth_url`); defaults to --platform-url.
    #[arg(long, env = "GATEWAY_AUTH_URL", value_name = "URL")]
    pub auth_url: Option<String>,

    /// The client id the platform issued for this console.
    #[arg(long, env = "GATEWAY_CLIENT_ID")]
    pub client_id: String,

    /// A file holding the client secret (alternatively set GATEWAY_CLIENT_SECRET).
    #[arg(long, env = "GATEWAY_CLIENT_SECRET_FILE", value_name = "FILE")]
    pub client_secret_file: Option<PathBuf>,

    /// Scopes the console asks for.
    #[arg(long, env = "GATEWAY_SCOPE", default_value = "scim marketplace")]
    pub scope: String,

    /// Path of the console's OAuth callback on this origin.
    #[arg(long, env = "GATEWAY_REDIRECT_PATH", default_value = "/auth/callback")]
    pub redirect_path: String,

    /// An origin the platform's product images come from (repeatable; comma-separated in
    /// the environment). Added to the CSP's img-src.
    #[arg(
        long = "image-origin",
        env = "GATEWAY_IMAGE_ORIGINS",
        value_delimiter = ','
    )]
    pub image_origins: Vec<String>,

    /// The origin browsers use to reach the console (https://console.example.com). Required
    /// unless --addr is a loopback address (then /config.json names the request's Host).
    #[arg(long, env = "GATEWAY_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// The console is reached over https (a TLS-terminating proxy in front): send HSTS.
    #[arg(long, env = "GATEWAY_TLS")]
    pub tls: bool,

    /// Token and revocation requests allowed per client address per minute (0 = no limit).
    #[arg(long, env = "GATEWAY_TOKEN_RATE_LIMIT", default_value_t = 30)]
    pub token_rate_limit: u32,

    /// Take the client address from the last entry of this header's last line (e.g.
    /// X-Forwarded-For, as your load balancer appends it) instead of the connection: `ip`,
    /// `ip:port`, `[v6]` or `[v6]:port`. Only behind a proxy that sets it, named by
    /// --trusted-proxy; a request without an address there is logged once.
    #[arg(long, env = "GATEWAY_CLIENT_IP_HEADER", value_name = "HEADER")]
    pub client_ip_header: Option<String>,

    /// The proxies whose --client-ip-header is believed, as CIDRs (10.0.0.0/8, fd00::/8) or
    /// single addresses (repeatable; comma-separated in the environment). A request from any
    /// other peer counts against the peer's own address. Required with --client-ip-header.
    #[arg(
        long = "trusted-proxy",
        env = "GATEWAY_TRUSTED_PROXIES",
        value_name = "CIDR",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<String>,

    /// Seconds to wait for the platform's answer before a 504; below the 25 s the browser
    /// waits for a token answer.
    #[arg(long, env = "GATEWAY_TIMEOUT_SECS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_SECS))]
    pub timeout_secs: u64,

    /// Seconds a client has to send a request's head (line and headers), from the moment the
    /// gateway waits for one; then the connection is closed.
    #[arg(long, env = "GATEWAY_HEADER_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=120))]
    pub header_timeout_secs: u64,

    /// Seconds a client has to send a request's whole body; then 408 and the connection closes.
    #[arg(long, env = "GATEWAY_BODY_TIMEOUT_SECS", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..=300))]
    pub body_timeout_secs: u64,

    /// Largest request body relayed, in bytes; larger ones get 413.
    #[arg(long, env = "GATEWAY_BODY_LIMIT", default_value_t = 64 * 1024,
          value_parser = clap::value_parser!(u64).range(1..=16 * 1024 * 1024))]
    pub body_limit: u64,

    /// Serve Prometheus metrics at /metrics on this address, a listener of its own (off
    /// unless set; never the public --addr). Port 0 picks a free port (the real one is
    /// printed).
    #[arg(long, env = "GATEWAY_METRICS_ADDR", value_name = "HOST:PORT")]
    pub metrics_addr: Option<SocketAddr>,
}

/// The client secret. Its `Debug` and `Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientSecret(String);

/// A warning for a secret file others may read (Unix permissions), or `None`.
fn readable_by_others(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path).ok()?.permissions().mode();
        (mode & 0o077 != 0).then(|| {
            format!(
                "--client-secret-file {} is readable by its group or others (mode {:o}): chmod 600 it",
                path.display(),
                mode & 0o777
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

impl ClientSecret {
    /// Reads the secret from exactly one of the file and the environment value.
    pub fn from_sources(file: Option<&Path>, env: Option<String>) -> Result<Self, String> {
        let raw = match (file, env.filter(|v| !v.is_empty())) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "the client secret is given twice: use {SECRET_ENV} or --client-secret-file, not both"
                ))
            }
            (None, None) => {
                return Err(format!(
                    "no client secret: set {SECRET_ENV} or --client-secret-file"
                ))
            }
            (None, Some(v)) => v,
            (Some(path), None) => std::fs::read_to_string(path).map_err(|e| {
                format!("cannot read --client-secret-file {}: {e}", path.display())
            })?,
        };
        let secret = raw.trim_end_matches(['\r', '\n']);
        if secret.is_empty() || !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the client secret must be printable ASCII without spaces".into());
        }
        Ok(ClientSecret(secret.to_owned()))
    }

    /// The secret itself, for the one place that sends it to the platform.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClientSecret(<redacted>)")
    }
}

/// The checked configuration. URLs carry no trailing slash.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub static_dir: PathBuf,
    pub platform_url: String,
    pub auth_url: String,
    pub client_id: String,
    pub client_secret: ClientSecret,
    pub scope: String,
    pub redirect_path: String,
    pub image_origins: Vec<String>,
    pub public_url: Option<String>,
    pub tls: bool,
    pub token_rate_limit: u32,
    pub client_ip_header: Option<HeaderName>,
    /// The peers whose `client_ip_header` is believed; never empty when it is set.
    pub trusted_proxies: Vec<IpNet>,
    pub timeout: Duration,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub body_limit: usize,
    pub metrics_addr: Option<SocketAddr>,
    /// What the operator should hear about at start (the binary logs them).
    pub warnings: Vec<String>,
}

impl Config {
    /// Checks the flags and reads the secret (`env_secret` is `GATEWAY_CLIENT_SECRET`).
    pub fn from_flags(flags: Flags, env_secret: Option<String>) -> Result<Config, String> {
        let platform_url = checked_url("--platform-url", &flags.platform_url)?;
        let auth_url = match &flags.auth_url {
            Some(url) => checked_url("--auth-url", url)?,
            None => platform_url.clone(),
        };
        if !flags.static_dir.join("index.html").is_file() {
            return Err(format!(
                "--static {}: no index.html there (build the console first: make build)",
                flags.static_dir.display()
            ));
        }
        if flags.client_id.trim().is_empty() {
            return Err("--client-id must not be empty".into());
        }
        if !flags.redirect_path.starts_with('/') || flags.redirect_path.contains(['?', '#']) {
            return Err("--redirect-path must be a path starting with /".into());
        }
        for origin in &flags.image_origins {
            if !is_csp_source(origin) {
                return Err(format!(
                    "--image-origin {origin:?} is not an origin such as https://cdn.example.com"
                ));
            }
        }
        let public_url = flags
            .public_url
            .as_deref()
            .map(|u| origin_only("--public-url", u))
            .transpose()?;
        if public_url.is_none() && !flags.addr.ip().is_loopback() {
            return Err(format!(
                "--public-url is required when listening on {} (not a loopback address): \
                 without it /config.json would name whatever Host a request claims",
                flags.addr
            ));
        }
        let metrics_addr = metrics_apart(&flags)?;
        let (client_ip_header, trusted_proxies) = client_address_source(&flags)?;
        let mut warnings: Vec<String> = flags
            .client_secret_file
            .as_deref()
            .and_then(readable_by_others)
            .into_iter()
            .collect();
        if client_ip_header.is_none() && !trusted_proxies.is_empty() {
            warnings.push(
                "--trusted-proxy has no effect without --client-ip-header: every request \
                 counts against its connection's address"
                    .into(),
            );
        }
        Ok(Config {
            addr: flags.addr,
            static_dir: flags.static_dir,
            client_secret: ClientSecret::from_sources(
                flags.client_secret_file.as_deref(),
                env_secret,
            )?,
            platform_url,
            auth_url,
            client_id: flags.client_id,
            scope: flags.scope.split_whitespace().collect::<Vec<_>>().join(" "),
            redirect_path: flags.redirect_path,
            image_origins: flags.image_origins,
            public_url,
            tls: flags.tls,
            token_rate_limit: flags.token_rate_limit,
            client_ip_header,
            trusted_proxies,
            timeout: Duration::from_secs(flags.timeout_secs),
            header_timeout: Duration::from_secs(flags.header_timeout_secs),
            body_timeout: Duration::from_secs(flags.body_timeout_secs),
            body_limit: usize::try_from(flags.body_limit).unwrap_or(usize::MAX),
            metrics_addr,
            warnings,
        })
    }

    /// The origin browsers reach this gateway on: `--public-url`, or on loopback the origin
    /// of the request's Host.
    pub fn origin_for(&self, headers: &HeaderMap) -> Option<String> {
        let scheme = if self.tls { "https" } else { "http" };
        self.public_url
            .clone()
            .or_else(|| gifting_web::origin::from_host(headers, scheme))
    }

    /// Whether the header `client_ip_header` names is believed on a request from `peer`: the
    /// peer is one of the `--trusted-proxy` ranges (an IPv4 peer seen as `::ffff:a.b.c.d` on a
    /// dual-stack listener counts as its IPv4 address).
    pub fn trusts_proxy(&self, peer: IpAddr) -> bool {
        let peer = peer.to_canonical();
        self.trusted_proxies.iter().any(|net| net.contains(&peer))
    }

    /// Parses `args` (the program name first) as the binary does, with `env_secret` as
    /// `GATEWAY_CLIENT_SECRET`.
    pub fn from_args<I, T>(args: I, env_secret: Option<String>) -> Result<Config, String>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let flags = Flags::try_parse_from(args).map_err(|e| e.to_string())?;
        Config::from_flags(flags, env_secret)
    }
}

/// `--metrics-addr`, which must not be the public listener's port: metrics are for the
/// scraper, never for whoever reaches the console.
fn metrics_apart(flags: &Flags) -> Result<Option<SocketAddr>, String> {
    match flags.metrics_addr {
        Some(m) if m.port() != 0 && m.port() == flags.addr.port() => Err(format!(
            "--metrics-addr must not be the public --addr's port ({})",
            flags.addr.port()
        )),
        other => Ok(other),
    }
}

/// `--client-ip-header` and the `--trusted-proxy` ranges it is believed from. The header alone
/// is refused: believed from every peer, any client could name any address (dodging the rate
/// limit, or spending a victim's); believed from none, every browser behind the balancer
/// would share the balancer's one budget. Only the operator knows where the proxies are.
fn client_address_source(flags: &Flags) -> Result<(Option<HeaderName>, Vec<IpNet>), String> {
    let header = flags
        .client_ip_header
        .as_deref()
        .map(|h| {
            HeaderName::try_from(h)
                .map_err(|_| format!("--client-ip-header {h:?} is not a header name"))
        })
        .transpose()?;
    let proxies = flags
        .trusted_proxies
        .iter()
        .map(|raw| parse_cidr(raw))
        .collect::<Result<Vec<_>, _>>()?;
    if header.is_some() && proxies.is_empty() {
        return Err(
            "--client-ip-header needs --trusted-proxy CIDR (GATEWAY_TRUSTED_PROXIES): \
             the addresses of the proxies that set the header; from any other peer it could \
             be forged"
                .into(),
        );
    }
    Ok((header, proxies))
}

/// A CIDR (`10.0.0.0/8`, `fd00::/8`) or a single address (as /32 or /128).
fn parse_cidr(raw: &str) -> Result<IpNet, String> {
    let text = raw.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| {
            format!("--trusted-proxy {raw:?} is not a CIDR such as 10.0.0.0/8 or fd00::/8")
        })
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// An https URL (http only on loopback, where nothing crosses a network) without query,
/// fragment or credentials; the path, if any, is a prefix the API paths are appended to.
fn checked_url(flag: &str, raw: &str) -> Result<String, String> {
    let url = Url::parse(raw.trim()).map_err(|e| format!("{flag} {raw:?}: {e}"))?;
    let scheme_ok = url.scheme() == "https" || (url.scheme() == "http" && is_loopback(&url));
    if !scheme_ok {
        return Err(format!(
            "{flag} {raw:?} must be https:// (http:// only for a loopback address)"
        ));
    }
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(format!(
            "{flag} {raw:?} must not carry a query, fragment or credentials"
        ));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// As a platform URL, and with no path either.
fn origin_only(flag: &str, raw: &str) -> Result<String, String> {
    let url = checked_url(flag, raw)?;
    let parsed = Url::parse(&url).map_err(|e| format!("{flag}: {e}"))?;
    if parsed.path() != "/" {
        return Err(format!("{flag} {raw:?} must be an origin, without a path"));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist() -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gifting-gateway-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("index.html"), "<!doctype html>").expect("index");
        dir
    }

    fn parse(extra: &[&str], secret: Option<&str>) -> Result<Config, String> {
        let dir = dist();
        let mut args = vec![
            "gifting-gateway",
            "--static",
            dir.to_str().expect("utf-8 temp dir"),
            "--platform-url",
            "https://api.gifting.example/",
            "--client-id",
            "console",
        ];
        args.extend_from_slice(extra);
        Config::from_args(args, secret.map(str::to_owned))
    }

    #[test]
    fn reads_the_secret_from_the_environment_and_never_prints_it() {
        let c = parse(
            &["--image-origin", "https://cdn.example.com"],
            Some("s3cr3t-value"),
        )
        .expect("config");
        assert_eq!(c.client_secret.expose(), "s3cr3t-value");
        assert_eq!(c.platform_url, "https://api.gifting.example");
        assert_eq!(c.auth_url, c.platform_url);
        assert!(!format!("{c:?}").contains("s3cr3t-value"));
    }

    #[test]
    fn reads_the_secret_from_a_file_and_refuses_two_or_none() {
        let file = dist().join("secret");
        std::fs::write(&file, "from-file\n").expect("secret file");
        let path = file.to_str().expect("utf-8");
        set_mode(&file, 0o600);
        let c = parse(&["--client-secret-file", path], None).expect("config");
        assert_eq!(c.client_secret.expose(), "from-file");
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        let both = parse(&["--client-secret-file", path], Some("x")).expect_err("two sources");
        assert!(both.contains("twice"), "{both}");
        let none = parse(&[], None).expect_err("no secret");
        assert!(none.contains(SECRET_ENV), "{none}");
    }

    #[cfg(unix)]
    fn set_mode(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[cfg(not(unix))]
    fn set_mode(_: &Path, _: u32) {}

    /// A secret file others can read is accepted, with a warning that says so.
    #[cfg(unix)]
    #[test]
    fn warns_about_a_secret_file_others_can_read() {
        let file = dist().join("secret-shared");
        std::fs::write(&file, "shared\n").expect("secret file");
        set_mode(&file, 0o644);
        let path = file.to_str().expect("utf-8");
        let c = parse(&["--client-secret-file", path], None).expect("config");
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
        assert!(c.warnings[0].contains("chmod 600"), "{:?}", c.warnings);
        assert!(!c.warnings[0].contains("shared\n"));
    }

    /// The gateway must give up on the platform before the browser gives up on the
    /// gateway, or a refresh answered in between rotates tokens the browser never learns.
    #[test]
    fn the_platform_timeout_stays_below_what_the_browser_waits() {
        let browser_secs = u64::from(TOKEN_REQUEST_TIMEOUT_MS) / 1000;
        let longest = (browser_secs - 1).to_string();
        let c = parse(&["--timeout-secs", &longest], Some("s")).expect("just below");
        assert!(c.timeout < Duration::from_millis(u64::from(TOKEN_REQUEST_TIMEOUT_MS)));
        assert_eq!(
            parse(&[], Some("s")).expect("defaults").timeout,
            Duration::from_secs(20)
        );
        for too_long in [browser_secs.to_string(), "300".to_owned()] {
            let err = parse(&["--timeout-secs", &too_long], Some("s")).expect_err(&too_long);
            assert!(err.contains("--timeout-secs"), "{err}");
        }
    }

    /// Off loopback, /config.json must not name whatever Host a request claims.
    #[test]
    fn needs_a_public_url_unless_on_loopback() {
        let err = parse(&["--addr", "0.0.0.0:8080"], Some("s")).expect_err("no public url");
        assert!(err.contains("--public-url"), "{err}");
        let c = parse(
            &[
                "--addr",
                "0.0.0.0:8080",
                "--public-url",
                "https://console.example.com",
            ],
            Some("s"),
        )
        .expect("with a public url");
        assert_eq!(c.public_url.as_deref(), Some("https://console.example.com"));
        parse(&["--addr", "[::1]:8080"], Some("s")).expect("loopback needs none");
    }

    #[test]
    fn metrics_are_off_by_default_and_never_on_the_public_port() {
        assert_eq!(parse(&[], Some("s")).expect("defaults").metrics_addr, None);
        let err = parse(
            &["--addr", "127.0.0.1:8080", "--metrics-addr", "0.0.0.0:8080"],
            Some("s"),
        )
        .expect_err("same port");
        assert!(err.contains("--metrics-addr"), "{err}");
        let c = parse(&["--metrics-addr", "0.0.0.0:9090"], Some("s")).expect("own port");
        assert_eq!(c.metrics_addr, Some("0.0.0.0:9090".parse().expect("addr")));
    }

    /// A client address header believed from any peer lets any client name any address:
    /// the header needs the proxies it is believed from, and only they are believed.
    #[test]
    fn the_client_address_header_is_believed_only_from_trusted_proxies() {
        let header = ["--client-ip-header", "X-Forwarded-For"];
        let err = parse(&header, Some("s")).expect_err("no trusted proxy");
        assert!(
            err.contains("--client-ip-header") && err.contains("--trusted-proxy"),
            "{err}"
        );
        for bad in ["10.0.0.0/33", "10.0.0", "proxy.internal", "fd00::/129", ""] {
            let err = parse(
                &[&header[..], &["--trusted-proxy", bad]].concat(),
                Some("s"),
            )
            .expect_err(bad);
            assert!(err.contains("--trusted-proxy"), "{bad}: {err}");
        }
        let c = parse(
            &[
                &header[..],
                &[
                    "--trusted-proxy",
                    "10.0.0.0/8",
                    "--trusted-proxy",
                    "fd00::/8",
                ],
                &["--trusted-proxy", "192.0.2.7"],
            ]
            .concat(),
            Some("s"),
        )
        .expect("with trusted proxies");
        let ip = |s: &str| s.parse::<IpAddr>().expect("address");
        for (peer, trusted) in [
            ("10.1.2.3", true),
            ("::ffff:10.1.2.3", true),
            ("fd00::1", true),
            ("192.0.2.7", true),
            ("192.0.2.8", false),
            ("11.0.0.1", false),
            ("127.0.0.1", false),
            ("fe80::1", false),
        ] {
            assert_eq!(c.trusts_proxy(ip(peer)), trusted, "{peer}");
        }
        let alone = parse(&["--trusted-proxy", "10.0.0.0/8"], Some("s")).expect("harmless");
        assert!(alone.warnings[0].contains("--client-ip-header"));
    }

    #[test]
    fn there_is_no_flag_for_the_secret_itself() {
        let err = parse(&["--client-secret", "x"], Some("y")).expect_err("no such flag");
        assert!(!err.contains("y\n"), "{err}");
    }

    #[test]
    fn refuses_urls_that_would_leak_tokens_or_widen_the_policy() {
        for (flag, value) in [
            ("--platform-url", "http://api.gifting.example"),
            ("--platform-url", "https://api.gifting.example/?x=1"),
            ("--platform-url", "https://user:pw@api.gifting.example"),
            ("--auth-url", "ftp://auth.example"),
            ("--public-url", "https://console.example.com/app"),
            ("--image-origin", "https://cdn.example.com; script-src *"),
            ("--redirect-path", "auth/callback"),
            ("--client-ip-header", "bad header"),
        ] {
            let err = parse(&[flag, value], Some("s")).expect_err(value);
            assert!(err.contains(flag), "{flag}: {err}");
        }
        let local =
            parse(&["--auth-url", "http://127.0.0.1:8081"], Some("s")).expect("loopback http");
        assert_eq!(local.auth_url, "http://127.0.0.1:8081");
        let err = Config::from_args(
            [
                "gifting-gateway",
                "--static",
                "/nonexistent",
                "--platform-url",
                "https://a.example",
                "--client-id",
                "c",
            ],
            Some("s".into()),
        )
        .expect_err("no dist");
        assert!(err.contains("index.html"), "{err}");
    }
}
