"""The rule ids of Horrible Mountain 2, each with the rulebook passage it rests on, quoted."""

from __future__ import annotations

from companion.core import Rule, RuleBook

BOOK = "horrible-mountain-2.md"
GAPS = "GAPS.md"

SETUP_CARDS = "HM2-SETUP-CARDS"
SETUP_TABLE = "HM2-SETUP-TABLE"
SETUP_CUBES = "HM2-SETUP-CUBES"
SETUP_HANDS = "HM2-SETUP-HANDS"
SETUP_ROLES = "HM2-SETUP-ROLES"
PLACE_ORDER = "HM2-PLACE-ORDER"
PLACE_SLOTS = "HM2-PLACE-SLOTS"
PLACE_FREE = "HM2-PLACE-FREE"
TURN = "HM2-TURN"
WHOLE_ACTION = "HM2-WHOLE-ACTION"
DRAW = "HM2-DRAW"
SWAP = "HM2-SWAP"
TAKE_TABLE = "HM2-TAKE-TABLE"
TAKE_DISCARD = "HM2-TAKE-DISCARD"
SWAP_CUBES = "HM2-SWAP-CUBES"
CLAIM_CUBE = "HM2-CLAIM-CUBE"
DISCARD_PILE = "HM2-DISCARD-PILE"
HAND_LIMIT = "HM2-HAND-LIMIT"
RESHUFFLE = "HM2-RESHUFFLE"
CUBE_SLOT = "HM2-CUBE-SLOT"
GAME_END = "HM2-GAME-END"
SCORE_HAND = "HM2-SCORE-HAND"
SCORE_CUBES = "HM2-SCORE-CUBES"
WINNER = "HM2-WINNER"
TIE = "HM2-TIE"
VARIANT = "HM2-VARIANT"
EXAMINE = "HM2-EXAMINE"
SEARCH = "HM2-SEARCH"
GAP_HAND = "HM2-GAP-HAND"
GAP_CUBE = "HM2-GAP-CUBE"

RULES = RuleBook(
    [
        Rule(SETUP_CARDS, "The deck", BOOK, "20 Poker Cards in 4 suits, ranks 2 through 6 of each"),
        Rule(
            SETUP_TABLE,
            "Five Table Cards, one of each rank",
            BOOK,
            "Shuffle all 20 cards face down. Reveal cards from the top, one at a time. If the revealed card's rank "
            "is not present among the Table Cards, add it to the Table Cards. Repeat this until there are 5 Table "
            "Cards (2, 3, 4, 5, 6), then reshuffle the other 15 cards.",
            refuses=False,
        ),
        Rule(
            SETUP_CUBES,
            "Two colours each, the centre colour on the 4",
            BOOK,
            "Give each player four cubes in two colors. Set one of the two cubes of the remaining color on the "
            "Table Card with rank 4. Place the other unselected cube aside in the Cube Pile.",
            refuses=False,
        ),
        Rule(
            SETUP_HANDS,
            "Hands of three",
            BOOK,
            "Deal one card of the remaining 15 face down to each player. [...] Deal two more cards face down to "
            "each player from the Draw Pile, giving each player a hand of three cards.",
        ),
        Rule(
            SETUP_ROLES,
            "The Evil Master and the adventurer",
            BOOK,
            "The evilest player is the Evil Master and goes first. The other player is an unwitting adventurer",
            refuses=False,
        ),
        Rule(
            PLACE_ORDER,
            "The adventurer places first, then the Evil Master",
            BOOK,
            "The other player is an unwitting adventurer and places two of his cubes [...] The Evil Master then "
            "places two of his cubes",
        ),
        Rule(
            PLACE_SLOTS,
            "Cubes go on the 2 and 6 or the 3 and 5",
            BOOK,
            "places two of his cubes--one of one color and one of another--on either the 2 and 6 Table Cards or "
            "the 3 and 5 Table Cards.",
        ),
        Rule(
            PLACE_FREE,
            "Not on a Table Card that has a cube",
            BOOK,
            "He may not place his cubes on Table Cards which already have cubes.",
        ),
        Rule(
            TURN,
            "Alternate turns, one action each",
            BOOK,
            "Players alternate turns, beginning with the Evil Master. On his turn, a player must perform exactly "
            "one of these actions",
        ),
        Rule(
            WHOLE_ACTION,
            "All of the action or none of it",
            BOOK,
            "In order to perform an action, a player must be able to perform *all* of the action. For instance, a "
            "player may not Take a Discard if he has no Control Cubes or if the Discard Pile is empty.",
        ),
        Rule(DRAW, "Draw a Card", BOOK, "Draw a Card: Draw a card from the Draw Pile."),
        Rule(SWAP, "Swap a Card", BOOK, "Swap a Card: Swap a card from his hand with a Table Card of matching rank."),
        Rule(
            TAKE_TABLE,
            "Take a Table Card",
            BOOK,
            "Take a Table Card: Discard one of his Control Cubes to the Cube Pile and take the Table Card under "
            "the matching cube into his hand. Then replace the missing Table Card with the top card of the Draw "
            "Pile.",
        ),
        Rule(
            TAKE_DISCARD,
            "Take a Discard",
            BOOK,
            "Take a Discard: Discard one of his Control Cubes to the Cube Pile and take the top card of the "
            "Discard Pile into his hand. If the Discard Pile is empty, a player may not take this action.",
        ),
        Rule(
            SWAP_CUBES,
            "Swap Cubes",
            BOOK,
            "Swap Cubes: Discard two cards of any rank from his hand face up to swap cubes on two Table Cards of "
            "ranks matching the discarded cards. Example: The player discards a 2 and 3 from hand and swaps the "
            "cubes on a 2 and 3 Table Card. Example: The player discards two 4s from hand and swaps the cubes on "
            "the two 4 Table Cards.",
        ),
        Rule(
            CLAIM_CUBE,
            "Claim a Cube",
            BOOK,
            "Claim a Cube: Discard two cards of the same rank from his hand face up to claim a cube from the Cube "
            "Pile. This cube becomes one of the player's Control Cubes. If the Cube Pile is empty, a player may "
            "not take this action.",
        ),
        Rule(
            DISCARD_PILE,
            "The top of the Discard Pile",
            BOOK,
            "Discarded cards are placed face up on top of the Discard Pile. Ensure only the top card of the "
            "Discard Pile is visible at any time.",
        ),
        Rule(
            HAND_LIMIT,
            "Hand limit of five",
            BOOK,
            "Each player has a hand limit of five cards. If a player takes a sixth card into hand, he must then "
            "*immediately* discard down to five cards in hand.",
        ),
        Rule(
            RESHUFFLE,
            "The Draw Pile runs out",
            BOOK,
            "When the Draw Pile runs out, immediately reshuffle the cards in the Discard Pile to form a new Draw "
            "Pile. If a player must discard a sixth card from hand, the discard is *not* included in the reshuffle "
            "and becomes the first card of the new Discard Pile.",
        ),
        Rule(
            CUBE_SLOT,
            "The cube stays on the changed Table Card",
            BOOK,
            "Anytime the Table Card under a cube is changed (via swap or draw), the cube that was on top of the "
            "original Table Card is replaced on top of the new Table Card. In this manner, there is *always* one "
            "cube of each of the five colors on a Table Card.",
            refuses=False,
        ),
        Rule(
            GAME_END,
            "The end of the game",
            BOOK,
            "The game ends at the end of the turn during which the Draw Pile runs out for the third time.",
            refuses=False,
        ),
        Rule(
            SCORE_HAND,
            "Points for the best poker hand",
            BOOK,
            "At the end of the game, each player receives points for their highest valued poker hand: Straight "
            "flush of 5 cards 14; Four of a kind 10; Full House 8; Straight of 5 cards 6; Three of a kind 5; Two "
            "pair 4; One pair 2; None of the above -1",
            refuses=False,
        ),
        Rule(
            SCORE_CUBES,
            "Points for Control Cubes",
            BOOK,
            "For each Control Cube a player possesses, he also receives points equal to the rank of the Table Card "
            "under the matching-colored cube.",
            refuses=False,
        ),
        Rule(WINNER, "The winner", BOOK, "The player with the most points wins.", refuses=False),
        Rule(
            TIE,
            "Ties",
            BOOK,
            "In the event of a tie, the player with the best poker hand wins. In a further tie, the player with the "
            "most Control Cubes wins. In a still further tie, the Evil Master and unwitting adventurer stay in "
            "Horrible Mountain together, forever. Everybody loses.",
            refuses=False,
        ),
        Rule(
            VARIANT,
            "Once-per-game actions (Optional Variant)",
            BOOK,
            "In addition to the usual six actions, each player has an additional action which can be used *only "
            "once* per game and only on his turn in place of one of the normal actions",
        ),
        Rule(
            EXAMINE,
            "Evil Master: examine the hand",
            BOOK,
            "Evil Master: Examine the other player's hand. This action may not be taken if the other player's "
            "hand is empty.",
        ),
        Rule(
            SEARCH,
            "Adventurer: search the Discard Pile",
            BOOK,
            "Unwitting Adventurer: Examine the Discard Pile, take any card from the Discard Pile into hand (without "
            "revealing which card was selected), and then reorder any remaining cards in the Discard Pile as "
            "desired. This action may not be taken if the Discard Pile is empty.",
        ),
        Rule(
            GAP_HAND,
            "Best five (or fewer) cards",
            GAPS,
            "A hand is scored on its best 5 (or fewer) cards. With ranks 2–6 in four suits, a flush is always a "
            "straight flush, and five different ranks are always a straight; hands of fewer than five cards can "
            "still score \"none of the above\" (−1).",
            refuses=False,
        ),
        Rule(
            GAP_CUBE,
            "The cube stays with the slot",
            GAPS,
            "The cube on a Table Card stays with the slot when its card is replaced or swapped.",
            refuses=False,
        ),
    ]
)
