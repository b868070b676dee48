"""``?``: help for the screen underneath, with the keys it answers to."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseModal


def keys_table(screen: Screen[Any]) -> str:
    rows = []
    for binding in list(screen.BINDINGS) + list(keymap.bindings("app")):
        if isinstance(binding, tuple):
            continue
        key_text = keymap.describe_keys(binding.key)
        desc = binding.description or binding.action
        rows.append(f"| {key_text} | {desc} |")
    extra = getattr(screen, "HELP_KEYS", "")
    return "| Key | Does |\n|---|---|\n" + "\n".join(rows) + (("\n" + extra) if extra else "")


class HelpScreen(BaseModal):
    BINDINGS = keymap.bindings("back")

    def __init__(self, under: Screen[Any]) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        text = getattr(self.under, "HELP", "") or "No help for this screen."
        with VerticalScroll(id="help-box"):
            yield Static("Help", classes="page-title")
            yield Markdown(text + "\n\n### Keys\n\n" + keys_table(self.under))
        yield Footer()
