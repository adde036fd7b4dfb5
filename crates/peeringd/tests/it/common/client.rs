//! The typed client of `peering-client` pointed at a test server, and the runtime its calls
//! run on (the server runs on its own threads).

use std::future::Future;

use peering_client::Client;

use super::TestServer;

/// A client of `s` with its superuser's write token.
pub fn client(s: &TestServer) -> Client {
    anonymous(s).with_token(s.key.as_str())
}

/// A client of `s` without a token.
pub fn anonymous(s: &TestServer) -> Client {
    Client::new(&s.base).expect("the test server's base URL")
}

/// Runs `future` to its end on a runtime of the calling thread.
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(future)
}
