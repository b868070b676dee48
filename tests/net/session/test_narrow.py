"""Every host phase's constructor names what it may touch, and none is handed the whole host.

A phase (net/session/host/) is given the table's record, an outbox, its tasks, the clock, the
table's terms, the other phases it works with and the host seen through a small protocol of its
own (host/shared.py). This holds that shape: no constructor parameter is typed as the host itself,
and no protocol a phase is handed lists more than a few members, so mypy confines each phase
to the members its protocol names.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any

import pytest

from coldwater.net.session.host import (
    beacons,
    connections,
    ending,
    fairforfeit,
    fairhost,
    fairtimer,
    relay,
    rematch,
    seating,
    seedround,
    spectators,
    takeover,
)
from coldwater.net.session.host import shared as host_shared
from coldwater.net.session.host.host import TableHost

PHASES = [
    beacons.Beacons,
    connections.Connections,
    ending.Ending,
    ending.Finals,
    fairforfeit.Forfeits,
    fairhost.FairHost,
    fairtimer.FairTimer,
    relay.Relay,
    rematch.RematchOffer,
    seating.Seating,
    seedround.Seeding,
    spectators.Spectators,
    takeover.Takeover,
]

MOST_MEMBERS = 12
"""The most members a protocol handed to a phase may list (the widest now, the seating's, has 12)."""


def _members(proto: type) -> set[str]:
    """The members a protocol class declares (its own and its protocol bases', not object's)."""
    names: set[str] = set()
    for base in proto.__mro__:
        if base in (object, typing.Protocol, typing.Generic) or not getattr(base, "_is_protocol", False):
            continue
        names |= {n for n in vars(base) if not n.startswith("_")}
        names |= set(getattr(base, "__annotations__", {}))
    return names


def _namespace() -> dict[str, Any]:
    """The names the phases' annotations use, their TYPE_CHECKING imports included."""
    from coldwater.net import link
    from coldwater.net.session import events, failover, fairtable, record, standin, turnclock

    ns: dict[str, Any] = {}
    for mod in (link, events, failover, fairtable, record, standin, turnclock, *{inspect.getmodule(c) for c in PHASES}):
        ns.update(vars(mod))
    ns.update({c.__name__: c for c in PHASES})
    ns["TableHost"] = TableHost
    return ns


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls.__init__, globalns={**_namespace(), **vars(inspect.getmodule(cls))})


@pytest.mark.parametrize("phase", PHASES, ids=lambda c: c.__name__)
def test_a_phase_is_handed_no_more_than_its_constructor_names(phase: type) -> None:
    hints = _hints(phase)
    params = [p for p in inspect.signature(phase.__init__).parameters if p != "self"]
    assert all(p in hints for p in params), f"{phase.__name__}: every parameter is typed"
    for name in params:
        hint = hints[name]
        for t in typing.get_args(hint) or (hint,):
            assert t is not TableHost, f"{phase.__name__}({name}) is handed the whole host"
            if isinstance(t, type) and getattr(t, "_is_protocol", False):
                members = _members(t)
                assert len(members) <= MOST_MEMBERS, (
                    f"{phase.__name__}({name}: {t.__name__}) lists {len(members)} members: {sorted(members)}"
                )


def test_every_class_handed_the_host_is_checked_here() -> None:
    """A new phase (a class of net/session/host/ handed some view of the host) joins PHASES above."""
    mods = {inspect.getmodule(c) for c in PHASES} | {host_shared}
    handed = {
        c
        for mod in mods
        for c in vars(mod).values()
        if inspect.isclass(c)
        and c.__module__ == mod.__name__
        and not getattr(c, "_is_protocol", False)
        and "host" in inspect.signature(c.__init__).parameters
    }
    assert handed <= set(PHASES), sorted(c.__name__ for c in handed - set(PHASES))


def test_the_forty_member_view_of_the_host_is_gone() -> None:
    assert not hasattr(host_shared, "HostCore")


def test_the_host_keeps_no_delegates_to_its_phases() -> None:
    """Callers reach a phase directly (``host.rematch.offer(port)``), not through a forwarding member."""
    gone = {"fair", "fair_record", "stand_in", "seat_autoplay", "rematch_seats", "open_seat", "offer_rematch"}
    gone |= {"hand_over", "relay_finals", "public_source", "make_table", "give_to_bot", "serve"}
    assert not gone & set(dir(TableHost))


def test_the_widest_protocol_is_counted() -> None:
    """The member count above sees every member (a protocol of properties and attributes alike)."""
    assert _members(relay.RelayTable) >= {"remotes", "table", "dealer", "chooser"}
    assert len(_members(host_shared.Outbox)) == 5
