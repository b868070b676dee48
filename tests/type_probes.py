"""Mistakes the typed seams must refuse: read by tests/test_types.py, never run.

Each line whose comment names an error code ("error" then the code, as mypy
prints it) must be a mypy error with that code; nothing else in this file may
be. If a seam falls back to ``Any`` again (a hook that takes any view, a codec
that parses to Any), its line stops being an error and the test fails.
"""

from __future__ import annotations

from typing import Never

from coldwater.core import games
from coldwater.core.crown.actions import CrownAction
from coldwater.core.crown.state import CrownState
from coldwater.core.fisheries.actions import CODEC as FISHERIES_CODEC
from coldwater.core.fisheries.state import FisheriesState
from coldwater.tui.games.words import Choice, TableWords
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import Item

NotActions = tuple[list[Item[str]], int | None]
NotChoices = tuple[list[Choice[str]], int | None]


class WrongHooks(TableScreen[CrownState, CrownAction, Never]):
    def own_answer(self, view: FisheriesState, legal: list[CrownAction]) -> tuple[None, str]:  # error: override
        return None, ""

    def choice_items(self, view: CrownState, legal: list[CrownAction]) -> NotActions:  # error: override
        return [Item("x", "y")], None


class WrongWords(TableWords[CrownState, CrownAction, Never]):
    def label(self, view: FisheriesState, action: CrownAction, viewer: int | None) -> str:  # error: override
        return ""

    def is_costly(self, view: CrownState, action: CrownAction) -> str:  # error: override
        return ""

    def choice_items(self, view: CrownState, legal: list[CrownAction], label: object) -> NotChoices:  # error: override
        return [Choice("x", "y")], None


def wrong_action_types() -> None:
    crown_action: int = games.get("crown").parse_action("end")  # error: assignment
    fisheries_action: str = FISHERIES_CODEC.parse("done")  # error: assignment
    del crown_action, fisheries_action
