"""Esc on the table: back to the game, rules, or leave (the game is already saved)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseModal
from coldwater.tui.widgets.choices import ChoiceList, Item


class PauseScreen(BaseModal):
    BINDINGS = keymap.bindings("back")
    HELP = (
        "**Table menu.** Every move is saved as it is made, so leaving loses nothing: "
        "*Resume* on the main menu brings the game back. At a LAN table, a seat that leaves "
        "is kept for its player (a bot plays it after the turn timer) until they join again; "
        "the host leaving closes the table."
    )

    def __init__(self, note: str = "", *, lan: str = "") -> None:
        super().__init__()
        self.note = note
        """A line about the game in progress (which card data it uses)."""
        self.lan = lan
        """At a LAN table, whose menu this is: "host" (or "host-failover": a seat would take over),
        "seat" or "watcher" ("" at a local table)."""

    def leave_words(self) -> tuple[str, str]:
        """What Leave and Quit do here: a LAN table is not a local save to resume."""
        if self.lan in ("host", "host-failover"):
            # Without failover the game ends for everyone; with it, a seat takes over the table.
            then = "another player hosts on" if self.lan == "host-failover" else "the game ends for all"
            return f"Leave the table you host ({then})", f"Quit coldwater ({then})"
        if self.lan == "seat":
            return (
                "Leave the table (join again to sit back down)",
                "Quit coldwater (join again to sit back down)",
            )
        if self.lan == "watcher":
            return "Stop watching", "Quit coldwater"
        return "Leave to the main menu (the game is saved)", "Quit coldwater (the game is saved)"

    def compose(self) -> ComposeResult:
        leave, quit_ = self.leave_words()
        with Vertical(id="pause-box"):
            yield Static("Table menu", classes="page-title")
            if self.note:
                yield Static(self.note, id="pause-note")
            yield ChoiceList(
                [
                    Item("Back to the game", "back", key="b"),
                    Item("Rules of this game", "rules", key="r"),
                    Item(leave, "leave", key="l"),
                    Item(quit_, "quit", key="q"),
                ],
                auto_keys=False,
                id="pause-list",
            )

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.dismiss(None if event.value == "back" else event.value)
