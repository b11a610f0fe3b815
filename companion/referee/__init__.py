"""The one authority: the session that turns observations into judged, logged, applied moves."""
