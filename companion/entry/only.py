"""A step with one possible value takes it (issue 22, MEDIUM 6): no tap where there is no choice.

Where the legal moves agreeing with a draft leave the next field no value to add, only "None" or
"Done" (The Mountain's Spades with nothing to choose, Escape Master's ``out`` with nothing to
discard), the builder takes it, and the page shows it as a field taken for the person (a chip
they may clear). Never with every value shown: that is how a person enters an illegal move on
purpose, so there a step always waits for a tap. Never for a field whose values are not judged
for this viewer (a card taken face down): its "legal" marks say nothing.
"""

from __future__ import annotations

import dataclasses
import logging

from companion.entry.draft import Draft
from companion.entry.offer import NextStep

log = logging.getLogger(__name__)


def only_way(step: NextStep, draft: Draft, wild: set[str]) -> Draft | None:
    """``draft`` with ``step``'s one possible value taken, or None where the person has a choice."""
    if draft.every or step.part is not None or step.field in wild:
        return None
    # Only a field nothing was tapped in yet: a list the person began is closed by the person ("Done"),
    # at any length, so that a longer one can be entered on purpose.
    if not step.so_far and step.finish_legal and not any(offered.legal for offered in step.choices):
        fields = dict(draft.fields)
        closing = step.many and not step.optional
        fields[step.field] = [] if closing else None
        closed = draft.closed | {step.field} if closing else draft.closed
        log.debug("%s: leaving it as it stands is the only way on", step.field)
        return dataclasses.replace(draft, fields=fields, closed=closed)
    return None
