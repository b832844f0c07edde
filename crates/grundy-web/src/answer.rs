//! The answers of the web API, whatever carries the requests: each
//! endpoint's JSON body in, the command line's `--json` object out. The
//! server (`grundy serve`) calls [`answer`] on a thread of its own for each
//! request; the page's WebAssembly worker calls it directly.

use crate::budget::{ApiError, Budget, Limits};
use grundy::json;
use grundy::play::{self, SumMove};
use grundy::spec::{self, Sources};
use grundy::sum::{Sum, Winner};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json as object, Value as JsonValue};
use std::collections::{BTreeMap, HashSet};

type Answer = Result<JsonValue, Fail>;

/// Why a request failed: the API's own refusal, or the library's error (told
/// by [`ApiError::from_grundy`] once the budgets are known).
pub enum Fail {
    /// Refused by the API.
    Api(ApiError),
    /// An error of the library.
    Grundy(grundy::Error),
}

impl From<ApiError> for Fail {
    fn from(e: ApiError) -> Self {
        Fail::Api(e)
    }
}

impl From<grundy::Error> for Fail {
    fn from(e: grundy::Error) -> Self {
        Fail::Grundy(e)
    }
}

impl Fail {
    /// The error answer, with budgets named as `limits` names them.
    pub fn told(self, limits: &Limits) -> ApiError {
        match self {
            Fail::Api(e) => e,
            Fail::Grundy(e) => ApiError::from_grundy(e, limits),
        }
    }
}
type Files = BTreeMap<String, String>;

/// The most winning moves `/api/value` lists.
const MAX_MOVES: usize = 100_000;
/// The most legal moves `/api/moves` lists.
const LISTED_MOVES: usize = 5_000;
/// The most heaps `/api/seq` answers at once; longer runs are jobs.
pub const SEQ_HEAPS: u64 = 1_000_001;
/// The default `max` of `/api/period`.
const PERIOD_MAX: u64 = 1 << 20;

/// What a request computes with: the budgets, and the flag that stops it.
pub struct Context<'a> {
    /// The budgets of every request.
    pub limits: &'a Limits,
    /// This request's stop flag.
    pub budget: &'a Budget,
}

impl Context<'_> {
    /// The settings a request computes with.
    pub fn settings(&self) -> grundy::family::Settings {
        self.limits.settings()
    }
}

/// The endpoints [`answer`] knows: `/api/NAME` for each NAME.
pub const ENDPOINTS: [&str; 12] = [
    "games", "value", "explain", "moves", "apply", "reply", "seq", "period", "table", "pattern",
    "quotient", "graph",
];

/// Answers `/api/ENDPOINT` with `body`, the request's JSON (ignored by
/// `games`, which takes none).
pub fn answer(endpoint: &str, body: &[u8], cx: &Context) -> Result<JsonValue, ApiError> {
    route(endpoint, body, cx).map_err(|e| e.told(cx.limits))
}

fn route(endpoint: &str, body: &[u8], cx: &Context) -> Answer {
    match endpoint {
        "games" => Ok(games()),
        "value" => value(read(body)?, cx),
        "explain" => explain(read(body)?, cx),
        "moves" => moves(read(body)?, cx),
        "apply" => apply(read(body)?, cx),
        "reply" => reply(read(body)?, cx),
        "seq" => seq(read(body)?, cx),
        "period" => period(read(body)?, cx),
        "table" => table(read(body)?, cx),
        "pattern" => pattern(read(body)?, cx),
        "quotient" => quotient(read(body)?, cx),
        "graph" => graph(read(body)?, cx),
        _ => Err(ApiError::new(
            404,
            "no such API endpoint; see GET /api/games and the guide's web API reference",
        )
        .into()),
    }
}

/// What a request can be refused for before any computation: its numbers
/// against the budgets.
trait Check {
    fn check(&self, _limits: &Limits) -> Result<(), ApiError> {
        Ok(())
    }
}

impl Check for ExplainRequest {}
impl Check for PlayRequest {}
impl Check for ApplyRequest {}
impl Check for TableRequest {}

fn checked<T: DeserializeOwned + Check>(body: &[u8], limits: &Limits) -> Result<(), ApiError> {
    read::<T>(body)?.check(limits)
}

/// Refuses a request that is malformed or over a budget, without computing:
/// the server does this before it gives the request a thread and a slot.
pub fn check(endpoint: &str, body: &[u8], limits: &Limits) -> Result<(), ApiError> {
    match endpoint {
        "value" => checked::<ValueRequest>(body, limits),
        "explain" => checked::<ExplainRequest>(body, limits),
        "moves" | "reply" => checked::<PlayRequest>(body, limits),
        "apply" => checked::<ApplyRequest>(body, limits),
        "seq" => checked::<SeqRequest>(body, limits),
        "period" => checked::<PeriodRequest>(body, limits),
        "table" => checked::<TableRequest>(body, limits),
        "pattern" => checked::<PatternRequest>(body, limits),
        "quotient" => checked::<QuotientRequest>(body, limits),
        "graph" => checked::<GraphRequest>(body, limits),
        _ => Ok(()),
    }
}

/// Reads a JSON body, or says clearly what is wrong with it.
pub fn read<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the request body is not the JSON expected: {e}")))
}

/// The positions of heaps `0..=to`, as a state budget (saturating where
/// `usize` is narrower, as in a page).
pub fn heaps_to(to: u64) -> usize {
    usize::try_from(to)
        .ok()
        .and_then(|t| t.checked_add(1))
        .unwrap_or(usize::MAX)
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

fn words(sum: &str) -> Vec<String> {
    sum.split_whitespace().map(String::from).collect()
}

/// The sum a request names, reading `script:` and `dag:` texts from its files.
fn parse_sum(cx: &Context, text: &str, files: &Files) -> Result<Sum, Fail> {
    let mut sum = spec::parse_sum_from(&words(text), cx.settings(), &Sources::Given(files))?;
    cx.budget.watch(&mut sum);
    Ok(sum)
}

/// The family a request names, stopping when its budget runs out.
fn parse_family(
    game: &str,
    settings: grundy::family::Settings,
    files: &Files,
    budget: &Budget,
) -> Result<Box<dyn grundy::family::Family>, Fail> {
    let mut family = spec::parse_game_from(game, settings, &Sources::Given(files))?;
    family.configure_long_run(budget.long_run());
    Ok(family)
}

fn games() -> JsonValue {
    json::games_object()
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

impl Check for ValueRequest {
    fn check(&self, limits: &Limits) -> Result<(), ApiError> {
        let find = self.max_moves.unwrap_or(1000);
        if find > MAX_MOVES {
            return Err(ApiError::bad(format!(
                "max_moves {find} is more than the {} lists ({MAX_MOVES})",
                limits.place
            )));
        }
        Ok(())
    }
}

fn value(request: ValueRequest, cx: &Context) -> Answer {
    request.check(cx.limits)?;
    let find = request.max_moves.unwrap_or(1000);
    let mut sum = parse_sum(cx, &request.sum, &request.files)?;
    Ok(if request.misere {
        let analysis = grundy::misere::analyze(&mut sum, find, cx.limits.max_states)?;
        json::misere_object(&sum, &analysis)
    } else {
        let analysis = sum.analyze(find)?;
        json::value_object(&sum, &analysis)
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    game: String,
    position: String,
    #[serde(default)]
    files: Files,
}

fn explain(request: ExplainRequest, cx: &Context) -> Answer {
    let mut family = parse_family(&request.game, cx.settings(), &request.files, cx.budget)?;
    let position = family.parse(&request.position)?;
    Ok(json::explain_object(family.as_mut(), &position)?)
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

fn moves(request: PlayRequest, cx: &Context) -> Answer {
    let mut sum = parse_sum(cx, &request.sum, &request.files)?;
    let legal = play::legal_moves(&mut sum)?;
    let (winner, winning, drawing) = play::assess(&mut sum, request.misere, cx.limits.max_states)?;
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
    Ok(answer)
}

/// The sum after `mv`: its text, and whether the player who made the move
/// ended the game (no move is left, or the move itself ends it, as three
/// in a row does in Treblecross).
fn after(sum: &mut Sum, mv: &SumMove) -> Result<(String, bool), Fail> {
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

fn apply(request: ApplyRequest, cx: &Context) -> Answer {
    let mut sum = parse_sum(cx, &request.sum, &request.files)?;
    let count = sum.components().len();
    if request.component >= count {
        return Err(Fail::Api(ApiError::bad(format!(
            "component {} does not exist: the sum has {count} (counted from 0)",
            request.component
        ))));
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
        return Err(Fail::Api(ApiError::bad(format!(
            "{} -> {to} is not a move of component {}; its moves lead to: {}",
            sum.format(c.family, &c.position),
            request.component,
            if options.is_empty() {
                "none (it is finished)".to_string()
            } else {
                options.join(", ")
            }
        ))));
    };
    let (text, over) = after(&mut sum, &chosen)?;
    Ok(object!({ "sum": text, "over": over }))
}

fn reply(request: PlayRequest, cx: &Context) -> Answer {
    let mut sum = parse_sum(cx, &request.sum, &request.files)?;
    let max_states = cx.limits.max_states;
    let (winner, _, _) = play::assess(&mut sum, request.misere, max_states)?;
    let Some(chosen) = play::choose_move(&mut sum, request.misere, max_states)? else {
        return Ok(object!({
            "move": null,
            "sum": json::sum_text(&sum),
            "over": true,
        }));
    };
    let mv = move_object(&sum, &chosen);
    let (text, over) = after(&mut sum, &chosen)?;
    Ok(object!({
        "move": mv,
        "sum": text,
        "over": over,
        "winning": winner == Winner::First,
    }))
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

impl Check for SeqRequest {
    fn check(&self, _: &Limits) -> Result<(), ApiError> {
        check_range(
            self.from,
            self.to,
            SEQ_HEAPS,
            "POST /api/jobs for longer runs",
        )
    }
}

fn seq(request: SeqRequest, cx: &Context) -> Answer {
    request.check(cx.limits)?;
    let (from, to) = (request.from, request.to);
    let mut settings = cx.settings();
    settings.max_states = settings.max_states.max(heaps_to(to));
    let mut family = parse_family(&request.game, settings, &request.files, cx.budget)?;
    let mut values = Vec::with_capacity((to - from + 1) as usize);
    family.sequence(from, to, &mut |_, v| {
        values.push(v);
        Ok(())
    })?;
    Ok(object!({ "from": from, "to": to, "values": values }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PeriodRequest {
    game: String,
    max: Option<u64>,
    #[serde(default)]
    files: Files,
}

impl Check for PeriodRequest {
    fn check(&self, limits: &Limits) -> Result<(), ApiError> {
        let max = self.max.unwrap_or(PERIOD_MAX);
        let limit = limits.max_heaps;
        if max > limit {
            return Err(ApiError::bad(format!(
                "max {max} is more heaps than the {} tabulates ({limit}); use `grundy period` for more",
                limits.place
            )));
        }
        Ok(())
    }
}

fn period(request: PeriodRequest, cx: &Context) -> Answer {
    request.check(cx.limits)?;
    let max = request.max.unwrap_or(PERIOD_MAX);
    let mut settings = cx.settings();
    settings.max_states = settings.max_states.max(heaps_to(max));
    let mut family = parse_family(&request.game, settings, &request.files, cx.budget)?;
    let report = family.period(max)?;
    Ok(json::period_object(family.as_ref(), &report))
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

impl Check for PatternRequest {
    fn check(&self, limits: &Limits) -> Result<(), ApiError> {
        let max = self.max.unwrap_or(4095);
        let limit = limits.max_heaps;
        if max > limit {
            return Err(ApiError::bad(format!(
                "max {max} is more heaps than the {} tabulates ({limit}); use `grundy pattern` for more",
                limits.place
            )));
        }
        Ok(())
    }
}

/// `grundy pattern --json`, plus `code`: the function in each language
/// (`null` when there is no pattern).
fn pattern(request: PatternRequest, cx: &Context) -> Answer {
    use grundy::pattern::{code, find_game, Language};
    request.check(cx.limits)?;
    let max = request.max.unwrap_or(4095);
    let mut settings = cx.settings();
    settings.max_states = settings.max_states.max(heaps_to(max));
    let found = find_game(
        &request.game,
        &mut |part| {
            let sources = Sources::Given(&request.files);
            let mut family = spec::parse_game_from(part, settings, &sources)?;
            family.configure_long_run(cx.budget.long_run());
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
    Ok(object)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuotientRequest {
    game: String,
    max_heap: Option<u32>,
    #[serde(default)]
    files: Files,
}

/// The largest heap the playground builds a misère quotient to, and the largest
/// quotient it builds.
const QUOTIENT_MAX_HEAP: u32 = 64;
const QUOTIENT_MAX_ORDER: usize = 4096;

impl Check for QuotientRequest {
    fn check(&self, limits: &Limits) -> Result<(), ApiError> {
        let max_heap = self.max_heap.unwrap_or(20);
        if max_heap > QUOTIENT_MAX_HEAP {
            return Err(ApiError::bad(format!(
                "max_heap {max_heap} is beyond the {}'s quotients (heaps up to {QUOTIENT_MAX_HEAP}); use `grundy quotient` for more",
                limits.place
            )));
        }
        Ok(())
    }
}

/// `grundy quotient --json`.
fn quotient(request: QuotientRequest, cx: &Context) -> Answer {
    request.check(cx.limits)?;
    let max_heap = request.max_heap.unwrap_or(20);
    let mut family = parse_family(&request.game, cx.settings(), &request.files, cx.budget)?;
    let stop = cx.budget.stop.clone();
    let found = grundy::quotient::build(
        family.as_mut(),
        max_heap,
        &grundy::quotient::Limits {
            max_order: QUOTIENT_MAX_ORDER,
            max_states: cx.settings().max_states,
        },
        &mut |_, _| {},
        &move || stop.load(std::sync::atomic::Ordering::Relaxed),
    )?;
    if found.max_heap < max_heap {
        return Err(Fail::Api(ApiError::bad(format!(
            "the quotient took too long: heaps up to {} were done; use `grundy quotient` for more",
            found.max_heap
        ))));
    }
    Ok(found.to_json())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRequest {
    game: String,
    #[serde(default)]
    files: Files,
}

fn table(request: TableRequest, cx: &Context) -> Answer {
    let mut family = parse_family(&request.game, cx.settings(), &request.files, cx.budget)?;
    Ok(json::table_object(&family.table()?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GraphRequest {
    sum: String,
    max_nodes: Option<usize>,
    #[serde(default)]
    files: Files,
}

impl Check for GraphRequest {
    fn check(&self, _: &Limits) -> Result<(), ApiError> {
        match self.max_nodes {
            Some(0) => Err(ApiError::bad(
                "max_nodes must be at least 1: a graph has at least its own position",
            )),
            Some(n) if n > grundy::graph::MOST_NODES => Err(ApiError::bad(format!(
                "max_nodes {n} is more than {}: a larger graph cannot be laid out or read",
                grundy::graph::MOST_NODES
            ))),
            _ => Ok(()),
        }
    }
}

/// `grundy graph --json`, with the picture `--svg` draws as `svg`.
fn graph(request: GraphRequest, cx: &Context) -> Answer {
    request.check(cx.limits)?;
    let mut sum = parse_sum(cx, &request.sum, &request.files)?;
    let max_nodes = request
        .max_nodes
        .unwrap_or(grundy::graph::DEFAULT_MAX_NODES);
    let graph = grundy::graph::build(&mut sum, max_nodes)?;
    let mut object = graph.to_json();
    object["svg"] = JsonValue::String(grundy::graph::svg::render(&graph)?);
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(endpoint: &str, body: &str) -> Result<JsonValue, ApiError> {
        let limits = Limits::default();
        let budget = Budget::default();
        answer(
            endpoint,
            body.as_bytes(),
            &Context {
                limits: &limits,
                budget: &budget,
            },
        )
    }

    #[test]
    fn graph_gives_nodes_edges_and_the_picture() {
        let object = ask("graph", r#"{"sum": "sub:1,2,3 7"}"#).unwrap();
        assert_eq!(object["game"], "sub:1-3 7");
        assert_eq!(object["nodes"].as_array().unwrap().len(), 8);
        assert_eq!(object["nodes"][0], object!({"position": "7", "grundy": 3}));
        assert_eq!(object["nodes"][4], object!({"position": "3", "grundy": 3}));
        assert_eq!(object["edges"].as_array().unwrap().len(), 18);
        assert_eq!(object["edges"][0], object!([0, 1]));
        let svg = object["svg"].as_str().unwrap();
        assert!(svg.starts_with("<svg "), "{svg}");
        // The same picture as `grundy graph --svg`.
        let words: Vec<String> = ["sub:1,2,3", "7"].map(String::from).to_vec();
        let mut sum = spec::parse_sum(&words, Limits::default().settings()).unwrap();
        let graph = grundy::graph::build(&mut sum, 100).unwrap();
        assert_eq!(svg, grundy::graph::svg::render(&graph).unwrap());
    }

    #[test]
    fn graph_refuses_a_large_graph_and_bad_input_with_400() {
        let e = ask("graph", r#"{"sum": "nim 150"}"#).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(
            e.message.contains("more than 100 positions"),
            "{}",
            e.message
        );
        let e = ask("graph", r#"{"sum": "nim 20", "max_nodes": 5}"#).unwrap_err();
        assert!(e.message.contains("more than 5 positions"), "{}", e.message);
        assert!(ask("graph", r#"{"sum": "sub:1,2,3 150", "max_nodes": 200}"#).is_ok());
        let e = ask("graph", r#"{"sum": "nim 150", "max_nodes": 200}"#).unwrap_err();
        assert!(e.message.contains("too tangled to draw"), "{}", e.message);
        let e = ask("graph", r#"{"sum": "nope 3"}"#).unwrap_err();
        assert_eq!(e.status, 400);
        let limits = Limits::default();
        for body in [
            r#"{"sum": "nim 3", "max_nodes": 0}"#,
            r#"{"sum": "nim 3", "max_nodes": 100000}"#,
            r#"{"sum": "nim 3", "extra": 1}"#,
        ] {
            let e = check("graph", body.as_bytes(), &limits).unwrap_err();
            assert_eq!(e.status, 400, "{body}");
        }
    }

    #[test]
    fn bad_requests_are_refused_before_any_computation() {
        let limits = Limits::default();
        let refused = |endpoint: &str, body: &str| check(endpoint, body.as_bytes(), &limits);
        assert!(refused("value", r#"{"sum": "nim 3"}"#).is_ok());
        let e = refused("value", "not json").unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("not the JSON expected"), "{}", e.message);
        let e = refused("value", r#"{"sum": "nim 3", "max_moves": 100001}"#).unwrap_err();
        assert!(
            e.message.contains("more than the server lists"),
            "{}",
            e.message
        );
        let e = refused("seq", r#"{"game": "0.07", "from": 5, "to": 1}"#).unwrap_err();
        assert!(e.message.contains("nothing to list"), "{}", e.message);
        let e = refused("period", r#"{"game": "0.07", "max": 1000000000000}"#).unwrap_err();
        assert!(
            e.message.contains("more heaps than the server tabulates"),
            "{}",
            e.message
        );
        let e = refused("quotient", r#"{"game": "kayles", "max_heap": 65}"#).unwrap_err();
        assert!(
            e.message.contains("beyond the server's quotients"),
            "{}",
            e.message
        );
        assert!(refused("explain", r#"{"game": "nim", "position": "3", "extra": 1}"#).is_err());
        // What only a computation can tell (a wrong game) waits for it.
        assert!(refused("value", r#"{"sum": "nope 3"}"#).is_ok());
    }

    #[test]
    fn a_state_budget_for_heaps_never_wraps() {
        assert_eq!(heaps_to(0), 1);
        assert_eq!(heaps_to(41), 42);
        assert_eq!(heaps_to(u64::MAX), usize::MAX);
    }
}
