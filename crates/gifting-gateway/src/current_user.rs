//! Who a bearer token's user is (the platform's `GET /api/v3/me`: id, email, role), remembered
//! per token for a few minutes. The invitation-key filter asks it for the role; the activity
//! journal will ask it who acted.
//!
//! Each question asked of the platform spends one request of that token's rate limit, which
//! the console's pacer cannot see, so they are kept rare: an answer is remembered for
//! [`KEPT_FOR`] (a failure for [`FAILED_KEPT_FOR`]), and callers asking about one token at
//! once share one question instead of each sending one. This module holds only the memory;
//! the question itself is `upstream::current_user`'s.
//!
//! The memory is keyed by a SHA-256 digest of the `Authorization` value, never the token
//! itself, and holds at most [`MAX_TOKENS`] tokens. Nothing here is logged or counted by token.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use gifting_api::rest::CurrentUser;
use sha2::{Digest as _, Sha256};
use tokio::sync::OnceCell;

/// How long a token's user is remembered: a role changed at the platform reaches the gateway
/// within this (an admin made a sender keeps seeing keys on a token at most this long).
pub const KEPT_FOR: Duration = Duration::from_secs(5 * 60);
/// How long a failed question is remembered (not an admin, meanwhile): short, so a hiccup
/// costs an admin half a minute of keys; not nothing, so a platform refusing `/me` (a 429)
/// is not asked again on every read.
pub const FAILED_KEPT_FOR: Duration = Duration::from_secs(30);
/// Tokens remembered at most. Beyond it, the expired go first, then the oldest.
pub const MAX_TOKENS: usize = 10_000;

/// The answer about one token: the user, or `None` when the platform could not say.
pub type Answer = Option<Arc<CurrentUser>>;

struct Entry {
    asked: Instant,
    /// Set once, by the first caller; the others wait on it (one question per token).
    answer: Arc<OnceCell<Answer>>,
}

impl Entry {
    fn expired(&self, now: Instant) -> bool {
        let kept = match self.answer.get() {
            Some(None) => FAILED_KEPT_FOR,
            _ => KEPT_FOR,
        };
        now.duration_since(self.asked) >= kept
    }
}

/// The remembered users, by digest of the token.
pub struct CurrentUsers {
    entries: Mutex<HashMap<[u8; 32], Entry>>,
    capacity: usize,
}

impl Default for CurrentUsers {
    fn default() -> Self {
        Self::with_capacity(MAX_TOKENS)
    }
}

impl std::fmt::Debug for CurrentUsers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CurrentUsers({} tokens)", self.lock().len())
    }
}

impl CurrentUsers {
    pub fn with_capacity(capacity: usize) -> Self {
        CurrentUsers {
            entries: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// The user `authorization` (a request's `Authorization` value) belongs to: remembered, or
    /// found by `ask` (which only the first of concurrent callers runs; `None` when the
    /// platform could not say).
    pub async fn lookup<F, Fut>(&self, authorization: &[u8], ask: F) -> Answer
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Option<CurrentUser>>,
    {
        let cell = self.cell_for(Sha256::digest(authorization).into());
        let answer = cell.get_or_init(|| async { ask().await.map(Arc::new) });
        answer.await.clone()
    }

    /// How many tokens are remembered (tests).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn cell_for(&self, key: [u8; 32]) -> Arc<OnceCell<Answer>> {
        let now = Instant::now();
        let mut entries = self.lock();
        if let Some(entry) = entries.get(&key).filter(|e| !e.expired(now)) {
            return entry.answer.clone();
        }
        entries.remove(&key);
        if entries.len() >= self.capacity {
            // Only a miss with a full memory scans it: a miss follows a members read the
            // platform answered 2xx, so it costs a platform round trip anyway.
            entries.retain(|_, e| !e.expired(now));
            let oldest = entries.iter().min_by_key(|(_, e)| e.asked).map(|(k, _)| *k);
            if let Some(oldest) = oldest.filter(|_| entries.len() >= self.capacity) {
                entries.remove(&oldest);
            }
        }
        let answer = Arc::new(OnceCell::new());
        let entry = Entry {
            asked: now,
            answer: answer.clone(),
        };
        entries.insert(key, entry);
        answer
    }

    // A panic while remembering cannot leave the memory in a state worth refusing reads for.
    fn lock(&self) -> MutexGuard<'_, HashMap<[u8; 32], Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gifting_api::Role;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn user(role: Role) -> CurrentUser {
        CurrentUser {
            id: 7,
            first_name: "Ada".into(),
            last_name: "Admin".into(),
            email: "ada@example.com".into(),
            balance: "0.00".into(),
            team_balance: "0".into(),
            role,
        }
    }

    #[tokio::test]
    async fn one_question_per_token_even_when_asked_at_once() {
        let users = CurrentUsers::default();
        let asked = AtomicUsize::new(0);
        let ask = || async {
            asked.fetch_add(1, Ordering::SeqCst);
            tokio::task::yield_now().await;
            Some(user(Role::Admin))
        };
        let (a, b) = tokio::join!(
            users.lookup(b"Bearer t1", ask),
            users.lookup(b"Bearer t1", ask)
        );
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        assert_eq!(a.map(|u| u.role.clone()), Some(Role::Admin));
        assert_eq!(b.map(|u| u.id), Some(7));
        let other = users.lookup(b"Bearer t2", || async { None }).await;
        assert!(other.is_none());
        assert_eq!(
            users.lookup(b"Bearer t2", ask).await,
            None,
            "a failure is remembered"
        );
        assert_eq!(asked.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn the_memory_stays_bounded_and_holds_no_token() {
        let users = CurrentUsers::with_capacity(3);
        for n in 0..10 {
            let token = format!("Bearer secret-token-{n}");
            users
                .lookup(token.as_bytes(), || async { Some(user(Role::Sender)) })
                .await;
        }
        assert_eq!(users.len(), 3);
        assert!(!format!("{users:?}").contains("secret-token"));
        let entries = users.lock();
        assert!(entries
            .keys()
            .all(|k| !k.windows(6).any(|w| w == b"secret")));
    }
}
