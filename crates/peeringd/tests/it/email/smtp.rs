//! An SMTP server on 127.0.0.1 for the e-mail tests: `mailin` speaks the protocol (with
//! STARTTLS and AUTH), this module accepts the connections, one at a time, and keeps what
//! arrived. It refuses the recipients it is told to, checks a login if given one, and
//! stops with its test (dropped: the accept loop ends and its thread is joined).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use mailin::response::{AUTH_OK, INVALID_CREDENTIALS, NO_MAILBOX, OK};
use mailin::{Action, AuthMechanism, Handler, Response, SessionBuilder};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// One message as the server received it: the envelope and the data.
#[derive(Debug, Clone, Default)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

/// What the server does besides taking mail.
#[derive(Default, Clone)]
pub struct Behaviour {
    /// Recipients answered 550 at `RCPT TO`.
    pub refuse: Vec<String>,
    /// The only login taken, and needed (plain AUTH is offered, also without TLS).
    pub login: Option<(String, String)>,
    /// Offers STARTTLS with the fixtures' certificate.
    pub starttls: bool,
}

pub struct SmtpServer {
    pub addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/email");

/// The CA that signed the server's certificate, for the client to trust.
pub fn ca_file() -> std::path::PathBuf {
    std::path::Path::new(FIXTURES).join("ca.pem")
}

fn tls_config() -> Arc<rustls::ServerConfig> {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(format!("{FIXTURES}/server.pem"))
            .expect("server.pem")
            .collect::<Result<_, _>>()
            .expect("certificates");
    let key = PrivateKeyDer::from_pem_file(format!("{FIXTURES}/server.key")).expect("key");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    Arc::new(config)
}

impl SmtpServer {
    /// A server on a free port of 127.0.0.1, behaving as told.
    pub fn start(behaviour: Behaviour) -> SmtpServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("address");
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let mut builder = SessionBuilder::new("smtp.test");
        if behaviour.login.is_some() {
            // A server that asks for a login takes no mail without one.
            builder
                .enable_auth(AuthMechanism::Plain)
                .insecure_enable_plaintext_auth();
        }
        let tls = behaviour.starttls.then(tls_config);
        if tls.is_some() {
            builder.enable_start_tls();
        }
        let (sink, stopped) = (received.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let handler = Recorder {
                    behaviour: behaviour.clone(),
                    current: Received::default(),
                    sink: sink.clone(),
                };
                let _ = converse_on(stream, &builder, handler, tls.clone());
            }
        });
        SmtpServer {
            addr,
            received,
            stop,
            thread: Some(thread),
        }
    }

    /// The messages received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees `stop`.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(2));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Keeps each message's envelope and data, refusing what it was told to.
struct Recorder {
    behaviour: Behaviour,
    current: Received,
    sink: Arc<Mutex<Vec<Received>>>,
}

impl Handler for Recorder {
    fn mail(&mut self, _ip: IpAddr, _domain: &str, from: &str) -> Response {
        self.current = Received {
            from: from.to_string(),
            ..Received::default()
        };
        OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        if self.behaviour.refuse.iter().any(|r| r == to) {
            return NO_MAILBOX;
        }
        self.current.to.push(to.to_string());
        OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.current.data.push_str(&String::from_utf8_lossy(buf));
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        self.sink
            .lock()
            .unwrap()
            .push(std::mem::take(&mut self.current));
        OK
    }

    fn auth_plain(&mut self, _authz: &str, user: &str, password: &str) -> Response {
        match &self.behaviour.login {
            Some((u, p)) if u == user && p == password => AUTH_OK,
            _ => INVALID_CREDENTIALS,
        }
    }
}

enum Ended {
    Closed,
    UpgradeTls,
}

/// One connection: the greeting, the commands, and after STARTTLS the same over TLS.
fn converse_on(
    stream: TcpStream,
    builder: &SessionBuilder,
    handler: Recorder,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut session = builder.build(stream.peer_addr()?.ip(), handler);
    let mut plain = BufReader::new(stream);
    session.greeting().write_to(plain.get_mut())?;
    if let Ended::UpgradeTls = converse(&mut session, &mut plain)? {
        let config = tls.ok_or_else(|| std::io::Error::other("no TLS configured"))?;
        let connection = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
        let tls_stream = rustls::StreamOwned::new(connection, plain.into_inner());
        session.tls_active();
        converse(&mut session, &mut BufReader::new(tls_stream))?;
    }
    Ok(())
}

fn converse<S: Read + Write>(
    session: &mut mailin::Session<Recorder>,
    stream: &mut BufReader<S>,
) -> std::io::Result<Ended> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if stream.read_until(b'\n', &mut line)? == 0 {
            return Ok(Ended::Closed);
        }
        let response = session.process(&line);
        if let Action::NoReply = response.action {
            continue;
        }
        response.write_to(stream.get_mut())?;
        stream.get_mut().flush()?;
        match response.action {
            Action::Close => return Ok(Ended::Closed),
            Action::UpgradeTls => return Ok(Ended::UpgradeTls),
            _ => {}
        }
    }
}
