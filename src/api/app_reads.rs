//! The two reads the app itself makes once signed in (the signed-in user, the team groups),
//! started through a chunk of their own (`app_reads`). Every other request is a screen's, and
//! screens are chunks: with these two behind a split point, the request layer (the request
//! policy, the pacing, the JSON decoding) and what it decodes leave the signed-out first load,
//! which never sends a platform request, and arrive with the first signed-in read.

use std::future::Future;
use std::pin::Pin;

use gifting_api::paths::endpoint;
use gifting_api::rest::{CurrentUser, TeamGroup};

use super::{ApiClient, ApiError};
use crate::browser::navigator_online;

type Read<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

/// The reads, as functions of the chunk that holds them.
#[derive(Clone, Copy)]
struct Reads {
    me: fn(ApiClient) -> Read<CurrentUser>,
    groups: fn(ApiClient) -> Read<Vec<TeamGroup>>,
}

const READS: Reads = Reads {
    me: read_me,
    groups: read_groups,
};

fn read_me(api: ApiClient) -> Read<CurrentUser> {
    Box::pin(async move { api.get_json(endpoint::ME.call(&[])).await })
}

fn read_groups(api: ApiClient) -> Read<Vec<TeamGroup>> {
    Box::pin(super::team_groups::fetch_all_groups(api))
}

#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(app_reads, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reads() -> Result<Reads, leptos::wasm_split::SplitLoaderError> {
    Ok(READS)
}

#[cfg(not(feature = "split"))]
async fn reads() -> Result<Reads, leptos::wasm_split::SplitLoaderError> {
    Ok(READS)
}

/// The chunk could not be fetched: the read's answer was lost, as a request's would be.
async fn loaded() -> Result<Reads, ApiError> {
    reads().await.map_err(|_| {
        if navigator_online() {
            ApiError::Network
        } else {
            ApiError::Offline
        }
    })
}

/// `GET /api/v3/me`.
pub(super) async fn me(api: ApiClient) -> Result<CurrentUser, ApiError> {
    (loaded().await?.me)(api).await
}

/// Every team group, page by page ([`super::team_groups::fetch_all_groups`]).
pub(super) async fn groups(api: ApiClient) -> Result<Vec<TeamGroup>, ApiError> {
    (loaded().await?.groups)(api).await
}
