"""Fixtures for the app tests: a private data dir and app factories."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.settings import Settings
from tests import toygame


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test writes under its own COLDWATER_HOME, never the real data dir, and sees
    a 256-colour terminal with colour on (the app picks its theme from TERM and NO_COLOR;
    a test that wants another terminal says so)."""
    root = tmp_path / "home"
    monkeypatch.setenv("COLDWATER_HOME", str(root))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    yield root


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table fsyncs its save after every action (durability for people); a
    whole game in a test makes about a thousand of them, which only costs time
    here, so the app tests skip the disk flush. Saving itself still happens, and
    tests/net/play/test_table.py checks the flush itself."""
    monkeypatch.setattr("coldwater.net.play.files.os.fsync", lambda fd: None)


def toy_catalog() -> Catalog:
    """The toy game, offered only to tests (no global registration)."""
    return Catalog(names=("toy",), loader=lambda name: toygame.GAME if name == "toy" else _missing(name))


def _missing(name: str) -> Any:
    raise KeyError(name)


@pytest.fixture
def make_app() -> Callable[..., ColdwaterApp]:
    def make(catalog: Catalog | None = None, **kw: Any) -> ColdwaterApp:
        return ColdwaterApp(strict=True, catalog=catalog, settings=Settings(bot_delay=0.0), **kw)

    return make
