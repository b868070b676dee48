"""Each phase of a seat names, in its constructor, everything it may touch: never the whole seat.

A seat's phase (net/session/seat/) is given the table's shared record, the outbox it speaks
through, the turn clock, the other phases it works with, plain values, and a small Protocol of
its own module listing the few further members of the seat it reads or writes; mypy holds it to
those (tests/test_types.py). This test holds the constructors: a parameter typed as the whole
peer (or anything that is not one of those) fails, and so does a Protocol that lists a phase
(a phase reaches another only through its constructor, never through the seat) or that grows
to half of what the seat has.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from types import ModuleType
from typing import Any, Protocol

from coldwater.net.identity import Identity
from coldwater.net.session import seat as seat_package
from coldwater.net.session.record import TableRecord
from coldwater.net.session.seat.peer import TablePeer
from coldwater.net.session.seat.shared import Outbox
from coldwater.net.session.turnclock import TurnClock

from ...toygame import GAME

PLAIN = {float, int, str, bool}


def _modules() -> list[ModuleType]:
    """The seat's phase modules: every module of seat/ but the seat itself and what the phases share."""
    names = [m.name for m in pkgutil.iter_modules(seat_package.__path__) if m.name not in ("peer", "shared")]
    return [importlib.import_module(f"{seat_package.__name__}.{n}") for n in sorted(names)]


def _is_protocol(cls: type) -> bool:
    return bool(getattr(cls, "_is_protocol", False))


def _phases() -> dict[type, ModuleType]:
    """Every phase class: a class defined in a phase module that is neither a Protocol nor an exception."""
    out: dict[type, ModuleType] = {}
    for mod in _modules():
        for _, cls in inspect.getmembers(mod, inspect.isclass):
            if cls.__module__ == mod.__name__ and not _is_protocol(cls) and not issubclass(cls, BaseException):
                out[cls] = mod
    return out


def _members(proto: type) -> set[str]:
    """What a Protocol lists: its attributes and its methods."""
    names = set(inspect.get_annotations(proto))
    names |= {n for n, v in proto.__dict__.items() if callable(v) and not n.startswith("_")}
    return names


def _public(peer: TablePeer) -> set[str]:
    """What the seat has: its public attributes and methods."""
    return {n for n in dir(peer) if not n.startswith("_")}


def problems(phase: type, module: ModuleType, phases: set[type], peer: TablePeer) -> list[str]:
    """What is wrong with `phase`'s constructor (empty: nothing)."""
    held = {n for n, v in vars(peer).items() if type(v) in phases}  # the seat's attributes that hold a phase
    ns = {**vars(module), "TableRecord": TableRecord, "TurnClock": TurnClock, "Outbox": Outbox, "TablePeer": TablePeer}
    ns.update({p.__name__: p for p in phases})
    hints = typing.get_type_hints(phase.__init__, globalns=ns)
    wrong = []
    for name, param in inspect.signature(phase.__init__).parameters.items():
        if name == "self":
            continue
        hint = hints.get(name)
        if hint in (TableRecord, Outbox, TurnClock) or hint in phases or hint in PLAIN:
            continue
        if isinstance(hint, type) and _is_protocol(hint) and hint.__module__ == module.__name__:
            listed = _members(hint)
            if listed & held:
                wrong.append(f"{phase.__name__}({name}): {hint.__name__} lists the phase(s) {sorted(listed & held)}")
            if len(listed) * 2 > len(_public(peer)):
                wrong.append(f"{phase.__name__}({name}): {hint.__name__} lists {len(listed)} members: the whole seat")
            continue
        wrong.append(
            f"{phase.__name__}({name}): {param.annotation!r} is not the record, outbox, clock, a phase, "
            "a plain value or a small Protocol of its own module"
        )
    return wrong


def test_a_seat_phase_is_given_what_it_may_touch_and_never_the_whole_seat() -> None:
    phases = _phases()
    names = {p.__name__ for p in phases}
    assert {"PeerSaves", "StepCheck", "PeerAudit", "FairPeer", "PeerSeed", "LobbyView", "PeerFailover"} <= names
    peer = TablePeer(GAME, Identity.generate())
    wrong = [w for p, mod in phases.items() for w in problems(p, mod, set(phases), peer)]
    assert not wrong, "\n".join(wrong)


def test_the_phase_check_can_fail() -> None:
    """A phase handed the whole seat, or a Protocol that reaches another phase through it, is caught."""
    phases = _phases()
    peer = TablePeer(GAME, Identity.generate())
    module = ModuleType("fake")

    class Whole:
        def __init__(self, peer: TablePeer) -> None: ...

    class Reaches(Protocol):
        saves: Any

    class Through:
        def __init__(self, seat: Reaches) -> None: ...

    class Untyped:
        def __init__(self, seat: Any) -> None: ...

    Reaches.__module__ = module.__name__
    vars(module).update(Reaches=Reaches, Any=Any)
    assert problems(Whole, module, set(phases), peer)
    assert problems(Through, module, set(phases), peer)
    assert problems(Untyped, module, set(phases), peer)
