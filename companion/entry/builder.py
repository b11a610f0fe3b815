"""The move builder: from a half-built move (a draft), the choices a page offers for the next tap.

The engine proposes: the legal moves now are the game's candidates that its own ``judge`` finds
legal. The builder only sorts them into what to offer:
- every verb of the game (the legal ones first, never a fixed list), so that a player can still
  enter an illegal move on purpose;
- complete legal moves as one-tap buttons where few fit the draft;
- step by step otherwise: for the next field, every value of its declared domain, each marked
  ``legal`` when some legal move still goes through it.

A player sees the table as a player: their pickers show their own hand and public cards, and a
field whose pick is never judged for players (:attr:`Pick.never_judged_for_players`: a card taken
face down) is offered whole, so that which cards are "legal" to name as drawn cannot tell where
another card lies. The builder keys only on such declared properties of a pick, never on which
pick it is: a game declares its own picks. The referee (``viewer`` None) sees
the whole state.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.contract.game import Game
from companion.core.codec import converter
from companion.entry.alike import as_one, distinct
from companion.entry.draft import Draft, DraftError
from companion.entry.only import only_way
from companion.entry.forms import (
    agrees, base_type, field_specs, hints, list_matches, matches, mentions, move_form, next_values, words,
    written_length,
)
from companion.entry.spare import QUICK_LIMIT, Spare
from companion.entry.offer import FieldSoFar, NextStep, Offer, Offered, PlayerPart, QuickMove, VerbOffer

__all__ = ["Builder", "Draft", "DraftError", "field_specs", "move_form", "offer"]

log = logging.getLogger(__name__)

CANDIDATE_LIMIT = 20_000
"""A game that proposes more candidates than this is cut short (and says so in the log)."""
_MISSING: Any = object()


class Builder:
    """Choices for one actor on one state. Cheap to make; made per request."""

    def __init__(self, game: Game[Any], state: Any, players: Sequence[str], viewer: str | None) -> None:
        self.game = game
        self.state = state
        self.players = tuple(players)
        self.viewer = viewer
        self._legal: dict[str | None, list[JsonObject]] = {}
        self._narrow: dict[tuple[str | None, str, str], tuple[list[JsonObject], bool] | None] = {}
        self._wilds: dict[type[Move], set[str]] = {}
        self._domains: dict[tuple[str | None, type[Move], str, bool], list[Choice]] = {}

    # -- what the engine proposes ----------------------------------------------------------

    def legal(self, by: str | None) -> list[JsonObject]:
        """The legal moves ``by`` may make now, as forms (:func:`move_form`); the engine's own judge
        decides. A wide verb (:meth:`Game.narrowed`) may be here only in part."""
        cached = self._legal.get(by)
        if cached is None:
            cached = self._legal[by] = self._judged(self.game.candidates(self.state, by), by)
        return cached

    def _judged(self, candidates: Iterable[Move], by: str | None) -> list[JsonObject]:
        """The candidates the engine finds legal for this viewer, as forms, each once."""
        return self._survey(candidates, by, lambda move: True, None)[1]

    def _survey(
        self, candidates: Iterable[Move], by: str | None, fits: Callable[[Move], bool], most: int | None,
        spare: Spare | None = None,
    ) -> tuple[set[str], list[JsonObject], bool]:
        """One lazy pass over ``candidates``: the verbs with a legal move, the legal moves that ``fits``
        as forms (each once, and no more than ``most`` + 1 of them), and whether more fit than ``most``.

        A candidate that does not fit is judged only while its verb has no legal move yet: the
        verbs row needs one legal move a verb, not all of them. With ``spare``, a candidate that fits
        is judged only where it could still change the offer (:class:`Spare`)."""
        verbs: set[str] = set()
        out: list[JsonObject] = []
        seen: set[str] = set()
        for n, move in enumerate(candidates):
            if n >= CANDIDATE_LIMIT:
                log.warning("%s proposes more than %d candidates; the rest are not offered", self.game.id, CANDIDATE_LIMIT)
                break
            wanted = (most is None or len(out) <= most) and fits(move) and (spare is None or spare.wanted(move))
            if move.by != by or not wanted and move.verb in verbs:
                continue
            if not self.game.judge_seen(self.state, move, self.viewer).ok:
                continue
            verbs.add(move.verb)
            if wanted:
                form = move_form(move)
                key = repr(form)
                if key not in seen:
                    seen.add(key)
                    out.append(form)
                    if spare is not None:
                        spare.learn(form)
        return verbs, out, most is not None and len(out) > most

    def _narrowed(self, by: str | None, verb: str, given: Mapping[str, Any]) -> tuple[list[JsonObject], bool] | None:
        """A wide verb's legal moves that agree with ``given``, and whether they are all of them;
        None for a verb the candidates list whole."""
        key = (by, verb, repr(sorted(given.items())))
        if key not in self._narrow:
            found = self.game.narrowed(self.state, by, verb, given)
            self._narrow[key] = None if found is None else (self._judged(found.moves, by), found.whole)
        return self._narrow[key]

    def _wild(self, move_type: type[Move]) -> set[str]:
        """Fields never judged for this viewer: a player's face-down draws, and free fields."""
        found = self._wilds.get(move_type)
        if found is None:
            specs = field_specs(move_type)
            found = {name for name, spec in specs if spec.free}
            if self.viewer is not None:
                found |= {name for name, spec in specs if spec.pick.never_judged_for_players}
            self._wilds[move_type] = found
        return found

    # -- domains ---------------------------------------------------------------------------

    def choices(self, by: str | None, spec: FieldSpec, move_type: type[Move], name: str, every: bool) -> list[Choice]:
        """Every value the field may take, as this viewer may know the table (asked once per builder:
        a game's choices are a pure function of the state)."""
        key = (by, move_type, name, every)
        found = self._domains.get(key)
        if found is None:
            found = self._domains[key] = self._choices(by, spec, move_type, name, every)
        return found

    def _choices(self, by: str | None, spec: FieldSpec, move_type: type[Move], name: str, every: bool) -> list[Choice]:
        found = self.game.choices(self.state, self.viewer, by, spec.pick, every)
        if found is not None:
            return list(found)
        if spec.pick.of_players:
            return [Choice(p, p) for p in self.players]
        hint = base_type(move_type, name)
        named = words(hint)
        if named is not None:
            return [Choice(w, str(w)) for w in named]
        log.warning("%s: no values for %s.%s (%s)", self.game.id, move_type.verb, name, spec.pick.value)
        return []

    # -- the answer a page gets ------------------------------------------------------------

    def offer(self, draft: Draft, chosen: bool = True) -> Offer:
        """The offer for ``draft``; ``chosen`` False where its verb was chosen for the person (the only
        legal one), so no step is taken for them either: a move is never made without a tap."""
        by = draft.by
        out = None if by is None else self.game.out_of_game(self.state, by)
        if out:  # a sacrificed player has no move to make: no verb is a button, the page says why
            return Offer(by, (), None, out=out)
        by_verb = self.game.codec.by_verb
        if draft.verb is None:
            legal, quickly, overflow = self._survey(
                self.game.candidates(self.state, by), by, lambda m: self._quickable(m, draft.focus), QUICK_LIMIT,
            )
            only = next(iter(legal)) if len(legal) == 1 else None
            if draft.focus is None and only is not None and field_specs(by_verb[only]):
                # One verb is legal now (a plan to make, a die to roll): it is chosen already, and its
                # fields are what the page asks; the other verbs stay one tap away for a move entered
                # illegal on purpose. (A verb with no fields is never chosen for you: that would send it.)
                return self.offer(dataclasses.replace(draft, verb=only), chosen=False)
            # A wide verb is listed only in part: more moves fit than one-tap buttons can show
            # (unless each has a field never judged here, which keeps it off the buttons anyway).
            wide = any(not self._wild(by_verb[v]) and not self._whole(by, v, {}) for v in legal)
            quick = () if wide or overflow else self._quick(draft, quickly, None)
            return Offer(by, self._verbs(legal), None, quick=quick)
        move_type = by_verb.get(draft.verb)
        if move_type is None:
            raise DraftError(f'unknown verb "{draft.verb}" for {self.game.id}')
        specs = field_specs(move_type)
        known = {name for name, _ in specs}
        unknown = sorted(set(draft.fields) - known)
        if unknown:
            raise DraftError(f"{draft.verb} has no field {unknown[0]!r}")
        wild = self._wild(move_type)
        done = {name: self._complete(move_type, name, spec, draft.fields.get(name, _MISSING), draft) for name, spec in specs}
        # A wide verb's moves come narrowed by the fields so far; a field never judged here never narrows.
        judged = {k: v for k, v in draft.fields.items() if k not in wild}
        narrowed = self._narrowed(by, draft.verb, judged)
        given = [(name, spec, draft.fields[name]) for name, spec in specs if done[name] and name not in wild]
        verb = draft.verb
        # One pass: the verb's moves that agree with the fields so far, judged all; the other verbs'
        # (and a wide verb's, narrowed here instead) only until each has a legal move.
        legal, mine, _ = self._survey(
            self.game.candidates(self.state, by), by, lambda m: narrowed is None and m.verb == verb and agrees(m, given), None,
            self._spare(draft, specs, done, wild),
        )
        buttons: list[JsonObject] | None = None  # the moves one-tap buttons are drawn from (None: all of mine)
        if narrowed is not None:
            mine = narrowed[0]
            # One-tap buttons are the moves that agree with the complete fields, as for any verb (the
            # narrowing by a list tapped so far is for marking its next value); from a wide verb's
            # sample only once every field judged here is complete: then they are all one button.
            agreeing = self._narrowed(by, verb, {name: value for name, _, value in given})
            named = all(done[name] or name in wild for name, _ in specs)
            fits = agreeing[0] if agreeing is not None and (agreeing[1] or named) else []
            buttons = [m for m in fits if all(matches(spec, m.get(n), v, exact=True) for n, spec, v in given)]
        filled: dict[str, Any] = {}
        fields: list[FieldSoFar] = []
        next_step: NextStep | None = None
        for name, spec in specs:
            value = draft.fields.get(name, _MISSING)
            complete = done[name]
            fields.append(FieldSoFar(name, spec, None if value is _MISSING else value, complete))
            if complete:
                filled[name] = value
                if name not in wild:
                    mine = [m for m in mine if matches(spec, m.get(name), value, exact=True)]
                continue
            if next_step is None:
                next_step = self._next(by, move_type, name, spec, value, mine, wild, draft)
        quick = self._quick(draft, mine if buttons is None else buttons, move_type)
        verbs = self._verbs(legal)
        if next_step is not None:
            taken = only_way(next_step, draft, wild) if chosen else None
            if taken is not None:
                return self._taken(self.offer(taken), next_step.field)
            return Offer(by, verbs, draft.verb, tuple(fields), quick, next=next_step)
        move = self.notation(move_type, by, filled)
        ok = bool(mine)
        if (wild or not ok and self.viewer is None) and not self._unjudged(move_type):
            # Marked as the engine judges the move itself where that tells the viewer nothing: a
            # field never judged value by value (a plan's coins), and for the referee, who sees the
            # whole table, where the game's candidates stand for a wider choice (each yeti's own coins).
            ok = self.game.judge_seen(self.state, self.game.codec.from_json(move), self.viewer).ok
        return Offer(by, verbs, draft.verb, tuple(fields), quick, move=move, legal=ok)

    @staticmethod
    def _taken(offer: Offer, name: str) -> Offer:
        """``offer`` with field ``name`` marked as taken for the person (its only way on)."""
        fields = tuple(dataclasses.replace(f, taken=True) if f.name == name else f for f in offer.fields)
        return dataclasses.replace(offer, fields=fields)

    def _spare(self, draft: Draft, specs: Sequence[tuple[str, FieldSpec]], done: Mapping[str, bool], wild: set[str]) -> Spare | None:
        """What of the verb being built needs judging for the next field (:class:`Spare`); None where
        every agreeing move is judged: a field never judged here, or a mapping per player."""
        name, spec = next(((name, spec) for name, spec in specs if not done[name]), (None, None))
        if wild or name is None or spec is None or spec.per_player:
            return None
        value = draft.fields.get(name)
        return Spare(name, spec, value if spec.many and isinstance(value, list) else [], draft.focus)

    def _verbs(self, legal: set[str]) -> tuple[VerbOffer, ...]:
        """Every verb of the game, the legal ones first."""
        return tuple(VerbOffer(v, v in legal) for v in sorted(self.game.codec.by_verb, key=lambda v: (v not in legal, v)))

    def _quickable(self, move: Move, focus: str | None) -> bool:
        """Whether a move may be a one-tap button on a draft with no verb: no field left to name, and
        the card tapped in the hand, if any, in it."""
        return not self._wild(type(move)) and (focus is None or mentions(move_form(move), focus))

    def _whole(self, by: str | None, verb: str, given: Mapping[str, Any]) -> bool:
        """Whether the legal moves of ``verb`` agreeing with ``given`` are all known (not a wide verb's sample)."""
        narrowed = self._narrowed(by, verb, given)
        return narrowed is None or narrowed[1]

    def notation(self, move_type: type[Move], by: str | None, fields: Mapping[str, Any]) -> JsonObject:
        """The finished move as the notation spells it (the game's codec decides the keys)."""
        types_ = hints(move_type)
        values: dict[str, Any] = {}
        for name, value in fields.items():
            if value is not None:
                values[name] = converter(types_[name])(value, f'{move_type.verb} field "{name}"')
        try:
            move = move_type(by=by, **values)
        except (TypeError, ValueError) as exc:
            raise DraftError(f"{move_type.verb}: {exc}") from exc
        return self.game.codec.to_json(move)

    @staticmethod
    def _written(move_type: type[Move], name: str, spec: FieldSpec) -> tuple[int, int | None]:
        """The lengths of a list the notation can write (the rules' ``least``..``most`` aside): all
        of them but where its type fixes the count, or where ``most`` is the notation's bound."""
        fixed = written_length(move_type, name)
        if fixed is not None:
            return fixed, fixed
        return 0, spec.most if spec.full_at_most else None

    def _complete(self, type_of: type[Move], name: str, spec: FieldSpec, value: Any, draft: Draft) -> bool:
        if value is _MISSING:
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
            most = self._written(type_of, name, spec)[1]
            return name in draft.closed or most is not None and len(value) >= most
        return True

    def _next(
        self, by: str | None, move_type: type[Move], name: str, spec: FieldSpec, value: Any,
        mine: list[JsonObject], wild: set[str], draft: Draft,
    ) -> NextStep:
        if spec.per_player:
            return self._next_per_player(by, move_type, name, spec, value, mine, draft)
        partial: list[Any] = list(value) if spec.many and isinstance(value, list) else []
        domain = self.choices(by, spec, move_type, name, draft.every)
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
        if ahead is not None and self.viewer is None:
            for key, have in ahead.items():
                if key not in offered and have is not None:
                    offered.add(key)
                    choices.append(Offered(Choice(have, str(have)), True))
        # Copies of one card are one button, naming a copy the move meant can take.
        shown = as_one(choices, self._twins)
        # A list may be finished at any length the notation can write; whether that is legal is the
        # engine's to say.
        least, most = self._written(move_type, name, spec)
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
            finish_legal=finishing and any(
                name in wild or matches(spec, m.get(name), partial if spec.many else None, exact=True)
                or spec.optional and not partial and m.get(name) is None  # "None": a move without the field
                for m in mine
            ),
            hidden_choices=0 if draft.every else self._hidden(by, spec, move_type, name, [c.choice.value for c in choices]),
            ask=spec.ask,
            parts=spec.pick.parts,
        )

    def _next_per_player(
        self, by: str | None, move_type: type[Move], name: str, spec: FieldSpec, value: Any,
        mine: list[JsonObject], draft: Draft,
    ) -> NextStep:
        """A mapping of players to values: first whose part it is, then that part a value a tap.

        ``draft.closed`` holds ``"name/player"`` for each part said to be complete."""
        mapping: dict[str, list[Any]] = dict(value) if isinstance(value, dict) else {}
        open_key = next((k for k in reversed(mapping) if f"{name}/{k}" not in draft.closed), None)
        part = PlayerPart(open_key, mapping)
        if open_key is None:
            whose = tuple(
                Offered(Choice(p, p), any(p in (m.get(name) or {}) for m in mine)) for p in self.players if p not in mapping
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
        domain = [c for c in self.choices(open_key, spec, move_type, name, draft.every) if repr(c.value) not in taken]
        fits = [m for m in mine if isinstance(m.get(name), dict) and open_key in m[name]]
        choices = as_one((
            Offered(choice, any(list_matches(spec, partial + [choice.value], m[name][open_key], exact=False) for m in fits))
            for choice in domain
        ), self._twins)
        hidden = 0 if draft.every else self._hidden(open_key, spec, move_type, name, [c.choice.value for c in choices])
        return NextStep(name, spec.pick.value, True, spec.optional, tuple(partial), choices,
                        can_finish=True,
                        finish_legal=any(list_matches(spec, partial, m[name][open_key], exact=True) for m in fits),
                        hidden_choices=hidden, part=part)

    def _hidden(self, by: str | None, spec: FieldSpec, move_type: type[Move], name: str, offered: Sequence[Any]) -> int:
        """How many more values "show every value" would offer (an illegal move on purpose), a value
        tapped already in the list among them (a repeat); copies of one card are one value."""
        every = self.choices(by, spec, move_type, name, True)
        return len(distinct((c.value for c in every), self._twins) - distinct(offered, self._twins))

    def _twins(self, card: str) -> Sequence[str]:
        """The copies of a card on this state (:meth:`Game.copies`)."""
        return self.game.copies(self.state, card)

    def _quick(self, draft: Draft, moves: list[JsonObject], move_type: type[Move] | None) -> tuple[QuickMove, ...]:
        """Complete legal moves as one-tap buttons, when few fit the draft (none with a face-down card unnamed)."""
        picked = []
        for m in moves:
            if draft.focus is not None and not mentions(m, draft.focus):
                continue
            mtype = self.game.codec.by_verb[m["do"]]
            wild = self._wild(mtype)
            if wild:
                if move_type is None or any(w not in draft.fields for w in wild):
                    continue
                m = {**m, **{w: draft.fields[w] for w in wild}}
            if m not in picked:
                picked.append(m)
            if len(picked) > QUICK_LIMIT:
                return ()
        out = []
        for form in picked:
            mtype = self.game.codec.by_verb[form["do"]]
            fields = {k: v for k, v in form.items() if k not in ("do", "by")}
            try:
                move = self.notation(mtype, form.get("by"), fields)
            except DraftError:  # a face-down part still half named: not a move yet
                continue
            label = self.describe(form)
            wild = self._wild(mtype)
            if wild:
                # Its wild values are the draft's, not the candidate's the engine judged. A button is
                # never a move the engine refuses: judged again where that tells the viewer nothing
                # (a plan's own coins); where it would (a card taken face down), it says so.
                if self._unjudged(mtype):
                    label += " (the engine checks it when sent)"
                elif not self.game.judge_seen(self.state, self.game.codec.from_json(move), self.viewer).ok:
                    continue
            out.append(QuickMove(move, form, label))
        return tuple(out)

    def _unjudged(self, move_type: type[Move]) -> bool:
        """Whether a move of this type names a value this viewer's page never has judged (a player's
        face-down draw): judging it whole would tell where that card is."""
        return self.viewer is not None and any(spec.pick.never_judged_for_players for _, spec in field_specs(move_type))

    def describe(self, move: Mapping[str, Any]) -> str:
        """A move in a few words, with the labels its values have on the page ("play joe-4 · pile 2")."""
        move_type = self.game.codec.by_verb[str(move["do"])]
        parts = [str(move["do"]).replace("_", " ")]
        for name, spec in field_specs(move_type):
            value = move.get(name)
            if value is None:
                continue
            labels = {repr(c.value): c.label for c in self.choices(move.get("by"), spec, move_type, name, True)}
            if spec.per_player and isinstance(value, dict):  # "anna: none; ben: robot-2 teen-4"
                parts.append("; ".join(
                    f"{who}: {' '.join(labels.get(repr(v), _words(v)) for v in held) or 'none'}"
                    for who, held in value.items() if isinstance(held, list)
                ))
            elif isinstance(value, list):
                parts.append(" ".join(labels.get(repr(v), _words(v)) for v in value))
            else:
                parts.append(labels.get(repr(value), _words(value)))
        return " · ".join(parts)


def _words(value: Any) -> str:
    """A value no choice labels, in words rather than data: a record's values, a list's items."""
    if isinstance(value, dict):
        return " ".join(_words(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_words(v) for v in value)
    return str(value)


def offer(game: Game[Any], state: Any, players: Iterable[str], viewer: str | None, draft: Draft) -> JsonObject:
    """What a page offers next for ``draft``, as ``viewer`` (None = the referee) sees the table: the
    JSON of :class:`companion.entry.offer.Offer`."""
    return Builder(game, state, tuple(players), viewer).offer(draft).to_json()
