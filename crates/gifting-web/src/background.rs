//! A server running in the background of the current tokio runtime, as the tests and benches
//! of both servers start one: where it listens, its state, and a way to stop it.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Resolves when the server is told to stop.
pub type StopSignal = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A server serving in a background task.
pub struct Running<S> {
    pub addr: SocketAddr,
    /// The server's shared state, for a test to look into.
    pub state: S,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<io::Result<()>>,
}

impl<S: Clone> Running<S> {
    /// Runs `serve(listener, state, stop signal)` in a background task.
    pub fn spawn<F>(
        listener: TcpListener,
        state: S,
        serve: impl FnOnce(TcpListener, S, StopSignal) -> F,
    ) -> io::Result<Self>
    where
        F: Future<Output = io::Result<()>> + Send + 'static,
    {
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel::<()>();
        let signal: StopSignal = Box::pin(async {
            let _ = rx.await;
        });
        let task = tokio::spawn(serve(listener, state.clone(), signal));
        Ok(Running {
            addr,
            state,
            stop: Some(tx),
            task,
        })
    }
}

impl<S> Running<S> {
    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Sends the stop signal without waiting (as SIGTERM would).
    pub fn signal_stop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }

    /// Stops accepting, drains, and waits for the server to finish.
    pub async fn stop(mut self) -> io::Result<()> {
        self.signal_stop();
        self.task.await.unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stop_signals_the_server_and_returns_what_it_returned() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let running = Running::spawn(listener, 7u8, |_, state, stopped| async move {
            stopped.await;
            Err(io::Error::other(format!("stopped with {state}")))
        })
        .expect("spawn");
        assert!(running.url().starts_with("http://127.0.0.1:"));
        assert_eq!(running.state, 7);
        let err = running.stop().await.expect_err("what the server returned");
        assert_eq!(err.to_string(), "stopped with 7");
    }
}
