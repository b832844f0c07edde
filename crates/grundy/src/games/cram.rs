//! Cram: players take turns placing a domino on two adjacent empty cells of
//! a grid; whoever cannot place one loses. (Impartial Domineering: either
//! player may place a domino either way.)
//!
//! A position is the set of empty cells, row by row, in one or two machine
//! words (`u64` up to 64 cells, `u128` up to 128), so boards beyond 64 cells
//! such as 5×13, 6×11 and 7×10 are searched too. Regions of empty cells
//! that do not touch are independent games; each is keyed by the least of
//! its images under the board's symmetries (mirrors, half turn, and the
//! transpose where the turned region fits the board's width).

use crate::error::{Error, Result};
use crate::position::Position;
use crate::search::family::Kind;
use crate::search::{Bits, Known, SearchGame};

/// A region's first and last rows and columns.
type Bounds = (u32, u32, u32, u32);

/// The most cells a Cram board may have.
pub const MAX_CELLS: u32 = 128;

/// Cram on boards `width` cells wide, positions in `B`.
#[derive(Debug, Clone)]
pub struct CramGame<B: Bits> {
    /// Cells from one row to the next in a position (the board's width, or
    /// 8 for boards of up to 8x8, which then have a row a byte).
    width: u32,
    /// The board's columns.
    cols: u32,
    /// Cells of the first column.
    first_col: B,
    /// Cells of the last column.
    last_col: B,
    /// For each box of `h` rows and `wd` columns at the corner (index
    /// `(h - 1) * width + wd - 1`; keys turned a quarter may be wider than
    /// the board), its domino places in the order options are searched;
    /// none when the boxes would be too many.
    orders: Option<std::sync::Arc<Vec<Vec<B>>>>,
}

impl<B: Bits> CramGame<B> {
    /// Cram on boards of `width` columns (and as many rows as `B` holds).
    pub fn new(width: u32) -> Self {
        Self::with_stride(width, width)
    }

    /// Cram on boards of `cols` columns laid out `stride` cells a row.
    pub fn with_stride(cols: u32, stride: u32) -> Self {
        let width = stride;
        assert!((1..=64).contains(&width) && width <= B::WIDTH && cols <= width);
        let mut first_col = B::ZERO;
        let mut r = 0;
        while r + width <= B::WIDTH {
            first_col |= B::bit(r);
            r += width;
        }
        let mut game = CramGame {
            width,
            cols,
            first_col,
            last_col: first_col << (width - 1),
            orders: None,
        };
        let rows = B::WIDTH / width;
        if rows * width <= 1024 {
            // The order of the options of each whole box, as `options`
            // lists them: a region with that box has the same order, less
            // the places it lacks.
            let mut orders = Vec::new();
            let mut opts = Vec::new();
            for h in 1..=rows {
                for wd in 1..=width {
                    let mut full = B::ZERO;
                    for r in 0..h {
                        for c in 0..wd {
                            full |= B::bit(r * width + c);
                        }
                    }
                    opts.clear();
                    game.options_ring_order(full, (0, h - 1, 0, wd - 1), &mut opts);
                    orders.push(opts.iter().map(|&o| full & !o).collect());
                }
            }
            game.orders = Some(std::sync::Arc::new(orders));
        }
        game
    }

    /// The position with cells removed that do not change its value, until
    /// none is left to remove (the reductions of Beling's `igs` crate,
    /// proved here again):
    /// - *extra pendants*: of two cells whose only neighbour is the same
    ///   cell s, one goes. Placing on either with s leaves positions that
    ///   differ only by a dead cell; every other move keeps both pendants
    ///   or kills both, so by induction the options' values are the same.
    /// - *bridges*: a cell b, not pendant, whose every neighbour has a
    ///   pendant of its own, goes. A domino on b and neighbour s leaves the
    ///   same cells as the domino on s and its pendant does without b;
    ///   other moves keep the pattern, so again the values agree.
    /// - cells with no neighbour at all, which no move uses.
    ///
    /// The rules are local, so the whole position is reduced at once; a
    /// bridge's removal may split a region in two.
    fn reduced<const W: u32>(&self, mut p: B) -> B {
        let w = self.stride::<W>();
        loop {
            let below = p >> w;
            let above = p << w;
            let right = (p >> 1) & !self.last_col;
            let left = (p << 1) & !self.first_col;
            let odd = below ^ above ^ right ^ left;
            let two = (below & above) | (right & left) | ((below | above) & (right | left));
            let pendants = p & odd & !two;
            // Each pendant's neighbour (a "star"), one direction at a time;
            // a pendant whose star already has one goes.
            let mut stars = (pendants & below) << w;
            let mut next = p;
            let s = (pendants & right) << 1;
            next &= !((stars & s) >> 1);
            stars |= s;
            let s = (pendants & above) >> w;
            next &= !((stars & s) << w);
            stars |= s;
            let s = (pendants & left) >> 1;
            next &= !((stars & s) << 1);
            stars |= s;
            // Cells neither pendant nor star with no such neighbour: bridges
            // and lone cells.
            let other = p & !(pendants | stars);
            let touched = (other >> w)
                | (other << w)
                | ((other >> 1) & !self.last_col)
                | ((other << 1) & !self.first_col);
            next &= !(other & !touched);
            if next == p {
                return p;
            }
            p = next;
        }
    }

    /// Splits a reduced position into regions, each reduced and split
    /// again when a 2x2 cut parted it from the rest.
    fn split_reduced<const W: u32>(&self, p: B, out: &mut Vec<B>) {
        let w = self.stride::<W>();
        let (cut, parted) = self.cuts::<W>(p);
        let mut rest = p;
        while rest != B::ZERO {
            let mut region = rest.lowest_bit();
            // Cells joined to the cell on their right.
            let links = rest & (rest >> 1) & !cut;
            loop {
                // Rightwards along whole runs of links at once: adding the
                // region's link cells to the links carries through each run
                // from there; the bits that changed are the run and the
                // cell after it.
                let step = |region: B| {
                    let seeds = region & links;
                    let right = links.add(seeds) ^ links ^ seeds;
                    (region | right | (region >> w) | (region << w) | ((region >> 1) & links))
                        & rest
                };
                // Three steps between checks: a region takes about five
                // on the boards searched, and a check that ends the loop
                // is a branch the processor mispredicts.
                let nearly = step(step(region));
                let grown = step(nearly);
                if grown == nearly {
                    region = grown;
                    break;
                }
                region = grown;
            }
            rest &= !region;
            if self.horizontal(region) | self.vertical::<W>(region) == B::ZERO {
                continue;
            }
            if parted && region != p {
                // Maybe parted by a cut: its cells may reduce further. (A
                // region parted by empty cells alone was reduced with `p`:
                // the rules are local.)
                self.split_reduced::<W>(self.reduced::<W>(region), out);
            } else {
                out.push(region);
            }
        }
    }

    /// Cells whose link to the cell on their right does not join regions:
    /// the last column, and both rows of every 2x2 block of free cells in
    /// which two opposite corners have no free neighbour outside the
    /// block. Such a block's left and right columns belong to two games
    /// whose sum is the position (the decomposition rule of Beling's `igs`
    /// crate, checked here against the plain game on every 4x4, 3x5 and
    /// 2x7 position). Also says whether any block cuts.
    fn cuts<const W: u32>(&self, p: B) -> (B, bool) {
        let w = self.stride::<W>();
        let right = (p >> 1) & !self.last_col;
        let left = (p << 1) & !self.first_col;
        let below = p >> w;
        let above = p << w;
        // Free, with a free neighbour on one side and none on the other.
        let open_right = p & right & !left;
        let open_left = p & left & !right;
        let open_below = below & !above;
        let open_above = above & !below;
        // Marked at the block's bottom-left cell: closed top-left and
        // bottom-right corners, or closed top-right and bottom-left ones.
        let main = ((open_right & open_below) << w) & ((open_left & open_above) >> 1);
        let anti = ((open_left & open_below) << (w - 1)) & open_right & open_above;
        let bottom = main | anti;
        (self.last_col | bottom | (bottom >> w), bottom != B::ZERO)
    }

    /// The stride: `W` when it is not 0 (a constant, so that shifts by a
    /// row are immediate), else the game's.
    #[inline(always)]
    fn stride<const W: u32>(&self) -> u32 {
        if W != 0 {
            W
        } else {
            self.width
        }
    }

    /// The row of cell `i` (a shift when rows are a power of two apart).
    #[inline]
    fn row(&self, i: u32) -> u32 {
        if self.width.is_power_of_two() {
            i >> self.width.trailing_zeros()
        } else {
            i / self.width
        }
    }

    /// Cells that start a horizontal domino place (the cell to the right is free too).
    #[inline]
    fn horizontal(&self, c: B) -> B {
        c & (c >> 1) & !self.last_col
    }

    /// Cells that start a vertical domino place (the cell below is free too).
    #[inline]
    fn vertical<const W: u32>(&self, c: B) -> B {
        c & (c >> self.stride::<W>())
    }

    /// The first and last rows and columns of `c` (not empty).
    fn bounds(&self, c: B) -> Bounds {
        let w = self.width;
        let (r0, r1) = (self.row(c.lowest()), self.row(c.end() - 1));
        let row_mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let mut used = 0u64;
        let mut x = c >> (r0 * w);
        while x != B::ZERO {
            used |= x.low_u64() & row_mask;
            x = x >> w;
        }
        (r0, r1, used.trailing_zeros(), 63 - used.leading_zeros())
    }

    /// The options of `c` (not empty), centre first, as igs orders Cram
    /// moves: vertical dominoes from the middle column outwards, then
    /// horizontal ones from the middle row outwards. A domino across the
    /// middle tends to cut the region in two, and such options are the
    /// likeliest to be known already.
    fn options_ring_order(&self, c: B, (r0, r1, c0, c1): Bounds, out: &mut Vec<B>) {
        let w = self.width;
        let row_mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let two = B::ONE | (B::ONE << 1);
        let full_row = B::from_u128(row_mask as u128);
        let mut horizontal = self.horizontal(c);
        let mut vertical = self.vertical::<0>(c);
        // Which way first: dominoes across the side with an even number of
        // cells when the other is odd (measured: 4x9 and 5x8 search a
        // third fewer positions than with the other way first); both ways
        // ring by ring otherwise. The rule commutes with the transpose.
        let (h, wd) = (r1 - r0 + 1, c1 - c0 + 1);
        let (mut hold, mut vhold) = (B::ZERO, B::ZERO);
        if h % 2 == 0 && wd % 2 == 1 {
            hold = horizontal;
            horizontal = B::ZERO;
        } else if h % 2 == 1 && wd % 2 == 0 {
            vhold = vertical;
            vertical = B::ZERO;
        }
        for _ in 0..2 {
            let (mut rlo, mut rhi) = ((r0 + r1) / 2, (r0 + r1).div_ceil(2));
            let (mut clo, mut chi) = ((c0 + c1) / 2, (c0 + c1).div_ceil(2));
            while horizontal | vertical != B::ZERO {
                let mut rows = full_row << (rlo * w);
                if rhi * w < B::WIDTH {
                    rows |= full_row << (rhi * w);
                }
                for i in (horizontal & rows).members() {
                    out.push(c & !(two << i));
                }
                horizontal &= !rows;
                let mut cols = self.first_col << clo;
                if chi < w {
                    cols |= self.first_col << chi;
                }
                for i in (vertical & cols).members() {
                    out.push(c & !(B::bit(i) | B::bit(i + w)));
                }
                vertical &= !cols;
                rlo = rlo.saturating_sub(1);
                rhi += 1;
                clo = clo.saturating_sub(1);
                chi += 1;
            }
            horizontal = hold;
            vertical = vhold;
        }
    }
}

impl<B: Bits> SearchGame for CramGame<B> {
    type Pos = B;

    fn split(&self, pos: B, out: &mut Vec<B>) {
        // The layouts of a row a byte and a row every 16 bits with their
        // stride a constant.
        match self.width {
            8 => self.split_reduced::<8>(self.reduced::<8>(pos), out),
            16 => self.split_reduced::<16>(self.reduced::<16>(pos), out),
            _ => self.split_reduced::<0>(self.reduced::<0>(pos), out),
        }
    }

    fn options(&self, c: B, out: &mut Vec<B>) {
        if c == B::ZERO {
            return;
        }
        let (r0, r1, c0, c1) = self.bounds(c);
        match (r0, c0, &self.orders) {
            (0, 0, Some(orders)) => {
                // A region at the corner (every key is): its box's domino
                // places in order, each kept if both its cells are free,
                // without a branch on which are.
                let places = &orders[(r1 * self.width + c1) as usize];
                let from = out.len();
                out.resize(from + places.len(), B::ZERO);
                let mut n = from;
                for &d in places.iter() {
                    out[n] = c & !d;
                    n += (c & d == d) as usize;
                }
                out.truncate(n);
            }
            _ => self.options_ring_order(c, (r0, r1, c0, c1), out),
        }
    }

    fn mobility(&self, c: B) -> u32 {
        self.horizontal(c).count() + self.vertical::<0>(c).count()
    }

    fn settled(&self, c: B) -> Known {
        match self.strip_length(c) {
            Some(n) => Known::Exact(DAWSON[n as usize] as u32),
            None => self.half_turn(c),
        }
    }

    fn import(&self, pos: u128) -> B {
        if self.cols == self.width {
            return B::from_u128(pos);
        }
        let mask = (1u128 << self.cols) - 1;
        let mut out = B::ZERO;
        let mut r = 0;
        while r * self.cols < 128 && pos >> (r * self.cols) != 0 {
            out |= B::from_u128((pos >> (r * self.cols)) & mask) << (r * self.width);
            r += 1;
        }
        out
    }

    fn export(&self, pos: B) -> u128 {
        if self.cols == self.width {
            return pos.to_u128();
        }
        let mask = (1u128 << self.cols) - 1;
        let pos = pos.to_u128();
        let mut out = 0u128;
        let mut r = 0;
        while r * self.width < 128 && pos >> (r * self.width) != 0 {
            out |= ((pos >> (r * self.width)) & mask) << (r * self.cols);
            r += 1;
        }
        out
    }

    fn canonical(&self, c: B) -> B {
        if B::WIDTH == 64 {
            if self.width == 8 {
                return B::from_u128(canonical_bytes(c.low_u64()) as u128);
            }
            if self.width == 16 {
                return B::from_u128(canonical_lanes(c.low_u64()) as u128);
            }
        }
        self.canonical_general(c)
    }
}

impl<B: Bits> CramGame<B> {
    /// [`SearchGame::canonical`] for any layout, row by row.
    fn canonical_general(&self, c: B) -> B {
        let w = self.width;
        let r0 = self.row(c.lowest());
        let r1 = self.row(c.end() - 1);
        let h = (r1 - r0 + 1) as usize;
        let row_mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        if h > MAX_SYMMETRIC_ROWS {
            // Tall thin regions: moved to the corner only.
            let mut used = 0u64;
            for i in r0..=r1 {
                used |= (c >> (i * w)).low_u64() & row_mask;
            }
            return c >> (r0 * w + used.trailing_zeros());
        }
        let mut rows = [0u64; MAX_SYMMETRIC_ROWS];
        let mut used = 0u64;
        for (i, row) in rows.iter_mut().enumerate().take(h) {
            *row = (c >> ((r0 + i as u32) * w)).low_u64() & row_mask;
            used |= *row;
        }
        let c0 = used.trailing_zeros();
        let wd = 64 - used.leading_zeros() - c0;
        for row in rows.iter_mut().take(h) {
            *row >>= c0;
        }
        // Images with no more rows than columns when the board holds them
        // (the transposes too when the box is square), else the others.
        let fits = h as u32 <= w && wd as usize <= MAX_SYMMETRIC_ROWS && wd * w <= B::WIDTH;
        let turn = fits && wd <= h as u32;
        let mut best = if fits && wd < h as u32 {
            B::from_u128(u128::MAX)
        } else {
            self.least_image(&rows[..h], wd)
        };
        if turn {
            let mut cols = [0u64; MAX_SYMMETRIC_ROWS];
            for (i, &r) in rows.iter().enumerate().take(h) {
                let mut bits = r;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    cols[j] |= 1 << i;
                    bits &= bits - 1;
                }
            }
            best = best.min(self.least_image(&cols[..wd as usize], h as u32));
        }
        best
    }
}

impl<B: Bits> CramGame<B> {
    /// What the half turn about the centre of region `c`'s bounding box
    /// tells, if `c` is its own image. A domino overlaps its image only if
    /// it holds the centre: when the centre is a cell corner (both sides
    /// even), never; when it is the midpoint of two cells (one side odd),
    /// only the domino on those two. So if no domino holds the centre the
    /// second player copies every move and wins (nimber 0); if the two
    /// centre cells are free the first player takes them and then copies
    /// (nimber not 0). With both sides odd the centre is a cell: nothing.
    /// The length of a region that is one straight strip of cells (one row,
    /// or one column): such a region is the octal game 0.07 on a heap of
    /// that length, since a domino covers two adjacent cells of the strip
    /// and leaves the strips on either side.
    fn strip_length(&self, c: B) -> Option<u32> {
        let w = self.width;
        let n = c.count();
        if n == 0 {
            return None;
        }
        let vertical = (c & (c >> w)).count();
        let horizontal = (c & (c >> 1) & !self.last_col).count();
        // n cells joined by n - 1 links all one way: a single straight run.
        let strip = (vertical, horizontal) == (n - 1, 0) || (horizontal, vertical) == (n - 1, 0);
        strip.then_some(n)
    }

    fn half_turn(&self, c: B) -> Known {
        let w = self.width;
        let r0 = self.row(c.lowest());
        let r1 = self.row(c.end() - 1);
        let h = r1 - r0 + 1;
        let row_mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let mut used = 0u64;
        for i in r0..=r1 {
            used |= (c >> (i * w)).low_u64() & row_mask;
        }
        let c0 = used.trailing_zeros();
        let wd = 64 - used.leading_zeros() - c0;
        if h % 2 == 1 && wd % 2 == 1 {
            return Known::Nothing;
        }
        let symmetric = (0..h.div_ceil(2)).all(|i| {
            let top = ((c >> ((r0 + i) * w)).low_u64() & row_mask) >> c0;
            let bottom = ((c >> ((r1 - i) * w)).low_u64() & row_mask) >> c0;
            top == bottom.reverse_bits() >> (64 - wd)
        });
        if !symmetric {
            return Known::Nothing;
        }
        let cell = |r: u32, col: u32| c.has((r0 + r) * w + c0 + col);
        let centre_free = if h % 2 == 1 {
            cell(h / 2, wd / 2 - 1) && cell(h / 2, wd / 2)
        } else if wd % 2 == 1 {
            cell(h / 2 - 1, wd / 2) && cell(h / 2, wd / 2)
        } else {
            false
        };
        if centre_free {
            Known::NotZero
        } else {
            Known::Exact(0)
        }
    }
}

/// The 8x8 bit matrix transposed (row i is byte i, column j bit j): three
/// rounds of swapping blocks across the diagonal (Hacker's Delight, 7-3).
#[inline]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// The least image of a region of a board laid out a row a byte, among its
/// images under the eight symmetries of the square (all fit: the board is
/// at most 8x8) that have no more rows than columns: four when the region's
/// box is not square (the other four are its transposes), all eight when it is.
#[inline]
fn canonical_bytes(c: u64) -> u64 {
    // To the corner: rows down to byte 0, columns down to bit 0.
    let x = c >> (c.trailing_zeros() & !7);
    let mut cols = x | (x >> 32);
    cols |= cols >> 16;
    cols |= cols >> 8;
    let cols = cols & 0xFF;
    let x = x >> cols.trailing_zeros();
    let wd = 64 - (cols >> cols.trailing_zeros()).leading_zeros();
    let h = (63 - x.leading_zeros()) / 8 + 1;
    // Each byte's bits reversed, then back to the corner.
    let mirror = |x: u64, wd: u32| x.reverse_bits().swap_bytes() >> (8 - wd);
    let flip = |x: u64, h: u32| x.swap_bytes() >> (8 * (8 - h));
    let mut best = u64::MAX;
    if h <= wd {
        let m = mirror(x, wd);
        best = x.min(m).min(flip(x, h)).min(flip(m, h));
    }
    if h >= wd {
        let t = transpose8(x);
        let tm = mirror(t, h);
        best = best.min(t).min(tm).min(flip(t, wd)).min(flip(tm, wd));
    }
    best
}

/// [`canonical_bytes`] for boards of up to 4 rows of up to 16 cells laid out
/// a row every 16 bits: the same images, chosen the same way. (A region
/// with no more columns than rows has at most 4 of each, so its transpose
/// goes through the byte layout.)
#[inline]
fn canonical_lanes(c: u64) -> u64 {
    let x = c >> (c.trailing_zeros() & !15);
    let mut cols = x | (x >> 32);
    cols |= cols >> 16;
    let cols = cols & 0xFFFF;
    let x = x >> cols.trailing_zeros();
    let wd = 64 - (cols >> cols.trailing_zeros()).leading_zeros();
    let h = (63 - x.leading_zeros()) / 16 + 1;
    const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    // The four rows in reverse order.
    let rows_reversed = |y: u64| {
        let y = y.swap_bytes();
        ((y >> 8) & LOW_BYTES) | ((y & LOW_BYTES) << 8)
    };
    let mirror = |x: u64, wd: u32| rows_reversed(x.reverse_bits()) >> (16 - wd);
    let flip = |x: u64, h: u32| rows_reversed(x) >> (16 * (4 - h));
    let mut best = u64::MAX;
    if h <= wd {
        let m = mirror(x, wd);
        best = x.min(m).min(flip(x, h)).min(flip(m, h));
    }
    if h >= wd {
        // Rows of at most 4 cells: to a byte each, transposed, and back.
        let mut y = x & LOW_BYTES;
        y = (y | (y >> 8)) & 0x0000_FFFF_0000_FFFF;
        y = (y | (y >> 16)) & 0xFFFF_FFFF;
        let mut t = transpose8(y) & 0xFFFF_FFFF;
        t = (t | (t << 16)) & 0x0000_FFFF_0000_FFFF;
        t = (t | (t << 8)) & LOW_BYTES;
        let tm = mirror(t, h);
        best = best.min(t).min(tm).min(flip(t, wd)).min(flip(tm, wd));
    }
    best
}

/// Regions taller than this are keyed without their mirror images.
const MAX_SYMMETRIC_ROWS: usize = 16;

impl<B: Bits> CramGame<B> {
    /// The least of a region's images under the two mirrors and the half
    /// turn; `rows` are `width` cells wide, at the corner.
    #[inline]
    fn least_image(&self, rows: &[u64], width: u32) -> B {
        let w = self.width;
        let h = rows.len() as u32;
        let (mut a, mut b, mut c, mut d) = (B::ZERO, B::ZERO, B::ZERO, B::ZERO);
        for (i, &r) in rows.iter().enumerate() {
            let i = i as u32;
            let m = r.reverse_bits() >> (64 - width);
            let (down, up) = (i * w, (h - 1 - i) * w);
            let (r, m) = (B::from_u128(r as u128), B::from_u128(m as u128));
            a |= r << down;
            b |= m << down;
            c |= r << up;
            d |= m << up;
        }
        a.min(b).min(c).min(d)
    }
}

/// The family `cram`: boards of any size up to 128 cells.
#[derive(Debug, Clone, Default)]
pub struct Cram;

/// A Cram board's shape: rows and columns.
pub type Shape = (u32, u32);

impl Cram {
    fn parse_board(text: &str) -> Result<(Shape, u128)> {
        let t = text.trim();
        if let Some((r, c)) = t.split_once(['x', 'X']) {
            if r.bytes().all(|b| b.is_ascii_digit()) && c.bytes().all(|b| b.is_ascii_digit()) {
                let (rows, cols) = match (r.parse::<u32>(), c.parse::<u32>()) {
                    (Ok(a), Ok(b)) if a >= 1 && b >= 1 => (a, b),
                    _ => {
                        return Err(Error::syntax(
                            "a Cram board is RxC with R, C >= 1 (5x8), or rows of `.` and `#` joined by `/`",
                            t,
                            None,
                        ))
                    }
                };
                check_size(rows, cols, t)?;
                let n = rows * cols;
                let cells = if n == 128 {
                    u128::MAX
                } else {
                    (1u128 << n) - 1
                };
                return Ok(((rows, cols), cells));
            }
        }
        let rows: Vec<&str> = t.split('/').collect();
        let cols = rows[0].chars().count() as u32;
        if cols == 0 {
            return Err(Error::syntax(
                "a Cram board is RxC (5x8), or rows of `.` (empty) and `#` (filled) joined by `/` (../.#)",
                t,
                Some(0),
            ));
        }
        let mut cells = 0u128;
        let mut at = 0usize;
        for (i, row) in rows.iter().enumerate() {
            if row.chars().count() as u32 != cols {
                return Err(Error::syntax(
                    format!("every row of a Cram board has the same length: row {} has {} cells, the first has {cols}", i + 1, row.chars().count()),
                    t,
                    Some(at),
                ));
            }
            check_size(rows.len() as u32, cols, t)?;
            for (j, ch) in row.chars().enumerate() {
                match ch {
                    '.' => cells |= 1u128 << (i as u32 * cols + j as u32),
                    '#' => {}
                    _ => {
                        return Err(Error::syntax(
                            "a Cram board's cells are `.` (empty) or `#` (filled)",
                            t,
                            Some(at + j),
                        ))
                    }
                }
            }
            at += row.chars().count() + 1;
        }
        Ok(((rows.len() as u32, cols), cells))
    }

    fn rows_text(shape: Shape, cells: u128) -> String {
        let (r, c) = shape;
        (0..r)
            .map(|i| {
                (0..c)
                    .map(|j| {
                        if cells >> (i * c + j) & 1 == 1 {
                            '.'
                        } else {
                            '#'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The strips of free cells of a board one cell wide that is too long to
/// search as a board (`1x1000`, `1000x1`, or one row of `.` and `#` wider
/// than 64 cells): such a board is a sum of heaps of the octal game 0.07,
/// one heap a run of free cells. `None` for every other text.
pub fn long_strip(text: &str) -> Option<Vec<u64>> {
    let t = text.trim();
    if let Some((r, c)) = t.split_once(['x', 'X']) {
        let (rows, cols) = (r.trim().parse::<u64>().ok()?, c.trim().parse::<u64>().ok()?);
        let n = match (rows, cols) {
            (1, n) | (n, 1) => n,
            _ => return None,
        };
        return (n > MAX_CELLS as u64 || cols > 64).then(|| vec![n]);
    }
    let rows: Vec<&str> = t.split('/').collect();
    let (cells, long) = if rows.len() == 1 {
        (rows[0].to_string(), rows[0].len() > 64)
    } else if rows.iter().all(|r| r.len() == 1) {
        (rows.concat(), rows.len() > MAX_CELLS as usize)
    } else {
        return None;
    };
    if !long || !cells.chars().all(|c| c == '.' || c == '#') {
        return None;
    }
    Some(
        cells
            .split('#')
            .filter(|run| !run.is_empty())
            .map(|run| run.len() as u64)
            .collect(),
    )
}

/// G(n) of the octal game 0.07 (Dawson's Kayles, a domino on a strip of n
/// cells) for n = 0..=128: the nimbers of Cram's straight strips. Computed
/// by the mex rule at compile time; checked against the octal engine and
/// against the plain search in the tests.
const DAWSON: [u8; 129] = {
    let mut g = [0u8; 129];
    let mut n = 2;
    while n <= 128 {
        // A domino on cells i, i+1 leaves strips of i and n - 2 - i.
        let mut seen = 0u128;
        let mut i = 0;
        while i + 2 <= n {
            seen |= 1 << (g[i] ^ g[n - 2 - i]);
            i += 1;
        }
        g[n] = seen.trailing_ones() as u8;
        n += 1;
    }
    g
};

fn check_size(rows: u32, cols: u32, text: &str) -> Result<()> {
    if (rows as u64) * (cols as u64) > MAX_CELLS as u64 || cols > 64 {
        return Err(Error::TooLarge(format!(
            "Cram board {text} has {} cells; boards up to {MAX_CELLS} cells (and 64 columns) can be searched",
            rows as u64 * cols as u64
        )));
    }
    Ok(())
}

/// Reads a cell's name (`b3`) on a board of `shape`.
fn cell_index(shape: Shape, name: &str) -> Option<u32> {
    let letters: String = name
        .chars()
        .take_while(|c| c.is_ascii_lowercase())
        .collect();
    let digits = &name[letters.len()..];
    let col = match letters.as_bytes() {
        [a] => (a - b'a') as u32,
        [a, b] => (a - b'a' + 1) as u32 * 26 + (b - b'a') as u32,
        _ => return None,
    };
    let row: u32 = digits.parse().ok()?;
    (row >= 1 && row <= shape.0 && col < shape.1).then(|| (row - 1) * shape.1 + col)
}

/// A cell's name: column letter, row number from the top (`b3`).
fn cell_name(shape: Shape, i: u32) -> String {
    let col = i % shape.1;
    let row = i / shape.1;
    let letters = if col < 26 {
        ((b'a' + col as u8) as char).to_string()
    } else {
        format!(
            "{}{}",
            (b'a' + (col / 26 - 1) as u8) as char,
            (b'a' + (col % 26) as u8) as char
        )
    };
    format!("{letters}{}", row + 1)
}

impl Kind for Cram {
    type Shape = Shape;

    fn spec(&self) -> String {
        "cram".into()
    }

    fn parse(&self, text: &str) -> Result<(Shape, u128)> {
        Cram::parse_board(text)
    }

    fn read_position(&self, p: &Position) -> Option<(Shape, u128)> {
        Cram::parse_board(p.as_text()?).ok()
    }

    fn to_position(&self, shape: Shape, cells: u128) -> Position {
        Position::Text(Cram::rows_text(shape, cells))
    }

    fn format(&self, shape: Shape, cells: u128) -> String {
        let n = shape.0 * shape.1;
        let full = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        if cells == full {
            format!("{}x{}", shape.0, shape.1)
        } else {
            Cram::rows_text(shape, cells)
        }
    }

    fn show(&self, shape: Shape, cells: u128) -> String {
        let (r, c) = shape;
        let mut out = String::from("   ");
        for j in 0..c {
            let name = cell_name(shape, j);
            out.push_str(&format!(" {}", &name[..name.len() - 1]));
        }
        for i in 0..r {
            out.push_str(&format!("\n{:>3}", i + 1));
            for j in 0..c {
                let free = cells >> (i * c + j) & 1 == 1;
                out.push_str(if free { " ." } else { " #" });
            }
        }
        out
    }

    fn describe(&self, shape: Shape, from: u128, to: u128) -> Option<String> {
        let placed = from & !to;
        if placed.count_ones() != 2 {
            return None;
        }
        let a = placed.trailing_zeros();
        let b = 127 - placed.leading_zeros();
        Some(format!(
            "domino {}-{}",
            cell_name(shape, a),
            cell_name(shape, b)
        ))
    }

    fn shorthand(&self, shape: Shape, cells: u128, text: &str) -> Option<u128> {
        let t = text.trim();
        let t = t.strip_prefix("domino").unwrap_or(t).trim();
        let (a, b) = t.split_once('-')?;
        let (a, b) = (cell_index(shape, a.trim())?, cell_index(shape, b.trim())?);
        let (a, b) = (a.min(b), a.max(b));
        let adjacent = (b == a + 1 && b % shape.1 != 0) || b == a + shape.1;
        let both_free = cells >> a & 1 == 1 && cells >> b & 1 == 1;
        (adjacent && both_free).then(|| cells & !(1 << a) & !(1 << b))
    }

    fn engine_tag(&self, shape: Shape) -> String {
        format!("cram {}x{}", shape.0, shape.1)
    }

    fn engine(
        &self,
        shape: Shape,
        tt_bytes: usize,
        _max_states: usize,
    ) -> Result<Box<dyn crate::search::family::Engine>> {
        let cells = shape.0 * shape.1;
        Ok(if shape.0 <= 8 && shape.1 <= 8 {
            // A row a byte: symmetries by byte operations.
            Box::new(crate::search::Searcher::new(
                CramGame::<u64>::with_stride(shape.1, 8),
                tt_bytes,
            )?)
        } else if shape.0 <= 4 && shape.1 <= 16 {
            // A row every 16 bits: the same by 16-bit operations.
            Box::new(crate::search::Searcher::new(
                CramGame::<u64>::with_stride(shape.1, 16),
                tt_bytes,
            )?)
        } else if cells <= 64 && shape.1 < 64 {
            // (A row of 64 goes to u128: shifting a u64 by a whole row of
            // 64 would not be a shift.)
            Box::new(crate::search::Searcher::new(
                CramGame::<u64>::new(shape.1),
                tt_bytes,
            )?)
        } else {
            Box::new(crate::search::Searcher::new(
                CramGame::<u128>::new(shape.1),
                tt_bytes,
            )?)
        })
    }

    fn table_origin(&self) -> [u64; 2] {
        [1, 1]
    }

    fn table_row_game(&self, row: u64) -> Option<crate::family::RowGame> {
        // A domino on a 1xN strip covers two adjacent cells of a heap of N,
        // leaving the cells on either side: 0, 1 or 2 strips, which is
        // exactly a move of the octal game 0.07 (Dawson's Kayles).
        (row == 1).then(|| crate::family::RowGame {
            spec: "0.07".into(),
            first_heap: 1,
            why: "a 1xN board is 0.07 on a heap of N (a domino takes two adjacent cells, leaving 0, 1 or 2 strips)".into(),
        })
    }

    fn table_shapes(&self, size: (u32, u32)) -> Option<crate::search::family::Board<Shape>> {
        let (r, c) = size;
        Some(
            (1..=r)
                .map(|i| {
                    (1..=c)
                        .map(|j| {
                            let n = i * j;
                            let full = if n == 128 {
                                u128::MAX
                            } else {
                                (1u128 << n) - 1
                            };
                            ((i, j), full)
                        })
                        .collect()
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_are_dawsons_kayles() {
        // DAWSON against the octal engine's 0.07.
        let mut dawson =
            crate::spec::parse_game("0.07", crate::family::Settings::default()).unwrap();
        let mut values = Vec::new();
        dawson
            .sequence(0, 128, &mut |_, v| {
                values.push(v);
                Ok(())
            })
            .unwrap();
        let table: Vec<u64> = DAWSON.iter().map(|&v| v as u64).collect();
        assert_eq!(table, values);
        // Straight runs, either way, are strips; anything else is not.
        let g = CramGame::<u64>::new(4);
        assert_eq!(g.strip_length(0b0111 << 4), Some(3));
        assert_eq!(g.strip_length(1 | 1 << 4 | 1 << 8), Some(3));
        assert_eq!(g.strip_length(0b0011_1100), None); // two runs on two rows
        assert_eq!(g.strip_length(0b0001_1000), None); // across a row's end
        assert_eq!(g.strip_length(0b0011_0011), None); // a square
                                                       // Rows of 64 cells (a row a whole u64 word would not shift).
        for cols in [63, 64] {
            let wide = CramGame::<u128>::new(cols);
            let row = (1u128 << cols) - 1;
            assert_eq!(wide.strip_length(row), Some(cols));
            assert_eq!(wide.strip_length(row | row << cols), None);
        }
    }

    #[test]
    fn regions_moves_and_symmetry() {
        let g = CramGame::<u64>::new(4);
        // 3x4 board, all empty.
        let full = (1u64 << 12) - 1;
        let mut comps = vec![];
        g.split(full, &mut comps);
        assert_eq!(comps, [full]);
        let mut opts = vec![];
        g.options(full, &mut opts);
        assert_eq!(opts.len(), 3 * 3 + 2 * 4);
        // Cells 0, 4 and 8 form a column; cell 3 is alone and has no move.
        // Cells 0 and 8 hang on 4 alone: one of them goes (a domino is left).
        comps.clear();
        g.split(0b0001_0001_1001, &mut comps);
        assert_eq!(comps, [0b0001_0001]);
        // The bridge rule: in the 2x3 board
        // without its bottom middle cell, the top middle cell joins two
        // cells that have pendants; it goes, and two dominoes are left.
        let g3 = CramGame::<u64>::new(3);
        comps.clear();
        g3.split(0b101_111, &mut comps);
        assert_eq!(comps, [0b001_001, 0b100_100]);
        // A domino-shaped region anywhere, either way round, has one key.
        let h = g.canonical(0b0110 << 4);
        let v = g.canonical((1 << 2) | (1 << 6));
        assert_eq!(h, v);
        assert_eq!(h, 0b11);
        // Even boards and half-turn-symmetric regions with even sides are 0.
        assert_eq!(g.settled((1 << 8) - 1), Known::Exact(0)); // 2x4
        assert_eq!(g.settled(0b0011_1100), Known::Exact(0)); // rows 0011 and 1100 (bits low first)
        assert_eq!(g.settled(0b0110_1111), Known::Nothing); // 1111 over 0110
        assert_eq!(g.settled((1 << 12) - 1), Known::NotZero); // 3x4: the centre is free
        assert_eq!(g.settled(0b0011_1111), Known::Nothing);
        // 3x4 with the centre pair filled: nothing holds the centre.
        assert_eq!(g.settled(0b1111_1001_1111), Known::Exact(0));
    }

    #[test]
    fn byte_boards_key_like_the_general_code() {
        // The same regions on an 8-wide board, keyed by the byte path and by
        // the general path: equal keys for equal classes.
        let fast = CramGame::<u64>::with_stride(6, 8);
        let general = CramGame::<u64>::new(8);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let region = x & 0x003F_3F3F_3F3F_3F3F & (x >> 9);
            if region == 0 {
                continue;
            }
            assert_eq!(
                fast.canonical(region),
                general.canonical_general(region),
                "{region:#x}"
            );
        }
        // Boards of up to 4 rows a row every 16 bits: the same.
        let lanes = CramGame::<u64>::with_stride(11, 16);
        let general = CramGame::<u64>::new(16);
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let region = x & 0x07FF_07FF_07FF_07FF & (x >> 5);
            if region == 0 {
                continue;
            }
            assert_eq!(
                lanes.canonical(region),
                general.canonical_general(region),
                "{region:#x}"
            );
        }
        // Layouts convert both ways.
        let g = CramGame::<u64>::with_stride(3, 8);
        let board: u128 = 0b101_110; // rows 110, 101 on a 3-wide board
        assert_eq!(g.import(board), 0b101_0000_0110);
        assert_eq!(g.export(g.import(board)), board);
    }

    #[test]
    fn every_image_of_a_region_has_the_same_key() {
        // Regions of a 4x4 corner, turned and mirrored cell by cell, keyed
        // in the byte, 16-bit and general layouts.
        fn image(cells: u16, t: u32) -> [[bool; 4]; 4] {
            let mut out = [[false; 4]; 4];
            for r in 0..4 {
                for c in 0..4 {
                    let (mut a, mut b) = (r, c);
                    if t & 1 != 0 {
                        b = 3 - b;
                    }
                    if t & 2 != 0 {
                        a = 3 - a;
                    }
                    if t & 4 != 0 {
                        std::mem::swap(&mut a, &mut b);
                    }
                    out[a][b] = cells >> (r * 4 + c) & 1 == 1;
                }
            }
            out
        }
        let layouts: [(CramGame<u64>, u32); 3] = [
            (CramGame::with_stride(4, 8), 8),
            (CramGame::with_stride(4, 16), 16),
            (CramGame::new(5), 5),
        ];
        for cells in 1..=u16::MAX {
            for (game, stride) in &layouts {
                let key = |grid: [[bool; 4]; 4]| {
                    let mut p = 0u64;
                    for (r, row) in grid.iter().enumerate() {
                        for (c, &on) in row.iter().enumerate() {
                            if on {
                                p |= 1 << (r as u32 * stride + c as u32);
                            }
                        }
                    }
                    game.canonical(p)
                };
                let first = key(image(cells, 0));
                for t in 1..8 {
                    assert_eq!(
                        key(image(cells, t)),
                        first,
                        "{cells:#x}, image {t}, stride {stride}"
                    );
                }
            }
        }
    }

    #[test]
    fn boards_read_and_write() {
        let c = Cram;
        let (shape, cells) = c.parse("2x3").unwrap();
        assert_eq!((shape, cells), ((2, 3), 0b111111));
        assert_eq!(c.format(shape, cells), "2x3");
        let (shape, cells) = c.parse("..#/...").unwrap();
        assert_eq!(c.format(shape, cells), "..#/...");
        assert!(c.parse("../.").is_err());
        assert!(c.parse("..x").is_err());
        assert!(c.parse("12x12").is_err());
        assert!(c.parse("0x3").is_err());
        assert_eq!(
            c.describe((2, 3), 0b111111, 0b111100).unwrap(),
            "domino a1-b1"
        );
    }

    /// The options of `game` from its table of box orders against the
    /// ring order they were made from: for the positions, and the keys of
    /// their regions (which may lie turned, wider than the board).
    fn options_match_the_ring_order<B: Bits>(game: &CramGame<B>, cells: u128) {
        let pos = game.import(cells);
        let mut parts = Vec::new();
        game.split(pos, &mut parts);
        let keys: Vec<B> = parts.iter().map(|&p| game.canonical(p)).collect();
        for c in [pos].into_iter().chain(parts).chain(keys) {
            let (mut fast, mut ring) = (Vec::new(), Vec::new());
            game.options(c, &mut fast);
            if c != B::ZERO {
                game.options_ring_order(c, game.bounds(c), &mut ring);
            }
            assert_eq!(fast, ring, "options of {:#x}", c.to_u128());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        #[test]
        fn options_in_box_order_are_the_ring_order(cells in proptest::prelude::any::<u128>(), keep in 0u32..4) {
            // Sparse and dense boards: cells kept with odds 1/2 to 15/16.
            let mut cells = cells;
            for k in 0..keep {
                cells |= cells.rotate_left(17 + k * 7);
            }
            let board = |rows: u32, cols: u32| cells & ((1u128 << (rows * cols)) - 1);
            options_match_the_ring_order(&CramGame::<u64>::with_stride(5, 8), board(6, 5));
            options_match_the_ring_order(&CramGame::<u64>::with_stride(8, 8), board(5, 8));
            options_match_the_ring_order(&CramGame::<u64>::with_stride(11, 16), board(4, 11));
            options_match_the_ring_order(&CramGame::<u64>::new(7), board(9, 7));
            options_match_the_ring_order(&CramGame::<u128>::new(13), board(9, 13));
        }
    }
}
