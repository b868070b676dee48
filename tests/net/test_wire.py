"""Framing, identities, the handshake and the sealed channel, without sockets."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from coldwater.net import messages as m
from coldwater.net.crypto import Channel, ChannelError, ClientHandshake, HandshakeError, ServerHandshake
from coldwater.net.identity import Identity, fingerprint, load_or_create, verify
from coldwater.net.play.framing import FrameBuffer, FrameTooLarge, FrameTruncated, encode_frame, read_frame


def test_frames_round_trip_in_pieces() -> None:
    frames = [b"", b"a", b"x" * 1000]
    wire = b"".join(encode_frame(f) for f in frames)
    buf = FrameBuffer()
    got: list[bytes] = []
    for i in range(0, len(wire), 7):
        got += buf.feed(wire[i : i + 7])
    assert got == frames and buf.pending == 0


def test_frame_size_cap_is_checked_before_reading() -> None:
    with pytest.raises(FrameTooLarge):
        encode_frame(b"x" * 101, max_size=100)
    with pytest.raises(FrameTooLarge):
        FrameBuffer(max_size=100).feed((1 << 31).to_bytes(4, "big"))


async def _read_all(data: bytes, cap: int = 1 << 20) -> list[bytes | None]:
    r = asyncio.StreamReader()
    r.feed_data(data)
    r.feed_eof()
    out: list[bytes | None] = []
    while True:
        f = await read_frame(r, cap)
        out.append(f)
        if f is None:
            return out


async def test_truncated_and_oversized_streams_are_errors_not_hangs() -> None:
    assert await _read_all(encode_frame(b"ok")) == [b"ok", None]
    with pytest.raises(FrameTruncated):
        await _read_all(encode_frame(b"hello")[:-2])
    with pytest.raises(FrameTruncated):
        await _read_all(b"\x00\x00")
    with pytest.raises(FrameTooLarge):
        await _read_all((5000).to_bytes(4, "big") + b"x" * 10, cap=100)


def test_identity_persists_signs_and_fingerprints(tmp_path) -> None:
    a = load_or_create(tmp_path / "id.key")
    b = load_or_create(tmp_path / "id.key")
    assert a.public == b.public and a.fingerprint == fingerprint(a.public)
    assert (tmp_path / "id.key").stat().st_mode & 0o777 == 0o600
    sig = a.sign(b"data")
    assert verify(a.public, sig, b"data")
    assert not verify(a.public, sig, b"date")
    assert not verify(Identity.generate().public, sig, b"data")
    assert not verify(a.public, b"junk", b"data")
    (tmp_path / "bad.key").write_bytes(b"short")
    with pytest.raises(ValueError, match="not a coldwater identity"):
        load_or_create(tmp_path / "bad.key")


def _pair(
    client_pass: str | None = None,
    host_pass: str | None = None,
    *,
    cv: int = m.PROTOCOL,
    content: str = "c" * 64,
    host_content: str = "c" * 64,
) -> tuple[Channel, Channel]:
    ci, hi = Identity.generate(), Identity.generate()
    c = ClientHandshake(ci, "toy", content, client_pass, version=cv)
    s = ServerHandshake(hi, "toy", host_content, host_pass, table="T")
    back = s.receive_hello(c.hello())
    fin = c.receive(back)
    fin2, sch = s.receive_finish(fin)
    cch = c.confirm(fin2)
    assert cch.peer == hi.public and sch.peer == ci.public and cch.session == sch.session
    return cch, sch


def test_channel_carries_messages_both_ways() -> None:
    c, s = _pair("pw", "pw")
    for i in range(3):
        assert s.open(c.seal(f"to host {i}".encode())) == f"to host {i}".encode()
        assert c.open(s.seal(b"to peer")) == b"to peer"


def test_tampered_frame_is_refused_and_channel_survives() -> None:
    c, s = _pair()
    frame = bytearray(c.seal(b"move"))
    frame[-3] ^= 1
    with pytest.raises(ChannelError) as e:
        s.open(bytes(frame))
    assert e.value.kind == "tampered"
    # A frame from another session fails authentication too.
    other, _ = _pair()
    with pytest.raises(ChannelError, match="tampered"):
        s.open(other.seal(b"x"))
    assert s.open(c.seal(b"next")) == b"next"


def test_replayed_frames_and_counters_are_refused() -> None:
    c, s = _pair()
    f1 = c.seal(b"one")
    assert s.open(f1) == b"one"
    with pytest.raises(ChannelError) as e:
        s.open(f1)
    assert e.value.kind == "replayed"
    # A peer holding the keys re-seals an old counter in a fresh frame.
    with pytest.raises(ChannelError) as e:
        s.open(c.encrypt(b"one again", counter=1))
    assert e.value.kind == "replayed"
    assert s.open(c.encrypt(b"five", counter=5)) == b"five"  # a gap is allowed
    with pytest.raises(ChannelError, match="replayed"):
        s.open(c.encrypt(b"older", counter=4))
    assert s.open(c.encrypt(b"big", counter=300)) == b"big"


def test_frame_overhead_is_counter_and_tag_only() -> None:
    c, s = _pair()
    # No per-frame signature: a varint counter (1 byte up to 127) and the 16-byte AEAD tag.
    assert len(c.seal(b"x" * 10)) == 1 + 10 + 16
    assert len(c.encrypt(b"x" * 10, counter=300)) == 2 + 10 + 16
    assert s.open(c.seal(b"ok")) == b"ok"


def test_bad_counters_are_malformed_and_leave_the_channel_working() -> None:
    c, s = _pair()
    good = c.seal(b"x")
    assert good[0] == 1
    for bad in (
        b"",  # nothing at all
        b"\x80" * 11,  # a counter that never ends
        b"\x81\x00" + good[1:],  # counter 1 spelled in two bytes
        b"\xff" * 9 + b"\x7f" + good[1:],  # beyond 64 bits
        b"\x01" + b"\x00" * 5,  # shorter than a tag
    ):
        with pytest.raises(ChannelError) as e:
            s.open(bad)
        assert e.value.kind == "malformed"
    assert s.open(good) == b"x"


def test_a_frame_sealed_in_the_other_direction_is_refused() -> None:
    c, s = _pair()
    # Each direction has its own key and nonce prefix: a reflected frame does not open.
    with pytest.raises(ChannelError, match="tampered"):
        c.open(c.seal(b"mirror"))
    assert c.open(s.seal(b"ok")) == b"ok"


def test_passphrase_mismatch_is_refused_by_the_host() -> None:
    with pytest.raises(HandshakeError, match="wrong table passphrase") as e:
        _pair("guess", "secret")
    assert e.value.reply and isinstance(m.decode_handshake(e.value.reply), m.HandshakeRefused)
    assert e.value.code == "wrong-passphrase"
    # The joiner hears the host's refusal with its code, and a joiner without one is told to bring one.
    with pytest.raises(HandshakeError, match="this table needs a passphrase") as e2:
        _pair(None, "secret")
    assert e2.value.code == "needs-passphrase"
    # A table that asks none cannot prove it knows ours: the joiner refuses it (an impostor could be anyone).
    with pytest.raises(HandshakeError, match="has no passphrase") as e3:
        _pair("secret", None)
    assert e3.value.code == "no-passphrase"
    # The same passphrase, differently composed Unicode, is the same passphrase.
    _pair("s\u00e9ance", "se\u0301ance")


def test_impostor_table_learns_nothing_to_guess_offline() -> None:
    """Attack 11: an impostor table captures a joiner's whole handshake and tries a dictionary.

    With the old scrypt MAC, recomputing the keys from the transcript for each guess found
    a 4-digit passphrase in under a minute. With SPAKE2 the impostor's one guess was made
    when it answered; replaying the captured hello under any other guess, even the right
    one, never reproduces the joiner's MAC, and each real attempt is one online guess.
    """
    real = "4711"
    joiner = ClientHandshake(Identity.generate(), "toy", "c", real)
    hello = joiner.hello()
    impostor = ServerHandshake(Identity.generate(), "toy", "c", "0000", table="T")
    fin = joiner.receive(impostor.receive_hello(hello))
    with pytest.raises(HandshakeError, match="wrong table passphrase"):
        impostor.receive_finish(fin)
    for guess in ("0000", "1234", real, "9999"):
        replay = ServerHandshake(Identity.generate(), "toy", "c", guess, table="T")
        replay.receive_hello(hello)
        with pytest.raises(HandshakeError, match="wrong table passphrase"):
            replay.receive_finish(fin)
    # Two hellos with one passphrase share nothing: no deterministic function of it goes out.
    h1 = m.decode_handshake(ClientHandshake(Identity.generate(), "toy", "c", real).hello())
    h2 = m.decode_handshake(ClientHandshake(Identity.generate(), "toy", "c", real).hello())
    assert isinstance(h1, m.Hello) and isinstance(h2, m.Hello)
    assert len(h1.pake) == 33 and h1.pake != h2.pake


def test_pake_message_is_bound_to_the_signed_hello() -> None:
    """A man in the middle cannot swap the SPAKE2 message: it sits under the identity signature."""
    c = ClientHandshake(Identity.generate(), "toy", "c", "pw")
    hello = m.decode_handshake(c.hello())
    assert isinstance(hello, m.Hello)
    other = m.decode_handshake(ClientHandshake(Identity.generate(), "toy", "c", "pw").hello())
    assert isinstance(other, m.Hello)
    with pytest.raises(HandshakeError, match="signature"):
        ServerHandshake(Identity.generate(), "toy", "c", "pw").receive_hello(
            m.encode(msgspec.structs.replace(hello, pake=other.pake))
        )
    with pytest.raises(HandshakeError, match="invalid"):
        junk = msgspec.structs.replace(hello, pake=b"\x00" * 33, sig=b"")
        ci = Identity.generate()
        junk = msgspec.structs.replace(junk, ident=ci.public)
        from coldwater.net.crypto import _unsigned

        junk = msgspec.structs.replace(junk, sig=ci.sign(b"cw-hello1" + _unsigned(junk)))
        ServerHandshake(Identity.generate(), "toy", "c", "pw").receive_hello(m.encode(junk))


def test_throttle_hook_refuses_before_any_pake_work() -> None:
    asked: list[int] = []

    joiner = Identity.generate()

    def admit(key: bytes) -> str | None:
        assert key == joiner.public  # the limits see the key the hello proved (a seated key is spared)
        asked.append(1)
        return "too many wrong passphrases from your address; try again in 3 s"

    c = ClientHandshake(joiner, "toy", "c", "pw")
    s = ServerHandshake(Identity.generate(), "toy", "c", "pw", admit=admit)
    with pytest.raises(HandshakeError, match="too many") as e:
        s.receive_hello(c.hello())
    assert e.value.code == "throttled" and asked and not s.attempted_passphrase
    # Without a passphrase at the table there is nothing to throttle.
    s2 = ServerHandshake(Identity.generate(), "toy", "c", admit=admit)
    asked.clear()
    s2.receive_hello(ClientHandshake(Identity.generate(), "toy", "c").hello())
    assert not asked


def test_version_and_content_mismatch_name_both_sides() -> None:
    with pytest.raises(HandshakeError) as e:
        _pair(cv=m.PROTOCOL + 1)
    assert f"v{m.PROTOCOL}" in e.value.reason and f"v{m.PROTOCOL + 1}" in e.value.reason
    with pytest.raises(HandshakeError) as e:
        _pair(content="a" * 64, host_content="b" * 64)
    assert "aaaaaaaaaaaa" in e.value.reason and "bbbbbbbbbbbb" in e.value.reason
    # The joining side shows the host's refusal text, naming both versions too.
    c = ClientHandshake(Identity.generate(), "toy", "c", version=m.PROTOCOL + 1)
    s = ServerHandshake(Identity.generate(), "toy", "c")
    with pytest.raises(HandshakeError) as e2:
        s.receive_hello(c.hello())
    with pytest.raises(HandshakeError) as e3:
        c.receive(e2.value.reply or b"")
    assert f"v{m.PROTOCOL + 1}" in e3.value.reason and f"v{m.PROTOCOL}" in e3.value.reason


def test_forged_hello_is_refused() -> None:
    c = ClientHandshake(Identity.generate(), "toy", "c")
    hello = m.decode_handshake(c.hello())
    assert isinstance(hello, m.Hello)
    forged = msgspec.structs.replace(hello, ident=Identity.generate().public)
    with pytest.raises(HandshakeError, match="signature"):
        ServerHandshake(Identity.generate(), "toy", "c").receive_hello(m.encode(forged))
    with pytest.raises(HandshakeError, match="malformed"):
        ServerHandshake(Identity.generate(), "toy", "c").receive_hello(b"\xc1junk")


def test_messages_refuse_malformed_bytes() -> None:
    for junk in (
        b"",
        b"\x00",
        m.encode(m.Act(ply=1, action="x"))[:-1],
        msgspec.msgpack.encode({"k": "nope"}),
        msgspec.msgpack.encode({"k": "act", "ply": "one", "action": "x"}),
    ):
        with pytest.raises(m.BadMessage):
            m.decode(junk)


def test_a_blocking_pipe_reads_the_same_frames(tmp_path) -> None:
    """The bots' worker reads its pipe with `read_frame_blocking`: the same frames, the same
    errors as the socket reader, and None only at a clean end."""
    import io

    from coldwater.net.play.framing import read_frame_blocking

    pipe = io.BytesIO(encode_frame(b"one") + encode_frame(b"") + encode_frame(b"three"))
    assert [read_frame_blocking(pipe) for _ in range(4)] == [b"one", b"", b"three", None]
    with pytest.raises(FrameTruncated):
        read_frame_blocking(io.BytesIO(encode_frame(b"hello")[:-1]))
    with pytest.raises(FrameTruncated):
        read_frame_blocking(io.BytesIO(b"\x00\x00"))
    with pytest.raises(FrameTooLarge):
        read_frame_blocking(io.BytesIO((5000).to_bytes(4, "big") + b"x" * 10), max_size=100)
