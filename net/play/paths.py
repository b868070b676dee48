"""Where coldwater keeps a person's files: saves, records, identity, settings.

The per-user data directory from platformdirs, unless ``COLDWATER_HOME`` names
another folder (tests, several profiles on one machine).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """The root folder for everything coldwater writes (created on demand)."""
    override = os.environ.get("COLDWATER_HOME")
    root = Path(override) if override else platformdirs.user_data_path("coldwater", appauthor=False)
    # 0700: saves, records and LAN files hold secrets (hidden cards, key shares).
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not override:
        try:
            root.chmod(0o700)  # made by an older version with the default mode
        except OSError:
            pass
    return root


def saves_dir() -> Path:
    p = data_dir() / "saves"
    p.mkdir(parents=True, exist_ok=True)
    return p


class DataFolderBusy(Exception):
    """Another coldwater process holds the data folder (and with it this identity)."""


class DataLock:
    """An exclusive lock on a data folder, held while this object lives (or until :meth:`release`).

    One folder is one identity: two processes with it would take each other's seats
    and fight over reconnects. The lock is an OS file lock, so it goes away with
    the process, even after kill -9; the file names the holder's pid for the message.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else data_dir()
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / LOCK_FILE
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            _lock(self._fd)
        except OSError:
            try:
                holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip() or "?"
            finally:
                os.close(self._fd)
                self._fd = None
            raise DataFolderBusy(
                f"another coldwater process (pid {holder}) is using {self.root}; close it first, or give "
                "this one its own folder with COLDWATER_HOME=PATH (a separate identity)"
            ) from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> DataLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


LOCK_FILE = "coldwater.lock"


if sys.platform == "win32":  # pragma: no cover - the project is tested on Linux
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
