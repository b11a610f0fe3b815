"""The venue service (issue 16): every table's public game, as the tables published it."""
