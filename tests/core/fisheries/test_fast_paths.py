"""The fast paths of legal() and apply() agree with the plain rules, and their caches stay private.

legal() searches sails with bit masks and lists tile placements from per-board
tables; these tests hold them against the heap search with paths (sail.reach,
what why_not and the UI use) and a placement search straight from the rules
(chart_a_course.coverable), over positions of random games on both boards.
"""

from __future__ import annotations

from typing import Any

from coldwater.core.fisheries import chart_a_course, sail
from coldwater.core.fisheries.actions import Chart, Sail
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

from .helpers import CTX, G


def turn_positions(games: int, options: dict[str, Any] | None, every: int = 4) -> list[FisheriesState]:
    """Clones of every `every`-th position of random games where a player takes a turn
    (phase "turn" with no preservation card waiting to be revealed)."""
    out = []
    for g in range(games):
        s = G.new(2, seed=f"fast/{g}", options=options)
        r = Rng(g)
        while not s.is_over:
            legal = s.legal()
            if s.data.phase == "turn" and s.current == s.data.turn and s.ply % every == 0:
                out.append(s.clone())
            s.apply(s.sample_chance(r) if s.current == CHANCE else legal[r.below(len(legal))])
    return out


def placements_by_the_rules(s: FisheriesState, shape: str) -> set[tuple[int, ...]]:
    """Every placement of `shape`: inside the grid, on coverable spaces, one beside a ship."""
    d = s.data
    ships = {c for seat in d.ships for c in seat if c >= 0}
    out = set()
    for orient in CTX.orientations[shape]:
        for r0 in range(CTX.rows):
            for c0 in range(CTX.cols):
                pts = [(r0 + r, c0 + c) for r, c in orient]
                if not all(0 <= r < CTX.rows and 0 <= c < CTX.cols for r, c in pts):
                    continue
                cells = tuple(sorted(r * CTX.cols + c for r, c in pts))
                if all(chart_a_course.coverable(CTX, d, x, dict.fromkeys(ships, (0, 0))) for x in cells) and any(
                    n in ships for x in cells for n in CTX.neighbours[x]
                ):
                    out.add(cells)
    return out


def test_sail_costs_match_the_heap_search_on_both_boards() -> None:
    checked = 0
    for options in (None, {"board": "B"}):
        for s in turn_positions(6, options, every=6):
            d = s.data
            for seat in (0, 1):
                for frm in d.ships[seat]:
                    for budget in range(13):
                        fast = sail.destination_costs(CTX, d, seat, frm, budget)
                        slow = {c: v[0] for c, v in sail.destinations(CTX, d, seat, frm, budget).items()}
                        assert fast == slow, (s.to_text(), seat, frm, budget)
                        checked += 1
    assert checked > 1000


def test_legal_lists_exactly_the_sails_and_tiles_the_rules_allow() -> None:
    for options in (None, {"board": "B"}):
        for s in turn_positions(4, options):
            d = s.data
            p = d.turn
            legal = s.legal()
            sails = {(CTX.by_name[a.frm], CTX.by_name[a.to]) for a in legal if isinstance(a, Sail)}
            want = set()
            if d.time[p] > 0:
                for frm in sail.movable(CTX, d, p):
                    want |= {(frm, to) for to in sail.destinations(CTX, d, p, frm, d.time[p])}
            assert sails == want, s.to_text()
            for k, shape in enumerate(CTX.shapes):
                charts = {
                    tuple(CTX.by_name[c] for c in a.cells) for a in legal if isinstance(a, Chart) and a.shape == shape
                }
                rules = placements_by_the_rules(s, shape) if d.supply[p][k] > 0 else set()
                assert charts == rules, (s.to_text(), shape)
                assert set(chart_a_course.placements(CTX, d, shape)) == placements_by_the_rules(s, shape)


def test_a_sail_costs_its_hours_whether_or_not_legal_was_asked_first() -> None:
    tried = 0
    for s in turn_positions(3, None):
        sails = [a for a in s.legal() if isinstance(a, Sail)]
        if not sails:
            continue
        tried += 1
        a = sails[-1]
        p = s.data.turn
        hours = sail.destination_costs(CTX, s.data, p, CTX.by_name[a.frm], s.data.time[p])[CTX.by_name[a.to]]
        fresh = G.state_type(s.clone().data, seed=s.seed, ply=s.ply)  # legal() never asked
        for t in (s.clone(), fresh):
            before = t.data.time[p]
            t.apply_legal(a) if t is fresh else t.apply(a)
            assert t.data.time[p] == before - hours
    assert tried > 10


def test_clones_and_views_never_share_a_positions_cached_search() -> None:
    for s in turn_positions(3, None):
        legal = s.legal()
        sails = [a for a in legal if isinstance(a, Sail)]
        if len(sails) < 2:
            continue
        c, v = s.clone(), s.view(s.data.turn)
        assert c._sail_levels is None and v._sail_levels is None and c._chance is None
        c.apply(sails[0])
        assert s.legal() == legal  # the original's search is untouched
        v.apply(sails[1])
        t = s.clone()
        t.apply(sails[1])
        assert v.encode() == t.encode()
        s.apply(sails[-1])
        u = G.state_type(s.data, seed=s.seed, ply=s.ply)
        assert s.legal() == u.legal()  # the next position's list is searched afresh
        return
    raise AssertionError("no position with two sails")


def test_chance_outcomes_are_in_notation_order_and_the_same_objects_each_time() -> None:
    for options in (None, {"board": "B", "market": True}):
        s = G.new(2, seed="chance", options=options)
        r = Rng(5)
        seen = 0
        while not s.is_over and seen < 60:
            legal = s.legal()
            if s.current == CHANCE:
                outcomes = s.chance_outcomes()
                assert [a for a, _ in outcomes] == legal
                assert [str(a) for a, _ in outcomes] == sorted(str(a) for a, _ in s.chance_weights())
                assert all(x is y for (x, _), y in zip(outcomes, legal))
                seen += 1
                s.apply(s.sample_chance(r))
            else:
                s.apply(legal[r.below(len(legal))])
        assert seen >= 30
