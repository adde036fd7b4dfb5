//! Parses a query string given as the first argument against a sample catalog and prints it.
//!
//! `cargo run -p peering-filter --example parse -- 'asn__gte=64500&name__ic=foo&ordering=-asn'`

use peering_filter::{parse, Catalog, FilterField, FilterKind};
use std::process::ExitCode;

const FIELDS: &[FilterField] = &[
    FilterField::new("id", FilterKind::Number),
    FilterField::new("asn", FilterKind::Number),
    FilterField::new("name", FilterKind::String),
    FilterField::new("irr_as_set", FilterKind::String),
    FilterField::new("ipv6_max_prefixes", FilterKind::Number),
    FilterField::new(
        "status",
        FilterKind::Choice(&["enabled", "disabled", "maintenance"]),
    ),
    FilterField::new("enabled", FilterKind::Bool),
    FilterField::new("autonomous_system_id", FilterKind::ForeignKey),
    FilterField::new("created_by_request", FilterKind::Uuid),
    FilterField::new("created", FilterKind::DateTime),
    FilterField::new("tag", FilterKind::Tag),
];

const CATALOG: Catalog<'static> = Catalog {
    fields: FIELDS,
    orderable: &["id", "asn", "name", "created"],
};

fn main() -> ExitCode {
    let query = std::env::args().nth(1).unwrap_or_default();
    // Plain splitting is enough for a demo; real requests are decoded by the HTTP layer.
    let pairs: Vec<(String, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
            (key.to_owned(), value.to_owned())
        })
        .collect();
    match parse(&pairs, &CATALOG) {
        Ok(filter) => {
            println!("{filter:#?}");
            println!("canonical: {filter}");
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("{}: {}", error.param, error.message);
            }
            ExitCode::FAILURE
        }
    }
}
