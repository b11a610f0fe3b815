"""What is where on the table: zones, the tag registry, debouncing, TAG observations, enrolment."""

from companion.table.events import ReaderEvent, TagEventKind, normalize_uid
from companion.table.model import DEFAULT_DEBOUNCE_S, TableModel
from companion.table.registry import TagRegistry

__all__ = ["DEFAULT_DEBOUNCE_S", "ReaderEvent", "TableModel", "TagEventKind", "TagRegistry", "normalize_uid"]
