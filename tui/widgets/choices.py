"""A list of choices, each with a plain hotkey, arrows/Enter and the mouse.

The menu and the table's decision panel are both a :class:`ChoiceList`. Items
can be grouped under headings (disabled rows the cursor skips). Pressing an
item's hotkey chooses it at once; the highlighted item is chosen with Enter or
a click. Only items that were given can be chosen, so a list of legal actions
makes an illegal choice impossible.

A label that wraps keeps a hanging indent (the key stays alone in its column),
and a long list can be narrowed by text (:meth:`ChoiceList.set_filter`; the
table's ``/``): hotkeys stay attached to their items while filtered, so a key
read before filtering still means the same choice.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from coldwater.tui.keymap import CHOICE_KEYS

V = TypeVar("V", covariant=True)
"""What choosing an item gives: an action at the table, a name in a menu."""


class Item(msgspec.Struct, Generic[V], frozen=True):
    label: str
    value: V
    group: str = ""
    key: str = ""
    """Hotkey; empty: assigned from CHOICE_KEYS in order."""


KEY_WIDTH = 4
"""The hotkey column (" 1 " and a space); wrapped lines of a label start after it."""


def hanging(key: str, label: str, width: int) -> Text:
    """The key in its own column, the label beside it, wrapped to `width` with a hanging
    indent (continuation lines start under the label, not at column 0).

    Wrapped here, as plain lines, rather than by a Rich table: a table per option
    made every repaint of a long list several times slower."""
    out = Text.assemble((f" {key} " if key else "   ", "bold reverse" if key else ""), " ")
    lines = textwrap.wrap(label, max(width - KEY_WIDTH, 8)) or [""]
    out.append(lines[0])
    for line in lines[1:]:
        out.append("\n" + " " * KEY_WIDTH + line)
    return out


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

    def __init__(
        self,
        items: Sequence[Item[object]] = (),
        *,
        auto_keys: bool = True,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.auto_keys = auto_keys
        self.reserved = ""
        """Letters never given as hotkeys here (a Learn table's lesson keys, keymap.LESSON_KEYS)."""
        self.asleep = False
        """Its keys do nothing for now: the table's log pane covers it, and it keeps the focus
        meanwhile (a focus change repaints the whole screen: F3 cost a second full repaint)."""
        self.generation = 0
        self._values: dict[str, Any] = {}
        self._keys: dict[str, str] = {}
        self._items: list[tuple[Item[object], str]] = []
        """Every item with its hotkey, in order (the filter chooses which are shown)."""
        self._highlight: int | None = None
        self.filter_text = ""
        self._wrapped_at = 0
        self._resized_to = Size(0, 0)
        """The size of the last Resize handled."""
        self._shown_rows = 0
        """Rows the shown items take, wrapped (see `shown_count`)."""
        if items:
            self.set_items(items)

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self._resized_to:
            # Shown again at the size it had (the table's log pane closed): its lines are as they
            # were. OptionList's own handler would drop its caches and repaint the whole list.
            event.prevent_default()
            return
        self._resized_to = event.size
        if event.size.width != self._wrapped_at and self._items:
            at = self.highlighted
            self._render_items()
            if at is not None and at < self.option_count:
                self.highlighted = at
        # A list that got shorter (a preview or a longer title appeared above or below it)
        # would otherwise keep the scroll it had and leave the highlight under its bottom edge.
        self.call_after_refresh(self.keep_in_view)

    def keep_in_view(self) -> None:
        """Scroll the highlighted item into view (all of it where it fits), from the top of
        the list where that shows it: a list opens at choice 1 unless its highlight is below
        the first screenful (issue 45: a Learn table's list opened past choice 1)."""
        if not self.is_mounted or self.highlighted is None:
            return
        self._update_lines()
        y = self._index_to_line.get(self.highlighted)
        if y is not None and y + self._heights[self.highlighted] <= self.scrollable_content_region.height:
            if self.scroll_offset.y:  # (a scroll to where it is repaints the whole list all the same)
                self.scroll_to(y=0, animate=False, immediate=True)
            return
        self.scroll_to_highlight()

    def set_items(self, items: Sequence[Item[object]], highlight: int | None = None) -> None:
        """Replace the choices; `highlight` is the index (in `items`) to pre-select:
        None, the first; a negative number, none at all (Enter then chooses nothing,
        which is how the table avoids a default that spends or ends anything)."""
        self.generation += 1
        self._keys.clear()
        taken = {item.key for item in items if item.key}
        free = iter(k for k in (CHOICE_KEYS if self.auto_keys else "") if k not in taken and k not in self.reserved)
        self._items = [(item, item.key or next(free, "")) for item in items]
        for n, (_, key) in enumerate(self._items):
            if key:
                self._keys[key] = f"c{n}"
        self._highlight = highlight
        self.filter_text = ""
        self._render_items()

    def set_filter(self, text: str) -> None:
        """Show only the items whose label (or group) contains `text`, ignoring case."""
        self.filter_text = text
        self._render_items()

    def _render_items(self) -> None:
        self.clear_options()
        self._values.clear()
        options: list[Option] = []
        group: str | None = None
        first_of: int | None = None
        needle = self.filter_text.casefold()
        # The scrollbar's column is kept free so a list that grows one never re-wraps under it.
        width = (self.size.width or 56) - 2
        self._wrapped_at = self.size.width
        # One group needs no heading: the list's title already says what it is.
        grouped = len({item.group for item, _ in self._items}) > 1
        for n, (item, key) in enumerate(self._items):
            if needle and needle not in item.label.casefold() and needle not in item.group.casefold():
                continue
            if grouped and item.group and item.group != group:
                options.append(Option(Text(item.group, style="bold"), disabled=True))
            group = item.group
            oid = f"c{n}"
            self._values[oid] = item.value
            prompt = hanging(key, item.label, width)
            options.append(Option(prompt, id=oid))
            if self._highlight == n or (needle and first_of is None):
                first_of = len(options) - 1
        self.add_options(options)
        self._shown_rows = sum(len(o.prompt.plain.split("\n")) if isinstance(o.prompt, Text) else 1 for o in options)
        if first_of is not None:
            self.highlighted = first_of
        elif self._highlight is None and options:
            self.action_first()
        else:
            self.highlighted = None
        # Setting the highlight scrolled to it at the list's old height; the new items may
        # change the rows around the list (title, preview), so look again once laid out.
        self.call_after_refresh(self.keep_in_view)

    @property
    def shown_count(self) -> int:
        """Rows the list would like (items, wrapped, and headings), for the table's layout."""
        return self._shown_rows

    def value_for_key(self, key: str) -> Any:
        oid = self._keys[key]
        return self._items[int(oid[1:])][0].value

    def key_for(self, value: Any) -> str:
        """The hotkey of the item with `value` ("" if none)."""
        for item, key in self._items:
            if item.value == value:
                return key
        return ""

    def has_key(self, key: str) -> bool:
        return key in self._keys

    def shows_key(self, key: str) -> bool:
        """Whether the item with hotkey `key` is shown (not filtered out)."""
        return self._keys.get(key) in self._values

    def choose_key(self, key: str) -> bool:
        """Choose the item with hotkey `key`; False if there is none."""
        oid = self._keys.get(key)
        if oid is None:
            return False
        # (Not highlighted first: the list is replaced by the next question, and a highlight moved
        # now cost a repaint and a preview of a choice already made.)
        self.post_message(self.Chosen(self, self._items[int(oid[1:])][0].value))
        return True

    def stray_key(self, key: str, character: str | None, *, unfocused: bool) -> bool:
        """A key that reached the screen, not the list: the arrows (when nothing has the keyboard:
        a click on the board, a screen on top that closed) move through the choices and take the
        keyboard; a choice's key (typed just as a pane closed) chooses it. True when it did."""
        if unfocused and key in ("up", "down", "home", "end"):
            self.focus()
            moves = {"up": self.action_cursor_up, "down": self.action_cursor_down, "home": self.action_first}
            moves.get(key, self.action_last)()
            return True
        if character and character.isprintable() and self.has_key(character):
            self.choose_key(character)
            return True
        return False

    @property
    def highlighted_value(self) -> Any:
        """The value of the highlighted item (None when nothing is highlighted)."""
        if self.highlighted is None:
            return None
        return self.value_of(self.get_option_at_index(self.highlighted).id)

    def value_of(self, option_id: str | None) -> Any:
        """The value of the shown item whose option has the id `option_id` (None if no shown item has it),
        for a handler given an option by an OptionList event."""
        return self._values.get(option_id) if option_id is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return False if self.asleep else super().check_action(action, parameters)

    def _on_hide(self, event: events.Hide) -> None:
        if self.asleep:
            event.prevent_default()  # keep the focus (Textual's Widget gives it away on Hide)

    def on_key(self, event: events.Key) -> None:
        if self.asleep:
            return
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
        return [item.value for item, _ in self._items]


class FilterBox(Input):
    """The text box that narrows a :class:`ChoiceList` (the table's ``/``), hidden until opened.

    Everything typed is the filter, digits included: a grid's squares ("a4") and
    a market's prices have digits, so a digit choosing the choice with that hotkey
    chose things nobody meant (issue 45). ↑ ↓ move through what is shown, Enter
    chooses the highlighted one (as Enter on the list does), Esc closes the box and
    gives the list back the keyboard. Posts :class:`FilterBox.Closed` when it closes.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("escape", "close", "Clear the filter", show=False),
    ]

    class Closed(Message):
        """The filter was put away: its list shows every choice again."""

        def __init__(self, box: FilterBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> FilterBox:
            return self.box

    def __init__(self, choices: ChoiceList, **kw: Any) -> None:
        super().__init__(**kw)
        self.choices = choices
        """The list this box filters."""
        self.display = False
        self.can_focus = False  # only while it is open: Tab never lands in a hidden box

    @property
    def is_open(self) -> bool:
        return bool(self.display)

    def open(self) -> None:
        self.display = True
        self.can_focus = True
        self.value = ""
        self.focus()

    def close(self, *, refocus: bool = True) -> None:
        """Put the box away, the whole list shown again (and given the keyboard if `refocus`)."""
        if not self.display:
            return
        self.display = False
        self.can_focus = False
        if self.choices.filter_text:
            self.choices.set_filter("")
        if refocus:
            self.choices.focus()
        self.post_message(self.Closed(self))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.display:
            self.choices.set_filter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.choices.action_select()

    def action_move(self, delta: int) -> None:
        (self.choices.action_cursor_up if delta < 0 else self.choices.action_cursor_down)()

    def action_close(self) -> None:
        self.close()
