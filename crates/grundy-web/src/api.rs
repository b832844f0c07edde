//! The JSON API on the server: each endpoint reads a body and runs
//! [`crate::answer`] on a thread of its own, within the request's budgets.

use crate::answer::{answer, Context};
use crate::budget::ApiError;
use crate::jobs::Jobs;
use crate::request::{read_bytes, Body};
use crate::work::Server;
use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value as JsonValue;
use std::sync::Arc;

/// What the handlers share: the server's budgets and computation slots, and
/// the long runs it knows. Each handler asks for the part it needs.
#[derive(Clone)]
struct App {
    server: Arc<Server>,
    jobs: Arc<Jobs>,
}

impl FromRef<App> for Arc<Server> {
    fn from_ref(app: &App) -> Self {
        app.server.clone()
    }
}

impl FromRef<App> for Arc<Jobs> {
    fn from_ref(app: &App) -> Self {
        app.jobs.clone()
    }
}

/// Every endpoint under `/api/`, computing within `server`'s budgets.
pub fn routes(server: Arc<Server>) -> Router {
    let limit = server.limits.max_body;
    let app = App {
        server,
        jobs: Arc::new(Jobs::default()),
    };
    let mut router = Router::new().route("/api/games", get(games));
    for endpoint in crate::answer::ENDPOINTS {
        if endpoint != "games" {
            router = router.route(
                &format!("/api/{endpoint}"),
                post(move |state: State<Arc<Server>>, body: Body| compute(state, endpoint, body)),
            );
        }
    }
    router
        .merge(crate::jobs::routes())
        .route("/api/{*rest}", axum::routing::any(unknown))
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
}

async fn games() -> Json<JsonValue> {
    Json(grundy::json::games_object())
}

/// Reads the body, then answers `endpoint` on a thread of the server's.
async fn compute(
    State(server): State<Arc<Server>>,
    endpoint: &'static str,
    body: Body,
) -> Result<Json<JsonValue>, ApiError> {
    let bytes = read_bytes(body, server.limits.max_body)?;
    // A malformed or oversized request is refused at once, with no slot.
    crate::answer::check(endpoint, &bytes, &server.limits)?;
    let limits = server.limits.clone();
    server
        .run(move |budget| {
            answer(
                endpoint,
                &bytes,
                &Context {
                    limits: &limits,
                    budget,
                },
            )
        })
        .await
        .map(Json)
}

async fn unknown() -> ApiError {
    ApiError::new(
        404,
        "no such API endpoint; see GET /api/games and the guide's web API reference",
    )
}

async fn wrong_method() -> ApiError {
    ApiError::new(
        405,
        "wrong method: /api/games is GET, the other endpoints take POST with a JSON body",
    )
}
