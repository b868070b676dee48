"""A memory probe for fair-dealer tables: does this process ever hold another seat's sealed value early?

Issue 14 asks that no process — the host's included — ever holds a sealed value
before the rules show it to its seat. A test can only believe that of a real
process by looking inside it, so this probe does, when ``COLDWATER_PROBE`` names
a folder (it costs nothing otherwise: :func:`attach` is one environment lookup
per game, and nothing is wrapped).

**At every ply** (each time the process's own view takes a step) it walks every
object the garbage collector tracks (``gc.get_objects()``: views, their clones
and copies, bot scratch, records, the slot map, decoded messages) and this
process's saves on disk, and notes each sealed value it finds *in the form the
engine keeps it*, with the ply it was first seen. What counts as one comes from
the engine's own hooks: for every copy of the game's state data in memory,
every sealed slot's value through ``State.sealed_value`` (``SEALED`` games
only); plus the few loose objects that carry one (a Crown ``Fish`` with its card,
a ``Reveal`` outcome with a card) and every label the seat's ``FairSeat`` has
read. A value is a **token**: ``("fish", card)`` for a Crown fish card (unique,
so its place does not matter), ``("tackle", holder, kind)`` for a held piece;
Aquatica's below.

**At the end**, once every key is revealed, the probe decrypts every dealt card
itself, replays the whole game and computes, per ply, every token its seat's
view showed so far, and (:attr:`SealedSpec.public`) what the public record told
everyone by then. A token first seen at ply *p* that the seat's knowledge had not
shown by *p* is a leak; the report (``probe-seat<N>-<pid>.json`` in the folder)
lists them, with how many tokens of each kind it saw. The probe can fail:
``COLDWATER_PROBE_PLANT=<ply>`` makes it plant, at that ply, every possible value
(Crown: a fish of every card; Aquatica: a table with every card in every place),
which the report must show as leaks.

Games: :data:`SPECS` maps a game to its :class:`SealedSpec` (its data type, its
tokens, loose carriers, labels, deck outcomes, a plant, and what its public
record tells). With search bots a determinized guess can equal a hidden value by
chance, so a probed game uses bots that do not determinize (``random``, the
default headless bot).

**Aquatica.** Card ids are public (every card of the content exists), so a token
is *where* a card is, for the places a view may blank or a draw fills:
``("hand", seat, card)``, ``("draft", king)`` (a King drawn into the advanced
draft), ``("cbox", card)``, ``("lbox", location)``, ``("kbox", king)`` (face down
in the box: no view holds them) and ``("row", card)``, ``("lrow", location)``
(dealt face up: a label read before its deal would be a deck's next card). A
label read off a deck is the place that deck feeds: the ◇ and Location-type decks
the boxes (opened to nobody), the King deck the draft, the merged decks the rows.
Views blank other seats' hands, yet every card reaches a hand by a public step, so
the seat's slot map (``seat.AqOrigins``) holds every hand: what a seat knows by
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

import gc
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

import msgspec

from .. import fairplay as fp
from ..fairdeal.group import Point, Scalar
from ..fairdeal.seat import AqOrigins, Entry, FairSeat, _Act, _crown_objects, aq_outcome, aq_shadow, crown_outcome

if TYPE_CHECKING:
    from coldwater.core.aquatica.actions import AqAction
    from coldwater.core.aquatica.state import AqState
    from coldwater.core.notation import Action
    from coldwater.core.state import State

    from ..fairdeal.wire import KeyReveal
    from .fairtable import FairDriver

PROBE_ENV: Final = "COLDWATER_PROBE"
PLANT_ENV: Final = "COLDWATER_PROBE_PLANT"

Token = tuple[Any, ...]


class _OnDisk(msgspec.Struct):
    """The parts of a saved seat that could hold a sealed value (the rest is keys, seats and commitments)."""

    view: bytes = b""
    fair: bytes = b""


class _Transcript(msgspec.Struct):
    log: list[msgspec.Raw] = []


class PublicRecord(Protocol):
    """What the public record tells everyone beyond a seat's view, followed step by step from the opening
    (for the end-of-game replay: what a seat legitimately knew by each ply)."""

    def step(self, full: State[Any, Any], action: Action) -> None:
        """Follow one step of the game: `action` as the full state `full` is about to take it."""

    def tokens(self, full: State[Any, Any], allowed: Mapping[Token, int]) -> Iterable[Token]:
        """What the record has told by now (`full` just stepped; `allowed`: what the seat knew before)."""


@dataclass(frozen=True)
class SealedSpec:
    """What the probe needs of one game to find its sealed values in memory and on disk."""

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
    """What the public record tells beyond the seat's view, from the opening's full state (None: nothing
    more than the view, as in Crown, whose views show everything public)."""


def _crown_tokens(st: State[Any, Any]) -> Iterable[Token]:
    """A fish's card (unique: its place does not matter) and a held piece's kind (with its holder)."""
    for slot, obj in _crown_objects(st.data):
        if slot[0] == "submitted":  # a fish in a running contest: not a core slot, read from the fish itself
            v = getattr(obj, "card", None)
        else:
            v = st.sealed_value(slot)
        if v is not None:
            yield ("tackle", slot[1], v) if slot[0] == "tackle" else ("fish", v)


def _crown_spec() -> SealedSpec:
    from coldwater.core.crown.actions import Reveal
    from coldwater.core.crown.content import load_default
    from coldwater.core.crown.model import CrownData, Fish

    def plant() -> list[object]:
        t = load_default()
        return [Fish(t.species_of[c], card=c) for c in range(len(t.species_of))]

    return SealedSpec(
        data_type=CrownData,
        tokens=_crown_tokens,
        loose={
            Fish: lambda f: ("fish", f.card) if f.card is not None else None,
            Reveal: lambda a: ("fish", a.card) if a.card is not None else None,
        },
        label=lambda deck, part, label: ("fish", int(label)) if deck.startswith("crown/fish/") and part == 1 else None,
        outcome=crown_outcome,
        plant=plant,
    )


def _aq_tokens(st: State[Any, Any]) -> Iterable[Token]:
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


def _aq_label(deck: str, part: int, label: str) -> Token | None:
    """A label read off an Aquatica deck, as the place its deck feeds: the ◇ and Location-type decks
    only the boxes (opened to nobody), the King deck the draft, the merged decks the face-up rows."""
    from ..fairdeal import mapping

    if deck == mapping.DIAMOND_DECK:
        return ("cbox", int(label))
    if deck.startswith(mapping.LOCATIONS + "/"):
        return ("lbox", int(label))
    if deck == mapping.KINGS:
        return ("draft", int(label))
    if deck == mapping.CHARACTERS:
        return ("row", int(label))
    if deck == mapping.LOCATIONS:
        return ("lrow", int(label))
    return None


class _AqPublic:
    """Aquatica's public record, as every process may follow it: the public shadow of the table
    (``seat.aq_shadow``/``AqOrigins``, fed only outcomes as everyone sees them, so every hand is
    known and decks, boxes and draft stay blank), every King a ``king N`` names (it was in the
    draft), and the boxed King once the seat saw it in the draft (the others were all named)."""

    def __init__(self, start: State[Any, Any]) -> None:
        self.shadow = AqOrigins(aq_shadow(cast("AqState", start)))  # (this spec is Aquatica's)
        self.named: set[Token] = set()

    def step(self, full: State[Any, Any], action: Action) -> None:
        from coldwater.core.aquatica.actions import PickKing
        from coldwater.core.aquatica.game import GAME
        from coldwater.core.state import CHANCE

        if full.current == CHANCE:
            action = full.seen_outcome(action, None)
        elif isinstance(action, PickKing):
            self.named.add(("draft", GAME.deck.king_id(action.number)))
        self.shadow.step(cast("AqAction", action), None, None, None)  # (no deck positions: the tokens need none)

    def tokens(self, full: State[Any, Any], allowed: Mapping[Token, int]) -> Iterable[Token]:
        yield from _aq_tokens(self.shadow.shadow)
        yield from self.named
        for k in full.data.king_box:
            if ("draft", k) in allowed:
                yield ("kbox", k)


def _aquatica_spec() -> SealedSpec:
    from coldwater.core.aquatica.game import GAME, AqOptions
    from coldwater.core.aquatica.model import AqData

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

    return SealedSpec(
        data_type=AqData,
        tokens=_aq_tokens,
        loose={},
        label=_aq_label,
        outcome=lambda deck, labels: aq_outcome(labels[0], deck),
        plant=plant,
        public=_AqPublic,
    )


SPECS: Final[dict[str, Callable[[], SealedSpec]]] = {"crown": _crown_spec, "aquatica": _aquatica_spec}
"""Each fair-dealt game's spec (one entry per game)."""


def attach(drv: FairDriver) -> Probe | None:
    """Probe this process's fair seat if ``COLDWATER_PROBE`` is set (else nothing, at no cost)."""
    folder = os.environ.get(PROBE_ENV)
    if not folder:
        return None
    make = SPECS.get(drv.fs.name)
    if make is None:
        return None
    home = os.environ.get("COLDWATER_HOME")
    saves = [Path(home) / "lan"] if home else []
    plant = os.environ.get(PLANT_ENV)
    p = Probe(drv.fs, make(), out=Path(folder), saves=saves, plant_at=int(plant) if plant else None)
    p.hook(drv)
    return p


def prepare() -> None:
    """Called just before a fair seat is made (a no-op without ``COLDWATER_PROBE``): what exists then —
    modules, classes, content tables, the session's own objects — is frozen out of the walk, which then
    costs milliseconds, not tens. Everything the game makes from here — the seat, every view, copy,
    record — is walked. (Not before a seat is made and not after: an object frozen is never walked
    again, however it changes, and nothing made before the seat holds a card.)"""
    if os.environ.get(PROBE_ENV):
        gc.collect()
        gc.freeze()


@dataclass
class Probe:
    fs: FairSeat
    spec: SealedSpec
    out: Path | None = None
    saves: list[Path] = field(default_factory=list)
    objects: Callable[[], Iterable[object]] = gc.get_objects
    plant_at: int | None = None
    first: dict[Token, int] = field(default_factory=dict)
    """Every token found, with the ply it was first found at."""
    plies: int = 0
    walked: int = 0
    seconds: float = 0.0
    disk_seconds: float = 0.0
    planted: list[object] = field(default_factory=list)
    _read: dict[Path, tuple[float, int, int]] = field(default_factory=dict)
    _labels: dict[tuple[tuple[str, int, int], str], Token | None] = field(default_factory=dict)
    report: dict[str, Any] | None = None

    def hook(self, drv: FairDriver) -> None:
        """Look at every step the driver takes (it calls :meth:`look`); judge once every key is out."""
        drv.over.add_done_callback(self._over)

    def _over(self, fut: Any) -> None:
        if fut.cancelled() or fut.exception() is not None:
            return
        self.finish(fut.result())

    # ---- at every ply ---------------------------------------------------------------------
    def look(self) -> None:
        t0 = time.perf_counter()
        ply = self.fs.view.ply
        if self.plant_at is not None and ply >= self.plant_at and not self.planted:
            self.planted = self.spec.plant()
        found: set[Token] = set()
        spec, st_type = self.spec, type(self.fs.view)
        loose, data_type = spec.loose, spec.data_type
        objs = list(self.objects())
        # Tens of thousands of objects a ply (and five times as many referents): each list is picked
        # by type in one comprehension (measured a third faster on Python 3.11 than map/compress, and
        # several times faster than one test an object); this walk is most of a probed game's CPU.
        wanted = {data_type, FairSeat}
        for o in [o for o in objs if type(o) in wanted]:
            if type(o) is data_type:
                self._data(o, st_type, found)
                continue
            for where, label in cast(FairSeat, o).known.items():
                tok = self._label(where, label)
                if tok is not None:
                    found.add(tok)
        # Small immutable objects (a Fish, an outcome) are not tracked by the collector: they are
        # found through whatever holds them (a list, a dict, a struct, an instance's attributes).
        # A game with no loose carriers (Aquatica) has nothing to find there.
        refs = gc.get_referents(*objs) if loose else []
        for o in [o for o in refs if type(o) in loose]:
            tok = loose[type(o)](o)
            if tok is not None:
                found.add(tok)
        n = len(objs) + len(refs)
        t1 = time.perf_counter()
        for folder in self.saves:
            self._disk(folder, st_type, found)
        self.disk_seconds += time.perf_counter() - t1
        for tok in found:
            self.first.setdefault(tok, ply)
        self.plies += 1
        self.walked += n
        self.seconds += time.perf_counter() - t0

    def _label(self, where: tuple[str, int, int], label: str) -> Token | None:
        """The token of a label the seat read at `where` (deck, position, part); the same label always
        gives the same token, so each is worked out once (a seat's labels are read again every ply)."""
        key = (where, label)
        if key not in self._labels:
            deck, _pos, part = where
            self._labels[key] = self.spec.label(deck, part, label)
        return self._labels[key]

    def _data(self, d: Any, st_type: type, found: set[Token]) -> None:
        try:
            found.update(self.spec.tokens(st_type(d)))
        except Exception:  # a half-built copy (a step being applied): its objects are walked loose
            return

    def _disk(self, folder: Path, st_type: type, found: set[Token]) -> None:
        """This process's saves: a view in one (none at a fair table) and every action in its transcript
        (which only grows: the entries read at an earlier ply are not decoded again)."""
        for path in folder.glob("*.json") if folder.exists() else []:
            try:
                stat = path.stat()
                key = (stat.st_mtime, stat.st_size)
                seen = self._read.get(path)
                if seen is not None and seen[:2] == key:
                    continue
                sv = msgspec.json.decode(path.read_bytes(), type=_OnDisk)
            except (OSError, msgspec.DecodeError, msgspec.ValidationError):
                continue
            done = seen[2] if seen is not None else 0
            if sv.view:
                try:
                    from .persist import decode_view

                    self._data(decode_view(self.fs.game, sv.view, 0).data, st_type, found)
                except Exception:
                    found.add(("undecodable view", str(path)))
            log: list[msgspec.Raw] = []
            if sv.fair:
                try:
                    log = msgspec.msgpack.decode(sv.fair, type=_Transcript).log
                except (msgspec.DecodeError, msgspec.ValidationError):
                    found.add(("undecodable transcript", str(path)))
            for raw in log[done:] if len(log) >= done else log:
                try:
                    e = msgspec.msgpack.decode(raw, type=Entry)
                except (msgspec.DecodeError, msgspec.ValidationError):
                    found.add(("undecodable entry", str(path)))
                    continue
                if isinstance(e, _Act):
                    a = self.fs.game.parse_action(e.action)
                    f = self.spec.loose.get(type(a))
                    tok = f(a) if f is not None else None
                    if tok is not None:
                        found.add(tok)
            self._read[path] = (*key, len(log))

    # ---- at the end ------------------------------------------------------------------------
    def truth(self, reveals: dict[int, KeyReveal]) -> dict[Token, int]:
        """Every token this seat's view showed, with the first ply it showed it (from every key, at the end)."""
        fs = self.fs
        xs = [Scalar.decode(reveals[s].secret, "revealed key") for s in range(fs.players)]
        cards: dict[str, list[list[str | None]]] = {}
        for deck_id in fs.order:
            d = fs.decks[deck_id]
            rows: list[list[str | None]] = []
            for pos in range(fs.dealt[deck_id]):
                row: list[str | None] = []
                for part in range(d.spec.parts):
                    ct = d.ct(pos, part)
                    m = Point(ct.c2)
                    for x in xs:
                        m = m - Point(ct.c1) * x
                    row.append(d.spec.lookup(part, m))
                rows.append(row)
            cards[deck_id] = rows
        full = fs.game.new(fs.players, seed=fp.game_seed(fs.joint), options=fs.options)
        allowed: dict[Token, int] = {}
        st_type = type(fs.view)

        public = self.spec.public(full) if self.spec.public is not None else None

        def note() -> None:
            got: set[Token] = set()
            self._data(full.view(fs.seat).data, st_type, got)
            for tok in got:
                allowed.setdefault(tok, full.ply)
            if public is not None:
                for tok in list(public.tokens(full, allowed)):
                    allowed.setdefault(tok, full.ply)

        note()
        for kind, what in fs.record:
            action = what
            if kind == "deal":
                deck_id, pos = what
                action = self.spec.outcome(deck_id, cards[deck_id][pos])
            if public is not None:
                public.step(full, action)
            full.apply(action)
            note()
        return allowed

    def finish(self, reveals: dict[int, KeyReveal]) -> dict[str, Any]:
        allowed = self.truth(reveals)
        leaks = [
            {"token": list(tok), "seen_at": ply, "shown_at": allowed.get(tok)}
            for tok, ply in sorted(self.first.items(), key=lambda kv: kv[1])
            if allowed.get(tok, 1 << 30) > ply
        ]
        self.report = {
            "seat": self.fs.seat,
            "pid": os.getpid(),
            "plies": self.plies,
            "objects_per_ply": self.walked // max(self.plies, 1),
            "tokens": len(self.first),
            "kinds": dict(Counter(str(tok[0]) for tok in self.first)),
            "ms_per_ply": round(1000 * self.seconds / max(self.plies, 1), 2),
            "disk_ms_per_ply": round(1000 * self.disk_seconds / max(self.plies, 1), 2),
            "planted": bool(self.planted),
            "leaks": leaks,
        }
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            path = self.out / f"probe-seat{self.fs.seat}-{os.getpid()}.json"
            path.write_text(json.dumps(self.report, default=str))
        return self.report
