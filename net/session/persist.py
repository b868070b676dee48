"""What a LAN session keeps on disk, and the one way it writes it: atomically, off the event loop.

The host's record is a :class:`~coldwater.net.play.table.SaveFile` written by
:class:`HostTable`; a peer's is a :class:`PeerSave` (its public record, view,
escrow share and fair-play data), enough to resume after a restart or to take
over as host.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core.state import Game, State

from .. import messages as m
from ..play.files import write_atomic
from ..play.table import SaveFile, Table


class Saver:
    """Writes one file off the event loop: coalesced, in order, atomically (not fsynced).

    A rename costs milliseconds on some filesystems and an fsync ~8 ms; either on
    the path of every move would dominate the round trip. The snapshot is taken
    on the loop, so what is written is always a consistent state. A killed
    process loses nothing the kernel already has; against power loss every peer
    holds the public record and an escrow share (docs/lan.md).
    """

    def __init__(self, every: float = 0.0) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coldwater-save")
        self._pending: tuple[Path, Callable[[], bytes]] | None = None
        self._scheduled = False
        self.every = every
        """At most one write per this many seconds (the latest snapshot wins; 0: one per loop turn)."""
        self._last = 0.0
        self._closed = False
        self._closing = threading.Lock()

    def save(self, path: Path, make: Callable[[], bytes]) -> None:
        self._pending = (path, make)
        if self._scheduled:
            return
        self._scheduled = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (tools, tests): write now
            self.flush()
            return
        wait = self._last + self.every - time.monotonic()
        if wait > 0:
            loop.call_later(wait, self.flush)
        else:
            loop.call_soon(self.flush)

    def flush(self) -> None:
        self._scheduled = False
        self._last = time.monotonic()
        if self._pending is None or self._closed:
            return  # (closed: its last write went out with close(); a timer firing late has nothing to do)
        path, make = self._pending
        self._pending = None
        self._pool.submit(write_atomic, path, make(), durable=False)

    def save_now(self, path: Path, make: Callable[[], bytes]) -> None:
        """Write now and wait for it (after any earlier write): a secret must be on disk before it is used."""
        self._pending = None
        self._pool.submit(write_atomic, path, make(), durable=False).result()

    def close(self, *, delete: Path | None = None) -> None:
        """Write what is pending (then delete `delete`), and wait for the writes. A second close
        waits for the first's writes and does nothing more."""
        with self._closing:  # (closes may come from two threads: one at a time)
            if self._closed:
                return
            self.flush()
            self._closed = True
            if delete is not None:
                self._pool.submit(delete.unlink, missing_ok=True)
            self._pool.shutdown(wait=True)


class HostTable(Table):
    """A Table whose autosave runs off the event loop (see :class:`Saver`)."""

    saver: Saver | None = None

    def save(self) -> None:
        if self.save_path is None:
            return
        if self.saver is None:
            self.saver = Saver()
        path = Path(self.save_path)
        self.saver.save(
            path,
            lambda: msgspec.json.encode(
                SaveFile(seats=self.seats, record=self.record, created=self.created, updated=time.time())
            ),
        )

    async def close_saver(self) -> None:
        if self.saver is not None:
            await asyncio.to_thread(self.saver.close)


class SavedSeat(msgspec.Struct):
    seat: int
    kind: str
    name: str = ""
    addr: str = ""
    port: int = 0
    away: bool = False
    by_bot: bool = False


class PeerSave(msgspec.Struct, kw_only=True):
    """A peer's record of a LAN game: enough to resume after a restart or to take over as host."""

    format: int = 2
    table: m.TableInfo
    seat: int
    host_addr: str
    host_port: int
    host_seat: int
    joint: bytes
    dealer_commit: bytes
    share: bytes
    seats: list[SavedSeat]
    keys: dict[int, bytes] = {}
    commits: dict[int, bytes] = {}
    reveals: dict[int, bytes] = {}
    steps: list[m.Step] = []
    view: bytes = b""
    listen_port: int = 0
    views: dict[int, bytes] = {}
    """Ply → digest of every private view the host sent us (checked by the audit)."""
    dealt_by: list[tuple[int, int]] = []
    """(first ply, host seat) for each host that dealt part of the game, to blame the right one."""
    chain: bytes = b""
    """The end value of this seat's beacon chain (secret: its links are revealed one per public draw)."""
    banks: list[float] = []
    """Each seat's time bank left at the last save (turnclock.py): a restarted seat keeps what it spent."""
    used: list[float] = []
    """Each seat's thinking time so far at the last save (the game clock, turnclock.py)."""
    fair: bytes = b""
    """At a fair-dealer table: this seat's ``FairSave`` (msgpack): its own key, chain and pass secrets
    and the table's public transcript; no other seat's sealed value (docs/fairplay.md)."""
    fair_sum: bytes = b""
    """SHA-256 of `fair` (:func:`with_fair`): a damaged save is refused at once, not found out at the
    end (a flipped byte in a pass secret would pass every check of the replay, then fail the audit)."""
    fair_sent: list[m.Fair] = []
    """This seat's own signed messages of its latest rounds, as sent: its transcript holds only what
    it took, and a round it took (a host that froze after taking it) may never have reached the
    others. A restored seat sends them again; the table drops the ones it has."""

    def key_for(self, seat: int) -> bytes:
        return self.keys.get(seat, b"")


def with_fair(save: PeerSave, fair: bytes) -> PeerSave:
    """`save` holding the fair seat's save `fair`, with its checksum."""
    save.fair, save.fair_sum = fair, hashlib.sha256(fair).digest()
    return save


def fair_damage(save: PeerSave) -> str | None:
    """Why the fair seat's save in `save` is damaged (None: its checksum holds)."""
    if hashlib.sha256(save.fair).digest() != save.fair_sum:
        return "its fair-dealer part does not match its checksum (the file was damaged or edited)"
    return None


def load_peer_save(path: Path) -> PeerSave | None:
    try:
        return msgspec.json.decode(Path(path).read_bytes(), type=PeerSave)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def safe_name(name: str) -> str:
    """A table name made safe for a file name."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60] or "table"


def public_step(step: m.Step) -> m.Step:
    """The part of a step every peer may see (what is saved and used for failover)."""
    return m.Step(
        ply=step.ply,
        seat=step.seat,
        digest=step.digest,
        action=step.action,
        commit=step.commit,
        sig=step.sig,
        bot=step.bot,
        links=step.links,
    )


def decode_view(game: Game[Any, Any], data: bytes, ply: int) -> State[Any, Any]:
    view: State[Any, Any] = game.state_type(msgspec.msgpack.decode(data, type=game.state_type.DATA), seed=None, ply=ply)
    return view


VIEW_LIMIT = 1 << 20
"""The most bytes a view may unpack to (a compressed view is no way around the frame cap)."""


def pack_view(state: State[Any, Any]) -> bytes:
    """A view for the wire: compressed (views are most of the bytes a game sends)."""
    return zlib.compress(state.encode(), 1)


def unpack_view(game: Game[Any, Any], data: bytes, ply: int) -> State[Any, Any]:
    """The view a host sent; msgspec.DecodeError for anything that is not one (or unpacks too large)."""
    try:
        z = zlib.decompressobj()
        raw = z.decompress(data, VIEW_LIMIT)
    except zlib.error as e:
        raise msgspec.DecodeError(f"not a packed view: {e}") from None
    if z.unconsumed_tail or not z.eof:
        raise msgspec.DecodeError("a packed view that is truncated or unpacks past the limit")
    return decode_view(game, raw, ply)
