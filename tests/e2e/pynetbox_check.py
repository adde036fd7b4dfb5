"""pynetbox, the NetBox client that Peering Manager users script with, through the
reference's 1.10 layout: create, filter, update and delete at the paths that moved
(`/api/bgp/communities/`, `/api/devices/routers/`, `/api/core/object-changes/`) and at the
ones that did not. Usage: pynetbox_check.py BASE_URL TOKEN (127.0.0.1 only)."""

import sys


def fail(message):
    print(f"[pynetbox] FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    base, token = sys.argv[1:]
    import pynetbox
    from pynetbox.core.app import App

    nb = pynetbox.api(base, token=token)
    # pynetbox names NetBox's applications; Peering Manager's are added as its users do.
    for name in ("bgp", "core", "devices", "peering"):
        setattr(nb, name, App(nb, name))
    peer = nb.peering.autonomous_systems.create(asn=64610, name="Via pynetbox")
    community = nb.bgp.communities.create(
        name="Via pynetbox", slug="via-pynetbox", value="64610:1", type="ingress"
    )
    if community.value != "64610:1":
        fail(f"community created: {dict(community)!r}")
    found = list(nb.bgp.communities.filter(slug="via-pynetbox"))
    if [c.id for c in found] != [community.id]:
        fail(f"communities filtered at the 1.10 path: {found!r}")
    # The same object at its 1.8 path.
    old = nb.peering.communities.get(community.id)
    if old is None or old.slug != "via-pynetbox":
        fail(f"the community at its 1.8 path: {old!r}")
    peer.name = "Renamed via pynetbox"
    if not peer.save():
        fail("saving the autonomous system changed nothing")
    again = nb.peering.autonomous_systems.get(asn=64610)
    if again.name != "Renamed via pynetbox":
        fail(f"the rename did not land: {again.name!r}")
    changes = list(nb.core.object_changes.filter(changed_object_id=peer.id))
    if len(changes) < 2:
        fail(f"change records at /api/core/object-changes/: {changes!r}")
    routers = list(nb.devices.routers.all())
    if community.delete() is not True:
        fail("deleting the community")
    print(
        f"[pynetbox] pynetbox {pynetbox.__version__}: AS {again.asn} renamed, community "
        f"{community.id} created and deleted at /api/bgp/, {len(changes)} change records, "
        f"{len(routers)} routers"
    )


if __name__ == "__main__":
    main()
