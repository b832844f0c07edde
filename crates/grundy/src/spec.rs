//! Reading the text that names a game (`sub:1-3,7`, `0.07`, `knight:8`) and the
//! sums built from such names and positions on the command line.

use crate::error::{Error, Result};
use crate::family::{Family, GameFamily, HeapFamily, Settings};
use crate::games::octal::{GrundysGame, TakeBreakGame};
use crate::games::{divide::Divide, nim::Nim, powers::Powers, subtraction::Subtraction};
use crate::search::family::{Kind, SearchFamily};
use crate::sum::Sum;

/// How a family is written, for `grundy games` and the README.
#[derive(Debug, Clone, Copy)]
pub struct FamilyInfo {
    /// The spec syntax, e.g. `sub:S`.
    pub syntax: &'static str,
    /// What a position looks like.
    pub position: &'static str,
    /// A complete example command-line fragment: spec and positions.
    pub example: &'static str,
    /// One line on the rules.
    pub about: &'static str,
}

/// Every built-in family, in the order `grundy games` lists them.
pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        syntax: "nim",
        position: "n",
        example: "nim 3 5 7",
        about: "take any positive number of stones from a heap",
    },
    FamilyInfo {
        syntax: "sub:S",
        position: "n",
        example: "sub:1-3,7 10 11",
        about: "take a number of stones in the set S (a list of numbers and ranges a-b)",
    },
    FamilyInfo {
        syntax: "pow:K",
        position: "n",
        example: "pow:2 100",
        about: "take a power of K stones (1, K, K^2, ...)",
    },
    FamilyInfo {
        syntax: "0.07",
        position: "n",
        example: "0.137 20 + 4.07 9",
        about: "octal take-and-break code d0.d1d2... (also octal:0.07): digit dk says what removing k tokens may leave (1: nothing, 2: one heap, 4: two heaps)",
    },
    FamilyInfo {
        syntax: "hex:0.F",
        position: "n",
        example: "hex:0.F8 30",
        about: "hexadecimal take-and-break code: as octal, and bit 8 of a digit allows leaving three heaps",
    },
    FamilyInfo {
        syntax: "kayles",
        position: "n",
        example: "kayles 10 11",
        about: "Kayles, 0.77: knock down one pin or two adjacent ones from a row",
    },
    FamilyInfo {
        syntax: "dawson",
        position: "n",
        example: "dawson 10",
        about: "Dawson's Kayles, 0.07: knock down two adjacent pins",
    },
    FamilyInfo {
        syntax: "grundy",
        position: "n",
        example: "grundy 17",
        about: "Grundy's game: split a heap into two unequal non-empty heaps",
    },
    FamilyInfo {
        syntax: "sticks[:K]",
        position: "n",
        example: "sticks:3 12",
        about: "remove 1..K consecutive sticks from a row, maybe splitting it (CEOI 2000; K = 3 if omitted; octal 0.77..7)",
    },
    FamilyInfo {
        syntax: "northcott[:K]",
        position: "gap",
        example: "northcott 3 5 + northcott:4 6",
        about: "one column of Northcott's game, as its gap; a move narrows the gap by 1..K (any amount if K is omitted)",
    },
    FamilyInfo {
        syntax: "knight:N",
        position: "r,c",
        example: "knight:8 3,4 7,7",
        about: "a knight on an NxN board moves by (+1,-2) (-1,-2) (-2,+1) (-2,-1); rows and columns from 0; several knights are a sum",
    },
    FamilyInfo {
        syntax: "choco[:RxC]",
        position: "RxC",
        example: "choco 3x5 + choco 4x4",
        about: "chocolate bar: eat the last row or column, or break it in two along a line; 1x1 pieces are eaten at once (RxC: size of `grundy table`)",
    },
    FamilyInfo {
        syntax: "treblecross",
        position: "..X..",
        example: "treblecross ..X......X",
        about: "mark an empty cell of a row (. empty, X marked); whoever makes three marks in a row wins",
    },
    FamilyInfo {
        syntax: "dag:FILE",
        position: "vertex",
        example: "dag:graph.txt a b",
        about: "move a pebble along an edge of a graph (file: one `FROM TO` per line, # comments; cycles allowed: draws)",
    },
    FamilyInfo {
        syntax: "script:FILE",
        position: "script's",
        example: "script:examples/divide.rhai 100",
        about: "a game whose moves a Rhai script defines: fn moves(pos) returns the options (see the guide's Rhai reference)",
    },
    FamilyInfo {
        syntax: "cram[:RxC]",
        position: "RxC or ../.#",
        example: "cram 5x8",
        about: "place a domino on two adjacent empty cells (rows of `.` empty, `#` filled, joined by `/`); searched, up to 128 cells (RxC: size of `grundy table`)",
    },
    FamilyInfo {
        syntax: "chomp[:RxC]",
        position: "RxC or 5,5,3",
        example: "chomp 12x12",
        about: "take a cell and every cell above and right of it; the poisoned corner may not be taken (row lengths bottom first); searched (RxC: size of `grundy table`)",
    },
    FamilyInfo {
        syntax: "nodekayles:FILE",
        position: "all or a,b,c",
        example: "nodekayles:graph.txt all",
        about: "take a vertex of a graph with its neighbours (file as for dag:, edges undirected; up to 128 vertices); searched",
    },
    FamilyInfo {
        syntax: "div:D",
        position: "n",
        example: "div:2,3,6 1000000000000000000",
        about: "replace a heap n >= 1 by floor(n/d) for a d in the list D (each d >= 2)",
    },
    FamilyInfo {
        syntax: "staircase",
        position: "n1,n2,...",
        example: "staircase 3,1,2",
        about: "Staircase Nim: the coins on steps 1, 2, ...; move coins from one step to the step below (from step 1 they leave); value: the nim-sum of the odd steps",
    },
    FamilyInfo {
        syntax: "moore:K",
        position: "n1,n2,...",
        example: "moore:2 1,2,3",
        about: "Moore's Nim_K: the heaps of one game; take stones from at least 1 and at most K heaps; values searched, the winner by Moore's theorem for any size",
    },
    FamilyInfo {
        syntax: "hackenbush:FILE",
        position: "all or 1,2,5",
        example: "hackenbush:examples/hackenbush-tree.txt all",
        about: "Green Hackenbush: cut an edge; what no longer reaches the ground (vertex 0) falls (file: one edge `U V` per line, # comments; positions: edge numbers in file order; up to 128 edges)",
    },
];

/// Largest number accepted in a subtraction set or as a parameter.
const MAX_PARAMETER: u64 = 1 << 40;
/// Largest number of elements of a subtraction set or divisor list.
const MAX_SET_SIZE: usize = 100_000;

/// Reads a game spec such as `sub:1,2,3` into a family ready to solve.
///
/// ```
/// use grundy::family::Settings;
/// use grundy::spec::parse_game;
///
/// let mut dawson = parse_game("0.07", Settings::default())?;
/// let mut values = Vec::new();
/// dawson.sequence(0, 9, &mut |_, v| Ok(values.push(v)))?;
/// assert_eq!(values, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]); // OEIS A002187
/// let report = dawson.period(1 << 12)?;
/// assert!(report.proven);
/// assert_eq!(report.periodicity.unwrap().period, 34);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn parse_game(spec: &str, settings: Settings) -> Result<Box<dyn Family>> {
    parse_game_from(spec, settings, &Sources::Disk)
}

/// Where `script:NAME` and `dag:NAME` find their text.
#[derive(Debug, Clone, Copy)]
pub enum Sources<'a> {
    /// NAME is a path on this machine's disk (the command line); in a page,
    /// a file the page gave ([`crate::page::set_files`]).
    Disk,
    /// NAME is a key of this map, and nothing else is read: a server gives
    /// the texts a request carried, and never opens a path a client names.
    Given(&'a std::collections::BTreeMap<String, String>),
}

impl Sources<'_> {
    /// The text of `name`, or an error naming `what` it should have been.
    pub fn read(&self, name: &str, what: &str) -> Result<String> {
        match self {
            Sources::Disk if crate::IN_BROWSER => crate::page::file(name).ok_or_else(|| {
                Error::Io(format!(
                    "cannot read {what} {name}: grundy in the browser reads only the files the page gives it"
                ))
            }),
            Sources::Disk => std::fs::read_to_string(name)
                .map_err(|e| Error::Io(format!("cannot read {what} {name}: {e}"))),
            Sources::Given(files) => files.get(name).cloned().ok_or_else(|| {
                let known: Vec<&str> = files.keys().map(String::as_str).collect();
                Error::invalid(if known.is_empty() {
                    format!("no {what} named {name} was given: send its text in `files`")
                } else {
                    format!(
                        "no {what} named {name} was given (the files given are: {})",
                        known.join(", ")
                    )
                })
            }),
        }
    }
}

/// [`parse_game`], reading the texts of `script:` and `dag:` games from `sources`.
pub fn parse_game_from(
    spec: &str,
    settings: Settings,
    sources: &Sources,
) -> Result<Box<dyn Family>> {
    let (name, params) = match spec.find(':') {
        Some(i) => (&spec[..i], Some((&spec[i + 1..], i + 1))),
        None => (spec, None),
    };
    let no_params = |family: &str| -> Result<()> {
        match params {
            Some((_, offset)) => Err(Error::syntax(
                format!("{family} takes no parameters"),
                spec,
                Some(offset - 1),
            )),
            None => Ok(()),
        }
    };
    let required = |family: &str, what: &str| -> Result<(&str, usize)> {
        match params {
            Some((text, offset)) if !text.is_empty() => Ok((text, offset)),
            _ => Err(Error::syntax(
                format!("{family} needs {what}, e.g. {}", example_of(family)),
                spec,
                Some(spec.chars().count()),
            )),
        }
    };
    let take_break = |code: &str, offset: usize, hex: bool| -> Result<Box<dyn Family>> {
        let game = TakeBreakGame::parse(code, hex, spec, offset)?;
        Ok(Box::new(HeapFamily::new(game.spec(), game, settings)))
    };
    if spec.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return take_break(spec, 0, false);
    }
    match name {
        "octal" => {
            let (text, offset) = required("octal", "a code")?;
            take_break(text, offset, false)
        }
        "hex" => {
            let (text, offset) = required("hex", "a code")?;
            take_break(text, offset, true)
        }
        "kayles" => {
            no_params("kayles")?;
            take_break("0.77", 0, false)
        }
        "dawson" => {
            no_params("dawson")?;
            take_break("0.07", 0, false)
        }
        "grundy" => {
            no_params("grundy")?;
            Ok(Box::new(HeapFamily::new("grundy", GrundysGame, settings)))
        }
        "sticks" => {
            let k = match params {
                None => 3,
                Some(_) => {
                    let (text, offset) = required("sticks", "a number K")?;
                    let k = parse_number(spec, text, offset, "K")?;
                    if k == 0 || k as usize > crate::games::octal::MAX_DIGITS {
                        return Err(Error::syntax(
                            format!(
                                "sticks:K needs 1 <= K <= {}",
                                crate::games::octal::MAX_DIGITS
                            ),
                            spec,
                            Some(offset),
                        ));
                    }
                    k
                }
            };
            let game = TakeBreakGame::from_digits(
                &std::iter::once(0)
                    .chain(std::iter::repeat_n(7, k as usize))
                    .collect::<Vec<u8>>(),
                false,
            )?;
            Ok(Box::new(HeapFamily::new(
                format!("sticks:{k}"),
                game,
                settings,
            )))
        }
        "northcott" => match params {
            None => Ok(Box::new(Nim::new("northcott"))),
            Some(_) => {
                let (text, offset) = required("northcott", "a number K")?;
                let k = parse_number(spec, text, offset, "K")?;
                if k == 0 || k as usize >= MAX_SET_SIZE {
                    return Err(Error::syntax(
                        format!("northcott:K needs 1 <= K < {MAX_SET_SIZE}"),
                        spec,
                        Some(offset),
                    ));
                }
                Ok(Box::new(HeapFamily::new(
                    format!("northcott:{k}"),
                    Subtraction::new((1..=k).collect()),
                    settings,
                )))
            }
        },
        "knight" => {
            let (text, offset) = required("knight", "a board size N")?;
            let side = parse_number(spec, text, offset, "board size")?;
            if side == 0 || side > crate::games::knight::MAX_SIDE {
                return Err(Error::syntax(
                    format!(
                        "knight:N needs 1 <= N <= {}",
                        crate::games::knight::MAX_SIDE
                    ),
                    spec,
                    Some(offset),
                ));
            }
            Ok(Box::new(crate::games::knight::KnightFamily::new(
                side, settings,
            )))
        }
        "choco" => {
            let size = match params {
                None => (10, 10),
                Some((text, offset)) => crate::games::chocolate::Chocolate::parse_bar(text)
                    .map_err(|e| match e {
                        Error::Syntax {
                            message, column, ..
                        } => Error::syntax(message, spec, column.map(|c| c + offset)),
                        other => other,
                    })?,
            };
            let canonical = if params.is_some() {
                format!("choco:{}x{}", size.0, size.1)
            } else {
                "choco".into()
            };
            Ok(Box::new(crate::games::chocolate::Chocolate::new(
                canonical, size,
            )))
        }
        "cram" | "chomp" => {
            let size = match params {
                None => None,
                Some((text, offset)) => Some(
                    crate::games::chocolate::Chocolate::parse_bar(text).map_err(|e| match e {
                        Error::Syntax {
                            message, column, ..
                        } => Error::syntax(message, spec, column.map(|c| c + offset)),
                        other => other,
                    })?,
                ),
            };
            let canonical = match size {
                Some((r, c)) => format!("{name}:{r}x{c}"),
                None => name.to_string(),
            };
            let size = size.map(|(r, c)| (r as u32, c as u32));
            if name == "cram" {
                if let Some((r, c)) = size {
                    crate::games::cram::Cram.parse(&format!("{r}x{c}"))?;
                }
                Ok(Box::new(
                    SearchFamily::new(crate::games::cram::Cram, settings, size)
                        .with_spec(canonical),
                ))
            } else {
                if let Some((r, c)) = size {
                    crate::games::chomp::Chomp.parse(&format!("{r}x{c}"))?;
                }
                Ok(Box::new(
                    SearchFamily::new(crate::games::chomp::Chomp, settings, size)
                        .with_spec(canonical),
                ))
            }
        }
        "nodekayles" => {
            let (path, _) = required("nodekayles", "a graph file")?;
            let text = sources.read(path, "graph file")?;
            let game = crate::games::nodekayles::NodeKayles::parse(path, &text)?;
            Ok(Box::new(SearchFamily::new(game, settings, None)))
        }
        "staircase" => {
            no_params("staircase")?;
            Ok(Box::new(crate::games::staircase::Staircase))
        }
        "moore" => {
            let (text, offset) = required("moore", "a number K")?;
            let k = parse_number(spec, text, offset, "K")?;
            if k == 0 || k > crate::games::moore::MAX_K {
                return Err(Error::syntax(
                    format!(
                        "moore:K needs 1 <= K <= {} (K: the most heaps a move may take from)",
                        crate::games::moore::MAX_K
                    ),
                    spec,
                    Some(offset),
                ));
            }
            Ok(Box::new(crate::games::moore::Moore::new(k, settings)))
        }
        "hackenbush" => {
            let (path, _) = required("hackenbush", "a graph file")?;
            let text = sources.read(path, "graph file")?;
            Ok(Box::new(crate::games::hackenbush::Hackenbush::parse(
                path, &text,
            )?))
        }
        "dag" => {
            let (path, _) = required("dag", "a graph file")?;
            let text = sources.read(path, "graph file")?;
            Ok(Box::new(crate::games::dag::Dag::parse(path, &text)?))
        }
        "script" => {
            let (path, _) = required("script", "a script file")?;
            let source = sources.read(path, "script")?;
            Ok(Box::new(crate::games::script::ScriptFamily::compile(
                path, &source, settings,
            )?))
        }
        "treblecross" => {
            no_params("treblecross")?;
            Ok(Box::new(crate::games::treblecross::Treblecross::new()))
        }
        "nim" => {
            no_params("nim")?;
            Ok(Box::new(Nim::new("nim")))
        }
        "sub" => {
            let (text, offset) = required("sub", "a subtraction set")?;
            let set = parse_number_list(spec, text, offset, "subtraction set", 1)?;
            let game = Subtraction::new(set);
            let canonical = format!("sub:{}", format_number_list(game.set()));
            Ok(Box::new(HeapFamily::new(canonical, game, settings)))
        }
        "pow" => {
            let (text, offset) = required("pow", "a base K")?;
            let base = parse_number(spec, text, offset, "base")?;
            if base < 2 {
                return Err(Error::syntax(
                    "the base of pow:K must be at least 2 (pow:1 would be sub:1)",
                    spec,
                    Some(offset),
                ));
            }
            Ok(Box::new(HeapFamily::new(
                format!("pow:{base}"),
                Powers::new(base),
                settings,
            )))
        }
        "div" => {
            let (text, offset) = required("div", "a list of divisors")?;
            let divisors = parse_number_list(spec, text, offset, "divisor list", 2)?;
            let canonical = format!("div:{}", format_number_list(&divisors));
            Ok(Box::new(GameFamily::new(
                canonical,
                Divide::new(divisors),
                settings,
                true,
            )))
        }
        _ => Err(Error::syntax(
            format!("unknown game family {name:?}; `grundy games` lists them all"),
            spec,
            Some(0),
        )),
    }
}

fn example_of(family: &str) -> &'static str {
    match family {
        "octal" => return "octal:0.07",
        "knight" => return "knight:8",
        "dag" => return "dag:graph.txt",
        "nodekayles" => return "nodekayles:graph.txt",
        "script" => return "script:examples/kayles.rhai",
        "hex" => return "hex:0.F",
        "sticks" => return "sticks:3",
        "northcott" => return "northcott:2",
        _ => {}
    }
    FAMILIES
        .iter()
        .find(|info| info.syntax.split(':').next() == Some(family))
        .map(|info| info.example.split(' ').next().unwrap_or(""))
        .unwrap_or("")
}

/// Reads one positive number at `offset` of `spec`.
fn parse_number(spec: &str, text: &str, offset: usize, what: &str) -> Result<u64> {
    if text.is_empty() {
        return Err(Error::syntax(
            format!("expected a number in the {what}"),
            spec,
            Some(offset),
        ));
    }
    if text.starts_with('-') {
        return Err(Error::syntax(
            format!("the {what} cannot be negative"),
            spec,
            Some(offset),
        ));
    }
    if let Some((i, c)) = text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(Error::syntax(
            format!("unexpected {c:?} in the {what}: expected a number"),
            spec,
            Some(offset + i),
        ));
    }
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_PARAMETER => Ok(n),
        _ => Err(Error::syntax(
            format!("the {what} {text} is too large (the limit is {MAX_PARAMETER})"),
            spec,
            Some(offset),
        )),
    }
}

/// Reads `a,b,c-d,...` (ranges inclusive), each number at least `min`.
fn parse_number_list(
    spec: &str,
    text: &str,
    offset: usize,
    what: &str,
    min: u64,
) -> Result<Vec<u64>> {
    let mut numbers = Vec::new();
    let mut start = 0;
    for item in text.split(',') {
        let at = offset + start;
        if item.is_empty() {
            return Err(Error::syntax(
                format!("empty element in the {what}"),
                spec,
                Some(at),
            ));
        }
        let (low, high) = match item.find('-') {
            Some(0) => {
                return Err(Error::syntax(
                    format!("negative numbers are not allowed in the {what}: each must be at least {min}"),
                    spec,
                    Some(at),
                ));
            }
            Some(dash) => {
                if dash + 1 == item.len() {
                    return Err(Error::syntax(
                        format!("a range in the {what} needs both ends, like 1-3"),
                        spec,
                        Some(at + dash),
                    ));
                }
                let low = parse_number(spec, &item[..dash], at, what)?;
                let high = parse_number(spec, &item[dash + 1..], at + dash + 1, what)?;
                if low > high {
                    return Err(Error::syntax(
                        format!("the range {item} in the {what} is empty"),
                        spec,
                        Some(at),
                    ));
                }
                (low, high)
            }
            None => {
                let n = parse_number(spec, item, at, what)?;
                (n, n)
            }
        };
        if low < min {
            let why = if min == 2 {
                format!("{low} is not allowed in the {what}: each must be at least 2 (dividing by 1 changes nothing)")
            } else {
                format!("{low} is not allowed in the {what}: each must be at least {min}")
            };
            return Err(Error::syntax(why, spec, Some(at)));
        }
        if (high - low) as usize >= MAX_SET_SIZE
            || numbers.len() + ((high - low) as usize) >= MAX_SET_SIZE
        {
            return Err(Error::syntax(
                format!("the {what} is too large (at most {MAX_SET_SIZE} numbers)"),
                spec,
                Some(at),
            ));
        }
        numbers.extend(low..=high);
        start += item.len() + 1;
    }
    numbers.sort_unstable();
    numbers.dedup();
    Ok(numbers)
}

/// Writes a sorted list back compactly, runs of three or more as ranges.
pub(crate) fn format_number_list(numbers: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", numbers[i], numbers[j]));
        } else {
            for n in &numbers[i..=j] {
                parts.push(n.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(",")
}

/// Reads `GAME POS... [+ GAME POS...]...` into a sum.
pub fn parse_sum(args: &[String], settings: Settings) -> Result<Sum> {
    parse_sum_from(args, settings, &Sources::Disk)
}

/// [`parse_sum`], reading the texts of `script:` and `dag:` games from `sources`.
pub fn parse_sum_from(args: &[String], settings: Settings, sources: &Sources) -> Result<Sum> {
    if args.is_empty() {
        return Err(Error::invalid(
            "no game given: write GAME POS... [+ GAME POS...], e.g. `nim 3 5 7`",
        ));
    }
    let mut sum = Sum::new();
    for (index, group) in args.split(|a| a == "+").enumerate() {
        let Some((spec, positions)) = group.split_first() else {
            return Err(Error::invalid(if index == 0 {
                "a sum cannot start with `+`: write GAME POS... [+ GAME POS...]".to_string()
            } else {
                "a `+` must be followed by a game and its positions, e.g. `+ nim 4`".to_string()
            }));
        };
        if positions.is_empty() {
            return Err(Error::invalid(format!(
                "{spec} needs at least one position after it, e.g. `{}`",
                example_for(spec)
            )));
        }
        let family = sum.add_family(parse_game_from(spec, settings, sources)?);
        let mut strips = None;
        for position in positions {
            // A Cram board one cell wide and too long to search is the octal
            // game 0.07, a heap a run of free cells: it is played as that.
            let long = (spec == "cram" || spec.starts_with("cram:"))
                .then(|| crate::games::cram::long_strip(position))
                .flatten();
            match long {
                Some(heaps) => {
                    let strips = match strips {
                        Some(index) => index,
                        None => *strips.insert(sum.add_family(parse_game("0.07", settings)?)),
                    };
                    for heap in heaps {
                        sum.add_component(strips, &heap.to_string())?;
                    }
                }
                None => sum.add_component(family, position)?,
            }
        }
    }
    Ok(sum)
}

fn example_for(spec: &str) -> String {
    let name = spec.split(':').next().unwrap_or(spec);
    FAMILIES
        .iter()
        .find(|info| info.syntax.split(':').next() == Some(name))
        .map(|info| info.example.to_string())
        .unwrap_or_else(|| format!("{spec} 5"))
}

/// Opens a searching engine for `position` of `game` (`cram` or `chomp`)
/// with a table of `tt_bytes`, for a search spread over a cluster: the
/// names of the distributed families are read here, above both the games
/// and the search, so that imports run one way.
pub fn open_distributed(
    game: &str,
    position: &str,
    tt_bytes: usize,
) -> Result<crate::search::family::Opened> {
    fn with<K: Kind>(
        kind: K,
        position: &str,
        tt_bytes: usize,
    ) -> Result<crate::search::family::Opened> {
        let (shape, root) = kind.parse(position)?;
        let mut engine = kind.engine(shape, tt_bytes, 0)?;
        if engine.distributed().is_none() {
            return Err(Error::invalid(format!(
                "{} {position} is small enough to be tabulated on one machine: use grundy value",
                kind.spec()
            )));
        }
        Ok(crate::search::family::Opened {
            tag: kind.engine_tag(shape),
            engine,
            root,
        })
    }
    match game {
        "cram" => with(crate::games::cram::Cram, position, tt_bytes),
        "chomp" => with(crate::games::chomp::Chomp, position, tt_bytes),
        other => Err(Error::invalid(format!(
            "a distributed search takes cram or chomp, not {other}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(spec: &str) -> Error {
        match parse_game(spec, Settings::default()) {
            Ok(_) => panic!("{spec} should not parse"),
            Err(e) => e,
        }
    }

    #[test]
    fn canonical_specs() {
        let s = Settings::default();
        assert_eq!(parse_game("sub:3,1,2", s).unwrap().spec(), "sub:1-3");
        assert_eq!(parse_game("sub:1-3,7,5", s).unwrap().spec(), "sub:1-3,5,7");
        assert_eq!(parse_game("div:6,2,3", s).unwrap().spec(), "div:2,3,6");
    }

    #[test]
    fn negative_numbers_are_named_as_such() {
        for (spec, column) in [
            ("sub:-1", 4),
            ("sub:2,-3", 6),
            ("div:-2", 4),
            ("knight:-3", 7),
        ] {
            match err(spec) {
                Error::Syntax {
                    message,
                    column: Some(c),
                    ..
                } => {
                    assert!(message.contains("negative"), "{spec}: {message}");
                    assert_eq!(c, column, "{spec}: {message}");
                }
                other => panic!("{spec}: {other:?}"),
            }
        }
    }

    #[test]
    fn bad_specs_point_at_the_problem() {
        assert!(matches!(
            err("foo"),
            Error::Syntax {
                column: Some(0),
                ..
            }
        ));
        assert!(matches!(
            err("sub:"),
            Error::Syntax {
                column: Some(4),
                ..
            }
        ));
        assert!(matches!(err("sub"), Error::Syntax { .. }));
        assert!(matches!(
            err("sub:0"),
            Error::Syntax {
                column: Some(4),
                ..
            }
        ));
        assert!(matches!(
            err("sub:1,,2"),
            Error::Syntax {
                column: Some(6),
                ..
            }
        ));
        assert!(matches!(
            err("sub:1,x"),
            Error::Syntax {
                column: Some(6),
                ..
            }
        ));
        assert!(matches!(err("sub:3-1"), Error::Syntax { .. }));
        assert!(matches!(err("sub:1-"), Error::Syntax { .. }));
        assert!(matches!(
            err("div:1"),
            Error::Syntax {
                column: Some(4),
                ..
            }
        ));
        assert!(matches!(err("pow:1"), Error::Syntax { .. }));
        assert!(matches!(err("nim:3"), Error::Syntax { .. }));
        assert!(matches!(
            err("sub:99999999999999999999999"),
            Error::Syntax { .. }
        ));
        assert!(matches!(err("sub:1-99999999999"), Error::Syntax { .. }));
    }

    #[test]
    fn number_lists_compact() {
        assert_eq!(format_number_list(&[1, 2, 3, 5, 6, 9]), "1-3,5,6,9");
        assert_eq!(format_number_list(&[]), "");
    }
}
