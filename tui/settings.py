"""A person's settings: theme, bot pace, key overrides and the forms' last choices, in the data dir.

A settings.json that cannot be read is never overwritten: :func:`load` moves it
aside (``settings.json.broken``, then ``-1``, ``-2`` ...) and says so, and the app
shows that sentence, so a hand-edited file with a typo is not silently lost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from coldwater.net.play import paths
from coldwater.net.play.files import set_aside, write_atomic


class FormMemory(msgspec.Struct, kw_only=True):
    """The last choices made in one form (new solo game, hotseat, LAN host)."""

    game: str = ""
    players: int = 0
    seats: list[str] = []
    """Seat kinds in order (``person``, ``bot:greedy``, ``open``, ``reserved`` ...)."""
    names: list[str] = []
    options: dict[str, Any] = {}
    content: str = ""
    table: str = ""
    me: str = ""
    fingerprints: list[str] = []
    watchers: int = 16
    turn: int = 180
    """The host form's turn timer (seconds a move, 0: no clock)."""
    strict: bool = False
    """The host form's strict clock (a bot plays a seat out of time at once)."""
    """LAN host: the most people who may watch (0: nobody)."""
    dealer: str = ""
    """LAN host: "fair" or "committed" ("": the game's default)."""
    hints: bool = False
    """LAN host: hints on for everyone at the table."""


class Settings(msgspec.Struct, kw_only=True):
    theme: str | None = None
    """Short theme name (dark, light, ansi); None: dark, or ansi under NO_COLOR."""
    bot_delay: float = 0.4
    """Seconds between two bot or chance steps, so a person can follow them."""
    auto_single: bool = True
    """A question with a single legal answer answers itself (never "end your turn",
    never a choice that reveals something)."""
    keys: dict[str, str] = {}
    """Binding id -> keys, overriding the defaults in :mod:`coldwater.tui.keymap`."""
    forms: dict[str, FormMemory] = {}
    """Form name (solo, hotseat, host, join) -> its last choices. Passphrases are never kept."""


def settings_path() -> Path:
    return paths.data_dir() / "settings.json"


def load_reporting() -> tuple[Settings, str | None]:
    """The saved settings and, if the file was unreadable, a sentence saying where it went.

    A missing file gives the defaults quietly; a broken one is renamed aside first.
    """
    path = settings_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings(), None
    except OSError as e:
        return Settings(), f"Cannot read {path}: {e.strerror or e}; using the default settings."
    try:
        return msgspec.json.decode(raw, type=Settings), None
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        try:
            target = set_aside(path, "broken")
        except OSError as err:
            return Settings(), f"{path.name} is broken ({e}) and cannot be moved aside ({err}); using the defaults."
        return Settings(), f"{path.name} was broken ({e}); it is kept as {target.name} and the defaults are in use."


def load() -> Settings:
    """The saved settings; a missing or unreadable file gives the defaults (see load_reporting)."""
    return load_reporting()[0]


def save(settings: Settings) -> None:
    write_atomic(settings_path(), msgspec.json.format(msgspec.json.encode(settings), indent=1))
