"""Every key the app answers to, in one table (actions decoupled from keys).

Screens build their ``BINDINGS`` from :func:`bindings`; each binding has an id
(``screen.action``) so a person can remap it in ``settings.json`` (``"keys":
{"table.help": "f1"}``) and Textual's keymap applies the override. The settings
screen shows this table. Choice hotkeys on the table screen (digits, then
letters) are not bindings: they follow the list of legal choices.
"""

from __future__ import annotations

import msgspec
from textual.binding import Binding, BindingType


class Key(msgspec.Struct, frozen=True):
    scope: str
    action: str
    keys: str
    description: str
    show: bool = True
    priority: bool = False
    """Checked before the focused widget's own keys (the choice list binds PgUp/PgDn)."""


DEFAULT: tuple[Key, ...] = (
    Key("app", "help", "question_mark", "Help"),
    Key("app", "quit", "ctrl+q", "Quit", show=False),
    Key("menu", "quit", "q", "Quit"),
    Key("back", "back", "escape", "Back"),
    Key("nav", "next", "down,tab", "Next field", show=False),
    Key("nav", "previous", "up,shift+tab", "Previous field", show=False),
    Key("form", "start", "ctrl+s", "Start"),
    Key("lobby", "start", "ctrl+s", "Start"),
    Key("lobby", "ready", "ctrl+r", "Ready"),
    Key("table", "pause", "escape", "Menu"),
    Key("table", "cycle", "tab", "Next panel", show=False),
    Key("table", "board_down", "pagedown", "Scroll board", show=False, priority=True),
    Key("table", "board_up", "pageup", "Scroll board up", show=False, priority=True),
    Key("table", "choose", "enter", "Choose", show=False),
    Key("table", "done", "e", "End turn"),
    Key("table", "undo", "ctrl+z", "Undo"),
    Key("table", "filter", "slash", "Filter", show=False),
    Key("table", "dont_ask", "exclamation_mark", "Always this", show=False),
    Key("table", "pane('board')", "f2,B", "Board"),
    Key("table", "pane('log')", "f3,L", "Log"),
    Key("replay", "step(1)", "right,l", "Next"),
    Key("replay", "step(-1)", "left,h", "Back one"),
    Key("replay", "jump(0)", "home", "Start"),
    Key("replay", "jump(-1)", "end", "End"),
    Key("replay", "back", "escape", "Close"),
    Key("handover", "ready", "enter,space", "I am ready"),
    Key("score", "done", "enter,escape", "Back to menu"),
)

DONE_KEY: str = "e"
"""The fixed key of "End your turn" / done / pass (``table.done``); never a choice hotkey."""

CHOICE_KEYS: str = "1234567890abcdfghijklmnopqrstuvwxyz"
"""Hotkeys for legal choices, in order: the first 35 choices get one each (no ``e``:
that is the done key on every turn)."""

PANE_SLOTS: tuple[str, ...] = ("f4", "f5", "f6")
"""Default keys of a game's own panes (``table.pane1`` ...), in the order it declares them;
a pane may add a capital letter of its own."""


def binding_id(key: Key) -> str:
    return f"{key.scope}.{key.action}"


def bindings(*scopes: str) -> list[BindingType]:
    """Textual bindings for the given scopes, with ids for remapping.

    Typed as Textual's ``BindingType`` so the list can be a screen's ``BINDINGS``
    (a ``list``, which is invariant in its item type).
    """
    out: list[BindingType] = []
    for key in DEFAULT:
        if key.scope in scopes:
            out.append(Binding(key.keys, key.action, key.description, show=key.show, id=binding_id(key),
                               priority=key.priority))
    return out


def pane_bindings(panes: list[tuple[str, str, str]]) -> list[BindingType]:
    """Bindings for a game's own panes: (pane id, title, extra key) in slot order.

    Their ids are ``table.pane1``, ``table.pane2``, ... so a person remaps them
    like any other key; the description is the pane's title for the footer.
    """
    out: list[BindingType] = []
    for n, (pane_id, title, letter) in enumerate(panes[:len(PANE_SLOTS)], start=1):
        keys = PANE_SLOTS[n - 1] + (f",{letter}" if letter else "")
        out.append(Binding(keys, f"pane('{pane_id}')", title, id=f"table.pane{n}"))
    return out


def describe_keys(keys: str) -> str:
    """Keys as a person reads them: ``question_mark`` -> ``?``."""
    names = {"question_mark": "?", "escape": "Esc", "enter": "Enter", "space": "Space", "tab": "Tab",
             "shift+tab": "Shift+Tab", "pagedown": "PgDn", "pageup": "PgUp", "right": "→", "left": "←",
             "up": "↑", "down": "↓", "home": "Home", "end": "End",
             "slash": "/", "exclamation_mark": "!", "ctrl+z": "Ctrl+Z"}
    return " / ".join(names.get(k.strip(), k.strip()) for k in keys.split(","))
