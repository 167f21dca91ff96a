"""The terminal front end (``thirteen play``): a full-screen Textual app for every game of the
registry. `app` holds the game and answers keys and clicks, `assist` asks the solver for it,
`board` draws the table, `drawing` the cards and piles, `dialogs` the boxes over the board,
`keys` the key table and the words that teach it, `places` the piles and the notation's places
they stand for, `words` the names of piles, cards and moves.
"""

from .app import ThirteenApp, run_app
from .board import BoardScreen
from .dialogs import ConfirmScreen, DealScreen, EndScreen, HelpScreen, StatsScreen
from .drawing import PileView
from .places import LETTERS
from .words import glyph

__all__ = ["LETTERS", "BoardScreen", "ConfirmScreen", "DealScreen", "EndScreen", "HelpScreen",
           "PileView", "StatsScreen", "ThirteenApp", "glyph", "run_app"]
