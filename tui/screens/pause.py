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
        "*Resume* on the main menu brings the game back."
    )

    def __init__(self, note: str = "") -> None:
        super().__init__()
        self.note = note
        """A line about the game in progress (which card data it uses)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="pause-box"):
            yield Static("Table menu", classes="page-title")
            if self.note:
                yield Static(self.note, id="pause-note")
            yield ChoiceList(
                [
                    Item("Back to the game", "back", key="b"),
                    Item("Rules of this game", "rules", key="r"),
                    Item("Leave to the main menu (the game is saved)", "leave", key="l"),
                    Item("Quit coldwater (the game is saved)", "quit", key="q"),
                ],
                auto_keys=False,
                id="pause-list",
            )

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.dismiss(None if event.value == "back" else event.value)
