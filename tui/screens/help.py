"""``?``: help for the screen underneath, with the keys it answers to."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from coldwater import __version__
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseModal


def keys_table(screen: Screen[Any], overrides: dict[str, str] | None = None) -> str:
    """The screen's keys as a Markdown table, with the person's remaps (binding id -> keys)."""
    rows = []
    overrides = overrides or {}
    for binding in list(screen.BINDINGS) + list(keymap.bindings("app")):
        if isinstance(binding, tuple):
            continue
        key_text = keymap.describe_keys(overrides.get(binding.id or "", binding.key))
        desc = binding.description or binding.action
        rows.append(f"| {key_text} | {desc} |")
    extra = getattr(screen, "HELP_KEYS", "")
    return "| Key | Does |\n|---|---|\n" + "\n".join(rows) + (("\n" + extra) if extra else "")


class HelpScreen(BaseModal):
    """Scrolls both ways: ↑ ↓ a line, PgUp PgDn (or b, Space) a page, Home End."""

    BINDINGS = keymap.bindings("back") + [
        Binding("pagedown,space", "page(1)", "Scroll down", show=False),
        Binding("pageup,b", "page(-1)", "Scroll up", show=False),
    ]

    def __init__(self, under: Screen[Any]) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        text = getattr(self.under, "HELP", "") or "No help for this screen."
        with VerticalScroll(id="help-box"):
            # The version, so a bug report can say which build it came from.
            yield Static(f"Help · coldwater {__version__}", classes="page-title")
            yield Markdown(text + "\n\n### Keys\n\n" + keys_table(self.under, self.cw.settings.keys))
        yield Footer()

    def on_mount(self) -> None:
        # Focused, so ↑ ↓ Home End scroll it as they do any scrolling view.
        self.query_one("#help-box", VerticalScroll).focus()

    def action_page(self, pages: int) -> None:
        box = self.query_one("#help-box", VerticalScroll)
        if pages > 0:
            box.scroll_page_down(animate=False)
        else:
            box.scroll_page_up(animate=False)
