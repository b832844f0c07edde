//! Certificates: a table of Grundy values of a take-and-break game, and the
//! period claimed for it, in a file that a separate checker (`grundy-verify`,
//! which shares no code with this crate) re-checks from the rules alone.
//!
//! The format, `grundy-certificate-1`: one line of JSON, a newline, then
//! G(0), ..., G(N - 1) as little-endian unsigned integers of `width` bytes
//! (1, 2 or 4: the fewest that hold every value). The header:
//!
//! - `format`: `"grundy-certificate-1"`;
//! - `game`: the code, `"0.16"` (octal), `"hex:0.8C"` (hexadecimal) or
//!   `"grundy"` (Grundy's game);
//! - `values`: N; `width`: bytes per value;
//! - `claim`: `{"preperiod": e, "period": p, "saltus": 0}`, least preperiod
//!   and least period, or `null` when no period is claimed;
//! - `common`: `{"even": [...], "odd": [...]}`, the values that are common at
//!   even and at odd heaps, such that no split of a heap into two common
//!   heaps reaches a value common at that heap; or `null`. It lets the
//!   checker look at splits through rare heaps only;
//! - `generator`: the program that wrote the file (informative).
//!
//! Nothing else follows the values. The guide's "Certificate format" page
//! describes the checks a checker makes.

use crate::error::{Error, Result};
use crate::heap::rare::{common_values, TakeBreak};
use crate::period::Periodicity;
use std::io::Write;

/// The format name in every header.
pub const FORMAT: &str = "grundy-certificate-1";

/// What a certificate holds, once written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The game as the header names it.
    pub game: String,
    /// Values written: G(0) to G(values - 1).
    pub values: u64,
    /// Bytes per value.
    pub width: u8,
    /// Bytes in the file.
    pub bytes: u64,
    /// Heaps outside the common classes (the checker looks at all their
    /// splits), when classes are listed.
    pub rare_heaps: Option<u64>,
}

/// The game's name in a certificate: its code, or `grundy`. `None` for rules
/// no checker reads (unequal parts with other digits than Grundy's game's).
pub fn game_name(rules: &TakeBreak) -> Option<String> {
    let digits = rules.digits();
    if rules.unequal() {
        return (digits == [4]).then(|| "grundy".to_string());
    }
    let hex = digits.iter().any(|d| *d > 7);
    let mut code = String::from(if hex { "hex:" } else { "" });
    code.push_str(&format!("{:X}.", digits[0]));
    if digits.len() == 1 {
        code.push('0');
    }
    for d in &digits[1..] {
        code.push_str(&format!("{d:X}"));
    }
    Some(code)
}

/// Writes the certificate of G(0), ..., G(len - 1), read from `value`, and
/// of `claim` (a proven periodicity with saltus 0) to `out`.
pub fn write(
    out: &mut dyn Write,
    rules: &TakeBreak,
    len: usize,
    value: impl Fn(usize) -> u32,
    claim: Option<&Periodicity>,
) -> Result<Written> {
    let game = game_name(rules).ok_or_else(|| {
        Error::invalid("certificates are written for octal and hexadecimal codes and Grundy's game")
    })?;
    if claim.is_some_and(|c| c.saltus != 0) {
        return Err(Error::invalid(
            "a certificate claims ordinary periods only (saltus 0)",
        ));
    }
    let max = (0..len).map(&value).max().unwrap_or(0);
    let width: u8 = match max {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    };
    let common = common_values(rules, len, &value);
    let rare_heaps = common.as_ref().map(|[even, odd]| {
        (1..len)
            .filter(|&n| {
                let list = if n % 2 == 0 { even } else { odd };
                list.binary_search(&value(n)).is_err()
            })
            .count() as u64
    });
    let list = |v: &[u32]| {
        let items: Vec<String> = v.iter().map(u32::to_string).collect();
        format!("[{}]", items.join(","))
    };
    let header = format!(
        "{{\"format\":\"{FORMAT}\",\"game\":\"{game}\",\"values\":{len},\"width\":{width},\"claim\":{},\"common\":{},\"generator\":\"grundy {}\"}}\n",
        match claim {
            Some(c) => format!(
                "{{\"preperiod\":{},\"period\":{},\"saltus\":0}}",
                c.preperiod, c.period
            ),
            None => "null".into(),
        },
        match &common {
            Some([even, odd]) => format!("{{\"even\":{},\"odd\":{}}}", list(even), list(odd)),
            None => "null".into(),
        },
        env!("CARGO_PKG_VERSION"),
    );
    let io = |e: std::io::Error| Error::Io(format!("cannot write the certificate: {e}"));
    out.write_all(header.as_bytes()).map_err(io)?;
    let mut buffer = Vec::with_capacity(1 << 16);
    for n in 0..len {
        let v = value(n);
        match width {
            1 => buffer.push(v as u8),
            2 => buffer.extend_from_slice(&(v as u16).to_le_bytes()),
            _ => buffer.extend_from_slice(&v.to_le_bytes()),
        }
        if buffer.len() >= 1 << 16 {
            out.write_all(&buffer).map_err(io)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer).map_err(io)?;
    out.flush().map_err(io)?;
    Ok(Written {
        game,
        values: len as u64,
        width,
        bytes: header.len() as u64 + len as u64 * width as u64,
        rare_heaps,
    })
}

/// A certificate file being written: opened at once (a path that cannot be
/// written is refused before any work), and put in place only once complete,
/// so that an interrupted run never leaves a partial certificate under the
/// name asked for (see [`crate::files`]: a device or a pipe is written
/// through, never replaced).
pub struct Pending {
    output: crate::files::Output,
}

impl Pending {
    /// Opens the certificate's output.
    pub fn create(path: &std::path::Path) -> Result<Pending> {
        Ok(Pending {
            output: crate::files::Output::create(path, crate::files::Allow::Through)?,
        })
    }

    /// The name the certificate gets once finished.
    pub fn path(&self) -> &std::path::Path {
        self.output.path()
    }

    /// Writes the certificate with `write_to` and puts it in place.
    pub fn finish(
        mut self,
        write_to: impl FnOnce(&mut dyn Write) -> Result<Written>,
    ) -> Result<Written> {
        let shown = self.output.path().display().to_string();
        let io = |e: std::io::Error| Error::Io(format!("{shown}: {e}"));
        let file = self.output.take_file();
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        let written = write_to(&mut out)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        self.output.commit_file(file)?;
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_named_by_their_codes() {
        let name = |d: &[u8]| game_name(&TakeBreak::new(d).unwrap()).unwrap();
        assert_eq!(name(&[0, 1, 6]), "0.16");
        assert_eq!(name(&[4, 0, 4]), "4.04");
        assert_eq!(name(&[4]), "4.0");
        assert_eq!(name(&[0, 8, 12]), "hex:0.8C");
        let grundy = TakeBreak::new(&[4]).unwrap().unequal_parts();
        assert_eq!(game_name(&grundy).as_deref(), Some("grundy"));
        let other = TakeBreak::new(&[0, 4]).unwrap().unequal_parts();
        assert_eq!(game_name(&other), None);
    }
}
