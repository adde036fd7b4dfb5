"""`python -m peeringd_napalm ACTION`, the same as `peeringd-napalm ACTION`."""
from peeringd_napalm.cli import main

raise SystemExit(main())
