"""Shown over everything while the terminal is smaller than 80×24."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.widgets import Static

from coldwater.tui.screens.base import BaseModal


class TooSmallScreen(BaseModal):
    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(id="too-small-text")

    def on_mount(self) -> None:
        self._show()

    def on_resize(self) -> None:
        self._show()

    def _show(self) -> None:
        w, h = self.app.size
        # Short lines, and wrapped where still too wide (themes/base.tcss): a terminal half the width it
        # needs (40×10 over SSH) must read the whole notice, not "…reduce the font s".
        self.query_one("#too-small-text", Static).update(
            f"The terminal is too small: {w}×{h}.\n"
            f"coldwater needs at least 80×24.\n\nEnlarge the window\n(or reduce the font size):\n"
            f"play resumes where it was.\nCtrl+Q quits."
        )
