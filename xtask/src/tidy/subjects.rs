//! Commit subjects short enough to read in a one-line log: at most 72 characters, the
//! figures and reasons in the body. Checked for the commits after the one where the rule
//! came in, so that history written before it stays as it was.

use std::process::Command;

use crate::project_root;

/// The longest subject allowed.
pub const MAX_SUBJECT: usize = 72;
/// The last commit before the rule: its own and earlier subjects are not checked.
const RULE_SINCE: &str = "4d73bb6";

/// The commits after [`RULE_SINCE`] whose subjects are too long. A clone that lacks that
/// commit (a shallow one) or is no git checkout at all has nothing to check.
pub fn problems() -> Vec<String> {
    let known = Command::new("git")
        .args(["cat-file", "-e", &format!("{RULE_SINCE}^{{commit}}")])
        .current_dir(project_root())
        .status()
        .is_ok_and(|s| s.success());
    if !known {
        return Vec::new();
    }
    let output = Command::new("git")
        .args(["log", "--format=%h %s", &format!("{RULE_SINCE}..HEAD")])
        .current_dir(project_root())
        .output();
    match output {
        Ok(out) if out.status.success() => too_long(&String::from_utf8_lossy(&out.stdout)),
        _ => vec!["git log failed: commit subjects not checked".into()],
    }
}

/// The lines of `git log --format='%h %s'` whose subject is over [`MAX_SUBJECT`].
fn too_long(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|line| {
            let (hash, subject) = line.split_once(' ')?;
            let length = subject.chars().count();
            (length > MAX_SUBJECT).then(|| {
                format!(
                    "commit {hash}: its subject has {length} characters (at most {MAX_SUBJECT}; figures go in the body)"
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_over_the_limit_are_named() {
        let ok = "a".repeat(MAX_SUBJECT);
        let long = "é".repeat(MAX_SUBJECT + 1);
        let log = format!("abc1234 {ok}\ndef5678 {long}\n");
        let found = too_long(&log);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("commit def5678: its subject has 73 characters"));
    }
}
