"""Escape Master's rule ids, each with the passage it rests on, quoted.

The German rulebook (escape-master.de.txt) stands; each passage gives the English of the digest
(escape-master.en.md) and then the German words. Rules the rulebook leaves open cite GAPS.md or
DESIGN.md and name the option that sets them.
"""

from __future__ import annotations

import logging

from companion.core import Rule, RuleBook

logger = logging.getLogger(__name__)

DE = "escape-master.de.txt"
GAPS = "GAPS.md"
DESIGN = "DESIGN.md"
NOTATION = "NOTATION.md"

CARD = "EM-CARD"
HAND = "EM-HAND"
OWNER = "EM-OWNER"
WHO = "EM-WHO"
START = "EM-START"
DEAL = "EM-DEAL"
DEALER = "EM-DEALER"
NEW_PILE = "EM-NEW-PILE"
START_CARD = "EM-START-CARD"
PILE = "EM-PILE"
ONE_CARD = "EM-ONE-CARD"
WISDOM = "EM-WISDOM"
WISDOM_KEEP = "EM-WISDOM-KEEP"
COMBO = "EM-COMBO"
COMBO_DOOM = "EM-COMBO-DOOM"
DEAD_END = "EM-DEAD-END"
NOT_ON_PILE = "EM-NOT-ON-PILE"
BEATEN = "EM-BEATEN"
TRAP = "EM-TRAP"
TRAP_ONE = "EM-TRAP-ONE"
TRAP_UP = "EM-TRAP-UP"
TRAP_DOWN = "EM-TRAP-DOWN"
TRAP_DRAW = "EM-TRAP-DRAW"
ESCAPE = "EM-ESCAPE"
SPECIAL = "EM-SPECIAL"
DISCARD = "EM-DISCARD"
DRAW = "EM-DRAW"
UNSEEN = "EM-UNSEEN"
CALL_DRAW = "EM-CALL-DRAW"
OUT = "EM-OUT"
STOPPED = "EM-STOPPED"
ROUND_END = "EM-ROUND-END"
HANDS = "EM-HANDS"
FAULTS = "EM-FAULTS"
BREAKING_POINT = "EM-BREAKING-POINT"
TIE = "EM-TIE"
STORY = "EM-STORY"
XP = "EM-XP"
BEAST = "EM-BEAST"
LEADER = "EM-LEADER"
LUMBERJACK = "EM-LUMBERJACK"
FIXED_ROUNDS = "EM-FIXED-ROUNDS"
EARLY_END = "EM-EARLY-END"
ALLIANCE = "EM-ALLIANCE"


def _r(rule_id: str, title: str, source: str, english: str, german: str = "", *, refuses: bool = True) -> Rule:
    passage = f'"{english}"' + (f' (German: "{german}")' if german else "")
    return Rule(rule_id, title, source, passage, refuses)


RULES = RuleBook(
    [
        _r(CARD, "Only cards of this deck", GAPS,
           "Deck counts and which tribe owns which Escape Leader ability are garbled: both are data, not code. "
           "A named card that cannot be there is an illegal move (NOTATION.md). The deck is deck.json."),
        _r(HAND, "A play comes from a registered hand", DESIGN,
           "Escape Master attributes a pile play to the player whose registered hand held that card "
           "(a hand is the cards dealt to it and drawn into it; a card in nobody's hand cannot be played)."),
        _r(OWNER, "Only your own cards", DESIGN,
           "Escape Master attributes a pile play to the player whose registered hand held that card; "
           "a card registered in another player's hand is not yours to play."),
        _r(WHO, "Say who acts", NOTATION,
           "Move: {\"by\": PLAYER, \"do\": VERB, ...}. `by` may be omitted where no player acts; a draw, a "
           "Draw! call, a trap's target or an Escape Master! call always belongs to a player."),
        _r(START, "The dealer calls Start!", DE,
           "The dealer starts the round by calling \"Start!\" at any time. Everyone plays at once: there are no turns.",
           "Der Dealer kann die Runde mit dem Ausruf ‚Start!' jederzeit beginnen. ... alle Spieler spielen "
           "gleichzeitig. Es gibt keine Spielzüge!"),
        _r(DEAL, "The deal", DE,
           "Shuffle; the dealer deals 10 cards face down to each player; the rest is the draw pile in the middle.",
           "Der Dealer teilt jedem Spieler 10 Karten verdeckt aus. Die verbleibenden Karten werden als "
           "Nachziehstapel in die Mitte des Tisches gelegt."),
        _r(DEALER, "The dealer passes clockwise", DE,
           "The dealer passes clockwise each round.",
           "Der Dealer wechselt nach jeder Runde im Uhrzeigersinn."),
        _r(NEW_PILE, "Piles start with a start card or a Wisdom", DE,
           "Piles are started at any time by playing a start card (value 7) around the draw pile. "
           "Wisdom cards may be used to start piles.",
           "Spieler können jederzeit während einer Runde Stapel starten, indem sie Startkarten um den "
           "Nachziehstapel herum ausspielen. Alle Startkarten haben einen Wert von 7. ... Wisdom-Karten können "
           "verwendet werden, um Stapel zu starten."),
        _r(START_CARD, "Start cards start piles", GAPS,
           "Piles are started with the start cards 7 (Stapel werden mit den Startkarten 7 begonnen). Whether a "
           "start card may also go onto a pile at 6 or 8 is left open: option start_card_on_pile, default no."),
        _r(PILE, "Up or down by one, whatever the suit; K and 1 wrap", DE,
           "On a pile, numbered cards go in ascending OR descending order by one, whatever the suit. K and 1 wrap: "
           "a K may go on a 1 and a 1 on a K. 7,6,5,6... and Q,K,1,2... are fine.",
           "...können andere Zahlenkarten in AUFSTEIGENDER oder ABSTEIGENDER Reihenfolge darauf gespielt werden, "
           "UNABHÄNGIG von der Farbe. ... Daher kann ein K auf eine 1 und eine 1 auf ein K gespielt werden."),
        _r(ONE_CARD, "One card at a time", DE,
           "One card at a time, with one (dominant) hand. Combinations let a player play 2 cards at once with one hand.",
           "Spieler dürfen nur eine Karte auf einmal spielen und müssen eine dominante Hand zum Spielen wählen. "
           "Kartenkombinationen erlauben es einem Spieler, 2 Karten gleichzeitig mit einer Hand zu spielen."),
        _r(WISDOM, "Wisdom is wild and clears direction traps", DE,
           "Wisdom cards are wild: a Wisdom goes on any numbered card and any numbered card goes on a Wisdom. Every "
           "Wisdom played resolves all players' active ascending-only/descending-only traps (not draw+3 traps). "
           "(Wisdom on Wisdom: option wisdom_on_wisdom, default yes.)",
           "Wisdom-Karten können auf jede Zahlenkarte gespielt werden, und jede Zahlenkarte kann auf sie gespielt "
           "werden. ... Jedes Mal, wenn eine Weisheitskarte gespielt wird, löst sie automatisch die aktiven Traps "
           "aller Spieler. Weisheitskarten lösen jedoch keine +3 Traps."),
        _r(WISDOM_KEEP, "Wisdom is never discarded", DE,
           "Wisdom cards may not be discarded.",
           "Weisheitskarten dürfen nicht abgeworfen werden."),
        _r(COMBO, "Combinations", DE,
           "Two cards 1-5 of the same suit may be added together to a pile when their sum equals the value of a "
           "playable card; they go down in either order, and play continues from the top card's number, not the "
           "sum. Two face cards of the same letter (J,J / Q,Q / K,K) may be played together as if one card, "
           "whatever their suits.",
           "Karten 1-5 derselben Farbe können zu einem Stapel hinzugefügt und gemeinsam gespielt werden, wenn ihre "
           "Summe dem Wert einer spielbaren Karte entspricht. ... jedoch wird immer mit der Zahl der obersten Karte "
           "und nicht mit der Summe weitergespielt. Zwei gleiche Bildkarten mit dem gleichen Buchstaben (J,Q,K) "
           "dürfen unabhängig von der Farbe gemeinsam gespielt werden, als ob sie eine einzige Karte wären."),
        _r(COMBO_DOOM, "No Doom Master card in a combination", DE,
           "Doom Master cards are played like other face cards but cannot be used in combinations.",
           "Sie werden wie andere Bildkarten gespielt, können jedoch nicht in Kombinationen verwendet werden."),
        _r(DEAD_END, "Dead End closes a pile", DE,
           "Dead End: played directly on a pile, closes it; no more cards go on it; remove it from the play area.",
           "Die Dead-End-Karte wird direkt auf einen Stapel gespielt, um diesen zu schließen. Auf einen "
           "geschlossenen Stapel dürfen keine weiteren Karten mehr gespielt werden."),
        _r(NOT_ON_PILE, "Traps and Escapes never go on a pile", DE,
           "Traps and Escapes are never played on the central piles.",
           "Traps und Escapes werden niemals auf Stapeln gespielt."),
        _r(BEATEN, "Beaten to the pile", DE,
           "A card played wrongly, or beaten to a pile by another player, goes back into the hand. (Plays on one "
           "pile are ordered by their reader timestamps; option beaten_window_s.)",
           "Ein Spieler muss eine Karte zurück in die Hand nehmen, wenn er sie falsch spielt oder wenn ein anderer "
           "Spieler ihn bei einem Zug übertrifft."),
        _r(TRAP, "Traps go on an opponent's action pile", DE,
           "A Trap is played onto an opponent's action pile to hinder their play.",
           "Eine Trap kann auf den Action-Stapel eines Gegners gespielt werden, um dessen Fähigkeit zu spielen zu "
           "behindern."),
        _r(TRAP_ONE, "One up/down trap at a time", DE,
           "Only one ascending/descending trap may be active in a player's action pile at a time; a draw+3 trap may "
           "always be played on another trap because it resolves at once.",
           "Es darf immer nur eine Trap gleichzeitig im Action-Stapel eines Spielers aktiv sein. Allerdings dürfen "
           "+3 Traps immer auf einen anderen Trap gespielt werden, da sie sofort ausgeführt werden."),
        _r(TRAP_UP, "Ascending-only trap", DE,
           "Ascending-only: the target may now play only ascending, and may not play on a K (both neighbours of a "
           "K are lower).",
           "Traps zwingen einen anderen Spieler, nun nur in aufsteigender Reihenfolge zu spielen. Hinweis: Ein "
           "Spieler, der von einer Trap betroffen ist, darf nicht auf ein K spielen."),
        _r(TRAP_DOWN, "Descending-only trap", DE,
           "Descending-only: the target may now play only descending, and may not play on a 1 (both neighbours of "
           "a 1 are higher).",
           "Traps zwingen einen anderen Spieler, nun nur in absteigender Reihenfolge zu spielen. Hinweis: ... darf "
           "nicht auf eine 1 spielen."),
        _r(TRAP_DRAW, "Draw +3 at once", DE,
           "Draw+3: the target draws 3 cards at once. All special cards take effect at once, until resolved.",
           "Traps zwingen einen anderen Spieler, 3 Karten zu ziehen. ... Alle Spezialkarten müssen beim Spielen "
           "laut angesagt werden und treten sofort in Kraft."),
        _r(ESCAPE, "Escapes", DE,
           "An Escape played on a trap resolves it with no ill effect; both cards go face down to that player's "
           "history pile. The discard Escape also lets its player discard one more card from hand; an untrapped "
           "player may still use it to discard a card; a Doom Master card may be discarded with it.",
           "Escapes dürfen auf jede Trap gespielt werden, um sie zu lösen. Escapes geben einem Spieler die "
           "Fähigkeit, eine Trap zu lösen UND eine zusätzliche Karte aus seiner Hand abzuwerfen. Wenn ein Spieler "
           "nicht gefangen ist, darf er trotzdem eine Escape-Karte verwenden, um eine Karte aus seiner Hand "
           "abzuwerfen."),
        _r(SPECIAL, "Special cards to the history pile at will", DE,
           "Any player may discard any number of special cards from hand straight into their history pile.",
           "Jeder Spieler darf beliebig viele Spezialkarten aus seiner Hand direkt in seinen History-Stapel "
           "abwerfen, wenn er sie nicht verwenden möchte."),
        _r(DISCARD, "Discarding other cards", DE,
           "Only special cards go to the history pile at will; any other card leaves a hand unplayed only through "
           "a discard Escape (or Story card 11, or the leader ability to discard the last card).",
           "Escapes geben einem Spieler die Fähigkeit, ... eine zusätzliche Karte aus seiner Hand abzuwerfen."),
        _r(DRAW, "Draw only when you cannot play", DE,
           "You may draw from the draw pile only if you have no playable numbered or Wisdom card. Drawing is never "
           "required. (Start cards count as playable: option start_card_blocks_draw.)",
           "Spieler dürfen nur vom Nachziehstapel ziehen, wenn sie keine spielbaren Zahlenkarten oder "
           "Wisdom-Karten haben. Das Ziehen ist nicht erforderlich."),
        _r(UNSEEN, "A drawn card comes from the draw pile", NOTATION,
           "Unknown information is simply absent: a draw from a face-down pile names the card the player tapped. A "
           "named card that cannot be there (not in that pile, already seen elsewhere) is an illegal move."),
        _r(CALL_DRAW, "Draw!", DE,
           "If nobody can play and nobody will draw, anyone may call \"Draw!\": every player draws one card, the "
           "caller last; everyone finishes drawing before play goes on. If someone calls it while another player "
           "can play, the call does not take effect. If too few cards remain for all, players draw clockwise "
           "starting left of the caller until the pile is empty.",
           "...kann jeder Spieler ‚Ziehen' ansagen, um alle Spieler zum Ziehen einer Karte zu zwingen. Der Spieler, "
           "der ‚Ziehen' angesagt hat, sollte als Letzter ziehen. Jeder Spieler muss das Ziehen beenden, bevor das "
           "Spiel fortgesetzt wird. ... müssen die Spieler links vom Spieler, der es angekündigt hat, als Erste "
           "ziehen, im Uhrzeigersinn. Sobald die Karten ausgehen, müssen die verbleibenden Spieler nicht mehr ziehen."),
        _r(OUT, "Escape Master!", DE,
           "You get out of a round by being the first to play all your cards; the first player out calls "
           "\"Escape Master!\".",
           "Steige erfolgreich aus einer Runde aus, indem du alle deine nummerierten Karten als Erster ausspielst! "
           "Der erste Spieler, der aussteigt, erklärt ‚Escape Master!'."),
        _r(STOPPED, "Everyone stops at once", DE,
           "The round ends when the first player gets out and calls \"Escape Master!\"; everyone stops at once. "
           "Several players may get out together with 0 faults if they play their last cards at the same moment. "
           "(Option out_window_s.)",
           "Dann müssen alle anderen Spieler sofort aufhören, Karten zu spielen, und die Runde ist vorbei. ... "
           "können mehrere Spieler aussteigen und 0 Fehlerpunkte sammeln, wenn sie alle gleichzeitig ihre letzte "
           "Karte spielen."),
        _r(ROUND_END, "How a round ends", DE,
           "The round ends when the first player gets out and calls \"Escape Master!\". Alternatively the round ends "
           "when the last draw-pile card has been drawn and every player has played their last playable card.",
           "Eine Runde kann alternativ enden, wenn die letzte Karte im Nachziehstapel gezogen wird und jeder "
           "Spieler seine letzte spielbare Karte gespielt hat."),
        _r(HANDS, "The count at round end", DESIGN,
           "A hand is what the log registered (dealt plus drawn, less what was played). The count at round end may "
           "add cards the readers missed from the draw pile, but may not lose a registered card."),
        _r(FAULTS, "Faults", DE,
           "Every card left in hand at round end is 1 fault, whatever its kind; special cards count even if they "
           "could have been discarded. A Doom Master card left in hand is 3 faults.",
           "Alle Karten, die ein Spieler am Ende einer Runde noch auf der Hand hat, zählen unabhängig von der "
           "Kartenart jeweils als ein Fehler. ... Wenn eine Doom Master-Karte am Ende einer Runde noch in der Hand "
           "eines Spielers ist, zählt sie als 3 Fehlerpunkte.", refuses=False),
        _r(BREAKING_POINT, "Breaking Point", DE,
           "The game ends when a player has 30 or more faults at the end of a round (\"Breaking Point\"); fewest "
           "faults wins.",
           "Das Spiel endet, wenn ein Spieler am Ende einer Runde 30 oder mehr Fehlerpunkte erreicht hat. Dies "
           "wird als ‚Breaking Point' bezeichnet. ... Der Spieler mit den wenigsten Fehlern am Ende des Spiels "
           "gewinnt!", refuses=False),
        _r(TIE, "Ties play an extra round", DE,
           "Players tied for the win play one extra round to decide.",
           "Am Ende eines Spiels spielen alle Spieler, die in ein Unentschieden verwickelt sind, eine zusätzliche "
           "Runde, um den Sieger zu bestimmen."),
        _r(STORY, "Story cards", DE,
           "At the end of each round the player with the most faults in hand that round draws a Story card; if "
           "several tie, the one with the highest total draws; if that ties too, nobody draws. The card is kept "
           "by the leader card as the advantage for the coming round.",
           "Der Spieler mit den meisten Fehlerpunkten in seiner Hand am Ende jeder Runde darf eine Story-Karte "
           "ziehen. Wenn mehrere Spieler die meisten Fehlerpunkte in der Hand haben, darf der Spieler mit der "
           "höchsten Gesamtpunktzahl ziehen. Wenn auch die Gesamtpunktzahl gleich ist, zieht kein Spieler."),
        _r(XP, "Experience", DE,
           "A used Story card goes under the leader card as experience (XP; cards 1 and 8 give 2 XP, the rest 1). "
           "Never more than 4 XP stored.",
           "Nachdem eine Story-Karte verwendet wurde, wird sie unter der Escape Leader-Karte eines Spielers "
           "abgelegt, um als Erfahrungspunkte gesammelt zu werden. ... Ein Spieler kann niemals mehr als 4 "
           "Erfahrungspunkte gleichzeitig speichern.", refuses=False),
        _r(BEAST, "Beast Mode", DE,
           "With 2 XP a player may unlock the leader's Beast Mode in a later round by returning 2 XP to the bottom "
           "of the STORY deck; Beast Mode lasts one round.",
           "Sobald ein Spieler 2 Erfahrungspunkte gesammelt hat, kann er in einer zukünftigen Runde den Beast Mode "
           "seines Escape Leaders freischalten. ... muss er 2 Erfahrungspunkte zurück an den Boden des STORY-Decks "
           "legen. Der Beast Mode dauert nur eine Runde."),
        _r(LEADER, "Escape Leader abilities", DE,
           "Each player draws one Escape Leader card at the start of the game; abilities are public and last the "
           "whole game unless lost or swapped through a Story card. (Which tribe has which ability: leaders.json.)",
           "Alle Escape Leader-Fähigkeiten sind für andere Spieler sichtbar und gelten für die Dauer des Spiels, es "
           "sei denn, sie gehen durch eine Story-Karte verloren oder werden getauscht."),
        _r(LUMBERJACK, "The Lumberjack's fault", DE,
           "The Lumberjack leader may give another player +1 fault at the start of a round, even to push them to "
           "the Breaking Point (the game still ends only when the round is over).",
           "Der Spieler mit der Lumberjack Escape Leader-Fähigkeit kann zu Beginn einer Runde einem anderen "
           "Spieler einen zusätzlichen Fehlerpunkt geben, um ihn den Breaking Point erreichen zu lassen, aber das "
           "Spiel ist erst zu Ende, wenn die Runde abgeschlossen ist."),
        _r(FIXED_ROUNDS, "Variant: fixed rounds", DE,
           "Play a set number of rounds (e.g. 12) instead of to the Breaking Point.",
           "Festgelegte Runden: Statt eines Breaking Points können die Spieler eine festgelegte Anzahl von Runden "
           "wählen, z. B. 12.", refuses=False),
        _r(EARLY_END, "Variant: early end", DE,
           "Each time a player fails to play a Doom Master card, it goes to a Doom pile; when the Doom pile holds "
           "all 3, the game ends early.",
           "Entfernen Sie eine Doom Master-Karte aus dem GAME-Deck, jedes Mal, wenn ein Spieler es nicht schafft, "
           "eine zu spielen. Legen Sie sie in einen separaten Doom-Stapel. Wenn der Doom-Stapel alle 3 Doom "
           "Master-Karten gesammelt hat, wird das Spiel vorzeitig beendet!"),
        _r(ALLIANCE, "Variant: Escape Alliance", DE,
           "Teams of two: team score is the sum of both members' faults; when a team reaches the Breaking Point the "
           "lowest team score wins. Teammates may play any Escape on each other's traps (a discard Escape lets only "
           "its player discard). Story draws go by team score. A round ends only when both members of one team "
           "are out; the second calls \"Escape Alliance!\".",
           "Teamkollegen addieren nach jeder Runde ihre gemeinsamen Fehlerpunkte ... Spieler dürfen jede Art von "
           "Escape-Karte auf die Traps ihres Teamkollegen spielen ... eine Runde endet erst, wenn beide Mitglieder "
           "eines Teams ausgegangen sind."),
    ]
)
