"""Game record files: core builds and verifies records, this module reads and writes them.

`core` does no I/O; everything that touches a record on disk goes through here.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from coldwater.core.errors import RecordError
from coldwater.core.record import GameRecord, dumps, loads

from .files import write_atomic


def save(record: GameRecord, path: str | Path) -> None:
    """Write atomically: the old file stays intact until the new one is complete."""
    write_atomic(path, dumps(record))


def load(path: str | Path) -> GameRecord:
    """Read and validate a record file; RecordError names the file when it cannot be read."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise RecordError(f"{p}: cannot read ({e.strerror or e})") from None
    try:
        return loads(raw)
    except RecordError as e:
        # A save (solo, hotseat or LAN) holds its game's record under "record": read that one,
        # so `coldwater replay` takes any file the app keeps a game in.
        try:
            inner = msgspec.json.decode(raw, type=_Saved).record
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise e from None
        return loads(inner)


class _Saved(msgspec.Struct):
    """The one field of a save file this module reads: the record inside it."""

    record: msgspec.Raw
