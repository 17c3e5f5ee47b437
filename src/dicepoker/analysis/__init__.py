"""Exact mathematics over the rules: odds, equity and strategy solving (below the bots: bots may use it).

Modules are imported on demand (``from dicepoker.analysis.scorecard_solver import ...``) so that importing
this package never builds a strategy table. What plays bots against each other lives in :mod:`dicepoker.arena`.
"""
