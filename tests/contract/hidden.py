"""The hidden-information check, run over a game's playout: what each page may name, read from the game's
own declaration of its secrets (``GameSpec.secrets``, :mod:`companion.contract.secrets`).

At each state of the playout and for every player P:

(a) P's view, and every offer P's page can get from the move builder (``/api/p/<p>/<t>/offer``: no
    draft; each verb step by step along a legal path, each step also with "show every value"; each
    card of P's hand tapped as the focus) names only values P may know (``secrets.known``). The
    exception is a field whose pick is :attr:`Pick.UNSEEN_CARD` (a face-down draw): its choices are
    every card P has not seen, and must all be equally ``legal`` (the offer cannot single out where a
    card lies). A page may also echo back what P entered in the draft.
(b) the public scoreboard names only values anyone may know (``secrets.public``); the public log row
    (:func:`companion.log.public.public_row`: its verdict's words too) of each move of the playout,
    and of each move P's page can send at a walked state (legal or refused), names only values
    public before or after it and those the move's public fields show, and ``public_move`` drops the
    move's hidden fields; a face-down card a move names in the open (an :attr:`Pick.UNSEEN_CARD` field
    not hidden) has landed face up. (Whether any other field should have been hidden is the game's own
    declaration; tests/browser/test_hidden.py checks that no public payload names a card then in a hand.)
(c) a twin state (``secrets.twin``: it differs only in what P cannot see) gives P the same view and
    scoreboard (else the declaration is wrong) and the same offers (else a page tells the two apart).

tests/contract/test_hidden.py runs this over every registered game; per-game test files run it over
a variant's playout (Horrible Mountain 2's secret search, Escape House's live table).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.contract.secrets import Secrets
from companion.contract.spec import GameSpec
from companion.core import JsonObject, JsonValue, Move, ObservationKind, Verdict, canonical_json
from companion.core.errors import NotationError
from companion.core.picks import Pick
from companion.entry.builder import Builder, Draft, DraftError, move_form
from companion.log.public import public_row
from companion.log.store import LogRow

STEPS_MOST = 8
"""Taps followed down one verb's path (a move with more fields than this is cut short)."""
UNSEEN = Pick.UNSEEN_CARD.value
"""A face-down draw's pick, as an offer spells it (picks are compared by their value)."""

_WORD = re.compile(r"[\w-]+")


def page(obj: Any) -> str:
    """What a page gets, as one text: canonical JSON ("4♣", not "4\\u2663")."""
    return canonical_json(obj)


class Names:
    """A state's secret names (``secrets.names``), to find which ids a page names.

    A name is found as a whole word: ``teen-1`` is not inside ``teen-10``, nor ``4C`` inside ``14C``."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.all = frozenset(names.values())
        self._words = {n: i for n, i in names.items() if _WORD.fullmatch(n)}
        self._others = {
            n: (i, re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])")) for n, i in names.items() if n not in self._words
        }

    def ids(self, text: str) -> set[str]:
        found = {self._words[w] for w in set(_WORD.findall(text)) if w in self._words}
        for name, (id_, pattern) in self._others.items():
            if name in text and pattern.search(text):
                found.add(id_)
        return found


def named_beyond(names: Names, allowed: frozenset[str], shown: Any) -> set[str]:
    """The ids a page names that are not among ``allowed``."""
    return names.ids(page(shown)) - allowed


# -- the offers a page can get -------------------------------------------------------------------------


@dataclasses.dataclass
class Walked:
    draft: Draft
    offer: dict[str, Any]


def _pick_one(nxt: Mapping[str, Any]) -> Any:
    legal = [c["value"] for c in nxt["choices"] if c["legal"]]
    return legal[0] if legal else None


def _path(builder: Builder, player: str, verb: str) -> Iterator[Walked]:
    """One verb's offers, step by step along a legal path (an illegal one when none is), each also with
    "show every value"."""
    fields: dict[str, Any] = {}
    closed: set[str] = set()
    for _ in range(STEPS_MOST):
        draft = Draft(player, verb, dict(fields), frozenset(closed))
        try:
            offer = builder.offer(draft).to_json()
        except DraftError:  # fields left out that the move cannot do without: the page says so (a 400)
            return
        yield Walked(draft, offer)
        everything = dataclasses.replace(draft, every=True)
        yield Walked(everything, builder.offer(everything).to_json())
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


def hand_cards(spec: GameSpec, state: Any, player: str) -> list[str]:
    """The cards ``player`` may tap as the focus: the values of their own hand's picker."""
    found = spec.game.choices(state, player, player, Pick.HAND_CARD, False) or ()
    return [c.value for c in found if isinstance(c.value, str)]


def walk(builder: Builder, player: str, cards: Sequence[str]) -> Iterator[Walked]:
    """Every offer ``player``'s page can get now (bounded): no draft, each verb's path, each hand card."""
    first = builder.offer(Draft(player)).to_json()
    yield Walked(Draft(player), first)
    for verb in first["verbs"]:
        yield from _path(builder, player, verb["verb"])
    for card in cards:
        focus = Draft(player, focus=card)
        yield Walked(focus, builder.offer(focus).to_json())


def checked_part(offer: Mapping[str, Any], every: bool) -> Mapping[str, Any]:
    """The offer less what names cards by design: the choices of a face-down field (every card P has
    not seen), and under "show every value" the values not marked legal (the field's whole domain,
    the same on every state: the deck). A value marked legal is always checked."""
    nxt = offer.get("next")
    if nxt is not None and nxt["pick"] == UNSEEN:
        return {**offer, "next": {**nxt, "choices": []}}
    if nxt is not None and every:
        return {**offer, "next": {**nxt, "choices": [c for c in nxt["choices"] if c["legal"]]}}
    return offer


# -- the check ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Tally:
    leaks: list[str] = dataclasses.field(default_factory=list)
    states: int = 0
    walked: int = 0
    """States whose offers were walked."""
    offers: int = 0
    hidden: int = 0
    """(state, player) pairs where some value really was hidden from the player (the check is not vacuous)."""
    unseen_fields: int = 0
    others_know: int = 0
    """(state, player) pairs where another player knew something this player did not."""
    twins: int = 0
    rows: int = 0
    refused_rows: int = 0
    sent: int = 0
    """Moves a page could send at a walked state, judged and their public rows checked."""

    def leak(self, text: str) -> None:
        self.leaks.append(text)


def secrets_of(spec: GameSpec) -> Secrets[Any]:
    if spec.secrets is None:
        raise AssertionError(f"{spec.id} declares no secrets (GameSpec.secrets)")
    return spec.secrets


def check_state(spec: GameSpec, state: Any, players: Sequence[str], where: str, tally: Tally, offers: bool) -> None:
    """(a), (b) and (c) at one state; the offers (the costly part) only when ``offers``."""
    game, secrets = spec.game, secrets_of(spec)
    names = Names(secrets.names(state))
    public = secrets.public(state)
    tally.states += 1
    found = named_beyond(names, public, game.scoreboard(state))
    if found:
        tally.leak(f"{where}: the scoreboard names {sorted(found)}, not public")
    known = {p: secrets.known(state, p) for p in players}
    tally.walked += offers
    for player in players:
        mine = known[player]
        assert public <= mine, f"{spec.id} {where}: public values {sorted(public - mine)} are not known to {player}"
        tally.hidden += bool(names.all - mine)
        tally.others_know += any(known[q] - mine for q in players if q != player)
        found = named_beyond(names, mine, game.view(state, player))
        if found:
            tally.leak(f"{where}: {player}'s view names {sorted(found)}, not known to {player}")
        walked = _check_offers(spec, state, players, player, names, mine, where, tally) if offers else []
        _check_twin(spec, state, players, player, walked, where, tally)


def _check_offers(
    spec: GameSpec, state: Any, players: Sequence[str], player: str, names: Names, known: frozenset[str],
    where: str, tally: Tally,
) -> list[Walked]:
    builder = Builder(spec.game, state, players, player)
    walked = list(walk(builder, player, hand_cards(spec, state, player)))
    for w in walked:
        tally.offers += 1
        echoed = names.ids(page(w.draft.fields))  # what the player entered, shown back to them
        found = named_beyond(names, known | echoed, checked_part(w.offer, w.draft.every))
        if found:
            tally.leak(f"{where}, {player}, draft {w.draft}: names {sorted(found)}, not known to {player}")
        nxt = w.offer.get("next")
        if nxt is not None and nxt["pick"] == UNSEEN:
            tally.unseen_fields += 1
            if len({c["legal"] for c in nxt["choices"]}) > 1:
                tally.leak(f"{where}, {player}, draft {w.draft}: a face-down field marks some cards legal, not others")
    _check_sent(spec, state, [w.offer["move"] for w in walked if w.offer.get("move") is not None], where, tally)
    return walked


def _check_sent(spec: GameSpec, state: Any, finished: list[JsonObject], where: str, tally: Tally) -> None:
    """(b) for the moves a page can send now (the walk's finished moves, legal or not): their public rows."""
    game = spec.game
    for text in sorted({page(m) for m in finished}):
        try:
            move = game.codec.from_json(json.loads(text))
        except NotationError:  # a move the page would be refused with a 400 (no row)
            continue
        verdict, after = game.play(state, move)
        tally.sent += 1
        check_row(spec, state, after, move, verdict, f"{where}, were {text} sent", tally, counted=False)


def _check_twin(spec: GameSpec, state: Any, players: Sequence[str], player: str, walked: list[Walked], where: str, tally: Tally) -> None:
    game = spec.game
    twin = secrets_of(spec).twin(state, player)
    if twin is None:
        return
    assert twin != state, f"{spec.id} {where}: the twin for {player} is the same state"
    # A twin differs only in what the player cannot see: if a page shows the difference, either the page
    # shows a secret or the game's declaration is wrong.
    if game.view(twin, player) != game.view(state, player):
        tally.leak(f"{where}: {player}'s view differs on a state that differs only in what {player} cannot see")
        return
    if game.scoreboard(twin) != game.scoreboard(state):
        tally.leak(f"{where}: the scoreboard differs on a state that differs only in what {player} cannot see")
        return
    tally.twins += 1
    other = Builder(game, twin, players, player)
    for w in walked:
        if other.offer(w.draft).to_json() != w.offer:
            tally.leak(f"{where}, {player}, draft {w.draft}: the offer differs on a state that looks the same")


def check_row(
    spec: GameSpec, before: Any, after: Any, move: Move, verdict: Verdict, where: str, tally: Tally, counted: bool = True
) -> None:
    """(b) for one move: its public log row, as the public page, the stream and exports show it."""
    game, secrets = spec.game, secrets_of(spec)
    tally.rows += counted
    shown = game.public_move(move)
    kept = sorted(set(move.hidden_fields) & set(shown))
    if kept:
        tally.leak(f"{where}: public_move keeps the hidden fields {kept}")
    row = LogRow(ObservationKind.MOVE.value, "contract", move.t, 0.0, 0.0, {}, game.codec.to_json(move), verdict.to_json())
    names = Names({**secrets.names(before), **secrets.names(after)})
    # What a move does not hide the table saw: a card laid face up, even if it went on to a face-down
    # pile (Escape Master's Escape card, shown, then put on the history pile), or an attempt refused
    # and taken back.
    allowed = secrets.public(before) | secrets.public(after) | names.ids(page(shown))
    tally.refused_rows += counted and not verdict.ok
    found = named_beyond(names, allowed, public_row(game, row))
    if found:
        tally.leak(f"{where}: the public row of {move.verb} names {sorted(found)}, not public")
    if verdict.ok:  # a card taken face down and named in the open must have landed face up
        form = move_form(move)
        for name, field in move.picks.items():
            if field.pick.value == UNSEEN and name not in move.hidden_fields and name in form:
                found = named_beyond(names, secrets.public(after), form[name])
                if found:
                    tally.leak(f"{where}: {move.verb}.{name} names {sorted(found)} in the open, and it is not face up")


def run(spec: GameSpec, players: Sequence[str], state: Any, moves: Sequence[Move], walk_first: int | None = None, spread: int = 1) -> Tally:
    """The whole check over a playout from ``state``. Views, boards, twins and rows are checked at every
    state; offers (the costly part) at the start, after each of the first ``walk_first`` moves (None:
    all of them) and after every ``spread``-th move from then on."""
    game = spec.game
    tally = Tally()
    first = len(moves) if walk_first is None else walk_first
    check_state(spec, state, players, "the start", tally, offers=True)
    for n, move in enumerate(moves, start=1):
        verdict, after = game.play(state, move)
        where = f"after move {n} ({move.verb}{'' if verdict.ok else ', refused'})"
        check_row(spec, state, after, move, verdict, where, tally)
        if verdict.ok:
            check_state(spec, after, players, where, tally, offers=n <= first or n % spread == 0)
        state = after
    return tally


def as_value(name: str) -> JsonValue:
    """A secret's name as a value on a page: a name spelled as JSON (an Everest plan) is that JSON."""
    try:
        value = json.loads(name)
    except ValueError:
        return name
    return value if isinstance(value, (list, dict)) else name
