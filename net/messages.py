"""Every message on the wire, as msgspec Structs in two tagged unions.

Handshake messages travel in plain frames (they set up the keys); everything
after the handshake is an application :data:`Message`, encrypted and authenticated
by :mod:`coldwater.net.crypto` (what a third party must believe, such as a seat's
move, carries its own signature inside the message). Field names are short because they are sent with
every message; tags are the ``k`` field.

Bump :data:`PROTOCOL` whenever a message changes shape or meaning; peers with
different versions refuse each other in the handshake, naming both versions.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec

from coldwater import __version__

# v3: no per-frame signature, varint frame counters (the channel's AEAD authenticates the peer).
# v4: watchers (Watch, Watching, Over; Lobby lists watchers; TableInfo.watch).
# v5: public draws from the seats' hash-chain beacons (Link, Step.links, a chain tip in each seed reveal).
# v6: fair-dealer tables (TableInfo.dealer, Fair).
# v7: the turn timer at fair-dealer tables (AutoPlay: a seat's own process says its bot plays the seat).
# v8: a time bank and a strict clock (TableInfo.bank, .strict; HandOver: a seat out of time goes to a bot).
# v9: a forfeit is a verdict with both sides (forfeit.Forfeit.cause/.answer_by, a Dispute with the
#     accused's own messages), a game clock (TableInfo.game_time).
PROTOCOL = 9
SERVICE = "_coldwater._tcp.local."


def build_label() -> str:
    """This build and the protocol it speaks, as the LAN log lines name it."""
    return f"coldwater {__version__}, LAN protocol v{PROTOCOL}"


class _Msg(msgspec.Struct, tag_field="k", forbid_unknown_fields=True, omit_defaults=True):
    pass


# ---- handshake (plain frames) ------------------------------------------------
class Hello(_Msg, tag="hello"):
    """Client → host: who I am and what I play; signed by the identity key."""

    v: int
    game: str
    content: str
    ident: bytes
    eph: bytes
    nonce: bytes
    pake: bytes = b""
    """SPAKE2 (side A) message when the joiner brings a passphrase; empty otherwise."""
    sig: bytes = b""


class HelloBack(_Msg, tag="hello2"):
    """Host → client: the host's half, signed over both halves (binds the transcript)."""

    v: int
    game: str
    content: str
    ident: bytes
    eph: bytes
    nonce: bytes
    table: str = ""
    pake: bytes = b""
    """SPAKE2 (side B) message when the table has a passphrase; empty otherwise."""
    sig: bytes = b""


class Finish(_Msg, tag="fin"):
    """Key confirmation: a MAC over the transcript with a key that needs the passphrase (through SPAKE2)."""

    mac: bytes


class HandshakeRefused(_Msg, tag="refused"):
    """Either side: the connection is refused; names our version, game and content."""

    reason: str
    v: int = PROTOCOL
    game: str = ""
    content: str = ""
    code: str = ""
    """Machine-readable kind for refusals a client acts on: "needs-passphrase",
    "wrong-passphrase", "throttled", "busy" (empty for the rest)."""


HandshakeMessage = Union[Hello, HelloBack, Finish, HandshakeRefused]


class _App(_Msg, array_like=True):
    """Application messages travel as arrays (tag first, fields in order, trailing defaults left
    out): field names would be a third of a step's bytes. Tags are small integers (one byte
    each, never reused; the comment keeps the old name) for the same reason."""


# ---- lobby -------------------------------------------------------------------
SeatKindText = Literal["open", "host", "bot", "remote"]


class SeatInfo(msgspec.Struct, omit_defaults=True):
    seat: int
    kind: SeatKindText
    name: str = ""
    fingerprint: str = ""
    key: bytes = b""
    """The peer's Ed25519 public key (a new host after failover recognises peers by it)."""
    ready: bool = False
    away: bool = False
    addr: str = ""
    """Where this peer listens (for choosing a new host); empty for bots."""
    port: int = 0
    reserved: str = ""
    """For an open seat: the fingerprint of the only peer who may take it."""
    bot: bool = False
    """A remote seat the host's bot plays until its player returns (it ran out of time)."""


class TableInfo(msgspec.Struct, omit_defaults=True):
    game: str
    name: str
    players: Annotated[int, msgspec.Meta(ge=1, le=99)]
    content: str
    options: dict[str, Any] = {}
    v: int = PROTOCOL
    # Bounded on the wire: every process builds its turn clock from them (a hostile host's -1 is refused).
    turn: Annotated[int, msgspec.Meta(ge=0, le=3600)] = 0
    """Seconds a seat has for each move before its time bank starts to drain (0: no clock)."""
    bank: Annotated[int, msgspec.Meta(ge=0, le=36000)] = 0
    """Seconds each seat may spend past `turn` over the whole game (net/session/turnclock.py)."""
    game_time: Annotated[int, msgspec.Meta(ge=0, le=7 * 86400)] = 0
    """Seconds each seat may think over the whole game, every move counted (0: no such limit); spent,
    the seat is out of time as when its move's time and its bank are (turnclock.py)."""
    strict: bool = False
    """A strict clock: a bot plays a seat at once when its time is out, present or not. Otherwise only
    an absent seat's is; a present one is announced out of time and the others may hand it to a bot."""
    failover: bool = True
    """False when a lost host ends the game: fewer than two remote seats could hold escrow shares of
    the dealer's secret (a game with no sealed values needs no escrow, only another remote seat)."""
    watch: int = 16
    """The most watchers the table admits at once (0: it admits none)."""
    hints: bool = False
    """The host turned hints on for everyone: each seat may ask for the coach's hint (``h``)."""
    dealer: Literal["committed", "fair"] = "committed"
    """Who deals sealed values: the host's committed dealer, or the fair dealer nobody sees through
    (net/fairdeal: every seat holds only its own view; games in ``fairdeal.seat.WIRED`` only)."""


class WatcherInfo(msgspec.Struct, omit_defaults=True):
    """Someone watching the table (never seated, never sent a secret)."""

    name: str
    fingerprint: str = ""


class Join(_App, tag=1):  # "join"
    """Peer → host after the handshake: sit down (or come back: resume_ply ≥ 0)."""

    name: str
    port: int = 0
    resume_ply: int = -1
    share: bytes = b""
    """Failover only: this peer's escrow share of the dealer secret."""
    steps: list[Step] = []
    """Failover only: every step this peer saw (the new host may be behind)."""
    linkless: bool = False
    """Coming back without its beacon chain (it lost its save): the host stops waiting for its links."""


class Welcome(_App, tag=2):  # "welcome"
    seat: int
    table: TableInfo


class Refuse(_App, tag=3):  # "refuse"
    """An application-level refusal (table full, unknown seat). The host then closes."""

    reason: str


class Lobby(_App, tag=4):  # "lobby"
    seats: list[SeatInfo]
    started: bool = False
    host_seat: int = 0
    watchers: list[WatcherInfo] = []


class Ready(_App, tag=5):  # "ready"
    ready: bool = True


class Chat(_App, tag=6):  # "chat"
    text: str
    seat: int = -1
    """Filled in by the host: peers cannot speak for another seat."""


# ---- fair play -----------------------------------------------------------------
class CommitRequest(_App, tag=7):  # "creq"
    """Commit to a contribution. ``round`` counts from 1; a restart says why and whom it blames."""

    round: int = 1
    why: str = ""
    blamed: list[int] = []
    """Seats that did not commit or reveal in the previous round (they are no longer in it)."""
    reveals: dict[int, bytes] = {}
    """The previous round's reveals, so every peer checks them and sees who withheld."""


class Commit(_App, tag=8):  # "commit"
    """A seat's commitment to its contribution to the joint seed."""

    digest: bytes


class Commits(_App, tag=9):  # "commits"
    """Every commitment, gathered before anyone reveals; plus the dealer's."""

    commits: dict[int, bytes]
    dealer: bytes


class Reveal(_App, tag=10):  # "reveal"
    value: bytes
    """32 random bytes, then the seat's beacon chain tip (fairplay.contribution)."""


class Begin(_App, tag=11):  # "begin"
    """The game starts: every reveal (each peer checks them), and this peer's escrow share."""

    reveals: dict[int, bytes]
    seats: list[SeatInfo]
    share: bytes = b""


# ---- play --------------------------------------------------------------------
class SealedReveal(msgspec.Struct):
    """A sealed chance outcome and its salt, sent only to the seat(s) it belongs to."""

    action: str
    salt: bytes


class Step(_App, tag=12):  # "step"
    """Host → peers: one applied action (ordered by ply).

    A public action carries its notation; a sealed chance outcome carries only a
    salted commitment and, for this peer, its own view after the step (and the
    reveal when it owns the value). ``digest`` is the SHA-256 of the *public*
    view after the step (raw bytes), which every peer checks. A seat's move
    carries ``sig``, that seat's own signature of its :class:`Act` (see
    ``fairplay.act_message``), unless ``bot``: the host played the seat with a
    bot (its player is away or ran out of time), which every peer sees.
    """

    ply: int
    seat: int
    digest: bytes
    action: str | None = None
    commit: bytes | None = None
    view: bytes | None = None
    reveal: SealedReveal | None = None
    sig: bytes = b""
    bot: bool = False
    links: dict[int, bytes] = {}
    """A public draw: every contributing seat's chain link (beacon.py); each peer checks
    them and draws the outcome itself."""


class Act(_App, tag=13):  # "act"
    """Peer → host: my move, for the position at `ply` (stale moves are refused), signed by me."""

    ply: int
    action: str
    sig: bytes = b""


class Mismatch(_App, tag=14):  # "mismatch"
    """Peer → host: my public digest after `ply` differs; please resync me."""

    ply: int
    digest: bytes


class FairState(msgspec.Struct):
    """The fair-play data a returning peer needs for the end-of-game audit (if it lost its own)."""

    commits: dict[int, bytes]
    reveals: dict[int, bytes]
    dealer: bytes
    share: bytes = b""
    keys: dict[int, bytes] = {}
    """Every signing seat's identity key (which the peer would have had from Begin)."""


class Sync(_App, tag=15):  # "sync"
    """Host → peer: your view at `ply`, replacing whatever you had (repair, resume)."""

    ply: int
    view: bytes
    steps: list[Step] = []
    """The steps since the peer's last good ply, for its record."""
    fair: FairState | None = None
    """Sent to a peer coming back, in case it lost its save; it checks every reveal."""


class Presence(_App, tag=16):  # "presence"
    seat: int
    away: bool
    by_bot: bool = False


class End(_App, tag=17):  # "end"
    """The game is over: the dealer's secret for the audit and the final digest.

    Peers take scores and the outcome from their own replay, never from here.
    """

    dealer_secret: bytes
    digest: bytes


class Final(_App, tag=18):  # "final"
    """Peer → host, relayed to all: my audited final digest, signed, so peers compare stories."""

    seat: int
    digest: bytes
    sig: bytes


class Finals(_App, tag=19):  # "finals"
    """Host → peers: every seat's signed final digest."""

    finals: list[Final]


class Notice(_App, tag=20):  # "notice"
    text: str


class Link(_App, tag=23):  # "link"
    """Peer → host: my beacon chain's link for the chance node at `ply` (sent unasked when it is pending)."""

    ply: int
    link: bytes


class Fair(_App, tag=24):  # "fair"
    """A fair-dealer table's message (net/session/fairtable.py): seat → host, relayed by the host to all.

    `body` is one net/fairdeal message (a key share, a pass, strips, a link, an action, a
    word, a key reveal) for the round `kind` at `ply` (`ref`: the deck of a pass); `sig`
    is the seat's identity signature over all of it, so the host cannot alter what it relays.
    """

    kind: str
    ply: int
    seat: int
    body: bytes
    sig: bytes
    ref: str = ""
    digest: bytes = b""
    """The sender's public digest of the position at `ply` (signed too): every process compares
    every other's with its own as it takes a round, so a diverging story shows at once."""


class AutoPlay(_App, tag=25):  # "autoplay"
    """Seat → host at a fair-dealer table: this seat's own process plays it with its bot from `ply` on
    (`on`: its person did not move within the table's turn timer), or its person is back (`on` false).

    No other process can play a seat whose view only its own process holds, so only the seat says so.
    `sig` is the seat's identity signature (``fairwire.fair_message``, kind "autoplay", body
    ``b"\x01"`` or ``b"\x00"``); the host takes it only about the sender's own seat, then tells
    everyone with a :class:`Notice` and a :class:`Presence` (``by_bot``) as for a timed-out seat."""

    seat: int
    ply: int
    on: bool
    sig: bytes


class HandOver(_App, tag=26):  # "handover"
    """Peer → host: hand `seat`, out of time at `ply`, to a bot (any seated player may ask; the host
    checks the seat is out of time by its own clock). Host → the seat's own process at a fair-dealer
    table, where only that process can play it: its bot takes the seat if its own clock agrees."""

    seat: int
    ply: int
    by: int = -1
    """Host → seat: the seat that asked (-1: the host's person)."""


# ---- watching (see session/spectators.py and session/watcher.py) ----------------------
# (Tags from 40: the low numbers are the seats' protocol, which grows on other branches.)
class Watch(_App, tag=40):  # "watch"
    """Watcher → host after the handshake, instead of a Join: show me the game, seat me nowhere."""

    name: str
    resume_ply: int = -1
    """The steps this watcher already holds (a reconnect); -1: send them all."""


class Watching(_App, tag=41):  # "watching"
    """Host → watcher: admitted. Then Lobby, Sync and Step as for a peer, with the public view only."""

    table: TableInfo
    started: bool = False


class Over(_App, tag=42):  # "over"
    """Host → watcher: the game is over. Not the seats' End: a watcher gets no dealer secret to audit with.

    ``digest`` is the public digest of the final position (the last step's); the
    watcher checks it and its own public replay's scores against these.
    """

    digest: bytes
    scores: dict[str, int]
    outcome: str


# ---- after the end: a rematch (tags from 48, apart from the seats' and watchers' ranges) -------
# No protocol bump: a peer of v6 without these never lingers after the end, so it is never
# offered one, and a stray one it gets anyway is refused as malformed, changing nothing.
class Rematch(_App, tag=48):  # "rematch"
    """Host → seat, after the Finals: the same table again (same seats, each kept for its key,
    same options, a new seed round) listens at `port` on the host's address."""

    port: int


class RematchReply(_App, tag=49):  # "rematch-reply"
    """Seat → host, after a Rematch: whether this seat takes its place at the new table."""

    accept: bool


class Ping(_App, tag=21):  # "ping"
    t: float = 0.0


class Pong(_App, tag=22):  # "pong"
    t: float = 0.0


Message = Union[
    Join,
    Welcome,
    Refuse,
    Lobby,
    Ready,
    Chat,
    CommitRequest,
    Commit,
    Commits,
    Reveal,
    Begin,
    Step,
    Act,
    Mismatch,
    Sync,
    Presence,
    End,
    Final,
    Finals,
    Notice,
    Ping,
    Pong,
    Link,
    Fair,
    AutoPlay,
    HandOver,
    Watch,
    Watching,
    Over,
    Rematch,
    RematchReply,
]

_enc = msgspec.msgpack.Encoder()
_dec_msg = msgspec.msgpack.Decoder(Message)
_dec_hs = msgspec.msgpack.Decoder(HandshakeMessage)


class BadMessage(Exception):
    """Bytes that are not a well-formed message of this protocol."""


def encode(msg: msgspec.Struct) -> bytes:
    return _enc.encode(msg)


MAX_DEPTH = 8
"""How deep a free-form field (a table's options) may nest: a game's options are flat (a name to a number,
a word or a short list); 5,000 levels deep is an attack on the decoder, refused with a sentence."""


def _too_deep(value: Any) -> bool:
    """Whether `value` nests deeper than MAX_DEPTH (walked without recursion)."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(v, dict):
            todo.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list | tuple):
            todo.extend((x, depth + 1) for x in v)
    return False


def decode(data: bytes) -> Message:
    """One application message, or :class:`BadMessage` with a sentence for the person: never another
    exception (a message nested past the decoder's recursion limit included), so nothing a table or a
    seat sends can crash the process that reads it."""
    try:
        msg = _dec_msg.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise BadMessage(f"malformed message: {e}") from None
    except RecursionError:
        raise BadMessage("malformed message: nested too deep to read") from None
    table = getattr(msg, "table", None)
    if isinstance(table, TableInfo) and _too_deep(table.options):
        raise BadMessage(f"malformed message: the table's options nest more than {MAX_DEPTH} deep")
    return msg


def decode_handshake(data: bytes) -> HandshakeMessage:
    try:
        return _dec_hs.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise BadMessage(f"malformed handshake message: {e}") from None
    except RecursionError:
        raise BadMessage("malformed handshake message: nested too deep to read") from None
