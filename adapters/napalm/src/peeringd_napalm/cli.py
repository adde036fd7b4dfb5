"""The router command: `peeringd-napalm ACTION` with peeringd's request on standard input.

The contract is docs/router-command.md. Actions:

- `test`: opens the device, reads its facts, checks it is alive, closes it;
- `poll`: the BGP neighbours of every VRF, their state and prefix counts;
- `configure`: merges the rendered configuration into a candidate, compares it with the
  running configuration, commits only when asked and something differs, else discards.

Exit status: 0 with one JSON document on standard output; 1 when the router or NAPALM
failed (nothing committed); 2 when the request is unusable (not JSON, fields missing or of
the wrong type, no NAPALM driver of that name). Failures are one line on standard error.

The password comes in the request only, never from the command line or the environment,
and is left out of every message.
"""

import ipaddress
import json
import os
import sys

ACTIONS = ("poll", "configure", "test")
USAGE = "usage: peeringd-napalm poll|configure|test < request.json (docs/router-command.md)"

# NAPALM's timeout when the router's `napalm_timeout` is 0 (Peering Manager's NAPALM_TIMEOUT).
DEFAULT_TIMEOUT = 30

# Facts `test` reports, from NAPALM's get_facts.
FACTS = ("vendor", "model", "os_version", "serial_number", "hostname", "fqdn", "uptime")

# NAPALM drivers name BGP states as the RFC does, in their own spelling ("Established",
# "Estab", "OpenSent", "Idle (Admin)"); what each begins with, letters only, lower case.
STATE_PREFIXES = (
    ("estab", "established"),
    ("idle", "idle"),
    ("connect", "connect"),
    ("active", "active"),
    ("opensent", "opensent"),
    ("openconfirm", "openconfirm"),
)


class BadRequest(Exception):
    """The request cannot be used: exit status 2."""


class Failed(Exception):
    """The router or NAPALM failed: exit status 1."""


def main(argv=None):
    """Runs the action named on the command line; the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    # Whatever a driver or library prints goes to standard error: standard output carries
    # the answer alone.
    answer_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    password = ""
    try:
        if len(argv) != 1 or argv[0] not in ACTIONS:
            raise BadRequest(USAGE)
        action = argv[0]
        request = read_request(action, sys.stdin.read())
        password = request["router"].get("napalm_password") or ""
        answer = run(action, request)
    except BadRequest as e:
        return fail(2, str(e), password)
    except Failed as e:
        return fail(1, str(e), password)
    json.dump(answer, answer_out)
    answer_out.write("\n")
    answer_out.close()
    return 0


def fail(status, message, password):
    """Writes one line on standard error, without the password; the exit status."""
    line = " ".join(message.split())
    if len(password) >= 4:
        line = line.replace(password, "********")
    print(f"peeringd-napalm: {line}", file=sys.stderr)
    return status


def read_request(action, text):
    """The request, checked: what the actions read is there, of the right type."""
    try:
        request = json.loads(text)
    except ValueError as e:
        raise BadRequest(f"the request on standard input is not JSON: {e}") from None
    if not isinstance(request, dict):
        raise BadRequest("the request on standard input is not a JSON object")
    if request.get("action", action) != action:
        raise BadRequest(f"the request is for {request['action']!r}, the command line says {action!r}")
    router = request.get("router")
    if not isinstance(router, dict):
        raise BadRequest("the request has no router object")
    name = router.get("name") or router.get("hostname") or "the router"
    if not isinstance(router.get("hostname"), str) or not router["hostname"].strip():
        raise BadRequest(f"{name} has no hostname")
    platform = router.get("platform")
    if not isinstance(platform, dict) or not isinstance(platform.get("napalm_driver"), str) \
            or not platform["napalm_driver"].strip():
        raise BadRequest(f"{name} has no platform with a NAPALM driver")
    for field in ("napalm_username", "napalm_password"):
        if router.get(field) is not None and not isinstance(router[field], str):
            raise BadRequest(f"{name}: {field} is not a string")
    timeout = router.get("napalm_timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int) or timeout < 0):
        raise BadRequest(f"{name}: napalm_timeout is not a number of seconds")
    for owner, holder in (("the platform's", platform), ("the router's", router)):
        if holder.get("napalm_args") is not None and not isinstance(holder["napalm_args"], dict):
            raise BadRequest(f"{name}: {owner} napalm_args is not a JSON object")
    if action == "configure":
        if not isinstance(request.get("configuration"), str):
            raise BadRequest("a configure request needs the configuration, a string")
        if not isinstance(request.get("commit", False), bool):
            raise BadRequest("commit is not true or false")
    return request


def driver_arguments(router):
    """The driver's name and what it is made with: the platform's napalm_args, then the
    router's over them; a timeout of 0 is NAPALM's default of 30 seconds."""
    platform = router["platform"]
    optional_args = dict(platform.get("napalm_args") or {})
    optional_args.update(router.get("napalm_args") or {})
    return platform["napalm_driver"].strip(), {
        "hostname": router["hostname"].strip(),
        "username": router.get("napalm_username") or "",
        "password": router.get("napalm_password") or "",
        "timeout": router.get("napalm_timeout") or DEFAULT_TIMEOUT,
        "optional_args": optional_args,
    }


def run(action, request):
    """Opens the device, does the action, closes the device; the answer."""
    router = request["router"]
    configuration = request.get("configuration", "")
    if action == "configure" and not configuration.strip():
        # As the reference: an empty configuration is never merged, nor compared.
        raise Failed(f"configure {router['hostname']}: the configuration is empty "
                     "(no template, or it rendered nothing); nothing was sent")
    device = make_device(router)
    where = f"{action} {router['hostname']}"
    try:
        device.open()
    except Exception as e:
        raise Failed(f"{where}: cannot connect: {describe(e)}") from None
    try:
        if action == "test":
            return test(device, where, router["hostname"])
        if action == "poll":
            return poll(device)
        return configure(device, configuration, request.get("commit", False))
    except Failed:
        raise
    except Exception as e:
        raise Failed(f"{where}: {describe(e)}") from None
    finally:
        try:
            device.close()
        except Exception:
            pass


def make_device(router):
    """The NAPALM driver's device for the router, not yet opened."""
    import napalm
    from napalm.base.exceptions import ModuleImportError

    driver_name, arguments = driver_arguments(router)
    try:
        driver = napalm.get_network_driver(driver_name)
    except (ModuleImportError, ImportError) as e:
        raise BadRequest(f"no NAPALM driver {driver_name!r}: {describe(e)}") from None
    try:
        return driver(**arguments)
    except Exception as e:
        raise Failed(f"{router['hostname']}: the {driver_name} driver refused its arguments: "
                     f"{describe(e)}") from None


def describe(error):
    """An exception as its class and message."""
    message = str(error).strip()
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def test(device, where, hostname):
    """The device's facts, once it answered them and says it is alive."""
    facts = device.get_facts()
    if not (device.is_alive() or {}).get("is_alive"):
        raise Failed(f"{where}: connected, but the device says the connection is not alive")
    facts = {name: facts.get(name) for name in FACTS}
    described = " ".join(str(facts[n]) for n in ("vendor", "model") if facts.get(n))
    if facts.get("os_version"):
        described += f", {facts['os_version']}"
    return {
        "ok": True,
        "message": f"connected to {facts.get('hostname') or hostname}"
                   + (f" ({described})" if described else ""),
        "facts": facts,
    }


def poll(device):
    """Every BGP neighbour of every VRF: state, remote AS, uptime and prefix counts.

    get_bgp_neighbors gives the neighbours, whether they are up and their prefixes per
    address family; get_bgp_neighbors_detail, where the driver has it, gives the BGP state
    itself (Idle, Active, ...) and the prefix counts, which are preferred. Without it a
    neighbour up is established and one down idle. Counts NAPALM does not know (-1) are 0.
    """
    neighbors = device.get_bgp_neighbors() or {}
    try:
        details = device.get_bgp_neighbors_detail() or {}
    except NotImplementedError:
        details = {}
    detail_of = {}
    for vrf, by_asn in details.items():
        for entries in (by_asn or {}).values():
            for entry in entries or []:
                key = (vrf, address_key(entry.get("remote_address", "")))
                detail_of.setdefault(key, []).append(entry)

    sessions = []
    seen = set()
    for vrf in vrf_order(neighbors):
        for address, peer in ((neighbors[vrf] or {}).get("peers") or {}).items():
            key = (vrf, address_key(address))
            seen.add(key)
            sessions.append(session(vrf, address, peer, detail_of.get(key, [])))
    for (vrf, _), entries in detail_of.items():
        # A neighbour the detail alone knows.
        key = (vrf, address_key(entries[0].get("remote_address", "")))
        if key not in seen:
            seen.add(key)
            sessions.append(session(vrf, entries[0].get("remote_address", ""), None, entries))
    return {"sessions": sessions}


def vrf_order(neighbors):
    """The VRFs, the global one first: peeringd takes the first entry of an address."""
    return sorted(neighbors, key=lambda vrf: vrf != "global")


def address_key(address):
    """An address as one spelling (IPv6 in several), for matching the two getters."""
    text = str(address).split("/")[0].strip()
    try:
        return ipaddress.ip_address(text).compressed
    except ValueError:
        return text


def session(vrf, address, peer, details):
    """One neighbour as peeringd reads it."""
    peer = peer or {}
    families = (peer.get("address_family") or {}).values()

    def count(detail_field, family_field):
        known = [e.get(detail_field) for e in details]
        known = [n for n in known if isinstance(n, int) and n >= 0]
        if not known:
            known = [f.get(family_field) for f in families]
            known = [n for n in known if isinstance(n, int) and n >= 0]
        return sum(known)

    state = None
    for entry in details:
        state = bgp_state(entry.get("connection_state"))
        if state:
            break
    if state is None:
        if peer:
            up = peer.get("is_up") and peer.get("is_enabled", True)
        else:
            up = any(e.get("up") for e in details)
        state = "established" if up else "idle"
    remote_asn = peer.get("remote_as")
    if remote_asn is None and details:
        remote_asn = details[0].get("remote_as")
    uptime = peer.get("uptime")
    return {
        "ip_address": str(address),
        "vrf": vrf,
        "state": state,
        "remote_asn": remote_asn,
        "received_prefix_count": count("received_prefix_count", "received_prefixes"),
        "accepted_prefix_count": count("accepted_prefix_count", "accepted_prefixes"),
        "advertised_prefix_count": count("advertised_prefix_count", "sent_prefixes"),
        "uptime": int(uptime) if isinstance(uptime, (int, float)) and uptime >= 0 else None,
    }


def bgp_state(connection_state):
    """peeringd's state for a driver's name of it, None for a name it does not know."""
    letters = "".join(c for c in str(connection_state or "").lower() if c.isalpha())
    for prefix, state in STATE_PREFIXES:
        if letters.startswith(prefix):
            return state
    return None


def configure(device, configuration, commit):
    """Merges the configuration into a candidate and compares; commits when asked and
    something differs, else discards. On any failure the candidate is discarded."""
    committed = False
    try:
        device.load_merge_candidate(config=configuration)
        diff = device.compare_config() or ""
        if commit and diff.strip():
            device.commit_config()
            committed = True
        else:
            device.discard_config()
    except Exception:
        try:
            device.discard_config()
        except Exception:
            pass
        raise
    return {"changed": bool(diff.strip()), "committed": committed, "diff": diff}
