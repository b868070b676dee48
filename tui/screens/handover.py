"""Hotseat: an opaque screen between two people, so neither sees the other's secrets."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.widgets import Footer, Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen


class HandOverScreen(BaseScreen):
    BINDINGS = keymap.bindings("handover")
    HELP = (
        "**Hand-over.** The board is hidden so the next player does not see the last one's "
        "fish weights, tags and tackle. Pass the keyboard, then the next player presses Enter."
    )

    def __init__(self, name: str, title: str) -> None:
        super().__init__()
        self.player = name
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(
                f"{self.title_text}\n\nPass the keyboard to\n\n{self.player}\n\n"
                f"{self.player}: press Enter when the others are not looking.",
                id="handover-text",
            )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(True)
