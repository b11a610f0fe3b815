"""Which candidates of the verb being built an offer must judge, and which it may spare.

An offer with a verb chosen needs, of the moves agreeing with the draft's complete fields: the values
the next field takes next (:func:`companion.entry.forms.next_values`), whether the draft may finish
that field now ("Done", "None"), and the one-tap buttons, drawn from every agreeing move but shown only
when at most :data:`QUICK_LIMIT` are legal. So a candidate is judged only while it could still add
one of those: a next value or a finish not yet known to be legal, or a button while there are few.
The offer is the same as with every agreeing move judged; far fewer are, where many moves share the
next value (The Mountain's sets: hundreds of removal orders, a few cards to tap next).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.core import JsonObject, Move
from companion.core.picks import FieldSpec
from companion.entry.forms import form_value, mentions, move_form

QUICK_LIMIT = 12
"""At most this many complete moves are offered as one-tap buttons."""
_FINISH = "\0finish"
"""The key of "this field may be finished as it stands" (never the ``repr`` of a value)."""


class Spare:
    """What the legal moves judged so far have shown of the next field ``name``."""

    def __init__(self, name: str, spec: FieldSpec, partial: Sequence[Any], focus: str | None) -> None:
        self.name, self.spec, self.partial, self.focus = name, spec, list(partial), focus
        self.known: set[str] = set()
        self.buttons = 0
        """Distinct legal moves judged so far that could be one-tap buttons."""

    def wanted(self, move: Move) -> bool:
        """Whether judging ``move`` could change the offer."""
        if not self.known.issuperset(self._shows(form_value(getattr(move, self.name)))):
            return True
        return self.buttons <= QUICK_LIMIT and self._button(move_form(move))

    def learn(self, form: JsonObject) -> None:
        """A legal move, new to the offer: what it shows of the next field, and whether it is a button."""
        self.known |= self._shows(form.get(self.name))
        self.buttons += self._button(form)

    def _button(self, form: JsonObject) -> bool:
        return self.focus is None or mentions(form, self.focus)

    def _shows(self, have: Any) -> set[str]:
        """What a move with ``have`` in the field adds: the values it takes next and whether it
        finishes there, as ``next_values`` and the offer's "finish legal" read them."""
        spec, partial = self.spec, self.partial
        if not spec.many:
            return {repr(have)}
        if not isinstance(have, list):
            return set()
        if spec.ordered:
            if have[: len(partial)] != partial:
                return set()
            return {_FINISH} if len(have) == len(partial) else {repr(have[len(partial)])}
        rest = Counter(map(repr, have))
        rest.subtract(map(repr, partial))
        if any(n < 0 for n in rest.values()):
            return set()
        shown = {key for key, n in rest.items() if n > 0}
        return shown or {_FINISH}

