"""The screen as a person sees it, in plain text: what the Pilot tests assert on."""

from __future__ import annotations

from typing import Any


def screen_text(app: Any) -> str:
    """Every row of the app's current screen, as drawn (not the widgets' own data)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)
