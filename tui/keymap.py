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
    """Checked before the focused widget's own keys (Ctrl+Q quits from anywhere; the
    choice list binds PgUp/PgDn)."""


DEFAULT: tuple[Key, ...] = (
    Key("app", "help", "question_mark", "Help"),
    Key("app", "quit", "ctrl+q", "Quit", show=False, priority=True),
    Key("menu", "quit", "q", "Quit"),
    Key("back", "back", "escape", "Back"),
    Key("nav", "next", "down,tab", "Next field", show=False),
    Key("nav", "previous", "up,shift+tab", "Previous field", show=False),
    Key("form", "start", "ctrl+s", "Start"),
    Key("hostform", "start", "ctrl+s", "Open table"),  # the host form's button says the same
    Key("hostform", "passphrase", "ctrl+g", "Make a passphrase"),
    Key("lobby", "start", "ctrl+s", "Start"),
    Key("lobby", "ready", "ctrl+r", "Ready"),
    Key("table", "pause", "escape", "Menu"),
    Key("table", "cycle", "tab", "Next panel", show=False),
    Key("table", "board_down", "pagedown", "Scroll board", show=False, priority=True),
    Key("table", "board_up", "pageup", "Scroll board up", show=False, priority=True),
    Key("table", "choose", "enter", "Choose", show=False),
    Key("table", "done", "e", "End turn"),
    Key("table", "hint", "h", "Hint", show=False),  # in ? Help: the fullest game footer at 80 columns has no room
    # Look up anything on the board (screens/table/look.py); the arrows move its cursor while it
    # is out (priority, so the choice list does not take them; the screen allows them only then).
    Key("table", "look", "f7,I", "Look", show=False),
    Key("table", "look_move(-1)", "up", "Look: row above", show=False, priority=True),
    Key("table", "look_move(1)", "down", "Look: row below", show=False, priority=True),
    Key("table", "look_thing(-1)", "left", "Look: thing before", show=False, priority=True),
    Key("table", "look_thing(1)", "right", "Look: thing after", show=False, priority=True),
    Key("table", "undo", "ctrl+z", "Undo"),
    Key("table", "filter", "slash", "Filter", show=False),
    Key("table", "dont_ask", "exclamation_mark", "Always this", show=False),
    # Only while this process's bot plays the seat (a LAN fair table's turn timer ran out): the status says so.
    Key("table", "take_back", "ctrl+t", "Take my seat back", show=False),
    # Only while another seat is out of time at a LAN table with a normal clock (the title says so).
    Key("table", "hand_over", "ctrl+o", "Hand to a bot"),
    Key("table", "pane('board')", "f2,B", "Board"),
    # Learn to play: the lesson panel beside the table (tui/widgets/coach.py). The lowercase
    # letter, as the panel says, and the capital too; a Learn table's choices never take g, t
    # or x as hotkeys (LESSON_KEYS; issue 45: a newcomer types lowercase). None in the footer:
    # the panel's border says what each does now (g is "more" while the lesson goes on), and
    # at 80 columns the fullest game footer would lose "? Help" to it.
    Key("coach", "coach('next')", "g,G", "Got it", show=False),
    Key("coach", "coach('again')", "t,T", "Lesson again", show=False),
    Key("coach", "coach('skip')", "x,X", "No more lessons", show=False),
    Key("table", "pane('log')", "f3,L", "Log"),
    # A board's grid cursor (bound on a game's board while a piece is being placed on its grid).
    Key("grid", "up", "up", "Move", show=False),
    Key("grid", "down", "down", "Move", show=False),
    Key("grid", "left", "left", "Move", show=False),
    Key("grid", "right", "right", "Move", show=False),
    Key("grid", "turn", "r", "Turn"),
    Key("grid", "flip", "f", "Flip"),
    Key("grid", "next", "n,tab", "Next spot"),
    Key("grid", "previous", "p,shift+tab", "Previous spot", show=False),
    Key("grid", "place", "enter,space", "Confirm"),
    Key("grid", "back", "escape,backspace", "Back"),
    # The replay's footer fits 80 columns: the forward keys in short words; the back
    # keys, Home and End are in its Help (? ) and in Settings.
    Key("replay", "step(1)", "right,l", "Next move"),
    Key("replay", "step(-1)", "left,h", "Back one move", show=False),
    Key("replay", "jump(0)", "home", "Start", show=False),
    Key("replay", "jump(-1)", "end", "End", show=False),
    Key("replay", "back", "escape", "Close"),
    Key("handover", "ready", "enter,space", "I am ready"),
    Key("score", "done", "enter,escape", "Back to menu"),
    # Screens around the table (menus, replays, the end of a game).
    Key("replay", "turn(1)", "down,j", "Next turn"),
    Key("replay", "turn(-1)", "up,k", "Back one turn", show=False),
    Key("replay", "round(1)", "pagedown,n", "Next round"),
    Key("replay", "round(-1)", "pageup,b", "Back one round", show=False),
    Key("replay", "goto", "g", "Go to"),
    # One letter, one meaning on every screen around the table (issue 45: r was Resume on the
    # menu, Rematch at the end and Review in a replay): v reviews (here and at the end of a
    # game), p opens replays (the menu's Replays, the end screen's replay), r resumes a save
    # (the menu), m is the rematch; the replay's whose-view key is w.
    Key("replay", "seat", "w", "View"),
    Key("replay", "review", "v", "Review", show=False),  # in ? Help: the footer has no room at 80 columns
    Key("score", "rematch", "m", "Rematch"),
    Key("score", "decline", "d", "Decline the rematch"),
    Key("score", "replay", "p", "Open the replay"),
    Key("score", "review", "v", "Review my game"),
    Key("score", "drill", "x", "Drill my mistakes", show=False),  # said on the page, beside v
    Key("review", "drill", "x", "Drill my mistakes"),
    Key("drill", "again", "t", "Try again"),
    Key("drill", "solution", "s", "See the solution"),
    Key("drill", "skip", "n", "Skip"),
    Key("rules", "scroll(1)", "pagedown,space", "Scroll down", priority=True),
    Key("rules", "scroll(-1)", "pageup,b", "Scroll up", priority=True),
    Key("resume", "delete", "d,delete", "Delete save"),
    Key("settings", "reset", "backspace", "Default key", show=False),
)

SCREEN_SCOPES: tuple[tuple[str, ...], ...] = (
    ("menu",),
    ("back", "nav", "form"),
    ("back", "nav", "hostform"),
    ("back", "lobby"),
    ("back", "nav", "settings"),
    ("table", "grid", "coach"),
    ("replay",),
    ("handover",),
    ("score",),
    ("back", "review"),
    ("back", "drill"),
    ("back", "rules"),
    ("back", "resume"),
    ("back",),
)
"""Which scopes one screen answers to together (with ``app`` everywhere): a key may not
mean two things on one screen, so a remap is refused when it would."""

LESSON_KEYS: str = "gtx"
"""Never a choice hotkey at a Learn to play table: the lesson panel's keys (``coach.*``)."""

HINT_KEY: str = "h"
"""The default key of a hint at the table (``table.hint``); never a choice hotkey either."""

DONE_KEY: str = "e"
"""The fixed key of "End your turn" / done / pass (``table.done``); never a choice hotkey."""

CHOICE_KEYS: str = "1234567890abcdfgijklmnopqrstuvwxyz"
"""Hotkeys for legal choices, in order: the first 34 choices get one each (no ``e``:
that is the done key on every turn; no ``h``: that asks for a hint)."""

PANE_SLOTS: tuple[str, ...] = ("f4", "f5", "f6")
"""Default keys of a game's own panes (``table.pane1`` ...), in the order it declares them;
a pane may add a capital letter of its own."""

PANE_KEYS: tuple[Key, ...] = tuple(Key("table", f"pane{n}", slot, f"Pane {n}") for n, slot in enumerate(PANE_SLOTS, 1))
"""The game panes' keys, named by position: what each opens is the game's (its table screen's
``PANES``), which the settings screen adds beside them. Bound by :func:`pane_bindings`, not
:func:`bindings`: the action names the pane, which each game declares."""

ALL_KEYS: tuple[Key, ...] = DEFAULT + PANE_KEYS
"""Every remappable key: what the settings screen lists and remaps check against."""


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
            out.append(
                Binding(key.keys, key.action, key.description, show=key.show, id=binding_id(key), priority=key.priority)
            )
    return out


def pane_bindings(panes: list[tuple[str, str, str]]) -> list[BindingType]:
    """Bindings for a game's own panes: (pane id, title, extra key) in slot order.

    Their ids are ``table.pane1``, ``table.pane2``, ... so a person remaps them
    like any other key; the description is the pane's title for the footer.
    """
    out: list[BindingType] = []
    for n, (pane_id, title, letter) in enumerate(panes[: len(PANE_SLOTS)], start=1):
        keys = PANE_SLOTS[n - 1] + (f",{letter}" if letter else "")
        out.append(Binding(keys, f"pane('{pane_id}')", title, id=f"table.pane{n}"))
    return out


def conflict(bid: str, key: str, overrides: dict[str, str]) -> str | None:
    """Why `key` cannot be given to binding `bid` (None: it can). `overrides` are the
    remaps in force (binding id -> keys)."""
    this = next((k for k in ALL_KEYS if binding_id(k) == bid), None)
    if this is None:
        return f"there is no key {bid!r}"
    if this.scope == "table" and len(key) == 1 and key in CHOICE_KEYS:
        return f"{describe_keys(key)} chooses a listed move at the table"
    scopes: set[str] = set()
    for group in SCREEN_SCOPES:
        if this.scope == "app" or this.scope in group:
            scopes.update(group)
    scopes.add("app")
    for other in ALL_KEYS:
        if other is this or other.scope not in scopes:
            continue
        keys = [k.strip() for k in overrides.get(binding_id(other), other.keys).split(",")]
        if key in keys:
            return f"{describe_keys(key)} already means {other.description!r} ({binding_id(other)})"
    return None


def describe_keys(keys: str) -> str:
    """Keys as a person reads them: ``question_mark`` -> ``?``."""
    names = {
        "question_mark": "?",
        "escape": "Esc",
        "enter": "Enter",
        "space": "Space",
        "tab": "Tab",
        "shift+tab": "Shift+Tab",
        "pagedown": "PgDn",
        "pageup": "PgUp",
        "right": "→",
        "left": "←",
        "up": "↑",
        "down": "↓",
        "home": "Home",
        "end": "End",
        "delete": "Del",
        "backspace": "Backspace",
        "slash": "/",
        "exclamation_mark": "!",
    }

    def one(k: str) -> str:
        if k in names:
            return names[k]
        if "+" in k:  # ctrl+s -> Ctrl+S
            *mods, last = k.split("+")
            return "+".join([m.capitalize() for m in mods] + [one(last).upper() if len(last) == 1 else one(last)])
        return k.upper() if len(k) > 1 and k[0] == "f" and k[1:].isdigit() else k

    return " / ".join(one(k.strip()) for k in keys.split(","))
