"""Analysis over the rules: exact odds, strategy solving and bot-vs-bot simulation.

Modules are imported on demand (``from dicepoker.analysis.simulate import simulate``) so that importing
this package never builds a strategy table.
"""
