//! Jobs give way to the API's writes: while a write is marked under way, a worker does not
//! claim a waiting job; it claims it once the write ends, and after `GIVE_WAY` at the
//! latest when writes never end.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use peering_jobs::{start, Claims, Outcome, Queue, Runner, Settings, Workers, GIVE_WAY};
use peering_store::testing::TestDatabase;
use peering_store::{ClaimedJob, NewJob, Store};

/// Tells the test when each job starts.
struct Reporting(std::sync::Mutex<mpsc::Sender<Instant>>);

impl Runner for Reporting {
    fn run(&self, _job: &ClaimedJob) -> Outcome {
        let _ = self.0.lock().unwrap().send(Instant::now());
        Outcome::completed("ran".into())
    }
}

fn settings() -> Settings {
    Settings {
        workers: 1,
        lease: Duration::from_secs(30),
        poll: Duration::from_millis(20),
        max_attempts: 3,
        claims: Claims::All,
    }
}

fn job() -> NewJob {
    NewJob {
        name: "work".into(),
        object: None,
        user_id: None,
        params: serde_json::json!({}),
    }
}

/// A store on `db`, its queue, one worker reporting each job's start, and the workers.
fn one_worker(db: &TestDatabase) -> (Store, Queue, mpsc::Receiver<Instant>, Workers) {
    let store = Store::open(&db.url, 4).unwrap();
    let (started, starts) = mpsc::channel();
    let queue = Queue::new(store.clone());
    let runner = std::sync::Arc::new(Reporting(std::sync::Mutex::new(started)));
    let workers = start(&queue, runner, settings()).unwrap();
    (store, queue, starts, workers)
}

#[test]
fn a_job_waits_for_the_write_under_way_then_runs() {
    let db = TestDatabase::new();
    let (store, queue, starts, _workers) = one_worker(&db);

    let writing = store.writing();
    queue.enqueue(&job()).unwrap();
    assert!(
        starts.recv_timeout(GIVE_WAY / 2).is_err(),
        "the job started while a write of the API ran"
    );
    let ended = Instant::now();
    drop(writing);
    let ran = starts
        .recv_timeout(Duration::from_secs(10))
        .expect("the job ran once the write ended");
    assert!(ran >= ended);
}

#[test]
fn writes_that_never_end_delay_jobs_without_stopping_them() {
    let db = TestDatabase::new();
    let (store, queue, starts, _workers) = one_worker(&db);

    let _writing = store.writing();
    for _ in 0..3 {
        queue.enqueue(&job()).unwrap();
    }
    for n in 1..=3 {
        starts
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("job {n} did not run beside a write that never ends"));
    }
}
