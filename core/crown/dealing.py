"""Coldwater Crown's declaration for a LAN table's dealer (core/dealing.py, docs/fairplay.md).

Sealed decks: the three fish decks (a card's species shows, its card id is sealed:
two parts) and the tackle stack (one part, a piece's kind; pieces of one kind are
alike, so equal labels repeat and encrypt unrelatedly). The stack formed again from
its discard is a fresh deck of the ``crown/tackle`` family. Everything else (bait,
Master Angler cards, the tag tile, the Mystery Weight) is a public draw.

**The slot map** (:class:`CrownSlots`): which deck position each sealed object on the
table came from, kept from public steps alone: a step is played on a copy of the view
and objects are followed by identity (the rules move fish and pieces, never copy
them), the way :func:`.sealing.opens` finds what an action opens.

**The memory probe** (tests/net/session/probe.py, :meth:`CrownDealing.probing`): a token is
``("fish", card)`` for a fish card (unique, so its place does not matter; a loose
``Fish`` or ``Reveal`` with its card counts too) and ``("tackle", holder, kind)`` for a
held piece. Crown's views show everything public, so the public record tells nothing
more; the plant is a fish of every card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from coldwater.core.dealing import (
    ALL,
    NOBODY,
    Beacon,
    Cards,
    DealError,
    Dealing,
    FromDeck,
    Plan,
    Position,
    Probing,
    Reform,
    SlotMap,
    Token,
    Where,
)
from coldwater.core.notation import Action
from coldwater.core.state import CHANCE, Slot, State

from . import sealing
from .actions import CrownAction, Reveal, TackleDraw
from .content import load_default
from .model import CrownData, Fish
from .views import copy

FISH: Final = "crown/fish/"
"""The fish decks' ids: this and the location."""
TACKLE: Final = "crown/tackle"
LOCS: Final = ("shore", "river", "lake")


def objects(d: CrownData) -> list[tuple[Slot, object]]:
    """Every object that can hold a sealed value, by slot (a submitted fish under its own name)."""
    out: list[tuple[Slot, object]] = []
    for li, row in enumerate(d.zones):
        out += [(("zones", li, zi), f) for zi, f in enumerate(row) if f is not None]
    out += [(("tops", li), f) for li, f in enumerate(d.tops) if f is not None]
    out += [(("thrown", i), f) for i, f in enumerate(d.thrown)]
    for s, p in enumerate(d.parties):
        out += [(("fish", s, i), f) for i, f in enumerate(p.fish)]
        out += [(("submitted", s, i), f) for i, f in enumerate(p.submitted)]
        out += [(("tackle", s, i), t) for i, t in enumerate(p.tackle)]
    return out


def map_slot(slot: Slot) -> Slot:
    """The map's name for a slot `opens` names (a fish submitted is still a held fish until resolved)."""
    return ("fish", *slot[1:]) if slot and slot[0] == "submit" else slot


def part(slot: Slot) -> int:
    """Which part of its card a slot's value is: a fish's card (1), a tackle piece's kind (0)."""
    return 0 if slot[0] == "tackle" else 1


def value(slot: Slot, label: str) -> object:
    return label if slot[0] == "tackle" else int(label)


def outcome(deck: str, labels: Sequence[str | None]) -> CrownAction:
    """The chance outcome a Crown deck position gives, with what is known of it (None: sealed)."""
    if deck.startswith(FISH):
        if labels[0] is None:
            raise DealError(f"{deck}: the species did not open")
        card = int(labels[1]) if labels[1] is not None else None
        return msgspec.convert({"loc": deck.rsplit("/", 1)[1], "species": labels[0], "card": card}, Reveal)
    return msgspec.convert({"kind": labels[0]}, TackleDraw)


@dataclass
class CrownSlots(SlotMap):
    """Slot → (deck, position) for every dealt object a Crown view shows, from public steps alone."""

    by_slot: dict[Slot, Position] = field(default_factory=dict)

    def step(
        self,
        view: State[Any, Any],
        action: Action,
        public: Action,
        seat: int | None,
        drawn: Position | None,
        kept: int | None,
    ) -> Reform | None:
        """Follow `action` (as `seat`'s view applies it) on a copy of `view`; a deck draw's new object is
        `drawn`. Returns the tackle stack if this step formed it again from its (public) discard."""
        c: CrownData = copy(view.data)
        ids = {id(obj): self.by_slot[slot] for slot, obj in objects(c) if slot in self.by_slot}
        st = type(view)(c, ply=view.ply)
        if c.cur == CHANCE:
            blank = sealing.check_seen(c, action, seat)  # type: ignore[arg-type]  # the view is Crown's
            st.apply(blank if blank is not None else action)
        else:
            st.apply(sealing.heard(c, action))  # type: ignore[arg-type]
        new: dict[Slot, Position] = {}
        fresh = 0
        for slot, obj in objects(c):
            if id(obj) in ids:
                new[slot] = ids[id(obj)]
            elif drawn is not None and not fresh:
                new[slot] = drawn
                fresh += 1
            else:
                raise DealError(f"the slot map lost track at {slot} (a step that makes a sealed object)")
        if drawn is not None and not fresh:
            raise DealError(f"{drawn[0]} position {drawn[1]} was dealt but lands nowhere")
        self.by_slot = new
        kinds = [k for k in c.tackle_stack if k is not None]  # a view's stack is blank unless just reformed
        return Reform(TACKLE, tuple((k,) for k in kinds)) if kinds else None

    def origin(self, slot: Slot) -> Position:
        got = self.by_slot.get(map_slot(slot))
        if got is None:
            raise DealError(f"no dealt object at {slot}")
        return got

    def sources(self, slot: Slot) -> tuple[Where, ...]:
        deck, pos = self.origin(slot)
        return ((deck, pos, part(slot)),)

    def value(self, slot: Slot, label: str) -> object:
        return value(slot, label)


def tokens(st: State[Any, Any]) -> Iterable[Token]:
    """A fish's card (unique: its place does not matter) and a held piece's kind (with its holder)."""
    for slot, obj in objects(st.data):
        if slot[0] == "submitted":  # a fish in a running contest: not a core slot, read from the fish itself
            v = getattr(obj, "card", None)
        else:
            v = st.sealed_value(slot)
        if v is not None:
            yield ("tackle", slot[1], v) if slot[0] == "tackle" else ("fish", v)


class CrownDealing(Dealing):
    """What Crown's LAN dealer deals (see the module text)."""

    private = True

    def plan(self, view: State[Any, Any]) -> Plan:
        d = view.data
        if d.node >= 0:
            if d.node < 3:
                return FromDeck(FISH + LOCS[d.node], (ALL, NOBODY))  # species shows, card sealed
            return Beacon("master angler" if d.node == 3 else "mystery weight")
        task = d.tasks[0]
        if task.kind == "tackle":
            return FromDeck(TACKLE, (task.seat,))
        return Beacon(task.kind)  # bait (fill, silent, ppdiscard), Master Angler cards, the tag tile

    def decks(self, start: State[Any, Any]) -> list[Cards]:
        d = start.data
        out = [Cards(FISH + loc, tuple((f.species, str(f.card)) for f in deck)) for loc, deck in zip(LOCS, d.decks)]
        # Pieces of one kind are alike, so a piece's label is its kind (equal cards encrypt unrelatedly).
        out.append(Cards(TACKLE, tuple((str(k),) for k in d.tackle_stack)))
        return out

    def outcome(self, deck: str, labels: Sequence[str | None]) -> Action:
        return outcome(deck, labels)

    def slot_map(self, start: State[Any, Any]) -> CrownSlots:
        return CrownSlots()

    def probing(self) -> Probing:
        def plant() -> list[object]:
            t = load_default()
            return [Fish(t.species_of[c], card=c) for c in range(len(t.species_of))]

        return Probing(
            data_type=CrownData,
            tokens=tokens,
            loose={
                Fish: lambda f: ("fish", f.card) if f.card is not None else None,
                Reveal: lambda a: ("fish", a.card) if a.card is not None else None,
            },
            label=lambda deck, part, label: ("fish", int(label)) if deck.startswith(FISH) and part == 1 else None,
            outcome=outcome,
            plant=plant,
        )


DEALING: Final = CrownDealing()
