"""Game content (cards, boards, tiles) as validated data with a content hash.

Each game ships its content as JSON inside the package, described by a msgspec
schema. Where the printed values are unknown the file says ``"stand_in": true``
and why; a person who owns the game can load their own file with the same
schema (``coldwater simulate|replay --content FILE``, or ``GAME.with_content``)
and no code changes. Peers compare the
content hash before they sit down together.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar

import msgspec

from .errors import ContentError

T = TypeVar("T")


def content_hash(obj: object) -> str:
    """SHA-256 of the canonical MessagePack encoding of validated content."""
    return hashlib.sha256(msgspec.msgpack.encode(obj)).hexdigest()


def decode(raw: bytes | str, schema: type[T], *, source: str, check: Callable[[T], None] | None = None) -> T:
    """Validate `raw` JSON against `schema`, then run `check` for cross-field rules.

    Errors name the source, and msgspec's path names the card and field
    (``$.fish[12].weight``).
    """
    try:
        data = msgspec.json.decode(raw, type=schema)
    except msgspec.ValidationError as e:
        raise ContentError(f"{source}: {e}") from None
    except msgspec.DecodeError as e:
        raise ContentError(f"{source}: not valid JSON ({e})") from None
    if check is not None:
        try:
            check(data)
        except ContentError as e:
            raise ContentError(f"{source}: {e}") from None
    return data


def load_packaged(package: str, filename: str, schema: type[T], check: Callable[[T], None] | None = None) -> T:
    """Load content shipped inside `package` (its ``data/`` folder)."""
    raw = resources.files(package).joinpath("data", filename).read_bytes()
    return decode(raw, schema, source=f"{package}/data/{filename}", check=check)


def load_file(path: str | Path, schema: type[T], check: Callable[[T], None] | None = None) -> T:
    """Load a person's own content file; a missing or unreadable file is a ContentError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise ContentError(f"{p}: cannot read ({e.strerror or e})") from None
    return decode(raw, schema, source=str(p), check=check)
