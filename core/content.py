"""Game content (cards, boards, tiles) as validated data with a content hash.

Each game ships its content as JSON inside the package, described by a msgspec
schema. Where the printed values are unknown the file says ``"stand_in": true``
and why; a person who owns the game can load their own file with the same
schema (``coldwater simulate|replay --content FILE``, or ``GAME.with_content``)
and no code changes. Peers compare the
content hash before they sit down together.

Core reads no file of the person's: the caller reads their file or folder into a
:class:`ContentFiles` (``coldwater.net.play.files.read_content``) and the game decodes it.
The packaged stand-ins are the package's own data, read through ``importlib.resources``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib import resources
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


class ContentFiles(msgspec.Struct, frozen=True):
    """A person's own card data as the caller read it: file name → bytes.

    `source` is what the person named (a file or a folder), for errors; `folder` says
    which, since a game that takes a folder of parts (Aquatica) reads each name as a part.
    """

    source: str
    files: dict[str, bytes]
    folder: bool = False


def pick(given: ContentFiles, name: str) -> bytes:
    """The one file a single-file game (Crown, Fisheries) reads: the file given, or `name`
    inside the folder given."""
    if not given.folder and len(given.files) == 1:
        return next(iter(given.files.values()))
    if name in given.files:
        return given.files[name]
    raise ContentError(f"{given.source}: no {name} in this folder")


def load_given(given: ContentFiles, name: str, schema: type[T], check: Callable[[T], None] | None = None) -> T:
    """Load a person's own content file (see :func:`pick`); errors name where it came from."""
    source = given.source if not given.folder else f"{given.source}/{name}"
    return decode(pick(given, name), schema, source=source, check=check)
