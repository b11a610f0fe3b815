"""Table Companion: a referee for real game tables (session, games, table model, log, CLI)."""

__version__ = "0.1.0"
