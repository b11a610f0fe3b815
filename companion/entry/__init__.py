"""Entry by tapping: what each move field's values are drawn from, and a builder that offers them.

The page offers, the engine decides. :mod:`companion.core.picks` is the vocabulary a move class
uses to declare each field's domain (a card in the actor's hand, a pile, a player, ...);
:mod:`companion.entry.builder` turns a game's declarations, its candidate moves and the state into
the choices a page shows for the next tap, as the values of :mod:`companion.entry.offer`. Nothing here judges a move: every finished move goes
down the session's one path like any other, and a player may still enter an illegal one.
"""
