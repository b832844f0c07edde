//! Checkpoints of heap tables: a long `seq` or `period` run saves its values
//! so that an interruption or a crash loses nothing finished.
//!
//! The file holds a magic line, a format version, the game's canonical spec,
//! the values (two or four bytes each, little-endian) and a 64-bit FNV-1a
//! checksum of everything before it. It is written to a temporary file beside
//! the target and renamed over it, so a checkpoint on disk is always whole:
//! either the previous one or the new one. A file for another game, of another
//! version, truncated or altered, is refused with a message saying which.

use super::rare::{Packed, Values};
use crate::error::{Error, Result};
use std::fs;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

const MAGIC: &[u8] = b"GRUNDY-CHECKPOINT\n";
const VERSION: u32 = 1;

pub(crate) fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= *b as u64;
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A writer that checksums what passes through it.
struct Summing<W> {
    inner: W,
    hash: u64,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        fnv1a(&mut self.hash, &buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The values of a table, borrowed: what a checkpoint holds, without the
/// copy of the whole table that owning them would take.
#[derive(Debug, Clone, Copy)]
pub enum Slice<'a> {
    /// Every value fits in 16 bits.
    Narrow(&'a [u16]),
    /// Some value may not.
    Wide(&'a [u32]),
    /// Every value fits in 16 bits, the middle ones in a byte.
    Packed(&'a Packed),
}

impl<'a> From<&'a Values> for Slice<'a> {
    fn from(values: &'a Values) -> Self {
        match values {
            Values::Narrow(v) => Slice::Narrow(v),
            Values::Wide(v) => Slice::Wide(v),
            Values::Packed(p) => Slice::Packed(p),
        }
    }
}

/// Saves `values` of game `spec` to `path`, atomically.
pub fn save(path: &Path, spec: &str, values: &Values) -> Result<()> {
    save_slice(path, spec, values.into())
}

/// [`save`] of borrowed values.
pub fn save_slice(path: &Path, spec: &str, values: Slice<'_>) -> Result<()> {
    write_checked(path, "checkpoint ", MAGIC, |write| {
        write(&VERSION.to_le_bytes())?;
        write(&(spec.len() as u32).to_le_bytes())?;
        write(spec.as_bytes())?;
        // Each value as `width` little-endian bytes, 65,536 values a write.
        let (width, count) = match values {
            Slice::Narrow(v) => (2u8, v.len()),
            Slice::Wide(v) => (4, v.len()),
            Slice::Packed(p) => (2, p.len()),
        };
        write(&[width])?;
        write(&(count as u64).to_le_bytes())?;
        for start in (0..count).step_by(1 << 16) {
            let end = count.min(start + (1 << 16));
            let bytes: Vec<u8> = match values {
                Slice::Narrow(v) => v[start..end].iter().flat_map(|x| x.to_le_bytes()).collect(),
                Slice::Wide(v) => v[start..end].iter().flat_map(|x| x.to_le_bytes()).collect(),
                Slice::Packed(p) => (start..end)
                    .flat_map(|i| (p.get(i) as u16).to_le_bytes())
                    .collect(),
            };
            write(&bytes)?;
        }
        Ok(())
    })
}

/// Refuses loaded values that no game could have: a first value that is
/// not 0, or a value above the number of options of its heap (a mex is at
/// most that). For games without digits, each value must be at most the
/// power of two above the values before it (options are sums of smaller
/// heaps, so their values stay below it) and below 2^31. A checksum guards
/// against damage; this guards the engine against a file written by hand.
pub fn check_values<H: crate::heap::HeapGame + ?Sized>(
    path: &Path,
    game: &H,
    values: &Values,
) -> Result<()> {
    let rules = game.take_break();
    let mut top = 0u64;
    let mut check = |n: usize, v: u64| -> Result<()> {
        let bound = match &rules {
            Some(rules) => rules.option_count(n),
            None if n == 0 => 0,
            None => ((top + 1).next_power_of_two()).min((1 << 31) - 1),
        };
        if v > bound {
            return Err(Error::invalid(format!(
                "refusing checkpoint {}: heap {n} has value {v}, more than its {bound} options allow",
                path.display()
            )));
        }
        top = top.max(v);
        Ok(())
    };
    match values {
        Values::Narrow(v) => v
            .iter()
            .enumerate()
            .try_for_each(|(n, &x)| check(n, u64::from(x))),
        Values::Wide(v) => v
            .iter()
            .enumerate()
            .try_for_each(|(n, &x)| check(n, u64::from(x))),
        Values::Packed(p) => (0..p.len()).try_for_each(|n| check(n, u64::from(p.get(n)))),
    }
}

/// Loads the values saved for game `spec`; `Ok(None)` when `path` does not exist yet.
pub fn load(path: &Path, spec: &str, admit: &dyn Fn(u64) -> Result<()>) -> Result<Option<Values>> {
    let refuse =
        |why: &str| Error::invalid(format!("refusing checkpoint {}: {why}", path.display()));
    // A checkpoint is written again and again: a path that cannot hold one
    // is refused before any work.
    crate::files::target(path, crate::files::Allow::RegularOnly)?;
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::Io(format!(
                "cannot read checkpoint {}: {e}",
                path.display()
            )))
        }
    };
    let io =
        |e: std::io::Error| Error::Io(format!("cannot read checkpoint {}: {e}", path.display()));
    let size = file.metadata().map_err(io)?.len();
    // Read through the checksum as it goes: the values are the only copy
    // held, not the file's bytes besides.
    let mut input = Checked {
        inner: std::io::BufReader::with_capacity(1 << 20, file),
        hash: FNV_OFFSET,
    };
    let mut take = |n: usize| -> Result<Vec<u8>> {
        let mut bytes = vec![0; n];
        input
            .read_exact(&mut bytes)
            .map_err(|_| refuse("it is truncated"))?;
        Ok(bytes)
    };
    let magic = take(MAGIC.len().min(size as usize))?;
    if magic != MAGIC {
        return Err(refuse("it is not a grundy checkpoint"));
    }
    let version = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(refuse(&format!(
            "it was written by format version {version}, this grundy reads version {VERSION}"
        )));
    }
    let spec_len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as u64;
    if spec_len > size {
        return Err(refuse("it is truncated"));
    }
    let saved_spec = String::from_utf8_lossy(&take(spec_len as usize)?).into_owned();
    if saved_spec != spec {
        return Err(refuse(&format!("it is for {saved_spec}, not {spec}")));
    }
    let width = take(1)?[0];
    if width != 2 && width != 4 {
        return Err(refuse("it is corrupted"));
    }
    let count = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    // The values and the checksum must be the rest of the file, exactly:
    // a count that says otherwise is refused before anything is allocated.
    let header = MAGIC.len() as u64 + 4 + 4 + spec_len + 1 + 8;
    if count
        .checked_mul(u64::from(width))
        .and_then(|b| b.checked_add(header + 8))
        != Some(size)
    {
        return Err(refuse("it is truncated or corrupted"));
    }
    // The run's limits (heaps and memory) before the table is allocated.
    admit(count)?;
    let count = count as usize;
    let mut chunk = vec![0u8; 1 << 16];
    let mut values = if width == 2 {
        Values::Narrow(Vec::with_capacity(count))
    } else {
        Values::Wide(Vec::with_capacity(count))
    };
    let mut left = count * width as usize;
    while left > 0 {
        let n = left.min(chunk.len());
        input
            .read_exact(&mut chunk[..n])
            .map_err(|_| refuse("it is truncated"))?;
        match &mut values {
            Values::Narrow(v) => v.extend(
                chunk[..n]
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]])),
            ),
            Values::Wide(v) => v.extend(
                chunk[..n]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
            Values::Packed(_) => unreachable!("a loaded table starts unpacked"),
        }
        left -= n;
    }
    let hash = input.hash;
    let mut tail = [0u8; 8];
    input
        .inner
        .read_exact(&mut tail)
        .map_err(|_| refuse("it is truncated"))?;
    if hash.to_le_bytes() != tail {
        return Err(refuse(
            "its checksum does not match (truncated or corrupted)",
        ));
    }
    Ok(Some(values))
}

/// A reader that checksums what passes through it.
struct Checked<R> {
    inner: R,
    hash: u64,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        fnv1a(&mut self.hash, &buf[..n]);
        Ok(n)
    }
}

/// Writes a file atomically (temporary file, then rename): `magic`, what
/// `body` writes through the function it is given, and a checksum.
pub(crate) fn save_blob(
    path: &Path,
    magic: &[u8],
    body: impl FnOnce(&mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()>,
) -> Result<()> {
    write_checked(path, "", magic, body)
}

/// [`save_blob`], with `what` (such as "checkpoint ") before the path in
/// the message of a failed write.
fn write_checked(
    path: &Path,
    what: &str,
    magic: &[u8],
    body: impl FnOnce(&mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()>,
) -> Result<()> {
    let io = |e: std::io::Error| Error::Io(format!("cannot write {what}{}: {e}", path.display()));
    let mut output = crate::files::Output::create(path, crate::files::Allow::RegularOnly)?;
    let file = output.take_file();
    let mut out = Summing {
        inner: BufWriter::with_capacity(1 << 20, file),
        hash: FNV_OFFSET,
    };
    out.write_all(magic).map_err(io)?;
    body(&mut |bytes: &[u8]| out.write_all(bytes).map_err(io))?;
    let hash = out.hash;
    let mut inner = out.inner;
    inner.write_all(&hash.to_le_bytes()).map_err(io)?;
    let file = inner.into_inner().map_err(|e| io(e.into_error()))?;
    output.commit_file(file)
}

/// Reads a file written by [`save_blob`] with the same `magic`: the body,
/// checked; `Ok(None)` if the file does not exist.
pub(crate) fn load_blob(path: &Path, magic: &[u8]) -> Result<Option<Vec<u8>>> {
    let refuse = |why: &str| Error::invalid(format!("refusing {}: {why}", path.display()));
    crate::files::target(path, crate::files::Allow::RegularOnly)?;
    let mut bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Io(format!("cannot read {}: {e}", path.display()))),
    };
    if !bytes.starts_with(magic) {
        return Err(refuse("it is not a file this kind of grundy run writes"));
    }
    if bytes.len() < magic.len() + 8 {
        return Err(refuse("it is truncated"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let mut hash = FNV_OFFSET;
    fnv1a(&mut hash, body);
    if hash.to_le_bytes() != tail {
        return Err(refuse(
            "its checksum does not match (truncated or corrupted)",
        ));
    }
    // The body in place, not copied: a transposition table's file may be
    // gigabytes.
    bytes.truncate(bytes.len() - 8);
    bytes.drain(..magic.len());
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admits a checkpoint of any size.
    fn any(_: u64) -> Result<()> {
        Ok(())
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-ck-{}-{name}", std::process::id()));
        let _ = fs::create_dir_all(&dir);
        dir.join("values.ck")
    }

    #[test]
    fn round_trip_and_refusals() {
        let path = temp("rt");
        assert_eq!(load(&path, "0.07", &any).unwrap(), None);
        let values = Values::Narrow(vec![0, 0, 1, 1, 2, 0, 3]);
        save(&path, "0.07", &values).unwrap();
        assert_eq!(load(&path, "0.07", &any).unwrap(), Some(values.clone()));
        let wide = Values::Wide(vec![0, 70_000, 5]);
        save(&path, "0.07", &wide).unwrap();
        assert_eq!(load(&path, "0.07", &any).unwrap(), Some(wide));

        let err = load(&path, "0.77", &any).unwrap_err().to_string();
        assert!(err.contains("it is for 0.07, not 0.77"), "{err}");

        // Any flipped byte is caught.
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(load(&path, "0.07", &any)
            .unwrap_err()
            .to_string()
            .contains("checksum"));

        fs::write(&path, b"hello").unwrap();
        assert!(load(&path, "0.07", &any)
            .unwrap_err()
            .to_string()
            .contains("not a grundy checkpoint"));
        fs::write(&path, &bytes[..40]).unwrap();
        assert!(load(&path, "0.07", &any).is_err());

        // A count larger than the file is refused before anything is
        // allocated for it (values are read as they come, not the file whole).
        save(&path, "0.07", &Values::Narrow(vec![1, 2, 3])).unwrap();
        let mut bytes = fs::read(&path).unwrap();
        let at = MAGIC.len() + 4 + 4 + "0.07".len() + 1;
        bytes[at..at + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        let err = load(&path, "0.07", &any).unwrap_err().to_string();
        assert!(err.contains("truncated or corrupted"), "{err}");
        // And a table far larger than the buffers round-trips.
        let long = Values::Narrow((0..300_000u32).map(|i| (i * 7 % 1000) as u16).collect());
        save(&path, "0.07", &long).unwrap();
        assert_eq!(load(&path, "0.07", &any).unwrap(), Some(long));
    }

    #[test]
    fn limits_and_impossible_values_are_refused() {
        let path = temp("limits");
        save(&path, "0.6", &Values::Narrow(vec![0, 0, 1, 2, 0])).unwrap();
        // The run's limits see the count before anything is read.
        let small = |count: u64| -> Result<()> {
            if count > 3 {
                Err(Error::invalid(format!("{count} values")))
            } else {
                Ok(())
            }
        };
        assert_eq!(
            load(&path, "0.6", &small).unwrap_err().to_string(),
            "5 values"
        );
        // Officers: heap 4 has 2 options (3 alone, and 1 + 2), so a value of
        // 3 there is impossible; 2 is not.
        let game = crate::games::octal::TakeBreakGame::from_digits(&[0, 6], false).unwrap();
        let path = std::path::Path::new("x.ckpt");
        let fine = Values::Narrow(vec![0, 0, 1, 2, 2]);
        assert!(check_values(path, &game, &fine).is_ok());
        let forged = Values::Wide(vec![0, 0, 1, 2, 3]);
        let err = check_values(path, &game, &forged).unwrap_err().to_string();
        assert!(err.contains("heap 4 has value 3"), "{err}");
        // The values of 0.6 computed by the engine all pass.
        let mut table = crate::heap::HeapTable::new();
        table.extend_to(&game, 5000);
        let values = Values::Narrow(table.to_vec().iter().map(|v| *v as u16).collect());
        assert!(check_values(path, &game, &values).is_ok());
    }
}
