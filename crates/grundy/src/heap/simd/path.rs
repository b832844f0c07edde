/// The instruction path of the engine's hot loops, chosen at run time: the
/// environment variable `GRUNDY_SIMD` (`avx512`, `avx2` or `portable`) forces
/// one; unset or empty, the best the processor has is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Path {
    /// AVX-512F/BW kernels (gathers, scatters, 32 splits per step).
    Avx512,
    /// Kernels designed for AVX2 (x86-64 processors without AVX-512).
    Avx2,
    /// Plain Rust for any processor, without x86 vector code (as on ARM).
    Portable,
}

/// The environment variable that forces a [`Path`].
pub const PATH_VARIABLE: &str = "GRUNDY_SIMD";

impl Path {
    /// Every path, best first.
    pub const ALL: [Path; 3] = [Path::Avx512, Path::Avx2, Path::Portable];

    /// The name used by `GRUNDY_SIMD`.
    pub fn name(self) -> &'static str {
        match self {
            Path::Avx512 => "avx512",
            Path::Avx2 => "avx2",
            Path::Portable => "portable",
        }
    }

    /// Whether this processor can run the path.
    pub fn supported(self) -> bool {
        match self {
            Path::Avx512 => avx512_available(),
            Path::Avx2 => avx2_available(),
            Path::Portable => true,
        }
    }

    /// The paths this processor can run, best first.
    pub fn supported_paths() -> Vec<Path> {
        Path::ALL.into_iter().filter(|p| p.supported()).collect()
    }

    /// The best path this processor has.
    pub fn best() -> Path {
        Path::supported_paths()[0]
    }

    /// The path named `name` (as in `GRUNDY_SIMD`), if this processor can
    /// run it; else an error that says why and lists what it can run.
    pub fn parse(name: &str) -> Result<Path, String> {
        let names = || {
            Path::supported_paths()
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(path) = Path::ALL.into_iter().find(|p| p.name() == name.trim()) else {
            return Err(format!(
                "{PATH_VARIABLE}={name:?} is not a known instruction path \
                 (expected avx512, avx2 or portable; this processor supports {})",
                names()
            ));
        };
        if !path.supported() {
            return Err(format!(
                "{PATH_VARIABLE}={name} is not supported by this processor (it supports {})",
                names()
            ));
        }
        Ok(path)
    }

    /// The path `GRUNDY_SIMD` asks for, or the best one when it is unset or
    /// empty; an error for an unknown or unsupported value.
    pub fn from_env() -> Result<Path, String> {
        match crate::page::var(PATH_VARIABLE) {
            Ok(name) if !name.trim().is_empty() => Path::parse(&name),
            Ok(_) | Err(std::env::VarError::NotPresent) => Ok(Path::best()),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(format!("{PATH_VARIABLE} is not valid text"))
            }
        }
    }

    /// The path engines use unless told otherwise: [`Path::from_env`], read
    /// once. A library user (the command line checks the variable itself
    /// and stops with an error) gets a warning on stderr and the best path
    /// when the variable is wrong.
    pub fn default_path() -> Path {
        static DEFAULT: std::sync::OnceLock<Path> = std::sync::OnceLock::new();
        *DEFAULT.get_or_init(|| {
            Path::from_env().unwrap_or_else(|e| {
                let best = Path::best();
                crate::page::note(&format!("warning: {e}; using {}", best.name()));
                best
            })
        })
    }

    /// Whether the AVX-512 kernels run on this path.
    #[inline(always)]
    pub fn avx512(self) -> bool {
        self == Path::Avx512
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether this processor has AVX-512F/BW (the [`Path::Avx512`] kernels).
#[inline]
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this processor has AVX2 (the [`Path::Avx2`] kernels).
#[inline]
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this processor has AVX-512 VBMI2 besides F and BW (`vpcompressw`:
/// the hits of a step packed in one instruction), and POPCNT (every
/// processor with AVX-512 has it), for the AVX-512 search.
#[inline]
pub fn vbmi2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        avx512_available()
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this processor has AVX2 and BMI2 (variable shifts in one
/// instruction), for code compiled with both on the x86 vector paths.
pub fn bmi2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
