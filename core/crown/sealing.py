"""A Coldwater Crown view that advances itself, for a dealer nobody sees through.

At such a table (docs/fairplay.md) no process holds the full state: each seat
keeps its own view and advances it from the public actions, the chance outcomes
as it may know them (``reveal lake perch`` with no card; ``draw`` with no kind,
or ``draw lure`` for the drawer) and the values opened to it. This module is
that step, plus the two things the session needs to know which values to open:

- **slots**: where a sealed value sits, as a path every peer computes from its
  own view: ``("zones", loc, zone - 3)`` and ``("tops", loc)`` for a fish on the
  board, ``("fish", seat, i)`` for the i-th fish a party holds, ``("submit",
  seat, i)`` for that fish submitted to the running contest, ``("thrown", i)``
  for a fish thrown back, ``("tackle", seat, i)`` for a held tackle piece. A fish
  slot holds a card id; a tackle slot a kind.
- :func:`opens`: which slots a player's action opens to whom. Most follow from the
  public record (a catch opens the fish to the catcher); some depend on values
  only one seat holds (whether a caught fish wins the Mystery Weight; which fish
  a seat submits; which held piece it plays), and only that seat's view names
  them. They are found by playing the action on a copy of the view and watching
  which fish turn face up and which pieces leave a hand, so the rules are not
  restated here.

The rules code is unchanged: a view applies actions exactly as the full state
does, and afterwards forgets what its seat may not know (another seat's contest
picks, which travel in the public actions).
"""

from __future__ import annotations

from collections.abc import Callable

from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE, EVERYONE, Opening, Openings, Slot

from .actions import Catch, CrownAction, Lure, Reel, Reveal, Submit, TackleDraw, Zone6
from .content import Tables
from .contests import ranked
from .model import COLOUR_LOCATION, LOCATION_INDEX, TACKLE_COUNTS, TACKLE_KINDS, CrownData, Fish, Pick, Tackle
from .views import copy, redact

# ---- finding slots -------------------------------------------------------------------


def _index(x: object, n: int, what: str) -> int:
    if type(x) is not int or not 0 <= x < n:
        raise IllegalAction(f"no {what} {x!r} here")
    return x


def _party(d: CrownData, x: object) -> int:
    return _index(x, d.players, "seat")


def _fish_at(d: CrownData, slot: object) -> Fish:
    """The fish a fish slot names in `d` (IllegalAction if there is none)."""
    if not isinstance(slot, tuple) or not slot:
        raise IllegalAction(f"{slot!r} is not a slot")
    kind, args = slot[0], slot[1:]
    f: Fish | None = None
    if kind == "zones" and len(args) == 2:
        f = d.zones[_index(args[0], 3, "location")][_index(args[1], 4, "Zone")]
    elif kind == "tops" and len(args) == 1:
        f = d.tops[_index(args[0], 3, "location")]
    elif kind in ("fish", "submit") and len(args) == 2:
        fish = d.parties[_party(d, args[0])].fish
        f = fish[_index(args[1], len(fish), "held fish")]
    elif kind == "thrown" and len(args) == 1:
        f = d.thrown[_index(args[0], len(d.thrown), "thrown-back fish")]
    else:
        raise IllegalAction(f"{slot!r} is not a fish slot")
    if f is None:
        raise IllegalAction(f"no fish at {slot!r}")
    return f


def _tackle_at(d: CrownData, slot: object) -> Tackle:
    if not (isinstance(slot, tuple) and len(slot) == 3 and slot[0] == "tackle"):
        raise IllegalAction(f"{slot!r} is not a tackle slot")
    held = d.parties[_party(d, slot[1])].tackle
    return held[_index(slot[2], len(held), "held tackle piece")]


def sealed_value(d: CrownData, slot: object) -> int | str | None:
    """The card id or tackle kind in `slot` (None where `d` has it blank)."""
    if isinstance(slot, tuple) and slot and slot[0] == "tackle":
        return _tackle_at(d, slot).kind
    return _fish_at(d, slot).card


def _all_fish(d: CrownData) -> list[Fish]:
    out = [f for row in d.zones for f in row if f is not None] + [f for f in d.tops if f is not None]
    out += [f for deck in d.decks for f in deck] + d.thrown
    for p in d.parties:
        out += p.fish + p.submitted
    return out


# ---- writing an opened value ------------------------------------------------------------


def reveal(d: CrownData, T: Tables, slot: object, value: object) -> None:
    """Write `value` into the sealed `slot` of view `d`; IllegalAction (changing nothing) if it cannot hold it."""
    if isinstance(slot, tuple) and slot and slot[0] == "tackle":
        piece = _tackle_at(d, slot)
        if not isinstance(value, str) or value not in TACKLE_KINDS:
            raise IllegalAction(f"{value!r} is not a tackle piece")
        if piece.kind is not None:
            if piece.kind != value:
                raise IllegalAction(f"the piece at {slot!r} is a {piece.kind}, not a {value}")
            return
        known = sum(1 for p in d.parties for t in p.tackle if t.kind == value) + d.tackle_discard.count(value)
        if known >= TACKLE_COUNTS[value]:
            raise IllegalAction(f"every {value} is accounted for already")
        piece.kind = value
        return
    f = _fish_at(d, slot)
    if type(value) is not int or not 1 <= value < len(T.weight):
        raise IllegalAction(f"{value!r} is not a fish card")
    if T.species_of[value] != f.species:
        raise IllegalAction(f"card {value} is a {T.species_of[value]}, not a {f.species}")
    if f.card is not None and f.card != value:
        raise IllegalAction(f"the fish at {slot!r} is card {f.card}, not card {value}")
    if f.card is None and any(g.card == value for g in _all_fish(d)):
        raise IllegalAction(f"card {value} is elsewhere already")
    if isinstance(slot, tuple) and slot[0] in ("fish", "submit"):  # _fish_at checked its shape
        _write_held(d, T, _party(d, slot[1]), f, value, submitted=slot[0] == "submit")
    else:
        f.card = value


def _write_held(d: CrownData, T: Tables, seat: int, f: Fish, card: int, *, submitted: bool) -> None:
    """Write a held fish's card, keeping the seat's pick (by weight rank) on the fish it chose.

    Another seat's picks are blank in a view, so before a contest resolves the
    fish that seat submits is written with a pick naming it; a card written later
    may move it in the weight order, so the pick follows it.
    """
    p = d.parties[seat]
    same = [g for g in p.fish if g.species == f.species]
    picks = {k.species: k for k in p.picks}
    chosen: Fish | None = f if submitted else None
    if chosen is None and f.species in picks:
        order = ranked(T, same)
        chosen = order[picks[f.species].rank - 1] if picks[f.species].rank <= len(order) else None
    f.card = card
    if chosen is not None:
        rank = next(i for i, g in enumerate(ranked(T, same)) if g is chosen) + 1
        if f.species in picks:
            picks[f.species].rank = rank
        else:
            p.picks.append(Pick(f.species, rank))


# ---- what an action opens -------------------------------------------------------------------


def opens(before: CrownData, action: CrownAction, seat: int | None, play: Callable[[CrownData], None]) -> Openings:
    """What `action` opens, as `seat`'s view `before` can tell.

    `play` applies the action to a copy: the rules move fish and pieces, never
    copy them, so an object's identity tells where it went and whether it turned
    face up, and nothing here restates when that happens.
    """
    actor = before.cur
    if actor is None or actor < 0:
        raise IllegalAction("only a player's action opens sealed values")
    c = copy(before)
    board: list[tuple[Fish, Slot]] = [
        (f, ("zones", li, zi)) for li, row in enumerate(c.zones) for zi, f in enumerate(row) if f is not None
    ]
    board += [(f, ("tops", li)) for li, f in enumerate(c.tops) if f is not None]
    board = [(f, path) for f, path in board if not f.shown]
    held = [list(enumerate(p.fish)) for p in c.parties]
    pieces = list(enumerate(c.parties[actor].tackle))
    play(c)
    public: list[Opening] = []
    named: list[tuple[int, Opening]] = []  # (the seat that names it, the opening)
    namers: set[int] = set()
    if isinstance(action, Catch):
        public.append(Opening(("zones", LOCATION_INDEX[action.loc], action.at - 3), actor))
    elif isinstance(action, Zone6):
        pend = next(p for p in before.pending if p.zone == 6)
        public.append(Opening(("tops", COLOUR_LOCATION[pend.colour]), actor))
    if isinstance(action, (Catch, Zone6)) and before.mw_top is not None and not before.mw_claimed:
        namers.add(actor)  # only the catcher can tell whether its fish wins the Mystery Weight
    # A fish from the board that turned face up: the catcher shows it for the Mystery Weight.
    named += [(actor, Opening(path, EVERYONE)) for f, path in board if f.shown]
    over = c.phase == "over" and before.phase != "over"
    if over:
        public += [Opening(("thrown", i), EVERYONE) for i in range(len(before.thrown))]
    for s, (p, q) in enumerate(zip(before.parties, c.parties)):
        if p.silent:
            continue  # the silent player's fish are public
        if len(q.fish) < len(p.fish):
            namers.add(s)  # a contest resolved: which fish it submits is the seat's to say
        submitted = {id(f) for f in q.submitted}
        for i, f in held[s]:
            if id(f) in submitted:
                # Even a fish shown already (a Mystery Weight): others learn it is the one submitted.
                named.append((s, Opening(("submit", s, i), EVERYONE)))
            elif over and not f.shown:
                named.append((s, Opening(("fish", s, i), EVERYONE)))  # thrown back at the end: it shows
    # Held tackle played (a Reel, a Lure, a Rod or a Line while catching): its holder shows it.
    kept = {id(t) for t in c.parties[actor].tackle}
    for i, t in pieces:
        if id(t) not in kept:
            namers.add(actor)
            if t.kind is not None:
                named.append((actor, Opening(("tackle", actor, i), EVERYONE)))
    mine = tuple(o for who, o in named if who == seat)
    return Openings(tuple(public), mine, tuple(sorted(namers)))


def tackle_played(d: CrownData, action: CrownAction) -> list[str]:
    """The tackle kinds `action` plays, read from the action and the public position."""
    if isinstance(action, Reel):
        return ["reel"]
    if isinstance(action, Lure):
        return ["lure"]
    if isinstance(action, Catch):
        pend = next((p for p in d.pending if p.zone == action.zone), None)
        if pend is None:
            return []
        out = ["rod"] if LOCATION_INDEX[action.loc] != COLOUR_LOCATION[pend.colour] else []
        return out + (["line"] if action.at != action.zone else [])
    return []


def with_pieces(d: CrownData, kinds: list[str]) -> CrownData | None:
    """A copy of another seat's view `d` in which the acting seat's first blank
    playable pieces are `kinds` (None if it holds too few): the action that plays
    them, not legal on a view that cannot see them, can then be followed."""
    if d.cur is None or d.cur < 0:
        return None
    c = copy(d)
    blank = [t for t in c.parties[d.cur].tackle if t.kind is None and not t.fresh]
    if len(blank) < len(kinds):
        return None
    for t, k in zip(blank, kinds):
        t.kind = k
    return c


def heard(d: CrownData, action: CrownAction) -> CrownAction:
    """`action` as view `d` applies it, taking back a pick a contest reveal placed (changes `d`).

    A seat's ``submit pike 2`` ranks the fish by weights only it knows; another
    seat's view, shown which fish it submits (a ``submit`` slot), holds a pick
    naming that fish by this view's own order, and applies the submission as that.
    """
    if not isinstance(action, Submit) or d.cur is None or d.cur < 0:
        return action
    p = d.parties[d.cur]
    k = next((k for k in p.picks if k.species == action.species), None)
    if k is None:
        return action
    p.picks.remove(k)
    return Submit(action.species, k.rank)


# ---- the chance step as a seat knows it ---------------------------------------------------------


def seen_outcome(d: CrownData, outcome: CrownAction, seat: int | None) -> CrownAction:
    """At a chance node of the full state `d`: `outcome` as `seat` may know it."""
    if isinstance(outcome, Reveal):
        return Reveal(outcome.loc, outcome.species, None)  # the species shows; the card is nobody's
    if isinstance(outcome, TackleDraw) and (seat is None or seat != d.tasks[0].seat):
        return TackleDraw(None)
    return outcome


def check_seen(d: CrownData, action: CrownAction, seat: int | None) -> TackleDraw | None:
    """Refuse a chance outcome `seat` may not know; for a drawn piece it may see, the blank draw to apply."""
    if d.cur != CHANCE:
        return None
    if isinstance(action, Reveal) and action.card is not None:
        raise IllegalAction("a revealed fish's card is sealed to every seat: apply it as 'reveal <loc> <species>'")
    if isinstance(action, TackleDraw) and action.kind is not None:
        if d.node >= 0 or not d.tasks or d.tasks[0].kind != "tackle":
            raise IllegalAction(f"'{action}' is not a legal move now")
        drawer = d.tasks[0].seat
        if seat != drawer:
            raise IllegalAction(f"only seat {drawer + 1} sees the piece it draws")
        known = sum(1 for p in d.parties for t in p.tackle if t.kind == action.kind)
        if known + d.tackle_discard.count(action.kind) >= TACKLE_COUNTS[action.kind]:
            raise IllegalAction(f"every {action.kind} is accounted for already")
        return TackleDraw(None)
    return None


def forget(d: CrownData, seat: int | None) -> CrownData:
    """What `seat` keeps after a step: its view of `d` (another seat's picks are forgotten)."""
    return redact(d, seat)
