"""Every offer a player's page can get from the move builder, and the cards it names against those the
player may see: the check of tests/test_entry_hidden.py and of the games' own offer tests
(tests/games/test_<game>_offers_hidden.py). What a game's states hold (which cards exist, what a player
has seen besides their view, a twin state that looks the same to a player) is its scene's ``offers``
(tests/games/scenes.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

from companion.contract.game import Game
from companion.entry.builder import Builder, Draft, DraftError
from companion.games import get_spec
from tests.games.scenes import Offers, scene

STEPS_MOST = 8
"""Taps followed down one verb's path (a move with more fields than this is cut short)."""


def offers_of(game: Game[Any]) -> Offers:
    offers = scene(get_spec(game.id)).offers
    assert offers is not None, f"{game.id}'s scene walks no offers"
    return offers


# -- which cards exist and which a player sees -------------------------------------------------------


def universe(game: Game[Any], state: Any) -> dict[str, str]:
    """Every name a card may go by on a page (its id, and a label such as "4♣"), to its id."""
    return dict(offers_of(game).cards(game, state))


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
    """The cards ``player`` may see now: in their own view or on the public scoreboard, and those the
    game's scene says they have seen besides (Horrible Mountain 2's Discard Pile, say)."""
    seen = named(text(game.view(state, player)) + text(game.scoreboard(state)), names)
    return seen | offers_of(game).seen(state, player)


def hand(game: Game[Any], state: Any, player: str) -> list[str]:
    hands = scene(get_spec(game.id)).hands
    return hands.of(game.view(state, player)) if hands is not None else []


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
    swap = offers_of(game).swap
    assert swap is not None, f"{game.id}'s scene has no such twin"
    return swap(state, player)


def comparable(game: Game[Any], offer: dict[str, Any]) -> dict[str, Any]:
    """The offer less the known gap (the scene's ``judged_on_hidden``)."""
    verb = offers_of(game).judged_on_hidden
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
        if offers_of(game).swap is None:
            continue
        twin = swapped(game, state, player)
        if twin is None:
            continue
        assert game.view(twin, player) == game.view(state, player), "the twin must look the same to the player"
        assert game.scoreboard(twin) == game.scoreboard(state)
        tally.twins += 1
        other = Builder(game, twin, players, player)
        for w in walked:
            if comparable(game, other.offer(w.draft).to_json()) != comparable(game, w.offer):
                tally.leaks.append(f"{where}, {player}, draft {w.draft}: the offer differs on a state that looks the same")
