"""The record of a game: the hash-chained SQLite log, the notation, replay, export and the fold of rows into state."""
