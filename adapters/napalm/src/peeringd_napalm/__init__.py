"""peeringd's router command around NAPALM: `peeringd-napalm poll|configure|test`, with the
request on standard input and the answer on standard output (docs/router-command.md)."""

__version__ = "1.0.0"
