"""A peer's long-lived Ed25519 identity, one per installation.

The private key lives in the user data directory (``identity.key``, raw 32
bytes, readable by its owner only); tests and several profiles on one machine
pass another path or set ``COLDWATER_HOME``. People compare *fingerprints*:
a short, grouped hash of the public key, shown in the lobby.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from .play import paths
from .play.files import write_atomic

KEY_FILE = "identity.key"


def fingerprint(public: bytes) -> str:
    """``ab12-cd34-ef56-7890``: 64 bits of SHA-256 of the public key, grouped for reading aloud."""
    h = hashlib.sha256(b"coldwater-id\x00" + public).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


def verify(public: bytes, signature: bytes, data: bytes) -> bool:
    """True when `signature` is `public`'s signature of `data`; never raises on junk."""
    if len(public) != 32 or len(signature) != 64:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


class Identity:
    """An Ed25519 key pair. Immutable once made."""

    __slots__ = ("_key", "public")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public: bytes = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_bytes(cls, raw: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"<Identity {self.fingerprint}>"


def load_or_create(path: Path | None = None) -> Identity:
    """This installation's identity, made on first use. A damaged key file is an error, never replaced silently."""
    p = Path(path) if path is not None else paths.data_dir() / KEY_FILE
    if p.exists():
        raw = p.read_bytes()
        if len(raw) != 32:
            raise ValueError(f"{p} is not a coldwater identity key (expected 32 bytes, found {len(raw)})")
        return Identity.from_bytes(raw)
    ident = Identity.generate()
    # write_atomic creates the file owner-only from the start, never world-readable for an instant.
    write_atomic(p, ident.private_bytes())
    return ident
