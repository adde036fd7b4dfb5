//! Jobs that ask to run again later, on both databases: they wait, pending, until their
//! time (no claim takes them before), run again with what their earlier runs left, are
//! not mistaken for jobs taken back from a dead worker, and this process's idle workers
//! wake for them without polling.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use peering_jobs::{start, Claims, Outcome, Queue, Runner, Settings};
use peering_store::testing::TestDatabase;
use peering_store::{ClaimedJob, NewJob, Store};
use serde_json::json;

/// Asks for its job to run again after `delay` until it has run `runs` times, counting
/// its runs in the job's data; records when each run started and which attempt it was.
struct Retrying {
    runs: u64,
    delay: Duration,
    seen: Mutex<Vec<(Instant, u32, serde_json::Value)>>,
}

impl Runner for Retrying {
    fn run(&self, job: &ClaimedJob) -> Outcome {
        self.seen
            .lock()
            .unwrap()
            .push((Instant::now(), job.attempt, job.data.clone()));
        let done = job.data["runs"].as_u64().unwrap_or(0) + 1;
        let data = json!({"runs": done});
        if done < self.runs {
            Outcome::retry(self.delay, format!("run {done} failed"), data)
        } else {
            let mut outcome = Outcome::completed(format!("ran {done} times"));
            outcome.data = data;
            outcome
        }
    }
    // Not resumable (the default): a retry must not look like a dead worker's job.
}

fn settings() -> Settings {
    Settings {
        workers: 1,
        lease: Duration::from_secs(30),
        // Only the queue's own wake-ups bring the job back.
        poll: Duration::from_secs(3600),
        max_attempts: 3,
        claims: Claims::All,
    }
}

/// (status, output, data) of the job `id`.
fn state(store: &Store, id: i64) -> (String, String, serde_json::Value) {
    let spec = &peering_domain::resources::JOB;
    let (record, _) = store.get(spec, id).unwrap().unwrap();
    let data = match record.get(spec, "data") {
        peering_domain::Value::Json(document) => (**document).clone(),
        _ => serde_json::Value::Null,
    };
    (
        record.text(spec, "status").to_string(),
        record.text(spec, "output").to_string(),
        data,
    )
}

#[test]
fn a_job_asking_to_run_again_waits_then_runs_with_what_it_left() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 4).unwrap();
    let queue = Queue::new(store.clone());
    let runner = Arc::new(Retrying {
        runs: 3,
        delay: Duration::from_millis(400),
        seen: Mutex::new(Vec::new()),
    });
    let id = queue
        .enqueue(&NewJob {
            name: "delivers".into(),
            object: None,
            user_id: None,
            params: json!({}),
        })
        .unwrap();
    let _workers = start(&queue, runner.clone(), settings()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    // While it waits, it is pending with the failed run's output, and no claim takes it.
    while runner.seen.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "never ran");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    let (status, output, data) = state(&store, id);
    assert_eq!(
        (status.as_str(), output.as_str()),
        ("pending", "run 1 failed")
    );
    assert_eq!(data, json!({"runs": 1}));
    assert_eq!(
        store
            .jobs()
            .claim("other", Duration::from_secs(30))
            .unwrap(),
        None,
        "claimed before its time"
    );
    while state(&store, id).0 != "completed" {
        assert!(Instant::now() < deadline, "still {:?}", state(&store, id));
        std::thread::sleep(Duration::from_millis(20));
    }
    let (_, output, data) = state(&store, id);
    assert_eq!(output, "ran 3 times");
    assert_eq!(data, json!({"runs": 3}));
    let seen = runner.seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    for (n, pair) in seen.windows(2).enumerate() {
        let waited = pair[1].0 - pair[0].0;
        assert!(waited >= Duration::from_millis(400), "run {n}: {waited:?}");
        assert!(waited < Duration::from_secs(5), "run {n}: {waited:?}");
    }
    let attempts: Vec<u32> = seen.iter().map(|(_, a, _)| *a).collect();
    assert_eq!(
        attempts,
        vec![1, 1, 1],
        "a retry counted as a dead worker's"
    );
    assert_eq!(seen[0].2, serde_json::Value::Null);
    assert_eq!(seen[2].2, json!({"runs": 2}));
}
