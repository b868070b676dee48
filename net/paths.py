"""Where coldwater keeps a person's files: saves, records, identity, settings.

The per-user data directory from platformdirs, unless ``COLDWATER_HOME`` names
another folder (tests, several profiles on one machine).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """The root folder for everything coldwater writes (created on demand)."""
    override = os.environ.get("COLDWATER_HOME")
    root = Path(override) if override else platformdirs.user_data_path("coldwater", appauthor=False)
    # 0700: saves, records and LAN files hold secrets (hidden cards, key shares).
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not override:
        try:
            root.chmod(0o700)  # made by an older version with the default mode
        except OSError:
            pass
    return root


def saves_dir() -> Path:
    p = data_dir() / "saves"
    p.mkdir(parents=True, exist_ok=True)
    return p
