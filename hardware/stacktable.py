"""The stack table: how deep a stack of cards one pile reader reads, as ``companion hw stack`` measured
it on real parts (or the guess shipped until someone does). The simulator reads it
(:meth:`hardware.sim.field.FieldSettings.from_stack_table`); pure, no I/O beyond the file itself.

    {"measured": false, "source": "why this figure", "depth": 24,
     "rows": [{"depth": 1, "seen": true, "ms": 140}, ...]}

``depth`` is the number of cards read before the first one that was not (each tried twice); a
row per card laid says whether it was reported and how long after the person said it was down.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.errors import ConfigError

SHIPPED_TABLE = Path(__file__).resolve().parent / "sim" / "stack-table.json"
"""The table the simulator reads unless told another: a guess (``measured`` false) until replaced."""


@dataclass(frozen=True)
class StackRow:
    depth: int
    """The card's place in the stack, 1 at the bottom."""
    seen: bool
    ms: int | None = None
    """Milliseconds from the person's Enter to the reader's arrival frame (None: not seen)."""
    answer: float | None = None
    """ISO 15693 pile: how often this card, the newest, answered the first request of a census check (None: not listened for)."""


@dataclass(frozen=True)
class StackTable:
    measured: bool
    source: str
    depth: int
    rows: tuple[StackRow, ...] = ()
    iso15693: dict[str, Any] | None = None
    """The ISO 15693 pile's part (hardware/sim/vicinity.py PileTable reads it), carried through as it is."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "measured": self.measured,
            "source": self.source,
            "depth": self.depth,
            "rows": [{"depth": r.depth, "seen": r.seen, "ms": r.ms, **({"answer": r.answer} if r.answer is not None else {})}
                     for r in self.rows],
        }
        if self.iso15693 is not None:
            data["iso15693"] = self.iso15693
        return data

    @classmethod
    def from_json(cls, data: Any, where: str) -> "StackTable":
        """The table in ``data``; :class:`ConfigError` naming ``where`` and the key if it is not one."""
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: not a stack table (a JSON object with measured, source, depth, rows)")
        measured, source, depth, rows = data.get("measured"), data.get("source"), data.get("depth"), data.get("rows", [])
        if not isinstance(measured, bool):
            raise ConfigError(f"{where}: measured must be true or false")
        if not isinstance(source, str) or not source:
            raise ConfigError(f"{where}: source must say where the figure comes from")
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
            raise ConfigError(f"{where}: depth must be a whole number of cards, not {depth!r}")
        if not isinstance(rows, list):
            raise ConfigError(f"{where}: rows must be a list")
        parsed: list[StackRow] = []
        for i, row in enumerate(rows):
            ms = row.get("ms") if isinstance(row, dict) else None
            answer = row.get("answer") if isinstance(row, dict) else None
            if (
                answer is not None and (not isinstance(answer, (int, float)) or isinstance(answer, bool) or not 0 <= answer <= 1)
            ):
                raise ConfigError(f"{where}: rows[{i}].answer must be a fraction from 0 to 1")
            if (
                not isinstance(row, dict)
                or not isinstance(row.get("depth"), int)
                or not isinstance(row.get("seen"), bool)
                or not (ms is None or (isinstance(ms, int) and not isinstance(ms, bool)))
            ):
                raise ConfigError(f"{where}: rows[{i}] must be {{depth, seen, ms}}")
            parsed.append(StackRow(row["depth"], row["seen"], ms, None if answer is None else float(answer)))
        iso15693 = data.get("iso15693")
        if iso15693 is not None and not isinstance(iso15693, dict):
            raise ConfigError(f"{where}: iso15693 must be an object (the ISO 15693 pile's figures)")
        return cls(measured, source, depth, tuple(parsed), iso15693)

    @classmethod
    def load(cls, path: Path) -> "StackTable":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path}: cannot read the stack table: {exc}") from exc
        return cls.from_json(data, str(path))

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".new")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
