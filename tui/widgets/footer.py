"""A footer that rebuilds its keys only when they change.

Textual's :class:`~textual.widgets.Footer` recomposes (unmounts and mounts a
widget per key, each styled afresh) whenever the screen says its bindings may
have changed, which it says on every focus change. On the table that is every
pane opened or closed, and the rebuild cost more than the rest of the repaint.
This one compares what it would show with what it shows and keeps it when equal;
when only which keys are dimmed differs (the table's **e** with nothing to end), it
dims or lights the keys it has instead of mounting them again.

It also turns compact (one space less around each key) when the keys would not fit
roomy, so the last of them (``? Help``) is not cut at 80 columns.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # (not exported; textual is pinned to 8.2)


class SteadyFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._drawn: Hashable = None
        self._made_enabled: dict[str, bool] = {}
        """Each action's key as composed: enabled or dimmed."""

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
            self._made_enabled = {}
            for key in self._drawn[0] if isinstance(self._drawn, tuple) else ():
                self._made_enabled.setdefault(key[3], key[4])
            self._fit()
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached:
            return
        now = self._signature()
        if now == self._drawn:
            return
        if self._relight(now):
            return
        await self.recompose()

    @staticmethod
    def _unlit(signature: Hashable) -> Hashable:
        """A signature without which keys are enabled."""
        if not isinstance(signature, tuple):
            return signature
        keys, *rest = signature
        return (tuple(k[:4] + k[5:] for k in keys), *rest)

    def _relight(self, now: Hashable) -> bool:
        """Where the keys are the same and only which are dimmed differs, dim or light the keys shown
        (a class on a few keys, not a mount of them all); False when they differ more, or a key made
        dimmed must light up (a dimmed FooterKey rings the bell when clicked, whatever its class)."""
        if self._drawn is None or self._unlit(now) != self._unlit(self._drawn) or not isinstance(now, tuple):
            return False
        enabled: dict[str, bool] = {}
        for key in now[0]:
            enabled.setdefault(key[3], key[4])  # (the footer shows an action's first key)
        if any(on and not self._made_enabled.get(action, False) for action, on in enabled.items()):
            return False
        for shown in self.query(FooterKey):
            shown.set_class(not enabled.get(shown.action, True), "-disabled")
        self._drawn = now
        return True
