//! Each area registers its endpoints from the contract's table (`gifting_api::paths::endpoint`),
//! so the path and method the sandbox serves are the ones the console calls and the gateway
//! relays, written once.

use axum::handler::Handler;
use axum::routing::{on, MethodFilter};
use axum::Router;
use gifting_api::paths::{Endpoint, Method};

use crate::state::Shared;

/// An area's router, nested at `prefix` (e.g. `/api/v3`), with its endpoints added by [`Area::serve`].
pub struct Area {
    prefix: &'static str,
    router: Router<Shared>,
}

impl Area {
    pub fn new(prefix: &'static str) -> Self {
        Self {
            prefix,
            router: Router::new(),
        }
    }

    /// Serves `endpoint` (its method, its template below the area's prefix) with `handler`.
    /// Two endpoints of one template (GET and POST of a collection) share its route.
    pub fn serve<H, T>(self, endpoint: Endpoint, handler: H) -> Self
    where
        H: Handler<T, Shared>,
        T: 'static,
    {
        let Some(path) = endpoint.template().strip_prefix(self.prefix) else {
            panic!("{} is not under {}", endpoint.template(), self.prefix);
        };
        let filter = match endpoint.method() {
            Method::Get => MethodFilter::GET,
            Method::Post => MethodFilter::POST,
            Method::Put => MethodFilter::PUT,
        };
        Self {
            router: self.router.route(path, on(filter, handler)),
            ..self
        }
    }

    pub fn router(self) -> Router<Shared> {
        self.router
    }
}
