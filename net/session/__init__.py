"""LAN table sessions: the host that seats peers and orders actions, the seats, and the watchers.

The folder shows the sides: `host/` is the host's (`TableHost` and its phases), `seat/` a
seat's (`TablePeer` and its phases); the modules here are what both sides (and a watcher)
share. Each folder's `__init__.py` lists its modules.

| module | holds |
|---|---|
| `host/` | the host's side: `TableHost` and its phases |
| `seat/` | a seat's side: `TablePeer` and its phases |
| `record.py` | `TableRecord`: what one side agreed with the others, the one value its phases share |
| `failover.py` | choosing a new host, what a seat hands the host it becomes (`Handover`), a fair seat's save |
| `events.py` | the events listeners receive, `Result`, the one `Emitter`, `bot_chooser` |
| `persist.py` | the atomic writer, the off-loop `Saver`, `HostTable`, a peer's `PeerSave` |
| `fairwire.py` | a fair table's messages: their kinds, size limits, each seat's allowance, what a seat signs |
| `fairtable.py` | a fair-dealer table's rounds as one process plays them (`FairDriver`), host or seat alike |
| `forfeit.py` | a forfeit's verdict: proposal, evidence, every seat's signed answer (`VerdictRecord`) |
| `standin.py` | the turn timer at a fair table, kept by the seat's own process |
| `turnclock.py` | the turn clock: a time per move and a bank per game, as each process measures them |
| `watcher.py` | `TableWatcher`: watching a table, checking every public step |
| `joining.py` | what a peer and a watcher share: reaching a named table, checking a resync |
| `hostlink.py` | the heartbeat to a host, and reaching it again (its key pinned): peer, failover, watcher |

The full protocol, fault handling and what a cheating host can and cannot do
are in docs/lan.md. Nothing here prints.
"""

from __future__ import annotations

from .events import (
    ChatReceived,
    Chooser,
    Emitter,
    Event,
    Finished,
    GameStarted,
    HostChanged,
    HostLeft,
    Listener,
    LobbyChanged,
    PresenceChanged,
    Problem,
    RematchAnswered,
    RematchOffered,
    Result,
    StepApplied,
    bot_chooser,
)
from .host.host import END_GRACE, JOIN_TIMEOUT, ROUND_TIMEOUT, TableHost, fp_pass_key
from .host.shared import HostPhase, Remote
from .host.spectators import WATCHERS, Spectators
from .persist import PeerSave, SavedSeat, safe_name
from .seat.peer import PeerPhase, SentAway, TablePeer, WrongTable
from .watcher import NotAdmitted, TableWatcher

_safe = safe_name
"""The old private name, still imported by lan.py."""

__all__ = [
    "END_GRACE",
    "JOIN_TIMEOUT",
    "ROUND_TIMEOUT",
    "WATCHERS",
    "ChatReceived",
    "Chooser",
    "Emitter",
    "Event",
    "Finished",
    "GameStarted",
    "HostChanged",
    "HostLeft",
    "HostPhase",
    "Listener",
    "LobbyChanged",
    "NotAdmitted",
    "PeerPhase",
    "PeerSave",
    "PresenceChanged",
    "Problem",
    "RematchAnswered",
    "RematchOffered",
    "Remote",
    "Result",
    "SavedSeat",
    "SentAway",
    "Spectators",
    "StepApplied",
    "TableHost",
    "TablePeer",
    "TableWatcher",
    "WrongTable",
    "bot_chooser",
    "fp_pass_key",
    "safe_name",
]
