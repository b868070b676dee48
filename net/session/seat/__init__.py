"""A seat's side of a LAN table: :class:`~.peer.TablePeer` and the phases of its protocol.

Each phase's constructor names all it may touch: the table's record, the outbox, the clock, the
phases it works with and a small Protocol of the seat in its own module (shared.py says more).

| module | holds |
|---|---|
| `peer.py` | `TablePeer`: joining, the connection and its dispatch, playing its seat, the rematch offer |
| `shared.py` | what every phase shares: `PeerPhase`, `SentAway` and the `Outbox` it speaks through |
| `lobbyview.py` | who sits where, who is away or played by a bot, chat, hand-overs (`LobbyView`) |
| `peerseed.py` | the seat's commit and reveal in the seed round, and the game's start |
| `stepcheck.py` | every step and resync checked on the seat's own core; evidence (`StepCheck`) |
| `fairpeer.py` | a fair-dealer table from a seat: its rounds, a forfeit's verdict, its end |
| `audit.py` | the audit of a committed game at the end, and every seat's final digest |
| `peersave.py` | the seat's save: made, kept, restored |
| `peerfailover.py` | the host lost: reconnecting, choosing a new host, becoming it; the seat's listener |

(`stepcheck.py` checks a committed table's steps; `fairdeal/deckaudit.py` audits a fair table's decks at
the end: different jobs, different names.)
"""
