//! The web API of grundy and `grundy serve`: the library over HTTP, with a
//! page embedded in the binary that analyses, explains, plots and plays.
//!
//! This crate is a thin face: it reads requests, runs the library under a
//! budget, and writes the same JSON objects as the command line's `--json`
//! ([`grundy::json`]). No rule of any game lives here.
//!
//! [`answer`] and [`series`] answer the requests, whatever carries them: the
//! server (feature `server`, on by default) and the page's WebAssembly
//! worker (`grundy-wasm`) call the same functions.
//!
//! On the server every computation runs on a thread of its own with a deep
//! stack, under a state budget and a time budget; at most [`Limits::heavy`]
//! run at once and further requests get HTTP 503 with a message. A
//! computation that outlives its request's budget is told to stop and keeps
//! its slot until it does, so a flood of hard requests cannot pile up
//! threads.

pub mod answer;
pub mod budget;
pub mod series;

#[cfg(feature = "server")]
mod api;
#[cfg(feature = "server")]
mod assets;
#[cfg(feature = "server")]
mod jobs;
#[cfg(feature = "server")]
mod request;
#[cfg(feature = "server")]
mod work;

pub use budget::{ApiError, Budget, Limits};
#[cfg(feature = "server")]
pub use server::{open_browser, router, serve, Config};

#[cfg(feature = "server")]
mod server {
    use crate::{api, assets, work, Limits};
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::time::Duration;

    /// How the server is started.
    #[derive(Debug, Clone)]
    pub struct Config {
        /// The address to listen on (`127.0.0.1` unless told otherwise).
        pub host: String,
        /// The port (0: any free port).
        pub port: u16,
        /// Budgets of each request.
        pub limits: Limits,
    }

    impl Default for Config {
        fn default() -> Self {
            Config {
                host: "127.0.0.1".into(),
                port: 8000,
                limits: Limits::default(),
            }
        }
    }

    /// The whole application: the API under `/api/` and the page everywhere else.
    pub fn router(limits: Limits) -> axum::Router {
        let state = Arc::new(work::Server::new(limits));
        api::routes(state).merge(assets::routes())
    }

    /// Listens on `config`'s address, calls `ready` with the address bound, and
    /// serves until Ctrl-C (or the end of `shutdown`, for tests and embedders).
    pub fn serve(
        config: Config,
        ready: impl FnOnce(SocketAddr),
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let address = format!("{}:{}", config.host, config.port);
            let listener = tokio::net::TcpListener::bind(&address).await.map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot listen on {address}: {e}"))
            })?;
            ready(listener.local_addr()?);
            let app = router(config.limits);
            let stop = async move {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = shutdown => {}
                }
            };
            axum::serve(listener, app)
                .with_graceful_shutdown(stop)
                .await?;
            Ok::<(), std::io::Error>(())
        })?;
        // Computations still running are abandoned with the process.
        runtime.shutdown_timeout(Duration::from_millis(100));
        Ok(())
    }

    /// Opens `url` in the user's browser, if there is one to open.
    pub fn open_browser(url: &str) -> std::io::Result<()> {
        webbrowser::open(url)
    }
}
