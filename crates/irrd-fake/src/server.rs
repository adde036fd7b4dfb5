//! The fake IRR on 127.0.0.1: a thread per connection reading `!` commands a line at a
//! time, as IRRd does, with the sources chosen per connection and every query logged.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::registry::{Answer, Registry};

/// How the server behaves, beyond its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// As IRRd 4: `!a` answers a set's prefixes at once.
    Irrd4,
    /// As servers without `!a`: clients expand sets (`!i…,1`) and ask per origin (`!g`,
    /// `!6`).
    WithoutA,
    /// Accepts connections and never answers (for deadlines).
    Silent,
}

/// A running fake IRR; stopped when dropped.
pub struct FakeIrrd {
    /// `127.0.0.1:port`, as bgpq4's `-h` takes it.
    pub address: String,
    queries: Arc<Mutex<Vec<String>>>,
    stopping: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<TcpStream>>>,
}

impl FakeIrrd {
    /// Serves `registry` as IRRd 4 does.
    pub fn start(registry: Registry) -> FakeIrrd {
        FakeIrrd::start_with(registry, Behaviour::Irrd4)
    }

    pub fn start_with(registry: Registry, behaviour: Behaviour) -> FakeIrrd {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let address = listener.local_addr().expect("local address").to_string();
        let queries = Arc::new(Mutex::new(Vec::new()));
        let stopping = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            registry: Arc::new(registry),
            behaviour,
            queries: queries.clone(),
        };
        let (stop, open) = (stopping.clone(), connections.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                if let Ok(copy) = stream.try_clone() {
                    lock(&open).push(copy);
                }
                let shared = shared.clone();
                std::thread::spawn(move || shared.serve(stream));
            }
        });
        FakeIrrd {
            address,
            queries,
            stopping,
            connections,
        }
    }

    /// Every query received so far, in order, without its line end.
    pub fn queries(&self) -> Vec<String> {
        lock(&self.queries).clone()
    }
}

impl Drop for FakeIrrd {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        for connection in lock(&self.connections).drain(..) {
            let _ = connection.shutdown(Shutdown::Both);
        }
        // Wakes the accepting thread so that it sees it must stop.
        let _ = TcpStream::connect_timeout(
            &self.address.parse().expect("address"),
            Duration::from_secs(1),
        );
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone)]
struct Shared {
    registry: Arc<Registry>,
    behaviour: Behaviour,
    queries: Arc<Mutex<Vec<String>>>,
}

impl Shared {
    /// One connection: commands until `!q`, the end of the input, or, without `!!`, the
    /// first answer.
    fn serve(&self, stream: TcpStream) {
        let Ok(mut writer) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        let mut sources: Vec<String> = self.registry.sources().to_vec();
        let mut persistent = false;
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let query = line.trim_end_matches(['\r', '\n']).to_string();
            lock(&self.queries).push(query.clone());
            if self.behaviour == Behaviour::Silent {
                continue;
            }
            if query == "!q" {
                return;
            }
            if query == "!!" {
                persistent = true;
                continue;
            }
            let answer = self.answer(&query, &mut sources);
            if writer.write_all(&answer.bytes()).is_err() || !persistent {
                return;
            }
        }
    }

    fn answer(&self, query: &str, sources: &mut Vec<String>) -> Answer {
        let Some(command) = query.strip_prefix('!') else {
            return Answer::Error("Only IRRd-style queries are served here".into());
        };
        let (letter, parameter) =
            command.split_at(command.chars().next().map_or(0, char::len_utf8));
        let registry = &self.registry;
        match letter {
            "n" => Answer::Done,
            "v" => Answer::Data("IRRd -- version 4.4.0 (irrd-fake)".into()),
            "s" if parameter == "-lc" => Answer::Data(registry.sources().join(",")),
            "s" => self.choose_sources(parameter, sources),
            "a" if self.behaviour == Behaviour::Irrd4 => registry.set_prefixes(parameter, sources),
            "i" => registry.set_members(parameter, sources),
            "g" => registry.origin_prefixes(parameter, 4, sources),
            "6" => registry.origin_prefixes(parameter, 6, sources),
            other => Answer::Error(format!("Unrecognised command: {other}")),
        }
    }

    /// `!sA,B`: the sources of the following queries, refused (as IRRd 4 does) when one is
    /// not known.
    fn choose_sources(&self, parameter: &str, sources: &mut Vec<String>) -> Answer {
        let asked: Vec<String> = parameter.split(',').map(str::to_uppercase).collect();
        let known = self.registry.sources();
        if asked
            .iter()
            .all(|a| known.iter().any(|k| k.eq_ignore_ascii_case(a)))
        {
            *sources = asked;
            Answer::Done
        } else {
            Answer::Error("One or more selected sources are unavailable.".into())
        }
    }
}
