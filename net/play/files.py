"""The one atomic file writer (saves, records, settings and the identity key), the one
way a file that cannot be read is moved out of the way, and the one reader of a
person's own card data (core reads no file of the person's: it decodes what this hands it).

A reader (or a crash) sees either the old file or the whole new one, never a
part: the bytes go to a fresh temporary file beside the target, which then
replaces it. Temporary names are unique, so two writers never share one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from coldwater.core.content import ContentFiles
from coldwater.core.errors import ContentError

MAX_CONTENT_FILE = 8 << 20
"""Bytes one content file may have (the stand-ins are tens of kilobytes)."""
MAX_CONTENT_FILES = 64
"""Files read from a content folder (the games read at most six)."""


def write_atomic(path: str | Path, data: bytes, *, durable: bool = True) -> None:
    """Replace `path` with `data` atomically, creating its folder if needed.

    `durable` also flushes the bytes to the disk before the rename, so the new
    file survives a power cut; frequent writers that can afford to lose the last
    one (a LAN peer's running save) pass False. The file is readable by its owner
    only (the temporary file is created that way), which is what every file in
    the data folder wants: saves, records and keys are one person's.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def set_aside(path: str | Path, why: str) -> Path:
    """Move `path` out of the way, untouched, as ``NAME.WHY`` (then ``NAME.WHY-1``, ``-2`` ...
    so that an earlier one is never overwritten); the new path. Raises OSError if it cannot."""
    p = Path(path)
    n = 0
    while (target := p.with_name(f"{p.name}.{why}{'' if n == 0 else f'-{n}'}")).exists():
        n += 1
    os.replace(p, target)
    return target


def read_content(path: str | Path) -> ContentFiles:
    """A person's own card data as the games decode it: one file, or each ``.json`` file of a
    folder. Errors (a missing path, an unreadable or oversized file) are ContentErrors that
    name the path."""
    p = Path(path)
    try:
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.suffix == ".json" and f.is_file())
            if len(found) > MAX_CONTENT_FILES:
                raise ContentError(f"{p}: {len(found)} .json files; a content folder holds at most {MAX_CONTENT_FILES}")
            return ContentFiles(str(p), {f.name: _read_bounded(f) for f in found}, folder=True)
        if not p.exists():
            raise ContentError(f"{p}: cannot read (no such file or folder)")
        return ContentFiles(str(p), {p.name: _read_bounded(p)})
    except OSError as e:
        raise ContentError(f"{e.filename or p}: cannot read ({e.strerror or e})") from None


def _read_bounded(f: Path) -> bytes:
    with f.open("rb") as fh:
        raw = fh.read(MAX_CONTENT_FILE + 1)
    if len(raw) > MAX_CONTENT_FILE:
        raise ContentError(f"{f}: over {MAX_CONTENT_FILE >> 20} MiB, too large to be card data")
    return raw
