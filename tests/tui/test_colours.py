"""Game colours never collide: every theme, every colour depth, NO_COLOR.

Each group (Crown's six bait, its tag colours, Fisheries' four fish) is rendered
through Rich at truecolor, 256 and 16 colours, and the resulting styles (colours
after reduction, plus bold/underline/reverse) must differ pairwise. Under
NO_COLOR colours are gone, so the attributes alone must tell them apart, and
nothing may be dim.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from rich.color import ColorSystem
from rich.style import Style

from coldwater import themes

GROUPS = {"bait": themes.BAIT, "tag": themes.TAGS, "fish": themes.FISH}
DEPTHS = {"truecolor": "truecolor", "256": "256", "16": "standard"}
"""Rich's names for the colour depths a terminal may have (over SSH: 256, no COLORTERM)."""


def rendered(style: str, depth: str) -> str:
    """What a terminal at `depth` is told for `style`: the SGR codes Rich computes
    after reducing its colours to that depth.

    Computed directly (``Style._make_ansi_codes`` on a fresh style): Rich caches a
    style's codes for the first colour system it meets, so printing the same style
    at several depths through a Console would hide the reduction."""
    parsed = Style.parse(style)
    system = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT, "standard": ColorSystem.STANDARD}[depth]
    fresh = Style(
        color=parsed.color.downgrade(system) if parsed.color else None,
        bgcolor=parsed.bgcolor.downgrade(system) if parsed.bgcolor else None,
        bold=parsed.bold,
        underline=parsed.underline,
        reverse=parsed.reverse,
        dim=parsed.dim,
        italic=parsed.italic,
    )
    return fresh._make_ansi_codes(system)


@pytest.mark.parametrize("theme", ["dark", "light", "ansi"])
@pytest.mark.parametrize("depth", sorted(DEPTHS))
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_game_colours_differ_pairwise(theme: str, depth: str, group: str) -> None:
    palette = themes.game_palette(theme)
    styles = {name: palette[f"{group}.{name}"] for name in GROUPS[group]}
    codes = {name: rendered(style, DEPTHS[depth]) for name, style in styles.items()}
    for a, b in combinations(codes, 2):
        assert codes[a] != codes[b], (
            f"{theme} at {depth}: {group} {a} and {b} look the same ({styles[a]!r}, {styles[b]!r})"
        )


def test_reduction_really_happens() -> None:
    # The test above is only worth something if 256/16 colours change the codes.
    style = themes.game_palette("dark")["bait.red"]
    assert rendered(style, "truecolor") != rendered(style, "256") != rendered(style, "standard")
    assert Style.parse(style).color is not None
    assert Style.parse(style).color.downgrade(ColorSystem.STANDARD).number is not None  # type: ignore[union-attr]


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_no_color_uses_attributes_and_nothing_faint(group: str) -> None:
    palette = themes.game_palette("dark", no_color=True)
    seen: set[tuple[bool, bool, bool]] = set()
    for name in GROUPS[group]:
        style = Style.parse(palette[f"{group}.{name}"])
        assert style.color is None and style.bgcolor is None, f"{name}: NO_COLOR means no colour"
        assert not style.dim, f"{name} is faint"
        attrs = (bool(style.bold), bool(style.underline), bool(style.reverse))
        assert any(attrs), f"{name} is plain text"
        assert attrs not in seen, f"{group} {name} looks like another under NO_COLOR"
        seen.add(attrs)


def test_game_style_falls_back_to_bold_and_accepts_textual_names() -> None:
    assert themes.game_style("coldwater-light", "bait.red") == themes.GAME_STYLES["light"]["bait.red"]
    assert themes.game_style("dark", "no.such") == "bold"
    assert themes.game_style("dark", "bait.red", no_color=True) == "underline"
