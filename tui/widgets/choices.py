"""A list of choices, each with a plain hotkey, arrows/Enter and the mouse.

The menu and the table's decision panel are both a :class:`ChoiceList`. Items
can be grouped under headings (disabled rows the cursor skips). Pressing an
item's hotkey chooses it at once; the highlighted item is chosen with Enter or
a click. Only items that were given can be chosen, so a list of legal actions
makes an illegal choice impossible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from coldwater.tui.keymap import CHOICE_KEYS


class Item(msgspec.Struct, frozen=True):
    label: str
    value: Any
    group: str = ""
    key: str = ""
    """Hotkey; empty: assigned from CHOICE_KEYS in order."""


class ChoiceList(OptionList):
    """Choices with hotkeys. Posts :class:`ChoiceList.Chosen` when one is picked."""

    class Chosen(Message):
        def __init__(self, choice_list: ChoiceList, value: Any) -> None:
            super().__init__()
            self.choice_list = choice_list
            self.value = value
            self.generation = choice_list.generation
            """Which filling of the list this came from: a choice from a list that
            has since been replaced (a second key pressed quickly) is stale."""

        @property
        def stale(self) -> bool:
            return self.generation != self.choice_list.generation

        @property
        def control(self) -> ChoiceList:
            return self.choice_list

    def __init__(self, items: Sequence[Item] = (), *, auto_keys: bool = True, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.auto_keys = auto_keys
        self.generation = 0
        self._values: dict[str, Any] = {}
        self._keys: dict[str, str] = {}
        if items:
            self.set_items(items)

    def set_items(self, items: Sequence[Item], highlight: int | None = None) -> None:
        """Replace the choices; `highlight` is the index (in `items`) to pre-select."""
        self.generation += 1
        self.clear_options()
        self._values.clear()
        self._keys.clear()
        options: list[Option] = []
        group: str | None = None
        free = iter(CHOICE_KEYS if self.auto_keys else "")
        first_of: int | None = None
        # One group needs no heading: the list's title already says what it is.
        grouped = len({item.group for item in items}) > 1
        for n, item in enumerate(items):
            if grouped and item.group and item.group != group:
                options.append(Option(Text(item.group, style="bold"), disabled=True))
            group = item.group
            key = item.key or next(free, "")
            oid = f"c{n}"
            self._values[oid] = item.value
            if key:
                self._keys[key] = oid
            label = Text.assemble((f" {key} " if key else "   ", "bold reverse" if key else ""), " ", item.label)
            options.append(Option(label, id=oid))
            if highlight == n:
                first_of = len(options) - 1
        self.add_options(options)
        if first_of is not None:
            self.highlighted = first_of
        elif options:
            self.action_first()

    def value_for_key(self, key: str) -> Any:
        oid = self._keys[key]
        return self._values[oid]

    def has_key(self, key: str) -> bool:
        return key in self._keys

    def choose_key(self, key: str) -> bool:
        """Choose the item with hotkey `key`; False if there is none."""
        oid = self._keys.get(key)
        if oid is None:
            return False
        self.highlighted = self.get_option_index(oid)
        self.post_message(self.Chosen(self, self._values[oid]))
        return True

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character in self._keys and event.character.isprintable():
            event.stop()
            event.prevent_default()
            self.choose_key(event.character)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id
        if oid is not None and oid in self._values:
            self.post_message(self.Chosen(self, self._values[oid]))

    @property
    def values(self) -> list[Any]:
        return list(self._values.values())
