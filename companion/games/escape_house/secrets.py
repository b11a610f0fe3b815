"""What Escape House hides (:class:`~companion.contract.secrets.Secrets`): hands, face-down plays and piles.

Cards are drawn and traded face down, played face down with a token under them until revealed, and
the room decks, the discard pile and the penalty deck lie face down. In sight of everyone: the face-up
main puzzle, revealed plays, the puzzles cleared (each clear names its card) and the penalty cards
drawn. A player also sees their own hand and play, the side puzzle of the room they stand in, and
the discard pile cards they looked at for a draw still owed.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import HAND_KINDS
from .state import State


class HiddenCards:
    def names(self, state: State) -> Mapping[str, str]:
        return {c: c for c in state.cards.cards}

    def public(self, state: State) -> frozenset[str]:
        seen = {p.card for p in state.played if p.revealed}
        seen |= {state.puzzles[r] for r in state.cleared if r in state.puzzles}
        seen |= set(state.cleared_now) | set(state.drawn_penalties)
        main = state.current_main()
        if main is not None:
            seen.add(main)
        return frozenset(seen)

    def known(self, state: State, player: str) -> frozenset[str]:
        seen = set(state.hands.get(player, ())) | state.credit_seen.get(player, frozenset())
        mine = state.played_by(player)
        if mine is not None:
            seen.add(mine.card)
        room = state.where.get(player)
        if room is not None and room in state.puzzles and room not in state.cleared:
            seen.add(state.puzzles[room])  # the side obstacle of the room you stand in lies before you
        return self.public(state) | seen

    def twin(self, state: State, player: str) -> State | None:
        """A card of another player's hand (not traded this round) swapped with a face-down card
        ``player`` has not seen: of a room deck, else of the discard pile, else (a live table) one
        nobody has named yet."""
        unseen = frozenset(state.cards.cards) - self.known(state, player)
        movable = {
            p: sorted(c for c in hand if c in unseen and c not in state.traded) for p, hand in state.hands.items() if p != player
        }
        holder = next((p for p, cards in movable.items() if cards), None)
        if holder is None:
            return None
        give = movable[holder][0]
        changes: dict[str, object] = {}
        for room, deck in state.decks.items():
            take = next((c for c in reversed(deck) if c in unseen), None)  # the lowest such card
            if take is not None:
                changes["decks"] = {**state.decks, room: _swapped(deck, take, give)}
                break
        else:
            take = next((c for c in reversed(state.discard) if c in unseen), None)
            if take is not None:
                changes["discard"] = _swapped(state.discard, take, give)
            else:
                take = next((c for c in state.cards.ids(*HAND_KINDS) if c in state.unseen), None)
                if take is None:
                    return None
                changes["unseen"] = state.unseen - {take} | {give}
        hands = {**state.hands, holder: _swapped(state.hands[holder], give, take)}
        return state.but(hands=hands, **changes)


def _swapped(cards: tuple[str, ...], out: str, into: str) -> tuple[str, ...]:
    return tuple(into if c == out else c for c in cards)


SECRETS = HiddenCards()
