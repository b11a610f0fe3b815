"""The move builder's offers never show a player a card they may not see, over whole seeded games.

tests/browser/test_hidden.py checks the public payloads (board, log, stream); this file checks the
private ones a player's page gets from the builder (``/api/p/<p>/<t>/offer``). For seeded playouts
of the games with hidden cards (Escape Master, Horrible Mountain 2, Escape House, and The Mountain's
face-down stock), at every state and for every player P, the offers P's page can get are walked:
no draft; each verb, step by step along a legal path and with "show every value" at each step; and
each card of P's own hand tapped as the focus. Every offer must hold:

(a) every card it names anywhere (one-tap moves, choices, labels, the finished move) is one P may
    see: in P's own view (``game.view(state, P)``) or the public scoreboard. The exception is a
    field whose pick is :attr:`Pick.UNSEEN_CARD` (a face-down draw), whose choices are every card P
    has not seen, and a card P named there themselves;
(b) an UNSEEN_CARD field's choices are all equally ``legal``: the offer cannot single out where a
    card lies;
(c) for Horrible Mountain 2 and Escape Master, a second state that differs only by a card swapped
    between another player's hand and the draw pile (it looks the same to P) gets the same offers.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.core import Header, Move
from companion.core.picks import Pick
from companion.entry.builder import Builder, Draft, DraftError
from companion.contract.game import Game
from companion.games import get_game
from companion.games.escape_house import playout as escape_house_playout
from companion.games.escape_master import playout as escape_master_playout
from companion.games.horrible_mountain_2 import playout as horrible_mountain_2_playout
from companion.games.horrible_mountain_2.entry import card_label
from companion.games.the_mountain import playout as the_mountain_playout

STEPS_MOST = 8
"""Taps followed down one verb's path (a move with more fields than this is cut short)."""

PLAYOUTS: dict[str, Callable[[], tuple[Header, list[Move]]]] = {
    "escape-master": lambda: escape_master_playout.random_playout(3, max_moves=30),
    "horrible-mountain-2": lambda: horrible_mountain_2_playout.random_playout(2, max_moves=40, variant=True),
    "escape-house": lambda: escape_house_playout.random_playout(5, max_moves=20),
    "escape-house live": lambda: escape_house_playout.as_live_table(*escape_house_playout.random_playout(5, max_moves=12)),
    "the-mountain": lambda: the_mountain_playout.random_playout(1, max_moves=60),
}
SWAPPABLE = ("escape-master", "horrible-mountain-2")
JUDGED_ON_HIDDEN: dict[str, str] = {}
"""Verbs whose ``legal`` flag may turn on the other hands, left out of check (c): none now (Escape
Master's Draw! call is judged on a player's page by what the player sees, see the test below)."""


# -- which cards exist and which a player sees -------------------------------------------------------


def universe(game: Game[Any], state: Any) -> dict[str, str]:
    """Every name a card may go by on a page (its id, and for HM2 its label "4♣"), to its id."""
    if game.id == "escape-house":
        ids: tuple[str, ...] = tuple(state.cards.cards)
    elif game.id == "escape-master":
        ids = tuple(state.table.cards)
    else:
        deck = game.deck()
        assert deck is not None
        ids = deck
    names = {c: c for c in ids}
    if game.id == "horrible-mountain-2":
        names.update({card_label(c): c for c in ids})
    return names


def text(obj: Any) -> str:
    """JSON as a page reads it: "4♣", not "4\\u2663"."""
    return json.dumps(obj, ensure_ascii=False)


def named(text: str, names: dict[str, str]) -> set[str]:
    """The card ids whose names appear in ``text`` as whole words (teen-1 is not inside teen-10)."""
    if not names:
        return set()
    pattern = r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?![\w-])"
    return {names[m] for m in re.findall(pattern, text)}


def visible(game: Game[Any], state: Any, player: str, names: dict[str, str]) -> set[str]:
    """The cards ``player`` may see now: in their own view or on the public scoreboard.

    Horrible Mountain 2's Discard Pile counts as seen: every card in it was laid there face up by a
    public move (the log names it), though the board shows only its top; after the adventurer's secret
    ``search_discard`` the Evil Master still counts the searched card in it (the pile as he knows it;
    the test at the end of this file)."""
    seen = named(text(game.view(state, player)) + text(game.scoreboard(state)), names)
    if game.id == "horrible-mountain-2":
        seen |= state.discard_as_seen(state.seat(player))
    return seen


def hand(game: Game[Any], state: Any, player: str) -> list[str]:
    view = game.view(state, player)
    if game.id == "escape-house":
        return [c["id"] for c in (view.get("you") or {}).get("hand") or []]
    return [c for c in view.get("hand") or [] if isinstance(c, str)]


# -- the offers a page can get -------------------------------------------------------------------------


@dataclasses.dataclass
class Walked:
    draft: Draft
    offer: dict[str, Any]
    named_unseen: frozenset[str]
    """Cards the player put into an UNSEEN_CARD field of this draft (their own naming, echoed back)."""


def _pick_one(nxt: dict[str, Any]) -> Any:
    legal = [c["value"] for c in nxt["choices"] if c["legal"]]
    return legal[0] if legal else None


def _path(builder: Builder, player: str, verb: str) -> Iterator[Walked]:
    """One verb's offers, step by step along a legal path (an illegal one when none is), each also with
    "show every value"."""
    fields: dict[str, Any] = {}
    closed: set[str] = set()
    unseen: set[str] = set()
    for _ in range(STEPS_MOST):
        draft = Draft(player, verb, dict(fields), frozenset(closed))
        try:
            offer = builder.offer(draft).to_json()
        except DraftError:  # fields left out that the move cannot do without: the page says so (a 400)
            return
        yield Walked(draft, offer, frozenset(unseen))
        everything = dataclasses.replace(draft, every=True)
        yield Walked(everything, builder.offer(everything).to_json(), frozenset(unseen))
        nxt = offer["next"]
        if offer["move"] is not None or nxt is None:
            return
        name, choices = nxt["field"], nxt["choices"]
        value = _pick_one(nxt)
        if value is None and choices:
            value = choices[0]["value"]
        if nxt.get("per_player"):
            mapping = {k: list(v) for k, v in nxt["mapping"].items()}
            key = nxt["key"]
            if key is None:
                if value is None or mapping:
                    closed.add(name)
                else:
                    mapping[value] = []
            elif value is None or nxt["so_far"]:
                closed.add(f"{name}/{key}")
            else:
                mapping[key] = [*nxt["so_far"], value]
                if nxt["pick"] == "unseen_card":
                    unseen.add(str(value))
            fields[name] = mapping
            continue
        if nxt["many"]:
            if value is not None and not (nxt["can_finish"] and _pick_one(nxt) is None):
                fields[name] = [*nxt["so_far"], value]
            elif nxt["can_finish"]:
                fields[name] = list(nxt["so_far"])
                closed.add(name)
            else:
                return
        elif value is not None:
            fields[name] = value
        elif nxt["can_finish"]:
            fields[name] = None
        else:
            return
        if nxt["pick"] == "unseen_card" and value is not None:
            unseen.add(str(value))


def walk(builder: Builder, player: str, cards: list[str]) -> Iterator[Walked]:
    """Every offer ``player``'s page can get now (bounded): no draft, each verb's path, each hand card."""
    first = builder.offer(Draft(player)).to_json()
    yield Walked(Draft(player), first, frozenset())
    for verb in first["verbs"]:
        yield from _path(builder, player, verb["verb"])
    for card in cards:
        focus = Draft(player, focus=card)
        yield Walked(focus, builder.offer(focus).to_json(), frozenset())


def checked_part(offer: dict[str, Any], every: bool) -> dict[str, Any]:
    """The offer less what names cards by design: the choices of a face-down field (every card P has
    not seen), and under "show every value" the values not marked legal (the field's whole domain,
    the same on every state: the deck). A value marked legal is always checked."""
    nxt = offer.get("next")
    if nxt is not None and nxt["pick"] == "unseen_card":
        return {**offer, "next": {**nxt, "choices": []}}
    if nxt is not None and every:
        return {**offer, "next": {**nxt, "choices": [c for c in nxt["choices"] if c["legal"]]}}
    return offer


# -- a state that looks the same to a player ---------------------------------------------------------------


def swapped(game: Game[Any], state: Any, player: str) -> Any | None:
    """``state`` with one card traded between another player's hand and the draw pile, or None."""
    if game.id == "horrible-mountain-2":
        seat = state.seat(player)
        for other in range(len(state.hands)):
            if other == seat or not state.hands[other] or not state.draw_pile:
                continue
            give, take = min(state.hands[other]), min(state.draw_pile)
            hands = list(state.hands)
            hands[other] = hands[other] - {give} | {take}
            return dataclasses.replace(state, hands=tuple(hands), draw_pile=state.draw_pile - {take} | {give})
        return None
    rnd, seat = state.rnd, state.table.seat[player]
    for other in range(len(rnd.hands)):
        if other in (seat, state.table.mate(seat)) or not rnd.hands[other] or not rnd.draw_pile:
            continue
        give, take = min(rnd.hands[other]), min(rnd.draw_pile)
        hands = list(rnd.hands)
        hands[other] = hands[other] - {give} | {take}
        return state._replace(rnd=rnd._replace(hands=tuple(hands), draw_pile=rnd.draw_pile - {take} | {give}))
    return None


def comparable(game_id: str, offer: dict[str, Any]) -> dict[str, Any]:
    """The offer less the known gap (:data:`JUDGED_ON_HIDDEN`)."""
    verb = JUDGED_ON_HIDDEN.get(game_id)
    if verb is None:
        return offer
    return {
        **offer,
        "verbs": [{**v, "legal": None} if v["verb"] == verb else v for v in offer["verbs"]],
        "quick": [q for q in offer["quick"] if q["form"]["do"] != verb],
    }


# -- the check ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Tally:
    leaks: list[str] = dataclasses.field(default_factory=list)
    offers: int = 0
    unseen_fields: int = 0
    hidden_seen: int = 0
    """States where some card really was hidden from the player (the check is not vacuous)."""
    twins: int = 0


def check_state(game: Game[Any], state: Any, players: tuple[str, ...], where: str, tally: Tally) -> None:
    names = universe(game, state)
    for player in players:
        seen = visible(game, state, player, names)
        if set(names.values()) - seen:
            tally.hidden_seen += 1
        builder = Builder(game, state, players, player)
        walked = list(walk(builder, player, hand(game, state, player)))
        for w in walked:
            tally.offers += 1
            hidden = {n: c for n, c in names.items() if c not in seen and c not in w.named_unseen}
            found = named(text(checked_part(w.offer, w.draft.every)), hidden)
            if found:
                tally.leaks.append(f"{where}, {player}, draft {w.draft}: names {sorted(found)}, not seen by {player}")
            nxt = w.offer.get("next")
            if nxt is not None and nxt["pick"] == "unseen_card":
                tally.unseen_fields += 1
                if len({c["legal"] for c in nxt["choices"]}) > 1:
                    tally.leaks.append(f"{where}, {player}, draft {w.draft}: a face-down field marks some cards legal, not others")
        if game.id not in SWAPPABLE:
            continue
        twin = swapped(game, state, player)
        if twin is None:
            continue
        assert game.view(twin, player) == game.view(state, player), "the twin must look the same to the player"
        assert game.scoreboard(twin) == game.scoreboard(state)
        tally.twins += 1
        other = Builder(game, twin, players, player)
        for w in walked:
            if comparable(game.id, other.offer(w.draft).to_json()) != comparable(game.id, w.offer):
                tally.leaks.append(f"{where}, {player}, draft {w.draft}: the offer differs on a state that looks the same")


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_offers_name_only_cards_the_player_sees(game_id: str) -> None:
    header, moves = PLAYOUTS[game_id]()
    game = get_game(header.game)
    state = game.new_state(header)
    tally = Tally()
    check_state(game, state, header.players, "the start", tally)
    for n, move in enumerate(moves, start=1):
        _, state = game.play(state, move)
        check_state(game, state, header.players, f"after move {n} ({move.verb})", tally)
    assert tally.leaks == [], f"{len(tally.leaks)} leaks, the first: {tally.leaks[:3]}"
    # the check is not blind: cards really were hidden, and face-down fields were offered
    assert tally.hidden_seen > len(moves) // 2 and tally.offers > 10 * len(moves)
    assert tally.unseen_fields > 0
    if game_id in SWAPPABLE:
        assert tally.twins > len(moves) // 2


def test_the_check_catches_a_leak() -> None:
    """An offer naming another player's card, or marking one face-down card legal, is reported."""
    header, moves = PLAYOUTS["horrible-mountain-2"]()
    game = get_game("horrible-mountain-2")
    state = game.new_state(header)
    for move in moves[:6]:
        _, state = game.play(state, move)
    player = header.players[0]
    other = next(s for s in range(len(state.hands)) if s != state.seat(player))
    card = min(state.hands[other])
    names = universe(game, state)
    seen = visible(game, state, player, names)
    assert card not in seen
    leaky = {"quick": [{"label": f"take {card_label(card)}"}], "next": None}
    assert named(text(checked_part(leaky, False)), {n: c for n, c in names.items() if c not in seen}) == {card}
    twin = swapped(game, state, player)
    assert twin is not None and twin != state
    assert game.view(twin, player) == game.view(state, player)


def test_call_draw_is_offered_alike_whether_or_not_others_can_play() -> None:
    """Escape Master: two states that look the same to ben (a card of anna's traded with the draw
    pile), on one of which nobody can play, get the same offer: a player's page judges a Draw! call
    only by what the player can see (``Game.judge_seen``), and the engine decides when it is sent."""
    header, moves = escape_master_playout.random_playout(3, max_moves=44)
    game = get_game("escape-master")
    state = game.new_state(header)
    for move in moves:
        _, state = game.play(state, move)
    twin = swapped(game, state, "ben")
    assert twin is not None and game.view(twin, "ben") == game.view(state, "ben")
    players = header.players
    assert Builder(game, twin, players, "ben").offer(Draft("ben")).to_json() == Builder(game, state, players, "ben").offer(Draft("ben")).to_json()


def test_after_a_secret_search_the_evil_masters_page_cannot_tell_which_card_left_the_pile() -> None:
    """Horrible Mountain 2's variant: the adventurer takes any card of the Discard Pile in secret. Two
    states that differ only in which card was taken look the same to the Evil Master, and his page
    offers the same: every card he saw go to the pile, each judged alike, whichever is gone."""
    game = get_game("horrible-mountain-2")
    header, moves = horrible_mountain_2_playout.random_playout(2, max_moves=200, variant=True)
    at = next(i for i, m in enumerate(moves) if m.verb == "search_discard")
    state = game.new_state(header)
    for move in moves[: at + 1]:
        _, state = game.play(state, move)
    taken = moves[at].card  # type: ignore[attr-defined]
    assert state.searched == taken and state.discard_unordered, "the search left an unordered pile"
    other = min(state.discard_unordered)
    adventurer = 1 - state.seat(header.players[0]) if state.seat(header.players[0]) == 0 else 0
    hands = list(state.hands)
    hands[adventurer] = hands[adventurer] - {taken} | {other}
    twin = dataclasses.replace(state, hands=tuple(hands), searched=other,
                               discard_unordered=state.discard_unordered - {other} | {taken})
    evil = state.names[0]
    assert game.view(twin, evil) == game.view(state, evil) and game.scoreboard(twin) == game.scoreboard(state)
    while state.turn != 0 or state.phase.value != "play":  # on to the Evil Master's turn, in both states alike
        nxt = moves[at + 1]
        at += 1
        _, state = game.play(state, nxt)
        _, twin = game.play(twin, nxt)
    players = header.players
    for draft in (Draft(evil), Draft(evil, verb="take_discard")):
        assert Builder(game, twin, players, evil).offer(draft).to_json() == Builder(game, state, players, evil).offer(draft).to_json()
    public = {c.value for c in game.choices(state, evil, evil, Pick.PUBLIC_CARD, False) or ()}
    assert {taken, other} <= public  # the pile as he saw it fill, whichever card is gone
    unseen = {c.value for c in game.choices(state, evil, evil, Pick.UNSEEN_CARD, False) or ()}
    assert taken not in unseen and other not in unseen
