"""The host's side of a LAN table: :class:`~.host.TableHost` and the phases of its protocol.

| module | holds |
|---|---|
| `host.py` | `TableHost`: the phases composed, its API, the run loop, heartbeat, broadcast, refusals |
| `hostcore.py` | `HostPhase`, `Remote` (a remote seat) and `HostCore`, what the phases may use of the host |
| `seating.py` | the lobby and who sits where: admission (the table's `link.Door`), the seat list, leaving, hand-overs |
| `seedround.py` | the seed rounds (`Seeding`) up to the game's start; one round (`SeedRound`) |
| `relay.py` | a committed game's moves, chance and steps; resync, mismatch |
| `beacons.py` | public draws from the seats' beacon links |
| `fairhost.py` | a fair-dealer table's host side: its drivers, the relay of `Fair` messages, the round timer |
| `ending.py` | the end of a committed game: the End, the audit, the signed finals |
| `rematch.py` | the same table offered again, and the seats' answers |
| `spectators.py` | the watchers: what they are sent (the public view only), what they may send |
| `takeover.py` | after a failover: the shares and records gathered, the position rebuilt (`Takeover`) |
"""
