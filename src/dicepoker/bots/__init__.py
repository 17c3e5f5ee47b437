"""Computer opponents. Each decides from a view and the legal actions only."""

from dicepoker.bots.base import Bot, RandomBot
from dicepoker.bots.registry import bot_names, create_bot

__all__ = ["Bot", "RandomBot", "bot_names", "create_bot"]
