//! Token keys, password hashes and the rules that decide what a token may do.
#![doc = include_str!("../README.md")]

pub mod password;
pub mod token;

pub use token::{Access, TokenKey, TokenState};
