//! The queue on both databases: every job runs exactly once across instances, a panicking
//! job ends errored, and a job whose worker died is run again once its lease ends if it is
//! resumable, ends interrupted if not, and is taken up at most three times.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use peering_jobs::{start, Claims, Outcome, Queue, Runner, Settings};
use peering_store::testing::TestDatabase;
use peering_store::{ClaimedJob, JobEnd, NewJob, Store};

/// Counts the runs of each job; some kinds panic or err.
#[derive(Default)]
struct Counting {
    runs: Mutex<HashMap<i64, usize>>,
}

impl Runner for Counting {
    fn run(&self, job: &ClaimedJob) -> Outcome {
        *self.runs.lock().unwrap().entry(job.id).or_default() += 1;
        match job.name.as_str() {
            "panics" => panic!("boom {}", job.id),
            "errs" => Outcome::errored("no router answers".into()),
            _ => {
                std::thread::sleep(Duration::from_millis(2));
                Outcome::completed(format!("ran {}", job.params["n"]))
            }
        }
    }

    /// "work" may run again; anything else ("pushes") acts outside and may not.
    fn resumable(&self, job_name: &str) -> bool {
        job_name == "work"
    }
}

fn job(name: &str, n: usize) -> NewJob {
    NewJob {
        name: name.into(),
        object: Some(("peering.router".into(), 1)),
        user_id: None,
        params: serde_json::json!({"n": n}),
    }
}

fn settings(workers: usize) -> Settings {
    Settings {
        workers,
        lease: Duration::from_secs(30),
        poll: Duration::from_millis(50),
        max_attempts: 3,
        claims: Claims::All,
    }
}

/// Waits until no job is pending or running, or fails after a while.
fn wait_until_done(store: &Store, total: usize) -> Vec<(String, String)> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ends = ends(store);
        if ends
            .iter()
            .filter(|(s, _)| s != "pending" && s != "running")
            .count()
            == total
        {
            return ends;
        }
        assert!(Instant::now() < deadline, "jobs still waiting: {ends:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// (status, output) of every job, through the generic read of the `jobs` resource.
fn ends(store: &Store) -> Vec<(String, String)> {
    let spec = &peering_domain::resources::JOB;
    let page = store
        .list(
            spec,
            &Default::default(),
            peering_store::Window {
                limit: None,
                offset: 0,
            },
            false,
            None,
        )
        .unwrap();
    page.records
        .iter()
        .map(|r| {
            (
                r.text(spec, "status").to_string(),
                r.text(spec, "output").to_string(),
            )
        })
        .collect()
}

#[test]
fn two_instances_run_each_of_200_jobs_exactly_once() {
    let db = TestDatabase::new();
    let runner = Arc::new(Counting::default());
    let first = Queue::new(Store::open(&db.url, 4).unwrap());
    let second = Queue::new(Store::open(&db.url, 4).unwrap());
    for n in 0..200 {
        let queue = if n % 2 == 0 { &first } else { &second };
        queue.enqueue(&job("work", n)).unwrap();
    }
    let _a = start(&first, runner.clone(), settings(3)).unwrap();
    let _b = start(&second, runner.clone(), settings(3)).unwrap();
    let store = Store::open(&db.url, 1).unwrap();
    let ends = wait_until_done(&store, 200);
    let runs = runner.runs.lock().unwrap();
    assert_eq!(runs.len(), 200);
    assert!(runs.values().all(|n| *n == 1), "{runs:?}");
    assert!(
        ends.iter()
            .all(|(s, o)| s == "completed" && o.starts_with("ran ")),
        "{ends:?}"
    );
}

#[test]
fn panics_and_errors_end_errored_with_the_reason() {
    let db = TestDatabase::new();
    let queue = Queue::new(Store::open(&db.url, 2).unwrap());
    queue.enqueue(&job("panics", 1)).unwrap();
    queue.enqueue(&job("errs", 2)).unwrap();
    let _w = start(&queue, Arc::new(Counting::default()), settings(1)).unwrap();
    let store = Store::open(&db.url, 1).unwrap();
    let mut ends = wait_until_done(&store, 2);
    ends.sort();
    assert_eq!(ends[0].0, "errored");
    assert!(ends[0].1.contains("no router answers"), "{ends:?}");
    assert_eq!(ends[1].0, "errored");
    assert!(ends[1].1.starts_with("the job panicked: boom"), "{ends:?}");
}

#[test]
fn a_job_whose_worker_died_runs_again_after_its_lease() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 2).unwrap();
    let queue = Queue::new(store.clone());
    let id = queue.enqueue(&job("work", 7)).unwrap();
    // A worker claims it with a short lease, then dies without a word.
    let claimed = store
        .jobs()
        .claim("dead-worker", Duration::from_millis(200))
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, id);
    assert_eq!(
        store
            .jobs()
            .claim("other", Duration::from_secs(30))
            .unwrap(),
        None
    );
    std::thread::sleep(Duration::from_millis(300));
    let runner = Arc::new(Counting::default());
    let _w = start(&queue, runner.clone(), settings(1)).unwrap();
    let ends = wait_until_done(&store, 1);
    assert_eq!(ends, vec![("completed".to_string(), "ran 7".to_string())]);
    // The dead worker's late word changes nothing.
    assert!(!store
        .jobs()
        .finish(
            id,
            "dead-worker",
            JobEnd::Failed,
            "late",
            &serde_json::Value::Null
        )
        .unwrap());
}

#[test]
fn idle_workers_leave_the_data_version_alone() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 2).unwrap();
    let queue = Queue::new(store.clone());
    let _w = start(&queue, Arc::new(Counting::default()), settings(2)).unwrap();
    let before = store.data_version().unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(
        store.data_version().unwrap(),
        before,
        "polls changed the data version"
    );
    queue.enqueue(&job("work", 1)).unwrap();
    wait_until_done(&store, 1);
    assert_ne!(store.data_version().unwrap(), before);
}

/// Lets workers that die take the job `id` up `times` times: each claims it with a short
/// lease and never ends it.
fn taken_up_by_dead_workers(store: &Store, id: i64, times: u32) {
    let lease = Duration::from_millis(200);
    for n in 0..times {
        let claimed = store.jobs().claim(&format!("dead-{n}"), lease).unwrap();
        assert_eq!(claimed.map(|c| (c.id, c.attempt)), Some((id, n + 1)));
        std::thread::sleep(lease + Duration::from_millis(100));
    }
}

#[test]
fn a_job_that_acts_outside_ends_interrupted_when_taken_back_from_a_dead_worker() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 2).unwrap();
    let queue = Queue::new(store.clone());
    let id = queue.enqueue(&job("pushes", 1)).unwrap();
    taken_up_by_dead_workers(&store, id, 1);
    let runner = Arc::new(Counting::default());
    let _w = start(&queue, runner.clone(), settings(1)).unwrap();
    let ends = wait_until_done(&store, 1);
    assert_eq!(ends[0].0, "errored", "{ends:?}");
    assert!(ends[0].1.starts_with("interrupted: "), "{ends:?}");
    assert!(runner.runs.lock().unwrap().is_empty(), "it ran again");
}

#[test]
fn a_job_whose_worker_dies_every_time_is_taken_up_three_times_at_most() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 2).unwrap();
    let queue = Queue::new(store.clone());
    let runner = Arc::new(Counting::default());
    // Two dead workers: the third attempt runs.
    let second = queue.enqueue(&job("work", 2)).unwrap();
    taken_up_by_dead_workers(&store, second, 2);
    let workers = start(&queue, runner.clone(), settings(1)).unwrap();
    assert_eq!(
        wait_until_done(&store, 1)[0],
        ("completed".into(), "ran 2".into())
    );
    drop(workers);
    // Three: it is not run a fourth time (by new workers: the stopped ones' queue stays
    // stopped).
    let queue = Queue::new(store.clone());
    let third = queue.enqueue(&job("work", 3)).unwrap();
    taken_up_by_dead_workers(&store, third, 3);
    let _w = start(&queue, runner.clone(), settings(1)).unwrap();
    let ends = wait_until_done(&store, 2);
    let given_up: Vec<_> = ends.iter().filter(|(s, _)| s == "errored").collect();
    assert_eq!(given_up.len(), 1, "{ends:?}");
    assert!(
        given_up[0].1.starts_with("gave up after 3 attempts"),
        "{ends:?}"
    );
    assert_eq!(*runner.runs.lock().unwrap(), HashMap::from([(second, 1)]));
}

/// A runner that keeps the default of which jobs are resumable.
struct Plain;

impl Runner for Plain {
    fn run(&self, _job: &ClaimedJob) -> Outcome {
        Outcome::completed(String::new())
    }
}

#[test]
fn by_default_no_job_is_resumed() {
    for name in [
        "peering.router.generate_configuration",
        "peering.router.set_napalm_configuration",
        "something.new",
        "",
    ] {
        assert!(!Plain.resumable(name), "{name}");
    }
}

/// Holds its "hangs" jobs until released: a router that does not answer.
#[derive(Default)]
struct Hanging {
    released: Mutex<bool>,
    wake: std::sync::Condvar,
}

impl Runner for Hanging {
    fn run(&self, job: &ClaimedJob) -> Outcome {
        if job.name == "hangs" {
            let mut released = self.released.lock().unwrap();
            while !*released {
                released = self.wake.wait(released).unwrap();
            }
        }
        Outcome::completed(format!("{} done", job.name))
    }
}

impl Hanging {
    fn release(&self) {
        *self.released.lock().unwrap() = true;
        self.wake.notify_all();
    }
}

/// Releases the hanging jobs when a test ends, even by a failed assertion: declared after
/// the workers, it is dropped before them, whose drop waits for their jobs.
struct ReleaseOnDrop(Arc<Hanging>);

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        self.0.release();
    }
}

const HANGS: &[&str] = &["hangs"];

#[test]
fn workers_of_their_own_keep_a_hanging_kind_from_holding_up_the_others() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 8).unwrap();
    let queue = Queue::new(store.clone());
    let runner = Arc::new(Hanging::default());
    let lane = |claims| Settings {
        claims,
        ..settings(1)
    };
    let _hanging = start(&queue, runner.clone(), lane(Claims::Named(HANGS))).unwrap();
    let _others = start(&queue, runner.clone(), lane(Claims::Others(HANGS))).unwrap();
    let _release = ReleaseOnDrop(runner.clone());
    // Two hanging jobs first: workers that took any job would both be held.
    queue.enqueue(&job("hangs", 0)).unwrap();
    queue.enqueue(&job("hangs", 1)).unwrap();
    for n in 0..5 {
        queue.enqueue(&job("work", n)).unwrap();
    }
    // Every other job ends while the hanging one still holds its worker.
    let deadline = Instant::now() + Duration::from_secs(30);
    while ends(&store)
        .iter()
        .filter(|(s, _)| s == "completed")
        .count()
        < 5
    {
        assert!(Instant::now() < deadline, "held up: {:?}", ends(&store));
        std::thread::sleep(Duration::from_millis(20));
    }
    let running: Vec<_> = ends(&store)
        .into_iter()
        .filter(|(s, _)| s == "running")
        .collect();
    assert_eq!(running.len(), 1, "{running:?}");
    runner.release();
    let ends = wait_until_done(&store, 7);
    let hung = ends.iter().filter(|(_, out)| out == "hangs done").count();
    assert_eq!(hung, 2, "{ends:?}");
}

#[test]
fn workers_for_some_kinds_take_no_other_job() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 4).unwrap();
    let queue = Queue::new(store.clone());
    let runner = Arc::new(Hanging::default());
    runner.release();
    let only_hangs = Settings {
        claims: Claims::Named(HANGS),
        ..settings(2)
    };
    let _workers = start(&queue, runner, only_hangs).unwrap();
    queue.enqueue(&job("work", 0)).unwrap();
    queue.enqueue(&job("hangs", 1)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ends(&store).iter().any(|(_, out)| out == "hangs done") {
        assert!(Instant::now() < deadline, "{:?}", ends(&store));
        std::thread::sleep(Duration::from_millis(20));
    }
    // Several polls later, the other kind still waits for workers that take it.
    std::thread::sleep(Duration::from_millis(300));
    let pending = ends(&store).iter().filter(|(s, _)| s == "pending").count();
    assert_eq!(pending, 1, "{:?}", ends(&store));
}
