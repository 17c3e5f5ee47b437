"""Terminal clients: one module per game (``scorecard``), sharing the pieces in :mod:`.common`.

They drive a :class:`dicepoker.core.Match`, so the dice come from its seeded RNG and every game can be
saved as an event log and replayed with ``dicepoker replay``.
"""
