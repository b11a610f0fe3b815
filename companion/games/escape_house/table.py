"""From the table to moves: Escape House's readers (DESIGN.md, "What the sensors see"; issue 21).

Three kinds of reader, and what a card arriving at each is:

- the tap pad (one, in the center): a live table's next main puzzle turned up (``flip``), a penalty
  card drawn (``penalty``; refused when none is due), a played card turned up (``reveal``); the last played card
  turned up once everyone has played is the ``resolve`` (it reveals them all); in the resolve phase
  a puzzle card set aside is its ``clear``, by the played cards the engine finds clear it. A card dealt is not
  tapped here: it goes on the hand pad of the player it is dealt to, and the alert says so.
- each player's hand pad: a card tapped on its way into that hand. In a live table's deal it is one
  of the cards dealt to them (``dealt``); later a card another player holds is theirs to give
  (``trade``), and any other card is drawn from the deck of the room the player stands in (``draw``).
- the discard pad beside the discard pile in the center room, each card tapped on its way to the
  pile: in the resolve phase the first played card (or sacrificed player's card) is the ``end_round``
  (EH-TO-DISCARD: everything played goes there); at any time a card from a hand is that player's
  ``discard``; a card the pile already holds (the rest of a round's cards) needs no move.

The reveal button beside the tap pad (a call button wired to the array) ends the action phase where
no card's tap does: a round in which nobody could play, or with ``must_play`` off, where a player may
still play until the table agrees the phase is over. Pressed in the action phase it is the ``resolve``
(the verdict refuses it while someone must still play, EH-REVEAL); at any other time it is an alert.

Rooms, follows, plays (a card face down with a token under it) and the end of explore are
entered by a person as notation moves, as are draws from the discard pile (the three cards looked
at are seen by no reader). A card no move explains is one alert naming the zone and the fix.
"""

from __future__ import annotations

from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import PressSeen, Seen, TagSeen, VisionSeen
from companion.core.zones import DISCARD, HAND_PAD
from .cards import PENALTY_KINDS, Kind
from .effects import clear_by
from .live import unnamed_side_room
from .moves import Clear, Dealt, Discard, Draw, EndRound, Flip, Penalty, Resolve, Reveal, Trade
from .state import Phase, State

TAP_PAD = ZoneKind("tap_pad")  # revealed cards, penalty draws and a live table's next main puzzle are tapped here
REVEAL_BUTTON = ZoneKind("reveal_button")  # a button beside the tap pad, wired to the array: the action phase is over
ZONE_KINDS = (TAP_PAD, HAND_PAD, DISCARD, REVEAL_BUTTON)

Reading = Move | Unexplained | None


def holder(state: State, card: str) -> str | None:
    """The player whose hand holds ``card``, if any."""
    for player, hand in state.hands.items():
        if card in hand:
            return player
    return None


def resolves(state: State, card: str) -> bool:
    """Is ``card`` the last played card still face down, turned up once everyone has played (with
    ``must_play`` on, so nobody plays after it)? Turning it up reveals them all: the resolve."""
    if state.phase is not Phase.ACTION or not state.options.must_play or state.must_play():
        return False
    hidden = [p.card for p in state.played if not p.revealed]
    return hidden == [card]


def read_tap(state: State, zone: str, card: str, t: float | None) -> Reading:
    """A card tapped on the tap pad: a flip, a penalty draw, a reveal (the last one: the resolve)."""
    kind = state.cards.kind_of(card)
    if kind is Kind.MAIN and state.needs_flip():  # a live table turns up its next main puzzle
        return Flip(card=card, t=t)
    if kind in (Kind.MAIN, Kind.SIDE) and state.phase is Phase.RESOLVE and not state.closing:
        return read_cleared(state, zone, card, t)
    if kind in PENALTY_KINDS:
        # a penalty card tapped is a penalty draw, due or not: when none is due the verdict refuses
        # it (EH-PENALTY, "put the card back on top of the penalty deck"), a refusal in the log
        return Penalty(card=card, t=t)
    if state.phase is Phase.DEAL:
        return Unexplained(
            zone, f"{state.cards.name_of(card)} was tapped on the tap pad during the deal", "tap each card dealt on the hand pad of the player it is dealt to"
        )
    played = next((p for p in state.played if p.card == card), None)
    if played is None:
        return Unexplained(
            zone, f"{state.cards.name_of(card)} was tapped but no one played it face down this round", "enter the play first, or take it off the pad"
        )
    if played.revealed or state.phase is not Phase.ACTION:
        return None  # tapped again after its reveal
    if resolves(state, card):
        return Resolve(t=t)
    return Reveal(by=played.by, card=card, t=t)


def read_cleared(state: State, zone: str, card: str, t: float | None) -> Reading:
    """A puzzle card tapped in the resolve phase on its way to the side (EH-INSTRUCTIONS): its clear,
    by the played cards that clear it in its room (the engine's own finding, as EH-CLEAR-MISSED
    names them). A live table's face-down side puzzle is cleared in the one room whose items clear it."""
    name = state.cards.name_of(card)
    if card in state.cleared_now:
        return None  # set aside already
    room = state.room_of_puzzle(card)
    rooms = [room] if room is not None else [r for r in state.rooms if state.live and unnamed_side_room(state, card, r)]
    found = [(r, by) for r in rooms if (by := clear_by(state, card, r)) is not None]
    if len(found) == 1:
        return Clear(puzzle=card, cards=found[0][1], t=t)
    where = "in more than one room" if found else "nowhere"
    return Unexplained(zone, f"{name} was tapped to be set aside, and the cards played this round clear it {where}",
                       "put it back, or enter the clear naming its cards")


def read_hand(state: State, zone: str, player: str, card: str, t: float | None) -> Reading:
    """A card tapped on ``player``'s hand pad: dealt to them, traded to them, or drawn by them."""
    name = state.cards.name_of(card)
    if state.phase is Phase.DEAL:
        return Dealt(by=player, card=card, t=t)
    if player not in state.alive:
        return Unexplained(zone, f"{name} was tapped on the hand pad of {player}, who is sacrificed", "take it off the pad")
    giver = holder(state, card)
    if giver == player:
        return Unexplained(zone, f"{name} was tapped on the hand pad of {player}, who holds it already", "take it off the pad")
    if giver is not None:
        return Trade(by=giver, to=player, card=card, t=t)
    if card in state.discard:
        return Unexplained(zone, f"{name} lies in the discard pile; a card kept from it is entered with the cards looked at",
                           "enter the draw from the discard pile")
    return Draw(by=player, room=state.where[player], card=card, t=t)


def ends_round(state: State, card: str) -> bool:
    """Is ``card`` one the end of the round puts on the discard pile (a played card, a card of a
    player sacrificed this round), while that end is still to come?"""
    if state.phase is not Phase.RESOLVE or state.closing:
        return False
    gone = set(state.sacrificed_now)
    return any(p.card == card for p in state.played) or any(card in state.hands[p] for p in gone)


def read_discard(state: State, zone: str, card: str, t: float | None) -> Reading:
    """A card tapped on the discard pad: the end of the round, a discard from a hand, or nothing new."""
    if card in state.discard:
        return None  # the rest of a round's cards, tapped on after the first
    if ends_round(state, card):
        return EndRound(t=t)
    giver = holder(state, card)
    if giver is not None:
        return Discard(by=giver, card=card, t=t)
    return Unexplained(zone, f"{state.cards.name_of(card)} was tapped on the discard pad, and no move puts it on the pile", "take it back")


def interpret_tag(state: State, seen: TagSeen) -> Reading:
    """A card at one of the readers (module docstring)."""
    zone = seen.zone.name
    if not seen.arrived:
        return None  # a card lifted off a pad needs no move
    card = seen.card
    if card is None:
        return Unexplained(zone, "a card no one enrolled was read", "enrol the card, then tap it again")
    if state.cards.kind_of(card) is None:
        return Unexplained(zone, f'"{card}" is not a card of the set "{state.cards.name}"', "take it off the reader")
    if seen.zone.is_a(TAP_PAD):
        return read_tap(state, zone, card, seen.t)
    player = seen.zone.player
    if seen.zone.is_a(HAND_PAD) and player is not None and player in state.players:
        return read_hand(state, zone, player, card, seen.t)
    if seen.zone.is_a(DISCARD):
        return read_discard(state, zone, card, seen.t)
    return Unexplained(zone, "Escape House reads the tap pad, the hand pads and the discard pad; a tag arrived at another reader",
                       "take the card off that reader")


def interpret(state: State, seen: Seen) -> Reading:
    if isinstance(seen, VisionSeen):
        return None  # no camera zone means anything in Escape House
    return interpret_tag(state, seen)


def press(state: State, seen: PressSeen) -> Resolve | Unexplained:
    """The reveal button pressed: in the action phase, its end (the resolve, which turns every played
    card up; the verdict judges whether everyone has played, EH-REVEAL)."""
    zone = seen.zone
    if not zone.is_a(REVEAL_BUTTON):
        return Unexplained(zone.name, f"a button was pressed at {zone.name}, which is no reveal button",
                           "make the zone's kind reveal_button in the table config")
    if state.phase is not Phase.ACTION:
        return Unexplained(zone.name, f"the reveal button was pressed in the {state.phase.value} phase, when there is nothing to reveal",
                           "press it once the action phase is over")
    return Resolve(t=seen.t)
