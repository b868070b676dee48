"""The one event fan-out in coldwater: listeners subscribe, the owner emits.

A local :class:`~coldwater.net.play.table.Table`, the LAN session's host and peer, and
the TUI's LAN table view all publish their events through an :class:`Emitter`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger("coldwater.net")

E = TypeVar("E")


class Emitter(Generic[E]):
    """Calls every subscribed listener with each emitted event, in subscription order.

    With ``contain=True`` (a LAN session) a listener that raises is logged and the
    others still run: a broken lobby screen must not stop the table for everyone.
    With ``contain=False`` (a local table) the exception reaches whoever made the
    move, so a broken screen fails loudly where it broke, in tests above all.
    """

    def __init__(self, *, contain: bool = True) -> None:
        self._listeners: list[Callable[[E], None]] = []
        self._contain = contain

    def subscribe(self, listener: Callable[[E], None]) -> Callable[[], None]:
        """Call `listener` on every event; returns a function that unsubscribes (twice is harmless)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def emit(self, event: E) -> None:
        # A copy: a listener may unsubscribe itself (or another) while being called.
        for listener in list(self._listeners):
            if not self._contain:
                listener(event)
                continue
            try:
                listener(event)
            except Exception:
                log.exception("listener failed on %r", event)
