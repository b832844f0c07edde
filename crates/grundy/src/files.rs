//! Files grundy writes (`--out`, `--plot`, `--checkpoint`, `--certificate`,
//! census files): written so that nothing grundy did not create is ever
//! replaced or removed.
//!
//! A new regular file is written beside the target and renamed into place
//! once complete, so an interrupted run leaves the old file or the new one,
//! never half of one. The rename is only done over a regular file or where
//! nothing exists: renaming over `/dev/full` (as root) would destroy the
//! device node. A symbolic link is followed, and the file it names is
//! replaced, not the link. What is not a regular file is refused, except for
//! outputs read once (a plot, a sequence, a certificate), which may be
//! written straight through to a device or a pipe (`--plot /dev/stdout`),
//! where a failed write fails the command.

use crate::error::{Error, Result};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where an output may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allow {
    /// Only a regular file (or nothing yet): files read back later, such as
    /// checkpoints and census files.
    RegularOnly,
    /// A regular file, or straight through to a character device or a pipe:
    /// outputs read once.
    Through,
}

/// What a path names, after following symbolic links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Nothing yet: the file will be created there.
    Absent(PathBuf),
    /// A regular file, to be replaced.
    Regular(PathBuf),
    /// A character device or a pipe, written through.
    Stream(PathBuf),
}

impl Target {
    /// The path written to in the end (a link's target).
    pub fn path(&self) -> &Path {
        match self {
            Target::Absent(p) | Target::Regular(p) | Target::Stream(p) => p,
        }
    }
}

/// Looks at `path` before any work: follows symbolic links, and refuses a
/// directory, a dangling link, or (unless `allow` lets it through) anything
/// but a regular file.
pub fn target(path: &Path, allow: Allow) -> Result<Target> {
    let shown = path.display();
    if crate::IN_BROWSER {
        // WebAssembly in a page: no file system.
        return Err(Error::Io(format!(
            "cannot write {shown}: grundy in the browser has no files; the native grundy writes them"
        )));
    }
    let resolved = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Target::Absent(path.to_path_buf()))
        }
        Err(e) => return Err(Error::Io(format!("cannot write {shown}: {e}"))),
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(resolved) => resolved,
            // A link that resolves to no path but opens (`/dev/stdout` on
            // a pipe, through `/proc/self/fd/1` to `pipe:[...]`): written
            // through the link itself.
            Err(_) if fs::metadata(path).is_ok() => path.to_path_buf(),
            // A link to a file not yet there: the file is created where the
            // link points, as a shell's `>` would.
            Err(_) => return dangling(path),
        },
        Ok(_) => path.to_path_buf(),
    };
    let meta =
        fs::metadata(&resolved).map_err(|e| Error::Io(format!("cannot write {shown}: {e}")))?;
    let kind = file_kind(&meta);
    if meta.is_file() {
        return Ok(Target::Regular(resolved));
    }
    if meta.is_dir() {
        return Err(Error::Io(format!(
            "cannot write {shown}: it is a directory; name a file"
        )));
    }
    let stream = is_stream(&meta);
    if allow == Allow::Through && stream {
        return Ok(Target::Stream(resolved));
    }
    Err(Error::Io(format!(
        "refusing to write {shown}: it is {kind}, not a regular file; name a regular file"
    )))
}

/// Where a chain of symbolic links ending nowhere points: the file to create.
fn dangling(path: &Path) -> Result<Target> {
    let mut at = path.to_path_buf();
    // As many links as Linux follows (MAXSYMLINKS) before it gives up.
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = fs::read_link(&at)
                    .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Absent(at)),
            // The chain ends in something that exists but cannot be resolved
            // (a directory that cannot be searched, say).
            _ => break,
        }
    }
    Err(Error::Io(format!(
        "cannot write {}: its symbolic links do not lead to a file",
        path.display()
    )))
}

/// A character device or a pipe: something a write goes through to.
#[cfg(unix)]
fn is_stream(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    t.is_char_device() || t.is_fifo()
}

#[cfg(not(unix))]
fn is_stream(_: &fs::Metadata) -> bool {
    false
}

/// What a non-regular file is, in words.
fn file_kind(meta: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// An output file being written: opened at once (so a path that cannot be
/// written is refused before any work), put in place by [`Output::commit`].
/// Dropped without a commit, it removes what it created and nothing else.
pub struct Output {
    /// The path as the user wrote it, for messages.
    shown: PathBuf,
    target: Target,
    /// The file being written beside the target, for a regular file.
    partial: Option<PathBuf>,
    file: Option<File>,
}

impl Output {
    /// Opens an output for `path`: a new file `path.partial` beside a
    /// regular (or absent) target, or the device or pipe itself.
    pub fn create(path: &Path, allow: Allow) -> Result<Output> {
        let target = target(path, allow)?;
        let cannot = |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", path.display()));
        let (partial, file) = match &target {
            Target::Stream(p) => {
                let file = fs::OpenOptions::new().write(true).open(p).map_err(cannot)?;
                (None, file)
            }
            Target::Absent(p) | Target::Regular(p) => {
                let partial = beside(p, "partial");
                (Some(partial.clone()), create_new(&partial, path)?)
            }
        };
        Ok(Output {
            shown: path.to_path_buf(),
            target,
            partial,
            file: Some(file),
        })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("not yet committed")
    }

    /// Takes the file out, to hand to a writer on another thread; give it
    /// back to [`Output::commit_file`].
    pub fn take_file(&mut self) -> File {
        self.file.take().expect("taken once")
    }

    /// The path as the user wrote it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Flushes the file to disk and puts it in place.
    pub fn commit(mut self) -> Result<()> {
        let file = self.file.take().expect("committed once");
        self.commit_file(file)
    }

    /// [`Output::commit`] for a file taken out with [`Output::take_file`].
    pub fn commit_file(mut self, mut file: File) -> Result<()> {
        let io =
            |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", self.shown.display()));
        file.flush().map_err(io)?;
        match &self.target {
            Target::Stream(_) => Ok(()),
            Target::Absent(p) | Target::Regular(p) => {
                file.sync_all().map_err(io)?;
                drop(file);
                // The target may have changed while grundy worked: never
                // rename over what has become a device or a directory.
                target(&self.shown, Allow::RegularOnly)?;
                let partial = self.partial.take().expect("a regular target has one");
                if let Err(e) = fs::rename(&partial, p) {
                    let _ = fs::remove_file(&partial);
                    return Err(io(e));
                }
                Ok(())
            }
        }
    }
}

impl Drop for Output {
    /// An output not committed leaves nothing of its own behind.
    fn drop(&mut self) {
        if let Some(partial) = &self.partial {
            let _ = fs::remove_file(partial);
        }
    }
}

/// `path` with `.suffix` added to its name.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

/// Creates `partial` as a new file. A regular file already there is what an
/// earlier run left when it was killed, and is replaced; anything else there
/// is refused.
fn create_new(partial: &Path, shown: &Path) -> Result<File> {
    let cannot = |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", shown.display()));
    let open = || {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(partial)
    };
    match open() {
        Ok(file) => Ok(file),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            match fs::symlink_metadata(partial) {
                Ok(m) if m.is_file() => {
                    fs::remove_file(partial).map_err(cannot)?;
                    open().map_err(cannot)
                }
                _ => Err(Error::Io(format!(
                    "cannot write {}: {} is in the way and is not a regular file",
                    shown.display(),
                    partial.display()
                ))),
            }
        }
        Err(e) => Err(cannot(e)),
    }
}

/// Writes `bytes` to `path` safely, all at once.
pub fn write(path: &Path, bytes: &[u8], allow: Allow) -> Result<()> {
    let mut out = Output::create(path, allow)?;
    out.file()
        .write_all(bytes)
        .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = scratch("regular");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        write(&path, b"new", Allow::RegularOnly).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn an_output_dropped_unfinished_leaves_the_old_file() {
        let dir = scratch("dropped");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        let mut out = Output::create(&path, Allow::RegularOnly).unwrap();
        out.file().write_all(b"half").unwrap();
        drop(out);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let dir = scratch("link");
        let real = dir.join("real.txt");
        let link = dir.join("link.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write(&link, b"new", Allow::RegularOnly).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_file_not_yet_there_creates_it_and_keeps_the_link() {
        let dir = scratch("dangling");
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink("new.txt", &link).unwrap();
        write(&link, b"x", Allow::Through).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(dir.join("new.txt")).unwrap(), "x");
    }

    #[cfg(unix)]
    #[test]
    fn a_loop_of_links_is_refused() {
        let dir = scratch("loop");
        let a = dir.join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.join("b")).unwrap();
        let e = write(&a, b"x", Allow::Through).unwrap_err().to_string();
        assert!(e.contains("symbolic links"), "{e}");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = scratch("dir");
        let e = write(&dir, b"x", Allow::Through).unwrap_err().to_string();
        assert!(e.contains("directory"), "{e}");
        assert!(dir.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_never_replaced() {
        // /dev/null is a character device on every Unix.
        let null = Path::new("/dev/null");
        let e = Output::create(null, Allow::RegularOnly)
            .err()
            .expect("a device is not a checkpoint")
            .to_string();
        assert!(e.contains("character device"), "{e}");
        write(null, b"through", Allow::Through).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_write_through_fails() {
        // /dev/full refuses every write with ENOSPC.
        let e = write(Path::new("/dev/full"), b"x", Allow::Through)
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/full"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_refused_where_the_file_is_read_back() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = Output::create(&fifo, Allow::RegularOnly)
            .err()
            .expect("a pipe is not a checkpoint")
            .to_string();
        assert!(e.contains("a pipe"), "{e}");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_partial_file_left_by_a_killed_run_is_replaced() {
        let dir = scratch("stale");
        let path = dir.join("out.txt");
        fs::write(beside(&path, "partial"), "stale").unwrap();
        write(&path, b"new", Allow::RegularOnly).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    }
}
