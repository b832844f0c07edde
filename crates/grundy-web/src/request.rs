//! Reading a request: its JSON body, and the range of heaps it asks for,
//! each refused with a message that says what is wrong.

use crate::work::ApiError;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// A request's body, as the handlers receive it: read, or refused by axum
/// (too large, say).
pub type Body = Result<Bytes, BytesRejection>;

/// Reads a JSON body, or says clearly what is wrong with it.
pub fn read<T: DeserializeOwned>(body: Body, limit: usize) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request is larger than the server's limit of {limit} bytes"),
            )
        } else {
            ApiError::bad(format!("cannot read the request: {rejection}"))
        }
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad(format!("the request body is not the JSON expected: {e}")))
}

/// Checks `from..=to` and that it holds at most `limit` heaps.
pub fn check_range(from: u64, to: u64, limit: u64, instead: &str) -> Result<(), ApiError> {
    if from > to {
        return Err(ApiError::bad(format!(
            "from {from} is after to {to}: nothing to list"
        )));
    }
    if to - from >= limit {
        return Err(ApiError::bad(format!(
            "{} heaps is more than {limit} at once: {instead}",
            (to - from) as u128 + 1
        )));
    }
    Ok(())
}
