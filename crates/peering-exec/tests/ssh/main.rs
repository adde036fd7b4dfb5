//! The SSH transport against a real OpenSSH server on loopback (see `server.rs`): output,
//! exit codes, quoting, deadlines, authentication and the host-key rule.

use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

use peering_exec::testing::{keygen, keygen_of, read, Server};
use peering_exec::{ExecError, HostKeyCheck, Ran, Ssh, SshKey, SshTarget, Transport, MAX_OUTPUT};

const TIMEOUT: Duration = Duration::from_secs(10);

fn ssh(target: SshTarget) -> Ssh {
    Ssh::new(target).expect("the target's settings are valid")
}

fn run(server: &Server, target: SshTarget, program: &str, args: &[&str]) -> Ran {
    ssh(target)
        .run(program, args, b"", TIMEOUT)
        .unwrap_or_else(|e| panic!("{e}\nsshd's log:\n{}", server.log()))
}

fn run_err(target: SshTarget) -> ExecError {
    ssh(target)
        .run("true", &[], b"", TIMEOUT)
        .expect_err("the command must not run")
}

#[test]
fn a_command_gets_its_input_and_gives_its_output_errors_and_code() {
    let server = Server::start();
    let ran = ssh(server.target())
        .run(
            "sh",
            &["-c", "tr a-z A-Z; echo 'to stderr' >&2; exit 3"],
            b"hello\nrouter\n",
            TIMEOUT,
        )
        .unwrap_or_else(|e| panic!("{e}\n{}", server.log()));
    assert_eq!(ran.stdout_text(), "HELLO\nROUTER\n");
    assert_eq!(String::from_utf8_lossy(&ran.stderr), "to stderr\n");
    assert_eq!(ran.code, Some(3));
    assert!(!ran.success());
    assert!(run(&server, server.target(), "true", &[]).success());
}

#[test]
fn arguments_arrive_verbatim() {
    let server = Server::start();
    let args = [
        "a b",
        "it's",
        "\"double\"",
        "$HOME",
        "x; touch /tmp/peering-exec-pwned",
        "two\nlines",
        "\\",
        "`id`",
        "$(id)",
        "*",
        "",
        "  ",
    ];
    let mut all = vec!["%s\\0"];
    all.extend(args);
    let ran = run(&server, server.target(), "printf", &all);
    let want: String = args.iter().map(|a| format!("{a}\0")).collect();
    assert_eq!(ran.stdout_text(), want);
    assert!(ran.success());
}

#[test]
fn the_command_gets_none_of_this_process_environment() {
    let server = Server::start();
    std::env::set_var("PEERING_SSH_TEST_SECRET", "hunter2");
    std::env::set_var("LC_PEERING_SSH_TEST", "hunter3");
    let ran = run(&server, server.target(), "env", &[]);
    let env = ran.stdout_text();
    assert!(env.contains("USER=") || env.contains("HOME="), "{env}");
    assert!(
        !env.contains("hunter2") && !env.contains("hunter3"),
        "{env}"
    );
}

#[test]
fn a_command_killed_by_a_signal_has_no_code() {
    let server = Server::start();
    let ran = run(&server, server.target(), "sh", &["-c", "kill -9 $$"]);
    assert_eq!(ran.code, None, "{ran:?}");
}

#[test]
fn a_hanging_command_ends_at_its_deadline_and_is_killed_on_the_server() {
    // OpenSSH refuses the kill (a `signal` request) in sessions of root: see the README.
    let server = Server::start_unprivileged();
    let marker = "30.4242917";
    let started = Instant::now();
    let error = ssh(server.target())
        .run(
            "sh",
            &["-c", &format!("sleep {marker}; echo late")],
            b"",
            Duration::from_secs(2),
        )
        .expect_err("sleep outlives its deadline");
    let took = started.elapsed();
    assert!(matches!(error, ExecError::TimedOut { .. }), "{error}");
    assert!(took >= Duration::from_secs(2), "{took:?}");
    assert!(took < Duration::from_secs(7), "{took:?}");
    assert_gone(marker, &server);
}

#[test]
fn a_large_input_reaches_the_command() {
    let server = Server::start();
    let input = vec![b'x'; 3_000_000];
    let ran = ssh(server.target())
        .run("wc", &["-c"], &input, TIMEOUT)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ran.stdout_text().trim(), "3000000");
}

#[test]
fn output_held_open_after_the_exit_is_reported() {
    let server = Server::start_unprivileged();
    let marker = "30.5151733";
    let started = Instant::now();
    let error = ssh(server.target())
        .run(
            "sh",
            &["-c", &format!("sleep {marker} & echo started")],
            b"",
            TIMEOUT,
        )
        .expect_err("the leftover sleep holds the output");
    let took = started.elapsed();
    // sshd takes no signal for a command that has exited: the leftover is ours to end.
    let leftovers = Command::new("pgrep")
        .args(["-f", &format!("sleep {marker}")])
        .output();
    for pid in String::from_utf8_lossy(&leftovers.expect("pgrep runs").stdout).lines() {
        let _ = Command::new("kill").arg(pid.trim()).status();
    }
    assert!(matches!(error, ExecError::OutputHeld { .. }), "{error}");
    assert!(took < Duration::from_secs(6), "{took:?}");
}

/// Waits up to 5 s for no `sleep <marker>` to run.
fn assert_gone(marker: &str, server: &Server) {
    let alive = || {
        let found = Command::new("pgrep")
            .args(["-f", &format!("sleep {marker}")])
            .output();
        found.expect("pgrep runs").status.success()
    };
    let gone_by = Instant::now() + Duration::from_secs(5);
    while alive() && Instant::now() < gone_by {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        !alive(),
        "`sleep {marker}` still runs on the server\n{}",
        server.log()
    );
}

#[test]
fn output_beyond_the_bound_is_dropped() {
    let server = Server::start();
    let size = (MAX_OUTPUT + 1_000_000).to_string();
    let ran = ssh(server.target())
        .run(
            "head",
            &["-c", &size, "/dev/zero"],
            b"",
            Duration::from_secs(15),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(ran.success());
    assert_eq!(ran.stdout.len() as u64, MAX_OUTPUT);
}

#[test]
fn a_key_given_as_text_works() {
    let server = Server::start();
    let mut target = server.target();
    target.key = SshKey::Text {
        text: read(&server.path("client")),
        passphrase: None,
    };
    assert_eq!(
        run(&server, target, "echo", &["text"]).stdout_text(),
        "text\n"
    );
}

#[test]
fn rsa_and_ecdsa_keys_work() {
    let server = Server::start();
    let mut authorized = read(&server.path("authorized_keys"));
    for kind in ["rsa", "ecdsa"] {
        keygen_of(kind, &server.path(kind), "");
        authorized += &read(&server.path(&format!("{kind}.pub")));
    }
    std::fs::write(server.path("authorized_keys"), authorized).expect("authorize the keys");
    for kind in ["rsa", "ecdsa"] {
        let mut target = server.target();
        target.key = SshKey::File {
            path: server.path(kind),
            passphrase: None,
        };
        assert_eq!(
            run(&server, target, "echo", &[kind]).stdout_text(),
            format!("{kind}\n")
        );
    }
}

#[test]
fn a_key_with_a_passphrase_works_and_a_wrong_one_is_not_shown() {
    let server = Server::start();
    let key = server.path("locked");
    keygen(&key, "correct horse");
    let authorized = read(&server.path("authorized_keys")) + &read(&server.path("locked.pub"));
    std::fs::write(server.path("authorized_keys"), authorized).expect("authorize the key");
    let mut target = server.target();
    target.key = SshKey::File {
        path: key.clone(),
        passphrase: Some("correct horse".into()),
    };
    assert_eq!(
        run(&server, target.clone(), "echo", &["ok"]).stdout_text(),
        "ok\n"
    );
    target.key = SshKey::Text {
        text: read(&key),
        passphrase: Some("battery staple".into()),
    };
    let shown = format!("{target:?}");
    let error = Ssh::new(target).expect_err("a wrong passphrase");
    let said = format!("{error} {error:?} {shown}");
    assert!(
        !said.contains("battery") && !said.contains("horse"),
        "{said}"
    );
    assert_no_key_text(&said, &read(&key));
    assert!(error.to_string().contains("private key"), "{error}");
}

#[test]
fn a_key_the_server_does_not_know_is_refused_without_showing_it() {
    let server = Server::start();
    let stranger = server.path("stranger");
    keygen(&stranger, "");
    let text = read(&stranger);
    let mut target = server.target();
    target.key = SshKey::Text {
        text: text.clone(),
        passphrase: None,
    };
    let shown = format!("{target:?} {:?}", ssh(target.clone()));
    let error = run_err(target);
    assert!(matches!(error, ExecError::Refused { .. }), "{error}");
    assert!(error.to_string().contains(&server.user), "{error}");
    assert_no_key_text(&format!("{error} {error:?} {shown}"), &text);
}

fn assert_no_key_text(said: &str, key: &str) {
    for line in key.lines().filter(|l| !l.starts_with("-----")) {
        assert!(!said.contains(line), "the key's text shows: {said}");
    }
}

#[test]
fn an_unknown_host_key_is_refused_with_its_fingerprint() {
    let server = Server::start();
    let mut target = server.target();
    target.host_key = HostKeyCheck::KnownHostsFile(server.path("no_such_known_hosts"));
    let error = run_err(target);
    assert!(matches!(error, ExecError::Refused { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains(&server.host_fingerprint()), "{message}");
    assert!(message.contains("not known"), "{message}");
    // Refused before authenticating: the server never heard of the user or the key.
    let log = server.log();
    assert!(!log.contains("publickey"), "{log}");
}

#[test]
fn a_changed_host_key_is_refused() {
    let server = Server::start();
    let other = server.path("other_host");
    keygen(&other, "");
    let line = format!(
        "[127.0.0.1]:{} {}",
        server.port,
        read(&server.path("other_host.pub"))
    );
    std::fs::write(server.path("known_hosts"), line).expect("write known_hosts");
    let mut target = server.target();
    target.host_key = HostKeyCheck::KnownHostsFile(server.path("known_hosts"));
    let error = run_err(target);
    assert!(matches!(error, ExecError::Refused { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("CHANGED"), "{message}");
    assert!(message.contains(&server.host_fingerprint()), "{message}");
}

#[test]
fn a_host_key_listed_in_known_hosts_is_accepted_plain_or_hashed() {
    let server = Server::start();
    let known = server.path("known_hosts");
    let line = format!(
        "# ours\nelsewhere {}[127.0.0.1]:{} {}",
        server.host_key(),
        server.port,
        server.host_key()
    );
    std::fs::write(&known, line).expect("write known_hosts");
    let mut target = server.target();
    target.host_key = HostKeyCheck::KnownHostsFile(known.clone());
    assert!(run(&server, target.clone(), "true", &[]).success());
    let hashed = Command::new("ssh-keygen")
        .arg("-H")
        .arg("-f")
        .arg(&known)
        .output();
    assert!(hashed.expect("ssh-keygen runs").status.success());
    let text = read(&known);
    assert!(
        !text.contains("127.0.0.1") && text.contains("|1|"),
        "{text}"
    );
    assert!(run(&server, target, "true", &[]).success());
}

#[test]
fn a_pinned_host_key_must_match() {
    let server = Server::start();
    let other = server.path("other_host");
    keygen(&other, "");
    let mut target = server.target();
    target.host_key = HostKeyCheck::Pinned(read(&server.path("other_host.pub")));
    let error = run_err(target);
    assert!(matches!(error, ExecError::Refused { .. }), "{error}");
    assert!(
        error.to_string().contains(&server.host_fingerprint()),
        "{error}"
    );
}

#[test]
fn nothing_listening_is_unreachable_quickly() {
    let unused = TcpListener::bind("127.0.0.1:0").expect("a port");
    let mut target = stranger_target();
    target.port = unused.local_addr().expect("its address").port();
    drop(unused);
    let started = Instant::now();
    let error = run_err(target);
    assert!(matches!(error, ExecError::Unreachable { .. }), "{error}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn a_server_that_never_speaks_is_unreachable_at_the_connect_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let mut target = stranger_target();
    target.port = listener.local_addr().expect("its address").port();
    target.connect_timeout = Duration::from_secs(1);
    let started = Instant::now();
    let error = run_err(target);
    let took = started.elapsed();
    assert!(matches!(error, ExecError::Unreachable { .. }), "{error}");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(4),
        "{took:?}"
    );
}

/// A target with a throwaway key, for servers that are never reached.
fn stranger_target() -> SshTarget {
    let dir = tempfile::tempdir().expect("a temporary directory");
    keygen(&dir.path().join("k"), "");
    let key = SshKey::Text {
        text: read(&dir.path().join("k")),
        passphrase: None,
    };
    let mut target = SshTarget::new("127.0.0.1", "nobody", key);
    target.host_key = HostKeyCheck::KnownHostsFile(dir.path().join("known_hosts"));
    target
}

#[test]
fn it_runs_from_threads_and_from_inside_a_tokio_runtime() {
    let server = Server::start();
    let transport = ssh(server.target());
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..3)
            .map(|i| {
                scope.spawn({
                    let transport = &transport;
                    move || transport.run("echo", &[&i.to_string()], b"", TIMEOUT)
                })
            })
            .collect();
        for (i, run) in runs.into_iter().enumerate() {
            let ran = run.join().expect("no panic").expect("it runs");
            assert_eq!(ran.stdout_text(), format!("{i}\n"));
        }
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ran = runtime.block_on(async { transport.run("echo", &["inside"], b"", TIMEOUT) });
    assert_eq!(ran.expect("it runs").stdout_text(), "inside\n");
    assert_eq!(
        transport.place(),
        format!("ssh {}@127.0.0.1:{}", server.user, server.port)
    );
}

#[test]
fn by_default_the_host_key_is_looked_up_in_home_known_hosts() {
    let server = Server::start();
    let home = tempfile::tempdir().expect("a temporary home");
    std::env::set_var("HOME", home.path());
    let mut target = server.target();
    target.host_key = HostKeyCheck::UserKnownHosts;
    let error = run_err(target.clone());
    let known = home.path().join(".ssh/known_hosts");
    assert!(
        error.to_string().contains(&known.display().to_string()),
        "{error}"
    );
    std::fs::create_dir_all(home.path().join(".ssh")).expect("make ~/.ssh");
    let line = format!("[127.0.0.1]:{} {}", server.port, server.host_key());
    std::fs::write(&known, line).expect("write known_hosts");
    assert!(run(&server, target, "true", &[]).success());
}
