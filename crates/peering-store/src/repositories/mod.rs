//! The repositories, one per subject (users, jobs, schedules, PeeringDB): what the store keeps of each beyond the
//! resources, reached through a handle on the [`Store`](crate::Store) (`store.users()`,
//! `store.jobs()`, `store.peeringdb()`).

pub mod data_sources;
pub mod jobs;
pub mod peeringdb;
pub mod schedules;
pub mod users;
