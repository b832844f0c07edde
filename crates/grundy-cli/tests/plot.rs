//! End-to-end tests of `--plot FILE.svg` for `seq` and `table`.

mod common;

use common::{fails, stdout as run};
use std::path::PathBuf;
/// A fresh path for a plot in the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plot-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Checks that `svg` is one well-nested SVG document (tags open and close in
/// order, attributes quoted, text escaped) and returns its elements' names.
fn elements(svg: &str) -> Vec<String> {
    assert!(svg.starts_with("<svg "), "{}", &svg[..svg.len().min(200)]);
    assert!(svg.trim_end().ends_with("</svg>"));
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        let text = &rest[..at];
        assert!(!text.contains('>'), "unescaped > in text {text:?}");
        if let Some(amp) = text.find('&') {
            let entity = &text[amp..];
            assert!(
                ["&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bad entity in {text:?}"
            );
        }
        let end = rest[at..].find('>').expect("a tag is closed") + at;
        let tag = &rest[at + 1..end];
        assert!(!tag.contains('<'), "< inside a tag: {tag:?}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes: {tag:?}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "misnested </{name}>");
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            assert!(!name.is_empty(), "a tag without a name: {tag:?}");
            if !tag.ends_with('/') {
                open.push(name.clone());
            }
            names.push(name);
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    assert_eq!(names[0], "svg");
    names
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn seq_plot_marks_the_preperiod_and_period_of_dawsons_kayles() {
    let path = scratch("dawson.svg");
    let out = run(&[
        "seq",
        "0.07",
        "--to",
        "200",
        "--plot",
        path.to_str().unwrap(),
    ]);
    // The plot replaces the text listing.
    assert_eq!(out, "");
    let svg = read(&path);
    let names = elements(&svg);
    assert!(svg.contains("0.07: Grundy values G(n), n = 0 to 200"));
    assert!(
        svg.contains("periodic: preperiod 53, period 34, saltus 0 (proven)"),
        "{svg}"
    );
    assert!(svg.contains("end of the preperiod: periodic from n = 53"));
    assert!(svg.contains("one period (34 heaps)"));
    // Every heap is a dot.
    assert_eq!(names.iter().filter(|n| *n == "circle").count(), 201);
}

#[test]
fn seq_plot_keeps_json_csv_and_out_as_they_are() {
    let path = scratch("with-json.svg");
    let plain = run(&["seq", "0.07", "--to", "40", "--json"]);
    let both = run(&[
        "seq",
        "0.07",
        "--to",
        "40",
        "--json",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(plain, both);
    elements(&read(&path));
    let csv = run(&[
        "seq",
        "0.07",
        "--to",
        "40",
        "--csv",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(csv, run(&["seq", "0.07", "--to", "40", "--csv"]));
    let values = scratch("values.txt");
    let out = run(&[
        "seq",
        "0.07",
        "--to",
        "40",
        "--out",
        values.to_str().unwrap(),
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out, "");
    assert_eq!(read(&values).lines().count(), 41);
    elements(&read(&path));
}

#[test]
fn seq_plot_of_a_million_heaps_is_downsampled() {
    let small = scratch("million-small.svg");
    let big = scratch("million.svg");
    run(&[
        "seq",
        "0.137",
        "--to",
        "10000",
        "--plot",
        small.to_str().unwrap(),
    ]);
    run(&[
        "seq",
        "0.137",
        "--to",
        "1000000",
        "--plot",
        big.to_str().unwrap(),
    ]);
    let svg = read(&big);
    let names = elements(&svg);
    // A fixed number of pixel columns, not a million points: the values are
    // one polyline of two vertices a column, the rest is axes and text.
    assert!(names.len() < 600, "{} elements", names.len());
    assert!(svg.len() < 200_000, "{} bytes", svg.len());
    let vertices: usize = svg
        .split("<polyline")
        .skip(1)
        .map(|p| {
            let points = p
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            points.split_whitespace().count()
        })
        .max()
        .unwrap();
    assert!(
        (1000..=3200).contains(&vertices),
        "{vertices} vertices in the longest polyline"
    );
    // A hundred times the heaps, about the same picture.
    let small_names = elements(&read(&small));
    assert!(names.len().abs_diff(small_names.len()) < 100);
    assert!(svg.contains("1,000,001 heaps in"));
    assert!(svg.contains("smallest to the largest G(n)"));
    // The period is far too short to see among a million heaps: a close-up shows it.
    assert!(svg.contains("close-up of n = "));
    assert!(svg.contains("preperiod 52, period 34"));
}

#[test]
fn seq_plot_without_a_period_says_so() {
    let path = scratch("grundys-game.svg");
    run(&[
        "seq",
        "grundy",
        "--to",
        "300",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let svg = read(&path);
    elements(&svg);
    assert!(svg.contains("no period found in n &lt;= 300"));
    assert!(!svg.contains("end of the preperiod"));
}

#[test]
fn seq_plot_of_a_few_heaps_draws_each() {
    let path = scratch("sub123.svg");
    run(&[
        "seq",
        "sub:1,2,3",
        "--to",
        "10",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let svg = read(&path);
    let names = elements(&svg);
    assert_eq!(names.iter().filter(|n| *n == "circle").count(), 11);
    assert!(svg.contains("preperiod 0, period 4"));
    // No preperiod to end: no line for it.
    assert!(!svg.contains("end of the preperiod"));
}

#[test]
fn table_plot_is_a_heat_map_with_values_in_cells() {
    let path = scratch("knight8.svg");
    let out = run(&["table", "knight:8", "--plot", path.to_str().unwrap()]);
    assert_eq!(out, "");
    let svg = read(&path);
    let names = elements(&svg);
    assert!(svg.contains("knight:8: Grundy values"));
    assert!(svg.contains("8 rows x 8 columns"));
    // 64 cells written in, 8 + 8 axis labels, a legend of 5 values.
    let texts = names.iter().filter(|n| *n == "text").count();
    assert!(texts >= 64 + 16 + 5, "{texts} texts");
    let json = run(&[
        "table",
        "knight:8",
        "--json",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(json, run(&["table", "knight:8", "--json"]));
}

#[test]
fn table_plot_of_a_chocolate_bar() {
    let path = scratch("choco.svg");
    run(&["table", "choco:12x12", "--plot", path.to_str().unwrap()]);
    let svg = read(&path);
    elements(&svg);
    assert!(svg.contains("choco:12x12: Grundy values"));
    assert!(svg.contains("R (rows of the bar)"));
}

#[test]
fn a_plot_that_cannot_be_written_is_one_error_line() {
    let missing = scratch("no-such-dir").join("x.svg");
    let missing = missing.to_str().unwrap();
    fails(
        &["seq", "0.07", "--to", "10", "--plot", missing],
        "cannot write",
    );
    fails(&["table", "knight:8", "--plot", missing], "cannot write");
    fails(
        &["seq", "0.07", "--to", "10", "--plot", "picture.png"],
        "SVG",
    );
    assert!(!std::path::Path::new("picture.png").exists());
}

#[test]
fn a_failed_command_leaves_no_plot() {
    let path = scratch("not-a-heap-game.svg");
    fails(
        &[
            "seq",
            "knight:8",
            "--to",
            "5",
            "--plot",
            path.to_str().unwrap(),
        ],
        "not heap sizes",
    );
    assert!(!path.exists());
    fails(
        &["table", "0.07", "--plot", path.to_str().unwrap()],
        "no table",
    );
    assert!(!path.exists());
}
