"""What a game declares for a LAN table's dealer: which draws are public, which decks it seals.

The LAN layer (``net/fairdeal``, ``tests/net/session/probe.py``) knows no game by name: it
reaches each game's :class:`Dealing` through the contract (``Game.dealing``) and
does the cryptography; this module only describes. A game with no sealed values
(every chance outcome public) declares ``private = False``; a game that declares no
``Dealing`` at all (``Game.dealing`` is None, the tests' toy games) is left to the
generic rules of ``net/beacon.py``. Pure: no I/O, no crypto, no clock.

A :class:`Dealing` says, from what every peer's view shows:

- :meth:`Dealing.plan`: what a pending chance node needs: a :class:`Beacon` draw (the
  outcome is public, its weights follow from public knowledge) or the next position of
  a sealed deck (:class:`FromDeck`), each part opened to everyone (:data:`ALL`), to one
  seat, or to nobody (:data:`NOBODY`) for now;
- :meth:`Dealing.decks`: the decks sealed at the start (:class:`Cards`, labels as text),
  from the opening position every peer computes from the joint seed;
- :meth:`Dealing.merge`: a deck formed mid-game from what others left (:class:`Merge`);
- :meth:`Dealing.outcome`: the chance outcome a deck position gives, as far as its
  labels are known;
- :meth:`Dealing.slot_map`: a :class:`SlotMap`, which deck position each sealed value on
  the table came from, followed from public steps alone (docs/fairplay.md);
- :meth:`Dealing.probing`: what the memory probe needs to find sealed values
  (:class:`Probing`).

Deck ids are part of the protocol (cards are encoded under them and proofs bound to
them), so a game's ids never change once released.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol

import msgspec

from .notation import Action
from .state import Slot, State

ALL: Final = -1
"""A deck part opened to every seat."""
NOBODY: Final = -2
"""A deck part opened to nobody for now."""


class Beacon(msgspec.Struct, frozen=True):
    """A public draw (a hash-chain beacon draws it); `what` names it for people."""

    what: str


class FromDeck(msgspec.Struct, frozen=True):
    """The next position of sealed deck `deck`."""

    deck: str
    opens: tuple[int, ...]
    """Per part: a seat, :data:`ALL` or :data:`NOBODY`."""


Plan = Beacon | FromDeck

Position = tuple[str, int]
"""(deck id, position in the dealt deck)."""
Where = tuple[str, int, int]
"""(deck id, position, part)."""
Label = tuple[str, ...]
"""One card: a text label per part (``("pike", "17")``: species, card id)."""


class DealError(Exception):
    """A step the slot map cannot follow, or a word a seat may not say; ``culprits`` names the seats at fault."""

    def __init__(self, reason: str, culprits: Sequence[int] = ()) -> None:
        super().__init__(reason)
        self.culprits = tuple(culprits)


@dataclass(frozen=True)
class Cards:
    """A sealed deck as labels: its id, each card's labels, and the family its cards are encoded under
    (default: the id; decks cut from one another and merged again share one)."""

    id: str
    cards: tuple[Label, ...]
    family: str = ""


@dataclass(frozen=True)
class Merge:
    """A deck formed from others mid-game: `cards` lists every card it may hold (which are left is
    secret); it starts as the `fresh` cards (public until now, sealed afresh under the table key)
    followed by what is left undealt of each deck in `sources`, in that order."""

    cards: Cards
    fresh: tuple[Label, ...]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Reform:
    """A deck formed again by a step (its cards public: a discard pile turned over). The dealer
    gives it a fresh id under `family`; plans keep naming the family's first id."""

    family: str
    cards: tuple[Label, ...]


class SlotMap(ABC):
    """Slot → deck position for every dealt value a view shows, kept from public steps alone.

    One per process at a dealt table (made by :meth:`Dealing.slot_map` from the opening).
    Raises :class:`DealError` where it loses track or a word is not allowed. The defaults
    serve a game whose actions hand nothing over and whose views show everything public."""

    hands_over: ClassVar[bool] = False
    """Whether an action may open a value to one other seat (a hand-over: re-randomized, not stripped)."""
    handed: ClassVar[str] = "card"
    """What is handed over, for people."""

    @abstractmethod
    def step(
        self,
        view: State[Any, Any],
        action: Action,
        public: Action,
        seat: int | None,
        drawn: Position | None,
        kept: int | None,
    ) -> Reform | None:
        """Follow one step before `view` (`seat`'s) takes it: `action` as `seat` knows it, `public` as
        everyone does; `drawn` is a deck draw's position; `kept` what :meth:`kept` said for this action.
        Returns a deck the step formed again, if any."""

    @abstractmethod
    def sources(self, slot: Slot) -> tuple[Where, ...] | None:
        """The deck part(s) the value at `slot` may have come from (None: dealt in the open)."""

    @abstractmethod
    def value(self, slot: Slot, label: str) -> object:
        """The value a view holds at `slot` for a deck `label`."""

    def expected(self, slot: Slot) -> str | None:
        """The label the public record puts at `slot` (None: the record does not say)."""
        return None

    def may_name(self, slot: Slot, namer: int) -> str | None:
        """Why `namer` may not name `slot` in its word (None: it may)."""
        return None

    def public_state(self, view: State[Any, Any]) -> State[Any, Any]:
        """The state a public draw is sampled from (everything every seat knows)."""
        return view.view(None)

    def receiver(self, view: State[Any, Any], action: Action, namer: int, slot: Slot) -> int | None:
        """The seat `action` hands the value at `slot` over to from `namer` (None: to nobody)."""
        return None

    def kept(self, view: State[Any, Any], action: Action, passed: Sequence[Slot]) -> int | None:
        """After the hand-overs of the `passed` slots: what the actor kept (for :meth:`step`), checked."""
        return None

    def check_received(self, view: State[Any, Any], action: Action, label: str) -> None:
        """Refuse a value handed over that `action` may not hand over (DealError naming the seat)."""
        return None


Token = tuple[Any, ...]


class PublicRecord(Protocol):
    """What the public record tells everyone beyond a seat's view, followed step by step from the opening
    (for the end-of-game replay: what a seat legitimately knew by each ply)."""

    def step(self, full: State[Any, Any], action: Action) -> None:
        """Follow one step of the game: `action` as the full state `full` is about to take it."""

    def tokens(self, full: State[Any, Any], allowed: Mapping[Token, int]) -> Iterable[Token]:
        """What the record has told by now (`full` just stepped; `allowed`: what the seat knew before)."""


@dataclass(frozen=True)
class Probing:
    """What the memory probe (tests/net/session/probe.py) needs of one game to find its sealed values."""

    data_type: type
    """The engine's state data: every copy in memory is read, as a state of the game."""
    tokens: Callable[[State[Any, Any]], Iterable[Token]]
    """Every value a state holds that may be sealed, as tokens (through ``sealed_value`` where the engine
    names the place a slot; a deck's order, which no view holds, read from the data)."""
    loose: dict[type, Callable[[Any], Token | None]]
    """Objects outside a data object that may carry a sealed value (a token, or None)."""
    label: Callable[[str, int, str], Token | None]
    """A label the seat read at (deck, part, label), as a token (None: not a sealed value)."""
    outcome: Callable[[str, list[str | None]], Action]
    """The chance outcome a deck position gives (for the end-of-game replay)."""
    plant: Callable[[], list[object]]
    """Objects holding every possible sealed value (the planted test)."""
    public: Callable[[State[Any, Any]], PublicRecord] | None = None
    """What the public record tells beyond the seat's view, from the opening's full state (None:
    nothing more than the view, for a game whose views show everything public)."""


class Dealing:
    """One game's declaration for a LAN table's dealer (see the module text). The base deals
    nothing privately: every chance outcome is a public draw."""

    private: ClassVar[bool] = False
    """Whether the fair dealer deals this game (it seals values); else every draw is public."""
    merged: ClassVar[frozenset[str]] = frozenset()
    """Decks formed mid-game by :meth:`merge` (the dealer then keeps the opening position)."""

    def plan(self, view: State[Any, Any]) -> Plan:
        """What the pending chance node of `view` (any seat's view, or the full state) needs."""
        return Beacon("public")

    def decks(self, start: State[Any, Any]) -> list[Cards]:
        """The decks sealed from the opening position `start` (labels are card ids as text)."""
        return []

    def merge(self, deck: str, start: State[Any, Any]) -> Merge:
        """How deck `deck` (one of :attr:`merged`) is formed from what others left."""
        raise ValueError(f"no merged deck {deck!r}")

    def outcome(self, deck: str, labels: Sequence[str | None]) -> Action:
        """The chance outcome a position of `deck` gives, with what is known of it (None: sealed)."""
        raise ValueError(f"no sealed deck {deck!r}")

    def slot_map(self, start: State[Any, Any]) -> SlotMap:
        """A fresh slot map for a table that opens at `start`."""
        raise ValueError("this game seals nothing")

    def probing(self) -> Probing | None:
        """What the memory probe needs (None: nothing sealed to look for)."""
        return None


PUBLIC_DRAWS: Final = Dealing()
"""The declaration of a game with no sealed values: every chance outcome is a public draw."""
