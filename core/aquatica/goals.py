"""The Goals module: 4 goal tracks, printed or variable Goal tokens.

Whenever on your turn (before or after your Main Action) you meet a Goal's
condition you may place one of your Trained Mantas (ready or tired; it is then
retired) on the first free spot of its track; once per Goal per player. Spots
score by order of arrival (``goals.json`` ``spots``: 5, 4, 3, 2, 1). Claiming
all 4 Goals triggers the end of the game.
"""

from __future__ import annotations

from .actions import AqAction, ClaimGoal
from .content import Deck
from .endgame import trigger
from .mantas import wild_count
from .model import LOC_TYPES, AqData


def count(d: AqData, k: Deck, seat: int, cond: str) -> int:
    p = d.ps[seat]
    if cond == "hand":
        return len(p.hand)
    if cond == "board":
        return len(p.board)
    if cond == "scored":
        return len(p.scored)
    if cond == "wild":
        return wild_count(d, seat)
    if cond == "locs":
        return len(p.board) + len(p.scored)
    if cond == "scored_pp":
        return sum(k.loc_pp[x] for x in p.scored)
    if cond == "discard_all_but":
        # "every Character discarded but one": compared as hand size <= n
        return -len(p.hand)
    if cond == "scored_types":
        return len({k.loc_type[x] for x in p.scored})
    if cond == "one_type":
        ids = [loc.id for loc in p.board] + p.scored
        return max((sum(1 for x in ids if k.loc_type[x] == t) for t in range(len(LOC_TYPES))), default=0)
    if cond == "discard":
        return len(p.discard)
    if cond == "conquer_chars":
        cards = [c for c in p.hand + p.discard if c >= 0]
        return sum(1 for c in cards if any(e.op == "conquer" for e in k.char_effs[c]))
    if cond == "risen":
        return sum(1 for loc in p.board if loc.risen)
    if cond == "recruited_cost":
        return p.recruited_cost
    if cond == "ocean_hand":
        return sum(1 for c in p.hand if k.is_ocean(c) or c == -1)
    if cond == "board_pp_distinct":
        return len({k.loc_pp[loc.id] for loc in p.board})
    if cond == "board_open_distinct":
        return len({len(k.loc_depths[loc.id]) - loc.pos for loc in p.board})
    if cond == "scored_low":
        return sum(1 for x in p.scored if k.loc_pp[x] <= 3)
    if cond.startswith("type_total:"):
        t = LOC_TYPES.index(cond[11:])
        return sum(1 for x in [loc.id for loc in p.board] + p.scored if k.loc_type[x] == t)
    raise AssertionError(f"unknown goal condition {cond}")


def met(d: AqData, k: Deck, seat: int, g: int) -> bool:
    spec = k.goals[g]
    if spec.cond == "discard_all_but":
        # Matrona never leaves the hand, so "all but one" is the hand holding 1.
        return len(d.ps[seat].hand) <= spec.n
    return count(d, k, seat, spec.cond) >= spec.n


def options(d: AqData, k: Deck, seat: int) -> list[AqAction]:
    if d.module != "goals":
        return []
    p = d.ps[seat]
    free = [i for i, m in enumerate(p.mantas) if m.wild < 0 and not m.placed]
    if not free:
        return []
    out: list[AqAction] = []
    for pos, g in enumerate(d.goals):
        if pos in p.goals or len(d.tracks[pos]) >= len(k.spots):
            continue
        if met(d, k, seat, g):
            out += [ClaimGoal(pos, m) for m in free]
    return out


def claim(d: AqData, seat: int, pos: int, manta: int) -> None:
    p = d.ps[seat]
    p.mantas[manta].placed = True
    p.goals.append(pos)
    d.tracks[pos].append(seat)
    if len(p.goals) == len(d.goals):
        trigger(d)


def points(d: AqData, k: Deck, seat: int) -> int:
    total = 0
    for track in d.tracks:
        for i, s in enumerate(track):
            if s == seat:
                total += k.spots[i] if i < len(k.spots) else 0
    return total
