"""The host's side of a LAN table: :class:`~.host.TableHost` and the phases of its protocol.

| module | holds |
|---|---|
| `host.py` | `TableHost`: the phases composed, the state they share, its API, the run loop, broadcast, refusals |
| `shared.py` | `HostPhase`, `Remote` (a remote seat), and what a phase is handed: `Outbox`, `TableTerms`, `Tasks` |
| `connections.py` | the table's `link.Door`, each seat's messages to the phase they are for, the heartbeat |
| `seating.py` | the lobby and who sits where: admission, the seat list, leaving, hand-overs |
| `seedround.py` | the seed rounds (`Seeding`) up to the game's start; one round (`SeedRound`) |
| `relay.py` | a committed game's moves, chance and steps; resync, mismatch |
| `beacons.py` | public draws from the seats' beacon links |
| `fairhost.py` | a fair-dealer table's host side: its drivers, the relay of `Fair` messages, the end |
| `fairtimer.py` | a fair table's clock: a seat out of time, a seat its own bot plays, a stalled round |
| `fairforfeit.py` | a fair table's forfeit: the seats named, the proposal, every seat's answer, the verdict |
| `ending.py` | the end of a committed game: the End, the audit; the signed finals (`Finals`) |
| `rematch.py` | the same table offered again, and the seats' answers |
| `spectators.py` | the watchers: what they are sent (the public view only), what they may send |
| `takeover.py` | after a failover: the handover taken, the shares and records gathered, the position rebuilt |
"""
