"""End screens right for every game and mode (issue #30 item 6): Aquatica's Goals and
its solo virtual rival among what was won along the way, a scale under the letter bar
chart, and a tie-break row under the total instead of among the point rows."""

from __future__ import annotations

import asyncio
from pathlib import Path

from coldwater.core.state import Scores
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.games.aquatica.screen import AquaticaTableScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.widgets.chart import ScoreChart

from .driver import settle
from .frame_driver import my_turn, screen_text
from .test_rounds import finish

FISHERIES_LIKE = Scores(
    labels=("Seat 1", "Seat 2"),
    categories=("preservation cards", "helm icons", "islands", "fish left (tie-break, not points)"),
    rows=((12, 4, 3, 7), (10, 6, 3, 2)),
    totals=(19, 19),
    ranking=(0, 1),
    final=True,
    outcome="Seat 1 wins 19-19 on fish left (tie-break)",
)


async def test_tiebreak_row_under_the_total_and_a_scale(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ScoreScreen("Fisheries of Gloucester", FISHERIES_LIKE, ["Ann", "Bea"]))
        await settle(pilot)
        rows = [line.strip() for line in screen_text(pilot).split("\n")]
        total = next(n for n, r in enumerate(rows) if r.startswith("Total"))
        assert rows[total + 1].startswith("Tie-break: fish left"), rows[total : total + 2]
        assert rows[total + 1].split()[-2:] == ["7", "2"]
        assert not any(r.startswith("fish left") for r in rows[:total]), "the tie-break is among the points"
        chart = pilot.app.screen.query_one(ScoreChart)
        drawn = [line for line in chart.render().renderables]  # type: ignore[attr-defined]
        text = [getattr(line, "plain", "") for line in drawn]
        bars = {t.split()[0]: t for t in text if t.startswith(("Ann", "Bea"))}
        # Ann's bar: 19 points at two cells a point, and no segment for the 7 fish left.
        ann = bars["Ann"].split()[1]
        assert set(ann) == {"A", "B", "C"} and len(ann) == 38, ann
        assert "fish left" not in " ".join(text)
        axis, numbers = next((text[n], text[n + 1]) for n, t in enumerate(text) if "└" in t)
        assert axis.index("└") == bars["Ann"].index(ann), "the scale starts where the bars do"
        assert numbers.split()[0] == "0" and numbers.split()[-1] == "19", numbers
        assert all(int(v) % 5 == 0 for v in numbers.split()[:-1])


async def test_aquatica_solo_end_screen_has_goals_and_the_rival(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("aquatica",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table.new("aquatica", [Seat(SeatKind.PERSON, "Ada")], seed="g", save_path=home / "saves" / "a.json")
        screen = AquaticaTableScreen(table)
        await app.push_screen(screen)
        await my_turn(pilot)
        await finish(pilot, screen)
        end = pilot.app.screen
        assert isinstance(end, ScoreScreen)
        for _ in range(200):
            await settle(pilot)
            won = str(end.query_one("#milestones").render())
            if won:
                break
            await asyncio.sleep(0.02)
        d = table.state.data
        assert d.ps[0].goals, "the seed's game claims a Goal"
        assert "no trophies" not in won and "Nothing was won" not in won, won
        for pos in d.ps[0].goals:
            name = table.game.deck.goals[d.goals[pos]].name
            assert f"Ada: Goal: {name}" in won, won
        rival = [line for line in won.split("\n") if "Virtual rival:" in line]
        assert len([r for r in rival if ", spot " in r]) == d.rival_placed
        assert f"Virtual rival: {d.rival_placed} of 4 Mantas placed" in won, won


async def test_practice_pond_lists_the_silent_players_setup_trophy() -> None:
    """Practice Pond's setup gives the silent player the 5-point Small Species trophy: the
    end screen's "Trophies and goals" lists it at "setup" instead of leaving it out."""
    from coldwater.tui.screens.timeline import Timeline

    t = Table.new("crown", [Seat(SeatKind.BOT, "Ann", bot="greedy")], seed="pond")
    await t.advance()
    assert t.state.is_over
    tl = Timeline(t.record, t.game)
    first = tl.milestones()[0]
    assert first.pos == 0 and "Small Species" in first.text and tl.won_when(first) == "setup", first
    # Nothing held at the start is counted twice later on.
    assert sum("Small Species" in m.text and "5" in m.text for m in tl.milestones()) == 1
