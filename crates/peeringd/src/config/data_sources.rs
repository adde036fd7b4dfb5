//! The data source settings: how long a synchronisation may take to fetch its files and
//! how many bytes a source may hold (a Git repository's download included).

use std::time::Duration;

use clap::Args;
use peering_app::data_sources::Limits;
use serde::Deserialize;

/// The most either setting may say: an hour, a gibibyte.
const LONGEST: Duration = Duration::from_secs(3600);
const LARGEST: u64 = 1 << 30;

/// The data source flags (and their environment variables).
#[derive(Debug, Clone, Default, Args)]
pub struct DataSourceArgs {
    /// Seconds a data source's synchronisation may take to fetch its files.
    #[arg(long, env = "PEERING_DATA_SOURCE_TIMEOUT_SECS", global = true)]
    pub data_source_timeout_secs: Option<u64>,
    /// Bytes a data source may hold in all (what a Git repository downloads included).
    #[arg(long, env = "PEERING_DATA_SOURCE_MAX_BYTES", global = true)]
    pub data_source_max_bytes: Option<u64>,
}

/// The same settings in the TOML file.
#[derive(Debug, Default, Deserialize)]
pub struct DataSourceFile {
    data_source_timeout_secs: Option<u64>,
    data_source_max_bytes: Option<u64>,
}

impl DataSourceArgs {
    /// Each setting from its flag or variable, else the file, else its default; refused
    /// out of bounds.
    pub fn resolve(&self, file: DataSourceFile) -> Result<Limits, String> {
        let defaults = Limits::default();
        let timeout = self
            .data_source_timeout_secs
            .or(file.data_source_timeout_secs)
            .map_or(defaults.timeout, Duration::from_secs);
        let max_bytes = self
            .data_source_max_bytes
            .or(file.data_source_max_bytes)
            .unwrap_or(defaults.max_total_bytes);
        if timeout.is_zero() || timeout > LONGEST {
            return Err(format!(
                "PEERING_DATA_SOURCE_TIMEOUT_SECS must be between 1 and {}",
                LONGEST.as_secs()
            ));
        }
        if max_bytes == 0 || max_bytes > LARGEST {
            return Err(format!(
                "PEERING_DATA_SOURCE_MAX_BYTES must be between 1 and {LARGEST}"
            ));
        }
        Ok(Limits::with(max_bytes, timeout))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_beat_the_file_and_bounds_hold() {
        let defaults = DataSourceArgs::default()
            .resolve(DataSourceFile::default())
            .unwrap();
        assert_eq!(defaults, Limits::default());
        let args = DataSourceArgs {
            data_source_timeout_secs: Some(5),
            ..Default::default()
        };
        let file: DataSourceFile =
            toml::from_str("data_source_timeout_secs = 9\ndata_source_max_bytes = 1024\n").unwrap();
        let limits = args.resolve(file).unwrap();
        assert_eq!(limits.timeout, Duration::from_secs(5));
        assert_eq!(limits.max_total_bytes, 1024);
        // No file may be larger than all of them.
        assert_eq!(limits.max_file_bytes, 1024);
        assert_eq!(limits.max_files, Limits::default().max_files);
        for bad in [
            DataSourceArgs {
                data_source_timeout_secs: Some(0),
                ..Default::default()
            },
            DataSourceArgs {
                data_source_max_bytes: Some(0),
                ..Default::default()
            },
            DataSourceArgs {
                data_source_max_bytes: Some(LARGEST + 1),
                ..Default::default()
            },
        ] {
            assert!(bad.resolve(DataSourceFile::default()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_file_settings_take_the_data_source_keys_beside_the_others() {
        let text = "listen = \"127.0.0.1:9\"\ndata_source_max_bytes = 4096\n";
        let file: super::super::FileSettings = toml::from_str(text).unwrap();
        assert_eq!(file.data_sources.data_source_max_bytes, Some(4096));
    }
}
