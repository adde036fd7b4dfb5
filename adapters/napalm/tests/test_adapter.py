"""The installed `peeringd-napalm` command, run as peeringd runs it (docs/router-command.md):
`peeringd-napalm ACTION`, the request as JSON on standard input, a small environment. The
routers are NAPALM's mock driver answering from the files of tests/mocked/ (one directory
per router), or the "recorder" driver of tests/drivers/ (the mock driver, also writing
down what it was made with and what it was asked)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
MOCKED = HERE / "mocked"
DRIVERS = HERE / "drivers"
PASSWORD = "s3cr3t-Pa55-word"
JUNOS_DIFF = json.loads((MOCKED / "junos-edge" / "compare_config.1").read_text())["diff"]
CONFIGURATION = """protocols {
    bgp {
        group transit {
            neighbor 192.0.2.12 {
                description "AS64512 transit";
                peer-as 64512;
            }
        }
    }
}
"""


def command():
    """The console script of the package as installed beside this Python, or as named by
    PEERINGD_NAPALM."""
    named = os.environ.get("PEERINGD_NAPALM")
    if named:
        return named
    script = Path(sys.executable).parent / "peeringd-napalm"
    if not script.exists():
        pytest.fail(f"peeringd-napalm is not installed beside {sys.executable}: "
                    "pip install ./adapters/napalm (or run adapters/napalm/test.sh)")
    return str(script)


def router(driver="mock", platform_args=None, router_args=None, timeout=5, **fields):
    document = {
        "id": 1,
        "name": "edge1",
        "hostname": "edge1.example.net",
        "platform": {"name": "Junos", "slug": "junos", "napalm_driver": driver,
                     "napalm_args": platform_args},
        "napalm_username": "netops",
        "napalm_password": PASSWORD,
        "napalm_timeout": timeout,
        "napalm_args": router_args,
    }
    document.update(fields)
    return document


def run(action, request, argv=None):
    """Runs the command as peeringd does; (exit status, answer or None, stderr)."""
    stdin = request if isinstance(request, str) else json.dumps(request)
    environment = {name: os.environ[name] for name in ("PATH", "HOME", "LANG", "TMPDIR")
                   if name in os.environ}
    environment["PYTHONPATH"] = str(DRIVERS)
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [command()] + ([action] if argv is None else argv),
        input=stdin, capture_output=True, text=True, env=environment, timeout=60,
    )
    answer = json.loads(done.stdout) if done.returncode == 0 else None
    if done.returncode != 0:
        assert done.stdout == "", f"output on failure: {done.stdout!r}"
    return done.returncode, answer, done.stderr


def last_line(stderr):
    lines = stderr.strip().splitlines()
    assert lines, "nothing on standard error"
    return lines[-1]


def device(tmp_path, name, drop=(), put=None):
    """A copy of tests/mocked/NAME in tmp_path, without the files `drop`, with the files
    `put` (name: JSON answer): the mock driver fails on a call that has no file, so what a
    test drops is what the command must not do."""
    path = tmp_path / name
    shutil.copytree(MOCKED / name, path)
    for file in drop:
        (path / file).unlink()
    for file, answer in (put or {}).items():
        (path / file).write_text(json.dumps(answer))
    return path


def journal(path):
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def calls(path):
    return [entry["call"] for entry in journal(path) if "call" in entry]


def recorded(tmp_path, name="junos-edge", drop=(), put=None, **extra):
    """A router on the recorder driver over a copy of tests/mocked/NAME, and its journal."""
    path = device(tmp_path, name, drop, put)
    notes = tmp_path / "journal.jsonl"
    args = {"path": str(path), "journal": str(notes)}
    args.update(extra)
    return router("recorder", router_args=args), notes


# test


def test_test_opens_the_device_and_reports_its_facts(tmp_path):
    status, answer, stderr = run("test", {"action": "test",
                                          "router": router(router_args={"path": str(MOCKED / "junos-edge")})})
    assert status == 0, stderr
    assert answer["ok"] is True
    facts = answer["facts"]
    assert facts["vendor"] == "Juniper"
    assert facts["model"] == "MX204"
    assert facts["os_version"] == "21.4R3-S5.4"
    assert facts["hostname"] == "edge1"
    assert facts["fqdn"] == "edge1.example.net"
    assert facts["serial_number"] == "JN11F3A2BAFK"
    assert "interface_list" not in facts
    assert answer["message"] == "connected to edge1 (Juniper MX204, 21.4R3-S5.4)"


def test_test_of_a_device_that_refuses_the_connection_fails(tmp_path):
    status, answer, stderr = run("test", {"router": router(
        router_args={"path": str(MOCKED / "junos-edge"), "fail_on_open": True})})
    assert status == 1
    line = last_line(stderr)
    assert line.startswith("peeringd-napalm: test edge1.example.net: cannot connect: ")
    assert "ConnectionException" in line


# poll


def sessions_by_address(answer):
    sessions = answer["sessions"]
    by_address = {s["ip_address"]: s for s in sessions}
    assert len(by_address) == len(sessions), "an address reported twice"
    return by_address


def test_poll_reports_every_vrf_with_the_states_of_the_detail(tmp_path):
    status, answer, stderr = run("poll", {"action": "poll",
                                          "router": router(router_args={"path": str(MOCKED / "junos-edge")})})
    assert status == 0, stderr
    sessions = sessions_by_address(answer)
    assert {a: s["state"] for a, s in sessions.items()} == {
        "192.0.2.10": "established",
        "2001:db8::10": "established",
        "198.51.100.20": "active",
        "198.51.100.21": "opensent",
        "198.51.100.22": "idle",
        "203.0.113.5": "openconfirm",
        "203.0.113.6": "connect",
    }
    # The detail's counts, read after get_bgp_neighbors', are the ones reported.
    transit = sessions["192.0.2.10"]
    assert (transit["received_prefix_count"], transit["accepted_prefix_count"],
            transit["advertised_prefix_count"]) == (812351, 812006, 12)
    assert transit["remote_asn"] == 64510
    assert transit["uptime"] == 3456789
    assert transit["vrf"] == "global"
    # Matched with the detail's other spelling of the address.
    v6 = sessions["2001:db8::10"]
    assert (v6["received_prefix_count"], v6["accepted_prefix_count"]) == (201234, 201200)
    # Counts NAPALM does not know (-1) are 0.
    down = sessions["198.51.100.20"]
    assert (down["received_prefix_count"], down["accepted_prefix_count"],
            down["advertised_prefix_count"]) == (0, 0, 0)
    assert sessions["203.0.113.5"]["vrf"] == "customers"
    assert sessions["203.0.113.5"]["remote_asn"] == 64530
    # The global VRF first: peeringd takes the first entry of an address.
    assert [s["vrf"] for s in answer["sessions"]][:5] == ["global"] * 5


def test_poll_without_the_detail_takes_the_state_from_is_up(tmp_path):
    status, answer, stderr = run("poll", {"router": router(
        router_args={"path": str(MOCKED / "ios-edge")})})
    assert status == 0, stderr
    sessions = sessions_by_address(answer)
    assert set(sessions) == {"192.0.2.30", "192.0.2.31", "2001:db8::31"}
    up = sessions["192.0.2.30"]
    assert up["state"] == "established"
    # Both address families, added up.
    assert (up["received_prefix_count"], up["accepted_prefix_count"],
            up["advertised_prefix_count"]) == (120, 110, 8)
    assert up["uptime"] == 86400
    assert up["remote_asn"] == 64540
    assert sessions["192.0.2.31"]["state"] == "idle"
    assert sessions["192.0.2.31"]["uptime"] is None
    assert sessions["192.0.2.31"]["received_prefix_count"] == 0
    assert sessions["2001:db8::31"]["state"] == "idle"


def test_poll_takes_an_unknown_state_from_up(tmp_path):
    # Junos leaves connection_state empty when it does not say.
    entry = {"up": True, "remote_as": 64540, "remote_address": "192.0.2.30",
             "connection_state": "", "received_prefix_count": 130,
             "accepted_prefix_count": 115, "advertised_prefix_count": 9}
    path = device(tmp_path, "ios-edge", put={"get_bgp_neighbors_detail.1": {
        "global": {"64540": [entry, dict(entry, up=False, remote_address="192.0.2.31")]}}})
    status, answer, stderr = run("poll", {"router": router(router_args={"path": str(path)})})
    assert status == 0, stderr
    sessions = sessions_by_address(answer)
    assert sessions["192.0.2.30"]["state"] == "established"
    assert sessions["192.0.2.30"]["received_prefix_count"] == 130
    assert sessions["192.0.2.31"]["state"] == "idle"


def test_poll_of_a_device_without_answers_fails(tmp_path):
    empty = tmp_path / "nothing"
    empty.mkdir()
    status, answer, stderr = run("poll", {"router": router(router_args={"path": str(empty)})})
    assert status == 1
    line = last_line(stderr)
    assert line.startswith("peeringd-napalm: poll edge1.example.net: NotImplementedError")
    assert "get_bgp_neighbors.1" in line


# configure


def configure(request_router, commit, configuration=CONFIGURATION):
    return run("configure", {"action": "configure", "router": request_router,
                             "configuration": configuration, "commit": commit})


def test_configure_without_commit_merges_compares_and_discards(tmp_path):
    request_router, notes = recorded(tmp_path, drop=["commit_config.1"])
    status, answer, stderr = configure(request_router, commit=False)
    assert status == 0, stderr
    assert answer == {"changed": True, "committed": False, "diff": JUNOS_DIFF}
    assert calls(notes) == ["open", "load_merge_candidate", "compare_config",
                            "discard_config", "close"]
    merged = [e for e in journal(notes) if e.get("call") == "load_merge_candidate"][0]
    assert merged["kwargs"]["config"] == CONFIGURATION


def test_configure_with_commit_commits_the_difference(tmp_path):
    request_router, notes = recorded(tmp_path, drop=["discard_config.1"])
    status, answer, stderr = configure(request_router, commit=True)
    assert status == 0, stderr
    assert answer == {"changed": True, "committed": True, "diff": JUNOS_DIFF}
    assert calls(notes) == ["open", "load_merge_candidate", "compare_config",
                            "commit_config", "close"]


def test_configure_with_commit_and_no_difference_commits_nothing(tmp_path):
    request_router, notes = recorded(tmp_path, drop=["commit_config.1"],
                                     put={"compare_config.1": {"diff": ""}})
    status, answer, stderr = configure(request_router, commit=True)
    assert status == 0, stderr
    assert answer == {"changed": False, "committed": False, "diff": ""}
    assert "commit_config" not in calls(notes)
    assert "discard_config" in calls(notes)


def test_configure_works_on_the_mock_driver_itself(tmp_path):
    path = device(tmp_path, "junos-edge", drop=["discard_config.1"])
    status, answer, stderr = configure(router(router_args={"path": str(path)}), commit=True)
    assert status == 0, stderr
    assert answer == {"changed": True, "committed": True, "diff": JUNOS_DIFF}


def test_a_refused_configuration_is_discarded_and_fails(tmp_path):
    refusal = {"exception": "napalm.base.exceptions.MergeConfigException",
               "args": ["error: syntax error: neighbour\n  at line 5 of the candidate"]}
    request_router, notes = recorded(tmp_path, drop=["commit_config.1"],
                                     put={"load_merge_candidate.1": refusal})
    status, answer, stderr = configure(request_router, commit=True)
    assert status == 1
    line = last_line(stderr)
    assert line == ("peeringd-napalm: configure edge1.example.net: MergeConfigException: "
                    "error: syntax error: neighbour at line 5 of the candidate")
    assert calls(notes) == ["open", "load_merge_candidate", "discard_config", "close"]


def test_a_failed_commit_is_discarded_and_fails(tmp_path):
    refusal = {"exception": "napalm.base.exceptions.CommitError",
               "args": ["commit failed: configuration database locked by netops2"]}
    request_router, notes = recorded(tmp_path, put={"commit_config.1": refusal})
    status, answer, stderr = configure(request_router, commit=True)
    assert status == 1
    assert "CommitError: commit failed: configuration database locked" in last_line(stderr)
    assert calls(notes) == ["open", "load_merge_candidate", "compare_config",
                            "commit_config", "discard_config", "close"]


def test_configure_of_an_unreachable_device_fails_before_any_change(tmp_path):
    request_router, notes = recorded(tmp_path, fail_on_open=True)
    status, answer, stderr = configure(request_router, commit=True)
    assert status == 1
    assert "cannot connect: ConnectionException" in last_line(stderr)
    assert calls(notes) == ["open"]


def test_an_empty_configuration_is_never_sent(tmp_path):
    request_router, notes = recorded(tmp_path)
    status, answer, stderr = configure(request_router, commit=True, configuration=" \n")
    assert status == 1
    assert "the configuration is empty" in last_line(stderr)
    assert journal(notes) == []


# what the driver is made with


def made(notes):
    return [e for e in journal(notes) if "made" in e][0]


def test_napalm_args_are_the_platforms_then_the_routers(tmp_path):
    path = device(tmp_path, "junos-edge")
    notes = tmp_path / "journal.jsonl"
    request_router = router(
        "recorder",
        platform_args={"path": "/nonexistent", "journal": str(notes), "port": 830,
                       "config_lock": True},
        router_args={"path": str(path), "port": 2222},
        timeout=0,
    )
    status, answer, stderr = run("test", {"router": request_router})
    assert status == 0, stderr
    entry = made(notes)["made"]
    assert entry["optional_args"] == {"path": str(path), "journal": str(notes), "port": 2222,
                                      "config_lock": True}
    assert entry["hostname"] == "edge1.example.net"
    assert entry["username"] == "netops"
    assert entry["timeout"] == 30  # 0 is NAPALM's default


def test_the_timeout_given_is_napalms(tmp_path):
    request_router, notes = recorded(tmp_path)
    request_router["napalm_timeout"] = 7
    status, answer, stderr = run("test", {"router": request_router})
    assert status == 0, stderr
    assert made(notes)["made"]["timeout"] == 7


def test_the_password_comes_from_standard_input_only(tmp_path):
    request_router, notes = recorded(tmp_path)
    status, answer, stderr = run("poll", {"router": request_router})
    assert status == 0, stderr
    entry = made(notes)
    assert entry["made"]["password"] == PASSWORD
    # Read in the driver's own process: neither its command line nor its environment.
    assert entry["password_in_argv"] is False
    assert entry["password_in_environment"] is False
    assert PASSWORD not in json.dumps(answer)


def test_the_password_is_left_out_of_messages(tmp_path):
    refusal = {"exception": "napalm.base.exceptions.ConnectionException",
               "args": [f"authentication failed for netops/{PASSWORD}"]}
    request_router, notes = recorded(tmp_path, put={"get_facts.1": refusal})
    status, answer, stderr = run("test", {"router": request_router})
    assert status == 1
    assert PASSWORD not in stderr
    assert last_line(stderr).endswith("authentication failed for netops/********")


def test_what_a_driver_prints_stays_off_the_answer(tmp_path):
    request_router, notes = recorded(tmp_path, chatty=True)
    status, answer, stderr = run("test", {"router": request_router})
    assert status == 0, stderr
    assert answer["ok"] is True
    assert "Welcome to edge1" in stderr
    assert "Last login: from 192.0.2.99" in stderr


def test_an_unknown_driver_is_a_bad_request():
    status, answer, stderr = run("test", {"router": router("nosuchos")})
    assert status == 2
    assert last_line(stderr).startswith("peeringd-napalm: no NAPALM driver 'nosuchos': ")


# bad requests


def without(document, *path):
    document = json.loads(json.dumps(document))
    holder = document
    for key in path[:-1]:
        holder = holder[key]
    del holder[path[-1]]
    return document


GOOD = {"action": "configure", "router": router(router_args={"path": "/nonexistent"}),
        "configuration": CONFIGURATION, "commit": False}


@pytest.mark.parametrize("argv, stdin, says", [
    (["configure"], "this is not json", "is not JSON"),
    (["configure"], "[1, 2]", "not a JSON object"),
    (["configure"], without(GOOD, "router"), "no router object"),
    (["configure"], without(GOOD, "router", "hostname"), "edge1 has no hostname"),
    (["configure"], without(GOOD, "router", "platform"), "no platform with a NAPALM driver"),
    (["configure"], without(GOOD, "router", "platform", "napalm_driver"),
     "no platform with a NAPALM driver"),
    (["configure"], without(GOOD, "configuration"), "needs the configuration"),
    (["configure"], dict(GOOD, commit="yes"), "commit is not true or false"),
    (["configure"], dict(GOOD, router=dict(GOOD["router"], napalm_args=[1])),
     "napalm_args is not a JSON object"),
    (["configure"], dict(GOOD, router=dict(GOOD["router"], napalm_timeout="30")),
     "napalm_timeout is not a number"),
    (["poll"], GOOD, "the request is for 'configure', the command line says 'poll'"),
    (["reboot"], GOOD, "usage: peeringd-napalm poll|configure|test"),
    ([], GOOD, "usage: peeringd-napalm poll|configure|test"),
    (["test", "--password", PASSWORD], GOOD, "usage: peeringd-napalm poll|configure|test"),
])
def test_a_bad_request_exits_2_with_a_message(argv, stdin, says):
    status, answer, stderr = run(None, stdin, argv=argv)
    assert status == 2
    line = last_line(stderr)
    assert line.startswith("peeringd-napalm: ")
    assert says in line
    assert len(stderr.strip().splitlines()) == 1
