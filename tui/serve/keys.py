"""Who a connection is: its SSH key, shown as fingerprints, and the data folder that key owns.

Who you are on `coldwater serve` is the public key you connect with. Each key gets its own data folder
under the server's (saves, settings, records, LAN identity), so "resume my game" is per key. Here too
are the server's own host key (made once, kept) and the allowed list (``--allow``, authorized_keys
format), read strictly: a line that is not a key is an error naming the line.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
from pathlib import Path

from coldwater.net.play.files import write_atomic
from coldwater.tui.serve.sshlib import asyncssh


def key_fingerprint(public_blob: bytes) -> str:
    """A player's SSH key shown the way LAN identities are: four groups of four hex digits."""
    h = hashlib.sha256(b"coldwater-ssh\x00" + public_blob).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


def openssh_fingerprint(public_blob: bytes) -> str:
    """`SHA256:...` as `ssh-keygen -l` and ssh's first-connection prompt print it."""
    digest = base64.b64encode(hashlib.sha256(public_blob).digest()).decode().rstrip("=")
    return f"SHA256:{digest}"


def private_dir(path: Path) -> Path:
    """`path`, made if need be, readable by this user alone."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)  # mkdir's mode is masked by umask, and parents get the default
    return path


PUBLIC_KEY_FILE = "ssh-key.pub"
"""The SSH public key (wire format) a player folder belongs to."""


def player_home(root: Path, public_blob: bytes) -> Path:
    """The data folder of the person holding this key: theirs alone, like a home directory."""
    private_dir(root / "ssh")
    private_dir(root / "ssh" / "players")
    home = private_dir(root / "ssh" / "players" / hashlib.sha256(public_blob).hexdigest()[:32])
    key_file = home / PUBLIC_KEY_FILE
    if not key_file.exists():
        write_atomic(key_file, public_blob)  # so a seat can be reserved for a key that is not connected
    return home


def known_keys(root: Path) -> set[bytes]:
    """Every SSH key that has a player folder here."""
    players = root / "ssh" / "players"
    out: set[bytes] = set()
    for f in players.glob(f"*/{PUBLIC_KEY_FILE}") if players.exists() else []:
        with contextlib.suppress(OSError):
            out.add(f.read_bytes())
    return out


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key, generated once and kept (0600) so returning friends can trust it."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_atomic(path, key.export_private_key())  # owner-only from the start
    return key


def load_allowed(path: Path) -> set[bytes]:
    """Public key blobs from an authorized_keys file.

    A line that is not a key is an error naming the line: a typo must not
    silently lock a friend out (or, worse, look like an empty list).
    """
    try:
        text = path.read_text()
    except OSError as e:
        raise ValueError(f"cannot read the allowed keys in {path}: {e.strerror or e}") from e
    blobs: set[bytes] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        # authorized_keys lines may start with options ("no-pty,from=... ssh-ed25519 AAAA... me").
        start = next((i for i, f in enumerate(fields) if f.startswith(("ssh-", "ecdsa-", "sk-"))), None)
        try:
            if start is None:
                raise asyncssh.KeyImportError("no key type")
            key = asyncssh.import_public_key(" ".join(fields[start:]))
        except (asyncssh.KeyImportError, ValueError) as e:
            raise ValueError(f"{path}, line {number}: not a public key ({e})") from e
        blobs.add(key.public_data)
    if not blobs:
        raise ValueError(f"{path} lists no keys")
    return blobs
