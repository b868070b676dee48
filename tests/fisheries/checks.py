"""Per-step invariants for random play (used by the quick and the slow runs)."""

from __future__ import annotations

from typing import Any

import pytest

from coldwater.core.errors import IllegalAction
from coldwater.core.fisheries.actions import (
    BonusSail,
    BonusTile,
    Chart,
    Done,
    EndDay,
    Fish,
    Flip,
    Keep,
    Lobster,
    Pass,
    Preserve,
    Put,
    Reveal,
    Sail,
    Start,
    Stock,
)
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.notation import encode
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE

from .helpers import CTX, G

JUNK: list[Any] = [
    None, 42, "sail a1 b1", Done(), Pass(), Lobster(), EndDay(), EndDay("first"), Keep("L3"), Keep(None),
    Sail("a1", "n8"), Sail("zz", "a2"), Fish("a1"), Fish("q99"), Chart("L3", ("a1", "a2", "b2")),
    Chart("XX", ("d4",)), Preserve("P99", ()), Preserve("P01", ("red",)), BonusSail("a2", "b2"),
    BonusTile(("d4",)), Put("rough", "a1"), Put("fish", "n8"), Start(0), Stock("a1", "blue"), Reveal("P01"),
    Flip("C1"),
]


def mutations(a: Any, rng: Rng) -> list[Any]:
    """Near-miss versions of a legal action: other cells, other fish."""
    cell = CTX.names[rng.below(CTX.n)]
    out: list[Any] = []
    if isinstance(a, Sail):
        out.append(Sail(a.frm, cell))
    if isinstance(a, Chart):
        out.append(Chart(a.shape, (cell,) + a.cells[1:]))
        out.append(Chart(a.shape, tuple(reversed(a.cells))))
    if isinstance(a, Fish):
        out.append(Fish(cell))
    if isinstance(a, Preserve):
        out.append(Preserve(a.card, a.fish + ("red",)))
    if isinstance(a, Put):
        out.append(Put(a.piece, cell))
    return out


def conservation(s: FisheriesState, lobsters_before: list[int] | None) -> None:
    d = s.data
    c = CTX.content
    if d.phase not in ("setup", "place", "stock"):
        on_board = sum(1 for f in d.fish if f)
        assert on_board + sum(map(sum, d.catch)) + sum(d.spent) == CTX.total_fish
        per = [0] * len(CTX.colours)
        for f in d.fish:
            if f:
                per[CTX.colour_index[f]] += 1
        for k in range(len(CTX.colours)):
            assert per[k] + d.catch[0][k] + d.catch[1][k] + d.spent[k] == c.fish_per_colour
    tiles = sum(d.general) + sum(map(sum, d.supply)) + len(d.placed)
    assert tiles == CTX.total_tiles
    for k, shape in enumerate(CTX.shapes):
        n = d.general[k] + d.supply[0][k] + d.supply[1][k] + sum(1 for p in d.placed if p.shape == shape)
        assert n == c.shapes[k].count
    covered = [x for p in d.placed for x in p.cells]
    assert len(covered) == len(set(covered)) == sum(d.cover)
    cards = [x for st in d.stacks for x in ([st.top] if st.top else []) + st.rest]
    cards += [x for x in d.row if x] + d.pile + d.earned[0] + d.earned[1]
    assert sorted(cards) == sorted(CTX.cards)
    if d.phase != "setup":
        ships = d.ships[0] + d.ships[1]
        assert len(ships) == 2 * c.ships_per_player and len(set(ships)) == len(ships) and min(ships) >= 0
    assert all(0 <= h <= c.lobsters_per_player for h in d.lobster)
    if lobsters_before is not None:
        assert all(a <= b for a, b in zip(d.lobster, lobsters_before))  # discarded lobsters never return
    assert all(0 <= t <= c.time_max for t in d.time)
    assert all(v >= 0 for v in d.general + d.supply[0] + d.supply[1] + d.catch[0] + d.catch[1])


def check_step(s: FisheriesState, rng: Rng, lobsters_before: list[int] | None, full: bool = True) -> None:
    legal = s.legal()
    if s.current is None:
        assert legal == []
        return
    assert legal, "legal() is empty before the end"
    assert [str(a) for a in legal] == sorted(str(a) for a in legal)
    assert len(set(legal)) == len(legal)
    conservation(s, lobsters_before)
    text = s.to_text()
    assert G.from_text(text) == s and G.from_text(text).to_text() == text
    for a in legal if full else legal[:5]:
        assert str(a) == encode(a)
        assert G.parse_action(str(a)) == a
        assert G.codec.decode_bin(G.codec.encode_bin(a)) == a
    if s.current == CHANCE:
        weights = s.chance_outcomes()
        assert [a for a, _ in weights] == legal and all(w > 0 for _, w in weights)
    else:
        v = s.view(s.current)
        assert v.seed is None
        assert v.legal() == legal
        assert s.view(None).encode() == s.encode()  # nothing is hidden in this game
        det = G.determinize(v, rng)
        assert det.encode() == s.encode()
    # Illegal actions are refused, say why, and change nothing.
    samples = list(JUNK)
    for a in legal[:: max(1, len(legal) // 4)]:
        samples += mutations(a, rng)
    for junk in samples:
        if s.is_legal(junk):
            continue
        reason = s.why_illegal(junk)
        assert isinstance(reason, str) and reason
        with pytest.raises(IllegalAction):
            s.apply(junk)
        assert s.to_text() == text


def play_checked(seed: Any, options: dict[str, Any] | None, bots: tuple[str, str], full: bool = True) -> FisheriesState:
    s = G.new(2, seed=seed, options=options)
    rng = Rng(f"check/{seed}")
    players = [G.bot(bots[0]), G.bot(bots[1])]
    lob: list[int] | None = None
    while True:
        check_step(s, rng.fork(s.ply), lob, full)
        if s.current is None:
            break
        lob = list(s.data.lobster)
        if s.current == CHANCE:
            a = s.sample_chance()
        else:
            a = players[s.current].choose(s.view(s.current), rng.fork(("bot", s.ply).__repr__()))
        assert isinstance(s.describe(a), str)
        c = s.clone()
        s.apply(a)
        c.apply(a)
        assert c == s and c.digest() == s.digest()
        assert s.ply < 5000
    sc = s.scores()
    assert sc.final and sc.outcome and sorted(sc.ranking) == [0, 1]
    assert s.data.day == CTX.content.days
    return s


def play_light(seed: Any, options: dict[str, Any] | None, bots: tuple[str, str]) -> FisheriesState:
    """A whole game with the cheap checks at every step (for thousands of seeds)."""
    s = G.new(2, seed=seed, options=options)
    rng = Rng(f"light/{seed}")
    players = [G.bot(bots[0]), G.bot(bots[1])]
    lob: list[int] | None = None
    while s.current is not None:
        assert s.legal()
        conservation(s, lob)
        lob = list(s.data.lobster)
        if s.current == CHANCE:
            a = s.sample_chance()
        else:
            a = players[s.current].choose(s.view(s.current), rng.fork(s.ply))
        if s.ply % 17 == 0:
            c = s.clone()
            c.apply(a)
            s.apply(a)
            assert c == s
        else:
            s.apply(a)
        assert s.ply < 5000
    conservation(s, lob)
    assert s.scores().final and s.data.day == CTX.content.days
    return s
