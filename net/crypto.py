"""The handshake and the encrypted, signed channel it produces.

Handshake (plain frames, then key confirmation)::

    client → host   Hello(v, game, content, ident, eph, nonce, pake_A, sig_c)
    host → client   HelloBack(v, game, content, ident, eph, nonce, table, pake_B, sig_h)
    client → host   Finish(mac_c)          host checks it (wrong passphrase → refused)
    host → client   Finish(mac_h)          client checks it

``eph`` are fresh X25519 keys; each side signs its half with its Ed25519
identity (the host signs over the client's half too), so nobody in the middle
can substitute keys. At a table with a passphrase, ``pake_A``/``pake_B`` are the
two SPAKE2 messages (the ``spake2`` package, as magic-wormhole uses) run on the
passphrase; the channel keys come from HKDF-SHA256 over the X25519 secret *and*
the SPAKE2 key, salted with the hash of the whole transcript, so the PAKE is
bound to both identities and ephemeral keys. The Finish MACs prove both sides
derived the same keys. SPAKE2 means a stranger learns nothing it can test
passphrases against offline: a joiner who connects, or an impostor table that a
joiner connects to, gets exactly one online guess per handshake (and the table
throttles guesses per address, see transport). A table without a passphrase
sends no PAKE message; a joiner who brings one refuses such a table, and a
table that needs one refuses a joiner without it ("this table needs a passphrase").

After the handshake every application message is encrypted with
ChaCha20-Poly1305 under a per-direction key, the session id as associated
data. A frame is the counter as a LEB128 varint (the nonce is direction ‖ the
counter as 8 bytes) and the ciphertext of the bare message. There is no
per-frame signature: the keys come from a handshake both identities signed, so
a frame that opens can only have been sealed by the channel's peer, and a
signature would prove nothing more to the receiver; what must convince a third
party (a seat's move, a final digest) carries its own signature inside the
message (see fairplay). Counters must strictly increase, so replays and
reordering are refused; a refused frame changes nothing, and the channel
carries on (a gap is allowed: the frame before it was refused, e.g. altered on
the way).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata
from collections.abc import Callable
from typing import Any

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from . import messages as m
from .identity import Identity, fingerprint, verify

_C2S = b"c2s\x00"
_S2C = b"s2c\x00"


class HandshakeError(Exception):
    """The handshake failed; ``reason`` is for a person, ``reply`` (if any) is sent before closing.

    ``code`` names the refusals a caller acts on (see :class:`messages.HandshakeRefused`).
    """

    def __init__(self, reason: str, reply: bytes | None = None, code: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.reply = reply
        self.code = code


NEEDS_PASSPHRASE = "this table needs a passphrase"
WRONG_PASSPHRASE = "wrong table passphrase"
NO_PASSPHRASE = "this table has no passphrase; join without one"


class ChannelError(Exception):
    """One incoming frame refused (the channel itself stays usable). ``kind`` names the fault."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind


_MAX_COUNTER = (1 << 64) - 1


def _varint(n: int) -> bytes:
    """`n` as an unsigned LEB128 varint (7 bits a byte, low first)."""
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _read_varint(data: bytes) -> tuple[int, int]:
    """(value, bytes used) of the varint at the start of `data`; ValueError if it is not a canonical one."""
    n = shift = 0
    for i, b in enumerate(data[:10]):
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            # One spelling per number: a trailing zero group would let a frame be re-spelled.
            if i and b == 0:
                raise ValueError("over-long counter")
            if n > _MAX_COUNTER:
                raise ValueError("counter beyond 64 bits")
            return n, i + 1
        shift += 7
    raise ValueError("unterminated counter")


_PAKE_ID_A = b"coldwater joiner"
_PAKE_ID_B = b"coldwater table"


def passphrase_key(passphrase: str | None) -> bytes:
    """The passphrase as SPAKE2 takes it (NFC-normalised UTF-8); empty when there is none.

    No slow hash: with a PAKE nothing on the wire can be tested offline, and a
    hash would not make the in-memory secret any less of a secret.
    """
    if not passphrase:
        return b""
    return unicodedata.normalize("NFC", passphrase).encode()


class _Pake:
    """One side of SPAKE2 with a typed face (the package has no type hints)."""

    def __init__(self, password: bytes, side: str) -> None:
        # Imported here: building its group costs every LAN process (the headless peers
        # of the tests start a hundred) about a tenth of its start-up, and only a
        # table with a passphrase uses it.
        from spake2 import SPAKE2_A, SPAKE2_B

        cls = SPAKE2_A if side == "A" else SPAKE2_B
        self._s: Any = cls(password, idA=_PAKE_ID_A, idB=_PAKE_ID_B)
        self.message: bytes = bytes(self._s.start())

    def finish(self, theirs: bytes) -> bytes:
        """The shared key; ValueError for a message that is not a SPAKE2 element."""
        try:
            return bytes(self._s.finish(theirs))
        except Exception as e:  # the package raises assorted errors for junk input
            raise ValueError(f"not a SPAKE2 message ({type(e).__name__})") from None


def _unsigned(msg: m.Hello | m.HelloBack) -> bytes:
    return m.encode(msgspec.structs.replace(msg, sig=b""))


def _x25519_public(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _derive(shared: bytes, pake_key: bytes, transcript: bytes) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    okm = HKDF(algorithm=hashes.SHA256(), length=32 * 4 + 16, salt=transcript, info=b"coldwater channel v3").derive(
        shared + pake_key
    )
    return okm[0:32], okm[32:64], okm[64:96], okm[96:128], okm[128:144]


def _refusal(reason: str, game: str, content: str, code: str = "") -> bytes:
    return m.encode(m.HandshakeRefused(reason=reason, game=game, content=content, code=code))


def _compat(
    mine_v: int,
    mine_game: str,
    mine_content: str,
    their_v: int,
    their_game: str,
    their_content: str,
    me: str,
    them: str,
) -> str | None:
    """Why two sides cannot play together, naming both sides' versions; None if they can."""
    if their_v != mine_v:
        return (
            f"protocol version mismatch: {me} speaks coldwater LAN protocol v{mine_v}, "
            f"{them} speaks v{their_v}; update the older one"
        )
    if their_game != mine_game:
        return f"game mismatch: {me} plays {mine_game!r}, {them} plays {their_game!r}"
    if their_content != mine_content:
        return (
            f"content mismatch for {mine_game}: {me} has content {mine_content[:12]} (protocol v{mine_v}), "
            f"{them} has {their_content[:12]} (protocol v{their_v}); load the same card data on both"
        )
    return None


class Channel:
    """One end of an established connection: seals outgoing and opens incoming messages."""

    def __init__(
        self,
        *,
        send_key: bytes,
        recv_key: bytes,
        send_dir: bytes,
        recv_dir: bytes,
        session: bytes,
        identity: Identity,
        peer: bytes,
    ) -> None:
        self._send = ChaCha20Poly1305(send_key)
        self._recv = ChaCha20Poly1305(recv_key)
        self._send_dir = send_dir
        self._recv_dir = recv_dir
        self.session = session
        self.identity = identity
        self.peer = peer
        """The other side's Ed25519 public key (its identity)."""
        self._out_counter = 0
        self._in_counter = 0

    @property
    def peer_fingerprint(self) -> str:
        return fingerprint(self.peer)

    # ---- sending ---------------------------------------------------------------
    def encrypt(self, body: bytes, *, counter: int | None = None) -> bytes:
        """Encrypt `body` under the next counter, or under `counter` (hostile-peer tests replay with it)."""
        if counter is None:
            self._out_counter += 1
            counter = self._out_counter
        nonce = self._send_dir + counter.to_bytes(8, "big")
        return _varint(counter) + self._send.encrypt(nonce, body, self.session)

    def seal(self, body: bytes) -> bytes:
        """The frame payload carrying `body`, encrypted and authenticated."""
        return self.encrypt(body)

    # ---- receiving ---------------------------------------------------------------
    def open(self, payload: bytes) -> bytes:
        """The body of an incoming frame; ChannelError (and no state change) if it is refused."""
        try:
            counter, used = _read_varint(payload)
        except ValueError as e:
            raise ChannelError("malformed", f"frame of {len(payload)} bytes has no valid counter ({e})") from None
        if len(payload) < used + 16:
            raise ChannelError("malformed", f"frame of {len(payload)} bytes is too short to be sealed")
        if counter <= self._in_counter:
            raise ChannelError("replayed", f"frame counter {counter} already seen (last {self._in_counter})")
        nonce = self._recv_dir + counter.to_bytes(8, "big")
        try:
            body = self._recv.decrypt(nonce, payload[used:], self.session)
        except InvalidTag:
            raise ChannelError("tampered", "frame failed authentication (altered, or not from this channel)") from None
        # Only a fully accepted frame moves the counter.
        self._in_counter = counter
        return body


class ClientHandshake:
    """The joining side. hello() → receive(HelloBack) → Finish bytes → confirm(Finish) → Channel."""

    def __init__(
        self, identity: Identity, game: str, content: str, passphrase: str | None = None, *, version: int = m.PROTOCOL
    ) -> None:
        self.identity = identity
        self.game = game
        self.content = content
        self.version = version
        password = passphrase_key(passphrase)
        self._pake = _Pake(password, "A") if password else None
        self._eph = X25519PrivateKey.generate()
        self._hello: bytes = b""
        self._keys: tuple[bytes, bytes, bytes, bytes, bytes] | None = None
        self._transcript = b""
        self._peer = b""
        self.table_name = ""

    @property
    def peer(self) -> bytes:
        """The table's identity key, once receive() has checked its signature."""
        return self._peer

    def hello(self) -> bytes:
        msg = m.Hello(
            v=self.version,
            game=self.game,
            content=self.content,
            ident=self.identity.public,
            eph=_x25519_public(self._eph),
            nonce=os.urandom(32),
            pake=self._pake.message if self._pake else b"",
        )
        msg = msgspec.structs.replace(msg, sig=self.identity.sign(b"cw-hello1" + _unsigned(msg)))
        self._hello = m.encode(msg)
        return self._hello

    def receive(self, data: bytes) -> bytes:
        try:
            msg = m.decode_handshake(data)
        except m.BadMessage as e:
            raise HandshakeError(f"the table's reply is malformed ({e})") from None
        if isinstance(msg, m.HandshakeRefused):
            raise HandshakeError(f"refused by the table: {msg.reason}", code=msg.code)
        if not isinstance(msg, m.HelloBack):
            raise HandshakeError(f"unexpected {type(msg).__name__} in the handshake")
        why = _compat(self.version, self.game, self.content, msg.v, msg.game, msg.content, "this peer", "the table")
        if why:
            raise HandshakeError(why, _refusal(why, self.game, self.content))
        if len(msg.eph) != 32 or len(msg.nonce) != 32:
            raise HandshakeError("the table's handshake keys are malformed")
        if not verify(msg.ident, msg.sig, b"cw-hello2" + hashlib.sha256(self._hello).digest() + _unsigned(msg)):
            raise HandshakeError("the table's handshake signature is invalid")
        if self._pake is not None and not msg.pake:
            # A table that asks no passphrase cannot prove it knows ours: it may be an impostor.
            raise HandshakeError(NO_PASSPHRASE, _refusal(NO_PASSPHRASE, self.game, self.content), code="no-passphrase")
        if self._pake is None and msg.pake:
            raise HandshakeError(
                NEEDS_PASSPHRASE, _refusal(NEEDS_PASSPHRASE, self.game, self.content), code="needs-passphrase"
            )
        self._peer = msg.ident
        self.table_name = msg.table
        self._transcript = hashlib.sha256(self._hello + data).digest()
        try:
            shared = self._eph.exchange(X25519PublicKey.from_public_bytes(msg.eph))
            pake_key = self._pake.finish(msg.pake) if self._pake is not None else b""
        except ValueError:
            raise HandshakeError("the table's handshake keys are invalid") from None
        self._keys = _derive(shared, pake_key, self._transcript)
        mac = hmac.new(self._keys[2], b"client" + self._transcript, hashlib.sha256).digest()
        return m.encode(m.Finish(mac=mac))

    def confirm(self, data: bytes) -> Channel:
        assert self._keys is not None, "receive() first"
        try:
            msg = m.decode_handshake(data)
        except m.BadMessage as e:
            raise HandshakeError(f"the table's confirmation is malformed ({e})") from None
        if isinstance(msg, m.HandshakeRefused):
            raise HandshakeError(f"refused by the table: {msg.reason}", code=msg.code)
        if not isinstance(msg, m.Finish):
            raise HandshakeError(f"unexpected {type(msg).__name__} in the handshake")
        want = hmac.new(self._keys[3], b"host" + self._transcript, hashlib.sha256).digest()
        if not hmac.compare_digest(want, msg.mac):
            raise HandshakeError(
                "the table's key confirmation failed: the table passphrase differs", code="wrong-passphrase"
            )
        c2s, s2c, _, _, session = self._keys
        return Channel(
            send_key=c2s,
            recv_key=s2c,
            send_dir=_C2S,
            recv_dir=_S2C,
            session=session,
            identity=self.identity,
            peer=self._peer,
        )


class ServerHandshake:
    """The table's side. receive_hello(Hello) → HelloBack bytes; receive_finish(Finish) → (Finish bytes, Channel).

    `admit`, when given, is asked before any passphrase attempt is worked on, with the
    joiner's identity key (its hello's signature already checked); a reason it returns
    refuses the attempt (the guessing limits live there, and so do the keys they spare).
    """

    def __init__(
        self,
        identity: Identity,
        game: str,
        content: str,
        passphrase: str | None = None,
        *,
        table: str = "",
        version: int = m.PROTOCOL,
        pass_key: bytes | None = None,
        admit: Callable[[bytes], str | None] | None = None,
    ) -> None:
        self.identity = identity
        self.game = game
        self.content = content
        self.version = version
        self.table = table
        self._pass = pass_key if pass_key is not None else passphrase_key(passphrase)
        self._admit = admit
        self._keys: tuple[bytes, bytes, bytes, bytes, bytes] | None = None
        self._transcript = b""
        self.peer = b""
        self.attempted_passphrase = False
        """True once a passphrase attempt was worked on (the caller counts the failures)."""

    def _refuse(self, why: str, code: str = "") -> HandshakeError:
        return HandshakeError(why, _refusal(why, self.game, self.content, code), code=code)

    def receive_hello(self, data: bytes) -> bytes:
        try:
            msg = m.decode_handshake(data)
        except m.BadMessage as e:
            raise self._refuse(f"malformed hello ({e})") from None
        if not isinstance(msg, m.Hello):
            raise self._refuse(f"expected a hello, got {type(msg).__name__}")
        if not msg.game:
            # A probe (join by address): answer with our game, content and version, then close.
            code = "needs-passphrase" if self._pass else ""
            raise HandshakeError("probe", _refusal("this table plays another game", self.game, self.content, code))
        mismatch = _compat(
            self.version, self.game, self.content, msg.v, msg.game, msg.content, "the table", "the joining peer"
        )
        if mismatch:
            raise self._refuse(mismatch)
        if len(msg.eph) != 32 or len(msg.nonce) != 32 or not verify(msg.ident, msg.sig, b"cw-hello1" + _unsigned(msg)):
            raise self._refuse("hello signature or keys are invalid")
        if self._pass and not msg.pake:
            raise self._refuse(NEEDS_PASSPHRASE, "needs-passphrase")
        if not self._pass and msg.pake:
            raise self._refuse(NO_PASSPHRASE, "no-passphrase")
        pake: _Pake | None = None
        if self._pass:
            if self._admit is not None and (why := self._admit(msg.ident)) is not None:
                raise self._refuse(why, "throttled")
            self.attempted_passphrase = True
            pake = _Pake(self._pass, "B")
        eph = X25519PrivateKey.generate()
        back = m.HelloBack(
            v=self.version,
            game=self.game,
            content=self.content,
            ident=self.identity.public,
            eph=_x25519_public(eph),
            nonce=os.urandom(32),
            table=self.table,
            pake=pake.message if pake else b"",
        )
        back = msgspec.structs.replace(
            back, sig=self.identity.sign(b"cw-hello2" + hashlib.sha256(data).digest() + _unsigned(back))
        )
        reply = m.encode(back)
        self.peer = msg.ident
        self._transcript = hashlib.sha256(data + reply).digest()
        try:
            shared = eph.exchange(X25519PublicKey.from_public_bytes(msg.eph))
            pake_key = pake.finish(msg.pake) if pake is not None else b""
        except ValueError:
            raise self._refuse("hello keys are invalid") from None
        self._keys = _derive(shared, pake_key, self._transcript)
        return reply

    def receive_finish(self, data: bytes) -> tuple[bytes, Channel]:
        assert self._keys is not None, "receive_hello() first"
        try:
            msg = m.decode_handshake(data)
        except m.BadMessage as e:
            raise self._refuse(f"malformed key confirmation ({e})") from None
        if isinstance(msg, m.HandshakeRefused):
            raise HandshakeError(f"the peer refused: {msg.reason}", code=msg.code)
        if not isinstance(msg, m.Finish):
            raise self._refuse(f"expected a key confirmation, got {type(msg).__name__}")
        want = hmac.new(self._keys[2], b"client" + self._transcript, hashlib.sha256).digest()
        if not hmac.compare_digest(want, msg.mac):
            raise self._refuse(WRONG_PASSPHRASE, "wrong-passphrase")
        mac = hmac.new(self._keys[3], b"host" + self._transcript, hashlib.sha256).digest()
        c2s, s2c, _, _, session = self._keys
        ch = Channel(
            send_key=s2c,
            recv_key=c2s,
            send_dir=_S2C,
            recv_dir=_C2S,
            session=session,
            identity=self.identity,
            peer=self.peer,
        )
        return m.encode(m.Finish(mac=mac)), ch
