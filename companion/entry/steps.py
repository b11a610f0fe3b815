"""The builder's next step for one field (:class:`companion.entry.offer.NextStep`): its values marked
by whether a legal move still goes through them, and the rules of a list field: which lengths the
notation can write, when a list is finished (only the person closes one, at any length), and a mapping
of players to values (a deal), one player's part at a time, each from that player's own domain."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from companion.core import JsonObject, Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.entry.alike import as_one, distinct
from companion.entry.draft import Draft, DraftError
from companion.entry.forms import list_matches, matches, next_values, written_length
from companion.entry.offer import NextStep, Offered, PlayerPart

MISSING: Any = object()
"""A field the draft has not named yet (None is a field named as absent)."""


class Domains(Protocol):
    """What a step reads of the builder: who looks, who plays, each field's values, a card's copies."""

    viewer: str | None
    players: tuple[str, ...]

    def choices(self, by: str | None, spec: FieldSpec, move_type: type[Move], name: str, every: bool) -> list[Choice]: ...

    def twins(self, card: str) -> Sequence[str]: ...


def written(move_type: type[Move], name: str, spec: FieldSpec) -> tuple[int, int | None]:
    """The lengths of a list the notation can write (the rules' ``least``..``most`` aside): all
    of them but where its type fixes the count, or where ``most`` is the notation's bound."""
    fixed = written_length(move_type, name)
    if fixed is not None:
        return fixed, fixed
    return 0, spec.most if spec.full_at_most else None


def complete(type_of: type[Move], name: str, spec: FieldSpec, value: Any, draft: Draft) -> bool:
    """Whether the draft's ``value`` for field ``name`` is finished."""
    if value is MISSING:
        return False
    if value is None:
        return spec.optional
    if spec.per_player:
        if not isinstance(value, dict) or not all(isinstance(v, list) for v in value.values()):
            raise DraftError(f"{name} must be an object of lists, one per player")
        return name in draft.closed
    if spec.many:
        if not isinstance(value, list):
            raise DraftError(f"{name} must be a list")
        # Only the person closes a list, one of any length, even past what the rules allow (an
        # illegal move on purpose is recorded as built, never cut to a legal one), unless the
        # notation itself can hold no more.
        most = written(type_of, name, spec)[1]
        return name in draft.closed or most is not None and len(value) >= most
    return True


def next_step(
    domains: Domains, by: str | None, move_type: type[Move], name: str, spec: FieldSpec, value: Any,
    mine: list[JsonObject], wild: set[str], draft: Draft,
) -> NextStep:
    """The step for field ``name``: ``mine`` are the legal moves agreeing with the draft so far."""
    if spec.per_player:
        return _next_per_player(domains, by, move_type, name, spec, value, mine, draft)
    partial: list[Any] = list(value) if spec.many and isinstance(value, list) else []
    domain = domains.choices(by, spec, move_type, name, draft.every)
    if spec.many and not draft.every and (not spec.ordered or spec.pick.once_in_a_list):
        # A value tapped already is offered again only with every value shown (a repeat on purpose).
        taken = Counter(map(repr, partial))
        domain = [c for c in domain if not taken[repr(c.value)]]
    ahead = None if name in wild else next_values(spec, name, partial, mine)
    choices: list[Offered] = []
    offered: set[str] = set()
    for choice in domain:
        ok = bool(mine) if ahead is None else repr(choice.value) in ahead
        if ok or draft.every or name in wild:
            choices.append(Offered(choice, ok))
            offered.add(repr(choice.value))
    # A legal value the domain did not list (a game's domain should never miss one) is still offered,
    # to the referee only: a player's values come from what that player may see, and nothing else.
    if ahead is not None and domains.viewer is None:
        for key, have in ahead.items():
            if key not in offered and have is not None:
                offered.add(key)
                choices.append(Offered(Choice(have, str(have)), True))
    # Copies of one card are one button, naming a copy the move meant can take.
    shown = as_one(choices, domains.twins)
    # A list may be finished at any length the notation can write; whether that is legal is the
    # engine's to say.
    least, most = written(move_type, name, spec)
    finishing = bool(
        spec.many and least <= len(partial) <= (len(partial) if most is None else most) or spec.optional and not partial
    )
    return NextStep(
        field=name,
        pick=spec.pick.value,
        many=spec.many,
        optional=spec.optional,
        so_far=tuple(partial),
        choices=shown,
        can_finish=finishing,
        # A field never judged value by value (wild: a plan's coins) is not marked here: the builder
        # asks the engine about the move "Done" would finish (Builder._finish_judged).
        finish_legal=finishing and name not in wild and any(
            matches(spec, m.get(name), partial if spec.many else None, exact=True)
            or spec.optional and not partial and m.get(name) is None  # "None": a move without the field
            for m in mine
        ),
        hidden_choices=0 if draft.every else hidden(domains, by, spec, move_type, name, [c.choice.value for c in choices]),
        ask=spec.ask,
        parts=spec.pick.parts,
    )


def _next_per_player(
    domains: Domains, by: str | None, move_type: type[Move], name: str, spec: FieldSpec, value: Any,
    mine: list[JsonObject], draft: Draft,
) -> NextStep:
    """A mapping of players to values: first whose part it is, then that part a value a tap.

    ``draft.closed`` holds ``"name/player"`` for each part said to be complete."""
    mapping: dict[str, list[Any]] = dict(value) if isinstance(value, dict) else {}
    open_key = next((k for k in reversed(mapping) if f"{name}/{k}" not in draft.closed), None)
    part = PlayerPart(open_key, mapping)
    if open_key is None:
        whose = tuple(
            Offered(Choice(p, p), any(p in (m.get(name) or {}) for m in mine)) for p in domains.players if p not in mapping
        )
        finishing = len(mapping) > 0 or spec.optional
        return NextStep(name, Pick.PLAYER.value, True, spec.optional, (), whose, finishing,
                        finish_legal=any(matches(spec, m.get(name), mapping, exact=True) for m in mine),
                        hidden_choices=0, part=part)
    partial = list(mapping[open_key])
    # Each player's part is drawn from that player's own domain; a value named in another's part
    # is taken for this one too only where the players share one set of things (a deal's cards),
    # not where each has their own (a yeti's coins).
    parts = [partial] if spec.pick.own_to_each_player else list(mapping.values())
    taken = set() if draft.every else {repr(v) for values in parts for v in values}
    domain = [c for c in domains.choices(open_key, spec, move_type, name, draft.every) if repr(c.value) not in taken]
    fits = [m for m in mine if isinstance(m.get(name), dict) and open_key in m[name]]
    choices = as_one((
        Offered(choice, any(list_matches(spec, partial + [choice.value], m[name][open_key], exact=False) for m in fits))
        for choice in domain
    ), domains.twins)
    left = 0 if draft.every else hidden(domains, open_key, spec, move_type, name, [c.choice.value for c in choices])
    return NextStep(name, spec.pick.value, True, spec.optional, tuple(partial), choices,
                    can_finish=True,
                    finish_legal=any(list_matches(spec, partial, m[name][open_key], exact=True) for m in fits),
                    hidden_choices=left, part=part)


def hidden(domains: Domains, by: str | None, spec: FieldSpec, move_type: type[Move], name: str, offered: Sequence[Any]) -> int:
    """How many more values "show every value" would offer (an illegal move on purpose), a value
    tapped already in the list among them (a repeat); copies of one card are one value."""
    every = domains.choices(by, spec, move_type, name, True)
    return len(distinct((c.value for c in every), domains.twins) - distinct(offered, domains.twins))
