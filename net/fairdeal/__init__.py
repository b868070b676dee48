"""Private deals with no dealer: mental poker on the Ed25519 group (docs/fairplay.md).

- :mod:`.group`: :class:`Point`, :class:`Scalar` over libsodium, validation of received points;
- :mod:`.proofs`: Chaum–Pedersen (DLEQ) proofs bound to a context;
- :mod:`.deck`: :class:`DeckSpec` (cards as points), :class:`SeatKey`, :class:`TableKeys`,
  shuffle passes, strips, openings, hand-overs, and :class:`Deck` (one deck at one peer);
- :mod:`.deckaudit`: the end-of-game audit of a deck, naming the seat at fault;
- :mod:`.wire`: the Structs that cross the wire, with their size limits (a namer's :class:`Word` too);
- :mod:`.mapping`: a game's chance nodes as beacon draws or deck positions, from its declaration
  (``Game.dealing``, core/dealing.py);
- :mod:`.seat`: one process's side of a dealt table (a game that declares sealed decks): its own view
  only, the slot map, the rounds. The LAN session drives it (``net/session/fairtable.py``), and
  the host relays its messages;
- :mod:`.gameaudit`: the end of such a table: every deck audited, the whole game replayed (:class:`FairAudit`);
- :mod:`.save`: a seat's save (:class:`FairSave`), which the seat replays to come back.
"""

from .deck import Deck, DeckSpec, FairDealError, SeatKey, TableKeys
from .deckaudit import Claim, DeckAudit, audit_deck
from .group import GroupError, Point, Scalar
from .wire import Handover, KeyReveal, KeyShare, Named, PassSecrets, ShuffledDeck, Strip, WireError, Word

__all__ = [
    "Claim",
    "Deck",
    "DeckAudit",
    "DeckSpec",
    "FairDealError",
    "GroupError",
    "Handover",
    "KeyReveal",
    "KeyShare",
    "Named",
    "PassSecrets",
    "Point",
    "Scalar",
    "SeatKey",
    "ShuffledDeck",
    "Strip",
    "TableKeys",
    "WireError",
    "Word",
    "audit_deck",
]
