"""The one rule for names people choose (tables, players) and the one way to show a name heard on the network.

A table's name becomes its DNS-SD instance label, ``<name> [abcd]``, which DNS caps at 63
bytes of UTF-8; zeroconf may add ``-N`` when two instances clash. So a table name is at
most :data:`TABLE_NAME_BYTES` bytes, leaving room for both. Player names never reach DNS,
but they are drawn in every seat's lobby and log, so they follow the same characters rule
with their own cap. Control characters (ESC among them: a name could retitle or redraw a
viewer's terminal) and format characters (bidi overrides, invisible marks that make one
name look like another) are refused; the zero-width joiner stays, since emoji need it.

:func:`check_name` is what forms and the CLI call: the name, trimmed, or :class:`BadName`
with a sentence for a person. :func:`shown` is for text that came from elsewhere: it never
refuses, it escapes what the rule forbids and cuts at the cap, so it is safe to draw.
"""

from __future__ import annotations

import unicodedata

TABLE_NAME_BYTES = 50
"""A table name's cap in UTF-8 bytes: 63 (a DNS label) less `` [abcd]`` (7) and room for zeroconf's ``-N`` (6)."""
PLAYER_NAME_BYTES = 40
"""A player's (or watcher's) name's cap in UTF-8 bytes."""

_ZWJ = "\u200d"
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class BadName(ValueError):
    """A name that breaks the rule; the message says why, for a person."""


def _forbidden(c: str) -> bool:
    if c in _BIDI:
        return True
    if c == _ZWJ:
        return False
    # Cc: C0/C1 controls (ESC, BEL, DEL, CSI...); Cf: format (bidi embeddings, zero-width marks);
    # Cs/Co/Cn: surrogates, private use, unassigned; Zl/Zp: line and paragraph separators.
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _escape(c: str) -> str:
    o = ord(c)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def check_name(text: str, *, what: str = "table name", limit: int = TABLE_NAME_BYTES) -> str:
    """`text` trimmed, if it is a good `what`; else :class:`BadName` saying what is wrong."""
    name = text.strip()
    if not name:
        raise BadName(f"the {what} is empty")
    bad = sorted({c for c in name if _forbidden(c)})
    if bad:
        listed = " ".join(_escape(c) for c in bad[:4])
        raise BadName(f"the {what} has control or direction characters ({listed}): use letters, digits and signs")
    size = len(name.encode())
    if size > limit:
        raise BadName(
            f"the {what} is {size} bytes long; at most {limit} bytes (UTF-8) fit, e.g. {limit} letters "
            f"or {limit // 4} emoji"
        )
    return name


def is_good(text: str, *, limit: int = TABLE_NAME_BYTES) -> bool:
    """Whether `text` (as received, untrimmed) is a name the rule allows."""
    try:
        return check_name(text, limit=limit) == text
    except BadName:
        return False


def shown(text: str, *, limit: int = TABLE_NAME_BYTES) -> str:
    """`text` from the network made safe to draw: forbidden characters escaped (``\\x1b``), at most
    about `limit` bytes (cut on a character, marked ``…``). A good name comes back unchanged."""
    out = "".join(_escape(c) if _forbidden(c) else c for c in text)
    if len(out.encode()) <= limit:
        return out
    cut = out.encode()[: max(0, limit - 3)].decode(errors="ignore")
    return cut + "…"


def shown_player(text: str) -> str:
    """A player's or watcher's name from the network, safe to draw (see :func:`shown`)."""
    return shown(text, limit=PLAYER_NAME_BYTES)
