"""Aquatica's declaration for a LAN table's dealer (core/dealing.py, docs/fairplay.md, the Aquatica mapping).

Sealed decks: the ◇ Characters and each Location type's deck (cut at setup, their
face-down discards go to the box, opened to nobody), and the Kings of the advanced
draft (each opened to its drafter). The Character and Location decks play draws from
are formed once those discards are made, from what was left (:meth:`AqDealing.merge`);
the ○ Characters, public until then, join the Character deck sealed afresh. Wild
Mantas, Goal tokens and Tribes are public draws.

**The slot map** (:class:`AqSlots`) is a public shadow of the table, since every card
that reaches a hand does so by a public step (a recruit from the face-up row, a King
picked by number, a card taken back from the discard): the dealer needs only which deck
position each such card came from. A King picked with others still to draft hands the
rest over to the next drafter (re-randomized, so the strips already public open nothing).

**The memory probe** (tests/net/session/probe.py, :meth:`AqDealing.probing`). Card ids are
public (every card of the content exists), so a token is *where* a card is, for the
places a view may blank or a draw fills:
``("hand", seat, card)``, ``("draft", king)`` (a King drawn into the advanced
draft), ``("cbox", card)``, ``("lbox", location)``, ``("kbox", king)`` (face down
in the box: no view holds them) and ``("row", card)``, ``("lrow", location)``
(dealt face up: a label read before its deal would be a deck's next card). A
label read off a deck is the place that deck feeds: the ◇ and Location-type decks
the boxes (opened to nobody), the King deck the draft, the merged decks the rows.
Views blank other seats' hands, yet every card reaches a hand by a public step, so
the seat's slot map (:class:`AqSlots`) holds every hand: what a seat knows by
ply *p* is its view's tokens so far **and** the public record's — the public shadow
replayed from the opening with each outcome as everyone sees it (every hand, the
rows; decks, boxes and draft blank), every King a ``king N`` names (it was in the
draft), and the boxed King once the seat saw it in the draft (every other drafted
King is named by a pick, so each drafter knows it by elimination). Judged on the
view alone, every process would be named for its shadow's hands. A deck's or the
box's contents by elimination are not counted, and no process holds them. Not
tokens: the King pool (the draft's and the box's tokens say what it would), the
Tribe and Goal pools (public: nothing leaves them face down), a bare ``Deal(n)``
(a number alone does not say which deck it came off: Location 62 or King 62).
So what a process can hold early is the draft (a seat that has not drafted yet),
the boxes and a deck's next card; in a game of five with basic Kings nothing is
sealed but the decks' order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, cast

from coldwater.core.dealing import (
    ALL,
    NOBODY,
    Beacon,
    Cards,
    DealError,
    Dealing,
    FromDeck,
    Merge,
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
from .actions import AqAction, Deal, PickKing
from .model import HIDDEN, HIDDEN_KING, KING_BASE, AqData
from .setup import DIAMOND

if TYPE_CHECKING:
    from .state import AqState  # annotations only: not imported at run time

CHARACTERS: Final = "aquatica/characters"
DIAMOND_DECK: Final = "aquatica/characters/diamond"
LOCATIONS: Final = "aquatica/locations"
KINGS: Final = "aquatica/kings"
TYPES: Final = ("shark", "ships", "civ", "volcano", "frosty")
"""Location types, in the content's order: each has its deck ``locations/<type>``."""


def shadow(start: AqState) -> AqState:
    """The opening position as everyone knows it: decks, box and draft blank; every hand as dealt
    (starting Characters and basic Kings are dealt in the open); the Tribe and Goal token pools
    whole, since nothing leaves them face down (views blank them, but a beacon draws from them)."""
    public = start.view(None)
    for p, q in zip(public.data.ps, start.data.ps):
        p.hand = list(q.hand)
        p.king = q.king
    public.data.tribe_pool = list(start.data.tribe_pool)
    public.data.goal_pool = list(start.data.goal_pool)
    return type(public)(public.data, ply=public.ply)


def outcome(label: str | None, deck: str) -> Deal:
    """The Aquatica chance outcome a deck position gives, as far as it is known (None: sealed)."""
    if label is not None:
        return Deal(int(label))
    return Deal(HIDDEN_KING if deck == KINGS else HIDDEN)


@dataclass
class AqSlots(SlotMap):
    """Where each card an Aquatica namer may name came from, kept from public steps alone (docs/fairplay.md).

    `shadow` is the table as the public record tells it: every card that reaches a
    hand does so by a public step (a recruit from the face-up row, a King picked by
    number, a card taken back from the discard), so every hand is known there, while
    decks, box and draft stay blank. `opened` maps each Character opened to everyone when
    it was dealt to the row to its deck position; `draft` lists the King draft's deck positions in
    order; `king_of` the position(s) a seat's drafted King may be (two for the last pick).
    """

    hands_over = True
    handed = "King"

    shadow: AqState
    opened: dict[int, Position] = field(default_factory=dict)
    draft: list[int] = field(default_factory=list)
    king_of: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def step(
        self,
        view: State[Any, Any],
        action: Action,
        public: Action,
        seat: int | None,
        drawn: Position | None,
        kept: int | None,
    ) -> Reform | None:
        card = public.card if drawn is not None and isinstance(public, Deal) and public.card >= 0 else None
        self.follow(cast(AqAction, public), drawn, card, kept)
        return None

    def follow(self, action: AqAction, drawn: Position | None, card: int | None, kept: int | None) -> None:
        """Follow one public step: `action` as everyone knows it; a deck draw's position `drawn`
        (and its `card` when opened to everyone); for a King picked with others still to draft,
        the draft index the picker `kept` (the one slot its word did not pass on)."""
        sh = self.shadow
        d = sh.data
        if sh.current == CHANCE:
            if drawn is not None and drawn[0] == KINGS:
                self.draft.append(drawn[1])
            if drawn is not None and card is not None and drawn[0] == CHARACTERS:
                self.opened[card] = drawn  # (Characters only: Location ids are another numbering)
            act = sealing.prepare_deal(d, sh.DECK, action, None)
            self.shadow = type(sh)(d, ply=sh.ply)  # legal outcomes computed afresh, with the card written in
            self.shadow.apply(act)
            return
        if isinstance(action, PickKing):
            actor = d.draft_order[0]
            if kept is not None:
                self.king_of[actor] = (self.draft.pop(kept),)
            else:  # the last pick: the King left goes to the box, and which is which is sealed
                self.king_of[actor] = tuple(self.draft)
                self.draft = []
        if not sh.is_legal(action):
            sealing.prepare_move(d, sh.DECK, action)  # a King picked: into a blank of the draft
            sh = self.shadow = type(sh)(d, ply=sh.ply)  # (its legal moves are computed afresh)
        sh.apply(action)

    def card(self, slot: Slot) -> int:
        """The card a hand slot holds, as the public record tells it."""
        if len(slot) != 3 or slot[0] != "hand":
            raise DealError(f"{slot} is not a hand")
        v = sealing.sealed_value(self.shadow.data, slot)
        if not isinstance(v, int):
            raise DealError(f"the public record does not say what is at {slot}")
        return v

    def candidates(self, slot: Slot) -> tuple[Position, ...] | int:
        """The deck position(s) the card at `slot` may have come from, or the card itself if it
        came from no deck (a basic King, dealt in the open)."""
        if slot and slot[0] == "draft":
            i = slot[1] if len(slot) == 2 else None
            if type(i) is not int or not 0 <= i < len(self.draft):
                raise DealError(f"no King {i!r} in the draft")
            return ((KINGS, self.draft[i]),)
        c = self.card(slot)
        if c in self.opened:
            return (self.opened[c],)
        seat = slot[1]
        if c >= KING_BASE and isinstance(seat, int) and seat in self.king_of:
            return tuple((KINGS, p) for p in self.king_of[seat])
        return c

    def sources(self, slot: Slot) -> tuple[Where, ...] | None:
        got = self.candidates(slot)
        return None if isinstance(got, int) else tuple((deck, pos, 0) for deck, pos in got)

    def expected(self, slot: Slot) -> str:
        return str(self.card(slot))

    def value(self, slot: Slot, label: str) -> object:
        return int(label)

    def may_name(self, slot: Slot, namer: int) -> str | None:
        if len(slot) != 3 or slot[0] != "hand" or slot[1] != namer:
            return "a namer opens only cards of its own hand"
        return None

    def public_state(self, view: State[Any, Any]) -> State[Any, Any]:
        return self.shadow  # the pools a beacon draws from are whole in the public shadow only

    def receiver(self, view: State[Any, Any], action: Action, namer: int, slot: Slot) -> int | None:
        """A King picked with others still to draft: each drafted King but the one kept goes to the next drafter."""
        order = view.data.draft_order
        if not isinstance(action, PickKing) or len(order) < 2 or order[0] != namer:
            return None
        if len(slot) != 2 or slot[0] != "draft":
            return None
        return int(order[1])

    def kept(self, view: State[Any, Any], action: Action, passed: Sequence[Slot]) -> int | None:
        """A King picked with others still to draft: every King but the one kept is handed on."""
        order = view.data.draft_order
        if not isinstance(action, PickKing) or len(order) < 2:
            return None
        picker = order[0]
        handed = {s[1] for s in passed}
        kept = [i for i in range(len(self.draft)) if i not in handed]
        if len(kept) != 1:
            raise DealError(
                f"seat {picker + 1} picked a King but handed on {len(handed)} of the {len(self.draft)} drafted",
                [picker],
            )
        return kept[0]

    def check_received(self, view: State[Any, Any], action: Action, label: str) -> None:
        if isinstance(action, PickKing) and int(label) == cast("AqState", view).DECK.king_id(action.number):
            picker = view.data.draft_order[0]
            raise DealError(f"seat {picker + 1} handed on the King it picked", [picker])


# ---- the memory probe (tests/net/session/probe.py) -------------------------------------------------------
def tokens(st: State[Any, Any]) -> Iterable[Token]:
    """Where a card is, for the places a view may blank or a draw makes: a hand, the draft and the
    rows through ``sealed_value``/the data, the three boxes (which no view holds) from the data."""
    d = st.data
    for s, p in enumerate(d.ps):
        for i in range(len(p.hand)):
            v = st.sealed_value(("hand", s, i))
            if v is not None:
                yield ("hand", s, v)
    for i in range(len(d.draft)):
        v = st.sealed_value(("draft", i))
        if v is not None:
            yield ("draft", v)
    for kind, xs in (
        ("cbox", d.char_box),
        ("lbox", d.loc_box),
        ("kbox", d.king_box),
        ("row", d.char_row),
        ("lrow", d.loc_bottom),
    ):
        for x in xs:
            if x >= 0:
                yield (kind, x)


def label_token(deck: str, part: int, label: str) -> Token | None:
    """A label read off an Aquatica deck, as the place its deck feeds: the ◇ and Location-type decks
    only the boxes (opened to nobody), the King deck the draft, the merged decks the face-up rows."""
    if deck == DIAMOND_DECK:
        return ("cbox", int(label))
    if deck.startswith(LOCATIONS + "/"):
        return ("lbox", int(label))
    if deck == KINGS:
        return ("draft", int(label))
    if deck == CHARACTERS:
        return ("row", int(label))
    if deck == LOCATIONS:
        return ("lrow", int(label))
    return None


class PublicRecord:
    """Aquatica's public record, as every process may follow it: the public shadow of the table
    (:func:`shadow`/:class:`AqSlots`, fed only outcomes as everyone sees them, so every hand is
    known and decks, boxes and draft stay blank), every King a ``king N`` names (it was in the
    draft), and the boxed King once the seat saw it in the draft (the others were all named)."""

    def __init__(self, start: State[Any, Any]) -> None:
        self.shadow = AqSlots(shadow(cast("AqState", start)))
        self.named: set[Token] = set()

    def step(self, full: State[Any, Any], action: Action) -> None:
        if full.current == CHANCE:
            action = full.seen_outcome(action, None)
        elif isinstance(action, PickKing):
            self.named.add(("draft", cast("AqState", full).DECK.king_id(action.number)))
        self.shadow.follow(cast(AqAction, action), None, None, None)  # (no deck positions: the tokens need none)

    def tokens(self, full: State[Any, Any], allowed: Mapping[Token, int]) -> Iterable[Token]:
        yield from tokens(self.shadow.shadow)
        yield from self.named
        for k in full.data.king_box:
            if ("draft", k) in allowed:
                yield ("kbox", k)


class AqDealing(Dealing):
    """What Aquatica's LAN dealer deals (see the module text)."""

    private = True
    merged = frozenset({CHARACTERS, LOCATIONS})

    def plan(self, view: State[Any, Any]) -> Plan:
        d = view.data
        dr = d.draws[0]
        if dr.deck == "cd":
            return FromDeck(CHARACTERS, (ALL,))
        if dr.deck == "cd_disc":
            return FromDeck(DIAMOND_DECK, (NOBODY,))
        if dr.deck == "ld":
            return FromDeck(LOCATIONS, (ALL,))
        if dr.deck == "ld_disc":
            return FromDeck(f"{LOCATIONS}/{TYPES[dr.arg]}", (NOBODY,))
        if dr.deck == "ld_keep":  # Tribes Solo only (solo keeps the local generator); for completeness
            return FromDeck(f"{LOCATIONS}/box/{TYPES[dr.arg]}", (NOBODY,))
        if dr.deck == "king":
            return FromDeck(KINGS, (d.draft_order[0],))
        # Wild Mantas, goal tokens and Tribes: face up, from pools whose contents are public.
        return Beacon(dr.deck)

    def decks(self, start: State[Any, Any]) -> list[Cards]:
        k = cast("AqState", start).DECK
        d = start.data
        out = []
        diamond = [c for c in d.char_deck if c >= DIAMOND]
        if diamond:
            out.append(Cards(DIAMOND_DECK, tuple((str(c),) for c in diamond), CHARACTERS))
        out.append(Cards(KINGS, tuple((str(c),) for c in d.king_pool)))
        for t, name in enumerate(TYPES):
            locs = [x for x in d.loc_deck if k.loc_type[x] == t]
            if locs:
                out.append(Cards(f"{LOCATIONS}/{name}", tuple((str(x),) for x in locs), LOCATIONS))
        # CHARACTERS and LOCATIONS are formed after the discards to the box, by
        # reshuffling what is left (see merge), so they are not listed here.
        return out

    def merge(self, deck: str, start: State[Any, Any]) -> Merge:
        """The Character deck is the ○ Characters (public until now: sealed afresh) and the ◇ ones
        not discarded; the Location deck is what each type's deck kept."""
        d = start.data
        if deck == CHARACTERS:
            circle = tuple((str(c),) for c in d.char_deck if c < DIAMOND)
            diamond = tuple((str(c),) for c in d.char_deck if c >= DIAMOND)
            return Merge(Cards(CHARACTERS, circle + diamond, CHARACTERS), circle, (DIAMOND_DECK,))
        if deck == LOCATIONS:
            every = tuple((str(x),) for x in d.loc_deck)
            return Merge(Cards(LOCATIONS, every, LOCATIONS), (), tuple(f"{LOCATIONS}/{name}" for name in TYPES))
        raise ValueError(f"aquatica has no merged deck {deck!r}")

    def outcome(self, deck: str, labels: Sequence[str | None]) -> Action:
        return outcome(labels[0], deck)

    def slot_map(self, start: State[Any, Any]) -> AqSlots:
        return AqSlots(shadow(cast("AqState", start)))

    def probing(self) -> Probing:
        from .game import GAME, AqOptions  # (the game object holds this declaration: imported when used)

        def plant() -> list[object]:
            """A table of five with every card in every sealed place (and every hand, every row)."""
            k = GAME.deck
            d = GAME.new(5, seed="probe-plant", options=AqOptions(kings="advanced")).data
            chars = list(range(k.n_chars))
            kings = [k.king_id(n) for n in range(1, 12)]
            locs = list(range(len(k.loc_name)))
            d.char_box, d.loc_box, d.king_box, d.draft = list(chars), list(locs), list(kings), list(kings)
            d.char_row, d.loc_bottom = list(chars), list(locs)
            for p in d.ps:
                p.hand = list(chars)
            return [d]

        return Probing(
            data_type=AqData,
            tokens=tokens,
            loose={},
            label=label_token,
            outcome=lambda deck, labels: outcome(labels[0], deck),
            plant=plant,
            public=PublicRecord,
        )


DEALING: Final = AqDealing()
