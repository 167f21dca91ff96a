"""thirteen: the Baker's Dozen family and Imaginary Thirteen, as data-driven rules, a solver,
and browser and terminal play."""

from .cards import Card
from .deal import Layout
from .game import Game, State, new_state
from .moves import IllegalMove, Move, MoveError
from .variants import GAMES, Variant, get_variant

__all__ = [
    "GAMES", "Card", "Game", "IllegalMove", "Layout", "Move", "MoveError", "State", "Variant",
    "get_variant", "new_state",
]
__version__ = "0.1.0"
