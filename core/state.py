"""The one contract every game engine fulfils (modelled on OpenSpiel).

An engine keeps its whole position in one msgspec Struct (``state.data``) and subclasses
:class:`State`, filling in the ``_``-prefixed hooks. The base class gives every game the
same behaviour for free:

- ``legal()`` is computed once per position and cached; ``apply()`` refuses any action
  not in it with :class:`IllegalAction` *before* touching the state.
- ``clone()``, ``digest()`` and the canonical text form all come from the Struct's
  canonical encoding, so they can never disagree with each other.
- ``view(seat)`` is a State of the same type whose hidden values are blanked (sealed),
  so the UI, bots and the network all see positions the same way.

Chance is a player: while a random outcome is pending, ``current`` is :data:`CHANCE` and
``legal()`` lists the possible outcomes, which ``chance_outcomes()`` weights. Alone,
``sample_chance()`` resolves them from the seed; at a LAN table a fair-play protocol does.
"""

from __future__ import annotations

import functools
import hashlib
import operator
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Protocol, TypeVar, cast

import msgspec

from .content import ContentFiles
from .errors import IllegalAction, RecordError
from .notation import Action, Codec
from .rng import Rng

if TYPE_CHECKING:
    from .bots import SearchSpec  # (core/bots.py builds on States: imported for annotations only)
    from .dealing import Dealing  # (core/dealing.py describes States: imported for annotations only)
    from .rulings import Ruling

CHANCE: Final[int] = -1
"""`State.current` while a random outcome is pending."""

EVERYONE: Final[int] = -1
"""`Opening.to` when a sealed value is opened to every seat."""

Slot = tuple[str | int, ...]
"""Where a sealed value sits: an object path every peer computes from its own view, named by each game
(e.g. ``("zones", 2, 0)``: the fish in the Lake's Zone 3)."""

A = TypeVar("A", bound=Action)
D = TypeVar("D", bound=msgspec.Struct)
S = TypeVar("S", bound="State[Any, Any]")

_enc = msgspec.msgpack.Encoder()
_json = msgspec.json.Encoder()

# legal() sorts by notation, and building the text is most of a random ply's cost.
# Actions are frozen and their text is a pure function of them, so a bounded memo
# cannot change any result; it only skips re-encoding the same action each ply.
notation_key = functools.lru_cache(maxsize=1 << 15)(str)
_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)


class Scores(msgspec.Struct, frozen=True):
    """A score sheet: one row per scored party (seats, then any solo rival)."""

    labels: tuple[str, ...]
    """Row names, e.g. ``("Seat 1", "Seat 2", "Silent player")``."""
    categories: tuple[str, ...]
    rows: tuple[tuple[int, ...], ...]
    """``rows[r][c]``: points of row ``r`` in category ``c``."""
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    """Row indices, best first, after the game's tie-breaks."""
    final: bool
    outcome: str = ""
    """One line for people: who won and why (tie-break, solo title, ...)."""
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "final": self.final,
            "outcome": self.outcome,
            "scores": [
                {"label": lab, "total": tot, **dict(zip(self.categories, row))}
                for lab, tot, row in zip(self.labels, self.totals, self.rows)
            ],
            "ranking": list(self.ranking),
        }


SETUP: Final[int] = -1
"""`Turn.party` while the game is being set up, before the first turn."""


class Turn(msgspec.Struct, frozen=True):
    """Whose turn a position is in, as people count turns and rounds (``State.turn``).

    :mod:`coldwater.core.clock` counts turns and rounds from these, the same way for every game
    and from public data alone, so a view counts as the full state does."""

    party: int
    """A seat, or a party that is no seat (Practice Pond's silent player) numbered from ``players``; SETUP
    before the first turn, and for a part of the game that is nobody's turn (Crown's contests after the
    last turn: the clock stays where it was)."""
    stage: int = 0
    """How far into the turn: it never drops within one turn, so a drop begins the next turn even when the
    same party plays it (a solo game's turns are all one seat's)."""
    round: int | None = None
    """The game's own round count where it keeps one (Fisheries' day)."""


class Opening(msgspec.Struct, frozen=True, array_like=True):
    """A sealed value an action makes visible: the value in `slot` is opened `to` a seat (or EVERYONE)."""

    slot: Slot
    to: int


class Openings(msgspec.Struct, frozen=True):
    """What a player's action opens, as one view can tell (``State.opens``).

    `public` follows from the public record, so every view lists the same. Some openings depend
    on sealed values (a caught fish that wins the Mystery Weight, which fish a seat submits to a
    contest): only the seats in `namers`, who hold those values, can name them; on their own views
    they are listed in `named` (once the `public` openings to them are revealed), and every other
    seat waits for their word.
    """

    public: tuple[Opening, ...] = ()
    named: tuple[Opening, ...] = ()
    namers: tuple[int, ...] = ()


class _Envelope(msgspec.Struct, Generic[D]):
    game: str
    ply: int
    seed: str | None
    data: D


class State(Generic[A, D]):
    """A position of one game. Subclasses set GAME and DATA and fill the hooks."""

    GAME: ClassVar[str]
    DATA: ClassVar[type[msgspec.Struct]]
    CODEC: ClassVar[Codec[Any]]
    """The game's action types and their notation (a ClassVar cannot name A: the game's ``codec`` is ``Codec[A]``)."""

    _DATA_DECODER: ClassVar[msgspec.msgpack.Decoder[Any]]
    """A decoder of DATA, made once per class that sets DATA (see `copy_data`)."""
    __slots__ = ("_legal", "_legal_set", "data", "ply", "seed")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "DATA" in cls.__dict__:
            cls._DATA_DECODER = msgspec.msgpack.Decoder(cls.DATA)

    @classmethod
    def copy_data(cls, data: D) -> D:
        """A deep copy of a position's data (one MessagePack round trip: faster than copy.deepcopy
        and the same canonical form the digest hashes). Every copy of a position goes through here."""
        copied: D = cls._DATA_DECODER.decode(_enc.encode(data))
        return copied

    def __init__(self, data: D, *, seed: str | None = None, ply: int = 0) -> None:
        self.data: D = data
        self.seed = seed
        """Text seed that resolves chance when playing alone; None in views."""
        self.ply = ply
        """Number of actions (chance outcomes included) applied so far."""
        self._legal: list[A] | None = None
        self._legal_set: dict[A, A] | None = None
        """legal() as a dict from each action to itself, for `_canonical`."""

    # ---- hooks for engines -------------------------------------------------
    def _current(self) -> int | None:
        raise NotImplementedError

    def _legal_actions(self) -> list[A]:
        """All legal actions, in any order (the base class sorts them)."""
        raise NotImplementedError

    def _sorted_legal(self) -> list[A]:
        """The legal actions in notation order. An engine with many actions per position may override this to
        build the sort keys itself, cheaper than encoding; each key must equal ``str(action)`` (contract tests)."""
        return sorted(self._legal_actions(), key=notation_key)

    def _apply(self, action: A) -> None:
        """Apply a legal action (already checked) by mutating ``self.data``."""
        raise NotImplementedError

    def _redact(self, seat: int | None) -> D:
        """A copy of ``self.data`` with everything `seat` may not know blanked."""
        raise NotImplementedError

    def _chance_weights(self) -> list[tuple[A, int]]:
        """At a chance node: each outcome with its integer weight."""
        raise NotImplementedError

    def _scores(self) -> Scores:
        raise NotImplementedError

    def why_illegal(self, action: A) -> str:
        """Why `action` is not legal now, in words. Engines give specific reasons.

        `action` is well-formed (one of the game's action types, fields of their declared types):
        ``apply`` refuses anything else before asking."""
        return f"'{action}' is not a legal move now"

    def describe(self, action: A) -> str:
        """What `action` does here, in words, for the log (before it is applied)."""
        return str(action)

    @property
    def players(self) -> int:
        raise NotImplementedError

    def turn(self) -> Turn | None:
        """Whose turn this position is in (see :class:`Turn`), read off public data.

        None where the engine does not say (the default, or a moment nobody's turn owns, such as
        contests all seats answer): each run of one seat's decisions then counts as that seat's turn."""
        return None

    # ---- a view that advances itself (no process holds the full state) ----
    # At a table whose dealer nobody sees through (docs/fairplay.md), each seat keeps
    # only its own view and advances it from public actions, the chance outcomes as
    # it may know them, and the sealed values opened to it. A game with no sealed
    # values needs none of this: its view is the full state, and the defaults below
    # say so. A game with sealed values sets SEALED and overrides all five.
    SEALED: ClassVar[bool] = False
    """True when views blank values (then the four hooks below must be overridden)."""

    def _no_hooks(self) -> NotImplementedError:
        return NotImplementedError(f"{self.GAME} seals values but cannot advance a view by itself")

    def seen_outcome(self, outcome: A, seat: int | None) -> A:
        """At a chance node of the full state: `outcome` as `seat` may know it (a sealed marker, or the value)."""
        if self.SEALED:
            raise self._no_hooks()
        return outcome

    def apply_seen(self, action: A, seat: int | None) -> None:
        """Advance this view of `seat` by `action`: a player's action, or at a chance
        node the outcome as `seat` knows it (``seen_outcome``). Afterwards the view
        equals ``full.view(seat)`` of the full state that took the whole action,
        provided the values ``opens`` opened to `seat` were revealed first.
        Raises IllegalAction (changing nothing) for an outcome `seat` may not know."""
        if self.SEALED:
            raise self._no_hooks()
        self.apply(action)

    def reveal(self, slot: Slot, value: object) -> None:
        """Write `value`, opened to this view's seat, into the sealed `slot`. Raises IllegalAction,
        changing nothing, for a slot that is not sealed here or a value it cannot hold."""
        if self.SEALED:
            raise self._no_hooks()
        raise IllegalAction(f"{self.GAME} has no sealed values")

    def opens(self, action: A, seat: int | None) -> Openings:
        """Which sealed slots `action` (a legal player action here) makes visible to whom, as `seat`'s view can tell."""
        if self.SEALED:
            raise self._no_hooks()
        return Openings()

    def sealed_value(self, slot: Slot) -> object:
        """The value in `slot` here (None where this view has it blank); IllegalAction for no such slot."""
        if self.SEALED:
            raise self._no_hooks()
        raise IllegalAction(f"{self.GAME} has no sealed values")

    # ---- the contract -----------------------------------------------------
    @property
    def current(self) -> int | None:
        """Seat to act, CHANCE while an outcome is pending, None when over."""
        return self._current()

    @property
    def is_over(self) -> bool:
        return self._current() is None

    def legal(self) -> list[A]:
        """Legal actions, sorted by notation; empty only when the game is over."""
        if self._legal is None:
            if self._current() is None:
                self._legal = []
            else:
                self._legal = self._sorted_legal()
        return list(self._legal)

    def _canonical(self, action: object) -> A | None:
        """The legal action `action` stands for, or None.

        Equality alone is not enough: ``Fill(True) == Fill(1)`` and ``1.0 == 1``,
        so an equal action with differently typed fields must also encode the same.
        """
        if self._legal is None:
            self.legal()
        legal = self._legal
        assert legal is not None
        canon: A | None
        if len(legal) <= 48:
            # Usually asked once per position (by apply): a scan of a short list
            # is cheaper than hashing every action into a dict. list.index scans
            # in C, testing identity first and then ==, as a loop here would.
            try:
                canon = legal[cast("list[object]", legal).index(action)]
            except ValueError:
                canon = None
        else:
            if self._legal_set is None:
                self._legal_set = {a: a for a in legal}
            try:
                canon = self._legal_set.get(action)  # type: ignore[call-overload]
            except TypeError:  # unhashable junk
                return None
        if canon is None or canon is action:
            return canon
        if type(canon) is not type(action) or _enc.encode(canon) != _enc.encode(action):
            return None
        return canon

    def is_legal(self, action: object) -> bool:
        return self._canonical(action) is not None

    def apply(self, action: A) -> None:
        """Play `action`. Raises IllegalAction and changes nothing if it is not legal.

        Anything not in ``legal()`` is refused here, once for every game: an
        object that is not a well-formed action of this game (wrong class,
        wrongly typed field, no notation) is refused before any engine code sees
        it, so ``why_illegal`` only ever explains well-formed actions.
        """
        if self._current() is None:
            raise IllegalAction("the game is over")
        canon = self._canonical(action)
        if canon is None:
            raise IllegalAction(self.CODEC.malformed(action) or self.why_illegal(action))
        self._apply(canon)
        self.ply += 1
        self._legal = None
        self._legal_set = None

    def apply_legal(self, action: A) -> None:
        """Play `action` taken from this position's own ``legal()`` list, unchecked: for searches, which
        apply thousands of actions they just read from ``legal()``; everything else uses :meth:`apply`."""
        self._apply(action)
        self.ply += 1
        self._legal = None
        self._legal_set = None

    def chance_weights(self) -> list[tuple[A, int]]:
        """At a chance node: each outcome and its weight, in the engine's own order. Unsorted, so cheaper
        than :meth:`chance_outcomes`; for searches, whose draws only need to repeat on the same code, not to
        match a record."""
        if self._current() != CHANCE:
            return []
        return self._chance_weights()

    def chance_outcomes(self) -> list[tuple[A, int]]:
        """At a chance node, each possible outcome with its integer weight."""
        if self._current() != CHANCE:
            return []
        # Decorated with each outcome's notation and sorted on it, all in C (map,
        # zip, itemgetter): searches and solo play draw chance through here.
        ws = self._chance_weights()
        keyed = list(zip(map(notation_key, map(_FIRST, ws)), ws))
        keyed.sort(key=_FIRST)
        return list(map(_SECOND, keyed))

    def sample_chance(self, rng: Rng | None = None) -> A:
        """Draw the pending chance outcome from `rng`, or from the seed and ply."""
        if rng is None:
            if self.seed is None:
                raise ValueError("no seed to resolve chance with; pass an Rng")
            rng = Rng(self.seed).fork(self.ply)
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ValueError("no chance event is pending")
        return outcomes[rng.weighted(list(map(_SECOND, outcomes)))][0]

    def clone(self: S) -> S:
        return type(self)(self.copy_data(self.data), seed=self.seed, ply=self.ply)

    def view(self: S, seat: int | None) -> S:
        """What `seat` may know (None: a spectator). Same type, secrets blanked."""
        return type(self)(self._redact(seat), seed=None, ply=self.ply)

    def encode(self) -> bytes:
        """Canonical binary encoding of the position (MessagePack)."""
        return _enc.encode(self.data)

    def digest(self) -> str:
        """SHA-256 of the ply count and the canonical encoding."""
        h = hashlib.sha256(self.GAME.encode() + b"\x00" + self.ply.to_bytes(8, "little"))
        h.update(self.encode())
        return h.hexdigest()

    def to_text(self) -> str:
        """Canonical text form; ``game.from_text(s.to_text())`` reproduces `s`."""
        return _json.encode(_Envelope(self.GAME, self.ply, self.seed, self.data)).decode()

    def scores(self) -> Scores:
        """The score sheet; ``final`` is False while the game goes on."""
        return self._scores()

    def solo_goal(self, seat: int, sc: Scores) -> tuple[float, bool]:
        """(worth in points, goal reached) of a one-row game, by its solo mode's own goal."""
        return float(sc.totals[seat]), False

    def fit_mode(self) -> str:
        """A mode whose win chance is fitted apart from its player count's ("": none)."""
        return ""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.ply == self.ply and other.encode() == self.encode()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.GAME} ply={self.ply} current={self.current}>"


class Bot(Protocol):
    """Anything that picks an action for a seat from what that seat may know."""

    name: str

    def choose(self, view: State[Any, Any], rng: Rng) -> Action: ...


class Game(Protocol[S, A]):
    """What the registry returns for each game (``games.get``); GameBase implements it.

    Generic in the game's State subclass `S` and its action type `A` (for Crown,
    ``Game[CrownState, CrownAction]``). Code that runs whichever game it is given
    (the registry, tables, records) holds a ``Game[Any, Any]``: Python's types
    cannot say "some State and its own action type", so those stay Any there.
    """

    # Read-only, so a game may narrow them (``options_type = CrownOptions``).
    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def unit(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def options_type(self) -> type[msgspec.Struct]: ...

    @property
    def state_type(self) -> type[S]: ...

    @property
    def codec(self) -> Codec[A]: ...

    @property
    def bots(self) -> tuple[str, ...]: ...

    @property
    def content_hash(self) -> str: ...

    @property
    def dealing(self) -> Dealing | None:
        """What a LAN table's dealer needs of this game (core/dealing.py); None: the game declares
        nothing, and the LAN layer's generic rules decide which draws are public."""

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """Where the rulebook is silent, what this engine does (the rules help lists them); () declares none."""

    def new(self, players: int, seed: int | str | bytes | None = None, options: object = None) -> S: ...

    def determinize(self, view: S, rng: Rng) -> S: ...

    def bot(self, name: str) -> Bot: ...

    def with_content(self, given: ContentFiles) -> Game[S, A]: ...

    def parse_action(self, text: str) -> A: ...

    def from_text(self, text: str | bytes) -> S: ...

    def make_options(self, options: object) -> msgspec.Struct: ...

    def check_players(self, players: int) -> None: ...


class GameBase(ABC, Generic[S, A]):
    """Shared plumbing for Game objects: notation, text form, options.

    A subclass sets the class attributes and `state_type` (usually
    ``bind_state(TheState, CONTENT=...)`` in ``__init__``) and fills the
    abstract methods; everything else is the same for every game.
    """

    name: str
    title: str
    unit: str = "points"
    """What the game's rulebook calls its points ("PP" in Aquatica); every margin shown to a player is in it."""
    min_players: int
    max_players: int
    options_type: type[msgspec.Struct]
    bots: tuple[str, ...]
    state_type: type[S]
    sealed_values: bool = True
    """False when no seat ever holds a value another cannot see (every view is the whole
    position): a LAN table then draws every chance outcome in public and needs no dealer."""
    dealing: Dealing | None = None
    """This game's declaration for a LAN table's dealer (core/dealing.py); None declares nothing."""
    rulings: tuple[Ruling, ...] = ()  # (see Game.rulings)

    @property
    def codec(self) -> Codec[A]:
        codec: Codec[A] = self.state_type.CODEC
        return codec

    @property
    @abstractmethod
    def content_hash(self) -> str:
        """SHA-256 of the validated content: peers and records compare it."""

    @abstractmethod
    def new(self, players: int, seed: int | str | bytes | None = None, options: object = None) -> S:
        """A new game; chance outcomes of the setup are still pending."""

    @abstractmethod
    def determinize(self, view: S, rng: Rng) -> S:
        """A full state consistent with `view`: every blank filled from what is unseen."""

    def bot(self, name: str) -> Bot:
        """A new bot by name (one of `bots`): the one factory (core/bots.py) with this game's
        :meth:`bot_spec`."""
        from .bots import make_bot

        return make_bot(self, name, self.bot_spec())

    def bot_spec(self) -> SearchSpec:
        """The game's greedy bot, evaluation and search budgets per level (core/bots.py)."""
        raise NotImplementedError(f"{self.title} declares no bots; override bot() or bot_spec()")

    @abstractmethod
    def with_content(self, given: ContentFiles) -> GameBase[S, A]:
        """This game with a person's own content, as the caller read it (see docs/content.md)."""

    def parse_action(self, text: str) -> A:
        return self.codec.parse(text)

    def from_text(self, text: str | bytes) -> S:
        try:
            env = msgspec.json.decode(text, type=_Envelope[self.state_type.DATA])  # type: ignore[name-defined]
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise RecordError(f"not a {self.title} position: {e}") from None
        if env.game != self.name:
            raise RecordError(f"this position is for {env.game!r}, not {self.name!r}")
        return self.state_type(env.data, seed=env.seed, ply=env.ply)

    def make_options(self, options: object) -> msgspec.Struct:
        """Options from None, a dict or the options Struct itself, validated."""
        if options is None:
            return self.options_type()
        if isinstance(options, self.options_type):
            return options
        try:
            return msgspec.convert(options, self.options_type)
        except msgspec.ValidationError as e:
            raise ValueError(f"bad {self.title} options: {e}") from None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")


def bind_state(base: type[S], name: str | None = None, **content: object) -> type[S]:
    """A subclass of `base` that carries one game content as class attributes.

    Each Game object binds its own, so a position, its clones, views and text
    form keep the content they were made with, and two contents (the packaged
    one and a person's file) live side by side without global state.
    """
    return type(name or base.__name__, (base,), {**content, "__slots__": (), "__module__": base.__module__})


def seed_text(seed: int | str | bytes | None) -> str | None:
    """Seeds are stored as text so records and saves stay readable."""
    if seed is None:
        return None
    if isinstance(seed, bytes):
        return "hex:" + seed.hex()
    return str(seed)
