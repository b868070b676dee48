"""Rows that are broken between items, never cut (tui/widgets/rows.py)."""

from __future__ import annotations

from rich.text import Text

from coldwater.tui.widgets.rows import break_row


def test_a_row_that_fits_is_left_alone() -> None:
    assert [r.plain for r in break_row(Text("Points you: 3 · Ann: 5"), 40)] == ["Points you: 3 · Ann: 5"]


def test_a_long_row_breaks_at_its_widest_separator_and_keeps_every_item() -> None:
    line = Text("Weights now: Shore 0 · Lake 0 · River 0 │ Points you: 0 · Greedy bot 2: 0 · Greedy bot 3: 0")
    rows = break_row(line, 54)
    assert [r.plain for r in rows] == [
        "Weights now: Shore 0 · Lake 0 · River 0",
        "  Points you: 0 · Greedy bot 2: 0 · Greedy bot 3: 0",
    ]
    assert all(r.cell_len <= 54 for r in rows)


def test_commas_stay_and_continuations_are_indented() -> None:
    rows = break_row(Text("  Fish 7 Perch 4, Pike 12, Pike 7, Pike 4, Roach 3"), 30)
    assert rows[0].plain == "  Fish 7 Perch 4, Pike 12,"
    assert all(r.plain.startswith("    ") for r in rows[1:])
    assert "".join(r.plain.strip() + " " for r in rows).split() == [
        "Fish",
        "7",
        "Perch",
        "4,",
        "Pike",
        "12,",
        "Pike",
        "7,",
        "Pike",
        "4,",
        "Roach",
        "3",
    ]
    assert "…" not in "".join(r.plain for r in rows)


def test_styles_survive_the_break() -> None:
    line = Text("alpha · ") + Text("beta", style="bold red") + Text(" · gamma")
    rows = break_row(line, 12)
    beta = next(r for r in rows if "beta" in r.plain)
    assert any(span.style == "bold red" for span in beta.spans)


def test_only_an_item_wider_than_the_room_is_cut() -> None:
    rows = break_row(Text("Supercalifragilistic"), 10)
    assert len(rows) == 1 and rows[0].plain.endswith("…") and rows[0].cell_len <= 10
