"""A referee for views that advance themselves (the engine hooks of docs/fairplay.md).

A full state plays a whole game as the referee. Every seat holds only its own
view and advances it itself: a player's action as it is (public), a chance
outcome as that seat may know it (``seen_outcome``), and before an action the
values ``opens`` says are opened to it, taken from the referee. After every ply
each view must be exactly ``full.view(seat)``, and its public projection the
referee's; at no moment may a view hold a value the referee says it may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, EVERYONE, Opening, Slot

Visible = Callable[[Any], dict[Slot, object]]
"""Every sealed slot of a position with the value it shows there (blanks left out)."""
Where = Callable[[Slot], Slot]
"""The slot `visible` lists a value under, for a slot `opens` names (a game may name one place two ways)."""


def _deliver(
    full: Any, views: list[Any], o: Opening, got: list[dict[Slot, object]], where: Where, counts: dict[str, int]
) -> None:
    kind = f"{o.slot[0]} to {'all' if o.to == EVERYONE else 'one'}"
    counts[kind] = counts.get(kind, 0) + 1
    value = full.sealed_value(o.slot)
    assert value is not None, f"{o} opens a slot the referee has blank"
    for r, v in enumerate(views):
        if o.to in (r, EVERYONE):
            v.reveal(o.slot, value)
            got[r][where(o.slot)] = value


def _no_leak(views: list[Any], allowed: list[dict[Slot, object]], visible: Visible) -> None:
    for s, v in enumerate(views):
        for slot, value in visible(v).items():
            assert allowed[s].get(slot) == value, f"seat {s} holds {value!r} at {slot} before the rules show it"


def step(
    full: Any,
    views: list[Any],
    action: Any,
    visible: Visible,
    *,
    where: Where = lambda slot: slot,
    counts: dict[str, int],
) -> None:
    """One ply under the referee: `action` (a chance outcome of `full`, or the current seat's move)."""
    players = len(views)
    got: list[dict[Slot, object]] = [dict(visible(full.view(s))) for s in range(players)]
    if full.current == CHANCE:
        for s, v in enumerate(views):
            seen = full.seen_outcome(action, s)
            if seen != full.seen_outcome(action, None):
                counts["private_draws"] = counts.get("private_draws", 0) + 1
            v.apply_seen(seen, s)
        full.apply(action)
    else:
        told = [v.opens(action, s) for s, v in enumerate(views)]
        for s, t in enumerate(told):
            for o in t.named:  # a seat names only what it holds
                assert views[s].sealed_value(o.slot) == full.sealed_value(o.slot), f"seat {s} names {o}"
        assert all(t.public == told[0].public and t.namers == told[0].namers for t in told), (
            f"views disagree on what {action} opens: {told}"
        )
        assert all(not t.named for s, t in enumerate(told) if s not in told[0].namers)
        for o in told[0].public:
            _deliver(full, views, o, got, where, counts)
            counts["opened"] = counts.get("opened", 0) + 1
        _no_leak(views, got, visible)
        # The seats whose sealed values decide more openings name them, all at once.
        named = [o for namer in told[0].namers for o in views[namer].opens(action, namer).named]
        for o in named:
            _deliver(full, views, o, got, where, counts)
            counts["named"] = counts.get("named", 0) + 1
        _no_leak(views, got, visible)
        for s, v in enumerate(views):
            v.apply_seen(action, s)
        full.apply(action)
    counts["plies"] = counts.get("plies", 0) + 1
    public = full.view(None).digest()
    for s, v in enumerate(views):
        assert v.ply == full.ply
        assert v.digest() == full.view(s).digest(), f"seat {s}'s own view differs from the referee's at ply {full.ply}"
        assert v.view(None).digest() == public
    _no_leak(views, [visible(full.view(s)) for s in range(players)], visible)


def play(
    name: str,
    players: int,
    seed: str,
    visible: Visible,
    *,
    where: Where = lambda slot: slot,
    options: Any = None,
    bots: tuple[str, ...] = ("greedy", "random"),
) -> dict[str, int]:
    """Play one whole game under the referee; returns counts of what was checked (to assert coverage):
    plies, openings (``opened`` public, ``named`` by a seat, and per slot kind and reach, e.g.
    ``"zones to one"``) and chance outcomes some seat saw differently from the public."""
    game = games.get(name)
    full = game.new(players, seed=seed, options=options)
    rng = Rng(f"self-views/{seed}")
    players_bots = [game.bot(bots[i % len(bots)]) for i in range(players)]
    views = [full.view(s) for s in range(players)]
    counts = {"plies": 0, "opened": 0, "named": 0, "private_draws": 0}
    while full.current is not None:
        cur = full.current
        if cur == CHANCE:
            action = full.sample_chance()
        else:
            action = players_bots[cur].choose(full.view(cur), rng.fork(full.ply))
        step(full, views, action, visible, where=where, counts=counts)
    return counts
