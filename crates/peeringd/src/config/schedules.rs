//! The schedules' settings (`PEERING_SCHEDULE_*`): how often each kind of work runs by
//! itself, as an interval (`15m`, `24h`, `1d`); empty or unset turns a schedule off, but
//! the retention's, which runs hourly unless set otherwise. A text that is not an interval
//! stops the start with an error naming its setting.

use clap::Args;
use peering_app::schedules::{Interval, Retention, Schedule, Scheduled};
use serde::Deserialize;

use super::{or, Settings};

/// The schedules' flags; clap fills each from its flag or its environment variable.
#[derive(Debug, Clone, Default, Args)]
pub struct ScheduleArgs {
    /// How often PeeringDB is synchronised (e.g. `1d`); empty: never by itself.
    #[arg(long, env = "PEERING_SCHEDULE_PEERINGDB_SYNC", global = true)]
    pub schedule_peeringdb_sync: Option<String>,
    /// How often the routers that ask for it (`poll_bgp_sessions_state`) have their
    /// sessions polled (e.g. `15m`); empty: never by itself.
    #[arg(long, env = "PEERING_SCHEDULE_POLL_SESSIONS", global = true)]
    pub schedule_poll_sessions: Option<String>,
    /// How often every autonomous system's prefixes are refreshed from the IRR (e.g.
    /// `1d`); empty: never by itself.
    #[arg(long, env = "PEERING_SCHEDULE_IRR_REFRESH", global = true)]
    pub schedule_irr_refresh: Option<String>,
    /// How often every enabled data source is synchronised (e.g. `1h`); empty: never by
    /// itself.
    #[arg(long, env = "PEERING_SCHEDULE_DATA_SOURCES_SYNC", global = true)]
    pub schedule_data_sources_sync: Option<String>,
    /// How often change records and jobs past their retention are deleted (default `1h`);
    /// empty: never.
    #[arg(long, env = "PEERING_SCHEDULE_RETENTION", global = true)]
    pub schedule_retention: Option<String>,
}

/// The same settings as read from the TOML file.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ScheduleFile {
    schedule_peeringdb_sync: Option<String>,
    schedule_poll_sessions: Option<String>,
    schedule_irr_refresh: Option<String>,
    schedule_data_sources_sync: Option<String>,
    schedule_retention: Option<String>,
}

/// The retention's interval when its setting is not given.
const DEFAULT_RETENTION: &str = "1h";

impl ScheduleArgs {
    /// The schedules turned on, each from its flag or variable, else the file.
    pub(super) fn resolve(&self, file: ScheduleFile) -> Result<Vec<Schedule>, String> {
        let given = [
            (
                Scheduled::PeeringDbSync,
                or(&self.schedule_peeringdb_sync, file.schedule_peeringdb_sync),
            ),
            (
                Scheduled::PollSessions,
                or(&self.schedule_poll_sessions, file.schedule_poll_sessions),
            ),
            (
                Scheduled::IrrRefresh,
                or(&self.schedule_irr_refresh, file.schedule_irr_refresh),
            ),
            (
                Scheduled::DataSourcesSync,
                or(
                    &self.schedule_data_sources_sync,
                    file.schedule_data_sources_sync,
                ),
            ),
            (
                Scheduled::Retention,
                or(&self.schedule_retention, file.schedule_retention)
                    .or_else(|| Some(DEFAULT_RETENTION.into())),
            ),
        ];
        let mut schedules = Vec::new();
        for (what, text) in given {
            let setting = format!("PEERING_SCHEDULE_{}", what.name().to_uppercase());
            let parsed = Interval::parse(&text.unwrap_or_default())
                .map_err(|e| format!("{setting}: {e}"))?;
            if let Some(every) = parsed {
                schedules.push(Schedule { what, every });
            }
        }
        Ok(schedules)
    }
}

impl Settings {
    /// What the scheduler runs: the schedules on, but the retention's when both
    /// retentions keep everything (it would have nothing to delete).
    pub fn scheduling(&self) -> peering_app::schedules::Settings {
        let retention = Retention {
            changes_days: self.changelog_retention_days,
            jobs_days: self.job_retention_days,
        };
        let keeps_all = retention == Retention::default();
        peering_app::schedules::Settings {
            schedules: self
                .schedules
                .iter()
                .filter(|s| !(keeps_all && s.what == Scheduled::Retention))
                .copied()
                .collect(),
            retention,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(args: ScheduleArgs) -> Result<Vec<(Scheduled, String)>, String> {
        Ok(args
            .resolve(ScheduleFile::default())?
            .into_iter()
            .map(|s| (s.what, s.every.to_string()))
            .collect())
    }

    #[test]
    fn only_the_retention_runs_by_default_hourly() {
        let on = resolved(ScheduleArgs::default()).unwrap();
        assert_eq!(on, vec![(Scheduled::Retention, "1h".to_string())]);
        let off = ScheduleArgs {
            schedule_retention: Some(" ".into()),
            ..Default::default()
        };
        assert_eq!(resolved(off).unwrap(), vec![]);
    }

    #[test]
    fn each_setting_turns_its_schedule_on() {
        let args = ScheduleArgs {
            schedule_peeringdb_sync: Some("1d".into()),
            schedule_poll_sessions: Some("15m".into()),
            schedule_irr_refresh: Some("24h".into()),
            schedule_data_sources_sync: Some("1h".into()),
            schedule_retention: Some("".into()),
        };
        let on = resolved(args).unwrap();
        assert_eq!(
            on,
            vec![
                (Scheduled::PeeringDbSync, "1d".to_string()),
                (Scheduled::PollSessions, "15m".to_string()),
                (Scheduled::IrrRefresh, "1d".to_string()),
                (Scheduled::DataSourcesSync, "1h".to_string()),
            ]
        );
    }

    #[test]
    fn a_bad_interval_names_its_setting() {
        let args = ScheduleArgs {
            schedule_poll_sessions: Some("15 minutes".into()),
            ..Default::default()
        };
        let error = resolved(args).unwrap_err();
        assert!(
            error.starts_with("PEERING_SCHEDULE_POLL_SESSIONS: "),
            "{error}"
        );
        let args = ScheduleArgs {
            schedule_retention: Some("0s".into()),
            ..Default::default()
        };
        let error = resolved(args).unwrap_err();
        assert!(error.starts_with("PEERING_SCHEDULE_RETENTION: "), "{error}");
    }
}
