"""A footer that rebuilds its keys only when they change.

Textual's :class:`~textual.widgets.Footer` recomposes (unmounts and mounts a
widget per key, each styled afresh) whenever the screen says its bindings may
have changed, which it says on every focus change. On the table that is every
pane opened or closed, and the rebuild cost more than the rest of the repaint.
This one compares what it would show with what it shows and keeps it when equal.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class SteadyFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._drawn: Hashable = None

    def _signature(self) -> Hashable:
        """Everything of the screen's bindings that the footer draws."""
        keys = tuple(
            (b.key, self.app.get_key_display(b), b.description, b.action, enabled, tooltip, b.group)
            for (_, b, enabled, tooltip) in self.screen.active_bindings.values()
            if b.show
        )
        return (keys, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE)

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = self._signature()
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached or self._signature() == self._drawn:
            return
        await self.recompose()
