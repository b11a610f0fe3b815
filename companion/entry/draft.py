"""A move being built on a page: the draft a tap page sends with every offer request.

A draft is read once here, from the JSON a page sent (``web/static/builder.js``): its verb, the fields
filled so far, the lists said to be complete, "show every value" and the card tapped in the hand.
A draft that cannot be read is one :class:`DraftError` naming what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core import JsonValue
from companion.core.errors import NotationError

DRAFT_DEPTH = 6
"""Deepest nesting a draft needs: fields -> a mapping of players -> a list -> a coin record."""


def _depth(value: Any, limit: int = 64) -> int:
    """How deep a JSON value nests (counted no further than ``limit``)."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in children), default=0)


class DraftError(NotationError):
    """A draft a page sent that cannot be read (unknown verb or field, a value of the wrong shape)."""


@dataclass(frozen=True)
class Draft:
    """A move being built: its verb once chosen, the fields filled so far, the lists closed."""

    by: str | None = None
    verb: str | None = None
    fields: Mapping[str, JsonValue] = field(default_factory=dict)
    closed: frozenset[str] = frozenset()
    """List fields the person said are complete (only the person closes a list: it may be any length)."""
    every: bool = False
    """Offer every value of each domain, not only those on the way to a legal move."""
    focus: str | None = None
    """A card tapped in the actor's hand: only moves with that card are offered."""

    @classmethod
    def from_json(cls, obj: Any, by: str | None) -> "Draft":
        if obj is None:
            return cls(by=by)
        if not isinstance(obj, dict):
            raise DraftError("a draft must be a JSON object")
        if _depth(obj) > DRAFT_DEPTH:
            raise DraftError(f"a draft is nested at most {DRAFT_DEPTH} deep")
        verb = obj.get("verb")
        fields = obj.get("fields", {})
        closed = obj.get("closed", [])
        focus = obj.get("focus")
        if verb is not None and not isinstance(verb, str):
            raise DraftError("draft.verb must be a verb")
        if not isinstance(fields, dict):
            raise DraftError("draft.fields must be an object")
        if not isinstance(closed, list) or not all(isinstance(c, str) for c in closed):
            raise DraftError("draft.closed must be a list of field names")
        if focus is not None and not isinstance(focus, str):
            raise DraftError("draft.focus must be a card")
        return cls(by, verb, dict(fields), frozenset(closed), obj.get("every") is True, focus)

    def key(self) -> str:
        """The draft as one canonical string: two drafts with the same key get the same offer."""
        return json.dumps(
            [self.by, self.verb, self.fields, sorted(self.closed), self.every, self.focus],
            sort_keys=True, separators=(",", ":"), ensure_ascii=False,
        )
