"""The Mountain's rule ids, each with the passage of the rulebook (or GAPS.md) it rests on, quoted."""

from __future__ import annotations

import logging

from companion.core import Rule, RuleBook

logger = logging.getLogger(__name__)

BOOK = "the-mountain.md"
GAPS = "GAPS.md"

SOLO = "TM-SOLO"
ORDER = "TM-ORDER"
HAND = "TM-HAND"
DRAW_LIMIT = "TM-DRAW-LIMIT"
DRAW_FIRST = "TM-DRAW-FIRST"
STOCK = "TM-STOCK"
HEALTH_DRAW = "TM-HEALTH-DRAW"
SET = "TM-SET"
TWO_SETS = "TM-TWO-SETS"
SKIP = "TM-SKIP"
LAYOUT = "TM-LAYOUT"
EXPOSED = "TM-EXPOSED"
SEQUENTIAL = "TM-SEQUENTIAL"
CLUBS = "TM-CLUBS"
SPADES = "TM-SPADES"
DIAMONDS = "TM-DIAMONDS"
HEARTS = "TM-HEARTS"
ATTACK = "TM-ATTACK"
LOSE = "TM-LOSE"
WIN = "TM-WIN"
SCORE = "TM-SCORE"
NIGHTMARE = "TM-NIGHTMARE"

RULES = RuleBook(
    [
        Rule(SOLO, "One player", BOOK, "A tactical solitaire card game about survival, and overcoming adversity"),
        Rule(
            ORDER,
            "Turn order",
            BOOK,
            "Each turn the player **discards cards**, **draws** to a full hand, and then takes **actions** to "
            "destroy threats. Then the **threats attack**, and you discard cards from the health pile for damage "
            "taken. ... **Discard** any cards from your hand that you don't want.",
        ),
        Rule(
            HAND,
            "Cards come from the hand",
            BOOK,
            "**Discard** any cards from your hand that you don't want. ... **Take actions** by choosing, and "
            "discarding, 2 or 3 cards from your hand that share the same suit.",
        ),
        Rule(DRAW_LIMIT, "Draw to five, no more", BOOK, "**Draw cards** until you have 5 cards."),
        Rule(
            DRAW_FIRST,
            "A full hand before acting",
            BOOK,
            "**Draw cards** until you have 5 cards. ... When the stockpile is empty, you do not have to draw to 5.",
        ),
        Rule(
            STOCK,
            "Drawing from the stockpile",
            BOOK,
            "The remaining cards are your **stockpile**. Which you will draw hands from to perform actions. "
            "(NOTATION.md: a draw from a face-down pile names the card the player tapped; a named card that "
            "cannot be there is an illegal move.)",
        ),
        Rule(
            HEALTH_DRAW,
            "Drawing from the health pile",
            BOOK,
            "At any point you may either draw from the stockpile OR the face-up health pile. (GAPS.md: Drawing "
            "from the health pile takes its top card; ...)",
        ),
        Rule(
            SET,
            "A set is 2 or 3 cards of one suit",
            BOOK,
            "**Take actions** by choosing, and discarding, 2 or 3 cards from your hand that share the same suit. "
            "The suit determines which action is performed ... **A pair** performs the action **once**. "
            "**A triple** will perform the action **twice**.",
        ),
        Rule(
            TWO_SETS,
            "Two sets of different suits",
            BOOK,
            "If you have 2 sets of different suits, you can perform both actions.",
        ),
        Rule(
            SKIP,
            "No set: the skip action",
            BOOK,
            "Discarding to perform actions is optional, but a default/skip action must then be performed. ... "
            "**SKIP** perform **Single Removal**: Remove any single **exposed card**.",
        ),
        Rule(
            LAYOUT,
            "The pyramid",
            GAPS,
            "Default geometry, as in Pyramid solitaire: rows 1..6 hold 1..6 cards; row 1 is the peak, row 6 is "
            "dealt last and lies on top. Card (r, i) is covered by (r+1, i) and (r+1, i+1). exposed: no covering "
            "card left; half-exposed: exactly one covering card left.",
            refuses=False,
        ),
        Rule(
            EXPOSED,
            "Only exposed cards are removed",
            BOOK,
            "Removals are always performed on exposed cards, and almost always multiple at a time. ... **Exposed** "
            "cards have nothing covering them.",
        ),
        Rule(
            SEQUENTIAL,
            "Removal is sequential",
            BOOK,
            "When removing multiple cards, each one is removed sequentially, and newly exposed cards become "
            "available for removal (when fulfilling the actions criteria).",
        ),
        Rule(
            CLUBS,
            "Clubs: chain removal",
            BOOK,
            "**CLUBS** perform **Chain Removal**: Remove any 3 neighboring **exposed** cards. (GAPS.md: two cards "
            "are neighbours when they are side by side in one row, or one of them covers the other. A chain is "
            "three cards, each a neighbour of the one removed before it, each exposed at the moment it is removed.)",
        ),
        Rule(
            SPADES,
            "Spades: same suit/rank removal",
            BOOK,
            "**SPADES** perform **Same Suit/Rank Removal**: Remove **exposed** cards of a chosen suit **OR** rank. "
            "... A same suit/rank removal can clear the chosen suit/rank on one level, and any subsequent exposed "
            "matching cards, continually until no exposed cards match the chosen suit/rank.",
        ),
        Rule(
            DIAMONDS,
            "Diamonds: dual removal",
            BOOK,
            "**DIAMONDS** perform **Dual Removal**: Remove any 2 **exposed** cards.",
        ),
        Rule(
            HEARTS,
            "Hearts: heal",
            BOOK,
            "**HEARTS** perform **Heal**: Remove 2 **exposed non threat** cards, and add them to the bottom of the "
            "health deck. If there are too few options on the mountain, heal with the action cards instead, one "
            "for each unfulfilled health pt.",
        ),
        Rule(
            ATTACK,
            "The threats attack",
            BOOK,
            "**The threats attack**, doing 1 damage for each threat that is **exposed**, or **half exposed**. "
            "**Exposed** cards have nothing covering them. **Half-Exposed** cards have only one card covering them, showing half the card. Each of these "
            "threats does 1 damage.",
            refuses=False,
        ),
        Rule(
            LOSE,
            "Losing",
            BOOK,
            "**Lose** when you are unable to discard a health for a threat attack. (GAPS.md: Losing: a threat "
            "attack that finds the health pile empty. Reaching 0 health exactly is survival.)",
            refuses=False,
        ),
        Rule(WIN, "Winning", BOOK, "**Win** by destroying every threat.", refuses=False),
        Rule(
            SCORE,
            "Scoring",
            BOOK,
            "Survival is 15 Pts. Add 1 Pt for each remaining health. If you didn't survive, you get 1 Pt for each "
            "threat defeated.",
            refuses=False,
        ),
        Rule(
            NIGHTMARE,
            "Nightmare mode",
            BOOK,
            "To increase the difficulty substantially, reduce the hand size to 4. When no suit pairs are available "
            "in hand, perform the **skip** action. Add 5 points to your score.",
        ),
    ]
)
