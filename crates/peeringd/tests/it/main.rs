//! The integration tests of peeringd, in one binary: each module starts the real server on
//! a random port over a fresh database (SQLite, or PostgreSQL when
//! `PEERING_TEST_POSTGRES_URL` is set), or runs the `peeringd` binary itself, and speaks to
//! it as a client or an operator would. One binary links the server once, where a binary
//! per file linked it some forty times.
//!
//! The tests share this process, so none may change what the others see of it: no
//! environment variable is set here (the binary's settings go to its child processes), a
//! test that looks at the process's sockets picks out its own, and the allocator below
//! serves them all.

// Counts what each thread allocates, as the server's does, so that renders stop at their
// memory budget here as they do in production (`template_limits`, `inline_renders`).
#[global_allocator]
static ALLOCATOR: peering_render::CountingAllocator<std::alloc::System> =
    peering_render::CountingAllocator::new(std::alloc::System);

mod binary;
mod common;

// The API: representations, writes, lists, filters, errors.
mod api_basics;
mod api_filters_auth;
mod change_records;
mod compatibility;
mod contention;
mod deletes;
mod details_together;
mod filters;
mod layouts;
mod resources;
mod streamed_lists;

// Its contract: the OpenAPI document, the typed models, the client and its examples.
mod client;
mod client_examples;
mod fields_110;
mod openapi;
mod typed_models;

// Bad input and attacks.
mod fuzz_findings;
mod hardening;
mod robustness;

// Who may do what, and what secrets show.
mod action_permissions;
mod escalation;
mod permissions;
mod render_visibility;
mod secret_ordering;
mod secrets;
mod tokens_and_pages;

// What is kept between reads.
mod kept_objects;
mod kept_orders;
mod object_texts;
mod response_cache;

// Templates and renders.
mod inline_renders;
mod reference_templates;
mod starting_templates;
mod template_limits;
mod templates;

// Jobs, workers and routers.
mod driven_routers;
mod jobs_survive;
mod napalm_adapter;
mod router_command;
mod router_lanes;
mod schedules;
mod webhook_jobs;
mod webhooks;
mod worker;

// E-mails sent to peers.
mod email;

// PeeringDB and imports.
mod data_sources;
mod hidden_peers;
mod import;
mod import_bounds;
mod irr;
mod peeringdb_sync;
mod peeringdb_use;
mod sync_bounds;

// The binary as an operator runs it.
mod cli;
mod demo_data;
mod migration_log;
mod operating;
mod reconnect;

// The write rules on the paths that are not the API.
mod write_rules;
