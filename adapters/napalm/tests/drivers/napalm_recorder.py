"""A NAPALM driver for the tests, named "recorder": NAPALM's mock driver (answers from the
files of optional_args `path`) that also writes, as JSON lines in optional_args `journal`,
what it was made with and every configuration call, in order. It is found as NAPALM finds
community drivers (the module napalm_<name>), with this directory on PYTHONPATH.

With optional_args `chatty`, it writes a banner on standard output when it opens.
It also notes whether the password it was given is anywhere in its process's command line
or environment, where other processes of the machine could read it.
"""

import json
import os

from napalm.base import mock


def _holds(path, secret):
    try:
        with open(path, "rb") as f:
            return secret.encode() in f.read()
    except OSError:
        return None


class RecorderDriver(mock.MockDriver):
    def __init__(self, hostname, username, password, timeout=60, optional_args=None):
        super().__init__(hostname, username, password, timeout, optional_args)
        self.journal = (optional_args or {})["journal"]
        self.chatty = (optional_args or {}).get("chatty", False)
        self._note({
            "made": {
                "hostname": hostname,
                "username": username,
                "password": password,
                "timeout": timeout,
                "optional_args": optional_args,
            },
            "password_in_argv": _holds("/proc/self/cmdline", password),
            "password_in_environment": _holds("/proc/self/environ", password),
        })

    def _note(self, entry):
        with open(self.journal, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def _call(self, name, *args, **kwargs):
        self._note({"call": name, "kwargs": kwargs})
        return getattr(super(), name)(*args, **kwargs)

    def open(self):
        if self.chatty:
            # As a library or a program it runs may: on standard output, where the
            # command's answer goes.
            print("Welcome to edge1", flush=True)
            os.write(1, b"Last login: from 192.0.2.99\n")
        return self._call("open")

    def close(self):
        return self._call("close")

    def load_merge_candidate(self, filename=None, config=None):
        return self._call("load_merge_candidate", filename=filename, config=config)

    def load_replace_candidate(self, filename=None, config=None):
        return self._call("load_replace_candidate", filename=filename, config=config)

    def compare_config(self, filename=None, config=None):
        return self._call("compare_config")

    def commit_config(self, message="", revert_in=None):
        return self._call("commit_config")

    def discard_config(self):
        return self._call("discard_config")
