"""A fixed deal for the docs, the demo and the tests (a table dealt by hand, not by a shuffle)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.core import Header

logger = logging.getLogger(__name__)

EXAMPLE_SETUP: dict[str, Any] = {
    "mountain": [
        ["KC"],
        ["QS", "JS"],
        ["KH", "QH", "JH"],
        ["KD", "QD", "JD", "2C"],
        ["KS", "QC", "JC", "3C", "4C"],
        ["AS", "2S", "6H", "7C", "8S", "9D"],
    ],
    "health": ["2H", "3H", "4H", "5H", "2D", "3D", "4D", "5D", "3S", "4S"],
}
"""All 12 threats under a top row of six others; nothing attacks until the top row thins out."""


def example_header(options: Mapping[str, Any] | None = None, player: str = "solo") -> Header:
    return Header("the-mountain", (player,), dict(options or {}), EXAMPLE_SETUP)
