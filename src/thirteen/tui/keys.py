"""The game's keys, as data, and the words that teach them (the prompt and the help's keys).

- Baker's Dozen family: a column by its letter ``a``..``m`` (or number ``1``..``9``, ``0`` for
  the tenth), then the target column's key; the same key twice (or ``.``) sends the card to its
  foundation.
- Calculation family: ``s`` the turned stock card, ``a``..``d`` a waste pile, ``1``..``8`` a
  foundation; a foundation key with nothing selected plays the turned card there.
- Arrows move the cursor, Enter (or a mouse click) selects a source and then a target.
- ``u`` undo, ``r`` redo, ``x`` restart, ``?`` hint, ``p`` solve it for me (the solver's
  winning line played to the end), ``o`` safe moves to the foundations, ``n`` new deal,
  ``#`` deal by number, ``t`` statistics, F1 help, ``q`` quit, Esc cancels a selection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.binding import Binding, BindingType

from ..variants import Variant
from .places import LETTERS

# (key, the app's action, footer label, key shown). The board binds them all; the end screen
# offers END_ACTIONS of them under the same keys.
GAME_KEYS: tuple[tuple[str, str, str, str | None], ...] = (
    ("u", "undo", "Undo", None),
    ("r", "redo", "Redo", None),
    ("x", "restart", "Reset", None),
    ("question_mark", "hint", "Hint", "?"),
    ("p", "solve", "Solve", None),
    ("o", "auto", "Auto", None),
    ("n", "new_deal", "New", None),
    ("number_sign", "deal_number", "Deal", "#"),
    ("t", "stats", "Stats", None),
    ("f1", "help", "Help", None),
    ("q", "quit", "Quit", None),
)
END_ACTIONS = ("new_deal", "undo", "restart", "quit")


def game_keys(actions: Sequence[str] | None = None) -> list[tuple[str, str, str, str | None]]:
    """The rows of GAME_KEYS for ``actions``, in that order (all of them by default)."""
    if actions is None:
        return list(GAME_KEYS)
    return [row for action in actions for row in GAME_KEYS if row[1] == action]


def key_bindings(bind: Callable[[str], str],
                 actions: Sequence[str] | None = None) -> list[BindingType]:
    """Bindings for `game_keys`, each key bound to ``bind(its action)``."""
    return [Binding(key, bind(action), label, key_display=shown)
            for key, action, label, shown in game_keys(actions)]


def key_words(actions: Sequence[str]) -> str:
    """``n new   u undo``: the keys of ``actions`` as the end screen lists them."""
    return "   ".join(f"{shown or key} {label.lower()}"
                      for key, _, label, shown in game_keys(actions))


# The board's keys besides the pile keys (which the board reads from each key press).
BOARD_BINDINGS: list[BindingType] = [
    *key_bindings(lambda action: f"app.{action}"),
    Binding("escape", "app.cancel", "Cancel", show=False),
    Binding("left", "app.cursor(-1, 0)", show=False),
    Binding("right", "app.cursor(1, 0)", show=False),
    Binding("up", "app.cursor(0, -1)", show=False),
    Binding("down", "app.cursor(0, 1)", show=False),
    Binding("enter,space", "app.pick", show=False),
    Binding("full_stop", "app.home", show=False),
    Binding("ctrl+z", "app.undo", show=False),
    Binding("ctrl+y", "app.redo", show=False),
]


def prompt(variant: Variant) -> str:
    """The message line when there is nothing else to say: how to move a card."""
    if variant.family == "calculation":
        last = LETTERS[variant.waste_piles - 1]
        return (f"s stock, a-{last} waste, 1-{len(variant.bases)} foundation: "
                "source then target. F1 help.")
    last = LETTERS[variant.columns - 1]
    digits = "1-9, 0" if variant.columns >= 10 else f"1-{variant.columns}"
    return (f"Column a-{last} (or {digits}) then a target; same key twice sends it home. "
            "F1 help.")


def help_keys(variant: Variant) -> str:
    """The keys part of the help screen (rich markup)."""
    return (
        "\n[b]Keys[/b]\n\n" + prompt(variant) + "\n"
        "Arrows move the cursor; Enter or a mouse click picks a source, then a target.\n"
        "Click a card inside a sequence to move from that card up.\n"
        "u undo   r redo   x restart   ? hint   p solve it for me\n"
        "o safe moves to the foundations\n"
        "n new deal   # deal by number   t statistics   F1 help   Esc cancel\n"
        "q quit (the game is saved)\n"
    )
