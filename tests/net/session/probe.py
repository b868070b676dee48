"""A memory probe for fair-dealer tables: does this process ever hold another seat's sealed value early?

Issue 14 asks that no process — the host's included — ever holds a sealed value
before the rules show it to its seat. A test can only believe that of a real
process by looking inside it, so this probe does, when ``COLDWATER_PROBE`` names
a folder. It is a test instrument, not part of the package: a process is probed
when it is started as ``python -m tests.net.session.probed …`` (the LAN CLI with
:func:`install` done first), which hooks every ``FairDriver`` it makes
(``FairDriver.probe``) and freezes the collector just before its first fair seat.

**At every ply** (each time the process's own view takes a step) it walks every
object the garbage collector tracks (``gc.get_objects()``: views, their clones
and copies, bot scratch, records, the slot map, decoded messages) and this
process's saves on disk, and notes each sealed value it finds *in the form the
engine keeps it*, with the ply it was first seen. What counts as one is the
game's own declaration (``Game.dealing.probing()``, a
:class:`~coldwater.core.dealing.Probing` beside each game's slot map in
``core/<game>/dealing.py``): its state data (every copy in memory is read through
the engine's hooks, ``State.sealed_value``), the few loose objects that carry one
(an outcome with a card in it, say), and every label the seat's ``FairSeat`` has
read. A value is a **token**, as the game declares it.

**At the end**, once every key is revealed, the probe decrypts every dealt card
itself, replays the whole game and computes, per ply, every token its seat's
view showed so far, and (``Probing.public``) what the public record told
everyone by then. A token first seen at ply *p* that the seat's knowledge had not
shown by *p* is a leak; the report (``probe-seat<N>-<pid>.json`` in the folder)
lists them, with how many tokens of each kind it saw. The probe can fail:
``COLDWATER_PROBE_PLANT=<ply>`` makes it plant, at that ply, every possible value
(``Probing.plant``), which the report must show as leaks.

A game that declares no probing is not probed. With search bots a determinized
guess can equal a hidden value by chance, so a probed game uses bots that do not
determinize (``random``, the default headless bot). What each game's tokens are,
and what its public record tells beyond a view, is written beside its declaration
(core/<game>/dealing.py).
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

import msgspec

from coldwater.core.dealing import Probing, Token
from coldwater.net import fairplay as fp
from coldwater.net.fairdeal import mapping
from coldwater.net.fairdeal.group import Point, Scalar
from coldwater.net.fairdeal.save import ActEntry, Entry
from coldwater.net.fairdeal.seat import FairSeat
from coldwater.net.session.fairtable import FairDriver

if TYPE_CHECKING:
    from coldwater.net.fairdeal.wire import KeyReveal

PROBE_ENV: Final = "COLDWATER_PROBE"
PLANT_ENV: Final = "COLDWATER_PROBE_PLANT"


class _OnDisk(msgspec.Struct):
    """The parts of a saved seat that could hold a sealed value (the rest is keys, seats and commitments)."""

    view: bytes = b""
    fair: bytes = b""


class _Transcript(msgspec.Struct):
    log: list[msgspec.Raw] = []


def spec_of(game: str) -> Probing | None:
    """The probing a game declares (None: nothing to probe)."""
    dealing = mapping.dealing(game)
    return dealing.probing() if dealing is not None else None


def attach(drv: FairDriver) -> Probe | None:
    """Probe this process's fair seat if ``COLDWATER_PROBE`` is set (else nothing, at no cost)."""
    folder = os.environ.get(PROBE_ENV)
    if not folder:
        return None
    spec = spec_of(drv.fs.name)
    if spec is None:
        return None
    home = os.environ.get("COLDWATER_HOME")
    saves = [Path(home) / "lan"] if home else []
    plant = os.environ.get(PLANT_ENV)
    p = Probe(drv.fs, spec, out=Path(folder), saves=saves, plant_at=int(plant) if plant else None)
    p.hook(drv)
    return p


def install() -> None:
    """Probe every fair seat this process makes (when ``COLDWATER_PROBE`` is set): :func:`prepare` before
    the first ``FairSeat``, :func:`attach` to every ``FairDriver`` as it is made. Only ``probed.py``,
    the probed CLI's entry point, calls it: it wraps the two classes for the life of that process."""
    if not os.environ.get(PROBE_ENV):
        return
    seat_init = FairSeat.__init__
    driver_init = FairDriver.__init__
    first = [True]

    def seat(self: FairSeat, *a: Any, **kw: Any) -> None:
        if first[0]:
            first[0] = False
            prepare()
        seat_init(self, *a, **kw)

    def driver(self: FairDriver, *a: Any, **kw: Any) -> None:
        driver_init(self, *a, **kw)
        p = attach(self)
        self.looker = p.look if p is not None else None

    FairSeat.__init__ = seat  # type: ignore[method-assign]
    FairDriver.__init__ = driver  # type: ignore[method-assign]


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
    spec: Probing
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
        # A game with no loose carriers has nothing to find there.
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
                    from ..persist import decode_view

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
                if isinstance(e, ActEntry):
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
