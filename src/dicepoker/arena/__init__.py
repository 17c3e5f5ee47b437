"""What plays games between bots: seeded simulation and heads-up duels (later ladders).

It sits above :mod:`dicepoker.bots` (it runs them) while :mod:`dicepoker.analysis` stays below the bots
as exact mathematics. Modules are imported on demand (``from dicepoker.arena.simulate import simulate``).
"""
