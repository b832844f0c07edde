//! `--plot FILE.svg`: a picture of a Grundy sequence (`grundy seq`) or of a
//! board's table of values (`grundy table`), drawn with plotters' SVG backend.
//!
//! Long sequences are never handed to plotters point by point: while the
//! values stream past, each pixel column of the plot keeps the smallest and
//! the largest value of its heaps ([`MinMax`]), and the column is drawn as a
//! bar between the two. Every value lies on its column's bar and every bar's
//! ends are values, so nothing is dropped, and the picture has the same few
//! thousand vertices for a hundred heaps as for ten million.
//!
//! Text is left to the SVG viewer's fonts: plotters only estimates its size
//! (no font files, no system libraries), so label areas have room to spare.

use crate::Failure;
use grundy::columns::MinMax;
use grundy::family::{Family, Move};
use grundy::period::PeriodReport;
use grundy::{Error, Value};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::io::Write;
use std::path::Path;

/// The size of a sequence plot, in pixels.
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 720;
/// The band above the chart: title, what is drawn, the period legend.
const HEADER: u32 = 100;
const MARGIN_LEFT: u32 = 16;
const MARGIN_RIGHT: u32 = 56;
const Y_LABEL_AREA: u32 = 100;
const X_LABEL_AREA: u32 = 56;
/// The pixel columns of the chart's plotting area: one min/max pair each.
pub const COLUMNS: usize = (WIDTH - MARGIN_LEFT - MARGIN_RIGHT - Y_LABEL_AREA) as usize;

const FONT: &str = "sans-serif";
/// Colours: the values, the end of the preperiod, one period.
const DATA: RGBColor = RGBColor(31, 90, 170);
const PREPERIOD: RGBColor = RGBColor(200, 30, 30);
const PERIOD: RGBColor = RGBColor(255, 170, 60);
const GRID: RGBColor = RGBColor(228, 228, 228);
const NOT_A_NUMBER: RGBColor = RGBColor(190, 190, 190);

/// A family whose sequence also fills a [`MinMax`] on its way to the sink.
struct Tee<'a> {
    inner: &'a mut dyn Family,
    columns: &'a mut MinMax,
}

impl Family for Tee<'_> {
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn parse(&self, text: &str) -> grundy::Result<grundy::Position> {
        self.inner.parse(text)
    }
    fn format(&self, position: &grundy::Position) -> String {
        self.inner.format(position)
    }
    fn value(&mut self, position: &grundy::Position) -> grundy::Result<Value> {
        self.inner.value(position)
    }
    fn moves(&mut self, position: &grundy::Position) -> grundy::Result<Vec<Move>> {
        self.inner.moves(position)
    }
    fn is_heap_game(&self) -> bool {
        self.inner.is_heap_game()
    }
    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, u64) -> grundy::Result<()>,
    ) -> grundy::Result<()> {
        let columns = &mut *self.columns;
        self.inner.sequence(from, to, &mut |n, value| {
            columns.push(n, value);
            sink(n, value)
        })
    }
}

/// Runs through the sequence without printing it (`seq --plot` alone).
pub fn values_only(family: &mut dyn Family, from: u64, to: u64) -> Result<(), Failure> {
    Ok(family.sequence(from, to, &mut |_, _| Ok(()))?)
}

/// `grundy seq ... --plot FILE.svg`: `print` produces the values as usual
/// (to stdout, a file, or nowhere) from the family it is given, and the plot
/// is drawn from the same stream; then the period, where one is known or
/// seen in the heaps computed, is marked.
pub fn sequence(
    path: &Path,
    family: &mut dyn Family,
    from: u64,
    to: u64,
    print: impl FnOnce(&mut dyn Family) -> Result<(), Failure>,
) -> Result<(), Failure> {
    // A plot not finished leaves the target as it was: dropping the output
    // removes only the file grundy created beside it.
    let file = create(path)?;
    let mut columns = MinMax::new(from, to, COLUMNS);
    print(&mut Tee {
        inner: &mut *family,
        columns: &mut columns,
    })
    .and_then(|()| {
        let report = known_period(family, to)?;
        let svg = sequence_svg(&family.spec(), &columns, report.as_ref())?;
        finish(file, &svg)
    })
}

/// The period of the game as far as heap `to` shows it (or a closed form):
/// bounded by the heaps already computed, so it costs about one more pass.
fn known_period(family: &mut dyn Family, to: u64) -> Result<Option<PeriodReport>, Failure> {
    match family.period(to.saturating_add(1)) {
        Ok(report) => Ok(Some(report)),
        Err(e @ Error::Interrupted(_)) => Err(e.into()),
        // No period to mark (values too large to compare, and so on).
        Err(_) => Ok(None),
    }
}

/// `grundy table GAME --plot FILE.svg`: the table, drawn as a heat map, and
/// handed back for printing.
pub fn table(path: &Path, family: &mut dyn Family) -> Result<Vec<Vec<Value>>, Failure> {
    let file = create(path)?;
    family.table().map_err(Failure::from).and_then(|rows| {
        let svg = table_svg(&family.spec(), &rows)?;
        finish(file, &svg)?;
        Ok(rows)
    })
}

fn cannot_write(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io(format!("cannot write {}: {e}", path.display()))
}

/// Opens the plot file before any work, so that a bad path fails at once.
fn create(path: &Path) -> Result<grundy::files::Output, Failure> {
    open_svg(path, "--plot")
}

/// Opens the file of `--svg` (`grundy graph`) before any work.
pub(crate) fn create_svg(path: &Path) -> Result<grundy::files::Output, Failure> {
    open_svg(path, "--svg")
}

fn open_svg(path: &Path, flag: &str) -> Result<grundy::files::Output, Failure> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg {
        return Err(Error::invalid(format!(
            "{flag} draws SVG: name the file something.svg, not {}",
            path.display()
        ))
        .into());
    }
    Ok(grundy::files::Output::create(
        path,
        grundy::files::Allow::Through,
    )?)
}

pub(crate) fn finish(mut output: grundy::files::Output, svg: &str) -> Result<(), Failure> {
    let path = output.path().to_path_buf();
    output
        .file()
        .write_all(svg.as_bytes())
        .map_err(|e| cannot_write(&path, e))?;
    Ok(output.commit()?)
}

/// A plotters failure: drawing into a string has no reason to fail.
fn drawing(e: impl std::fmt::Display) -> Failure {
    Failure::Grundy(Error::Io(format!("cannot draw the plot: {e}")))
}

/// Round numbers from `lo` to `hi`, steps of 1, 2 or 5 times a power of ten,
/// at most `most` of them (at least one).
pub fn ticks(lo: u64, hi: u64, most: usize) -> Vec<u64> {
    let span = u128::from(hi - lo);
    let most = most.max(2) as u128;
    let mut step: u128 = 1;
    'search: for power in 0..30u32 {
        for m in [1u128, 2, 5] {
            step = m * 10u128.pow(power);
            if span / step < most {
                break 'search;
            }
        }
    }
    let first = u128::from(lo).div_ceil(step) * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= u128::from(hi) {
        out.push(t as u64);
        t += step;
    }
    if out.is_empty() {
        out.push(lo);
    }
    out
}

/// 1234567 as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", grouped(n))
    }
}

fn text_style(size: f64) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

fn bold(size: f64) -> TextStyle<'static> {
    (FONT, size, FontStyle::Bold).into_font().color(&BLACK)
}

/// A linear axis from `lo` to `hi` (either way round) whose grid lines and
/// labels are exactly `ticks`.
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let t = (value - self.lo) / (self.hi - self.lo);
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            vec![]
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// The sequence plot as SVG text.
fn sequence_svg(
    spec: &str,
    columns: &MinMax,
    report: Option<&PeriodReport>,
) -> Result<String, Failure> {
    let zoom = report.and_then(|r| zoom(columns, r));
    let height = if zoom.is_some() {
        HEIGHT + ZOOM_HEIGHT
    } else {
        HEIGHT
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        draw_sequence(&root, spec, columns, report, zoom.as_ref()).map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The extra height of a plot with a zoomed panel.
const ZOOM_HEIGHT: u32 = 420;

/// When the period is too short to see among all the heaps, a second panel
/// shows the end of the preperiod and a few periods, every heap drawn. Its
/// values come from the periodicity, which is proven, or was observed to hold
/// in the heaps tabulated (and the panel stays within those).
fn zoom(columns: &MinMax, report: &PeriodReport) -> Option<MinMax> {
    let p = report.periodicity.as_ref()?;
    if !columns.downsampled() {
        return None;
    }
    let (from, _) = columns.heaps(0);
    let (_, to) = columns.heaps(columns.columns() - 1);
    let last = if report.proven {
        to
    } else {
        to.min(report.checked_to)
    };
    let first = from.max(p.preperiod.saturating_sub(p.period.max(20)));
    let start = first.max(p.preperiod);
    let end = start
        .saturating_add(p.period.saturating_mul(3))
        .max(first.saturating_add(60))
        .min(last);
    let span = u128::from(end.checked_sub(first)?) + 1;
    let count = u128::from(to - from) + 1;
    // Worth it only where a period is a sliver of the whole plot.
    if span < 2 || span * 8 > count {
        return None;
    }
    let mut zoomed = MinMax::new(first, end, COLUMNS);
    for n in first..=end {
        zoomed.push(n, p.value_u64(n));
    }
    Some(zoomed)
}

type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw_sequence(
    root: &DrawingArea<SVGBackend, Shift>,
    spec: &str,
    columns: &MinMax,
    report: Option<&PeriodReport>,
    zoom: Option<&MinMax>,
) -> DrawResult {
    root.fill(&WHITE)?;
    let (header, rest) = root.split_vertically(HEADER);
    let (from, to) = (columns.heaps(0).0, columns.heaps(columns.columns() - 1).1);
    let count = u128::from(to - from) + 1;
    let top = columns.max_value();

    // The header: title, how values are drawn, the period and its legend.
    header.draw(&Text::new(
        format!(
            "{spec}: Grundy values G(n), n = {} to {}",
            grouped(from),
            grouped(to)
        ),
        (MARGIN_LEFT as i32, 12),
        bold(26.0),
    ))?;
    let drawn = if columns.downsampled() {
        format!(
            "{} heaps in {} columns: each vertical bar spans the smallest to the largest G(n) of its {}-{} heaps; largest value {}",
            grouped(count as u64),
            columns.columns(),
            grouped((count / columns.columns() as u128) as u64),
            grouped(count.div_ceil(columns.columns() as u128) as u64),
            grouped(top),
        )
    } else {
        format!(
            "every heap drawn ({}); largest value {}",
            plural(count as u64, "heap", "heaps"),
            grouped(top)
        )
    };
    header.draw(&Text::new(
        drawn,
        (MARGIN_LEFT as i32, 44),
        text_style(18.0),
    ))?;
    let periodicity = report.and_then(|r| r.periodicity.as_ref().map(|p| (r, p)));
    let status = match (report, periodicity) {
        (_, Some((r, p))) => {
            let how = if r.proven {
                "proven".to_string()
            } else {
                format!("observed in n <= {}, not proven", grouped(r.checked_to))
            };
            format!(
                "periodic: preperiod {}, period {}, saltus {} ({how})",
                grouped(p.preperiod),
                grouped(p.period),
                grouped(p.saltus)
            )
        }
        (Some(r), None) => format!("no period found in n <= {}", grouped(r.checked_to)),
        (None, None) => String::new(),
    };
    header.draw(&Text::new(
        status,
        (MARGIN_LEFT as i32, 74),
        text_style(18.0),
    ))?;
    let p = periodicity.map(|(_, p)| p);
    if let Some(p) = p {
        let y = 84;
        let mut x = (WIDTH as f64 * 0.5) as i32;
        // As in the panels: a line where the preperiod ends within the plot.
        if p.preperiod > from && p.preperiod <= to {
            header.draw(&plotters::element::DashedPathElement::new(
                [(x + 4, y - 10), (x + 4, y + 10)],
                6,
                3,
                PREPERIOD.stroke_width(2),
            ))?;
            header.draw(&Text::new(
                format!(
                    "end of the preperiod: periodic from n = {}",
                    grouped(p.preperiod)
                ),
                (x + 14, y),
                text_style(17.0).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            x += 420;
        }
        header.draw(&Rectangle::new(
            [(x, y - 9), (x + 22, y + 9)],
            PERIOD.mix(0.35).filled(),
        ))?;
        header.draw(&Text::new(
            format!("one period ({})", plural(p.period, "heap", "heaps")),
            (x + 30, y),
            text_style(17.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }

    match zoom {
        None => draw_panel(&rest, columns, p),
        Some(zoomed) => {
            let (main, below) = rest.split_vertically(HEIGHT - HEADER);
            draw_panel(&main, columns, p)?;
            let (title, panel) = below.split_vertically(36);
            let (z0, z1) = (zoomed.heaps(0).0, zoomed.heaps(zoomed.columns() - 1).1);
            let every = if zoomed.downsampled() {
                "min/max per column"
            } else {
                "every heap drawn"
            };
            title.draw(&Text::new(
                format!(
                    "close-up of n = {} to {} ({every}), where the periodic part begins",
                    grouped(z0),
                    grouped(z1)
                ),
                (MARGIN_LEFT as i32, 12),
                bold(19.0),
            ))?;
            draw_panel(&panel, zoomed, p)
        }
    }
}

/// One chart of G(n): axes, the period marks, the values.
fn draw_panel(
    area: &DrawingArea<SVGBackend, Shift>,
    columns: &MinMax,
    periodicity: Option<&grundy::period::Periodicity>,
) -> DrawResult {
    let (from, to) = (columns.heaps(0).0, columns.heaps(columns.columns() - 1).1);
    let count = u128::from(to - from) + 1;
    let top = columns.max_value();
    let pad = (top as f64 * 0.03).max(0.4);
    let x_axis = Axis {
        lo: from as f64 - 0.5,
        hi: to as f64 + 0.5,
        ticks: ticks(from, to, 11).into_iter().map(|t| t as f64).collect(),
    };
    let y_axis = Axis {
        lo: -pad,
        hi: top as f64 + pad,
        ticks: ticks(0, top, 11).into_iter().map(|t| t as f64).collect(),
    };
    let mut chart = ChartBuilder::on(area)
        .margin_left(MARGIN_LEFT)
        .margin_right(MARGIN_RIGHT)
        .margin_top(10)
        .margin_bottom(8)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d(x_axis, y_axis)?;
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .x_desc("heap n")
        .y_desc("G(n)")
        .x_label_formatter(&|x| grouped(x.round().max(0.0) as u64))
        .y_label_formatter(&|y| grouped(y.round().max(0.0) as u64))
        .label_style(text_style(18.0))
        .axis_desc_style(text_style(20.0))
        .draw()?;

    // The period marks, under the values.
    let pixels_per_heap = COLUMNS as f64 / count as f64;
    let (y0, y1) = (-pad, top as f64 + pad);
    if let Some(p) = periodicity {
        // One period: the first whole one that starts in the plot.
        let start = if from <= p.preperiod {
            Some(p.preperiod)
        } else {
            (from - p.preperiod)
                .div_ceil(p.period)
                .checked_mul(p.period)
                .and_then(|k| k.checked_add(p.preperiod))
        };
        if let Some(start) = start.filter(|s| *s <= to) {
            let end = start.saturating_add(p.period).min(to.saturating_add(1));
            let x0 = start as f64 - 0.5;
            // At least three pixels wide, so that a short period still shows.
            let x1 = (end as f64 - 0.5).max(x0 + 3.0 / pixels_per_heap);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, y0), (x1, y1)],
                PERIOD.mix(0.35).filled(),
            )))?;
        }
    }

    // The values.
    if columns.downsampled() {
        let width = count as f64 / columns.columns() as f64;
        let points = (0..columns.columns()).flat_map(|c| {
            let (lo, hi) = columns.range(c).unwrap_or((0, 0));
            let x = from as f64 - 0.5 + (c as f64 + 0.5) * width;
            [(x, lo as f64), (x, hi as f64)]
        });
        chart.draw_series(LineSeries::new(points, DATA.stroke_width(1)))?;
    } else {
        let points: Vec<(f64, f64)> = (0..columns.columns())
            .filter_map(|c| {
                let (n, _) = columns.heaps(c);
                columns.range(c).map(|(v, _)| (n as f64, v as f64))
            })
            .collect();
        let dots = points.len() <= 400;
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            DATA.mix(if dots { 0.45 } else { 0.9 }).stroke_width(1),
        ))?;
        if dots {
            let radius = if points.len() <= 120 { 4 } else { 3 };
            chart.draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, radius, DATA.filled())),
            )?;
        }
    }

    // The end of the preperiod, over the values where dense values would hide it.
    if let Some(p) = periodicity.filter(|p| p.preperiod > from && p.preperiod <= to) {
        let x = p.preperiod as f64 - 0.5;
        chart.draw_series(DashedLineSeries::new(
            [(x, y0), (x, y1)],
            8,
            5,
            PREPERIOD.stroke_width(2),
        ))?;
    }
    Ok(())
}

/// The heat map's largest side, in cells: larger tables are shown in blocks.
const MAX_CELLS_SIDE: usize = 300;
/// The board's largest side in pixels, and a cell's.
const BOARD: usize = 760;
const MAX_CELL: usize = 56;
const TABLE_HEADER: u32 = 96;
const TABLE_LEFT: u32 = 84;
const TABLE_TOP_LABELS: u32 = 60;
const LEGEND: u32 = 190;

/// How the rows and columns of a game's table are numbered and named.
fn table_axes(spec: &str) -> (u64, &'static str, &'static str) {
    if spec.starts_with("choco") {
        (1, "R (rows of the bar)", "C (columns of the bar)")
    } else {
        (0, "row", "column")
    }
}

/// A cell's colour class: a finite value, or something else (∞, a win).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Finite(u64),
    Other,
    Missing,
}

fn cell_of(value: Option<&Value>) -> Cell {
    match value {
        None => Cell::Missing,
        Some(v) => v.as_u64().map_or(Cell::Other, Cell::Finite),
    }
}

fn colour(cell: Cell, top: u64) -> RGBColor {
    match cell {
        Cell::Finite(v) => ViridisRGB::get_color_normalized(v as f64, 0.0, (top as f64).max(1.0)),
        Cell::Other => NOT_A_NUMBER,
        Cell::Missing => WHITE,
    }
}

fn is_dark(c: RGBColor) -> bool {
    let RGBColor(r, g, b) = c;
    0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b) < 140.0
}

/// The table plot as SVG text.
fn table_svg(spec: &str, rows: &[Vec<Value>]) -> Result<String, Failure> {
    let n_rows = rows.len();
    let n_cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    if n_rows == 0 || n_cols == 0 {
        return Err(Error::invalid(format!("{spec} has an empty table: nothing to plot")).into());
    }
    let block = n_rows.max(n_cols).div_ceil(MAX_CELLS_SIDE);
    let shown = (n_rows.div_ceil(block), n_cols.div_ceil(block));
    // A block shows its largest finite value, else whatever else it holds.
    let cells: Vec<Vec<Cell>> = (0..shown.0)
        .map(|i| {
            (0..shown.1)
                .map(|j| {
                    let mut best = Cell::Missing;
                    for row in rows.iter().skip(i * block).take(block) {
                        for value in row.iter().skip(j * block).take(block) {
                            best = match (best, cell_of(Some(value))) {
                                (Cell::Finite(a), Cell::Finite(b)) => Cell::Finite(a.max(b)),
                                (Cell::Finite(a), _) => Cell::Finite(a),
                                (_, Cell::Finite(b)) => Cell::Finite(b),
                                (_, other) => other,
                            };
                        }
                    }
                    best
                })
                .collect()
        })
        .collect();
    let finite = |c: &Cell| match c {
        Cell::Finite(v) => Some(*v),
        _ => None,
    };
    let top = cells.iter().flatten().filter_map(finite).max().unwrap_or(0);
    let others = cells.iter().flatten().any(|c| *c == Cell::Other);
    let cell_px = (BOARD / shown.0.max(shown.1)).clamp(1, MAX_CELL);
    let board = (shown.1 * cell_px, shown.0 * cell_px);
    let layout = TableLayout {
        n_rows,
        n_cols,
        block,
        cells: &cells,
        top,
        others,
        cell_px,
        board,
    };
    // Wide enough for the board and legend, and for the text above them
    // (about 8.5 pixels a character at the sizes used).
    let text = (table_subtitle(&layout).chars().count() as f64 * 8.5) as u32 + 40;
    let title = ((spec.chars().count() + 16) as f64 * 14.5) as u32 + 40;
    let width = (TABLE_LEFT + board.0 as u32 + LEGEND)
        .max(text)
        .max(title)
        .max(560);
    let height = (TABLE_HEADER + TABLE_TOP_LABELS + board.1 as u32 + 30).max(480);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw_table(&root, spec, &layout).map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// What the heat map shows, under its title.
fn table_subtitle(t: &TableLayout) -> String {
    let blocks = if t.block > 1 {
        format!(
            "; each cell shows the largest value of a {b}x{b} block",
            b = t.block
        )
    } else {
        String::new()
    };
    format!(
        "{} x {}, rows first as `grundy table` prints them; values 0 to {}{blocks}",
        plural(t.n_rows as u64, "row", "rows"),
        plural(t.n_cols as u64, "column", "columns"),
        grouped(t.top)
    )
}

struct TableLayout<'a> {
    n_rows: usize,
    n_cols: usize,
    block: usize,
    cells: &'a [Vec<Cell>],
    top: u64,
    others: bool,
    cell_px: usize,
    board: (usize, usize),
}

fn draw_table(root: &DrawingArea<SVGBackend, Shift>, spec: &str, t: &TableLayout) -> DrawResult {
    root.fill(&WHITE)?;
    let (base, row_name, col_name) = table_axes(spec);
    root.draw(&Text::new(
        format!("{spec}: Grundy values"),
        (16, 12),
        bold(26.0),
    ))?;
    root.draw(&Text::new(table_subtitle(t), (16, 46), text_style(18.0)))?;

    let (shown_rows, shown_cols) = (t.cells.len(), t.cells[0].len());
    let left = TABLE_LEFT as i32;
    let board_top = (TABLE_HEADER + TABLE_TOP_LABELS) as i32;
    let area = root.margin(TABLE_HEADER, 0, 0, 0);
    let area = area.shrink(
        (0, 0),
        (
            TABLE_LEFT + t.board.0 as u32 + 2,
            TABLE_TOP_LABELS + t.board.1 as u32 + 2,
        ),
    );
    // Row and column numbers at cell centres: every one, or round ones.
    let label_ticks = |shown: usize, total: usize| -> Vec<f64> {
        let first = base;
        let last = base + total as u64 - 1;
        let most = if t.cell_px >= 22 {
            shown
        } else {
            (shown * t.cell_px / 40).max(2)
        };
        let numbers = if t.block == 1 && shown <= most {
            (first..=last).collect()
        } else {
            ticks(first, last, most.min(16))
        };
        numbers
            .into_iter()
            .map(|n| (n - base) as f64 / t.block as f64 + 0.5 / t.block as f64)
            .collect()
    };
    // Rows downwards, as printed.
    let x_range = Axis {
        lo: 0.0,
        hi: shown_cols as f64,
        ticks: label_ticks(shown_cols, t.n_cols),
    };
    let y_range = Axis {
        lo: shown_rows as f64,
        hi: 0.0,
        ticks: label_ticks(shown_rows, t.n_rows),
    };
    let mut chart = ChartBuilder::on(&area)
        .top_x_label_area_size(TABLE_TOP_LABELS)
        .y_label_area_size(TABLE_LEFT)
        .build_cartesian_2d(x_range, y_range)?;
    let index = |v: &f64| grouped(base + (v * t.block as f64).floor().max(0.0) as u64);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(col_name)
        .y_desc(row_name)
        .x_label_formatter(&index)
        .y_label_formatter(&index)
        .label_style(text_style(16.0))
        .axis_desc_style(text_style(18.0))
        .draw()?;

    // Cells: a run of one colour along a row is one rectangle.
    let font = (t.cell_px as f64 * 0.5).min(20.0);
    let digits = (t.top.max(1).ilog10() + 1) as f64;
    let with_text = t.cell_px >= 16 && digits * font * 0.62 <= t.cell_px as f64 - 4.0;
    for (i, row) in t.cells.iter().enumerate() {
        let mut j = 0;
        while j < row.len() {
            let mut k = j + 1;
            while k < row.len() && row[k] == row[j] {
                k += 1;
            }
            if row[j] != Cell::Missing {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(j as f64, i as f64), (k as f64, i as f64 + 1.0)],
                    colour(row[j], t.top).filled(),
                )))?;
            }
            j = k;
        }
        if with_text {
            for (j, cell) in row.iter().enumerate() {
                let text = match cell {
                    Cell::Finite(v) => v.to_string(),
                    Cell::Other => "∞".to_string(),
                    Cell::Missing => continue,
                };
                let ink = if is_dark(colour(*cell, t.top)) {
                    WHITE
                } else {
                    BLACK
                };
                chart.draw_series(std::iter::once(Text::new(
                    text,
                    (j as f64 + 0.5, i as f64 + 0.5),
                    (FONT, font)
                        .into_font()
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                )))?;
            }
        }
    }
    // A frame around the board.
    chart.draw_series(std::iter::once(Rectangle::new(
        [(0.0, 0.0), (shown_cols as f64, shown_rows as f64)],
        BLACK.stroke_width(1),
    )))?;

    // The colour scale, right of the board.
    let lx = left + t.board.0 as i32 + 30;
    let mut y = board_top;
    root.draw(&Text::new("G", (lx, y - 26), bold(18.0)))?;
    let swatch = |v: u64| colour(Cell::Finite(v), t.top);
    if t.top <= 24 {
        let step = if t.top <= 12 { 24 } else { 18 };
        for v in 0..=t.top {
            root.draw(&Rectangle::new(
                [(lx, y), (lx + 28, y + step - 2)],
                swatch(v).filled(),
            ))?;
            root.draw(&Text::new(
                v.to_string(),
                (lx + 36, y + step / 2 - 1),
                text_style(16.0).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            y += step;
        }
    } else {
        let bar = 300;
        let slices = 100;
        for s in 0..slices {
            // Top of the bar is the largest value.
            let v = t.top as f64 * (1.0 - (s as f64 + 0.5) / slices as f64);
            let c = ViridisRGB::get_color_normalized(v, 0.0, t.top as f64);
            let y0 = y + s * bar / slices;
            let y1 = y + (s + 1) * bar / slices;
            root.draw(&Rectangle::new([(lx, y0), (lx + 28, y1)], c.filled()))?;
        }
        for v in ticks(0, t.top, 7) {
            let ty = y + ((1.0 - v as f64 / t.top as f64) * bar as f64).round() as i32;
            root.draw(&PathElement::new([(lx + 28, ty), (lx + 34, ty)], BLACK))?;
            root.draw(&Text::new(
                grouped(v),
                (lx + 38, ty),
                text_style(16.0).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        y += bar + 12;
    }
    if t.others {
        y += 8;
        root.draw(&Rectangle::new(
            [(lx, y), (lx + 28, y + 22)],
            NOT_A_NUMBER.filled(),
        ))?;
        root.draw(&Text::new(
            "not a nimber (∞, win)",
            (lx + 36, y + 11),
            text_style(16.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_few() {
        assert_eq!(ticks(0, 10, 11), (0..=10).collect::<Vec<_>>());
        assert_eq!(ticks(0, 200, 11), (0..=200).step_by(20).collect::<Vec<_>>());
        assert_eq!(ticks(0, 10_000_000, 11).len(), 11);
        assert_eq!(ticks(5, 5, 11), vec![5]);
        assert_eq!(ticks(3, 97, 11), (10..=90).step_by(10).collect::<Vec<_>>());
        assert!(ticks(0, u64::MAX, 11).len() <= 11);
    }

    #[test]
    fn grouped_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(10_000_000), "10,000,000");
    }
}
