//! The repositories, one per subject (users, …): what the store keeps of each beyond the
//! resources, reached through a handle on the [`Store`](crate::Store) (`store.users()`).

pub mod users;
