"""A footer that rebuilds its keys only when they change.

Textual's :class:`~textual.widgets.Footer` recomposes (unmounts and mounts a
widget per key, each styled afresh) whenever the screen says its bindings may
have changed, which it says on every focus change. On the table that is every
pane opened or closed, and the rebuild cost more than the rest of the repaint.
This one compares what it would show with what it shows and keeps it when equal.

It also turns compact (one space less around each key) when the keys would not fit
roomy, so the last of them (``? Help``) is not cut at 80 columns.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual import events
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

    def _roomy_width(self) -> int:
        """Columns the keys take in the roomy style: " key description " each, one per
        action (the footer shows the first of an action's keys, as Textual's does)."""
        first: dict[str, int] = {}
        for _, b, _, _ in self.screen.active_bindings.values():
            if b.show and b.action not in first:
                first[b.action] = len(self.app.get_key_display(b)) + len(b.description) + 3
        return sum(first.values())

    def _fit(self) -> bool:
        """Choose the style for this width; True if it changed."""
        width = self.size.width or self.app.size.width
        compact = self._roomy_width() > width
        if compact == self.compact:
            return False
        self.compact = compact
        return True

    async def on_resize(self, event: events.Resize) -> None:
        # The keys already mounted do not all follow a change of style: draw them afresh.
        if self._bindings_ready and self.is_attached and self._fit():
            await self.recompose()

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = self._signature()
            self._fit()
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
