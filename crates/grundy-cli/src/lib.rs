//! The `grundy` command line: who wins a sum of impartial games, and how.
//!
//! [`run`] is the whole command: it reads the arguments, does the work and
//! writes what the `grundy` binary writes, through a [`Host`] that gives it
//! its input and output streams, a way to show progress and a flag that
//! stops long work. The binary (`src/main.rs`) hands it the process's own
//! streams and Ctrl-C; a WebAssembly module in a browser hands it buffers,
//! and its worker's messages.
//!
//! This crate only reads arguments and prints; every rule of every game lives in
//! the `grundy` library.
//!
//! # Features
//!
//! `native` (on by default) is everything that needs a whole operating
//! system: `grundy serve` (the web playground), `grundy census` (threads
//! and files), the progress bar drawn on a terminal, and Ctrl-C. Without
//! it the crate is a library that builds for `wasm32-unknown-unknown`;
//! `serve` and `census` are then refused with one line on stderr and
//! status 2, and progress goes only to [`Host::progress`].

mod census;
mod long_run;
mod output;
mod play;
mod plot;

/// What needs the operating system (the server, the census, the terminal's
/// progress bar, Ctrl-C), or the refusal of it without the `native` feature.
#[cfg(feature = "native")]
#[path = "native.rs"]
mod platform;
#[cfg(not(feature = "native"))]
#[path = "hosted.rs"]
mod platform;

#[cfg(feature = "native")]
pub use platform::ctrl_c;

use clap::{Parser, Subcommand};
use grundy::family::{parse_heap, Settings};
use grundy::solve::DEFAULT_MAX_STATES;
use grundy::{spec, Error};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Reports the progress of long work: `(done, total)`, where `total` is the
/// heaps (or cells) wanted and `done` how many are computed; a `total` of 0
/// means open-ended work, and `done` then counts the positions searched.
pub type Progress = Arc<dyn Fn(u64, u64) + Send + Sync>;

/// What the command line needs from where it runs.
pub struct Host<'a> {
    /// What `grundy play` reads the person's moves from.
    pub stdin: &'a mut dyn BufRead,
    /// Results. [`run`] flushes it before it returns.
    pub stdout: &'a mut dyn Write,
    /// Errors, warnings and notes.
    pub stderr: &'a mut dyn Write,
    /// Progress of long work (see [`Progress`]), called now and then while
    /// the work goes on, and not at all with `--quiet`. `None`: the
    /// binary's behaviour, a progress bar on stderr when stderr is a
    /// terminal (with the `native` feature; without it, no progress).
    pub progress: Option<Progress>,
    /// Set it to stop the work under way, as Ctrl-C does natively: the
    /// command then ends as the binary does when interrupted (status 130,
    /// what was computed kept or printed). With `ctrl_c()` here (the
    /// `native` feature), Ctrl-C sets it.
    pub interrupted: Arc<AtomicBool>,
}

/// Runs `grundy ARGS...` and returns its exit status, writing exactly what
/// the `grundy` binary writes for the same arguments and input.
///
/// `args[0]` is the program's name, as in [`std::env::args_os`]; a
/// `Vec<String>` will do. The status is 0 on success (and when a reader
/// of stdout went away), 2 for bad input or a failure, 130 when
/// [`Host::interrupted`] stopped the work. The work runs on the calling
/// thread: searches recurse as deep as games last, so give it a roomy stack
/// (the binary gives 1 GiB).
pub fn run<I, T>(args: I, host: &mut Host<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let cli = match Cli::try_parse_from(marked_args(args)) {
        Ok(cli) => cli,
        Err(e) => return argument_error(e, host),
    };
    // GRUNDY_SIMD forces an instruction path; a wrong value stops here,
    // before any work, rather than being ignored.
    if let Err(e) = grundy::heap::simd::Path::from_env() {
        let _ = writeln!(host.stderr, "error: {e}");
        return 2;
    }
    if let Err(e) = grundy::search::threads_from_env() {
        let _ = writeln!(host.stderr, "error: {e}");
        return 2;
    }
    if let Some(warning) = grundy::search::threads_warning() {
        let _ = writeln!(host.stderr, "warning: {warning}");
    }
    let result = execute(cli.command, host).and_then(|()| host.stdout.flush().map_err(io_error));
    match result {
        Ok(()) => 0,
        Err(Failure::BrokenPipe) => 0,
        Err(Failure::Grundy(e)) => {
            // What was printed comes before the error that ended it.
            let _ = host.stdout.flush();
            output::report_error(host.stderr, &e);
            // 130 is what shells report for a process stopped by Ctrl-C.
            let interrupted = matches!(e, Error::Interrupted(_));
            if interrupted {
                130
            } else {
                2
            }
        }
    }
}

/// Help and version (on stdout, status 0), the help shown for a command
/// given without its arguments (on stderr, status 2), or a mistake in the
/// arguments: one line, as every other error, status 2.
fn argument_error(e: clap::Error, host: &mut Host<'_>) -> u8 {
    use clap::error::ErrorKind;
    use std::io::IsTerminal;
    // The binary on a terminal gets clap's colours; anything else (a pipe,
    // a page) the plain text clap prints when not on a terminal.
    let to_stdout = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
    let terminal = host.progress.is_none()
        && if to_stdout {
            std::io::stdout().is_terminal()
        } else {
            std::io::stderr().is_terminal()
        };
    let text = e.render().to_string();
    let shown = if terminal {
        e.render().ansi().to_string()
    } else {
        text.clone()
    };
    if to_stdout {
        let _ = host.stdout.write_all(shown.as_bytes());
        let _ = host.stdout.flush();
        return 0;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = host.stderr.write_all(shown.as_bytes());
        let _ = host.stderr.flush();
        return 2;
    }
    // One line, as every other error: clap's first line says what is wrong.
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = lines.next().unwrap_or("invalid arguments").to_string();
    // "the following required arguments were not provided:" names
    // them on the lines after it.
    if first.ends_with(':') {
        let named: Vec<&str> = lines
            .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
            .collect();
        first = format!("{first} {}", named.join(", "));
    }
    let _ = writeln!(host.stderr, "{first} (see `grundy --help`)");
    2
}

#[derive(Parser)]
#[command(
    name = "grundy",
    version,
    about = "Sprague-Grundy values, winners and winning moves of impartial games",
    after_help = "Run `grundy games` for every family of games and its syntax."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Limits {
    /// The most positions to tabulate or remember before giving up.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES, value_parser = parse_max_states)]
    max_states: usize,
    /// Memory for the transposition table of a search (cram, chomp,
    /// nodekayles): bytes, or a number with K, M, G or T, at most this
    /// machine's memory.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_table_size)]
    tt_size: usize,
    /// Give up when grundy holds more memory than this while remembering
    /// positions, or before a table of values larger than this: bytes, or a
    /// number with K, M, G or T (default: half of this machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<usize>,
}

impl Limits {
    /// The library's settings; also sets the process's memory budget, which
    /// every search of this command shares.
    fn settings(&self) -> Settings {
        grundy::memory::set_budget(self.max_memory.unwrap_or(0) as u64);
        Settings {
            max_states: self.max_states,
            tt_bytes: self.tt_size,
        }
    }
}

/// Reads a memory size: `1048576`, `512M`, `2G`.
/// `--max-states`: a count of at least 1 (no work fits in none).
fn parse_max_states(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a whole number")),
    }
}

fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "{text:?} is not a size: write bytes, or a number with K, M, G or T (512M, 2G)"
            ))
        }
    };
    let n: usize = digits.parse().map_err(|_| {
        format!("{text:?} is not a size: write bytes, or a number with K, M, G or T (512M, 2G)")
    })?;
    n.checked_mul(1usize << shift)
        .ok_or_else(|| format!("{text:?} is more memory than this machine can address"))
}

/// Reads `--tt-size`: a size, and no more than this machine's memory (a
/// table is touched as it fills, so too large a one would only be found out
/// when the machine starts to swap).
fn parse_table_size(text: &str) -> Result<usize, String> {
    let bytes = parse_size(text)?;
    match grundy::memory::machine() {
        Some(machine) if bytes as u64 > machine => Err(format!(
            "a table of {} is more than this machine's memory ({}): give a smaller --tt-size",
            grundy::memory::human(bytes as u64),
            grundy::memory::human(machine)
        )),
        _ => Ok(bytes),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Values, nim-sum, winner and every winning move of a sum of games.
    Value {
        /// The sum: a game, its positions, then `+` and more games and positions.
        #[arg(
            required = true,
            allow_negative_numbers = true,
            value_name = "GAME POS... [+ GAME POS...]"
        )]
        sum: Vec<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Misère play: whoever moves last loses.
        #[arg(long)]
        misere: bool,
        /// List at most this many winning moves (text lists 20 unless this
        /// is given; --json lists up to 1000).
        #[arg(long, value_name = "N")]
        max_moves: Option<usize>,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// Play a sum of games against the computer: moves are I:RESULT (component
    /// I becomes RESULT), and hint, undo, quit (the line protocol: see the
    /// guide, reference/commands.md).
    Play {
        /// The sum: a game, its positions, then `+` and more games and positions.
        #[arg(
            required = true,
            allow_negative_numbers = true,
            value_name = "GAME POS... [+ GAME POS...]"
        )]
        sum: Vec<String>,
        /// Misère play: whoever moves last loses.
        #[arg(long)]
        misere: bool,
        /// Who moves first.
        #[arg(long, value_enum, default_value = "me")]
        first: play::First,
        #[command(flatten)]
        limits: Limits,
    },
    /// The Grundy values of heaps FROM..=TO of a heap game.
    Seq {
        /// The game, e.g. `sub:1,2,3` or `0.07`.
        game: String,
        /// The first heap (default 0).
        #[arg(
            long,
            value_name = "A",
            default_value = "0",
            allow_negative_numbers = true
        )]
        from: String,
        /// The last heap.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        to: String,
        /// Print `{"from":..,"to":..,"values":[...]}`.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print `n,grundy` lines.
        #[arg(long)]
        csv: bool,
        /// Write the values to FILE instead of stdout: a b-file (`n value` lines)
        /// if FILE ends in .txt, else binary, one LEB128 varint per heap.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "csv"])]
        out: Option<std::path::PathBuf>,
        /// Afterwards, recompute N heaps spread over the table by the plain method.
        #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "200")]
        verify: Option<usize>,
        /// Also draw G(n) to FILE.svg, marking the period where one is known;
        /// the values are then printed only with --json, --csv or --out.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<std::path::PathBuf>,
        /// Also write a certificate of G(0) to G(TO) to FILE, for grundy-verify
        /// (take-and-break codes and Grundy's game).
        #[arg(long, value_name = "FILE")]
        certificate: Option<std::path::PathBuf>,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// Find the period of a heap game, and prove it where a theorem allows.
    Period {
        /// The game, e.g. `0.07` or `sub:2,5,7`.
        game: String,
        /// Tabulate at most this many heaps [default: 67108864; 4096 for
        /// codes whose moves leave three heaps].
        #[arg(long, value_name = "N")]
        max: Option<u64>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Also write a certificate of the values tabulated and the period
        /// proven to FILE, for grundy-verify (take-and-break codes and Grundy's game).
        #[arg(long, value_name = "FILE")]
        certificate: Option<std::path::PathBuf>,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// Find the pattern of a game's values (or of who wins), prove it where a
    /// theorem allows, and write it as code.
    Pattern {
        /// The game, e.g. `sub:1,3,4`, `knight:8` or `script:examples/stones.rhai`,
        /// or a sum of two heap games `sub:1,2 + sub:1,3` (positions r,c).
        #[arg(required = true, num_args = 1..)]
        game: Vec<String>,
        /// Tabulate heaps 0 to N (heap games; board games use their table).
        #[arg(long, value_name = "N", default_value_t = 4095)]
        max: u64,
        /// Look for the pattern of P- and N-positions instead of values.
        #[arg(long)]
        outcome: bool,
        /// Print one JSON object.
        #[arg(long, conflicts_with = "emit")]
        json: bool,
        /// Print a function that answers any position in O(1): cpp, python or rust.
        #[arg(long, value_name = "LANG")]
        emit: Option<String>,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// The misère quotient of a heap game (Plambeck-Siegel): the monoid that
    /// answers misère sums of any number of heaps up to N.
    Quotient {
        /// A heap game: an octal or hexadecimal code, `sub:...`, `pow:K`, or a
        /// script whose positions are heaps.
        game: String,
        /// The largest heap the quotient covers.
        #[arg(long, value_name = "N", default_value_t = 20)]
        max_heap: u32,
        /// Give up when the quotient has more elements than this.
        #[arg(long, value_name = "K", default_value_t = 20_000)]
        max_order: usize,
        /// Print one JSON object, with the whole multiplication table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// The board of values of a grid or bar game (knight:8, choco:10x10), rows first.
    Table {
        /// The game, e.g. `knight:8` or `choco:12x12`.
        game: String,
        /// Print `{"table": [[...], ...]}`.
        #[arg(long)]
        json: bool,
        /// Draw the table to FILE.svg as a heat map; it is then printed only with --json.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<std::path::PathBuf>,
        #[command(flatten)]
        run: long_run::RunFlags,
        #[command(flatten)]
        limits: Limits,
    },
    /// A position's options with their values, and the mex that gives its value.
    Explain {
        /// The game, e.g. `sub:1,2,3` or `0.07`.
        game: String,
        /// The position, e.g. `5`.
        #[arg(allow_negative_numbers = true)]
        position: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: Limits,
    },
    /// The game graph of a small position: every position reachable from
    /// it, each move an arrow, each with its Grundy value (P-positions marked).
    Graph {
        /// The position: a game and a position, then `+` and more games and positions.
        #[arg(
            required = true,
            allow_negative_numbers = true,
            value_name = "GAME POS... [+ GAME POS...]"
        )]
        sum: Vec<String>,
        /// Draw the graph, laid out, to FILE.svg instead of listing it.
        #[arg(long, value_name = "FILE.svg", conflicts_with_all = ["dot", "json"])]
        svg: Option<std::path::PathBuf>,
        /// Print the graph in Graphviz's DOT language.
        #[arg(long, conflicts_with = "json")]
        dot: bool,
        /// Print `{"game", "nodes": [{"position", "grundy"}], "edges": [[from, to], ...]}`.
        #[arg(long)]
        json: bool,
        /// Refuse graphs with more positions than this (at most 2000).
        #[arg(long, value_name = "N", default_value_t = grundy::graph::DEFAULT_MAX_NODES)]
        max_nodes: usize,
        #[command(flatten)]
        limits: Limits,
    },
    /// The web playground: analyse, explain, plot and play in a browser.
    Serve {
        /// The address to listen on; 0.0.0.0 lets other machines in.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: any free port).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Open the page in the browser.
        #[arg(long)]
        open: bool,
        /// The most positions one request may remember.
        #[arg(long, value_name = "N", default_value_t = SERVE_MAX_STATES)]
        max_states: usize,
        /// Seconds one request may compute.
        #[arg(long, value_name = "SECONDS", default_value_t = SERVE_SECONDS)]
        seconds: u64,
        /// How many computations may run at once.
        #[arg(long, value_name = "N", default_value_t = SERVE_JOBS)]
        jobs: usize,
    },
    /// Every game of a family (octal, hex or sub codes), one row each:
    /// preperiod, period, whether proven, and how far computed.
    Census {
        #[command(subcommand)]
        family: census::Family,
    },
    /// Every family of games, with its syntax and an example.
    Games {
        /// Print `{"games": [{"spec", "position", "example", "about"}, ...]}`.
        #[arg(long)]
        json: bool,
    },
    /// Nimber arithmetic in Conway's field: add, mul, inv (64-bit values).
    Nimber {
        /// `add A B` (XOR), `mul A B` (nim-product), `inv A` (nim-inverse).
        #[arg(value_enum)]
        op: NimberOp,
        /// The operands: non-negative integers below 2^64.
        #[arg(required = true, num_args = 1..=2, value_name = "A [B]")]
        operands: Vec<String>,
        /// Print `{"op":..,"operands":[..],"result":..}`.
        #[arg(long)]
        json: bool,
    },
}

/// `grundy serve --max-states`'s default: the server's own
/// (`grundy_web::Limits::default()`; a test checks that they agree).
const SERVE_MAX_STATES: usize = 5_000_000;
/// `grundy serve --seconds`'s default, the server's own.
const SERVE_SECONDS: u64 = 20;
/// `grundy serve --jobs`'s default, the server's own.
const SERVE_JOBS: usize = 4;

/// A nimber operation.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
enum NimberOp {
    /// Nim-addition (XOR).
    Add,
    /// Nim-multiplication.
    Mul,
    /// The nim-multiplicative inverse.
    Inv,
}

/// Marks a position that begins with a minus sign (`-1,2`), so that the
/// argument parser does not read it as a flag and the game's own check
/// answers for it ("outside the board"). Whole negative numbers need no mark
/// (`allow_negative_numbers`); the mark is taken off again by [`unmark`].
const NEGATIVE_MARK: char = '\u{1}';

/// The command line, with positions such as `-1,2` marked (see
/// [`NEGATIVE_MARK`]) after the commands that take positions.
fn marked_args<T: Into<OsString>>(args: impl IntoIterator<Item = T>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let takes_positions = args
        .get(1)
        .is_some_and(|c| c == "value" || c == "play" || c == "explain");
    if takes_positions {
        for arg in args.iter_mut().skip(2) {
            let Some(text) = arg.to_str() else { continue };
            let mut chars = text.chars();
            let negative = chars.next() == Some('-')
                && chars.next().is_some_and(|c| c.is_ascii_digit())
                && !text[1..].chars().all(|c| c.is_ascii_digit());
            if negative {
                *arg = format!("{NEGATIVE_MARK}{text}").into();
            }
        }
    }
    args
}

/// A position as typed, without [`NEGATIVE_MARK`].
fn unmark(text: String) -> String {
    match text.strip_prefix(NEGATIVE_MARK) {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// Why a command stopped: a user-facing error, or a reader that went away.
enum Failure {
    Grundy(Error),
    BrokenPipe,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Grundy(e)
    }
}

fn io_error(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Grundy(Error::Io(format!("cannot write output: {e}")))
    }
}

/// Does the work of one command.
fn execute(command: Command, host: &mut Host<'_>) -> Result<(), Failure> {
    let watch = long_run::Watch::of(host);
    let Host {
        stdin,
        stdout: out,
        stderr: err,
        ..
    } = host;
    match command {
        Command::Value {
            sum,
            json,
            misere: true,
            max_moves,
            run,
            limits,
        } => {
            let sum: Vec<String> = sum.into_iter().map(unmark).collect();
            let mut sum = spec::parse_sum(&sum, limits.settings())?;
            long_run::show_progress(&mut sum, &watch, &run);
            let (find, shown) = move_limits(max_moves);
            let analysis = grundy::misere::analyze(&mut sum, find, limits.max_states)?;
            if json {
                output::misere_json(out, &sum, &analysis)
            } else {
                output::misere_text(out, &sum, &analysis, shown)
            }
            .map_err(io_error)
        }
        Command::Play {
            sum,
            misere,
            first,
            limits,
        } => {
            let sum: Vec<String> = sum.into_iter().map(unmark).collect();
            let mut sum = spec::parse_sum(&sum, limits.settings())?;
            long_run::show_progress(&mut sum, &watch, &long_run::RunFlags::default());
            play::run(&mut sum, misere, first, limits.max_states, stdin, out)
        }
        Command::Value {
            sum,
            json,
            misere: false,
            max_moves,
            run,
            limits,
        } => {
            let sum: Vec<String> = sum.into_iter().map(unmark).collect();
            let mut sum = spec::parse_sum(&sum, limits.settings())?;
            long_run::show_progress(&mut sum, &watch, &run);
            let (find, shown) = move_limits(max_moves);
            let analysis = sum.analyze(find)?;
            if json {
                output::value_json(out, &sum, &analysis)
            } else {
                output::value_text(out, &sum, &analysis, shown)
            }
            .map_err(io_error)
        }
        Command::Seq {
            game,
            from,
            to,
            json,
            csv,
            out: out_file,
            verify,
            plot,
            certificate,
            run,
            limits,
        } => {
            distinct_files(&[
                ("--out", out_file.as_deref()),
                ("--checkpoint", run.checkpoint.as_deref()),
                ("--plot", plot.as_deref()),
                ("--certificate", certificate.as_deref()),
            ])?;
            let from = heap_bound(&from, "--from")?;
            let to = heap_bound(&to, "--to")?;
            if from > to {
                return Err(Error::invalid(format!(
                    "--from {from} is after --to {to}: nothing to list"
                ))
                .into());
            }
            let mut family = spec::parse_game(&game, limits.settings())?;
            let certificate = match certificate {
                Some(path) => Some(pending_certificate(family.as_ref(), &path, to, &limits)?),
                None => None,
            };
            long_run::configure(family.as_mut(), &watch, &run)?;
            let print = |family: &mut dyn grundy::family::Family| match out_file {
                Some(path) => output::sequence_to_file(&path, family, from, to),
                None if plot.is_some() && !json && !csv => plot::values_only(family, from, to),
                None => sequence_to_stdout(out, family, from, to, json, csv),
            };
            match &plot {
                Some(svg) => plot::sequence(svg, family.as_mut(), from, to, print)?,
                None => print(family.as_mut())?,
            }
            if let Some(samples) = verify {
                let checked = family.verify(samples)?;
                let _ = writeln!(
                    err,
                    "verified {checked} heaps against the plain method: all agree"
                );
            }
            if let Some(pending) = certificate {
                out.flush().map_err(io_error)?;
                write_certificate(err, family.as_mut(), pending, to.saturating_add(1), None)?;
            }
            Ok(())
        }
        Command::Period {
            game,
            max,
            json,
            certificate,
            run,
            limits,
        } => {
            distinct_files(&[
                ("--checkpoint", run.checkpoint.as_deref()),
                ("--certificate", certificate.as_deref()),
            ])?;
            let mut settings = limits.settings();
            // Asking for N heaps is asking for the memory of N heaps.
            let asked = max.unwrap_or(grundy::period::DEFAULT_MAX);
            settings.max_states = settings.max_states.max(asked.saturating_add(1) as usize);
            let mut family = spec::parse_game(&game, settings)?;
            let max = max.unwrap_or_else(|| family.default_period_max());
            let certificate = match certificate {
                Some(path) => Some(pending_certificate(family.as_ref(), &path, 0, &limits)?),
                None => None,
            };
            long_run::configure(family.as_mut(), &watch, &run)?;
            let report = family.period(max)?;
            if json {
                output::period_json(out, family.as_ref(), &report)
            } else {
                output::period_text(out, family.as_ref(), &report)
            }
            .map_err(io_error)?;
            if let Some(pending) = certificate {
                out.flush().map_err(io_error)?;
                let claim = report.periodicity.as_ref().filter(|_| report.proven);
                write_certificate(err, family.as_mut(), pending, report.checked_to + 1, claim)?;
            }
            Ok(())
        }
        Command::Quotient {
            game,
            max_heap,
            max_order,
            json,
            run,
            limits,
        } => {
            let settings = limits.settings();
            let mut family = spec::parse_game(&game, settings)?;
            let mut long_run = long_run::long_run(&watch, &run, &family.spec());
            let interrupted = long_run.interrupted.clone();
            let quotient = grundy::quotient::build(
                family.as_mut(),
                max_heap,
                &grundy::quotient::Limits {
                    max_order,
                    max_states: settings.max_states,
                },
                &mut long_run.progress,
                &|| interrupted.load(std::sync::atomic::Ordering::Relaxed),
            )?;
            let text = if json {
                format!("{}\n", quotient.to_json())
            } else {
                quotient.to_text()
            };
            out.write_all(text.as_bytes()).map_err(io_error)?;
            if quotient.max_heap < max_heap {
                out.flush().map_err(io_error)?;
                return Err(grundy::Error::Interrupted(format!(
                    "interrupted: the quotient above is of heaps up to {}, not {max_heap}",
                    quotient.max_heap
                ))
                .into());
            }
            Ok(())
        }
        Command::Pattern {
            game,
            max,
            outcome,
            json,
            emit,
            run,
            limits,
        } => {
            use grundy::pattern::{code, find_game, Language};
            let language = emit.as_deref().map(str::parse::<Language>).transpose()?;
            let mut settings = limits.settings();
            settings.max_states = settings.max_states.max(max.saturating_add(1) as usize);
            let game = game.join(" ");
            let pattern = find_game(
                &game,
                &mut |part| {
                    let mut family = spec::parse_game(part, settings)?;
                    long_run::configure(family.as_mut(), &watch, &run)?;
                    Ok(family)
                },
                max,
                outcome,
            )?;
            let text = match language {
                Some(language) => code(&pattern, language)?,
                None if json => format!("{}\n", pattern.to_json()),
                None => pattern.to_text(),
            };
            out.write_all(text.as_bytes()).map_err(io_error)
        }
        Command::Table {
            game,
            json,
            plot,
            run,
            limits,
        } => {
            let mut family = spec::parse_game(&game, limits.settings())?;
            long_run::configure(family.as_mut(), &watch, &run)?;
            let table = match &plot {
                Some(svg) => plot::table(svg, family.as_mut())?,
                None => family.table()?,
            };
            if plot.is_some() && !json {
                return Ok(());
            }
            output::table(out, &table, json).map_err(io_error)
        }
        Command::Explain {
            game,
            position,
            json,
            limits,
        } => {
            let mut family = spec::parse_game(&game, limits.settings())?;
            let position = family.parse(&unmark(position))?;
            let object = grundy::json::explain_object(family.as_mut(), &position)?;
            if json {
                writeln!(out, "{object}")
            } else {
                output::explain_text(out, &object)
            }
            .map_err(io_error)
        }
        Command::Graph {
            sum,
            svg,
            dot,
            json,
            max_nodes,
            limits,
        } => {
            let sum: Vec<String> = sum.into_iter().map(unmark).collect();
            // A bad path fails before any work.
            let file = svg.as_deref().map(plot::create_svg).transpose()?;
            let mut sum = spec::parse_sum(&sum, limits.settings())?;
            let graph = grundy::graph::build(&mut sum, max_nodes)?;
            match file {
                Some(file) => plot::finish(file, &grundy::graph::svg::render(&graph)?),
                None if dot => out.write_all(graph.to_dot().as_bytes()).map_err(io_error),
                None if json => writeln!(out, "{}", graph.to_json()).map_err(io_error),
                None => out.write_all(graph.to_text().as_bytes()).map_err(io_error),
            }
        }
        Command::Serve {
            host,
            port,
            open,
            max_states,
            seconds,
            jobs,
        } => platform::serve(
            out,
            err,
            ServeOptions {
                host,
                port,
                open,
                max_states,
                seconds,
                jobs,
            },
        ),
        Command::Census { family } => platform::census(family, out, err, &watch),
        Command::Games { json: true } => output::games_json(out).map_err(io_error),
        Command::Games { json: false } => output::games(out).map_err(io_error),
        Command::Nimber { op, operands, json } => {
            let arity = if op == NimberOp::Inv { 1 } else { 2 };
            if operands.len() != arity {
                return Err(Error::invalid(format!(
                    "nimber {} takes {arity} operand{}",
                    format!("{op:?}").to_lowercase(),
                    if arity == 1 { "" } else { "s" }
                ))
                .into());
            }
            let mut values = Vec::new();
            for (i, text) in operands.iter().enumerate() {
                let n = parse_heap(text)?;
                values.push(u64::try_from(&n).map_err(|_| {
                    Error::TooLarge(format!(
                        "operand {} ({n}) is beyond 2^64; nimber arithmetic here is on 64-bit nimbers",
                        i + 1
                    ))
                })?);
            }
            let (name, result) = match op {
                NimberOp::Add => ("+", grundy::nimber::nim_add(values[0], values[1])),
                NimberOp::Mul => ("*", grundy::nimber::nim_mul(values[0], values[1])),
                NimberOp::Inv => (
                    "1/",
                    grundy::nimber::nim_inv(values[0]).ok_or_else(|| {
                        Error::invalid("0 has no nim-inverse (it is the field's zero)")
                    })?,
                ),
            };
            let line = if json {
                serde_json::json!({
                    "op": format!("{op:?}").to_lowercase(),
                    "operands": values,
                    "result": result,
                })
                .to_string()
            } else if op == NimberOp::Inv {
                format!("{name}*{} = *{result}", values[0])
            } else {
                format!("*{} {name} *{} = *{result}", values[0], values[1])
            };
            writeln!(out, "{line}").map_err(io_error)
        }
    }
}

/// What `grundy serve` was asked for (read by the server, which only the
/// `native` feature has).
#[cfg_attr(not(feature = "native"), allow(dead_code))]
struct ServeOptions {
    host: String,
    port: u16,
    open: bool,
    max_states: usize,
    seconds: u64,
    jobs: usize,
}

/// How many winning moves to find, and how many text output lists:
/// `--max-moves N` sets both; without it up to 1000 are found (all that JSON
/// lists) and text shows the first [`output::TEXT_MOVES`], counting the rest.
fn move_limits(max_moves: Option<usize>) -> (usize, usize) {
    match max_moves {
        Some(n) => (n, n),
        None => (1000, output::TEXT_MOVES),
    }
}

/// Refuses `--certificate` before any work for games no certificate
/// describes, for more values than the state budget holds (a certificate
/// needs heaps 0 to `to` in memory), and for a path that cannot be written.
fn pending_certificate(
    family: &dyn grundy::family::Family,
    path: &std::path::Path,
    to: u64,
    limits: &Limits,
) -> Result<grundy::certificate::Pending, Failure> {
    if !family.certifiable() {
        return Err(Error::invalid(format!(
            "{}: certificates are written for octal and hexadecimal codes (0.16, hex:0.8C) and Grundy's game",
            family.spec()
        ))
        .into());
    }
    let budget = limits.settings().max_states as u64;
    if to >= budget {
        return Err(Error::TooLarge(format!(
            "a certificate of heaps 0 to {to} needs them all in memory, beyond the state budget ({budget}); raise it with --max-states"
        ))
        .into());
    }
    Ok(grundy::certificate::Pending::create(path)?)
}

/// Writes the certificate of heaps `0..len` and says so on stderr.
fn write_certificate(
    err: &mut dyn Write,
    family: &mut dyn grundy::family::Family,
    pending: grundy::certificate::Pending,
    len: u64,
    claim: Option<&grundy::period::Periodicity>,
) -> Result<(), Failure> {
    let path = pending.path().to_path_buf();
    let written = pending.finish(|out| family.write_certificate(len, claim, out))?;
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        err,
        "certificate: {} ({} of {}, {}{}); check it with: grundy-verify {}",
        path.display(),
        plural(written.values, "value"),
        written.game,
        plural(written.bytes, "byte"),
        if claim.is_some() {
            ", with the period"
        } else {
            ""
        },
        path.display()
    );
    Ok(())
}

fn sequence_to_stdout(
    out: &mut impl Write,
    family: &mut dyn grundy::family::Family,
    from: u64,
    to: u64,
    json: bool,
    csv: bool,
) -> Result<(), Failure> {
    let format = if json {
        output::SeqFormat::Json
    } else if csv {
        output::SeqFormat::Csv
    } else {
        output::SeqFormat::Text
    };
    output::sequence(out, family, from, to, format)
}

/// Refuses, before any work, one file named by two flags: each would write
/// over what the other wrote.
fn distinct_files(files: &[(&str, Option<&std::path::Path>)]) -> Result<(), Error> {
    let named: Vec<(&str, std::path::PathBuf)> = files
        .iter()
        .filter_map(|(flag, path)| {
            let path = (*path)?;
            Some((
                *flag,
                std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            ))
        })
        .collect();
    for (i, (flag, path)) in named.iter().enumerate() {
        if let Some((other, _)) = named[..i].iter().find(|(_, p)| p == path) {
            return Err(Error::invalid(format!(
                "{other} and {flag} name the same file, {}: give each its own",
                path.display()
            )));
        }
    }
    Ok(())
}

fn heap_bound(text: &str, flag: &str) -> Result<u64, Error> {
    let n = parse_heap(text).map_err(|e| match e {
        Error::Syntax {
            message,
            input,
            column,
        } => Error::Syntax {
            message: format!("{flag}: {message}"),
            input,
            column,
        },
        other => other,
    })?;
    u64::try_from(&n).map_err(|_| Error::TooLarge(format!("{flag} {n} is beyond 2^64")))
}
