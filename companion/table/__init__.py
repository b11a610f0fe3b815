"""What is where on the table: zones, the tag registry, debouncing, TAG observations, enrolment.

What a reader reports (:class:`~companion.core.readers.ReaderEvent`) is a core noun: the readers
in ``hardware/`` make those events, and the table model here turns them into TAG observations."""

from companion.table.model import DEFAULT_DEBOUNCE_S, TableModel
from companion.table.registry import TagRegistry

__all__ = ["DEFAULT_DEBOUNCE_S", "TableModel", "TagRegistry"]
