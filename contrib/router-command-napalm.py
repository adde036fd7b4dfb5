#!/usr/bin/env python3
"""A router command for peeringd (docs/router-command.md) around NAPALM.

Set PEERING_ROUTER_COMMAND=/usr/local/bin/router-command-napalm.py and install napalm.
"""
import json
import sys

import napalm


def device(router):
    platform = router.get("platform") or {}
    driver = napalm.get_network_driver(platform.get("napalm_driver") or "junos")
    args = dict(platform.get("napalm_args") or {})
    args.update(router.get("napalm_args") or {})
    return driver(
        hostname=router["hostname"],
        username=router.get("napalm_username") or "",
        password=router.get("napalm_password") or "",
        timeout=router.get("napalm_timeout") or 30,
        optional_args=args,
    )


def poll(dev):
    sessions = []
    for vrf in dev.get_bgp_neighbors().values():
        for address, peer in vrf.get("peers", {}).items():
            received = accepted = advertised = 0
            for family in peer.get("address_family", {}).values():
                received += max(family.get("received_prefixes", 0), 0)
                accepted += max(family.get("accepted_prefixes", 0), 0)
                advertised += max(family.get("sent_prefixes", 0), 0)
            state = "established" if peer.get("is_up") else "idle"
            sessions.append({
                "ip_address": address, "state": state,
                "received_prefix_count": received, "accepted_prefix_count": accepted,
                "advertised_prefix_count": advertised,
            })
    return {"sessions": sessions}


def configure(dev, document):
    dev.load_merge_candidate(config=document["configuration"])
    diff = dev.compare_config()
    if document["commit"] and diff:
        dev.commit_config()
    else:
        dev.discard_config()
    return {"changed": bool(diff), "committed": bool(document["commit"] and diff), "diff": diff}


def main():
    action = sys.argv[1]
    document = json.load(sys.stdin)
    dev = device(document["router"])
    dev.open()
    try:
        if action == "poll":
            answer = poll(dev)
        elif action == "configure":
            answer = configure(dev, document)
        elif action == "test":
            answer = {"ok": dev.is_alive().get("is_alive", False), "message": "connected"}
        else:
            raise SystemExit(f"unknown action {action}")
    finally:
        dev.close()
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
