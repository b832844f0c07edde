//! What grundy needs from where it runs, beyond the library: the process's
//! environment variables (`GRUNDY_SIMD`, `GRUNDY_THREADS`,
//! `GRUNDY_SEARCH_STATS`), the files that `script:` and `dag:` name, and
//! standard error for notes. Natively these are the operating system's. A
//! WebAssembly module in a page (see [`crate::IN_BROWSER`]) has none of
//! them, so the page gives them: the variables and files a command names
//! ([`set_env`], [`set_files`]), and standard error through the imported
//! `env.grundy_write(2, ptr, len)`.

use std::collections::BTreeMap;
use std::sync::Mutex;

static FILES: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());
static ENV: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());

/// Sets the files that stand for the disk in a page; a native build reads
/// the disk and never looks at them.
pub fn set_files(files: BTreeMap<String, String>) {
    *FILES.lock().unwrap_or_else(|e| e.into_inner()) = files;
}

/// Sets the environment variables of the next command in a page; a native
/// build reads its process's.
pub fn set_env(variables: BTreeMap<String, String>) {
    *ENV.lock().unwrap_or_else(|e| e.into_inner()) = variables;
}

/// A file the page gave, by the name the command uses.
pub(crate) fn file(name: &str) -> Option<String> {
    FILES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
        .cloned()
}

/// An environment variable, as [`std::env::var`] reads it natively.
pub fn var(name: &str) -> Result<String, std::env::VarError> {
    if crate::IN_BROWSER {
        ENV.lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
            .ok_or(std::env::VarError::NotPresent)
    } else {
        std::env::var(name)
    }
}

/// Whether an environment variable is set (to anything).
pub fn is_set(name: &str) -> bool {
    if crate::IN_BROWSER {
        ENV.lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(name)
    } else {
        std::env::var_os(name).is_some()
    }
}

/// Writes one line to standard error: a note or a warning of the library's
/// own (search statistics, a wrong `GRUNDY_SIMD`).
pub fn note(line: &str) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        #[link(wasm_import_module = "env")]
        extern "C" {
            fn grundy_write(stream: u32, ptr: *const u8, len: usize);
        }
        let text = format!("{line}\n");
        // SAFETY: the page copies the bytes out before the call returns.
        unsafe { grundy_write(2, text.as_ptr(), text.len()) };
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    eprintln!("{line}");
}
