//! The HTTP floor: what serving each realistic scenario's answers costs on this machine with
//! no work at all. A sample of each scenario's answers is captured from peeringd (the paths
//! its own Lua draws, the bodies peeringd answers), written to files and served by nginx
//! with the same load generator, connections and duration; the report gives peeringd's
//! rate ÷ the floor's.

mod nginx;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::database::random_u64;
use super::reads::Run;
use super::realistic::{self, Cache, Mix, Population};
use super::report::{r, thousands, Measurement};
use super::target::Target;
use super::wrk;

/// Answers captured per scenario at most; and bytes, so that a page of 1,000 sessions
/// (about 1 MiB) keeps the sample within memory and disk.
const SAMPLE_ANSWERS: usize = 200;
const SAMPLE_BYTES: usize = 128 << 20;
/// How long the capture run draws paths, with one connection.
const CAPTURE_S: u64 = 2;

/// One scenario's floor.
pub struct Floor {
    pub name: &'static str,
    pub sample: usize,
    pub mean_bytes: u64,
    pub measurement: Measurement,
}

/// A directory of the harness's, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Captures every scenario's sample from `target`, then measures nginx serving them.
pub fn measure(
    target: &Target,
    population: &Population,
    mixes: &[Mix],
    run: &Run,
) -> Result<Vec<Floor>, String> {
    nginx::ensure_installed()?;
    let scratch = Scratch(std::env::temp_dir().join(format!("xtask-floor-{:016x}", random_u64())));
    let root = scratch.0.join("files");
    std::fs::create_dir_all(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    let mut samples = Vec::new();
    for mix in mixes {
        eprintln!("== floor: capturing {}", mix.name);
        samples.push((
            mix.name,
            capture(target, population, mix, &root, &scratch.0)?,
        ));
    }
    let server = nginx::Nginx::start(&scratch.0, &root)?;
    let mut floors = Vec::new();
    for (name, (sample, mean_bytes)) in samples {
        eprintln!(
            "== floor: {name} from files ({sample} answers, {mean_bytes} bytes each on average)"
        );
        let script = wrk::Script::with_text(&serving_script(name, sample))?;
        let result = wrk::run(
            &script,
            &wrk::Load {
                url: &format!("http://{}/", server.addr),
                token: &target.token,
                duration_s: run.duration_s,
                connections: run.connections,
                timeout_s: run.timeout_s,
            },
        )?;
        floors.push(Floor {
            name,
            sample,
            mean_bytes,
            measurement: result.measurement(None),
        });
    }
    Ok(floors)
}

/// Runs the scenario's own script for a moment on one connection, writing the paths it
/// draws, then fetches each and writes its answer as `<root>/<name>/<n>.json`; returns how
/// many were kept and their mean size.
fn capture(
    target: &Target,
    population: &Population,
    mix: &Mix,
    root: &Path,
    scratch: &Path,
) -> Result<(usize, u64), String> {
    let paths_file = scratch.join(format!("{}.paths", mix.name));
    let mut text = realistic::script(population, mix);
    text.push_str(&capture_suffix(&paths_file, SAMPLE_ANSWERS));
    let script = wrk::Script::with_text(&text)?;
    wrk::run(
        &script,
        &wrk::Load {
            url: &target.url("/"),
            token: &target.token,
            duration_s: CAPTURE_S,
            connections: 1,
            timeout_s: 10,
        },
    )?;
    let paths = std::fs::read_to_string(&paths_file)
        .map_err(|e| format!("cannot read {}: {e}", paths_file.display()))?;
    let dir = root.join(mix.name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (mut kept, mut bytes) = (0usize, 0usize);
    for path in paths.lines().filter(|line| !line.is_empty()) {
        if bytes >= SAMPLE_BYTES {
            break;
        }
        let answer = target.send("GET", path, None)?;
        if answer.status != 200 {
            return Err(format!(
                "capturing {}: GET {path} answered {}",
                mix.name, answer.status
            ));
        }
        kept += 1;
        bytes += answer.body.len();
        let file = dir.join(format!("{kept}.json"));
        std::fs::write(&file, answer.body.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    if kept == 0 {
        return Err(format!("capturing {}: wrk drew no request", mix.name));
    }
    Ok((kept, (bytes / kept) as u64))
}

/// Appended to a scenario's script: its requests go on as before, and the first `limit`
/// paths are written to `file` (wrk's request text starts `GET <path> HTTP/1.1`).
fn capture_suffix(file: &Path, limit: usize) -> String {
    format!(
        r#"
local drawn_request = request
local captured, capture = 0, assert(io.open('{file}', 'w'))
request = function()
  local raw = drawn_request()
  if captured < {limit} then
    capture:write(raw:match('^GET (%S+)'), '\n')
    capture:flush()
    captured = captured + 1
  end
  return raw
end
"#,
        file = file.display()
    )
}

/// The floor's load: a random answer of the sample each request, as peeringd's draws.
fn serving_script(name: &str, sample: usize) -> String {
    format!(
        r#"-- Written by cargo xtask bench: the floor of {name}, from files.
{seeded}request = function()
  return wrk.format("GET", '/{name}/' .. math.random(1, {sample}) .. '.json')
end
{done}"#,
        seeded = wrk::SEEDED,
        done = wrk::DONE
    )
}

/// peeringd's rate (cache on, with its writer) ÷ the floor's, for a scenario.
pub fn ratio(rows: &[realistic::Row], floors: &[Floor], name: &str) -> Option<f64> {
    let ours = rows
        .iter()
        .find(|row| row.cache == Cache::On && row.scenario.name == name)?
        .scenario
        .measured()?
        .requests_per_s;
    let floor = floors.iter().find(|f| f.name == name)?;
    Some(ours / floor.measurement.requests_per_s.max(1e-9))
}

pub fn json(rows: &[realistic::Row], floors: &[Floor]) -> Value {
    let items: Vec<Value> = floors
        .iter()
        .map(|f| {
            json!({
                "scenario": f.name,
                "sample_answers": f.sample,
                "mean_bytes": f.mean_bytes,
                "requests_per_s": r(f.measurement.requests_per_s, 1),
                "p50_ms": r(f.measurement.p50_ms, 2),
                "p99_ms": r(f.measurement.p99_ms, 2),
                "non2xx": f.measurement.non2xx + f.measurement.errors,
                "peeringd_ratio": ratio(rows, floors, f.name).map(|x| r(x, 3)),
            })
        })
        .collect();
    Value::Array(items)
}

pub fn markdown(rows: &[realistic::Row], floors: &[Floor]) -> String {
    if floors.is_empty() {
        return String::new();
    }
    let mut md = String::from(
        "The floor: a sample of each scenario's answers, captured from peeringd and served \
         from files by nginx, with the same wrk load:\n\n",
    );
    md.push_str("| scenario | answers | mean bytes | floor req/s | floor p99 ms | peeringd req/s (cache on) | ratio |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for f in floors {
        let ours = ratio(rows, floors, f.name).map(|x| x * f.measurement.requests_per_s);
        md.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} |\n",
            f.name,
            f.sample,
            thousands(f.mean_bytes as f64),
            thousands(f.measurement.requests_per_s),
            f.measurement.p99_ms,
            ours.map_or("–".into(), thousands),
            ratio(rows, floors, f.name).map_or("–".into(), |x| format!("{x:.3}")),
        ));
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capture_keeps_the_scenarios_request_and_writes_its_path() {
        let text = capture_suffix(Path::new("/tmp/x/as_list.paths"), 5);
        assert!(text.contains("local raw = drawn_request()"));
        assert!(text.contains("io.open('/tmp/x/as_list.paths', 'w')"));
        assert!(text.contains("if captured < 5 then"));
        assert!(text.contains("return raw"), "the request is still sent");
    }

    #[test]
    fn the_floor_draws_among_the_sample() {
        let text = serving_script("as_detail", 37);
        assert!(text.contains("'/as_detail/' .. math.random(1, 37) .. '.json'"));
        assert!(text.contains("RESULT"), "the summary line is printed");
    }
}
