"""`Game`: a start state plus its history, the one object every front end plays through.

Undo and redo walk a list of moves; states are recomputed from the immutable history, so a
saved game is just (game, options, deal, moves) and always replays to the same position.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .calculation import CalcState
from .cards import Card
from .deal import Layout, deal, format_board, parse_board
from .moves import IllegalMove, Move, MoveError, Moves, Status
from .packer import PackerState
from .variants import RENAMED, Variant, get_variant

State = PackerState | CalcState

#: Format 2: game names mean today's games (format 1 named Spanish Patience II
#: ``spanish-patience``; `variants.RENAMED`).
SAVE_VERSION = 2


def start_state(variant: Variant, layout: Layout) -> State:
    if variant.family == "packer":
        return PackerState.start(variant, layout)
    return CalcState.start(variant, layout)


def new_state(game: str | Variant, number: int) -> State:
    """Deal ``number`` of ``game`` as PySolFC deals it."""
    variant = get_variant(game) if isinstance(game, str) else game
    return start_state(variant, deal(variant, number))


def as_move(move: Move | str) -> Move:
    return Move.parse(move) if isinstance(move, str) else move


@dataclass
class Game:
    start: State
    number: int | None = None  # None for a typed-in or loaded board
    moves: list[Move] = field(default_factory=list)
    redo_stack: list[Move] = field(default_factory=list)
    _states: list[State] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._states = [self.start]
        for move in self.moves:
            self._states.append(self._states[-1].apply(move))

    @classmethod
    def new(cls, game: str | Variant, number: int) -> Game:
        return cls(new_state(game, number), number)

    @classmethod
    def from_board(cls, game: str | Variant, text: str) -> Game:
        variant = get_variant(game) if isinstance(game, str) else game
        return cls(start_state(variant, parse_board(variant, text)))

    @property
    def variant(self) -> Variant:
        return self.start.variant

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def positions(self) -> tuple[State, ...]:
        """The positions of the game's line, from the deal to now."""
        return tuple(self._states)

    def legal_moves(self) -> Moves:
        return self.state.legal_moves()

    def status(self) -> Status:
        return self.state.status()

    def push(self, move: Move | str) -> State:
        """Play a move (object or text); a bad one raises `MoveError` and changes nothing."""
        return self.push_line([move])

    def push_line(self, moves: Iterable[Move | str]) -> State:
        """Play moves in turn (a solver's winning line): all of them, or, if one is bad, none
        (it raises `MoveError`), so a line never stops half-played."""
        line = [as_move(m) for m in moves]
        states = []
        state = self.state
        for m in line:
            state = state.apply(m)
            states.append(state)
        for m, state in zip(line, states, strict=True):
            self._states.append(state)
            self.moves.append(m)
            if self.redo_stack and self.redo_stack[-1] == m:
                self.redo_stack.pop()
            else:
                self.redo_stack.clear()
        return self.state

    def pop(self) -> Move:
        """Take back the last move (it can be redone)."""
        if not self.moves:
            raise MoveError("nothing to undo")
        self._states.pop()
        move = self.moves.pop()
        self.redo_stack.append(move)
        return move

    undo = pop

    def redo(self) -> Move:
        if not self.redo_stack:
            raise MoveError("nothing to redo")
        move = self.redo_stack[-1]
        self.push(move)
        return move

    def restart(self) -> None:
        """Back to the deal; the moves taken back can be redone one by one."""
        while self.moves:
            self.pop()

    def auto_moves(self) -> list[Move]:
        """Play every provably safe move to the foundations; returns what was played."""
        played = []
        while safe := self.state.safe_moves():
            self.push(safe[0])
            played.append(safe[0])
        return played

    # ---- saving -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        v = self.variant
        return {
            "version": SAVE_VERSION,
            "game": v.name,
            "options": v.options(),
            "number": self.number,
            "board": (format_board(self.start.to_layout(), variant=v) if self.number is None
                      else None),
            "moves": [str(m) for m in self.moves],
            "redo": [str(m) for m in self.redo_stack],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a saved game; anything malformed raises `ValueError` saying what."""
        try:
            name = str(data["game"])
            if data.get("version", SAVE_VERSION) != SAVE_VERSION:
                name = RENAMED.get(name, name)
            variant = get_variant(name, **dict(data.get("options") or {}))
            number, board = data.get("number"), data.get("board")
            if number is not None:
                if not isinstance(number, int) or isinstance(number, bool):
                    raise ValueError("number must be an integer")
                start = new_state(variant, number)
            elif isinstance(board, str):
                start = start_state(variant, parse_board(variant, board))
            else:
                raise ValueError("a saved game needs a deal number or a board")
            moves = [Move.parse(str(m)) for m in data.get("moves", [])]
            redo = [Move.parse(str(m)) for m in data.get("redo", [])]
        except KeyError as e:
            raise ValueError(f"saved game lacks {e.args[0]!r}") from None
        except TypeError as e:
            raise ValueError(f"malformed saved game: {e}") from None
        try:
            return cls(start, number, moves, redo)
        except IllegalMove as e:
            raise ValueError(f"saved game does not replay: {e}") from None

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"saved game is not JSON: {e}") from None
        if not isinstance(data, dict):
            raise ValueError("saved game must be a JSON object")
        return cls.from_dict(data)


def card_count(state: State) -> dict[Card, int]:
    """How many of each card the state holds, wherever they lie."""
    out: dict[Card, int] = {}
    for c in state.cards():
        out[c] = out.get(c, 0) + 1
    return out
