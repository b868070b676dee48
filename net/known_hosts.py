"""Tables this person has joined before: trust on first use for table keys.

A table proves its Ed25519 key in the handshake. The first time we sit at a table
of some name we remember that key (``known_hosts.json`` in the data folder); a
later table of the same name that proves another key is refused, naming both
fingerprints, unless the person pins the new key with ``join --fingerprint FP``
(then it is remembered too). That is what stops an impostor that advertises a
familiar table name from seating a returning player.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import msgspec

from .play import paths
from .play.files import write_atomic
from .transport import HostKeyMismatch

log = logging.getLogger("coldwater.net")

FILE = "known_hosts.json"
MAX_ENTRIES = 1000
"""Oldest-seen entries go first beyond this many (a long-lived install stays small)."""


class KnownHost(msgspec.Struct):
    table: str
    fingerprint: str
    first_seen: float
    last_seen: float


class KnownHostsFile(msgspec.Struct):
    hosts: list[KnownHost] = []


class KnownHostsError(Exception):
    """The known-hosts file is damaged; the text says which file and how to go on."""


def normalise_fingerprint(text: str) -> str:
    """``AB12CD34EF567890`` or ``ab12-cd34-ef56-7890`` → the canonical form; ValueError when it is not one."""
    digits = text.strip().lower().replace("-", "").replace(":", "").replace(" ", "")
    if len(digits) != 16 or any(c not in "0123456789abcdef" for c in digits):
        raise ValueError(f"{text!r} is not a table fingerprint (16 hex digits, e.g. ab12-cd34-ef56-7890)")
    return "-".join(digits[i : i + 4] for i in range(0, 16, 4))


class KnownHosts:
    """The remembered (table name, key) pairs in one file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else paths.data_dir() / FILE
        self._hosts: list[KnownHost] = []
        if self.path.exists():
            try:
                self._hosts = list(msgspec.json.decode(self.path.read_bytes(), type=KnownHostsFile).hosts)
            except (msgspec.DecodeError, msgspec.ValidationError, OSError) as e:
                # Never start over silently: that would make every impostor a "first use".
                raise KnownHostsError(f"{self.path} is damaged ({e}); fix it or delete it to start over") from None

    def keys_for(self, table: str) -> list[str]:
        return [h.fingerprint for h in self._hosts if h.table == table]

    def check(self, table: str, fp: str, *, pinned: str | None = None) -> None:
        """Refuse a known table name that proves a key we never accepted for it (unless `fp` is pinned)."""
        known = self.keys_for(table)
        if not known or fp in known or (pinned is not None and fp == pinned):
            return
        raise HostKeyMismatch(
            f"the table {table!r} proved key {fp}, but you joined {table!r} before with key "
            f"{', '.join(known)}. It may be an impostor. If the host really has a new key, "
            f"check it with them and join with --fingerprint {fp}"
        )

    def remember(self, table: str, fp: str) -> None:
        now = time.time()
        for h in self._hosts:
            if h.table == table and h.fingerprint == fp:
                h.last_seen = now
                break
        else:
            self._hosts.append(KnownHost(table=table, fingerprint=fp, first_seen=now, last_seen=now))
        if len(self._hosts) > MAX_ENTRIES:
            self._hosts = sorted(self._hosts, key=lambda h: h.last_seen)[-MAX_ENTRIES:]
        self._save()

    def _save(self) -> None:
        write_atomic(self.path, msgspec.json.format(msgspec.json.encode(KnownHostsFile(hosts=self._hosts))))
