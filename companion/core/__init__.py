"""The lowest layer: the nouns every part of the companion shares (observations, moves, verdicts,
outcomes, zones), the error tree, the move codec and the declarations a tap page is built from.
It imports nothing else of the project."""

from companion.core.nouns import *  # noqa: F401,F403 (the nouns are the package's face)
from companion.core.nouns import __all__  # noqa: F401
