"""The greedy bot: scores each legal action with a quick heuristic and takes the best.

It recruits, builds (buys and conquers the best Location it can pay for),
raises toward fully risen, scores, claims Goals and recruits Tribes, and plays
Matrona when enough cards wait in the discard pile (always on its last turn,
when every returned Character is worth 1 PP). No search, no clones: a decision
costs one pass over ``legal()``, so thousands of games run in minutes. Ties go
to the first action in notation order; the Rng only breaks exact ties, so the
bot is deterministic given its Rng.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from coldwater.core.bots import GreedyBase
from coldwater.core.evaluate import LinearCut
from coldwater.core.notation import Action
from coldwater.core.search import Evaluate, score_values
from coldwater.core.state import State

from . import payment, solo
from .actions import (
    Buy,
    ClaimGoal,
    Conquer,
    Copy,
    Cut,
    End,
    Exploit,
    Flip,
    OppDiscard,
    OppFlip,
    PickKing,
    Place,
    Play,
    Raise,
    Recruit,
    RecruitTribe,
    Replay,
    Rise,
    Rival,
    Score,
    Scout,
    Skip,
    Spend,
    TakeBack,
    UseTribe,
)
from .content import Deck
from .delayed import pending
from .depths import resource_of as depth_resource
from .depths import top
from .mantas import effect as manta_effect
from .mantas import resource_of as manta_resource
from .model import LOC_TYPES, AqData, Eff
from .raise_ import find, remaining
from .scoring import row
from .tribes import cost as tribe_cost
from .tribes import place_options, spec

# Rough worth of one effect on a card played many times: read from the content so a
# person's own Kings are drafted by what they do, not by their number.
_CARD_WORTH = {
    "coins": 1.0,
    "power": 1.0,
    "tpower": 0.3,
    "raise": 0.6,
    "score": 2.0,
    "fully_rise": 2.0,
    "free_recruit": 2.0,
    "take_back": 1.0,
    "ready": 1.0,
    "scout": 0.3,
    "opp_flip": 0.5,
    "opp_discard": 0.5,
    "copy": 1.0,
}
WILD_MANTA_WORTH = 3.0
"""A King discarded at setup gives a Wild Manta instead."""


def king_worth(k: Deck, number: int) -> float:
    """How much the greedy bot wants a King in the advanced draft."""
    c = k.king_id(number)
    if k.king_discard[c]:
        return WILD_MANTA_WORTH
    return sum(_CARD_WORTH.get(e.op, 0.0) * (e.n or 1) for e in (*k.char_effs[c], *k.char_delayed[c]))


class GreedyBot(GreedyBase):
    def values(self, view: State[Any, Any], legal: Sequence[Action]) -> list[float]:
        seat = view.current
        assert seat is not None and seat >= 0  # bots are asked only on a seat's turn
        ev = _Eval(view.data, view.deck, seat, view.ply)  # type: ignore[attr-defined]
        return [ev.value(a) for a in legal]


def evaluate(state: State[Any, Any], anchor: tuple[int, ...]) -> list[float]:
    """Worth of a position to each seat, for the search.

    Solo games are scored on a fixed scale, so the worth is measured on it, not
    around where the search began (a sigmoid around the root's few PP saturated:
    every whole-game playout ended 40+ PP above it and looked alike). Base solo:
    PP, with a step at each title (the player's goal is the next title, the Kraken
    at 91). Tribes Solo is won by recruiting every Tribe, so the win and the share
    of Tribes recruited count most, then PP (level 6 also counts PP). With rivals,
    the win and the margin in PP.
    """
    d: AqData = state.data
    sc = state.scores()
    if d.players == 1:
        pp = sc.totals[0]
        by_pp = min(1.0, max(0.0, pp / SOLO_PP_SCALE))
        if d.module == "tribes" and d.solo_level:
            share = sum(1 for t in d.tribes if t in d.ps[0].tribes) / max(1, len(d.tribes))
            won = 1.0 if share >= 1.0 else 0.0
            return [0.3 * won + 0.55 * share + 0.15 * by_pp]
        titles = sum(1 for top, _ in solo.TITLES if pp > top)
        return [0.8 * by_pp + 0.2 * titles / len(solo.TITLES)]
    return score_values(sc, d.players, scale=5.0)


def evaluate_with(cut: LinearCut) -> Evaluate:
    """The search's worth of a position, with the coach's evaluator's value at the cut (`cut`:
    each seat's expected final PP, fitted on self-play) where a playout stops early, so the
    hard bot and the review judge a cut playout alike. A solo game has no such value (its
    goal is a title or a condition, not a margin): an unfinished one gets None and the search
    plays it to the end, where :func:`evaluate` judges it by that goal."""

    def worth(state: State[Any, Any], anchor: tuple[int, ...]) -> list[float] | None:
        sc = state.scores()
        if sc.final:
            return evaluate(state, anchor)
        totals = cut.totals(state)
        return None if totals is None else score_values(sc, state.players, scale=5.0, totals=totals)

    return worth


SOLO_PP_SCALE = 130.0
"""PP that count as a full solo reward: well above the Kraken's 91, so the best games
still differ."""


class _Eval:
    def __init__(self, d: AqData, k: Deck, seat: int, ply: int = 0) -> None:
        self.d, self.k, self.seat = d, k, seat
        # Tempo: the longer the game, the more scouting and recruiting (which run
        # the decks down) are worth, so no loop of ready/take-back can stall it.
        self.tempo = ply / 600  # unbounded: in the end it beats every other estimate
        self.p = d.ps[seat]
        self.last_turn = d.final_left > 0 or d.trigger
        # Every Play in one pass over legal() asks the same questions of the same
        # position: asked once, the greedy policy (most of a playout's time) runs ~2x faster.
        self._pots: dict[str, int] = {}
        self._pending: list[Eff] | None = None

    # ---- values of things ---------------------------------------------------
    def loc_value(self, x: int) -> float:
        k = self.k
        return k.loc_pp[x] + (1.5 if k.loc_manta[x] else 0.0) - 0.45 * len(k.loc_depths[x]) + 1.0

    def char_value(self, c: int) -> float:
        if c < 0:
            return 2.0
        return 2.0 + 0.5 * len(self.k.char_effs[c]) + 0.5 * len(self.k.char_delayed[c])

    def eff_value(self, e: Eff, src: int = -1) -> float:
        d, k, p = self.d, self.k, self.p
        op = e.op
        if op == "score":
            pps = [k.loc_pp[loc.id] for loc in p.board if loc.risen and loc.id != src]
            return 4.0 + max(pps) if pps else 0.0
        if op == "raise":
            rems = [remaining(k, loc) for loc in p.board if not loc.risen and loc.id != src]
            if not rems:
                return 0.0
            return 2.5 if min(rems) <= e.n else 0.6 * e.n
        if op == "fully_rise":
            return 3.0 if any(not loc.risen and loc.id != src for loc in p.board) else 0.0
        if op == "take_back":
            return 1.5 if p.discard else 0.0
        if op == "free_recruit":
            return 3.0 if d.char_row else 0.0
        if op == "ready":
            return 0.7 * sum(1 for m in p.mantas if not m.ready and not m.placed)
        if op in ("opp_flip", "opp_discard"):
            return 0.4 * (d.players - 1)
        if op == "copy":
            return 1.5
        if op == "wild_manta":
            return 2.0
        return 0.0

    def potential(self, res: str) -> int:
        return payment.achievable(self.d, self.k, res) if self.d.phase == "main" else self._pot(res)

    def _pot(self, res: str) -> int:
        v = self._pots.get(res)
        if v is None:
            k = self.k
            v = self._pots[res] = sum(manta_resource(k, m, res, -1) for m in self.p.mantas) + sum(
                depth_resource(k, loc, res, -1) for loc in self.p.board if not loc.risen
            )
        return v

    def play_value(self, c: int) -> float:
        d, k, p = self.d, self.k, self.p
        if self._pending is None:
            self._pending = list(pending(d, k, self.seat))
        effs = self._pending + list(k.char_effs[c])
        coins = self._pot("c")
        power = self._pot("p")
        free = 5 - len(p.board)
        risen = [k.loc_pp[loc.id] for loc in p.board if loc.risen]
        rems = sorted(remaining(k, loc) for loc in p.board if not loc.risen)
        offered = d.loc_top + d.loc_bottom
        taken: set[int] = set()
        typed = [0] * len(LOC_TYPES)
        v = 0.0
        for e in effs:
            op = e.op
            if op == "coins":
                coins += e.n
            elif op == "power":
                power += e.n
            elif op == "tpower":
                typed[LOC_TYPES.index(e.t)] += e.n
            elif op in ("buy", "conquer"):
                if free <= 0:
                    continue
                best, cost_b = 0.0, 0
                for x in offered:
                    if x in taken:
                        continue
                    cost = k.loc_coins[x] if op == "buy" else max(0, k.loc_power[x] - (x in d.loc_top))
                    have = coins if op == "buy" else power + typed[k.loc_type[x]]
                    if cost <= have and self.loc_value(x) > best:
                        best, cost_b, bx = self.loc_value(x), cost, x
                if best > 0:
                    v += best + 1.0
                    free -= 1
                    taken.add(bx)
                    if op == "buy":
                        coins -= cost_b
                    else:
                        t = k.loc_type[bx]
                        use = min(typed[t], cost_b)
                        typed[t] -= use
                        power -= cost_b - use
            elif op == "recruit":
                n = min(len(d.char_row) - 1, coins)
                if d.module == "tribes" and self._tribe_affordable(coins):
                    v += 5.0 if d.solo_level else 3.5
                elif n >= 0:
                    v += 2.5 - 0.1 * n + self.tempo
            elif op == "free_recruit":
                v += 3.0
            elif op == "scout":
                v += 0.3 + self.tempo
            elif op == "raise":
                if rems:
                    v += 0.6 * min(e.n, sum(rems))
                    if rems[0] <= e.n:
                        v += 1.5
                        risen.append(3)
                        rems.pop(0)
            elif op == "score":
                if risen:
                    v += 4.0 + max(risen)
                    risen.remove(max(risen))
                    free += 1
            elif op == "fully_rise":
                if rems:
                    rems.pop()
                    risen.append(3)
                    v += 2.0
            elif op == "take_back":
                v += 1.5 if p.discard else 0.0
            elif op == "ready":
                v += 0.7 * sum(1 for m in p.mantas if not m.ready and not m.placed)
            elif op == "matrona":
                back = len(p.discard)
                tired = sum(1 for m in p.mantas if not m.ready and not m.placed)
                v += 2.0 * back if self.last_turn else 0.75 * back + 0.5 * tired - 1.5
            elif op in ("opp_flip", "opp_discard"):
                v += 0.3 * (d.players - 1)
            elif op == "replay":
                v += max(
                    (
                        self.play_value(x) * 0.8
                        for x in set(p.discard)
                        if x >= 0 and not any(y.op in ("replay", "matrona") for y in k.char_effs[x])
                    ),
                    default=0.0,
                )
        if self.last_turn and not any(e.op == "matrona" for e in effs):
            v -= 1.0  # the card leaves the hand: 1 PP less at the end
        return v

    def _tribe_affordable(self, coins: int) -> bool:
        d = self.d
        if not place_options(d, self.seat):
            return False
        have = coins + (sum(payment.spend_value(d, self.k, x) for x in self.p.scored) if payment.can_spend(d) else 0)
        return any(t not in self.p.tribes and tribe_cost(d, self.k, t, self.seat) <= have for t in d.tribes)

    def tribe_value(self, t: int) -> float:
        d, k = self.d, self.k
        sp = spec(k, t)
        if d.solo_level:
            return 20.0 - tribe_cost(d, k, t, self.seat)
        base = sp.pp + 2.5 if sp.tier == 1 else 4.0
        return base + 1.0 - 0.3 * tribe_cost(d, k, t, self.seat)

    # ---- the action ---------------------------------------------------------
    def value(self, a: Action) -> float:
        d, k, p = self.d, self.k, self.p
        if isinstance(a, PickKing):
            return king_worth(k, a.number)
        if isinstance(a, Rival):
            return 10.0 if a.goal in p.goals else -len(d.tracks[a.goal])
        if isinstance(a, OppFlip):
            e = manta_effect(k, p.mantas[a.manta])
            return -(e.n if e.op in ("coins", "power") else 2.0)
        if isinstance(a, OppDiscard):
            return -self.char_value(a.card) - (3.0 if k.is_king(a.card) else 0.0)
        if d.pay is not None:
            if isinstance(a, Flip):
                return 3.0
            if isinstance(a, Exploit):
                return 4.0
            if isinstance(a, UseTribe):
                return 2.0
            if isinstance(a, Spend):
                return -float(k.loc_pp[a.loc])
        if isinstance(a, Place):
            if a.manta < 0:
                return 0.5
            m = p.mantas[a.manta]
            return 1.0 + (1.0 if not m.ready else 0.0) + (0.5 if m.wild < 0 else 0.0)
        if isinstance(a, Cut):
            return -self.loc_value(a.loc)
        if isinstance(a, Skip):
            return 0.0
        if isinstance(a, Recruit):
            free = bool(d.stack and d.stack[-1].effs and d.stack[-1].effs[0].op == "free_recruit")
            c = d.char_row[a.slot]
            return self.char_value(c) - (0.0 if free else 0.35 * a.slot) + self.tempo
        if isinstance(a, RecruitTribe):
            return self.tribe_value(a.tribe)
        if isinstance(a, (Buy, Conquer)):
            return self.loc_value(a.loc) + 1.0
        if isinstance(a, Raise):
            loc = find(d, self.seat, a.loc)
            assert loc is not None
            rem = remaining(k, loc)
            return (3.0 + 0.3 * k.loc_pp[a.loc] if a.by >= rem else 0.0) + 0.9 * a.by - 0.05 * rem
        if isinstance(a, Score):
            return 5.0 + k.loc_pp[a.loc]
        if isinstance(a, Scout):
            # Worth it when the rows offer little to this player.
            offered = d.loc_top + d.loc_bottom
            return (1.0 if not offered or max(self.loc_value(x) for x in offered) < 4 else 0.3) + self.tempo
        if isinstance(a, TakeBack):
            return self.char_value(a.card)
        if isinstance(a, Rise):
            loc = find(d, self.seat, a.loc)
            assert loc is not None
            return remaining(k, loc) + 0.3 * k.loc_pp[a.loc]
        if isinstance(a, Copy):
            return self.eff_value(k.loc_depths[a.loc][a.depth])
        if isinstance(a, Replay):
            return self.play_value(a.card)
        if isinstance(a, ClaimGoal):
            m = p.mantas[a.manta]
            return 100.0 + (1.0 if not m.ready else 0.0) + (0.5 if manta_effect(k, m).op == "raise" else 0.0)
        if isinstance(a, Play):
            return self.play_value(a.card)
        if isinstance(a, End):
            return 0.2
        if isinstance(a, Flip):
            m = p.mantas[a.manta]
            return self.eff_value(manta_effect(k, m)) - 0.5
        if isinstance(a, Exploit):
            loc = find(d, self.seat, a.loc)
            xe = top(k, loc) if loc else None
            return (self.eff_value(xe, a.loc) if xe else 0.0) + 0.5
        if isinstance(a, UseTribe):
            te = spec(k, a.tribe).ongoing
            return self.eff_value(te) if te else 0.0
        return 0.0


def cut_features(k: Deck) -> Callable[[State[Any, Any], int], list[float]]:
    """What a seat of an unfinished (full) position is likely still to earn: the features of
    the evaluator's value at the cut (``evaluate.LinearCut``; weights fitted on greedy
    self-play by ``tests/bench/fit_evaluator.py --value``).

    The PP so far, and what is still to be scored: the Locations on the board (their PP,
    how many have risen, the Depths still to cover), the hand and Mantas that will score
    them, each also scaled by how much of the game is left (``left``: the shorter of the
    Location and Character decks against 30 cards, 0 once the end is triggered).
    """

    def features(state: State[Any, Any], seat: int) -> list[float]:
        d: AqData = state.data
        p = d.ps[seat]
        left = 0.0 if d.trigger else min(1.0, min(len(d.loc_deck), len(d.char_deck)) / 30)
        board = float(sum(k.loc_pp[loc.id] for loc in p.board))
        risen = float(sum(k.loc_pp[loc.id] for loc in p.board if loc.risen))
        depths = float(sum(remaining(k, loc) for loc in p.board if not loc.risen))
        cards = float(len(p.hand) + len(p.discard))
        mantas = float(len(p.mantas))
        return [
            1.0,
            left,
            float(sum(row(d, k, seat))),
            board,
            board * left,
            risen,
            depths,
            depths * left,
            cards,
            cards * left,
            float(len(p.hand)),
            mantas,
            mantas * left,
            float(len(p.goals)),
            float(len(p.tribes)),
        ]

    return features
