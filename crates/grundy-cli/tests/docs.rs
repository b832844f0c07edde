//! Every `$ grundy ...` (and `$ grundy-verify ...`) example of README.md and of the guide (`docs/src`)
//! runs and prints what the page shows, so the pages cannot drift from the
//! binary.
//!
//! Examples are the fenced blocks whose info string is `console`. In them
//! a line `$ grundy ...` is a command (run from the repository root, with
//! `KEY=value` words before `grundy` set in its environment); the lines
//! after it, up to the next `$ ` or the end of the block, are what it
//! prints, stdout and stderr together. A line `? N` right after the command
//! or at the end of its output gives its exit status (0 otherwise). In the
//! output, a line `...` stands for any number of lines and `[..]` for any
//! part of a line (snapbox's elisions), for output that depends on the
//! machine or is too long to show.
//!
//! `GRUNDY_DOCS="docs/src/tutorial/*.md" cargo test -p grundy-cli --test docs`
//! checks some pages only (paths from the repository root; `*` matches
//! within a file name).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One example: where it is, the command's words, its status and output.
struct Example {
    page: PathBuf,
    line: usize,
    words: Vec<String>,
    status: i32,
    expected: String,
}

/// The `console` examples of a Markdown page.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        let ticks = fence.len() - fence.trim_start_matches('`').len();
        if ticks < 3 {
            i += 1;
            continue;
        }
        let info = fence[ticks..].trim();
        let close = &fence[..ticks];
        let mut j = i + 1;
        let mut block = Vec::new();
        while j < lines.len() && !lines[j].trim_start().starts_with(close) {
            block.push((j + 1, lines[j]));
            j += 1;
        }
        if info.split([',', ' ']).next() == Some("console") {
            let mut k = 0;
            while k < block.len() {
                let (line, text) = block[k];
                let command = text.strip_prefix("$ ").unwrap_or_else(|| {
                    panic!(
                        "{}:{line}: a console block's lines start with `$ `",
                        page.display()
                    )
                });
                let words = shlex::split(command)
                    .unwrap_or_else(|| panic!("{}:{line}: unbalanced quotes", page.display()));
                k += 1;
                let mut output = Vec::new();
                while k < block.len() && !block[k].1.starts_with("$ ") {
                    output.push(block[k].1);
                    k += 1;
                }
                let mut status = 0;
                let status_at = match (output.first(), output.last()) {
                    (Some(first), _) if first.starts_with("? ") => Some(0),
                    (_, Some(last)) if last.starts_with("? ") => Some(output.len() - 1),
                    _ => None,
                };
                if let Some(at) = status_at {
                    status = output[at][2..].trim().parse().unwrap_or_else(|_| {
                        panic!("{}:{line}: `? N` takes an exit status", page.display())
                    });
                    output.remove(at);
                }
                let mut expected = output.join("\n");
                if !expected.is_empty() {
                    expected.push('\n');
                }
                found.push(Example {
                    page: page.to_path_buf(),
                    line,
                    words,
                    status,
                    expected,
                });
            }
        }
        i = j + 1;
    }
    found
}

/// Runs an example's command; its status and what it printed.
fn run(example: &Example) -> (i32, String) {
    let mut words = example.words.iter();
    let mut environment = Vec::new();
    let program = loop {
        let word = words
            .next()
            .unwrap_or_else(|| panic!("{}:{}: no command", example.page.display(), example.line));
        match word.split_once('=') {
            Some((key, value)) if !word.starts_with('-') => environment.push((key, value)),
            _ => match word.as_str() {
                "grundy" => break PathBuf::from(env!("CARGO_BIN_EXE_grundy")),
                "grundy-verify" => break grundy_verify(),
                _ => panic!(
                    "{}:{}: examples run grundy and grundy-verify only",
                    example.page.display(),
                    example.line
                ),
            },
        }
    };
    let mut command = Command::new(program);
    command.envs(environment);
    // stdout and stderr into one file, in the order they were written.
    let path = capture_path(&example.page, example.line);
    let capture = std::fs::File::create(&path).unwrap();
    let status = command
        .args(words)
        .stdin(Stdio::null())
        .stdout(capture.try_clone().unwrap())
        .stderr(capture)
        .status()
        .unwrap();
    let printed = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    (status.code().unwrap_or(-1), printed)
}

/// The certificate checker, a binary of another package of the workspace,
/// built beside `grundy` by `cargo test --workspace`.
fn grundy_verify() -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_grundy")).with_file_name("grundy-verify");
    assert!(
        path.exists(),
        "{} is missing: run cargo build -p grundy-verify (cargo test --workspace builds it)",
        path.display()
    );
    path
}

/// A scratch file for what one example prints.
fn capture_path(page: &Path, line: usize) -> PathBuf {
    let name = page.to_string_lossy().replace(['/', '.'], "_");
    std::env::temp_dir().join(format!(
        "grundy-docs-{}-{name}-{line}.out",
        std::process::id()
    ))
}

/// The pages to check: README.md and every page of the guide, or those
/// `GRUNDY_DOCS` names.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut all = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                all.push(path);
            }
        }
    }
    all.sort();
    let Ok(wanted) = std::env::var("GRUNDY_DOCS") else {
        return all;
    };
    let patterns: Vec<String> = wanted.split_whitespace().map(String::from).collect();
    all.into_iter()
        .filter(|path| {
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .to_string();
            patterns
                .iter()
                .any(|pattern| match pattern.split_once('*') {
                    Some((head, tail)) => {
                        relative.starts_with(head)
                            && relative.ends_with(tail)
                            && !relative[head.len()..relative.len() - tail.len()].contains('/')
                    }
                    None => relative == *pattern,
                })
        })
        .collect()
}

#[test]
fn documented_examples_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    std::env::set_current_dir(&root).unwrap();
    let assert = snapbox::Assert::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages(&root) {
        for example in examples(&page) {
            count += 1;
            let relative = page.strip_prefix(&root).unwrap().display().to_string();
            let place = format!("{relative}:{}", example.line);
            let (status, printed) = run(&example);
            if status != example.status {
                failures.push(format!(
                    "{place}: `{}` exited with {status}, the page says {}:\n{printed}",
                    example.words.join(" "),
                    example.status
                ));
                continue;
            }
            let checked = assert.try_eq(
                Some(&place),
                snapbox::Data::text(printed),
                snapbox::Data::text(example.expected.clone()),
            );
            if let Err(e) = checked {
                failures.push(format!("{place}: `{}`\n{e}", example.words.join(" ")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} documented examples differ from the binary:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{count} documented examples run as the pages say");
}
