//! Rebuilds the crate when a migration changes, since migrations are embedded.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
