"""PeekPoker Hold'em: Crazy Aces — every clause PK-1 … PK-15, by scripted hands with chosen dice."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from dicepoker.core import CHANCE, ConfigError, IllegalAction, Match, Resign, Timeout
from dicepoker.dice.poker import parse_dice
from dicepoker.games.peekpoker import PeekPokerGame, PeekPokerState, Phase, RerollAces, Stand

PARSER = PeekPokerGame()


def run(state: PeekPokerState, *moves: str) -> PeekPokerState:
    """Apply moves written ``"action"`` (the one seat to act, or the dice) or ``"seat: action"``."""
    for move in moves:
        seat, _, text = move.rpartition(":")
        state = state.apply(PARSER.parse_action(text.strip()), int(seat) if seat else None)
    return state


def heads_up(seat1: str = "9 9 T", seat0: str = "J Q K", **options: object) -> PeekPokerState:
    """Seat 0 deals (high roll 6-1); seat 1, on the dealer's left, rolls and acts first."""
    game = PeekPokerGame(players=2, **options)
    return run(game.initial_state(), "high-roll 6 1", f"rolled {seat1}", f"rolled {seat0}")


def showdown(seat1: str, seat0: str, board: str, **options: object) -> PeekPokerState:
    return run(heads_up(seat1, seat0, **options), "check", "check", f"rolled {board}", "check", "check")


def test_PK_1_players_and_stacks() -> None:
    """PK-1: 2-4 players, the same starting stack (48 by default), 3 hidden dice each + 3 community."""
    for players in (2, 3, 4):
        state = PeekPokerGame(players=players).initial_state()
        assert state.stacks == (48,) * players
    assert PeekPokerGame(players=3, stack=100).initial_state().stacks == (100, 100, 100)
    for bad in ({"players": 1}, {"players": 5}, {"stack": 1}, {"players": "2"}, {"blinds": "yes"}):
        with pytest.raises(ConfigError):
            PeekPokerGame(**bad)
    game = PeekPokerGame(players=4)
    state = run(game.initial_state(), "high-roll 6 1 1 1", *["rolled 9 9 9"] * 4, *["check"] * 4, "rolled A A A")
    assert sum(len(h) for h in state.hidden) + len(state.community) == 15


def test_PK_2_highest_roller_deals_and_the_deal_passes_left() -> None:
    """PK-2 / CM-3: ties for highest roll again among themselves; each hand the deal moves left."""
    game = PeekPokerGame(players=3)
    state = run(game.initial_state(), "high-roll 5 5 2")
    assert state.phase is Phase.HIGH_ROLL and state.rolloff is not None and state.rolloff.contenders == (0, 1)
    state = run(state, "high-roll 2 4")
    assert state.dealer == 1 and state.betting is not None and state.betting.order == (2, 0, 1)
    # Everyone folds to the dealer's left: the next hand is dealt by seat 2.
    state = run(state, "rolled 9 9 9", "rolled T T T", "rolled J J J", "bet 5", "fold", "fold")
    assert state.dealer == 2 and state.hand == 2 and state.hand_number == 2  # the old name stays


def test_PK_3_ante_from_the_dealers_left() -> None:
    """PK-3: each player antes 1 before the dice are rolled."""
    state = run(PeekPokerGame(players=3).initial_state(), "high-roll 1 6 1")
    assert state.phase is Phase.DEAL and state.view(None).pot == 3
    assert state.chips() == (47, 47, 47)


def test_PK_4_hidden_dice_are_seen_only_by_their_owner() -> None:
    """PK-4: each player rolls three hidden dice and sees only their own."""
    state = heads_up("9 9 T", "J Q K")
    assert state.view(1).dice == (None, parse_dice("9 9 T"))
    assert state.view(0).dice == (parse_dice("J Q K"), None)
    assert state.view(None).dice == (None, None)
    assert state.hidden_from_others(0) == {"dice": "J Q K"}


def test_PK_5_first_round_no_limit_betting() -> None:
    """PK-5: left of the dealer first; any bet from 1 to the stack; a raise at least the last bet or raise,
    unless all-in."""
    state = heads_up()
    assert state.to_act == (1,)
    legal = [str(a) for a in state.legal_actions()]
    assert legal[:3] == ["check", "bet 1", "bet 2"] and legal[-1] == "bet 47"
    state = run(state, "bet 10")
    assert [str(a) for a in state.legal_actions()][:3] == ["fold", "call", "raise 20"]
    with pytest.raises(IllegalAction, match="below the minimum"):
        run(state, "raise 15")
    state = run(state, "raise 47")  # all-in
    assert [str(a) for a in state.legal_actions()] == ["fold", "call"]


def three_handed(stacks: tuple[int, int, int]) -> PeekPokerState:
    """Seat 2 deals (high roll 1 1 6); seat 0 acts first; antes of 1 are posted."""
    start = replace(PeekPokerGame(players=3).initial_state(), stacks=stacks)
    return run(start, "high-roll 1 1 6", *["rolled 9 9 T"] * 3)


def test_PK_5_minimum_raise_is_the_size_of_the_previous_bet_or_raise() -> None:
    """PK-5 [decision]: a raise is at least the previous bet or raise of the round."""
    state = run(three_handed((48, 48, 48)), "bet 5")
    assert str(state.legal_actions()[2]) == "raise 10"
    state = run(state, "raise 15")  # a raise of 10
    assert str(state.legal_actions()[2]) == "raise 25"
    with pytest.raises(IllegalAction, match="24 < 25"):
        run(state, "raise 24")


def test_PK_5_short_all_in_raise_does_not_reopen_the_betting_for_those_who_acted() -> None:
    """PK-5 [decision]: a short all-in raise lets players who have not acted raise, but not those who have."""
    state = run(three_handed((48, 15, 48)), "bet 10", "raise 14")  # seat 1 all-in: a raise of 4 < 10
    assert state.to_act == (2,)
    assert [str(a) for a in state.legal_actions()][:3] == ["fold", "call", "raise 24"]  # not yet acted
    state = run(state, "call")
    assert state.to_act == (0,)
    assert [str(a) for a in state.legal_actions()] == ["fold", "call"]  # acted before the short raise
    with pytest.raises(IllegalAction, match="short all-in"):
        run(state, "raise 30")


def test_PK_5_a_full_all_in_raise_reopens_the_betting() -> None:
    state = run(three_handed((48, 25, 48)), "bet 10", "raise 24", "call")  # seat 1 all-in: a raise of 14
    assert state.to_act == (0,) and "raise 38" in {str(a) for a in state.legal_actions()}


def test_PK_6_community_dice_only_when_several_remain() -> None:
    """PK-6: after the first round, if more than one player remains, the dealer rolls three community dice."""
    state = run(heads_up(), "check", "check")
    assert state.phase is Phase.COMMUNITY and state.to_act is CHANCE
    assert [n for _, n in state.rolling] == [3] and state.rolling[0][0] == state.dealer
    folded = run(heads_up(), "bet 3", "fold")
    assert folded.community == () and folded.previous is not None and folded.previous.community == ()


def test_PK_7_second_betting_round() -> None:
    """PK-7: a second round as PK-5, again from the dealer's left, with the community dice shown to all."""
    state = run(heads_up(), "check", "check", "rolled 9 J Q")
    assert state.phase is Phase.BET and state.to_act == (1,) and state.view(None).community == parse_dice("9 J Q")
    state = run(state, "bet 5", "raise 10", "call")
    assert state.phase is not Phase.BET  # the hand goes to the showdown


def test_PK_8_simultaneous_ace_decisions() -> None:
    """PK-8: hidden dice revealed; players with aces decide together, unseen by the others; re-rollers roll
    together; whoever rolls an ace again decides again; community dice are never re-rolled."""
    state = showdown("A A 9", "A T T", "J Q K")
    assert state.phase is Phase.ACES and state.to_act == (1, 0)
    assert state.view(0).dice == (parse_dice("T T A"), parse_dice("9 A A"))  # revealed to all
    assert [str(a) for a in state.legal_actions(1)] == ["stand", "reroll A", "reroll A A"]
    with pytest.raises(IllegalAction):
        state.apply(RerollAces(2), 0)  # seat 0 holds one ace
    state = run(state, "1: reroll A A")
    assert state.to_act == (0,)
    assert state.view(0) == replace(state, choices=(None, 1)).view(0)  # seat 1's choice stays secret
    with pytest.raises(IllegalAction):
        run(state, "1: stand")  # one decision per round
    state = run(state, "0: reroll A")
    assert state.phase is Phase.REROLL and state.view(None).rerolling == ((1, 2), (0, 1))
    state = run(state, "rolled 9 A", "rolled K")  # seat 1 rolls an ace again, seat 0 does not
    assert state.hidden[1] == parse_dice("9 9 A") and state.hidden[0] == parse_dice("T T K")
    assert state.phase is Phase.ACES and state.to_act == (1,)
    assert state.community == parse_dice("J Q K")
    state = run(state, "1: stand")
    # Seat 0: T T K J Q K = two pairs, kings and tens; seat 1: 9 9 A J Q K = pair of nines. Pot: the antes.
    assert state.previous is not None and state.previous.won == (2, 0)


def test_PK_8_standing_keeps_the_hand_and_no_aces_no_decision() -> None:
    """PK-8: a player who stands keeps the hand; a player without aces has nothing to decide."""
    state = showdown("A K 9", "Q Q Q", "T J Q")
    assert state.to_act == (1,)
    state = run(state, "stand")
    # Seat 1: 9 T J Q K A, a large straight, beats three queens.
    assert state.previous is not None and state.previous.won == (0, 2)


def test_PK_8_only_rerolled_aces_give_another_decision() -> None:
    """PK-8 [decision]: a re-roller whose re-rolled dice show no ace keeps the hand, even holding a kept ace;
    one whose re-rolled dice show an ace decides again about any of their aces; a player who stood
    never decides again."""
    state = showdown("A A 9", "A A T", "J Q K")
    state = run(state, "1: reroll A", "0: stand", "rolled K")  # seat 1 keeps an ace, rolls a king
    assert state.phase is Phase.DEAL and state.previous is not None
    assert state.previous.shown == (parse_dice("T A A"), parse_dice("9 K A"))
    state = showdown("A A 9", "A A T", "J Q K")
    state = run(state, "1: reroll A", "0: stand", "rolled A")  # the re-rolled die shows an ace
    assert state.phase is Phase.ACES and state.to_act == (1,)
    assert [str(a) for a in state.legal_actions(1)] == ["stand", "reroll A", "reroll A A"]


def test_PK_9_showdown_ranking() -> None:
    """PK-9: the six dice make the hand; a red flush beats a large straight, five of a kind beats a flush."""
    state = showdown("9 9 K", "9 T J", "9 K K")
    assert state.previous is not None and state.previous.won == (0, 2)  # red flush vs two pairs
    state = showdown("9 9 9", "K K K", "9 9 K")
    assert state.previous is not None and state.previous.won == (0, 2)  # five nines vs a red flush


def test_PK_10_ties_by_kickers_and_splits() -> None:
    """PK-10: kickers decide within a category; still equal splits the pot."""
    state = showdown("9 T Q", "9 T J", "K K K")
    assert state.previous is not None and state.previous.won == (0, 2)  # three kings, Q T beats J T
    state = showdown("9 9 T", "9 9 T", "Q K K")
    assert state.previous is not None and state.previous.won == (1, 1)


def test_PK_11_everyone_folds() -> None:
    """PK-11: the last player in takes the pot without a showdown; folded dice stay hidden."""
    state = run(heads_up(), "bet 5", "fold")
    # The uncalled bet goes back; the antes are the pot.
    assert state.previous is not None and state.previous.won == (0, 2)
    assert state.previous.shown == (None, None)
    assert state.stacks == (47, 49)


def test_PK_12_side_pots_and_odd_chips() -> None:
    """PK-12 / HE-13: a short all-in wins only the main pot; odd chips go first to the dealer's left."""
    game = PeekPokerGame(players=3)
    start = replace(game.initial_state(), stacks=(6, 48, 48))
    state = run(start, "high-roll 1 1 6", "rolled A A A", "rolled 9 9 T", "rolled 9 9 T")
    state = run(state, "bet 5", "raise 20", "call", "rolled A A K", "check", "check", "0: stand")
    # Seat 0 (all-in, five aces) wins the main pot 6 x 3 = 18; seats 1 and 2 split the side pot of 30.
    assert state.previous is not None and state.previous.won == (18, 15, 15)
    # Odd chips: three antes, seat 2 folds, seats 0 and 1 tie: 2 to seat 0 (dealer's left), 1 to seat 1.
    state = run(game.initial_state(), "high-roll 1 1 6", "rolled 9 9 T", "rolled 9 9 T", "rolled A A A")
    state = run(state, "check", "check", "bet 1", "fold", "fold")
    assert state.previous is not None and state.previous.won == (0, 0, 3)
    state = run(game.initial_state(), "high-roll 1 1 6", "rolled 9 9 T", "rolled 9 9 T", "rolled 9 9 9")
    state = run(state, "check", "check", "check", "rolled J Q K", "check", "check", "check")
    assert state.previous is not None and state.previous.won == (0, 0, 3)
    tie = run(game.initial_state(), "high-roll 1 1 6", "rolled 9 9 T", "rolled 9 9 T", "rolled 9 T J")
    tie = run(tie, "bet 1", "call", "fold", "rolled J Q K", "check", "check")
    assert tie.previous is not None and tie.previous.won == (3, 2, 0)


def test_PK_13_the_last_player_with_chips_wins() -> None:
    """PK-13: a player with no chips is out; the last player with chips wins the game."""
    game = PeekPokerGame(players=2)
    start = replace(game.initial_state(), stacks=(1, 95))
    state = run(start, "high-roll 6 1", "rolled J J J", "rolled 9 9 T", "rolled 9 Q K")  # no betting: all-in
    assert state.is_terminal
    result = state.result()
    assert result.winners == frozenset({1}) and result.scores == (0, 96)


def test_PK_14_blinds_instead_of_antes() -> None:
    """PK-14 option: blinds 1/2 (heads-up the dealer posts the small blind and acts first)."""
    state = heads_up(blinds=True)
    assert state.view(None).bets == (1, 2) and state.to_act == (0,)
    # [decision] The big blind is the round's opening bet: a raise is to at least 4.
    assert [str(a) for a in state.legal_actions()][:4] == ["fold", "call", "raise 4", "raise 5"]
    with pytest.raises(IllegalAction, match="3 < 4"):
        run(state, "raise 3")


def test_PK_14_blinds_with_three_players_raise_to_at_least_4() -> None:
    """PK-14: left of the dealer posts 1, the next 2; the first to act (left of the big blind) raises to 4+."""
    state = run(PeekPokerGame(players=3, blinds=True).initial_state(), "high-roll 1 1 6", *["rolled 9 9 9"] * 3)
    assert state.dealer == 2 and state.view(None).bets == (1, 2, 0) and state.to_act == (2,)
    assert [str(a) for a in state.legal_actions()][:3] == ["fold", "call", "raise 4"]


def test_PK_14_forced_bet_each_round() -> None:
    """PK-14 option: the round's opener posts a forced bet of 1 or folds; the others call, raise or fold."""
    state = heads_up(forced_bet=True)
    assert [str(a) for a in state.legal_actions()] == ["fold", "bet 1"] and state.view(1).forced_bet_due
    with pytest.raises(IllegalAction, match="forced bet"):
        run(state, "check")
    state = run(state, "bet 1", "call", "rolled 9 J Q")
    assert [str(a) for a in state.legal_actions()] == ["fold", "bet 1"]
    three = run(PeekPokerGame(players=3, forced_bet=True).initial_state(), "high-roll 1 1 6", *["rolled 9 9 9"] * 3)
    three = run(three, "fold")  # the duty passes to the next player
    assert three.to_act == (1,) and [str(a) for a in three.legal_actions()] == ["fold", "bet 1"]


def test_PK_14_community_two_then_one_with_an_extra_round() -> None:
    """PK-14 option: two community dice, a betting round, the third die, another round."""
    state = run(heads_up(split_community=True), "check", "check")
    assert [n for _, n in state.rolling] == [2]
    state = run(state, "rolled 9 J", "check", "check")
    assert [n for _, n in state.rolling] == [1]
    state = run(state, "rolled Q", "check")
    assert state.phase is Phase.BET and state.community == parse_dice("9 J Q")


def test_PK_14_aces_may_not_be_rerolled() -> None:
    """PK-14 option: no ace decisions; the hands are compared as dealt."""
    state = showdown("A A 9", "A T T", "J Q K", ace_rerolls=False)
    assert state.phase is Phase.DEAL and state.previous is not None and state.previous.won == (2, 0)


def test_PK_15_timeouts() -> None:
    """PK-15: on timeout check if possible, else fold; at an ace decision, stand."""
    state = run(heads_up(), "timeout")
    assert state.to_act == (0,) and state.view(None).pot == 2  # checked
    state = run(state, "bet 4", "timeout")
    assert state.previous is not None and state.previous.won == (2, 0)  # folded
    aces = showdown("A A 9", "A T T", "J Q K")
    aces = aces.apply(Timeout(), 1).apply(Stand(), 0)
    assert aces.previous is not None and aces.previous.shown[1] == parse_dice("9 A A")  # stood


def test_CM_5_resign_folds_and_leaves() -> None:
    """CM-5: a resigning player folds (even off turn) and leaves; heads-up the other wins."""
    state = run(heads_up(), "bet 10")
    state = state.apply(Resign(), 1)
    assert state.is_terminal and state.result().winners == frozenset({0})
    three = run(PeekPokerGame(players=3).initial_state(), "high-roll 1 1 6", *["rolled 9 9 9"] * 3)
    three = three.apply(Resign(), 2)  # the dealer resigns while seat 0 is to act
    assert three.to_act == (0,) and not three.view(None).in_hand[2]
    with pytest.raises(IllegalAction, match="already resigned"):
        three.apply(Resign(), 2)


def test_CM_5_resignation_leaving_one_player_ends_the_game_at_once() -> None:
    """CM-5: a resignation while hidden dice are rolled, or at the ace decisions, ends a heads-up game."""
    dealing = run(PeekPokerGame(players=2).initial_state(), "high-roll 6 1", "rolled 9 9 T")
    assert dealing.is_chance
    for state in (dealing, showdown("A A 9", "A T T", "J Q K")):
        over = state.apply(Resign(), 0)
        assert over.is_terminal and over.result().winners == frozenset({1})


def test_CM_4_wrong_phase_and_seat() -> None:
    """CM-4: illegal actions are rejected with a reason."""
    state = heads_up()
    with pytest.raises(IllegalAction):
        state.apply(Stand(), 1)
    with pytest.raises(IllegalAction):
        state.apply(PARSER.parse_action("check"), 0)


def test_seeded_random_games_conserve_chips() -> None:
    """A sweep of random games: chips are conserved at every step and every game ends."""
    for seed in range(20):
        game = PeekPokerGame(players=2 + seed % 3, forced_bet=seed % 2 == 0)
        match, rng = Match(game, seed=seed), Random(seed)
        while not match.state.is_terminal:
            to_act = match.state.to_act
            assert to_act is not CHANCE
            seat = to_act[rng.randrange(len(to_act))]
            legal = match.state.legal_actions(seat)
            match.act(legal[rng.randrange(len(legal))], seat)
            view = match.state.view(None)
            assert sum(view.chips) + view.pot == 48 * game.num_players
