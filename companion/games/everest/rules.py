"""The Everest rule catalogue: every rule id with the rulebook passage it rests on, quoted.

Source ``everest.txt`` is the rulebook text (run-together words of the auto-generated text are
spaced back apart); ``GAPS.md`` is the team's settled defaults; ``engine`` marks a gap this engine
settled (documented in GAME.md and given an option where there is a choice).
"""

from __future__ import annotations

from companion.core import Rule, RuleBook

RULEBOOK = "everest.txt"
GAPS = "GAPS.md"

RULES = RuleBook(
    [
        Rule(
            "EV-BOARD",
            "The mountain",
            GAPS,
            "Height = number of tiles stacked on the square. `.` is an empty notch in the base layer. "
            "A step is a height difference of 1; a cliff is a difference of 2 or more. The peak tile is the "
            "four squares x 4-5, y 3-4. Notches are off the board by default (moving into one is moving off "
            "the edge); a setting may treat them as table-level squares instead.",
            refuses=False,
        ),
        Rule(
            "EV-HOME",
            "Home bases",
            RULEBOOK,
            "Players place their pawns on one of the inside corners marked by the X's in the next figure. "
            "These are the yeti home bases, where they return for healing or after falling off the board. "
            "(GAPS.md: Home bases (default): (1,5), (8,5), (8,2), (1,2).)",
            refuses=False,
        ),
        Rule(
            "EV-PLAYER",
            "Only the players act",
            RULEBOOK,
            "Give each player the pawn, die and six coins of the same color.",
        ),
        Rule(
            "EV-PLAN-TIME",
            "Plans are made at the beginning of each round",
            RULEBOOK,
            "At the beginning of each round, all players prepare a plan of action that will determine what "
            "their yeti will do during the round.",
        ),
        Rule(
            "EV-PLAN-COINS",
            "A plan uses the player's own usable coins",
            RULEBOOK,
            "A player builds a plan by secretly selecting three of the player's coins behind their hand. "
            "[...] At the end of each round, count up how many times each yeti took damage during the round "
            "and that yeti's player must set aside that many coins. These coins cannot be used as part of a "
            "plan until the yeti is healed.",
        ),
        Rule(
            "EV-PLAN-THREE",
            "Three coins if you have them",
            RULEBOOK,
            "It is possible for a player to have fewer than three coins available (due to damage taken by the "
            "yeti), in this case make a plan as long as possible. [...] If you have enough coins to plan three "
            "actions, then you must use three coins.",
        ),
        Rule(
            "EV-DAZED",
            "Missing coins: stand there and look dazed",
            RULEBOOK,
            "A yeti's second or third action will then to be \"stand there and look dazed\" and the yeti does "
            "nothing for that action.",
            refuses=False,
        ),
        Rule(
            "EV-SECRET",
            "Plans are secret until all are made",
            RULEBOOK,
            "A player builds a plan by secretly selecting three of the player's coins behind their hand. [...] "
            "After all of the plans are finished the players expose their plans for all to see.",
            refuses=False,
        ),
        Rule(
            "EV-SIMULTANEOUS",
            "Plans are performed one coin at a time",
            RULEBOOK,
            "Yeti plans are performed simultaneously one coin at a time, i.e., every player does the first "
            "coin, then all do the second and so on. [...] They are placed in a row and will be performed left "
            "to right.",
            refuses=False,
        ),
        Rule(
            "EV-CONFLICT",
            "Conflicting actions",
            RULEBOOK,
            "Actions by different yeti are considered to be in conflict if a different board configuration "
            "would result when the actions are performed sequentially in two different orders. If there is a "
            "conflict, then all players roll their dice and the player with the high roll gets to choose the "
            "order for all the actions [...] Here are some examples of possible conflicts: two or more yeti "
            "want to end their action in the same square, a yeti wants to move through the square of a "
            "stationary yeti, two yeti are moving in the same or opposite directions and have overlapping "
            "paths, and a thrown snowball could miss due to the movement of the target yeti. Two yeti moving "
            "in 90-degree orthogonal paths do not conflict, unless one of them wants to end its movement in the "
            "intersecting square of their paths.",
            refuses=False,
        ),
        Rule(
            "EV-ROLL",
            "Dice are rolled when the rules call for them",
            RULEBOOK,
            "If there is a conflict, then all players roll their dice [...] Yeti in the other three squares "
            "are only affected on the roll of a blank on owning player's die. An affected Yeti rolls a die and "
            "acts according to the result.",
        ),
        Rule(
            "EV-ORDER",
            "The high roller chooses the order",
            RULEBOOK,
            "If there is a conflict, then all players roll their dice and the player with the high roll gets "
            "to choose the order for all the actions, with one restriction: all snowball throws still happen "
            "simultaneously.",
        ),
        Rule(
            "EV-ORDER-ALL",
            "The order covers all the conflicting actions",
            RULEBOOK,
            "the player with the high roll gets to choose the order for all the actions",
        ),
        Rule(
            "EV-SNOWBALL-TOGETHER",
            "Snowballs fly together",
            RULEBOOK,
            "with one restriction: all snowball throws still happen simultaneously.",
            refuses=False,
        ),
        Rule(
            "EV-MOVE",
            "Movement points",
            RULEBOOK,
            "a coin showing an ace, 2, 3, 4 or 5 specifies that the yeti will move in the direction shown by "
            "the tick mark using the corresponding number (1, 2, 3, 4, or 5) of movement points. [...] Yeti "
            "always move in a straight line [...] Move one square to the same or lower level 1 MP. Move one "
            "square up a step to a higher-level 2 MP.",
            refuses=False,
        ),
        Rule(
            "EV-CLIFF-UP",
            "Cliffs cannot be climbed",
            RULEBOOK,
            "Yeti always move in a straight line and cannot climb cliffs. If a yeti's movement runs it into a "
            "cliff from below, it stops and looses the remainder of it movement for that action.",
            refuses=False,
        ),
        Rule(
            "EV-FALL",
            "Falling off a cliff",
            RULEBOOK,
            "If it runs off a cliff from above, it falls off the cliff to the square below and then continues "
            "moving in the same direction. [...] Falling off a cliff will damage your yeti. [...] Whenever a "
            "yeti falls off a cliff or gets hit by a snowball it takes damage.",
            refuses=False,
        ),
        Rule(
            "EV-EDGE",
            "Off the edge of the board",
            RULEBOOK,
            "Moving off the edge of the board, not only ends the yeti's movement, but also cancels any "
            "remaining actions for this round. [...] A yeti that is pushed off the edge of the board looses "
            "any unperformed actions for this round.",
            refuses=False,
        ),
        Rule(
            "EV-PUSH",
            "Pushing another yeti",
            RULEBOOK,
            "If a yeti wants to move into a square occupied by another yeti, then it must push that yeti ahead "
            "of it. [...] Moving into a square occupied by another Yeti and pushing it to a square on the same "
            "or lower level unless the pushing yeti is falling off a cliff. +1 MP. Moving into a square "
            "occupied by another Yeti and pushing it to a square up one level +2 MP. [...] If a yeti has "
            "insufficient MP to push another yeti, it ends its movement and looses any remaining MP for that "
            "action.",
            refuses=False,
        ),
        Rule(
            "EV-PUSH-BLOCKED",
            "No pushing up a cliff or into a yeti",
            RULEBOOK,
            "A yeti cannot be pushed up a cliff or into a square occupied by another yeti, in these cases the "
            "pushing yeti stops and looses any remaining movement for this action.",
            refuses=False,
        ),
        Rule(
            "EV-PUSH-FALL",
            "A free push while falling",
            RULEBOOK,
            "Note that falling off a cliff gives your yeti a free push on any yeti in the square you fall into.",
            refuses=False,
        ),
        Rule(
            "EV-SNOWBALL",
            "Throwing snowballs",
            RULEBOOK,
            "A thrown snowball travels in a straight line until it hits a yeti, runs into an upward step or "
            "cliff, or flies off the board. A yeti hit by a snowball takes damage and is pushed one square in "
            "the direction that the snowball was thrown. A snowball cannot push a yeti up a step or cliff or "
            "into a square occupied by another yeti; in those cases the hit yeti does not move.",
            refuses=False,
        ),
        Rule(
            "EV-SNOWBALL-SPLAT",
            "Snowballs splat on an upward step",
            RULEBOOK,
            "A snowball freely goes downhill, but if it hits an upward step or cliff, it goes splat and has no "
            "effect; unless there is a yeti standing on the square directly at the top of the step or cliff, "
            "then the yeti gets hit instead.",
            refuses=False,
        ),
        Rule(
            "EV-ROAR",
            "Roaring",
            RULEBOOK,
            "The roar of a yeti can only affect any yeti that are in one of the four squares next to the yeti. "
            "The roar always affects a yeti in the square pointed to by the tick mark on the blank coin. Yeti "
            "in the other three squares are only affected on the roll of a blank on owning player's die. [...] "
            "If multiple roars are happening simultaneously, determine all yeti that are affected first, then "
            "simultaneously roll on the above table for each yeti.",
            refuses=False,
        ),
        Rule(
            "EV-ROAR-REACT",
            "What a startled yeti does",
            RULEBOOK,
            "An affected Yeti rolls a die and acts according to the result: 2-5: the yeti runs away directly "
            "away from the roaring yeti using the number of MP shown on the die. [...] Blank: The yeti stands "
            "there and shivers.",
            refuses=False,
        ),
        Rule(
            "EV-ROAR-BACK",
            "Roaring back",
            RULEBOOK,
            "Ace: the yeti roars back at the roaring yeti, the original yeti must also make a die roll and act "
            "accordingly, except that any ace result is treated as a blank. Yeti in other surrounding squares "
            "must make the check die roll as specified above. [...] Note that once a yeti is determined to be "
            "running away from a roar, it does not roll for subsequent roars by any yeti that rolls an ace.",
            refuses=False,
        ),
        Rule(
            "EV-RUNAWAY",
            "Runaways move like an action turn",
            RULEBOOK,
            "After all yeti that are running away are determined, treat any resulting movement like a regular "
            "action turn including conflict resolution (all yeti that are not running away are considered "
            "stationary). Afterwards, complete any actions for the turn yet to be performed.",
            refuses=False,
        ),
        Rule(
            "EV-DAMAGE",
            "Damage sets coins aside",
            RULEBOOK,
            "At the end of each round, count up how many times each yeti took damage during the round and "
            "that yeti's player must set aside that many coins. These coins cannot be used as part of a plan "
            "until the yeti is healed.",
        ),
        Rule(
            "EV-HEAL",
            "Healing at home",
            RULEBOOK,
            "At the end of any round, instead of setting aside coins, a player can move their yeti back to its "
            "starting square; all coins set aside due to damage are returned and that yeti operates as normal "
            "the next round. A player may do this even if the yeti took no damage for the round.",
            refuses=False,
        ),
        Rule(
            "EV-FORCED-HOME",
            "Forced home to heal",
            RULEBOOK,
            "If a yeti with no coins left or that takes more damage then it has coins left, then it must be "
            "returned to its starting square to heal.",
            refuses=False,
        ),
        Rule(
            "EV-EDGE-HOME",
            "Back from off the edge",
            RULEBOOK,
            "In addition, if a yeti falls off the edge of the board, at the end of the round it is also "
            "returned to its starting square, but does not get any of its coins back; it can not heal until "
            "the end of the next round.",
        ),
        Rule(
            "EV-ROUND-END",
            "The round ends when every coin is done",
            RULEBOOK,
            "Yeti plans are performed simultaneously one coin at a time [...] At the end of each round, count "
            "up how many times each yeti took damage during the round.",
        ),
        Rule(
            "EV-WIN",
            "Winning the game",
            RULEBOOK,
            "A yeti wins the game if it starts a round as the sole occupant of the peak tile and is still the "
            "sole occupant at the end of the round.",
            refuses=False,
        ),
    ]
)
