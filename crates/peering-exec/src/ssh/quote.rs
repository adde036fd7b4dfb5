//! The one command line sent to the server: the program and each argument in single
//! quotes, so that the remote POSIX shell (`sh -c`, as sshd runs every command) hands them
//! to the program verbatim, whatever they hold.

/// `word` in single quotes; each `'` inside becomes `'\''` (close, escaped quote, reopen).
/// Nothing else is special between single quotes: spaces, `$`, `;`, `` ` ``, `\` and
/// newlines stay as they are.
pub fn quote(word: &str) -> String {
    let mut quoted = String::with_capacity(word.len() + 2);
    quoted.push('\'');
    for c in word.chars() {
        if c == '\'' {
            quoted.push_str("'\\''");
        } else {
            quoted.push(c);
        }
    }
    quoted.push('\'');
    quoted
}

/// `program` and `args`, each quoted, separated by spaces.
pub fn command_line(program: &str, args: &[&str]) -> String {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(quote)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_are_quoted() {
        assert_eq!(
            command_line("birdc", &["show", "status"]),
            "'birdc' 'show' 'status'"
        );
    }

    #[test]
    fn a_quote_closes_escapes_and_reopens() {
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("'"), "''\\'''");
    }

    #[test]
    fn the_shell_gets_each_argument_verbatim() {
        let args = [
            "a b",
            "it's",
            "$HOME",
            "x; rm -rf /",
            "two\nlines",
            "\\",
            "`id`",
            "",
        ];
        let want: String = args.iter().map(|a| format!("{a}\0")).collect();
        let direct = std::process::Command::new("sh")
            .arg("-c")
            .arg(command_line("printf", &[&["%s\\0"], &args[..]].concat()))
            .output()
            .expect("sh runs");
        assert_eq!(String::from_utf8_lossy(&direct.stdout), want);
    }
}
