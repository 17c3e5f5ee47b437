"""Hand histories of the betting games: a text format in the spirit of PokerKit's PHH (TOML, one line per action).

The header names the variant (the game), its config and the seed; ``actions`` lists every action in
order, dice included: ``d draw 6r`` is a chance event (the dealer drawing and rolling a Dice Hold'em
die, ``d rolled 9 K A`` poker dice landing in PeekPoker), ``p1 raise 30`` is seat 1 raising to 30.
Comments (``#``) annotate each hand: where it starts, who showed what, the PeekPoker ace re-rolls, who
won which pot. Readers ignore them, so the actions alone replay the game (CM-2). :func:`read_history`
and :func:`write_history` round-trip an :class:`~dicepoker.core.log.EventLog`.

One writer and one reader (:mod:`.format`) serve every game; each game adds only a small
:class:`~.format.Variant` (its title line and its comments): :mod:`.holdem`, :mod:`.peekpoker`.

>>> from dicepoker.core import Match
>>> from dicepoker.games.holdem import HoldemGame
>>> match = Match(HoldemGame(players=2, stack=30), seed=3)
>>> while not match.state.is_terminal:
...     match.act(match.state.legal_actions()[-1])
>>> text = write_history(match.log)
>>> text.splitlines()[1]
'variant = "holdem"'
>>> read_history(text) == match.log
True
"""

from dicepoker.games.history.format import Variant, is_history, read_history, variant_names, write_history

__all__ = ["Variant", "is_history", "read_history", "variant_names", "write_history"]
