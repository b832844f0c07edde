//! Reading a request's body on the server, refused with a message that says
//! what is wrong.

use crate::budget::ApiError;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;

/// A request's body, as the handlers receive it: read, or refused by axum
/// (too large, say).
pub type Body = Result<Bytes, BytesRejection>;

/// The body's bytes, or the error that says why they cannot be read.
pub fn read_bytes(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                413,
                format!("the request is larger than the server's limit of {limit} bytes"),
            )
        } else {
            ApiError::bad(format!("cannot read the request: {rejection}"))
        }
    })
}
