"""dicepoker: play, study and build on the family of dice poker games.

The rules live in :mod:`dicepoker.core` (the game-agnostic protocol) and :mod:`dicepoker.games`
(one module per game); everything else (bots, analysis, clients) is an adapter around them.
"""

__version__ = "0.1.0"
