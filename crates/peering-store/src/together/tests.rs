//! Details read together, with a reader standing in for the database.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use peering_domain::resources::AUTONOMOUS_SYSTEM;
use peering_domain::Value;

use super::*;

/// A database stand-in that notes each statement's ids and how many run at once, and
/// takes a while, so that requests arriving meanwhile queue.
#[derive(Default)]
struct Database {
    statements: Mutex<Vec<Vec<i64>>>,
    running: AtomicUsize,
    most_running: AtomicUsize,
    /// Statements of several ids, one of them here, fail.
    failing: Vec<i64>,
}

impl Database {
    fn read(&self, ids: &[i64]) -> Result<(Vec<Record>, Related), Error> {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_running.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(10));
        self.statements.lock().unwrap().push(ids.to_vec());
        self.running.fetch_sub(1, Ordering::SeqCst);
        if ids.len() > 1 && ids.iter().any(|id| self.failing.contains(id)) {
            return Err(Error::Busy("a statement failed".into()));
        }
        // Odd ids exist, even ones do not; each object carries its id as its value.
        let records = ids
            .iter()
            .filter(|id| *id % 2 == 1)
            .map(|&id| Record {
                id,
                values: vec![Value::Int(id)],
            })
            .collect();
        Ok((records, Related::default()))
    }
}

/// Asks for `id`, running a reader on a thread of its own when one is needed.
fn ask(together: &Arc<Together>, database: &Arc<Database>, id: i64) -> Receiver<Detail> {
    let (sender, receiver) = channel();
    let answer: Answer = Box::new(move |detail| sender.send(detail.unwrap()).unwrap());
    if let Some(reader) = together.ask(&AUTONOMOUS_SYSTEM, id, answer) {
        let database = database.clone();
        std::thread::spawn(move || reader.read_queued(&|ids| database.read(ids)));
    }
    receiver
}

/// Asks for `ids` at once, one thread each, and returns what each got.
fn ask_at_once(together: &Arc<Together>, database: &Arc<Database>, ids: &[i64]) -> Vec<Detail> {
    let start = Arc::new(Barrier::new(ids.len()));
    let threads: Vec<_> = ids
        .iter()
        .map(|&id| {
            let (together, database, start) = (together.clone(), database.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                ask(&together, &database, id)
                    .recv_timeout(Duration::from_secs(10))
                    .unwrap()
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

fn id_shown(detail: &Detail) -> Option<i64> {
    detail.as_ref().map(|(record, _)| match record.values[0] {
        Value::Int(v) => v,
        ref other => panic!("not an id: {other:?}"),
    })
}

fn assert_each_got_its_own(ids: &[i64], details: &[Detail]) {
    for (id, detail) in ids.iter().zip(details) {
        let expected = (id % 2 == 1).then_some(*id);
        assert_eq!(id_shown(detail), expected, "request for {id}");
        assert_eq!(detail.as_ref().map(|(r, _)| r.id), expected);
    }
}

fn assert_lane_idle(together: &Together) {
    let lanes = together.lanes.lock().unwrap();
    let lane = &lanes[AUTONOMOUS_SYSTEM.table];
    assert_eq!((lane.readers, lane.waiting.len()), (0, 0));
}

#[test]
fn requests_at_once_are_read_together_and_each_gets_its_own_object() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    let ids: Vec<i64> = (1..=40).collect();
    let details = ask_at_once(&together, &database, &ids);
    assert_each_got_its_own(&ids, &details);
    let statements = database.statements.lock().unwrap();
    assert!(
        statements.len() < ids.len(),
        "40 requests at once took {} statements",
        statements.len()
    );
    assert!(statements.iter().all(|s| s.len() <= MOST_TOGETHER));
    let read: usize = statements.iter().map(Vec::len).sum();
    assert_eq!(read, ids.len(), "each id read once: {statements:?}");
    assert!(database.most_running.load(Ordering::SeqCst) <= READERS_PER_RESOURCE);
    assert_lane_idle(&together);
}

#[test]
fn several_requests_for_one_object_each_get_it() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    let details = ask_at_once(&together, &database, &[7; 12]);
    assert!(details.iter().all(|d| id_shown(d) == Some(7)));
    assert_lane_idle(&together);
}

#[test]
fn a_request_alone_is_read_alone_at_once() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    for id in [3, 4, 5] {
        let detail = ask(&together, &database, id).recv().unwrap();
        assert_eq!(id_shown(&detail), (id % 2 == 1).then_some(id));
    }
    assert_eq!(*database.statements.lock().unwrap(), [[3], [4], [5]]);
    assert_lane_idle(&together);
}

#[test]
fn when_a_statement_of_several_fails_its_requests_are_read_alone() {
    let together = Arc::new(Together::default());
    let database = Arc::new(Database {
        failing: vec![9],
        ..Database::default()
    });
    let ids: Vec<i64> = (1..=24).collect();
    let details = ask_at_once(&together, &database, &ids);
    assert_each_got_its_own(&ids, &details);
    assert_lane_idle(&together);
}

#[test]
fn a_reader_that_never_runs_lets_its_requests_know() {
    let together = Arc::new(Together::default());
    let (sender, receiver) = channel::<()>();
    let answer: Answer = Box::new(move |_| drop(sender));
    let reader = together.ask(&AUTONOMOUS_SYSTEM, 1, answer);
    assert!(reader.is_some());
    drop(reader);
    // The answer was dropped untold: its request does not wait forever.
    assert!(receiver.recv_timeout(Duration::from_secs(5)).is_err());
    assert_lane_idle(&together);
}
