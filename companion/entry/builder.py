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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Move
from companion.core.picks import Choice, FieldSpec
from companion.contract.game import Game
from companion.core.codec import converter
from companion.entry import steps
from companion.entry.draft import Draft, DraftError
from companion.entry.only import only_way
from companion.entry.forms import (
    agrees, base_type, field_specs, hints, matches, mentions, move_form, words,
)
from companion.entry.labels import describe
from companion.entry.spare import QUICK_LIMIT, Spare
from companion.entry.offer import FieldSoFar, NextStep, Offer, QuickMove, VerbOffer
from companion.entry.steps import MISSING

__all__ = ["Builder", "Draft", "DraftError", "field_specs", "move_form", "offer"]

log = logging.getLogger(__name__)

CANDIDATE_LIMIT = 20_000
"""A game that proposes more candidates than this is cut short (and says so in the log)."""


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
        done = {name: steps.complete(move_type, name, spec, draft.fields.get(name, MISSING), draft) for name, spec in specs}
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
            value = draft.fields.get(name, MISSING)
            complete = done[name]
            fields.append(FieldSoFar(name, spec, None if value is MISSING else value, complete))
            if complete:
                filled[name] = value
                if name not in wild:
                    mine = [m for m in mine if matches(spec, m.get(name), value, exact=True)]
                continue
            if next_step is None:
                next_step = steps.next_step(self, by, move_type, name, spec, value, mine, wild, draft)
        quick = self._quick(draft, mine if buttons is None else buttons, move_type)
        verbs = self._verbs(legal)
        if next_step is not None:
            taken = only_way(next_step, draft, wild) if chosen else None
            if taken is not None:
                return self._taken(self.offer(taken), next_step.field)
            if not mine and not wild:  # (marked only: a step is taken for the person on the game's candidates alone)
                next_step = self._finish_judged(next_step, move_type, by, filled, [s for n, s in specs if not done[n]])
            return Offer(by, verbs, draft.verb, tuple(fields), quick, next=next_step)
        move = self.notation(move_type, by, filled)
        ok = bool(mine)
        if (wild or not ok) and not self._unjudged(move_type):
            # Marked as the engine judges the move itself (as the viewer may see it) where that tells
            # the viewer nothing: a field never judged value by value (a plan's coins), and where the
            # game's candidates stand for a wider choice (each yeti's own coins) or leave a legal move
            # out (a roll without its purpose).
            ok = self.game.judge_seen(self.state, self.game.codec.from_json(move), self.viewer).ok
        return Offer(by, verbs, draft.verb, tuple(fields), quick, move=move, legal=ok)

    def _finish_judged(
        self, step: NextStep, move_type: type[Move], by: str | None, filled: Mapping[str, Any], left: Sequence[FieldSpec],
    ) -> NextStep:
        """``step`` with its "None"/"Done" marked as the engine judges the move it would finish, where no
        move the game proposes agrees with the draft: a game's candidates may leave out a legal move
        (an Everest roll without its purpose, as files from before the field write it), and a way on
        that the engine takes is no dead end (issue 22). Only where every field after it may be left
        out, and the viewer may be told the verdict."""
        if step.finish_legal or not step.can_finish or step.part is not None or self._unjudged(move_type):
            return step
        if not all(spec.optional for spec in left[1:]):
            return step
        closing = step.many and (bool(step.so_far) or not left[0].optional)
        try:
            move = self.notation(move_type, by, {**filled, step.field: list(step.so_far) if closing else None})
        except DraftError:  # the notation cannot hold it: no move to judge
            return step
        if not self.game.judge_seen(self.state, self.game.codec.from_json(move), self.viewer).ok:
            return step
        return dataclasses.replace(step, finish_legal=True)

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

    def twins(self, card: str) -> Sequence[str]:
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
        return describe(self.game, move, self.choices)


def offer(game: Game[Any], state: Any, players: Iterable[str], viewer: str | None, draft: Draft) -> JsonObject:
    """What a page offers next for ``draft``, as ``viewer`` (None = the referee) sees the table: the
    JSON of :class:`companion.entry.offer.Offer`."""
    return Builder(game, state, tuple(players), viewer).offer(draft).to_json()
