//! Every file grundy writes (`--certificate`, `--plot`, `--out`,
//! `--checkpoint`, census files) leaves alone what is not a regular file:
//! a device node or a pipe is written through or refused, never replaced,
//! and a symbolic link is followed, not replaced.

mod common;

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mknod(path: &Path, major: u32, minor: u32) -> bool {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let dev = libc::makedev(major, minor);
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, dev) == 0 }
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn is_char_device(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_char_device())
        .unwrap_or(false)
}

fn run(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// A node like /dev/full (1, 7: every write fails with ENOSPC): a command
/// writing there fails, and the node is still a device afterwards. Making
/// device nodes needs root; elsewhere the same runs on a pipe's node below.
#[test]
fn a_device_node_is_never_replaced() {
    let dir = scratch("device");
    let full = dir.join("full.svg");
    if !mknod(&full, 1, 7) {
        eprintln!("skipped: making a device node needs root");
        return;
    }
    let name = full.to_str().unwrap();
    for args in [
        vec!["period", "0.07", "--certificate", name],
        vec!["seq", "0.07", "--to", "100", "--certificate", name],
        vec!["seq", "0.07", "--to", "100", "--plot", name],
        vec!["table", "knight:5", "--plot", name],
        vec!["seq", "0.07", "--to", "100", "--out", name],
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("No space left"), "{args:?}: {err}");
        assert!(is_char_device(&full), "{args:?} replaced the device node");
    }
    // Read back later, a checkpoint or a census file must be a regular file.
    for args in [
        vec!["seq", "0.6", "--to", "1000", "--checkpoint", name],
        vec!["value", "cram", "3x4", "--checkpoint", name],
        vec!["value", "chomp", "3x4", "--checkpoint", name],
    ] {
        common::fails(&args, "character device, not a regular file");
        assert!(is_char_device(&full), "{args:?} replaced the device node");
    }
    let census = dir.join("full.csv");
    assert!(mknod(&census, 1, 7));
    common::fails(
        &[
            "census",
            "octal",
            "--digits",
            "1",
            "--max",
            "50",
            "--out",
            census.to_str().unwrap(),
        ],
        "character device, not a regular file",
    );
    assert!(is_char_device(&census));
}

#[test]
fn a_pipe_is_written_through_or_refused_and_kept() {
    let dir = scratch("pipe");
    let pipe = dir.join("plot.svg");
    mkfifo(&pipe);
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::read_to_string(pipe).unwrap())
    };
    let out = run(&[
        "seq",
        "0.07",
        "--to",
        "50",
        "--plot",
        pipe.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(reader.join().unwrap().starts_with("<svg"));
    common::fails(
        &[
            "seq",
            "0.6",
            "--to",
            "1000",
            "--checkpoint",
            pipe.to_str().unwrap(),
        ],
        "a pipe, not a regular file",
    );
    let kept = std::fs::symlink_metadata(&pipe).unwrap().file_type();
    assert!(kept.is_fifo());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "nothing left beside it"
    );
}

#[test]
fn a_symbolic_link_is_followed_and_kept() {
    let dir = scratch("link");
    let cert = dir.join("link.cert");
    std::os::unix::fs::symlink("real.cert", &cert).unwrap();
    common::stdout(&["period", "0.07", "--certificate", cert.to_str().unwrap()]);
    assert!(std::fs::symlink_metadata(&cert)
        .unwrap()
        .file_type()
        .is_symlink());
    let real = std::fs::read(dir.join("real.cert")).unwrap();
    assert!(real.starts_with(b"{\"format\":\"grundy-certificate-1\""));
    // Written again: the link still names the same, replaced, file.
    common::stdout(&["period", "0.07", "--certificate", cert.to_str().unwrap()]);
    assert!(std::fs::symlink_metadata(&cert)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(dir.join("real.cert")).unwrap(), real);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn a_directory_is_refused() {
    let dir = scratch("directory");
    let name = dir.to_str().unwrap();
    common::fails(&["period", "0.07", "--certificate", name], "is a directory");
    common::fails(
        &["seq", "0.07", "--to", "9", "--plot", &format!("{name}/")],
        "directory",
    );
    assert!(dir.is_dir());
}

#[test]
fn a_table_saved_for_another_board_is_refused_by_every_engine() {
    let dir = scratch("table");
    let table = dir.join("cram.table");
    let name = table.to_str().unwrap();
    // Cram 4x5 keeps its search table in the file...
    common::stdout(&[
        "value",
        "cram",
        "4x5",
        "--checkpoint",
        name,
        "--max-moves",
        "0",
    ]);
    assert!(table.exists());
    // ...which neither a search of another board nor Chomp's tabulating
    // engine (which saves no table) takes for its own.
    common::fails(
        &["value", "cram", "4x4", "--checkpoint", name],
        "it is for cram 4x5, not cram 4x4",
    );
    common::fails(
        &["value", "chomp", "5x8", "--checkpoint", name],
        "it is for cram 4x5, not chomp 5x8",
    );
}

#[test]
fn a_table_larger_than_the_memory_budget_is_refused_before_it_starts() {
    // 10^9 heaps of Officers take about 1.9 GB (the table at two bytes a
    // heap; the period is sought on it in place): refused at once under 1 GB,
    // before any value is computed, with the size named.
    let started = std::time::Instant::now();
    common::fails(
        &[
            "seq",
            "0.6",
            "--to",
            "1000000000",
            "--max-states",
            "2000000000",
            "--max-memory",
            "1G",
        ],
        "a table of the values of 0.6 to heap 1000000000 (about 1.9 GB: two bytes a heap)",
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "refused only after {:?}",
        started.elapsed()
    );
    // The value of one such heap tabulates the same table and is refused
    // alike.
    common::fails(
        &[
            "value",
            "0.6",
            "1000000000",
            "--max-states",
            "2000000000",
            "--max-memory",
            "1G",
        ],
        "(about 1.9 GB: two bytes a heap) needs more than the 1.0 GB allowed by --max-memory",
    );
    // Other heap games hold four bytes a heap, and are counted so.
    common::fails(
        &[
            "seq",
            "sub:1000000000",
            "--to",
            "300000000",
            "--max-states",
            "400000000",
            "--max-memory",
            "700M",
        ],
        "(about 1.1 GB: four bytes a heap) needs more than the 700 MB allowed by --max-memory",
    );
    // Within the budget the same command starts as usual.
    let values = common::json(&["seq", "0.6", "--to", "1000", "--max-memory", "1G", "--json"]);
    assert_eq!(values["values"].as_array().map(Vec::len), Some(1001));
}

#[test]
fn dev_stdout_on_a_pipe_is_written_through() {
    // `/dev/stdout` is a link to `/proc/self/fd/1`, which names no path
    // when it is a pipe (`pipe:[...]`): still written through.
    let out = run(&["seq", "0.07", "--to", "8", "--out", "/dev/stdout"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 0.07 from heap 0: 0 0 1 1 2 0 3 1 1, one byte each as varints.
    assert_eq!(out.stdout, vec![0, 0, 1, 1, 2, 0, 3, 1, 1]);
}
