"""What Everest hides (:class:`~companion.contract.secrets.Secrets`): each player's plan until all are in.

Plans are made in secret and revealed together once every plan is in (EV-SECRET): until then a
player knows only their own. A plan goes by its coins on a page, as the notation spells them (a list
of ``{"coin", "face", "dir"}``); its id is that spelling, so two plans of the same coins are one
secret: a player who planned them knows the words of both.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core import canonical_json
from .board import Direction
from .moves import PlanCoin
from .state import EverestState, Phase

TURN: Mapping[str, Direction] = {"N": "E", "E": "S", "S": "W", "W": "N"}


def spelled(plan: tuple[PlanCoin, ...]) -> str:
    """A plan as a page's JSON spells it (canonical: keys sorted, no spaces)."""
    return canonical_json([{"coin": c.coin, "face": c.face, "dir": c.dir} for c in plan])


class HiddenPlans:
    def names(self, state: EverestState) -> Mapping[str, str]:
        return {spelled(plan): spelled(plan) for plan in state.plans if plan}

    def public(self, state: EverestState) -> frozenset[str]:
        if state.phase is Phase.PLAN:
            return frozenset()
        return frozenset(spelled(plan) for plan in state.plans if plan)

    def known(self, state: EverestState, player: str) -> frozenset[str]:
        seat = state.seat(player)
        own = state.plans[seat] if seat is not None else None
        return self.public(state) | ({spelled(own)} if own else set())

    def twin(self, state: EverestState, player: str) -> EverestState | None:
        """Another player's plan in, with each coin's tick mark turned a quarter clockwise."""
        if state.phase is not Phase.PLAN:
            return None
        seat = state.seat(player)
        for other, plan in enumerate(state.plans):
            if other == seat or not plan:
                continue
            turned = tuple(PlanCoin(c.coin, c.face, TURN[c.dir]) for c in plan)
            plans = state.plans[:other] + (turned,) + state.plans[other + 1 :]
            return state.evolve(plans=plans)
        return None


SECRETS = HiddenPlans()
