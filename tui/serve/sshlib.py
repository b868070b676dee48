"""asyncssh, imported once for the whole server with one of its warnings silenced.

asyncssh still names DSA (which cryptography deprecates) at import: ten lines of warnings on every
start, about a key type nobody can use here (the server's key is Ed25519; DSA logins are refused by
OpenSSH itself). Only that warning is silenced, and only during this import. Every module of the
server takes asyncssh from here, so whichever of them is imported first, none prints it.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh

__all__ = ["asyncssh"]
