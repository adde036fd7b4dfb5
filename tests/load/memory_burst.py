#!/usr/bin/env python3
"""Memory under hostile bodies: the resident memory of a peeringd process before, during
and after bursts of large request bodies, sent from this process over loopback.

    python3 tests/load/memory_burst.py [--binary target/release/peeringd]

Bursts (each 8 concurrent requests of 10 MB):
  provision  - JSON bodies to /api/users/tokens/provision/, without a token
  bulk       - JSON lists of a million numbers to a resource, with a token
Then it samples RSS every 0.5 s for 10 s and reports whether it is back under 64 MiB.
Only 127.0.0.1 is contacted; every request has a timeout; the server is stopped at the end.
"""
import argparse, http.client, json, os, re, socket, subprocess, sys, tempfile, threading, time

def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def send(port, path, body, key=None, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
    if key:
        headers["Authorization"] = f"Token {key}"
    try:
        conn.request("POST", path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, len(data)
    except (ConnectionError, socket.timeout, http.client.HTTPException) as e:
        return type(e).__name__, 0
    finally:
        conn.close()

def burst(port, path, body, key, n=8):
    results = [None] * n
    def one(i):
        results[i] = send(port, path, body, key)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads: t.start()
    for t in threads: t.join()
    return results

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/peeringd")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="peeringd-memory-")
    port = free_port()
    env = dict(os.environ, PEERING_DATABASE_URL=f"sqlite://{tmp}/db.sqlite3",
               PEERING_LISTEN=f"127.0.0.1:{port}", RUST_LOG="warn",
               PEERING_MAX_BODY_BYTES=str(16 * 1024 * 1024))
    server = subprocess.Popen([args.binary, "serve"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    key = None
    for line in server.stdout:
        m = re.search(r"API token: ([0-9a-f]{40})", line)
        if m:
            key = m.group(1); break
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
        except OSError:
            time.sleep(0.05)
    report = {"baseline_mib": round(rss_mib(server.pid), 1)}
    ten_mb = json.dumps({"username": "admin", "password": "x" * (10 * 1024 * 1024)}).encode()
    numbers = json.dumps(list(range(1_000_000))).encode()  # about 6.9 MB
    peak = 0.0
    for name, path, body, with_key in [
        ("provision", "/api/users/tokens/provision/", ten_mb, False),
        ("bulk", "/api/peering/autonomous-systems/", numbers, True),
    ]:
        sampler_stop = threading.Event()
        samples = []
        def sample():
            while not sampler_stop.is_set():
                samples.append(rss_mib(server.pid)); time.sleep(0.05)
        t = threading.Thread(target=sample); t.start()
        results = burst(port, path, body, key if with_key else None)
        sampler_stop.set(); t.join()
        peak = max(peak, max(samples or [0]))
        report[name] = {"answers": [r[0] for r in results],
                        "largest_answer_bytes": max(r[1] for r in results),
                        "peak_rss_mib": round(max(samples or [0]), 1)}
    after = []
    for _ in range(20):
        time.sleep(0.5)
        after.append(round(rss_mib(server.pid), 1))
    report["rss_after_mib_every_0_5_s"] = after
    report["back_under_64_mib_within_10_s"] = any(v < 64 for v in after)
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    print(json.dumps(report, indent=2))
    sys.exit(0 if report["back_under_64_mib_within_10_s"] else 1)

if __name__ == "__main__":
    main()
