"""A person's settings: theme, bot pace and key overrides, kept in the data dir."""

from __future__ import annotations

from pathlib import Path

import msgspec

from coldwater.net import paths
from coldwater.net.files import write_atomic


class Settings(msgspec.Struct, kw_only=True):
    theme: str | None = None
    """Short theme name (dark, light, ansi); None: dark, or ansi under NO_COLOR."""
    bot_delay: float = 0.4
    """Seconds between two bot or chance steps, so a person can follow them."""
    keys: dict[str, str] = {}
    """Binding id -> keys, overriding the defaults in :mod:`coldwater.tui.keymap`."""


def settings_path() -> Path:
    return paths.data_dir() / "settings.json"


def load() -> Settings:
    """The saved settings; a missing or unreadable file gives the defaults."""
    try:
        return msgspec.json.decode(settings_path().read_bytes(), type=Settings)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return Settings()


def save(settings: Settings) -> None:
    write_atomic(settings_path(), msgspec.json.format(msgspec.json.encode(settings), indent=1))
