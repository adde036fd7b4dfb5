//! A directory of PeeringDB answers applied to the copy, in one transaction.

use std::path::Path;
use std::time::{Duration, Instant};

use peering_domain::peeringdb::from_api;
use peering_domain::resources::PEERINGDB_NAMESPACES;
use peering_store::{Applied, CopyWriter, Error, Store};

use crate::stream::{for_each_object, StreamError};
use crate::Event;

/// Objects applied per statement batch.
const BATCH: usize = 1000;

/// When a synchronisation must be over, and its deadline as set (for the error).
pub(crate) type Within = Option<(Instant, Duration)>;

/// Applies `{namespace}.json` of every object type found in `dir`, parents first; the
/// object types without a file. Past the deadline `within`, if any, nothing is applied.
pub(crate) fn directory(
    store: &Store,
    dir: &Path,
    started: chrono::DateTime<chrono::Utc>,
    within: Within,
    progress: &dyn Fn(Event<'_>),
) -> Result<(Applied, Vec<&'static str>), crate::SyncError> {
    let mut missing = Vec::new();
    let applied = store.peeringdb().synchronise(started, |writer| {
        missing.clear();
        for (namespace, _) in PEERINGDB_NAMESPACES {
            let path = dir.join(format!("{namespace}.json"));
            match std::fs::File::open(&path) {
                Ok(file) => apply_file(writer, namespace, file, within, progress)?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push(*namespace),
                Err(e) => return Err(Error::Aborted(format!("{}: {e}", path.display()))),
            }
        }
        Ok(())
    })?;
    Ok((applied, missing))
}

/// An error once the deadline has passed: the transaction then ends, applying nothing.
fn check_deadline(within: Within, namespace: &str) -> Result<(), Error> {
    match within {
        Some((deadline, set)) if Instant::now() >= deadline => Err(Error::Aborted(
            crate::SyncError::Deadline {
                secs: set.as_secs(),
                during: format!("applying {namespace}"),
            }
            .to_string(),
        )),
        _ => Ok(()),
    }
}

fn apply_file(
    writer: &mut CopyWriter<'_, '_>,
    namespace: &'static str,
    file: std::fs::File,
    within: Within,
    progress: &dyn Fn(Event<'_>),
) -> Result<(), Error> {
    check_deadline(within, namespace)?;
    let spec = crate::resource(namespace).expect("a namespace of the copy");
    progress(Event::Applying { namespace });
    let mut batch = Vec::with_capacity(BATCH);
    let mut objects = 0u64;
    let read = for_each_object(file, |object| {
        match from_api(spec, &object) {
            Ok(incoming) => batch.push(incoming),
            Err(refused) => writer.refuse(spec, refused),
        }
        if batch.len() == BATCH {
            check_deadline(within, namespace)?;
            objects += BATCH as u64;
            writer.apply(spec, std::mem::take(&mut batch))?;
            progress(Event::Progress { namespace, objects });
        }
        Ok::<(), Error>(())
    });
    match read {
        Ok(_) => {}
        Err(StreamError::Stopped(e)) => return Err(e),
        Err(StreamError::Malformed(m)) => {
            return Err(Error::Aborted(format!(
                "PeeringDB's answer for {namespace} is malformed: {m}"
            )))
        }
    }
    objects += batch.len() as u64;
    writer.apply(spec, batch)?;
    progress(Event::Applied { namespace, objects });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_its_deadline_a_synchronisation_applies_nothing_more() {
        let set = Duration::from_secs(5);
        let now = Instant::now();
        assert!(check_deadline(None, "net").is_ok());
        assert!(check_deadline(Some((now + set, set)), "net").is_ok());
        match check_deadline(Some((now, set)), "net") {
            Err(Error::Aborted(message)) => assert_eq!(
                message,
                "the synchronisation took more than its deadline of 5 s (applying net)"
            ),
            other => panic!("{other:?}"),
        }
    }
}
