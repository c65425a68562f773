//! Authorization codes, access tokens and refresh tokens.
//!
//! Only SHA-256 digests of codes and tokens are kept, so a dump of the state (or a debug
//! print) never shows a usable credential. Every token belongs to a grant (one code
//! exchange); revoking any token of a grant, or replaying its code, ends the whole grant.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use gifting_api::oauth;
use rand::TryRngCore as _;
use sha2::{Digest, Sha256};

use super::scope::Scopes;

type Digest32 = [u8; 32];

/// Live grants (sign-ins) a user may hold at once; a new one beyond it revokes their oldest.
/// Anyone who reaches the consent page can sign in as anyone (it has no passwords), so without
/// a cap the token table would grow without bound.
pub const MAX_GRANTS_PER_USER: usize = 16;

/// Spent refresh tokens remembered per grant (digests only): presenting one of them again is
/// a reuse, which ends the grant (RFC 9700 §4.14.2). The newest few are enough: a stolen copy
/// is replayed soon, and the oldest are forgotten so the memory stays bounded.
pub const SPENT_KEPT_PER_GRANT: usize = 8;

/// Live access tokens per grant. A refresh keeps the previous access token valid until it
/// expires, so a grant refreshed in a loop would otherwise pile up tokens for their whole
/// lifetime; beyond this many the oldest ends early.
pub const ACCESS_KEPT_PER_GRANT: usize = 4;

fn digest(raw: &str) -> Digest32 {
    Sha256::digest(raw.as_bytes()).into()
}

/// 256 bits from the OS random source, base64url: opaque and unguessable.
pub fn random_secret() -> String {
    let mut buf = [0u8; 32];
    if rand::rngs::OsRng.try_fill_bytes(&mut buf).is_err() {
        // ThreadRng is a CSPRNG seeded from the OS; only reached if the OS source hiccups.
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut buf);
    }
    oauth::base64url(&buf)
}

#[derive(Debug, Clone)]
pub struct CodeGrant {
    pub client_id: String,
    pub redirect_uri: String,
    pub user_id: u64,
    pub scopes: Scopes,
    /// PKCE S256 challenge; a code issued with one is redeemable by a public client.
    pub code_challenge: Option<String>,
    expires: Instant,
}

#[derive(Debug, Clone)]
struct AccessToken {
    grant: u64,
    user_id: u64,
    scopes: Scopes,
    expires: Instant,
}

#[derive(Debug, Clone)]
struct RefreshToken {
    grant: u64,
    user_id: u64,
    scopes: Scopes,
    client_id: String,
    /// Issued through PKCE without a secret: refreshable without a secret too.
    public: bool,
    expires: Instant,
}

/// What a live access token grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bearer {
    pub user_id: u64,
    pub scopes: Scopes,
}

/// A freshly minted token pair (the raw values leave the store only here).
#[derive(Debug, Clone)]
pub struct IssuedTokens {
    pub access_token: String,
    pub refresh_token: String,
    pub scopes: Scopes,
    pub expires_in: u64,
    pub created_at: u64,
}

/// Why a grant was refused (mapped to RFC 6749 §5.2 errors by the token endpoint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantError {
    /// Unknown, expired, used or mismatched code / refresh token, or a bad PKCE verifier.
    InvalidGrant(&'static str),
    /// A spent refresh token was presented again: the grant it belonged to is revoked.
    Reused(&'static str),
    /// The client did not authenticate the way this grant requires.
    InvalidClient(&'static str),
}

/// How the client authenticated at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    /// A correct client secret.
    Secret,
    /// No secret (a public client); only acceptable with PKCE.
    Public,
}

#[derive(Debug)]
pub struct OAuthStore {
    codes: HashMap<Digest32, CodeGrant>,
    /// Codes already exchanged, with the grant they produced: a replay revokes that grant
    /// (RFC 6749 §4.1.2).
    used_codes: HashMap<Digest32, (u64, Instant)>,
    access: HashMap<Digest32, AccessToken>,
    refresh: HashMap<Digest32, RefreshToken>,
    /// Live grants and whose they are; grant ids grow, so the smallest is the oldest.
    grants: HashMap<u64, u64>,
    /// Each live grant's spent refresh tokens, newest last (see [`SPENT_KEPT_PER_GRANT`]).
    spent: HashMap<u64, VecDeque<Digest32>>,
    /// Each live grant's access tokens, newest last (see [`ACCESS_KEPT_PER_GRANT`]).
    issued: HashMap<u64, VecDeque<Digest32>>,
    next_grant: u64,
    lifetimes: Lifetimes,
}

/// How long what the store issues lives.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    pub access: Duration,
    pub code: Duration,
    /// A refresh token not used within this ends (each refresh issues a new one, so a grant in
    /// use lives on; an abandoned one does not live for ever).
    pub refresh: Duration,
}

impl OAuthStore {
    pub fn new(lifetimes: Lifetimes) -> Self {
        Self {
            codes: HashMap::new(),
            used_codes: HashMap::new(),
            access: HashMap::new(),
            refresh: HashMap::new(),
            grants: HashMap::new(),
            spent: HashMap::new(),
            issued: HashMap::new(),
            next_grant: 1,
            lifetimes,
        }
    }

    pub fn issue_code(
        &mut self,
        client_id: &str,
        redirect_uri: &str,
        user_id: u64,
        scopes: Scopes,
        code_challenge: Option<String>,
    ) -> String {
        self.purge();
        let raw = random_secret();
        self.codes.insert(
            digest(&raw),
            CodeGrant {
                client_id: client_id.to_owned(),
                redirect_uri: redirect_uri.to_owned(),
                user_id,
                scopes,
                code_challenge,
                expires: Instant::now() + self.lifetimes.code,
            },
        );
        raw
    }

    /// The authorization_code grant.
    pub fn exchange_code(
        &mut self,
        code: &str,
        client_id: &str,
        redirect_uri: &str,
        code_verifier: Option<&str>,
        auth: ClientAuth,
    ) -> Result<IssuedTokens, GrantError> {
        const REPLAYED: GrantError = GrantError::InvalidGrant(
            "The authorization code was already used; the tokens it produced are revoked.",
        );
        let key = digest(code);
        let used = self.used_codes.get(&key).map(|(grant, _)| *grant);
        let live = |s: &Self| s.codes.get(&key).cloned();
        let grant = self.unspent(used, REPLAYED, live, "The authorization code is unknown.")?;
        if grant.expires <= Instant::now() {
            self.codes.remove(&key);
            return Err(GrantError::InvalidGrant(
                "The authorization code has expired.",
            ));
        }
        if grant.client_id != client_id {
            return Err(GrantError::InvalidGrant(
                "The authorization code was issued to another client.",
            ));
        }
        if grant.redirect_uri != redirect_uri {
            return Err(GrantError::InvalidGrant(
                "redirect_uri does not match the one of the authorization request.",
            ));
        }
        match (&grant.code_challenge, code_verifier) {
            (Some(challenge), Some(verifier)) => {
                if !pkce_matches(challenge, verifier) {
                    return Err(GrantError::InvalidGrant(
                        "code_verifier does not match the code_challenge.",
                    ));
                }
            }
            (Some(_), None) => {
                return Err(GrantError::InvalidGrant(
                    "code_verifier is required: the authorization request used PKCE.",
                ))
            }
            (None, Some(_)) => {
                return Err(GrantError::InvalidGrant(
                    "code_verifier was sent but the authorization request had no code_challenge.",
                ))
            }
            (None, None) => {
                if auth == ClientAuth::Public {
                    return Err(GrantError::InvalidClient(
                        "Client authentication failed: client_secret is required without PKCE.",
                    ));
                }
            }
        }
        // Single use: the code is gone whatever happens next.
        self.codes.remove(&key);
        let public = auth == ClientAuth::Public;
        self.purge();
        let grant_id = self.new_grant(grant.user_id);
        self.used_codes
            .insert(key, (grant_id, Instant::now() + self.lifetimes.code * 10));
        Ok(self.mint(grant_id, grant.user_id, grant.scopes, client_id, public))
    }

    /// The refresh_token grant: single use, rotating. `narrow` is an optional `scope`
    /// parameter, which may only shrink the grant.
    pub fn refresh(
        &mut self,
        refresh_token: &str,
        client_id: &str,
        auth: ClientAuth,
        narrow: Option<Scopes>,
    ) -> Result<IssuedTokens, GrantError> {
        const REUSED: GrantError = GrantError::Reused(
            "The refresh token was already used: the grant is revoked and every token of it ends.",
        );
        const UNKNOWN: &str = "The refresh token is unknown, already used or revoked.";
        self.purge();
        let key = digest(refresh_token);
        let spent = self.spent_in(&key);
        let live = |s: &Self| s.refresh.get(&key).cloned();
        let old = self.unspent(spent, REUSED, live, UNKNOWN)?;
        if old.client_id != client_id {
            return Err(GrantError::InvalidGrant(
                "The refresh token was issued to another client.",
            ));
        }
        if auth == ClientAuth::Public && !old.public {
            return Err(GrantError::InvalidClient(
                "Client authentication failed: this grant was issued to a confidential client.",
            ));
        }
        let scopes = match narrow {
            Some(s) if !s.is_subset_of(old.scopes) => {
                return Err(GrantError::InvalidGrant(
                    "The requested scope exceeds the scope originally granted.",
                ))
            }
            Some(s) => s,
            None => old.scopes,
        };
        self.refresh.remove(&key);
        let spent = self.spent.entry(old.grant).or_default();
        spent.push_back(key);
        if spent.len() > SPENT_KEPT_PER_GRANT {
            spent.pop_front();
        }
        Ok(self.mint(old.grant, old.user_id, scopes, client_id, old.public))
    }

    /// RFC 7009: revoke an access or a refresh token, and with it the whole grant. Returns
    /// whether anything was revoked (the endpoint answers 200 either way).
    pub fn revoke(&mut self, token: &str) -> bool {
        let key = digest(token);
        let grant = self
            .access
            .get(&key)
            .map(|t| t.grant)
            .or_else(|| self.refresh.get(&key).map(|t| t.grant));
        match grant {
            Some(g) => {
                self.revoke_grant(g);
                true
            }
            None => false,
        }
    }

    /// Ends every token of a user (the user was deleted or deactivated).
    pub fn revoke_user(&mut self, user_id: u64) {
        self.access.retain(|_, t| t.user_id != user_id);
        self.refresh.retain(|_, t| t.user_id != user_id);
        let theirs: Vec<u64> = self
            .grants
            .iter()
            .filter(|(_, user)| **user == user_id)
            .map(|(grant, _)| *grant)
            .collect();
        for grant in theirs {
            self.grants.remove(&grant);
            self.spent.remove(&grant);
            self.issued.remove(&grant);
        }
    }

    /// Ends access tokens now, as their lifetime running out would (a test hook): `only`
    /// names one, otherwise every live one ends. Refresh tokens and grants live on, so the
    /// next request with an ended token is refused and a refresh renews it. Returns how many
    /// ended.
    pub fn expire_access(&mut self, only: Option<&str>) -> usize {
        let now = Instant::now();
        let only = only.map(digest);
        let mut ended = 0;
        for (key, t) in &mut self.access {
            if t.expires > now && only.is_none_or(|d| d == *key) {
                t.expires = now;
                ended += 1;
            }
        }
        ended
    }

    /// How many grants are live (for tests of the bound).
    pub fn live_grants(&self) -> usize {
        self.grants.len()
    }

    /// The grant behind a live access token.
    pub fn bearer(&self, access_token: &str) -> Option<Bearer> {
        let t = self.access.get(&digest(access_token))?;
        (t.expires > Instant::now()).then_some(Bearer {
            user_id: t.user_id,
            scopes: t.scopes,
        })
    }

    /// A new grant for `user_id`, revoking their oldest beyond [`MAX_GRANTS_PER_USER`].
    fn new_grant(&mut self, user_id: u64) -> u64 {
        let g = self.next_grant;
        self.next_grant += 1;
        let mut theirs: Vec<u64> = self
            .grants
            .iter()
            .filter(|(_, user)| **user == user_id)
            .map(|(grant, _)| *grant)
            .collect();
        theirs.sort_unstable();
        let excess = (theirs.len() + 1).saturating_sub(MAX_GRANTS_PER_USER);
        for old in theirs.into_iter().take(excess) {
            self.revoke_grant(old);
        }
        self.grants.insert(g, user_id);
        g
    }

    fn mint(
        &mut self,
        grant: u64,
        user_id: u64,
        scopes: Scopes,
        client_id: &str,
        public: bool,
    ) -> IssuedTokens {
        let access_token = random_secret();
        let refresh_token = random_secret();
        let now = Instant::now();
        let key = digest(&access_token);
        self.access.insert(
            key,
            AccessToken {
                grant,
                user_id,
                scopes,
                expires: now + self.lifetimes.access,
            },
        );
        let issued = self.issued.entry(grant).or_default();
        issued.push_back(key);
        while issued.len() > ACCESS_KEPT_PER_GRANT {
            if let Some(oldest) = issued.pop_front() {
                self.access.remove(&oldest);
            }
        }
        self.refresh.insert(
            digest(&refresh_token),
            RefreshToken {
                grant,
                user_id,
                scopes,
                client_id: client_id.to_owned(),
                public,
                expires: now + self.lifetimes.refresh,
            },
        );
        IssuedTokens {
            access_token,
            refresh_token,
            scopes,
            expires_in: self.lifetimes.access.as_secs(),
            created_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        }
    }

    /// The live grant `key` is a spent refresh token of.
    fn spent_in(&self, key: &Digest32) -> Option<u64> {
        self.spent
            .iter()
            .find(|(_, keys)| keys.contains(key))
            .map(|(grant, _)| *grant)
    }

    /// A credential about to be redeemed. One presented again after it was spent (by
    /// `spent_grant`) means a copy is out there: its whole grant ends and `replay` is the
    /// answer. One that `live` does not find was never issued, expired or was revoked.
    fn unspent<T>(
        &mut self,
        spent_grant: Option<u64>,
        replay: GrantError,
        live: impl FnOnce(&Self) -> Option<T>,
        unknown: &'static str,
    ) -> Result<T, GrantError> {
        if let Some(grant) = spent_grant {
            self.revoke_grant(grant);
            return Err(replay);
        }
        live(self).ok_or(GrantError::InvalidGrant(unknown))
    }

    fn revoke_grant(&mut self, grant: u64) {
        self.access.retain(|_, t| t.grant != grant);
        self.refresh.retain(|_, t| t.grant != grant);
        self.grants.remove(&grant);
        self.spent.remove(&grant);
        self.issued.remove(&grant);
    }

    /// Drops what can never be used again, so a long-running sandbox does not grow: on every
    /// code issued and every token request. A grant whose refresh token expired is over.
    fn purge(&mut self) {
        let now = Instant::now();
        self.codes.retain(|_, c| c.expires > now);
        self.used_codes.retain(|_, (_, until)| *until > now);
        self.access.retain(|_, t| t.expires > now);
        let expired: Vec<u64> = self
            .refresh
            .values()
            .filter(|t| t.expires <= now)
            .map(|t| t.grant)
            .collect();
        for grant in expired {
            self.revoke_grant(grant);
        }
    }
}

/// RFC 7636 S256: BASE64URL(SHA256(verifier)) == challenge, with the verifier's syntax checked
/// (43..=128 unreserved characters).
pub fn pkce_matches(challenge: &str, verifier: &str) -> bool {
    oauth::is_valid_verifier(verifier)
        && constant_time_eq(
            oauth::code_challenge_s256(verifier).as_bytes(),
            challenge.as_bytes(),
        )
}

/// Compares secrets without an early exit, so timing does not reveal a matching prefix.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> OAuthStore {
        OAuthStore::new(Lifetimes {
            access: Duration::from_secs(60),
            code: Duration::from_secs(60),
            refresh: Duration::from_secs(3600),
        })
    }

    const CB: &str = "http://127.0.0.1:1/auth/callback";

    /// The authorize then token steps of a confidential client for `user`: the code it was
    /// issued, and the tokens that code was exchanged for.
    fn sign_in(s: &mut OAuthStore, user: u64) -> (String, IssuedTokens) {
        let code = s.issue_code("c", CB, user, Scopes::SCIM, None);
        let t = s.exchange_code(&code, "c", CB, None, ClientAuth::Secret);
        (code, t.expect("exchange"))
    }

    /// A confidential client's refresh of `refresh_token`.
    fn refresh(s: &mut OAuthStore, refresh_token: &str) -> Result<IssuedTokens, GrantError> {
        s.refresh(refresh_token, "c", ClientAuth::Secret, None)
    }

    #[test]
    fn tokens_are_stored_only_as_digests() {
        let mut s = store();
        let (code, t) = sign_in(&mut s, 1);
        let dump = format!("{s:?}");
        assert!(!dump.contains(&t.access_token));
        assert!(!dump.contains(&t.refresh_token));
        assert!(!dump.contains(&code));
        assert_eq!(s.bearer(&t.access_token).map(|b| b.user_id), Some(1));
    }

    #[test]
    fn expiring_access_tokens_keeps_their_grants_refreshable() {
        let mut s = store();
        let (_, a) = sign_in(&mut s, 1);
        let (_, b) = sign_in(&mut s, 2);
        assert_eq!(s.expire_access(Some(&a.access_token)), 1);
        assert!(s.bearer(&a.access_token).is_none());
        assert!(s.bearer(&b.access_token).is_some(), "only the one named");
        assert_eq!(s.expire_access(Some("unknown")), 0);
        assert_eq!(s.expire_access(None), 1, "the one still live");
        assert!(s.bearer(&b.access_token).is_none());
        assert_eq!(s.live_grants(), 2);
        let renewed = refresh(&mut s, &a.refresh_token).expect("refresh");
        assert_eq!(s.bearer(&renewed.access_token).map(|b| b.user_id), Some(1));
    }

    #[test]
    fn code_replay_revokes_the_grant() {
        let mut s = store();
        let (code, t) = sign_in(&mut s, 1);
        assert!(matches!(
            s.exchange_code(&code, "c", CB, None, ClientAuth::Secret),
            Err(GrantError::InvalidGrant(_))
        ));
        assert!(s.bearer(&t.access_token).is_none());
    }

    #[test]
    fn refresh_rotates_and_is_single_use() {
        let mut s = store();
        let (_, t) = sign_in(&mut s, 1);
        let t2 = refresh(&mut s, &t.refresh_token).expect("refresh");
        assert_ne!(t2.refresh_token, t.refresh_token);
        assert!(refresh(&mut s, &t.refresh_token).is_err());
        // That second use ended the grant (see a_reused_refresh_token_revokes_the_whole_grant):
        // nothing is left to revoke.
        assert!(!s.revoke(&t2.access_token));
        assert!(s.bearer(&t2.access_token).is_none());
        assert!(refresh(&mut s, &t2.refresh_token).is_err());
    }

    #[test]
    fn grants_per_user_are_capped_oldest_first() {
        let mut s = store();
        let (_, first) = sign_in(&mut s, 1);
        let mut last = first.clone();
        for _ in 0..(MAX_GRANTS_PER_USER * 3) {
            last = sign_in(&mut s, 1).1;
        }
        let (_, other) = sign_in(&mut s, 2);
        assert_eq!(s.live_grants(), MAX_GRANTS_PER_USER + 1);
        assert!(s.access.len() <= MAX_GRANTS_PER_USER + 1);
        assert!(s.refresh.len() <= MAX_GRANTS_PER_USER + 1);
        assert!(
            s.bearer(&first.access_token).is_none(),
            "the oldest grant was revoked"
        );
        assert!(refresh(&mut s, &first.refresh_token).is_err());
        assert!(s.bearer(&last.access_token).is_some());
        assert!(
            s.bearer(&other.access_token).is_some(),
            "other users keep theirs"
        );
        s.revoke_user(1);
        assert!(s.bearer(&last.access_token).is_none());
        assert_eq!(s.live_grants(), 1);
    }

    #[test]
    fn a_reused_refresh_token_revokes_the_whole_grant() {
        let mut s = store();
        let (_, t) = sign_in(&mut s, 1);
        let t2 = refresh(&mut s, &t.refresh_token).expect("refresh");
        assert!(matches!(
            refresh(&mut s, &t.refresh_token),
            Err(GrantError::Reused(_))
        ));
        assert!(
            s.bearer(&t2.access_token).is_none(),
            "the newest access token ends too"
        );
        assert!(matches!(
            refresh(&mut s, &t2.refresh_token),
            Err(GrantError::InvalidGrant(_))
        ));
        assert_eq!(s.live_grants(), 0);
        // A long chain keeps only the newest spent tokens in memory.
        let (_, mut t) = sign_in(&mut s, 1);
        for _ in 0..(SPENT_KEPT_PER_GRANT * 3) {
            t = refresh(&mut s, &t.refresh_token).expect("refresh");
        }
        assert!(s.spent.values().all(|k| k.len() <= SPENT_KEPT_PER_GRANT));
    }

    /// A grant refreshed in a loop keeps a bounded number of access tokens, and
    /// expired ones go on refresh too (not only when a code is issued).
    #[test]
    fn refreshing_in_a_loop_keeps_the_store_bounded() {
        let mut s = store();
        let (_, mut t) = sign_in(&mut s, 1);
        let mut issued = vec![t.access_token.clone()];
        for _ in 0..1000 {
            t = refresh(&mut s, &t.refresh_token).expect("refresh");
            issued.push(t.access_token.clone());
        }
        assert!(
            s.access.len() <= ACCESS_KEPT_PER_GRANT,
            "{}",
            s.access.len()
        );
        assert_eq!(s.refresh.len(), 1);
        let live = issued.iter().filter(|a| s.bearer(a).is_some()).count();
        assert_eq!(live, ACCESS_KEPT_PER_GRANT, "the newest ones stay valid");
        assert!(s.bearer(&t.access_token).is_some());
        assert!(s.bearer(&issued[0]).is_none(), "the oldest ended early");
        // Expired access tokens are dropped by a refresh.
        let mut short = OAuthStore::new(Lifetimes {
            access: Duration::from_millis(30),
            code: Duration::from_secs(60),
            refresh: Duration::from_secs(3600),
        });
        let (_, a) = sign_in(&mut short, 1);
        let (_, b) = sign_in(&mut short, 2);
        std::thread::sleep(Duration::from_millis(50));
        refresh(&mut short, &b.refresh_token).expect("refresh");
        assert!(!short.access.contains_key(&digest(&a.access_token)));
        assert_eq!(short.access.len(), 1);
    }

    /// A refresh token has a lifetime; an expired one ends its grant.
    #[test]
    fn refresh_tokens_expire() {
        let mut s = OAuthStore::new(Lifetimes {
            access: Duration::from_secs(60),
            code: Duration::from_secs(60),
            refresh: Duration::from_millis(40),
        });
        let (_, t) = sign_in(&mut s, 1);
        let t2 = refresh(&mut s, &t.refresh_token).expect("a fresh refresh token works");
        std::thread::sleep(Duration::from_millis(60));
        assert!(matches!(
            refresh(&mut s, &t2.refresh_token),
            Err(GrantError::InvalidGrant(_))
        ));
        assert_eq!(s.live_grants(), 0);
        assert!(s.bearer(&t2.access_token).is_none(), "the grant ended");
        assert!(s.refresh.is_empty());
    }

    #[test]
    fn public_client_needs_pkce() {
        let mut s = store();
        let code = s.issue_code("c", CB, 1, Scopes::SCIM, None);
        assert!(matches!(
            s.exchange_code(&code, "c", CB, None, ClientAuth::Public),
            Err(GrantError::InvalidClient(_))
        ));
    }

    #[test]
    fn pkce_rfc7636_appendix_b() {
        assert!(pkce_matches(
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        ));
        assert!(!pkce_matches(
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj"
        ));
    }
}
