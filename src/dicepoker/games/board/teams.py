"""BD-2: the board games' team colours, declared once: the rules name the winning team by its colour, the game's
facts (``GameInfo.teams``) carry them to the browser and the terminal, so that team 0 is Blue everywhere."""

from dicepoker.core.info import TeamColour

TEAMS = (
    TeamColour(name="Blue", css="#2f6fdf", terminal="bold white on blue"),
    TeamColour(name="Orange", css="#e0552b", terminal="bold white on dark_orange3"),
    TeamColour(name="Green", css="#1c9a6c", terminal="bold black on green"),
)
"""Team 0, 1 and 2 (a board game has at most three teams, BD-2)."""


def team_name(team: int) -> str:
    """What people call team ``team`` (0-based, as the rules count): its colour."""
    return TEAMS[team].name if 0 <= team < len(TEAMS) else f"team {team + 1}"
