"""What a game is: the base class an engine fills in and the declaration (spec) the registry reads."""
