"""The Escape House rules catalogue: every rule id the engine cites, with the rulebook's words."""

from __future__ import annotations

from companion.core import Rule, RuleBook

SRC = "escape-house.txt"
GAPS = "GAPS.md"

_TWO_ACTIONS = (
    "Next, there are 2 actions players can choose to take (or not) during explore in any order, *draw* and *trade*"
)
_DRAW = "A player draws the top card of the deck of the room they are in."
_DISCARD_DRAW = (
    "A player can also choose to draw from the discard pile in the center room. If they do, they will draw 3 "
    "cards and then choose 1 to keep. If an effect is letting a player draw multiple cards, choose from 3 "
    "separate cards from the discard for each card drawn"
)
_PLAY = (
    "Each player can then select a card from their hand and play it face down in their room. Select a "
    "character token to place underneath the card, even if the card does not require a target. When everyone "
    "has played a card, reveal them."
)
_SEE_CLEARS = "Next, see if any main or side puzzles are cleared."
_ROOM_ONLY = (
    "Note that a sacrifice in any room will clear the main puzzle, but item cards only count towards the "
    "puzzle in the room they are played in, and that cards played by sacrificed players still count."
)
_EFFECTS = "If it is a trap, they must follow the rules of the card."

RULES: list[Rule] = [
    # -- setting up -------------------------------------------------------------------------------
    Rule("EH-CARD-SET", "The card set", GAPS,
         "The card list is a data file that the table fills in; the engine ships a small example set that "
         "covers every card kind (main puzzle, side puzzle, penalty with 3 clocks, item, action, trap, Betray)"),
    Rule("EH-SETUP-MAIN", "Main obstacles", SRC,
         "Place 7 obstacle cards face down in the main room (add 1 card per extra player over 6.", refuses=False),
    Rule("EH-SETUP-ROOMS", "Side rooms", SRC,
         "Next, place a side obstacle card face down at each of 6 (add 1 room per extra player) other rooms.",
         refuses=False),
    Rule("EH-SETUP-HANDS", "Hands", SRC,
         "Give each player a 'Betray' card, then shuffle the deck and draw 3 more cards per player."),
    Rule("EH-SETUP-DECKS", "Room decks", SRC, "Then divide the rest of the draw deck evenly between the side rooms.",
         refuses=False),
    Rule("EH-SETUP-PENALTIES", "Penalty deck", SRC,
         "Finally, shuffle the penalty cards and place them to the side ... 3 of these are clocks", refuses=False),
    # -- who, when, where -------------------------------------------------------------------------
    Rule("EH-PLAYER", "Players", SRC, "Players: 6-8, recommended 6"),
    Rule("EH-SACRIFICED", "Sacrificed players are out", SRC,
         "Any number of players might find their way out, or instead be sacrificed to the cult."),
    Rule("EH-PHASE", "Rounds and phases", SRC,
         "Escape house is organized by rounds. Each round consists of an *explore* phase, an *action* phase, "
         "and a *resolve* phase."),
    Rule("EH-ROOM", "Rooms", SRC, "At the start of the explore phase, each player chooses a room to move their token to."),
    Rule("EH-MOVE-ONCE", "One move per phase", SRC,
         "At the start of the explore phase, each player chooses a room to move their token to. ... At the "
         "start of the action phase, players again choose a room to move their tokens to"),
    Rule("EH-MOVE-FIRST", "Move first", SRC,
         "At the start of the explore phase, each player chooses a room to move their token to. " + _TWO_ACTIONS),
    Rule("EH-NO-MOVE", "Barred from moving", SRC, _EFFECTS + " ... Door Slam: You cannot move to a room this action phase"),
    # -- explore ----------------------------------------------------------------------------------
    Rule("EH-DRAW-ROOM", "Draw in your room", SRC, _DRAW),
    Rule("EH-DRAW-TOP", "The top card, or search a cleared room", SRC,
         _DRAW + " ... If the room's puzzle is solved, the player can search through the entire deck and choose "
         "a card instead of drawing from the top."),
    Rule("EH-DRAW-CARD", "The card must be there", "NOTATION.md",
         "A named card that cannot be there (not in that pile, already seen elsewhere) is an illegal move."),
    Rule("EH-DRAW-LIMIT", "Draws per explore", SRC, _TWO_ACTIONS),
    Rule("EH-TRAP", "Traps", SRC,
         "Trap cards only activate if drawn from an uncleared room. Whether it activates or not, put it into "
         "your hand like any other card (do not show the other players).", refuses=False),
    Rule("EH-DISCARD-DRAW", "Drawing from the discard pile", SRC, _DISCARD_DRAW),
    Rule("EH-DISCARD-ROOM", "The discard pile is in the center room", SRC, _DISCARD_DRAW),
    Rule("EH-TRADE-ROOM", "Trade in the same room", SRC, "A player can choose to give one card to another player in the same room."),
    Rule("EH-TRADE-ONCE", "A card is traded once per round", SRC, "A specific card can be traded no more than once per round."),
    Rule("EH-TRADE-LIMIT", "Trades per explore", SRC, _TWO_ACTIONS),
    Rule("EH-HAND", "Cards come from your hand", SRC, _PLAY),
    Rule("EH-HAND-LIMIT", "Hand size limit", SRC,
         "Players can hold no more than 5 cards in their hand. If a player has excess cards at the end of the "
         "explore phase, they must discard down to 5 cards by placing cards into their current room's deck."),
    Rule("EH-STASH", "Excess cards go into your room's deck", SRC,
         "If a player has excess cards at the end of the explore phase, they must discard down to 5 cards by "
         "placing cards into their current room's deck. Cards may be placed at any point in the deck."),
    # -- action -----------------------------------------------------------------------------------
    Rule("EH-FOLLOW", "Following", SRC,
         "At the start of the action phase, players again choose a room to move their tokens to, and can also "
         "declare a player to follow into whatever room they choose."),
    Rule("EH-PLAY", "One card, face down, with a target token", SRC, _PLAY),
    Rule("EH-NO-PLAY", "Barred from playing", SRC,
         _EFFECTS + " ... support cards that affect the way you play the next round or the state of the game."),
    Rule("EH-REVEAL", "Reveal when everyone has played", SRC, _PLAY),
    # -- resolve ----------------------------------------------------------------------------------
    Rule("EH-SACRIFICE", "Sacrifices first", SRC,
         "First, check to see if any players are being sacrificed this round by following the instructions on "
         "any action cards played.", refuses=False),
    Rule("EH-CLEAR-PUZZLE", "An open puzzle", SRC, _SEE_CLEARS),
    Rule("EH-CLEAR-ROOM", "Items count in their own room", SRC, _ROOM_ONLY),
    Rule("EH-CLEAR-SACRIFICE", "A sacrifice clears the main puzzle", SRC,
         _ROOM_ONLY + " ... All main puzzle cards have \"sacrifice 1 player\" as a clear option"),
    Rule("EH-CLEAR-CONDITION", "Clear conditions", SRC,
         "The bottom contains the conditions necessary to clear the card, along with any special instructions. "
         "... [side puzzles] can only be cleared with items."),
    Rule("EH-CLEAR-MISSED", "Every cleared puzzle is cleared", SRC, _SEE_CLEARS),
    Rule("EH-INSTRUCTIONS", "Cleared puzzles' instructions", SRC,
         "Follow any instructions on cleared puzzle cards, then discard them to the side.", refuses=False),
    Rule("EH-TO-DISCARD", "Played cards go to the discard pile", SRC,
         "Place all cards played, as well as sacrificed players' hands, *face down* into the discard pile in "
         "the center room.", refuses=False),
    Rule("EH-NEXT-MAIN", "Next main puzzle, or a penalty", SRC,
         "Finally, if the main puzzle was cleared, flip the next one over. If it was not cleared, draw a "
         "penalty card and follow the directions on it."),
    Rule("EH-PENALTY", "Penalty draws", SRC,
         "Finally, if the main puzzle was cleared, flip the next one over. If it was not cleared, draw a "
         "penalty card and follow the directions on it. ... Finally, shuffle the penalty cards and place them "
         "to the side"),
    Rule("EH-OWED", "Effects are followed", SRC,
         _EFFECTS + " ... If an effect requires you to discard a card, place the discards in the center room "
         "unless directed otherwise"),
    Rule("EH-DISCARD", "Discarding for an effect", SRC,
         "If an effect requires you to discard a card, place the discards in the center room unless directed "
         "otherwise"),
    # -- the end ----------------------------------------------------------------------------------
    Rule("EH-CLOCKS", "Three clocks", SRC,
         "However, if 3 clock cards are drawn from the penalty deck, the cultists return to the house, and all "
         "players lose.", refuses=False),
    Rule("EH-ESCAPE", "Escape", SRC, "If all main puzzles are cleared, the game ends, and all living players win.",
         refuses=False),
]

RULEBOOK = RuleBook(RULES)
