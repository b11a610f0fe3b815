"""The search: replay seeded playouts and, at every state on the way, try moves a slip away from
the ones played; keep, for each rule id, the earliest state where a move is refused citing it,
with the nearest move of the same verb that the engine accepts there. Rules that never refuse are
found by an effect finder (a predicate on a legal move and the states around it) instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.contract.game import Game
from companion.core import Header, Move, canonical_json
from .mutate import Domains, distance, mutations

logger = logging.getLogger(__name__)


@dataclass
class Step:
    """A legal move and the states around it, with their scoreboards worked out once for every finder."""

    game: Game[Any]
    before: Any
    move: Move
    after: Any

    @cached_property
    def was(self) -> dict[str, Any]:
        return self.game.scoreboard(self.before)

    @cached_property
    def now(self) -> dict[str, Any]:
        return self.game.scoreboard(self.after)


EffectFinder = Callable[[Step], "Mapping[str, Any] | None"]
"""A step -> the case's ``then`` if the rule's effect shows in it, else None."""

PAIR_ATTEMPTS = 20
"""How often to look for a legal twin of a rule's refused moves before settling for none."""


@dataclass
class Found:
    """One rule's best case so far: the lead-up, the move judged and what goes with it."""

    rule: str
    header: Header
    lead: list[Move]
    origin: str
    bad: Move | None = None
    """The refused move (None for an effect)."""
    good: Move | None = None
    """The accepted move: the refused move's legal twin, or the move whose effect shows."""
    good_lead: list[Move] | None = None
    """The lead-up to ``good`` when it is not ``lead`` (no move of the verb is accepted where the
    refused one was: the one nearest to it in the same playout, or the first any playout made)."""
    good_header: Header | None = None
    """The header ``good_lead`` starts from, when ``good`` comes from another playout."""

    def size(self) -> tuple[int, int]:
        return len(self.lead), len(canonical_json(self.header.to_json()))


class Search:
    """What every playout offered so far, best (shortest lead-up, smallest header) first."""

    def __init__(self, game: Game[Any], domains: Domains, effects: Mapping[str, EffectFinder]) -> None:
        self.game = game
        self.domains = domains
        self.effects = effects
        self.refused: dict[str, Found] = {}
        self.unpaired: dict[str, dict[str, Found]] = {}
        """Per rule and verb, its earliest refusal with no accepted twin in the same state."""
        self.shown: dict[str, dict[tuple[str, str], Found]] = {}
        """Per effect rule, playout and verb, the first move that shows the effect."""
        self._pair_misses: dict[str, int] = {}
        self._played: dict[str, tuple[Header, list[Move]]] = {}
        """Per playout, its header and the moves the engine accepted, in order."""

    # -- refusals -------------------------------------------------------------------------------

    def _twin(self, state: Any, bad: Move, near: Sequence[Move], players: Sequence[str]) -> Move | None:
        """An accepted move of the same verb one field away from ``bad`` in ``state`` or, failing
        that, the nearest accepted move of that verb among the playout's neighbouring moves."""
        for move in mutations(self.game, state, bad, self.domains, players):
            if move.verb == bad.verb and self.game.judge(state, move).ok:
                return move
        same = [m for m in near if m.verb == bad.verb and self.game.judge(state, m).ok]
        return min(same, key=lambda m: distance(self.game, bad, m), default=None)

    def _offer(self, rule: str, header: Header, lead: list[Move], state: Any, bad: Move, near: Sequence[Move],
               origin: str) -> None:
        candidate = Found(rule, header, list(lead), origin, bad=bad)
        size = candidate.size()
        have = self.refused.get(rule)
        if have is not None and have.size() <= size:
            return
        good = None
        if self._pair_misses.get(rule, 0) < PAIR_ATTEMPTS or have is not None:
            good = self._twin(state, bad, near, header.players)
        if good is None:
            self._pair_misses[rule] = self._pair_misses.get(rule, 0) + 1
            held = self.unpaired.setdefault(rule, {})
            if bad.verb not in held or size < held[bad.verb].size():
                held[bad.verb] = candidate
            return
        candidate.good = good
        self.refused[rule] = candidate

    # -- effects ----------------------------------------------------------------------------------

    def _show(self, rule: str, header: Header, lead: list[Move], move: Move, origin: str) -> None:
        self.shown.setdefault(rule, {})[origin, move.verb] = Found(rule, header, list(lead), origin, good=move)

    def _worth_showing(self, rule: str, origin: str, verb: str) -> bool:
        # A playout's lead-up only grows, so its first instance of an effect is its shortest.
        return (origin, verb) not in self.shown.get(rule, {})

    def effect_cases(self, rule: str) -> list[Found]:
        """The rule's instances, shortest first, one per playout and verb."""
        return sorted(self.shown.get(rule, {}).values(), key=Found.size)

    # -- one playout ------------------------------------------------------------------------------

    def run(self, header: Header, moves: Sequence[Move], origin: str, slips: bool = True) -> None:
        """Walk one playout (its illegal attempts are tried, not applied); ``slips``: try the moves a
        slip away at every state too (without, the walk only looks for effects, and is fast)."""
        game = self.game
        state = game.new_state(header)
        players = header.players
        lead: list[Move] = []
        for k, move in enumerate(moves):
            near = [*moves[k + 1 : k + 6], *moves[max(0, k - 3) : k]]
            tries: list[Move] = [move]
            if slips:
                tries += [*near, *mutations(game, state, move, self.domains, players)]
                for who in [*players, None]:
                    tries.extend(game.candidates(state, who))
            for attempt in tries:
                verdict = game.judge(state, attempt)
                if verdict.ok:
                    continue
                for rule in verdict.rules:
                    self._offer(rule, header, lead, state, attempt, [*near, move], origin)
            if not game.judge(state, move).ok:
                continue
            after = game.apply(state, move)
            step = Step(game, state, move, after)
            for rule, finder in self.effects.items():
                if self._worth_showing(rule, origin, move.verb):
                    if finder(step) is not None:
                        self._show(rule, header, lead, move, origin)
            lead.append(move)
            state = after
        self._played[origin] = (header, lead)

    def _accepted(self, origin: str, verb: str, near: int) -> tuple[Header, list[Move], Move] | None:
        """The accepted move of ``verb`` in a playout nearest to move ``near``, at or before it if
        there is one (where the refused move's situation was building up)."""
        header, played = self._played[origin]
        at = [i for i, m in enumerate(played) if m.verb == verb]
        if not at:
            return None
        before = [i for i in at if i <= near]
        i = before[-1] if before else at[0]
        return header, played[:i], played[i]

    def finish(self) -> None:
        """Give each rule refused only where no move of its verb is accepted a legal case from
        elsewhere: the accepted move of that verb nearest to the refusal in the same playout, or
        failing that the first one any playout made."""
        for rule, by_verb in self.unpaired.items():
            for found in sorted(by_verb.values(), key=Found.size):
                if rule in self.refused or found.bad is None:
                    break
                verb = found.bad.verb
                pick = self._accepted(found.origin, verb, len(found.lead))
                if pick is None:
                    others = (self._accepted(origin, verb, 0) for origin in self._played)
                    pick = min((p for p in others if p is not None), key=lambda p: len(p[1]), default=None)
                if pick is not None:
                    found.good_header, found.good_lead, found.good = pick
                    self.refused[rule] = found


def run_sources(search: Search, sources: Iterable[tuple[str, Header, Sequence[Move]]],
                hunts: Iterable[tuple[str, Header, Sequence[Move]]] = ()) -> None:
    """Walk every source with its slips, then every hunt for effects only."""
    for origin, header, moves in sources:
        logger.info("playout %s: %d moves", origin, len(moves))
        search.run(header, moves, origin)
    for origin, header, moves in hunts:
        logger.debug("hunt %s: %d moves", origin, len(moves))
        search.run(header, moves, origin, slips=False)
    search.finish()
