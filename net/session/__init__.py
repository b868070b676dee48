"""LAN table sessions: the host that seats peers and orders actions, and the peers.

| module | holds |
|---|---|
| `events.py` | the events listeners receive, `Result`, the one `Emitter`, `bot_chooser` |
| `persist.py` | the atomic writer, the off-loop `Saver`, `HostTable`, a peer's `PeerSave` |
| `seedround.py` | the host's seed rounds (`Seeding`) up to the game's start; one round (`SeedRound`) |
| `host.py` | `TableHost`: the phases composed, its API, the run loop, heartbeat, broadcast, refusals |
| `seating.py` | the host's lobby and who sits where: admission, the seat list, leaving, hand-overs |
| `ending.py` | the end of a committed game at the host: the End, the audit, the signed finals |
| `peer.py` | `TablePeer`: joining, the connection and its dispatch, playing its seat, reconnecting |
| `peercore.py` | `PeerPhase` and `PeerCore`, the narrow view of a peer its phase modules use |
| `peerseed.py` | a peer's side of the commit-reveal round and the game's start |
| `verify.py` | a peer's check of every step and resync on its own core (evidence) |
| `fairpeer.py` | a peer's side of a fair-dealer table: its rounds, a forfeit's verdict, its end |
| `audit.py` | a peer's audit of a committed game at the end, and every seat's final digest |
| `peersave.py` | a peer's save of its seat: made, kept, restored |
| `peerfailover.py` | a peer losing its host: reconnecting, choosing a new host, becoming it (`Handover`) |
| `failover.py` | choosing a new host, a peer's `Handover`, the new host's gathering and rebuild (`Takeover`) |
| `spectators.py` | the host's watchers: what they are sent (the public view only), what they may send |
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
from .host import END_GRACE, JOIN_TIMEOUT, ROUND_TIMEOUT, TableHost, fp_pass_key
from .hostcore import HostPhase, Remote
from .peer import PeerPhase, SentAway, TablePeer, WrongTable
from .persist import PeerSave, SavedSeat, safe_name
from .spectators import WATCHERS, Spectators
from .watcher import NotAdmitted, TableWatcher

Party = TableHost | TablePeer | TableWatcher
"""One process's side of a LAN table: its host, a seat's peer or a watcher (the lobby and table screens take any)."""

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
    "Party",
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
