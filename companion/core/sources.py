"""Who put an observation into the log, as its ``source`` says (issue 26, hole 4).

Every row keeps its observation's source, and the log's chain covers it. A person's entry from a page
names who entered it: :data:`REFEREE` from the referee's console, :func:`link_source` from that player's
own link. Any other source is not a player's link: a reader (``nfc:usb:0``, ``array:3``), the camera, a
tool. What a row may be taken back by follows from it (:func:`companion.log.fold.take_back_check`): a
player takes back only what their own link entered; the referee anything.
"""

from __future__ import annotations

REFEREE = "web:referee"
"""The referee's console."""
PLAYER_LINK = "web:player:"
"""A player's own link, before the player's name."""
_OLD_WEB = "web:"
"""Logs written before the links said so: a player's link wrote ``web:<name>``, and nothing else did."""


def link_source(player: str) -> str:
    """The source of an entry made through ``player``'s own link."""
    return PLAYER_LINK + player


def entered_through_link(source: str) -> str | None:
    """The player whose own link entered an observation with this source, or None (the referee, a
    reader, the camera, any other)."""
    if source.startswith(PLAYER_LINK):
        return source[len(PLAYER_LINK):]
    if source.startswith(_OLD_WEB) and source != REFEREE and len(source) > len(_OLD_WEB):
        return source[len(_OLD_WEB):]
    return None


def entered_on_a_page(source: str) -> bool:
    """Whether a person entered it by tapping on a page (a player's link or the referee's console),
    rather than a reader, the camera, a notation file or a script naming the very card."""
    return source == REFEREE or entered_through_link(source) is not None


def entered_by(source: str) -> str:
    """Who entered a row, as a refusal says it: "by the referee", "through anna's link", "from array:3"."""
    if source == REFEREE:
        return "by the referee"
    player = entered_through_link(source)
    if player is not None:
        return f"through {player}'s link"
    return f"from {source}" if source else "from somewhere else"
