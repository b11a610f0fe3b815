"""What people see: the public scoreboard (never a hand), each player's private view, the referee's
full view, and the prompts that tell the table what the game waits for."""

from __future__ import annotations

import logging

from companion.core import JsonObject, Prompt
from . import piles as P
from .leaders import expected_size
from .scoring import units
from .state import Phase, State

logger = logging.getLogger(__name__)


def _by_name(state: State, values: tuple[object, ...]) -> dict[str, object]:
    return {name: values[i] for i, name in enumerate(state.table.players)}


def _traps(state: State, seat: int) -> list[str]:
    rnd = state.rnd
    out = [] if rnd.lock[seat] is None else [str(rnd.lock[seat])]
    trap = rnd.draw_trap[seat]
    if trap is not None and rnd.owes(seat):
        out.append(trap)
    return out


def scoreboard(state: State) -> JsonObject:
    """NOTATION.md's keys (faults, round_faults, round, piles, breaking_point) plus the table's extras."""
    table = state.table
    rnd = state.rnd
    players = table.players
    bp = table.options.breaking_point
    piles = [
        {
            "pile": p.number,
            "top": p.cards[-1] if p.cards else None,
            "open": p.open,
            "cards": len(p.cards),
            "half": p.pending.card if p.pending is not None else None,
        }
        for p in rnd.piles
    ]
    leaders: dict[str, object] = {}
    for i, name in enumerate(players):
        tribe = state.leaders[i]
        power = table.leader_data.ability(tribe)
        leaders[name] = None if tribe is None else {
            "tribe": tribe,
            "ability": power.key if power else None,
            "text": power.text if power else "",
            "lost_this_round": state.mods.lost[i],
        }
    board: JsonObject = {
        "faults": _by_name(state, state.faults),
        "round_faults": _by_name(state, state.round_faults),
        "round": state.round_no,
        "piles": piles,
        "breaking_point": bp,
        "phase": state.phase.value,
        "dealer": players[state.dealer],
        "players_in": [players[i] for i in state.players_in],
        "to_breaking_point": {name: max(0, bp - state.faults[i]) for i, name in enumerate(players)},
        "hand_sizes": {players[i]: len(rnd.hands[i]) for i in state.players_in},
        "draw_pile": len(rnd.draw_pile),
        "traps": {players[i]: _traps(state, i) for i in state.players_in},
        "owed_draws": {players[i]: rnd.owes(i) for i in state.players_in if rnd.owes(i)},
        "draw_call": None if rnd.call is None else {
            "caller": players[rnd.call.caller], "to_draw": [players[i] for i in rnd.call.pending]},
        "out": [players[i] for i in rnd.outs],
        "story": {
            "eligible": [players[i] for i in state.story_eligible],
            "why": state.story_why,
            "drawn": state.story_drawn,
        },
        "stories": {players[i]: u.card for i, u in enumerate(state.mods.story) if u is not None},
        "rounds": [
            {"round": r.number, "dealer": players[r.dealer], "faults": {players[i]: f for i, f in r.faults},
             "ended": r.ended, "out": [players[i] for i in r.outs]}
            for r in state.rounds
        ],
        "xp": _by_name(state, state.xp),
        "beast": _by_name(state, state.mods.beast),
        "leaders": leaders,
        "doom_pile": list(state.doom_pile),
        "tiebreak": [players[i] for i in state.players_in] if state.tiebreak else None,
        "fixed_rounds": table.options.fixed_rounds,
    }
    if table.team is not None:
        board["teams"] = [
            {"players": [players[i] for i in u], "faults": sum(state.faults[i] for i in u),
             "round_faults": sum(state.round_faults[i] for i in u)}
            for u in units(state, range(len(players)))
        ]
    return board


def view(state: State, player: str | None) -> JsonObject:
    """A player's view: the scoreboard, their own hand and history (and a teammate's hand); None: everything."""
    table = state.table
    rnd = state.rnd
    out = scoreboard(state)
    if player is None:
        out["hands"] = {name: sorted(rnd.hands[i]) for i, name in enumerate(table.players)}
        out["histories"] = {name: list(rnd.histories[i]) for i, name in enumerate(table.players)}
        out["draw_pile_cards"] = sorted(rnd.draw_pile)
        out["expected_hand_sizes"] = {table.players[i]: expected_size(state, i) for i in state.players_in}
        return out
    seat = table.seat.get(player)
    if seat is None:
        return out
    out["you"] = player
    out["hand"] = sorted(rnd.hands[seat])
    out["history"] = list(rnd.histories[seat])
    out["discards"] = rnd.credits[seat]
    call = rnd.call
    out["can_draw"] = bool(
        state.phase is Phase.PLAYING and state.playing(seat) and rnd.draw_pile
        and (seat in call.pending if call is not None else (rnd.owes(seat) or not P.has_playable(state, seat)))
    )
    mate = table.mate(seat)
    if mate is not None:  # EM-ALLIANCE: teammates may look at each other's hands
        out["teammate"] = table.players[mate]
        out["teammate_hand"] = sorted(rnd.hands[mate])
    return out


def prompts(state: State) -> tuple[Prompt, ...]:
    table = state.table
    players = table.players
    rnd = state.rnd
    dealer = players[state.dealer]
    phase = state.phase
    out: list[Prompt] = []
    if phase in (Phase.DEALING, Phase.WAITING):
        out += _dealt_prompts(state, state.round_no)  # a tapped deal stays in DEALING until Start!
        out += _before_start_prompts(state)
        when = " when everyone holds their cards" if phase is Phase.DEALING else ""
        out.append(Prompt(dealer, "start", f"{dealer}: call Start!{when}"))
    elif phase is Phase.PLAYING:
        for i in state.players_in:
            name = players[i]
            if rnd.owes(i):
                out.append(Prompt(name, "draw", f"{name}: draw {rnd.owes(i)} card(s) for the Draw +3 trap"))
            if state.playing(i) and not rnd.hands[i]:
                out.append(Prompt(name, "out", f"{name} has no cards left: call Escape Master!"))
        for pile in rnd.piles:
            if pile.pending is not None:
                who = players[pile.pending.by]
                out.append(Prompt(who, "play", f"{who}: complete the combination on pile {pile.number} or take the "
                                  f"{pile.pending.card} back"))
        if rnd.call is not None:
            nxt = players[rnd.call.pending[0]]
            out.append(Prompt(nxt, "draw", f"Draw! called by {players[rnd.call.caller]}: {nxt} draws next"))
        elif not rnd.draw_pile and not any(state.playing(i) and P.has_playable(state, i) for i in state.players_in):
            out.append(Prompt(None, "end_round", "the draw pile is empty and nobody can play: end the round"))
    elif phase is Phase.COUNTING:
        out.append(Prompt(None, "end_round", "Escape Master! was called: count the hands and end the round"))
    elif phase is Phase.ROUND_OVER:
        if not state.story_drawn:
            for i in state.story_eligible:
                out.append(Prompt(players[i], "story", f"{players[i]} may draw a Story card ({state.story_why})"))
        for i, change in enumerate(state.mods.leader_change):
            if change:
                out.append(Prompt(players[i], "leader", f"{players[i]}: take your new Escape Leader card"))
        out += _dealt_prompts(state, state.round_no + 1)
    return tuple(out)


def _before_start_prompts(state: State) -> list[Prompt]:
    """The Lumberjack's fault and the Story card swaps and passes, made before Start!."""
    players = state.table.players
    out = []
    for i in state.players_in:
        power = P.ability(state, i)
        if power is not None and power.key == "extra_fault" and not state.mods.gave_fault[i]:
            out.append(Prompt(players[i], "give_fault", f"{players[i]} may give another player a fault now"))
        use = state.mods.story[i]
        if use is not None and not state.mods.story_done[i]:
            data = state.table.stories[use.card]
            if data.swap_draw:
                out.append(Prompt(players[i], "swap_draw", f"{players[i]}: Story card {use.card}: look at the top "
                                  "of the draw pile and swap cards if you like"))
            if data.pass_cards:
                out.append(Prompt(players[i], "pass_card", f"{players[i]}: Story card {use.card}: pass a card"))
    return out


def _dealt_prompts(state: State, round_no: int) -> list[Prompt]:
    """Each player still to receive cards taps them in with ``dealt``, one card at a time (the page's
    deck grid); ``deal {hands}`` is for files and readers, a page cannot build it by taps."""
    players = state.table.players
    dealer = players[state.dealer]
    fresh = state.phase is Phase.ROUND_OVER
    out = []
    for i in state.players_in:
        want = expected_size(state, i)
        have = 0 if fresh else len(state.rnd.hands[i])
        if have < want:
            out.append(Prompt(players[i], "dealt", f"{players[i]}: tap each card {dealer} deals you for round {round_no} "
                              f"({have} of {want})"))
    return out
