//! The JSON API: each endpoint reads a body, runs the library under the
//! request's budget and answers with the command line's `--json` object.

use crate::jobs::Jobs;
use crate::request::{check_range, read, Body};
use crate::work::{ApiError, Budget, Server};
use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy::json;
use grundy::play::{self, SumMove};
use grundy::spec::{self, Sources};
use grundy::sum::{Sum, Winner};
use serde::Deserialize;
use serde_json::{json as object, Value as JsonValue};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

type Answer = Result<Json<JsonValue>, ApiError>;
type Files = BTreeMap<String, String>;

/// The most winning moves `/api/value` lists.
const MAX_MOVES: usize = 100_000;
/// The most legal moves `/api/moves` lists.
const LISTED_MOVES: usize = 5_000;
/// The most heaps `/api/seq` answers at once; longer runs are jobs.
pub const SEQ_HEAPS: u64 = 1_000_001;
/// The default `max` of `/api/period`.
const PERIOD_MAX: u64 = 1 << 20;

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
    Router::new()
        .route("/api/games", get(games))
        .route("/api/value", post(value))
        .route("/api/explain", post(explain))
        .route("/api/moves", post(moves))
        .route("/api/apply", post(apply))
        .route("/api/reply", post(reply))
        .route("/api/seq", post(seq))
        .route("/api/period", post(period))
        .route("/api/table", post(table))
        .route("/api/pattern", post(pattern))
        .route("/api/quotient", post(quotient))
        .merge(crate::jobs::routes())
        .route("/api/{*rest}", axum::routing::any(unknown))
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
}

async fn unknown() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such API endpoint; see GET /api/games and the guide's web API reference",
    )
}

async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong method: /api/games is GET, the other endpoints take POST with a JSON body",
    )
}

fn words(sum: &str) -> Vec<String> {
    sum.split_whitespace().map(String::from).collect()
}

/// The sum a request names, reading `script:` and `dag:` texts from its files.
fn parse_sum(server: &Server, text: &str, files: &Files, budget: &Budget) -> Result<Sum, ApiError> {
    let mut sum = spec::parse_sum_from(&words(text), server.settings(), &Sources::Given(files))?;
    budget.watch(&mut sum);
    Ok(sum)
}

/// The family a request names, stopping when its budget runs out.
fn parse_family(
    game: &str,
    settings: grundy::family::Settings,
    files: &Files,
    budget: &Budget,
) -> Result<Box<dyn grundy::family::Family>, ApiError> {
    let mut family = spec::parse_game_from(game, settings, &Sources::Given(files))?;
    family.configure_long_run(budget.long_run());
    Ok(family)
}

async fn games() -> Json<JsonValue> {
    Json(json::games_object())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueRequest {
    sum: String,
    #[serde(default)]
    misere: bool,
    max_moves: Option<usize>,
    #[serde(default)]
    files: Files,
}

async fn value(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: ValueRequest = read(body, server.limits.max_body)?;
    let find = request.max_moves.unwrap_or(1000);
    if find > MAX_MOVES {
        return Err(ApiError::bad(format!(
            "max_moves {find} is more than the server lists ({MAX_MOVES})"
        )));
    }
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut sum = parse_sum(&worker, &request.sum, &request.files, budget)?;
            Ok(Json(if request.misere {
                let analysis = grundy::misere::analyze(&mut sum, find, worker.limits.max_states)?;
                json::misere_object(&sum, &analysis)
            } else {
                let analysis = sum.analyze(find)?;
                json::value_object(&sum, &analysis)
            }))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    game: String,
    position: String,
    #[serde(default)]
    files: Files,
}

async fn explain(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: ExplainRequest = read(body, server.limits.max_body)?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut family =
                parse_family(&request.game, worker.settings(), &request.files, budget)?;
            let position = family.parse(&request.position)?;
            Ok(Json(json::explain_object(family.as_mut(), &position)?))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    sum: String,
    #[serde(default)]
    misere: bool,
    #[serde(default)]
    files: Files,
}

/// A move as text: its component and the parts it leaves, as written.
fn move_key(sum: &Sum, m: &SumMove) -> (usize, Vec<String>) {
    let family = sum.components()[m.component].family;
    (
        m.component,
        m.to.iter().map(|p| sum.format(family, p)).collect(),
    )
}

fn move_object(sum: &Sum, m: &SumMove) -> JsonValue {
    let from = &sum.components()[m.component].position;
    json::move_object(sum, m.component, from, &m.to)
}

async fn moves(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: PlayRequest = read(body, server.limits.max_body)?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut sum = parse_sum(&worker, &request.sum, &request.files, budget)?;
            let legal = play::legal_moves(&mut sum)?;
            let (winner, winning, drawing) =
                play::assess(&mut sum, request.misere, worker.limits.max_states)?;
            let winning: HashSet<_> = winning.iter().map(|m| move_key(&sum, m)).collect();
            let drawing: HashSet<_> = drawing.iter().map(|m| move_key(&sum, m)).collect();
            let listed: Vec<JsonValue> = legal
                .iter()
                .take(LISTED_MOVES)
                .map(|m| {
                    let key = move_key(&sum, m);
                    let outcome = if winning.contains(&key) {
                        "win"
                    } else if drawing.contains(&key) {
                        "draw"
                    } else {
                        "lose"
                    };
                    let mut entry = move_object(&sum, m);
                    entry["outcome"] = object!(outcome);
                    entry
                })
                .collect();
            let mut answer = object!({
                "moves": listed,
                "truncated": legal.len() > LISTED_MOVES,
                "winner": winner.as_str(),
            });
            if !request.misere {
                answer["nim_sum"] = json::value(&sum.analyze(0)?.nim_sum);
            }
            Ok(Json(answer))
        })
        .await
}

/// The sum after `mv`: its text, and whether the player who made the move
/// ended the game (no move is left, or the move itself ends it, as three
/// in a row does in Treblecross).
fn after(sum: &mut Sum, mv: &SumMove) -> Result<(String, bool), ApiError> {
    let family = sum.components()[mv.component].family;
    let ends = mv.to.iter().any(|p| sum.family(family).ends_game(p));
    let components = play::apply(sum.components(), mv);
    sum.set_components(components);
    let over = ends || play::legal_moves(sum)?.is_empty();
    Ok((json::sum_text(sum), over))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyRequest {
    sum: String,
    component: usize,
    to: Vec<String>,
    /// Accepted as in the other play requests; a move is the same under
    /// either convention.
    #[serde(default, rename = "misere")]
    _misere: bool,
    #[serde(default)]
    files: Files,
}

async fn apply(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: ApplyRequest = read(body, server.limits.max_body)?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut sum = parse_sum(&worker, &request.sum, &request.files, budget)?;
            let count = sum.components().len();
            if request.component >= count {
                return Err(ApiError::bad(format!(
                    "component {} does not exist: the sum has {count} (counted from 0)",
                    request.component
                )));
            }
            let legal = play::legal_moves(&mut sum)?;
            let mut sorted = request.to.clone();
            sorted.sort();
            let chosen = legal
                .iter()
                .filter(|m| m.component == request.component)
                .find(|m| move_key(&sum, m).1 == request.to)
                .or_else(|| {
                    legal
                        .iter()
                        .filter(|m| m.component == request.component)
                        .find(|m| {
                            let mut parts = move_key(&sum, m).1;
                            parts.sort();
                            parts == sorted
                        })
                })
                .cloned();
            let Some(chosen) = chosen else {
                let c = &sum.components()[request.component];
                let options: Vec<String> = legal
                    .iter()
                    .filter(|m| m.component == request.component)
                    .take(12)
                    .map(|m| {
                        let parts = move_key(&sum, m).1;
                        if parts.is_empty() {
                            "(nothing)".to_string()
                        } else {
                            parts.join(" + ")
                        }
                    })
                    .collect();
                let to = if request.to.is_empty() {
                    "(nothing)".to_string()
                } else {
                    request.to.join(" + ")
                };
                return Err(ApiError::bad(format!(
                    "{} -> {to} is not a move of component {}; its moves lead to: {}",
                    sum.format(c.family, &c.position),
                    request.component,
                    if options.is_empty() {
                        "none (it is finished)".to_string()
                    } else {
                        options.join(", ")
                    }
                )));
            };
            let (text, over) = after(&mut sum, &chosen)?;
            Ok(Json(object!({ "sum": text, "over": over })))
        })
        .await
}

async fn reply(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: PlayRequest = read(body, server.limits.max_body)?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut sum = parse_sum(&worker, &request.sum, &request.files, budget)?;
            let max_states = worker.limits.max_states;
            let (winner, _, _) = play::assess(&mut sum, request.misere, max_states)?;
            let Some(chosen) = play::choose_move(&mut sum, request.misere, max_states)? else {
                return Ok(Json(object!({
                    "move": null,
                    "sum": json::sum_text(&sum),
                    "over": true,
                })));
            };
            let mv = move_object(&sum, &chosen);
            let (text, over) = after(&mut sum, &chosen)?;
            Ok(Json(object!({
                "move": mv,
                "sum": text,
                "over": over,
                "winning": winner == Winner::First,
            })))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeqRequest {
    game: String,
    #[serde(default)]
    from: u64,
    to: u64,
    #[serde(default)]
    files: Files,
}

async fn seq(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: SeqRequest = read(body, server.limits.max_body)?;
    let (from, to) = (request.from, request.to);
    check_range(from, to, SEQ_HEAPS, "POST /api/jobs for longer runs")?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut settings = worker.settings();
            settings.max_states = settings.max_states.max(to as usize + 1);
            let mut family = parse_family(&request.game, settings, &request.files, budget)?;
            let mut values = Vec::with_capacity((to - from + 1) as usize);
            family.sequence(from, to, &mut |_, v| {
                values.push(v);
                Ok(())
            })?;
            Ok(Json(object!({ "from": from, "to": to, "values": values })))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PeriodRequest {
    game: String,
    max: Option<u64>,
    #[serde(default)]
    files: Files,
}

async fn period(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: PeriodRequest = read(body, server.limits.max_body)?;
    let max = request.max.unwrap_or(PERIOD_MAX);
    let limit = server.limits.max_heaps;
    if max > limit {
        return Err(ApiError::bad(format!(
            "max {max} is more heaps than the server tabulates ({limit}); use `grundy period` for more"
        )));
    }
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut settings = worker.settings();
            settings.max_states = settings.max_states.max(max.saturating_add(1) as usize);
            let mut family = parse_family(&request.game, settings, &request.files, budget)?;
            let report = family.period(max)?;
            Ok(Json(json::period_object(family.as_ref(), &report)))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternRequest {
    game: String,
    max: Option<u64>,
    #[serde(default)]
    outcome: bool,
    #[serde(default)]
    files: Files,
}

/// `grundy pattern --json`, plus `code`: the function in each language
/// (`null` when there is no pattern).
async fn pattern(State(server): State<Arc<Server>>, body: Body) -> Answer {
    use grundy::pattern::{code, find_game, Language};
    let request: PatternRequest = read(body, server.limits.max_body)?;
    let max = request.max.unwrap_or(4095);
    let limit = server.limits.max_heaps;
    if max > limit {
        return Err(ApiError::bad(format!(
            "max {max} is more heaps than the server tabulates ({limit}); use `grundy pattern` for more"
        )));
    }
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut settings = worker.settings();
            settings.max_states = settings.max_states.max(max.saturating_add(1) as usize);
            let found = find_game(
                &request.game,
                &mut |part| {
                    let sources = Sources::Given(&request.files);
                    let mut family = spec::parse_game_from(part, settings, &sources)?;
                    family.configure_long_run(budget.long_run());
                    Ok(family)
                },
                max,
                request.outcome,
            )?;
            let mut object = found.to_json();
            object["code"] = serde_json::json!({
                "cpp": code(&found, Language::Cpp).ok(),
                "python": code(&found, Language::Python).ok(),
                "rust": code(&found, Language::Rust).ok(),
            });
            Ok(Json(object))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuotientRequest {
    game: String,
    max_heap: Option<u32>,
    #[serde(default)]
    files: Files,
}

/// The largest heap the server builds a misère quotient to, and the largest
/// quotient it builds.
const QUOTIENT_MAX_HEAP: u32 = 64;
const QUOTIENT_MAX_ORDER: usize = 4096;

/// `grundy quotient --json`.
async fn quotient(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: QuotientRequest = read(body, server.limits.max_body)?;
    let max_heap = request.max_heap.unwrap_or(20);
    if max_heap > QUOTIENT_MAX_HEAP {
        return Err(ApiError::bad(format!(
            "max_heap {max_heap} is beyond the server's quotients (heaps up to {QUOTIENT_MAX_HEAP}); use `grundy quotient` for more"
        )));
    }
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut family = parse_family(&request.game, worker.settings(), &request.files, budget)?;
            let stop = budget.stop.clone();
            let found = grundy::quotient::build(
                family.as_mut(),
                max_heap,
                &grundy::quotient::Limits {
                    max_order: QUOTIENT_MAX_ORDER,
                    max_states: worker.settings().max_states,
                },
                &mut |_, _| {},
                &move || stop.load(std::sync::atomic::Ordering::Relaxed),
            )?;
            if found.max_heap < max_heap {
                return Err(ApiError::bad(format!(
                    "the quotient took too long: heaps up to {} were done; use `grundy quotient` for more",
                    found.max_heap
                )));
            }
            Ok(Json(found.to_json()))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRequest {
    game: String,
    #[serde(default)]
    files: Files,
}

async fn table(State(server): State<Arc<Server>>, body: Body) -> Answer {
    let request: TableRequest = read(body, server.limits.max_body)?;
    let worker = server.clone();
    server
        .run(move |budget| {
            let mut family =
                parse_family(&request.game, worker.settings(), &request.files, budget)?;
            Ok(Json(json::table_object(&family.table()?)))
        })
        .await
}
