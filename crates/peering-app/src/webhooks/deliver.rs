//! The `extras.webhook.deliver` job: reads the webhook (one deleted or disabled since
//! sends nothing), checks its conditions against the object, renders its URL, headers and
//! body with the job's context, signs the body, sends it, and keeps each attempt in the
//! job's data. A failed attempt (no answer in time, a refused connection, a status other
//! than 2xx) is tried again after a growing delay, up to the setting's count.

use std::sync::Arc;
use std::time::Duration;

use peering_domain::resources::WEBHOOK;
use peering_domain::{Record, Value};
use peering_jobs::Outcome;
use peering_render::{Audience, Bounds, Dataset, MemorySource, Secrets, Template};
use peering_store::{ClaimedJob, Store};
use serde_json::{json, Value as Json};

use super::send::{self, Answer, Reach, Request};
use super::{conditions, payload, signature, Settings};

/// Runs one delivery of the job.
pub fn deliver(store: &Store, settings: &Settings, bounds: &Bounds, job: &ClaimedJob) -> Outcome {
    let log = Log::from(&job.data);
    let Some(id) = job.object_id.or_else(|| job.params["webhook"].as_i64()) else {
        return log.end(Outcome::failed, "the job names no webhook".into());
    };
    let webhook = match store.get(&WEBHOOK, id) {
        Ok(Some((record, _))) => record,
        Ok(None) => {
            return log.end(
                Outcome::completed,
                format!("webhook {id} was deleted: nothing sent"),
            )
        }
        Err(e) => {
            return log.end(
                Outcome::errored,
                format!("webhook {id} could not be read: {e}"),
            )
        }
    };
    let name = webhook.text(&WEBHOOK, "name").to_string();
    if webhook.get(&WEBHOOK, "enabled").as_bool() != Some(true) {
        return log.end(
            Outcome::completed,
            format!("webhook {name} is disabled: nothing sent"),
        );
    }
    match conditions_met(&webhook, &job.params["data"]) {
        Ok(true) => {}
        Ok(false) => {
            let message = format!("the conditions of webhook {name} are not met: nothing sent");
            return log.end(Outcome::completed, message);
        }
        Err(e) => return log.end(Outcome::errored, format!("webhook {name}: {e}")),
    }
    let request = match prepare(&webhook, &job.params, bounds) {
        Ok(request) => request,
        Err(e) => return log.end(Outcome::errored, format!("webhook {name}: {e}")),
    };
    let reach = Reach {
        ssl_verification: webhook.get(&WEBHOOK, "ssl_verification").as_bool() != Some(false),
        ca_file: Some(webhook.text(&WEBHOOK, "ca_file_path")),
        timeout: settings.timeout,
        proxy: settings.proxy.as_deref(),
    };
    let sent = send::client(&reach).and_then(|client| {
        let headers = send::header_map(&request.headers)?;
        Ok(send::send(&client, &request, headers))
    });
    match sent {
        Ok(answer) => log.attempted(settings, &request.url, answer),
        Err(e) => log.end(Outcome::errored, format!("webhook {name}: {e}")),
    }
}

fn conditions_met(webhook: &Record, data: &Json) -> Result<bool, String> {
    let stored = match webhook.get(&WEBHOOK, "conditions") {
        Value::Json(document) => (**document).clone(),
        _ => Json::Null,
    };
    let parsed = conditions::parse(&stored).map_err(|e| format!("invalid conditions: {e}"))?;
    match parsed {
        None => Ok(true),
        Some(set) => set
            .eval(data)
            .map_err(|e| format!("the conditions could not be evaluated: {e}")),
    }
}

/// The request the webhook makes for this job: its URL, headers and body rendered with
/// the job's context, then the content type, user agent and signature.
fn prepare(webhook: &Record, params: &Json, bounds: &Bounds) -> Result<Request, String> {
    let context = payload::context(params);
    let render = |field: &str| {
        render(webhook.text(&WEBHOOK, field), &context, bounds).map_err(|e| format!("{field}: {e}"))
    };
    let url = render("payload_url")?;
    let body_template = webhook.text(&WEBHOOK, "body_template");
    let body = if body_template.is_empty() {
        payload::python_json(&context)
    } else {
        render("body_template")?.into_bytes()
    };
    let mut headers = vec![
        ("User-Agent".to_string(), USER_AGENT.to_string()),
        (
            "Content-Type".to_string(),
            webhook.text(&WEBHOOK, "http_content_type").to_string(),
        ),
    ];
    if !webhook.text(&WEBHOOK, "additional_headers").is_empty() {
        headers.extend(payload::headers(&render("additional_headers")?)?);
    }
    let secret = webhook.text(&WEBHOOK, "secret");
    if !secret.is_empty() {
        headers.push(("X-Hook-Signature".into(), signature::sign(&body, secret)));
    }
    Ok(Request {
        method: webhook.text(&WEBHOOK, "http_method").to_string(),
        url,
        headers,
        body,
    })
}

pub const USER_AGENT: &str = concat!("peeringd/", env!("CARGO_PKG_VERSION"));

/// A template rendered with the context only: a webhook's templates see no stored
/// object but those the job carries.
fn render(source: &str, context: &Json, bounds: &Bounds) -> Result<String, String> {
    let nothing = Audience::reading(
        Vec::<String>::new(),
        Secrets::of(Vec::<String>::new()),
        None,
    );
    let data = Dataset::new(Box::new(MemorySource::new()), nothing);
    let template = Template {
        source,
        trim: false,
        lstrip: false,
    };
    let data: Arc<Dataset> = data;
    peering_render::render(
        &template,
        peering_render::context::from_json(context),
        &data,
        bounds,
    )
    .map_err(|e| e.to_string())
}

/// The job's data, as the reference keeps a job's log: counts by level and the lines,
/// each attempt's with its time, number and HTTP status.
struct Log {
    data: Json,
}

impl Log {
    /// What earlier attempts left, or a fresh log.
    fn from(previous: &Json) -> Log {
        let fresh = json!({"success": 0, "info": 0, "warning": 0, "failure": 0, "log": []});
        let data = match previous {
            Json::Object(map) if map.get("log").is_some_and(Json::is_array) => previous.clone(),
            _ => fresh,
        };
        Log { data }
    }

    /// How many attempts were made before this one.
    fn attempts(&self) -> u32 {
        let lines = self.data["log"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let made = lines
            .iter()
            .filter(|line| line.get("attempt").is_some())
            .count();
        u32::try_from(made).unwrap_or(u32::MAX)
    }

    fn add(&mut self, level: &str, message: &str, attempt: Option<(u32, Option<u16>)>) {
        let count = self.data[level].as_u64().unwrap_or(0) + 1;
        self.data[level] = count.into();
        let mut line = json!({
            "status": level,
            "message": message,
            "time": peering_domain::value::now().to_rfc3339(),
        });
        if let Some((number, status)) = attempt {
            line["attempt"] = number.into();
            line["http_status"] = status.map_or(Json::Null, Json::from);
        }
        if let Some(lines) = self.data["log"].as_array_mut() {
            lines.push(line);
        }
    }

    /// Ends the job with `message`, kept as the log's last line.
    fn end(mut self, outcome: fn(String) -> Outcome, message: String) -> Outcome {
        let mut ended = outcome(message.clone());
        let level = if ended.end == peering_store::JobEnd::Completed {
            "success"
        } else {
            "failure"
        };
        self.add(level, &message, None);
        ended.data = self.data;
        ended
    }

    /// Records an attempt: delivered ends the job; failed, it runs again later, or ends
    /// errored after the last attempt.
    fn attempted(mut self, settings: &Settings, url: &str, answer: Answer) -> Outcome {
        let number = self.attempts() + 1;
        let (status, failure) = match answer {
            Answer::Delivered(status) => {
                let message = format!(
                    "attempt {number}: status {status} returned, webhook successfully processed"
                );
                self.add("success", &message, Some((number, Some(status))));
                let mut done = Outcome::completed(message);
                done.data = self.data;
                return done;
            }
            Answer::Refused(status, said) => (
                Some(status),
                format!(
                    "status {status} returned with content '{said}', webhook FAILED to process"
                ),
            ),
            Answer::Unreachable(why) => (None, format!("{url} could not be reached: {why}")),
        };
        let message = format!("attempt {number}: {failure}");
        self.add("failure", &message, Some((number, status)));
        if number < settings.attempts {
            let delay = settings.delay_after(number);
            let output = format!(
                "{message}; attempt {} in {}s",
                number + 1,
                delay.as_secs_f64()
            );
            return Outcome::retry(delay, output, self.data);
        }
        let mut failed = Outcome::errored(format!("gave up after {number} attempts; {message}"));
        failed.data = self.data;
        failed
    }
}

impl Settings {
    /// The wait after the `attempt`-th failed attempt: the first delay, times three for
    /// each attempt since, at most an hour.
    pub fn delay_after(&self, attempt: u32) -> Duration {
        let factor = 3u32.saturating_pow(attempt.saturating_sub(1));
        self.retry_delay
            .checked_mul(factor)
            .unwrap_or(Duration::MAX)
            .min(Duration::from_secs(3600))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_threefold_up_to_an_hour() {
        let settings = Settings::default();
        let waits: Vec<u64> = (1..=7).map(|n| settings.delay_after(n).as_secs()).collect();
        assert_eq!(waits, [10, 30, 90, 270, 810, 2430, 3600]);
        assert_eq!(settings.delay_after(u32::MAX), Duration::from_secs(3600));
    }

    #[test]
    fn attempts_are_counted_from_the_log_and_the_last_one_gives_up() {
        let settings = Settings {
            attempts: 2,
            ..Settings::default()
        };
        let first = Log::from(&Json::Null).attempted(
            &settings,
            "http://x/",
            Answer::Refused(503, "busy".into()),
        );
        assert_eq!(first.retry_after, Some(Duration::from_secs(10)));
        assert!(
            first.output.starts_with("attempt 1: status 503"),
            "{}",
            first.output
        );
        let second = Log::from(&first.data).attempted(
            &settings,
            "http://x/",
            Answer::Unreachable("timed out".into()),
        );
        assert_eq!(second.retry_after, None);
        assert_eq!(second.end, peering_store::JobEnd::Errored);
        assert!(
            second.output.starts_with("gave up after 2 attempts"),
            "{}",
            second.output
        );
        assert_eq!(second.data["failure"], 2);
        assert_eq!(second.data["log"][1]["http_status"], Json::Null);
        let delivered =
            Log::from(&first.data).attempted(&settings, "http://x/", Answer::Delivered(204));
        assert_eq!(delivered.end, peering_store::JobEnd::Completed);
        assert_eq!(delivered.data["log"][1]["attempt"], 2);
        assert_eq!(delivered.data["success"], 1);
    }
}
