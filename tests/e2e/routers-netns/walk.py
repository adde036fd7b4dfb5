"""The API walk of tests/e2e/routers-netns.sh: routers A (BIRD) and B (FRR) driven by
peeringd through their control sockets, peer C (GoBGP) on the LAN 10.99.0.0/24.

Everything goes through peeringd's API, except what an operator does on the router itself
(A's configuration by hand, read-only `birdc show protocols`) and stopping C. Standard
library only. Settings come from the environment the shell script exports.
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ["E2E_BASE"]
TOKEN = os.environ["E2E_TOKEN"]
A_SOCKET = os.environ["A_SOCKET"]
A_CONFIG = os.environ["A_CONFIG"]
TEMPLATES = os.environ["TEMPLATES"]
ROUTERS = "/api/peering/routers/"
SESSIONS = "/api/peering/internet-exchange-peering-sessions/"
A_IP, B_IP, C_IP = "10.99.0.1", "10.99.0.2", "10.99.0.3"
ANNOUNCED = 3  # the prefixes C announces
STARTED = time.monotonic()


def log(message):
    print(f"[routers-netns {time.monotonic() - STARTED:5.1f}s] {message}", file=sys.stderr, flush=True)


def fail(message):
    print(f"[routers-netns] FAILED: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def call(method, path, body=None):
    """(status, parsed JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", f"Token {TOKEN}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def expect(status, method, path, body=None):
    got, answer = call(method, path, body)
    if got != status:
        fail(f"{method} {path}: {got}, expected {status}: {answer}")
    return answer


def create(path, body):
    return expect(201, "POST", path, body)["id"]


def patch(path, body):
    return expect(200, "PATCH", path, body)


def job(method, path, body=None, seconds=60):
    """Runs a router action as a job; the finished job (the first, for a list)."""
    started = expect(202, method, path, body)
    jobs = started if isinstance(started, list) else [started]
    done = [finished(j, path, seconds) for j in jobs]
    return done if isinstance(started, list) else done[0]


def finished(started, what, seconds):
    deadline = time.monotonic() + seconds
    while True:
        current = expect(200, "GET", f"/api/core/jobs/{started['id']}/")
        status = current["status"]["value"]
        if status not in ("pending", "running"):
            return current
        if time.monotonic() > deadline:
            fail(f"{what}: job {started['id']} still {status} after {seconds} s")
        time.sleep(0.1)


def completed(done, what):
    if done["status"]["value"] != "completed":
        fail(f"{what}: job {done['status']['value']}: {done.get('output')}")
    return done.get("output") or ""


def sessions():
    """The stored exchange sessions by (connection id, address)."""
    answer = expect(200, "GET", f"{SESSIONS}?limit=1000")
    return {(s["ixp_connection"]["id"], s["ip_address"]): s for s in answer["results"]}


def poll(*routers):
    for router in routers:
        done = job("POST", f"{ROUTERS}{router}/poll-bgp-sessions/", {})
        completed(done, f"poll of router {router}")


def birdc(*command):
    run = subprocess.run(["birdc", "-s", A_SOCKET, *command], capture_output=True,
                         text=True, timeout=20)
    return run.stdout + run.stderr


def bird_state(protocol):
    """A's protocol's state column (`up`, `down`, `start`), or None when absent."""
    for line in birdc("show", "protocols").splitlines():
        words = line.split()
        if words and words[0] == protocol:
            return words[3]
    return None


def until(seconds, what, check, interval=0.5):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f"{what}: not within {seconds} s")
        time.sleep(interval)


def read(path):
    with open(path) as f:
        return f.read()


def main():
    # The network, through the API.
    log("creating ASes, policies, templates, platforms, routers, the exchange, sessions")
    us = create("/api/peering/autonomous-systems/", {"asn": 65001, "name": "Us"})
    peer_c = create("/api/peering/autonomous-systems/", {"asn": 65003, "name": "Peer C"})
    accept = create("/api/peering/routing-policies/",
                    {"name": "accept-all", "slug": "accept-all", "type": "import-policy",
                     "address_family": 4})
    bird_text = read(f"{TEMPLATES}/bird2.j2")
    # bgpd runs without zebra, so keeps `bgp no-rib`; frr-reload.py would remove it unless
    # the configuration has it (crates/peering-routers/README.md).
    frr_text = read(f"{TEMPLATES}/frr.j2").replace(
        "service integrated-vtysh-config\n", "service integrated-vtysh-config\nbgp no-rib\n", 1)
    if "bgp no-rib" not in frr_text:
        fail("templates/frr.j2 has no `service integrated-vtysh-config` line to follow")
    bird_template = create("/api/devices/configurations/",
                           {"name": "BIRD 2", "template": bird_text,
                            "jinja2_trim": True, "jinja2_lstrip": True})
    frr_template = create("/api/devices/configurations/",
                          {"name": "FRR", "template": frr_text,
                           "jinja2_trim": True, "jinja2_lstrip": True})
    bird = create("/api/devices/platforms/", {"name": "BIRD", "slug": "bird", "napalm_driver": "bird"})
    frr = create("/api/devices/platforms/", {"name": "FRR", "slug": "frr", "napalm_driver": "frr"})
    a = create(ROUTERS, {"name": "pdt-a", "hostname": "a.example.net", "platform": bird,
                         "local_autonomous_system": us, "configuration_template": bird_template,
                         "napalm_args": {"socket": A_SOCKET, "config_file": A_CONFIG},
                         "napalm_timeout": 20, "local_context_data": {"router_id": A_IP}})
    b = create(ROUTERS, {"name": "pdt-b", "hostname": "b.example.net", "platform": frr,
                         "local_autonomous_system": us, "configuration_template": frr_template,
                         "napalm_args": {"socket": os.environ["B_SOCKET"],
                                         "config_file": os.environ["B_CONFIG"]},
                         "napalm_timeout": 20, "local_context_data": {"router_id": B_IP}})
    ix = create("/api/peering/internet-exchanges/",
                {"name": "pdt LAN", "slug": "pdt-lan", "local_autonomous_system": us,
                 "import_routing_policies": [accept]})
    conn_a = create("/api/net/connections/",
                    {"internet_exchange_point": ix, "router": a, "ipv4_address": f"{A_IP}/24"})
    conn_b = create("/api/net/connections/",
                    {"internet_exchange_point": ix, "router": b, "ipv4_address": f"{B_IP}/24"})
    for connection, asn, address in [(conn_a, peer_c, C_IP), (conn_b, peer_c, C_IP),
                                     (conn_a, us, B_IP), (conn_b, us, A_IP)]:
        create(SESSIONS, {"ixp_connection": connection, "autonomous_system": asn,
                          "ip_address": address, "status": "enabled"})
    a_c, b_c, a_b, b_a = (conn_a, C_IP), (conn_b, C_IP), (conn_a, B_IP), (conn_b, A_IP)

    # Both configurations rendered from the starting templates and pushed.
    log("configuring A and B (commit)")
    for done in job("POST", f"{ROUTERS}configure/", {"routers": [a, b], "commit": True}):
        answer = json.loads(completed(done, "configure A and B"))
        if answer.get("committed") is not True:
            fail(f"configure A and B: not committed: {answer}")
    if "AS65003-10.99.0.3" not in read(A_CONFIG):
        fail(f"A's configuration file has no session with C:\n{read(A_CONFIG)}")

    # Every session established; C's three prefixes on A and B.
    log("polling until the four sessions are established with C's prefixes")
    seen = {}

    def established():
        poll(a, b)
        now = sessions()
        for key in (a_c, b_c, a_b, b_a):
            if now[key]["bgp_state"] == "established":
                seen[key] = now[key]["last_established_state"]
        ok = all(now[k]["bgp_state"] == "established" for k in (a_c, b_c, a_b, b_a)) and all(
            now[k]["received_prefix_count"] == ANNOUNCED for k in (a_c, b_c))
        if not ok:
            established.last = {f"{k}": (now[k]["bgp_state"], now[k]["received_prefix_count"])
                                for k in (a_c, b_c, a_b, b_a)}
        return ok

    established.last = None
    deadline = time.monotonic() + 90
    while not established():
        if time.monotonic() > deadline:
            fail(f"sessions not established with {ANNOUNCED} prefixes within 90 s: {established.last}")
        time.sleep(1)
    for key in (a_c, b_c):
        if not seen[key]:
            fail(f"session {key} established but no last_established_state")
    log("established: A-C, B-C (3 prefixes each), A-B, B-A")

    # C stops: its sessions go down, keeping when they were last established.
    log("stopping C's gobgpd")
    c_pid = int(os.environ["C_PID"])
    os.kill(c_pid, signal.SIGTERM)

    def c_gone():
        try:
            with open(f"/proc/{c_pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except FileNotFoundError:
            return True

    until(10, "gobgpd exiting", c_gone, 0.1)

    def c_down():
        poll(a, b)
        now = sessions()
        for key in (a_c, b_c):
            if now[key]["bgp_state"] == "established":
                seen[key] = now[key]["last_established_state"]
        return all(now[k]["bgp_state"] in ("active", "idle") for k in (a_c, b_c)) and now

    now = until(30, "A-C and B-C going down after C stopped", c_down, 1)
    for key in (a_c, b_c):
        if now[key]["bgp_state"] not in ("active", "idle"):
            fail(f"{key}: {now[key]['bgp_state']}, expected active or idle")
        if now[key]["last_established_state"] != seen[key] or not seen[key]:
            fail(f"{key}: last_established_state {now[key]['last_established_state']}, was {seen[key]}")
    log(f"A-C {now[a_c]['bgp_state']}, B-C {now[b_c]['bgp_state']}; last_established_state kept")

    # A configuration BIRD refuses changes nothing.
    log("pushing a configuration BIRD refuses to A")
    on_disk = read(A_CONFIG)
    broken = create("/api/devices/configurations/",
                    {"name": "broken", "template": "router id 10.99.0.1;\nthis is not BIRD;\n"})
    patch(f"{ROUTERS}{a}/", {"configuration_template": broken})
    refused = job("POST", f"{ROUTERS}configure/", {"routers": [a], "commit": True})[0]
    if refused["status"]["value"] != "errored" or "syntax error" not in (refused.get("output") or ""):
        fail(f"the broken configuration was not refused with BIRD's message: {refused}")
    if read(A_CONFIG) != on_disk:
        fail("the refused configuration changed A's configuration file")
    poll(a)
    if sessions()[a_b]["bgp_state"] != "established" or bird_state("AS65001-10.99.0.2") != "up":
        fail(f"A-B not established after the refused configuration: {birdc('show', 'protocols')}")
    log(f"refused: {refused['output'].strip().splitlines()[-1]}; A still runs its configuration")
    patch(f"{ROUTERS}{a}/", {"configuration_template": bird_template})

    # An unconfirmed commit is rolled back by BIRD; a confirmed one is kept.
    log("committing A without A-B (session disabled), confirm_within 3, unconfirmed")
    a_b_id = sessions()[a_b]["id"]
    patch(f"{SESSIONS}{a_b_id}/", {"status": "disabled"})
    done = job("POST", f"{ROUTERS}configure/", {"routers": [a], "commit": True, "confirm_within": 3})[0]
    answer = json.loads(completed(done, "commit with confirm_within"))
    if answer.get("committed") is not True or answer.get("confirm_within") != 3:
        fail(f"commit with confirm_within 3: {answer}")
    if bird_state("AS65001-10.99.0.2") != "down":
        fail(f"A-B not disabled right after the commit: {birdc('show', 'protocols')}")
    until(15, "BIRD rolling back the unconfirmed commit (A-B enabled again)",
          lambda: bird_state("AS65001-10.99.0.2") in ("up", "start"))
    status, late = call("POST", f"{ROUTERS}{a}/confirm-configuration/", {})
    if status != 503:
        fail(f"confirming after BIRD's roll-back: {status} {late}, expected 503")
    if read(A_CONFIG) != on_disk:
        fail("the rolled-back commit changed A's configuration file")
    log("rolled back by BIRD; a late confirmation is refused (503)")

    log("committing the same with confirm_within 30, confirmed")
    done = job("POST", f"{ROUTERS}configure/", {"routers": [a], "commit": True, "confirm_within": 30})[0]
    completed(done, "commit with confirm_within 30")
    expect(200, "POST", f"{ROUTERS}{a}/confirm-configuration/", {})
    time.sleep(1)
    if bird_state("AS65001-10.99.0.2") != "down" or "disabled;" not in read(A_CONFIG):
        fail(f"the confirmed commit was not kept: {birdc('show', 'protocols')}")
    log("confirmed and kept; enabling A-B again")
    patch(f"{SESSIONS}{a_b_id}/", {"status": "enabled"})
    completed(job("POST", f"{ROUTERS}configure/", {"routers": [a], "commit": True})[0],
              "commit enabling A-B")

    def a_b_up():
        poll(a)
        return sessions()[a_b]["bgp_state"] == "established"

    until(60, "A-B established again", a_b_up, 1)
    log("A-B established again")

    # Sessions configured on A by hand are imported.
    log("configuring two more neighbours on A by hand; import-sessions")
    extra = "".join(
        f"""
protocol bgp by_hand_{asn} {{
  local {A_IP} as 65001;
  neighbor {address} as {asn};
  ipv4 {{ import none; export none; }};
}}
""" for address, asn in [("10.99.0.7", 65007), ("10.99.0.8", 65008)])
    with open(A_CONFIG, "a") as f:
        f.write(extra)
    reply = birdc("configure")
    if "Reconfigured" not in reply:
        fail(f"birdc configure: {reply}")
    before = set(sessions())
    done = job("POST", f"/api/peering/internet-exchanges/{ix}/import-sessions/", {})
    output = completed(done, "import-sessions")
    if not output.startswith("Imported 2 sessions"):
        fail(f"import-sessions: {output}")
    added = set(sessions()) - before
    if added != {(conn_a, "10.99.0.7"), (conn_a, "10.99.0.8")}:
        fail(f"import-sessions created {sorted(added)}")
    log(f"{output.splitlines()[0]}: 10.99.0.7 and 10.99.0.8 on A's connection")

    # A reached over SSH.
    log("reaching A over SSH (sshd in pdtA at 10.99.0.1)")
    patch(f"{ROUTERS}{a}/", {"hostname": A_IP, "napalm_username": "root",
                             "napalm_args": {"port": int(os.environ["SSH_PORT"]),
                                             "ssh_key": os.environ["SSH_KEY"],
                                             "host_key": os.environ["SSH_HOST_KEY"],
                                             "remote_socket": A_SOCKET,
                                             "config_file": A_CONFIG}})
    tested = job("GET", f"{ROUTERS}{a}/test-napalm-connection/")
    if "BIRD" not in completed(tested, "test-napalm-connection over SSH"):
        fail(f"test-napalm-connection over SSH: {tested}")
    before = sessions()[a_b]["last_established_state"]
    time.sleep(1)
    poll(a)
    after = sessions()[a_b]
    if after["bgp_state"] != "established" or after["last_established_state"] == before:
        fail(f"poll over SSH did not record A-B established anew: {after}")
    if "Accepted publickey" not in read(os.environ["SSHD_LOG"]):
        fail("sshd logged no public-key login")
    log("over SSH: connection tested, A-B polled established")


if __name__ == "__main__":
    main()
