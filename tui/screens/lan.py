"""Host and join a LAN table. The network layer is not part of this build yet."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen


class LanScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = "LAN play (hosting a table others join over the local network) arrives with the LAN layer. Esc goes back."

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode

    def compose(self) -> ComposeResult:
        title = "Host a LAN table" if self.mode == "host" else "Join a LAN table"
        with Vertical(classes="page"):
            yield Static(title, classes="page-title")
            yield Static(
                "Coming with LAN play.\n\n"
                "Tables on the local network will be found automatically, or joined by address.\n"
                "Every move is checked by every player's own copy of the rules, and hidden\n"
                "cards stay hidden from the host too.\n\n"
                "Until then: play solo against bots, or hotseat at one keyboard.\n\n"
                "Esc goes back to the menu.", classes="page-body")
        yield Footer()
