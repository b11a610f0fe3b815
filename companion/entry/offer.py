"""What the move builder offers a page, as values: the verbs, the fields so far, the next step and its
choices, the one-tap moves. Each ``to_json`` is the shape ``web/static/builder.js`` reads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.core import JsonObject, JsonValue
from companion.core.picks import Choice, FieldSpec, Part


@dataclass(frozen=True)
class VerbOffer:
    """A verb of the game, and whether some legal move has it now."""

    verb: str
    legal: bool

    @property
    def label(self) -> str:
        return self.verb.replace("_", " ")

    def to_json(self) -> JsonObject:
        return {"verb": self.verb, "label": self.label, "legal": self.legal}


@dataclass(frozen=True)
class FieldSoFar:
    """One field of the chosen verb: its domain, the value given so far (None: none yet), and whether it is complete."""

    name: str
    spec: FieldSpec
    value: JsonValue
    done: bool
    taken: bool = False
    """Taken for the person: it was the only way on (:mod:`companion.entry.only`)."""

    def to_json(self) -> JsonObject:
        spec = self.spec
        out: JsonObject = {"name": self.name, "pick": spec.pick.value, "many": spec.many, "least": spec.least,
                           "most": spec.most, "optional": spec.optional, "value": self.value, "done": self.done}
        if self.taken:
            out["taken"] = True
        return out


@dataclass(frozen=True)
class Offered:
    """A value offered for the next tap, and whether a legal move still goes through it."""

    choice: Choice
    legal: bool
    count: int = 1
    """How many identical copies of the card this one value stands for ("7 START ×3"): the page
    shows one button, and the value is a copy that makes the move meant (:mod:`companion.entry.alike`)."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {**self.choice.to_json(), "legal": self.legal}
        if self.count > 1:
            out["count"] = self.count
        return out


@dataclass(frozen=True)
class PlayerPart:
    """For a field that maps players to values (a deal): whose part is being tapped (None: choose a
    player next), and the parts so far."""

    key: str | None
    mapping: Mapping[str, list[JsonValue]]


@dataclass(frozen=True)
class NextStep:
    """The field asked for next: its values to tap, and whether the field may be finished here."""

    field: str
    pick: str
    """The domain's name, which the page keys on (``"hand_card"``, ``"pyramid_slot"``, ...)."""
    many: bool
    optional: bool
    so_far: tuple[JsonValue, ...]
    choices: tuple[Offered, ...]
    can_finish: bool
    finish_legal: bool
    hidden_choices: int
    """How many more values "show every value" would offer (an illegal move on purpose)."""
    part: PlayerPart | None = None
    """Set for a field that maps players to values."""
    ask: str = ""
    """What the page asks, in words (the field's :attr:`FieldSpec.ask`); empty: the page says "Pick <field>"."""
    parts: tuple[Part, ...] = ()
    """The pick's parts (:attr:`Pick.parts`): a value is tapped a part at a time."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {"field": self.field, "pick": self.pick, "many": self.many}
        if self.ask:
            out["ask"] = self.ask
        if self.parts:
            out["parts"] = [p.to_json() for p in self.parts]
        if self.part is not None:
            out.update(per_player=True, key=self.part.key, mapping={k: list(v) for k, v in self.part.mapping.items()})
        out.update(
            optional=self.optional,
            so_far=list(self.so_far),
            choices=[c.to_json() for c in self.choices],
            can_finish=self.can_finish,
            finish_legal=self.finish_legal,
            hidden_choices=self.hidden_choices,
        )
        return out


@dataclass(frozen=True)
class QuickMove:
    """A complete legal move as a one-tap button: the notation sent, the builder's form, a few words."""

    move: JsonObject
    form: JsonObject
    label: str

    def to_json(self) -> JsonObject:
        return {"move": self.move, "form": self.form, "label": self.label}


@dataclass(frozen=True)
class Offer:
    """The builder's answer to a draft: what the page shows for the next tap."""

    by: str | None
    verbs: tuple[VerbOffer, ...]
    verb: str | None
    fields: tuple[FieldSoFar, ...] = ()
    quick: tuple[QuickMove, ...] = ()
    next: NextStep | None = None
    move: JsonObject | None = None
    """The finished move as the notation spells it, once every field is complete."""
    legal: bool = False
    """For a finished move: is it legal now?"""
    out: str = ""
    """Why the player takes no further part in the game (:meth:`Game.out_of_game`); then nothing is offered."""

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "by": self.by,
            "verbs": [v.to_json() for v in self.verbs],
            "verb": self.verb,
            "fields": [f.to_json() for f in self.fields],
            "next": None if self.next is None else self.next.to_json(),
            "move": self.move,
            "quick": [q.to_json() for q in self.quick],
        }
        if self.move is not None:
            out["legal"] = self.legal
        if self.out:
            out["out"] = self.out
        return out
