//! The repositories, one per subject (users, jobs, …): what the store keeps of each beyond the
//! resources, reached through a handle on the [`Store`](crate::Store) (`store.users()`,
//! `store.jobs()`).

pub mod jobs;
pub mod users;
