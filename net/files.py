"""The one atomic file writer (saves, records, settings and the identity key), and the one
way a file that cannot be read is moved out of the way.

A reader (or a crash) sees either the old file or the whole new one, never a
part: the bytes go to a fresh temporary file beside the target, which then
replaces it. Temporary names are unique, so two writers never share one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
