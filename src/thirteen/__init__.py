"""thirteen: the Baker's Dozen family and Imaginary Thirteen, as data-driven rules, a solver,
and browser and terminal play.

The names a program needs are here: a `Game` to play (``push``, ``pop``, ``legal_moves``,
``status``), `solve` and `hint` to analyse, `GAMES` and `get_variant` for the rules.
"""

from .cards import Card
from .deal import Layout
from .game import Game, State, new_state
from .moves import IllegalMove, Move, MoveError, Moves, Status
from .solver import Budget, Hint, Result, hint, solve
from .variants import GAMES, Variant, get_variant

__all__ = [
    "GAMES", "Budget", "Card", "Game", "Hint", "IllegalMove", "Layout", "Move", "MoveError",
    "Moves", "Result", "State", "Status", "Variant", "get_variant", "hint", "new_state", "solve",
]
__version__ = "0.1.0"
