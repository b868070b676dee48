"""The Shore, Lake and River contests at the end of the game.

Each seat picks one fish of every species it holds at the location. A species
with a single fish is submitted without asking (submitting never lowers a total,
a tag count or a tie-break). The picks are a simultaneous secret choice: views
blank other seats' picks until the contest resolves. ``Submit(species, rank)``
names a fish by its weight rank among the owner's fish of that species, so
``rank 1`` is always "the heaviest" and sorts first. The silent player submits
its heaviest fish. Ties go to the earliest single timestamp submitted there.
"""

from __future__ import annotations

from typing import cast

from .actions import Species, Submit
from .content import Tables
from .model import CONTEST_ORDER, LOCATIONS, CrownData, Fish, Pick, Player, Trophy


def location(d: CrownData) -> int:
    return CONTEST_ORDER[d.contest]


def ranked(T: Tables, fish: list[Fish]) -> list[Fish]:
    """Heaviest first, then earliest timestamp (a stable order for the owner)."""
    return sorted(fish, key=lambda f: (-T.weight[f.card], T.time[f.card], f.card) if f.card is not None else (0, 0, 0))


def species_counts(T: Tables, p: Player, li: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in p.fish:
        if T.species_location[f.species] == li:
            out[f.species] = out.get(f.species, 0) + 1
    return out


def choices(T: Tables, p: Player, li: int) -> int:
    """How many picks this party must make at location `li`."""
    if p.silent:
        return 0
    return sum(1 for n in species_counts(T, p, li).values() if n >= 2)


def next_picker(d: CrownData, T: Tables) -> int | None:
    li = location(d)
    for s in range(d.players):
        p = d.parties[s]
        if p.picks_made < choices(T, p, li):
            return s
    return None


def legal(d: CrownData, T: Tables, seat: int) -> list[Submit]:
    p = d.parties[seat]
    done = {k.species for k in p.picks}
    return [
        Submit(cast(Species, sp), r)
        for sp, n in species_counts(T, p, location(d)).items()
        if n >= 2 and sp not in done
        for r in range(1, n + 1)
    ]


def submit(d: CrownData, seat: int, a: Submit) -> None:
    p = d.parties[seat]
    p.picks.append(Pick(a.species, a.rank))
    p.picks_made += 1


def submission(T: Tables, p: Player, li: int) -> list[Fish]:
    picks = {k.species: k.rank for k in p.picks}
    out = []
    by_species: dict[str, list[Fish]] = {}
    for f in p.fish:
        if T.species_location[f.species] == li:
            by_species.setdefault(f.species, []).append(f)
    for sp, fish in by_species.items():
        out.append(ranked(T, fish)[picks.get(sp, 1) - 1])
    return out


def weight(T: Tables, p: Player, li: int) -> int | None:
    """The pounds `p` puts into the contest at location `li`: what it submitted there once that contest is
    over, else what it would submit now (its picks, the heaviest of every other species); None where a
    view does not show a weight that counts."""
    fish = [f for f in p.submitted if T.species_location.get(f.species) == li] or submission(T, p, li)
    cards = [f.card for f in fish]
    return None if None in cards else sum(T.weight[c] for c in cards if c is not None)


def resolve(d: CrownData, T: Tables) -> None:
    """Reveal the submissions, throw back the rest, award the trophies in order."""
    li = location(d)
    results = []
    for i, p in enumerate(d.parties):
        chosen = submission(T, p, li)
        ids = {id(f) for f in chosen}
        keep = []
        for f in p.fish:
            if T.species_location[f.species] != li:
                keep.append(f)
            elif id(f) not in ids:
                d.thrown.append(f)
        p.fish = keep
        for f in chosen:
            f.shown = True
        p.submitted += chosen
        p.picks = []
        p.picks_made = 0
        cards = [f.card for f in chosen if f.card is not None]
        if chosen and len(cards) == len(chosen):  # a view with blank cards cannot rank
            total = sum(T.weight[c] for c in cards)
            earliest = min(T.time[c] for c in cards)
            results.append((-total, earliest, i))
    results.sort()
    name = LOCATIONS[li]
    stack: list[int] = getattr(d.stacks, name)
    for _, _, i in results:
        if not stack:
            break
        d.parties[i].trophies.append(Trophy(name, stack.pop(0)))
    d.contest += 1
    if d.contest == 3:
        d.phase = "over"
