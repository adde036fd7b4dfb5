//! `cargo xtask openapi`: writes the OpenAPI document the server serves to the files
//! committed in `crates/peering-openapi/` (`peering_openapi::snapshot`), so that an API
//! change shows in review; `--check` fails when they are not what the declarations give
//! (as does `peering-openapi`'s test).

use std::path::PathBuf;

use peering_openapi::snapshot;

/// Where the committed files live.
fn target() -> PathBuf {
    crate::project_root().join("crates/peering-openapi")
}

pub fn run(check: bool) -> Result<(), String> {
    let dir = target();
    let mut stale = Vec::new();
    for (name, text) in snapshot::files()? {
        let path = dir.join(name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == text {
            continue;
        }
        if check {
            let at = snapshot::first_difference(&committed, &text);
            stale.push(format!("{} ({at})", path.display()));
            continue;
        }
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if !stale.is_empty() {
        return Err(format!(
            "stale: {}; run `cargo xtask openapi`",
            stale.join(", ")
        ));
    }
    println!("the OpenAPI document in {} is current", dir.display());
    Ok(())
}
