"""The order of the table's choice list, and the height of the strip it shares below
120 columns: pure (no Textual widgets)."""

from __future__ import annotations

from typing import TypeVar

import msgspec
from textual.geometry import Size

from coldwater.tui import keymap
from coldwater.tui.widgets.choices import Item

V = TypeVar("V")


def side_height(size: Size, rows: int, panel: bool) -> int | None:
    """The strip's height below 120 columns (None: the side column's own, from 120): 9 rows or
    a third of the screen, and for a long list (`rows` of choices) or a panel beside it, up to
    half of what is left under the status lines. Two heights only, so most choices cost no
    relayout."""
    if size.width >= 120:
        return None
    base = max(9, size.height // 3)
    tall = rows + 3 > base or panel
    return max(base, (size.height - 4) // 2) if tall else base


def safe_order(
    items: list[Item[V]], pre: int | None, done: list[bool], costly: list[bool], *, done_ok: bool = False
) -> tuple[list[Item[V]], int]:
    """The list with the done key on the first done item (moved to the end of its group), and the
    highlight: the game's choice `pre` only if it is safe, else the first safe one; -1 (nothing
    highlighted) when none is. Safe: neither costly nor done (a done item may be, `done_ok`:
    a lobster's "Keep your lobster"). `done` and `costly` are per item."""
    safe = [(done_ok or not d) and not c for d, c in zip(done, costly, strict=True)]
    out = [
        msgspec.structs.replace(item, key=keymap.DONE_KEY) if d and not item.key else item
        for item, d in zip(items, done, strict=True)
    ]
    # Only one item may carry the done key: the first done action.
    seen = False
    for n, item in enumerate(out):
        if item.key == keymap.DONE_KEY:
            if seen:
                out[n] = msgspec.structs.replace(item, key="")
            seen = True
    out, safe, pre = done_last_in_group(out, safe, pre)
    if pre is not None and 0 <= pre < len(out) and safe[pre]:
        return out, pre
    return out, next((n for n, ok in enumerate(safe) if ok), -1)


def done_last_in_group(
    items: list[Item[V]], safe: list[bool], pre: int | None
) -> tuple[list[Item[V]], list[bool], int | None]:
    """The item on the done key moved to the end of its group, so the numbers run 1, 2, 3
    unbroken above it ("e Go first tomorrow · 2 Go second" read as numbered around e, issue 45).
    `safe` and the preferred index `pre` follow their items."""
    at = next((n for n, item in enumerate(items) if item.key == keymap.DONE_KEY), None)
    if at is None:
        return items, safe, pre
    end = at
    while end + 1 < len(items) and items[end + 1].group == items[at].group:
        end += 1
    if end == at:
        return items, safe, pre
    order = list(range(at)) + list(range(at + 1, end + 1)) + [at] + list(range(end + 1, len(items)))
    moved_pre = order.index(pre) if pre is not None and 0 <= pre < len(items) else pre
    return [items[n] for n in order], [safe[n] for n in order], moved_pre
