"""The greedy bot: one-step lookahead with a hand-made value of each outcome.

It fills Zones it can empty soon, routes bait to Master Angler cards (the card
closest to completion first), catches the most useful fish (new species,
then heavy ones), takes tackle, plays a Reel when it empties a Zone, and
submits its heaviest fish. It only reads the view it is given; the Rng breaks
ties, so it is deterministic given that Rng.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from coldwater.core.bots import GreedyBase
from coldwater.core.evaluate import LinearCut
from coldwater.core.notation import Action
from coldwater.core.search import Evaluate, score_values
from coldwater.core.state import State

from .actions import (
    Catch,
    Discard,
    Fill,
    Lose,
    Lure,
    Place,
    Reel,
    Remove,
    Route,
    SilentDraws,
    Submit,
    Take,
    TakeTackle,
    TakeTop,
    WhiteOption,
    Zone6,
)
from .content import Tables
from .model import (
    COLOUR_INDEX,
    COLOUR_LOCATION,
    LOCATION_INDEX,
    SMALL_SPECIES,
    SPACE_COLOUR,
    SPACE_INDEX,
    CrownData,
    Player,
)


class GreedyBot(GreedyBase):
    LEVEL_PENALTY: ClassVar[float] = 8.0
    """Practice Pond: what drawing level with the silent player's fish count costs a cast."""
    MA_SET_BONUS: ClassVar[float] = 0.8
    """Practice Pond: a Master Angler card of a species that advances a Three Same or Four
    Different trophy (the person wins there on Master Angler cards; against a real rival
    it showed no gain, 270 of 600 two-player games against the bot without it, where that
    bot wins 286 against itself on those seeds, so it stays solo)."""

    def __init__(self, tables: Tables) -> None:
        self.T = tables
        mids = {}
        for s in tables.content.species:
            mids[s.key] = (s.range[0] + s.range[1]) / 2
        self.mid = mids

    def fish_value(self, p: Player, species: str) -> float:
        """A new species helps three challenges; a second one only if it may be heavier."""
        mid = self.mid.get(species, 4)
        known = [self.T.weight[f.card] for f in p.fish if f.species == species and f.card is not None]
        if not known and not any(f.species == species for f in p.fish):
            return 2.5 + mid / 4 + (1.0 if species in SMALL_SPECIES else 0.0)
        best = max(known) if known else mid
        return 0.3 + max(0.0, mid - best) / 4

    def cast_value(self, d: CrownData, p: Player, colour: int, side: int) -> float:
        if colour < 0:
            return self.port_value(d, p, side)
        v = 0.0
        n = 0
        home = COLOUR_LOCATION[colour]
        for zi, z in enumerate(p.zones):
            k = z[colour]
            if not k:
                continue
            take = 1 if side == 1 else k
            n += take
            total = sum(z)
            v += 0.4 * take / total  # progress towards emptying the Zone
            if total == take:
                f = d.zones[home][zi]
                if f is not None:
                    v += self.fish_value(p, f.species)
                if zi == 2:
                    v += 1.0
                if zi == 3 and d.tops[home] is not None:
                    v += 0.3
        open_spots = sum(self.T.ma_spots[m.card].count(colour) - m.filled.count(colour) for m in p.ma)
        v += 0.8 * min(n, open_spots)
        return v

    def port_value(self, d: CrownData, p: Player, side: int) -> float:
        opts = []
        for zi, z in enumerate(p.zones):
            have = sum(z)
            if have < zi + 3:
                opts.append(1.6 - 0.1 * zi if have == 0 else 0.6 * (zi + 3 - have) / (zi + 3))
        if len(p.ma) < 3 and (d.ma_row or d.ma_deck):
            opts += [1.6 if len(p.ma) < 2 else 1.2] * (3 - len(p.ma))
        opts.sort(reverse=True)
        return sum(opts[:side])

    @staticmethod
    def feeds_silent(d: CrownData, colour: int, cast: int) -> float:
        """Practice Pond: how much casting `cast` bait of `colour` to the discard pile
        helps the silent player, who catches when its draw makes that colour's pile
        exactly 3 to 6 (so a pile of 2 to 5 is one draw from a fish, 6 or more is safe).
        Positive when the cast brings a pile into that range, negative when it pushes
        one past it; 0 in games with real rivals."""
        if not d.parties[-1].silent or not cast:
            return 0.0
        k = d.discard[colour]
        return float(2 <= k + cast <= 5) - float(2 <= k <= 5)

    def values(self, view: State[Any, Any], legal: Sequence[Action]) -> list[float]:
        d: CrownData = view.data
        seat = view.current
        p = d.parties[seat] if seat is not None and seat >= 0 else d.parties[0]
        return [self.value(d, p, a) for a in legal]

    def value(self, d: CrownData, p: Player, a: Action) -> float:
        rate = self._rates.get(type(a))
        return rate(self, d, p, a) if rate is not None else 0.0

    # One method per kind of action, looked up by type: a playout rates tens of
    # thousands of actions (a Lure alone comes in dozens), and a chain of
    # isinstance tests was a third of the search's time.
    def _cast(self, d: CrownData, p: Player, a: Place | Remove) -> float:
        s = SPACE_INDEX[a.space]
        colour, side = SPACE_COLOUR[s], (p.token if isinstance(a, Place) else d.tokens[s])
        v = self.cast_value(d, p, colour, side)
        silent = d.parties[-1]
        if colour < 0 or not silent.silent:
            return v
        cast = [1 if side == 1 else z[colour] for z in p.zones]
        v -= self.feeds_silent(d, colour, sum(c for c, z in zip(cast, p.zones) if z[colour]))
        emptied = sum(1 for c, z in zip(cast, p.zones) if z[colour] and sum(z) == c)
        # The silent player draws one bait instead of two while you have fewer fish:
        # drawing level with it speeds it to 12 fish, which ends the game on its clock
        # (worth less than a fish, unless the end has come anyway).
        if emptied and len(p.fish) < len(silent.fish) <= len(p.fish) + emptied and not d.end_triggered:
            v -= self.LEVEL_PENALTY
        return v

    def _fill(self, d: CrownData, p: Player, a: Fill) -> float:
        have = sum(p.zones[a.zone - 3])
        return (2.0 - 0.1 * a.zone) if have == 0 else 1.0 - have / a.zone

    def _take(self, d: CrownData, p: Player, a: Take | TakeTop) -> float:
        # With few cards in progress, cast bait is wasted on the discard pile.
        base = 1.6 if len(p.ma) < 2 else 1.0
        if isinstance(a, Take):
            colours_on_board = {c for z in p.zones for c in range(6) if z[c]}
            spots = self.T.ma_spots[a.card]
            v = base + 0.3 * sum(1 for c in spots if c in colours_on_board) - 0.2 * len(spots)
            if d.parties[-1].silent:
                v += self.MA_SET_BONUS * self.ma_set_gain(p, self.T.ma_species[a.card])
            return v
        return base - 0.1

    def ma_set_gain(self, p: Player, species: str) -> int:
        """1 if a card of `species` advances a 2-point Master Angler trophy still open to `p`:
        a new species toward Four Different, or the third of one toward Three Same."""
        have = [self.T.ma_species[c] for c in p.ma_done] + [self.T.ma_species[m.card] for m in p.ma]
        kinds = {t.kind for t in p.trophies}
        if species not in have:
            return int("four_different" not in kinds)
        return int(have.count(species) == 2 and "three_same" not in kinds)

    def _route(self, d: CrownData, p: Player, a: Route) -> float:
        m = next(m for m in p.ma if m.card == a.card)
        return 2.0 + len(m.filled) / len(self.T.ma_spots[a.card])

    def _discard(self, d: CrownData, p: Player, a: Discard) -> float:
        return -0.5 * self.feeds_silent(d, d.colour, 1)

    def _catch(self, d: CrownData, p: Player, a: Catch) -> float:
        f = d.zones[LOCATION_INDEX[a.loc]][a.at - 3]
        pend = next(x for x in d.pending if x.zone == a.zone)
        cost = (0.8 if LOCATION_INDEX[a.loc] != COLOUR_LOCATION[pend.colour] else 0) + (0.8 if a.at != a.zone else 0)
        return (self.fish_value(p, f.species) if f is not None else 0.0) - cost

    def _zone6(self, d: CrownData, p: Player, a: Zone6) -> float:
        pend = next(x for x in d.pending if x.zone == 6)
        f = d.tops[COLOUR_LOCATION[pend.colour]]
        return (self.fish_value(p, f.species) if f is not None else 0.0) - 0.1

    def _reel(self, d: CrownData, p: Player, a: Reel) -> float:
        c = COLOUR_INDEX[a.colour]
        zones = [list(z) for z in p.zones]
        zones[a.a - 3][c] -= 1
        zones[a.b - 3][c] -= 1
        emptied = sum(1 for z in {a.a, a.b} if not any(zones[z - 3]))
        return 1.5 * emptied - 0.5

    _rates: ClassVar[dict[type, Callable[[GreedyBot, CrownData, Player, Any], float]]] = {
        Place: _cast,
        Remove: _cast,
        Fill: _fill,
        Take: _take,
        TakeTop: _take,
        Route: _route,
        Discard: _discard,
        Catch: _catch,
        Zone6: _zone6,
        Reel: _reel,
        Lose: lambda self, d, p, a: -1.0,
        TakeTackle: lambda self, d, p, a: 1.0 if a.take else 0.0,
        Lure: lambda self, d, p, a: -0.5,
        Submit: lambda self, d, p, a: -a.rank,
        SilentDraws: lambda self, d, p, a: -a.n,
        WhiteOption: lambda self, d, p, a: 1.0 if a.choice == "bait" else 0.0,
    }
    """EndTurn, Skip and anything else are worth 0."""


def evaluate(state: State[Any, Any], anchor: tuple[int, ...]) -> list[float]:
    """Worth of a position to each seat: the win and the margin, from the score sheet.

    Crown scores most points at the end (trophies, challenges), so before the
    end the fish already caught and Master Angler spots filled stand in for them
    (a hand-made guess; :func:`evaluate_with` uses the evaluator's fitted one).
    """
    sc = state.scores()
    if sc.final:
        return score_values(sc, state.players, scale=6.0)
    # Cut off early: points so far, plus fish in the boat, which feed the
    # contests and challenges scored at the end.
    d: CrownData = state.data
    totals = [float(t) for t in sc.totals]
    for i, p in enumerate(d.parties[: len(totals)]):
        totals[i] += 0.7 * len(p.fish) + 0.5 * sum(len(m.filled) for m in p.ma)
    return score_values(sc, state.players, scale=6.0, totals=totals)


def cut_features(T: Tables) -> Callable[[State[Any, Any], int], list[float]]:
    """What a row of an unfinished (full) position is likely still to earn: the features of the
    evaluator's value at the cut (``evaluate.LinearCut``; weights fitted on greedy self-play
    by ``tests/bench/fit_evaluator.py --value``).

    Crown scores most at the end (contests, challenges, sets), so the points so far say
    little early: fish in the boat, their species and weight, Master Angler spots filled
    and cards held stand in for what they will bring, each also scaled by the share of the
    game still to play (``left``: the leading fish count against the 12 that end it).
    """

    def features(state: State[Any, Any], row: int) -> list[float]:
        d: CrownData = state.data
        p = d.parties[row]
        counts = [len(q.fish) for q in d.parties]
        left = 0.0 if d.end_triggered else max(0.0, 1.0 - max(counts) / 12)
        n = float(len(p.fish))
        kinds = float(len({f.species for f in p.fish}))
        ahead = n - max((c for i, c in enumerate(counts) if i != row), default=0)
        weight = sum(T.weight[f.card] for f in p.fish if f.card is not None) / 10
        filled = float(sum(len(m.filled) for m in p.ma))
        held = float(len(p.ma))
        score = float(sum(t.points for t in p.trophies) + len(p.ma_done))  # the sheet so far, bar tagged fish
        return [
            1.0,
            left,
            score,
            n,
            n * left,
            kinds,
            kinds * left,
            ahead,
            ahead * left,
            weight,
            filled,
            filled * left,
            held,
            held * left,
            float(len(p.tackle)),
        ]

    return features


def evaluate_with(cut: LinearCut) -> Evaluate:
    """The search's worth of a position, with the coach's evaluator's value at the cut (`cut`:
    each row's expected final total, fitted on self-play) where a playout stops early, so
    the hard bot and the review judge a cut playout alike; :func:`evaluate` where it has none."""

    def worth(state: State[Any, Any], anchor: tuple[int, ...]) -> list[float]:
        sc = state.scores()
        if not sc.final:
            totals = cut.totals(state)
            if totals is not None:
                return score_values(sc, state.players, scale=6.0, totals=totals)
        return evaluate(state, anchor)

    return worth
