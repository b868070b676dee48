"""Holding a bot's search while the app handles a key.

A search bot thinks in a worker process (net/play/thinker.py), which shares no
interpreter with the app's event loop but, on a busy machine, still competes
with it for a CPU; when that process is unavailable it thinks in a thread,
where Python runs one thread at a time and a search beside the event loop would
take half of every key's time. So the app holds the gate from a key's arrival
until the screen has repainted: a thread's search waits at the gate between
playouts (``SearchBot.pause``), and the worker's is told Hold and Go through
`on_change`. The key is handled at full speed and the search loses only that
moment. The search's budget is counted in playouts, so a hold never changes
what the bot plays.

The same hook ends a search whose table has gone (left, or the app quit): it
raises :class:`ThinkingStopped` in the bot's thread, so nobody waits for a move
that would not be applied.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from coldwater.net.play.thinker import ThinkingStopped

__all__ = ["HOLD_AT_MOST", "ThinkGate", "ThinkingStopped"]

HOLD_AT_MOST = 0.25
"""Seconds after the last key that a held gate holds: a key whose repaint never
reports back (or a key held down) cannot stall a bot for longer."""


class ThinkGate:
    """Open unless a key is being handled; one per app, shared by its tables."""

    def __init__(self, hold_at_most: float = HOLD_AT_MOST, on_change: Callable[[bool], None] | None = None) -> None:
        self.hold_at_most = hold_at_most
        self.on_change = on_change
        """Told True when the gate closes and False when it opens again (event loop
        thread): the app holds its worker process's search the same way."""
        self._open = threading.Event()
        self._open.set()
        self._holds = 0
        self._lock = threading.Lock()
        self._since = 0.0
        self._stopped: set[int] = set()
        """id() of the owners (table screens) that are gone."""

    def hold(self) -> None:
        """A key arrived (event loop thread)."""
        with self._lock:
            first = not self._holds
            self._holds += 1
            self._since = time.monotonic()
            self._open.clear()
        if first and self.on_change is not None:
            self.on_change(True)

    def release(self) -> None:
        """Its repaint is done (event loop thread); the gate opens when no key is left."""
        with self._lock:
            was = self._holds
            self._holds = max(0, self._holds - 1)
            if not self._holds:
                self._open.set()
        if was == 1 and self.on_change is not None:
            self.on_change(False)

    @property
    def held(self) -> bool:
        return not self._open.is_set()

    def wait(self) -> None:
        """Called by a searching bot between playouts (worker thread)."""
        if self._open.is_set():
            return
        left = self._since + self.hold_at_most - time.monotonic()
        if left > 0:
            self._open.wait(left)

    def pause_for(self, owner: object) -> Callable[[], None]:
        """The pause hook for a search run on behalf of `owner` (a table screen)."""
        key = id(owner)
        with self._lock:
            self._stopped.discard(key)

        def pause() -> None:
            if key in self._stopped:
                raise ThinkingStopped("the table was closed")
            self.wait()

        return pause

    def stop(self, owner: object) -> None:
        """`owner` is gone: its searches stop at their next pause."""
        with self._lock:
            self._stopped.add(id(owner))
