//! Details read together, with a stand-in for the database whose statements wait at a
//! gate, so that what queues meanwhile is known rather than left to timing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use peering_domain::resources::AUTONOMOUS_SYSTEM;
use peering_domain::Value;

use super::*;

const PATIENCE: Duration = Duration::from_secs(10);

/// A database stand-in: notes each statement's ids (and whether it failed) and how many
/// run at once; its statements wait until the gate is open.
#[derive(Default)]
struct Database {
    statements: Mutex<Vec<(Vec<i64>, bool)>>,
    running: AtomicUsize,
    most_running: AtomicUsize,
    /// Statements holding one of these ids fail.
    failing: Vec<i64>,
    gate: (Mutex<bool>, Condvar),
    readers: Mutex<Vec<JoinHandle<()>>>,
}

impl Database {
    fn open_gate(&self) {
        *self.gate.0.lock().unwrap() = true;
        self.gate.1.notify_all();
    }

    fn read(&self, ids: &[i64]) -> Result<(Vec<Record>, Related), Error> {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_running.fetch_max(now, Ordering::SeqCst);
        let open = self.gate.0.lock().unwrap();
        drop(self.gate.1.wait_while(open, |open| !*open).unwrap());
        self.running.fetch_sub(1, Ordering::SeqCst);
        let fails = ids.iter().any(|id| self.failing.contains(id));
        self.statements.lock().unwrap().push((ids.to_vec(), fails));
        if fails {
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

    /// Waits for every reader started to end.
    fn join_readers(&self) {
        for reader in self.readers.lock().unwrap().drain(..) {
            reader.join().unwrap();
        }
    }
}

/// Asks for `id` without waiting, starting a reader on a thread of its own when needed.
fn ask(
    together: &Arc<Together>,
    database: &Arc<Database>,
    id: i64,
) -> Receiver<Result<Detail, Error>> {
    let (sender, receiver) = channel();
    let answer: Answer = Box::new(move |detail| sender.send(detail).unwrap());
    if let Some(reader) = together.ask(&AUTONOMOUS_SYSTEM, id, answer) {
        let db = database.clone();
        let thread = std::thread::spawn(move || {
            let mut turn = Some(reader);
            while let Some(reader) = turn {
                turn = reader.read_next(&|ids| db.read(ids));
            }
        });
        database.readers.lock().unwrap().push(thread);
    }
    receiver
}

/// Waits until `count` statements are at the gate.
fn await_running(database: &Database, count: usize) {
    let start = std::time::Instant::now();
    while database.running.load(Ordering::SeqCst) < count {
        assert!(
            start.elapsed() < PATIENCE,
            "{count} statements never started"
        );
        std::thread::yield_now();
    }
}

/// Asks for the first id, then the second, each once the statement before is at the
/// shut gate (so that two readers run, one id each); then the rest, which queue; then
/// opens the gate and returns what each got.
fn ask_all(
    together: &Arc<Together>,
    database: &Arc<Database>,
    ids: &[i64],
) -> Vec<Result<Detail, Error>> {
    let mut asked = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        asked.push(ask(together, database, id));
        if i < 2 {
            await_running(database, i + 1);
        }
    }
    database.open_gate();
    let answers = asked
        .into_iter()
        .map(|r| r.recv_timeout(PATIENCE).unwrap())
        .collect();
    database.join_readers();
    answers
}

/// The ids of each statement, in the order they ended.
fn statements(database: &Database) -> Vec<Vec<i64>> {
    let statements = database.statements.lock().unwrap();
    statements.iter().map(|(ids, _)| ids.clone()).collect()
}

fn id_shown(detail: &Detail) -> Option<i64> {
    detail.as_ref().map(|(record, _)| {
        assert_eq!(record.values, [Value::Int(record.id)]);
        record.id
    })
}

fn assert_lane_idle(together: &Together) {
    let lanes = together.lanes.lock().unwrap();
    let lane = &lanes[AUTONOMOUS_SYSTEM.table];
    assert_eq!((lane.readers, lane.waiting.len()), (0, 0));
}

#[test]
fn requests_asked_meanwhile_are_read_together_and_each_gets_its_own_object() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    let ids: Vec<i64> = (1..=40).collect();
    let answers = ask_all(&together, &database, &ids);
    for (id, answer) in ids.iter().zip(&answers) {
        let detail = answer.as_ref().unwrap();
        assert_eq!(id_shown(detail), (id % 2 == 1).then_some(*id), "{id}");
    }
    let mut statements = statements(&database);
    statements.sort();
    // Two readers started with one id each; the 38 queued meanwhile took two statements,
    // the oldest 32 first.
    let expected: [Vec<i64>; 4] = [vec![1], vec![2], (3..=34).collect(), (35..=40).collect()];
    assert_eq!(statements, expected);
    assert_eq!(database.most_running.load(Ordering::SeqCst), 2);
    assert_lane_idle(&together);
}

#[test]
fn several_requests_for_one_object_are_read_once_and_each_get_it() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    let answers = ask_all(&together, &database, &[7; 12]);
    assert!(answers
        .iter()
        .all(|a| id_shown(a.as_ref().unwrap()) == Some(7)));
    assert_eq!(statements(&database), [[7], [7], [7]]);
    assert_lane_idle(&together);
}

#[test]
fn a_request_that_finds_a_reader_free_is_read_at_once() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    database.open_gate();
    for id in [3, 4, 5] {
        let answer = ask(&together, &database, id)
            .recv_timeout(PATIENCE)
            .unwrap();
        assert_eq!(id_shown(&answer.unwrap()), (id % 2 == 1).then_some(id));
        database.join_readers();
    }
    assert_eq!(statements(&database), [[3], [4], [5]]);
    assert_lane_idle(&together);
}

#[test]
fn a_request_asked_while_its_readers_run_waits_for_their_next_statement() {
    let (together, database) = (Arc::new(Together::default()), Arc::new(Database::default()));
    let answers = ask_all(&together, &database, &[1, 3, 5]);
    assert!(answers.iter().all(Result::is_ok));
    // 5 was asked after both statements had started: it joined neither.
    let mut statements = statements(&database);
    statements.sort();
    assert_eq!(statements, [[1], [3], [5]]);
}

#[test]
fn a_failed_statement_gives_its_error_to_each_request_in_it_alone() {
    let together = Arc::new(Together::default());
    let database = Arc::new(Database {
        failing: vec![9],
        ..Database::default()
    });
    let ids: Vec<i64> = (1..=24).collect();
    let answers = ask_all(&together, &database, &ids);
    let statements = database.statements.lock().unwrap();
    let failed: Vec<i64> = statements
        .iter()
        .filter(|(_, failed)| *failed)
        .flat_map(|(ids, _)| ids.clone())
        .collect();
    // The two first statements held 1 and 2; the third, everything else.
    assert_eq!(failed, (3..=24).collect::<Vec<_>>(), "{statements:?}");
    for (id, answer) in ids.iter().zip(&answers) {
        match answer {
            Err(e) => assert!(
                failed.contains(id) && matches!(e, Error::Busy(_)),
                "{id}: {e}"
            ),
            Ok(detail) => assert_eq!(id_shown(detail), (id % 2 == 1).then_some(*id)),
        }
    }
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
    assert_eq!(
        receiver.recv_timeout(PATIENCE),
        Err(RecvTimeoutError::Disconnected)
    );
    assert_lane_idle(&together);
}

#[test]
fn a_reader_reads_one_statement_a_turn_and_ends_on_an_empty_queue() {
    let (together, database) = (Arc::new(Together::default()), Database::default());
    database.open_gate();
    let mut answers = Vec::new();
    let mut reader = None;
    for id in 1..=40 {
        let (sender, receiver) = channel();
        let answer: Answer = Box::new(move |detail| sender.send(detail).unwrap());
        let started = together.ask(&AUTONOMOUS_SYSTEM, id, answer);
        // The second reader is let go of unrun (it counts itself out): one serves all.
        if reader.is_none() {
            reader = started;
        }
        answers.push(receiver);
    }
    let read = |ids: &[i64]| database.read(ids);
    // The oldest 32, then the 8 left, then nothing: the reader is counted out.
    let reader = reader.unwrap().read_next(&read).unwrap();
    assert_eq!(statements(&database), [(1..=32).collect::<Vec<_>>()]);
    let reader = reader.read_next(&read).unwrap();
    assert!(reader.read_next(&read).is_none());
    assert_eq!(statements(&database).len(), 2);
    assert!(answers.iter().all(|r| r.try_recv().unwrap().is_ok()));
    assert_lane_idle(&together);
}
