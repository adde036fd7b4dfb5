//! `cargo xtask codegen`: writes the typed models of every resource
//! (`crates/peering-domain/src/models/generated/`) from the declarations, so that they
//! cannot drift from what the server reads and writes; `--check` fails when the files
//! are not what the declarations give (CI runs it).
//!
//! The generator links the domain crate it writes into: a change to the model traits that
//! the current generated files do not satisfy needs the old traits to build the generator
//! once (`cargo build -p xtask`), then the new ones (`target/debug/xtask codegen`).

mod filters;
mod forms;
mod names;
mod types;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use peering_domain::resources::ALL;

/// Where the generated models live: one file per resource, and `mod.rs`.
fn target() -> PathBuf {
    crate::project_root().join("crates/peering-domain/src/models/generated")
}

pub fn run(check: bool) -> Result<(), String> {
    let dir = target();
    let mut files = BTreeMap::new();
    for (name, text) in generate() {
        files.insert(format!("{name}.rs"), rustfmt(&text)?);
    }
    if check {
        return check_files(&dir, &files);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, text) in &files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("wrote {} files in {}", files.len(), dir.display());
    Ok(())
}

/// Fails unless the directory holds exactly `files`.
fn check_files(dir: &Path, files: &BTreeMap<String, String>) -> Result<(), String> {
    let mut present = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        present.insert(
            path.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            text,
        );
    }
    if &present != files {
        return Err(format!(
            "{} is stale: run `cargo xtask codegen`",
            dir.display()
        ));
    }
    println!("{} is current", dir.display());
    Ok(())
}

const HEADER: &str =
    "//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.\n\n";

/// Each file's name (without `.rs`) and text, before formatting: a module per resource,
/// with the enums of the choice sets it is the first to use, and `mod` re-exporting them.
fn generate() -> Vec<(String, String)> {
    let mut enums = types::choice_enums_by_first_user();
    let mut modules = Vec::new();
    let mut root = HEADER.to_string();
    for (index, spec) in ALL.iter().enumerate() {
        let module = names::module_name(spec);
        let _ = writeln!(root, "mod {module};\npub use {module}::*;");
        let mut text = format!(
            "{HEADER}#![allow(unused_imports)]\n\n\
             use serde::{{Deserialize, Serialize}};\n\n\
             use super::*;\n\
             use crate::models::filters::*;\n\
             use crate::models::{{Choice, Editable, Model, Timestamp, Writable}};\n\
             use crate::resources::ALL;\n\
             use crate::spec::ResourceSpec;\n\n"
        );
        text.push_str(&enums.remove(&index).unwrap_or_default());
        text.push_str(&forms::resource(index, spec));
        modules.push((module, text));
    }
    root.push_str(&every_model_macro());
    modules.push(("mod".into(), root));
    modules
}

/// `for_each_model!(callback)`: calls `callback!` with the path of every model type, for
/// code that treats each resource alike (the round-trip tests).
fn every_model_macro() -> String {
    let types: Vec<String> = ALL
        .iter()
        .map(|spec| format!("$crate::models::{}", names::type_name(spec)))
        .collect();
    format!(
        "\n/// Calls `$callback!` with the path of every model type, in `resources::ALL`'s order.\n\
         #[macro_export]\nmacro_rules! for_each_model {{\n($callback:ident) => {{\n\
         $callback!({});\n}};\n}}\n",
        types.join(", ")
    )
}

/// The text as `rustfmt` writes it, so that the checked-in file reads like the rest.
fn rustfmt(text: &str) -> Result<String, String> {
    use std::io::Write;
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("rustfmt: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("rustfmt: no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| format!("rustfmt: {e}"))?;
    let output = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "rustfmt refused the generated code: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("rustfmt: {e}"))
}
