"""The ``thirteen`` command. Bad input of any kind ends in one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .deal import format_board, parse_board, random_number
from .game import Game, State, start_state
from .moves import MoveError
from .rules import describe
from .solver import (
    WANTED,
    Budget,
    difficulty,
    find_deal,
    found_message,
    hint,
    solve,
    solve_for_me,
)
from .text import render
from .variants import GAMES, Variant, get_variant


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit code 2), as for all input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _variant(args: argparse.Namespace) -> Variant:
    options: dict[str, object] = {}
    if getattr(args, "worry_back", False):
        options["worry_back"] = True
    if getattr(args, "foundations", None):
        options["foundations"] = args.foundations
    return get_variant(args.game, **options)


def _number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a deal number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"deal numbers start at 1, not {n}")
    return n


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type for budgets and counts: a number above zero, or a clear error."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above zero, not {text}")
        return value

    return parse


_count = _positive(int)
_seconds = _positive(float)


def _port(text: str) -> int:
    port = int(_count(text))
    if port > 65535:
        raise argparse.ArgumentTypeError(f"ports go up to 65535, not {port}")
    return port


def _read(path: str) -> str:
    try:
        return Path(path).read_text() if path != "-" else sys.stdin.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None


def _start(args: argparse.Namespace) -> Game:
    """The game named on the command line: deal N, a board file, or a random deal."""
    variant = _variant(args)
    board = getattr(args, "board", None)
    if board:
        return Game(start_state(variant, parse_board(variant, _read(board))))
    number = args.number if args.number is not None else random_number()
    return Game.new(variant, number)


def _deal_and_moves(args: argparse.Namespace) -> list[str]:
    """Split ``[N] MOVE...``: the deal number comes first unless a board file is given."""
    rest = list(args.rest)
    args.number = None
    if not args.board:
        if not rest:
            raise UsageError("give a deal number or --board FILE")
        try:
            args.number = _number(rest.pop(0))
        except argparse.ArgumentTypeError as e:
            raise UsageError(str(e)) from None
    return rest


def _title(game: Game) -> str:
    deal = f" #{game.number}" if game.number is not None else " (board)"
    return f"{game.variant.title}{deal}"


# ---- commands -------------------------------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    width = max(map(len, GAMES))
    for v in GAMES.values():
        print(f"{v.name:<{width}}  {v.description}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(describe(_variant(args)), end="")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    game = _start(args)
    state = game.start
    if args.format == "board":
        print(format_board(state.to_layout(), variant=game.variant), end="")
    elif args.format == "json":
        layout = state.to_layout()
        print(json.dumps({
            "game": game.variant.name, "number": game.number,
            "columns": [[str(c) for c in col] for col in layout.columns],
            "face_down": list(layout.face_down),
            "foundations": [[str(c) for c in p] for p in layout.foundations],
            "stock": [str(c) for c in layout.stock],
            "markers": [str(c) for c in layout.markers],
        }))
    else:
        print(render(_full_view(state), _title(game)))
    return 0


def _full_view(state: State) -> dict[str, Any]:
    """The deal as its owner may print it: hidden cards shown (this is not play)."""
    view = state.view()
    layout = state.to_layout()
    if view["family"] == "packer":
        view["columns"] = [[str(c) for c in col] for col in layout.columns]
    return view


HELP = """Type a move (c3-c7, c3-c7:4, c3-f, c3-fa, fH-c4, s-w2, s-f5, w2-f5), or a command,
its letter or its word:
  u undo   r redo   m moves (the legal ones)   a auto (safe moves home)   n restart
  h help   q quit
  hint     the next move of a winning line (or word that none remains)
  solve    play a winning line from here to the end (undo takes it back move by move)"""
# Plain play's command words, each read as its letter.
COMMAND_LETTERS = {"undo": "u", "redo": "r", "moves": "m", "auto": "a", "restart": "n",
                   "help": "h", "?": "h", "quit": "q"}
PLAY_SOLVER_SECONDS = 10.0  # the solver's budget for `hint` and `solve` in a piped game


def _hint(game: Game) -> None:
    print(hint(game.state, Budget(max_seconds=PLAY_SOLVER_SECONDS)).message)


def _solve_for_me(game: Game) -> bool:
    """Play the solver's winning line (True if it did); where cards are hidden it reads them
    (thoughtfully)."""
    if game.status() != "in play":
        print("the game is over: nothing to solve")
        return False
    hidden = game.state.hides_cards
    result, why = solve_for_me(game.state, Budget(max_seconds=PLAY_SOLVER_SECONDS))
    if why:
        print(why)
        return False
    game.push_line(result.moves)
    seen = " (the solver read the hidden cards)" if hidden else ""
    print(f"played {len(result.moves)} moves: {' '.join(map(str, result.moves))}{seen}")
    return True


def _pick_deal(args: argparse.Namespace) -> None:
    """With ``--difficulty`` and no deal given, draw deals until the solver rates one so."""
    if args.difficulty is None or args.number is not None or args.board:
        return
    args.number, rated = find_deal(_variant(args), args.difficulty, random_number)
    if rated is None:
        print(found_message(args.difficulty, rated), file=sys.stderr)


def cmd_play(args: argparse.Namespace) -> int:
    _pick_deal(args)
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        from .tui import run_app

        variant = _variant(args)
        given = _start(args) if args.board or variant.options() else None
        run_app(variant.name, args.number, args.db, game=given)
        return 0
    game = _start(args)
    print(f"{_title(game)}. h for help.")
    commands: dict[str, Callable[[], object]] = {
        "u": game.undo, "r": game.redo, "n": game.restart, "a": game.auto_moves,
    }
    show = True
    while True:
        if show:
            print(render(game.state.view()))
            status = game.status()
            if status != "in play":
                print("You won!" if status == "won" else "No legal move remains: the game is lost.")
        show = True
        print("> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            return 0
        word = line.strip()
        word = COMMAND_LETTERS.get(word, word)
        if word == "q":
            return 0
        if word == "h":
            print(HELP)
            show = False
        elif word == "hint":
            _hint(game)
            show = False
        elif word == "solve":
            show = _solve_for_me(game)
        elif word == "m":
            print(" ".join(map(str, game.legal_moves())) or "(none)")
            show = False
        elif word in commands:
            try:
                commands[word]()
            except MoveError as e:
                print(e)
                show = False
        elif word:
            try:
                game.push(word)
            except MoveError as e:
                print(f"refused: {e}")
                show = False
        else:
            show = False


def cmd_check(args: argparse.Namespace) -> int:
    moves = _deal_and_moves(args)
    game = _start(args)
    if not moves and not sys.stdin.isatty():
        moves = sys.stdin.read().split()
    for i, text in enumerate(moves, 1):
        try:
            game.push(text)
        except MoveError as e:
            print(f"illegal move {i}: {e}")
            return 1
    status = game.status()
    print(status)
    return 0 if status == "won" else 1


def cmd_serve(args: argparse.Namespace) -> int:
    from .web import serve

    serve(args.host, args.port, args.db)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    game = _start(args)
    budget = Budget(max_nodes=args.max_nodes, max_seconds=args.max_seconds, max_mb=args.max_mb)
    result = solve(game.start, budget, shorten=True)
    if args.json:
        print(json.dumps(result.to_json_dict()))
    else:
        print(f"{_title(game)}: {result.verdict}"
              + (f" ({result.reason})" if result.reason else ""))
        print(f"nodes {result.nodes}, {result.seconds:.3f} s, peak states {result.peak_states}, "
              f"difficulty {difficulty(result)}")
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    moves = _deal_and_moves(args)
    game = _start(args)
    for i, text in enumerate(moves, 1):
        try:
            game.push(text)
        except MoveError as e:
            raise UsageError(f"illegal move {i}: {e}") from None
    result = hint(game.state, Budget(max_seconds=args.max_seconds))
    print(result.message)
    return 0


def cmd_compile_solver(args: argparse.Namespace) -> int:
    from .solver.build import compile_solver

    try:
        out = compile_solver(Path(args.dir) if args.dir else None)
    except RuntimeError as e:
        raise UsageError(str(e)) from None
    print("compiled the solver (packer, relaxed-game and Calculation searches, fair player) "
          f"into {out}"
          + ("" if args.dir else "; every thirteen command now uses it"))
    if args.dir:
        print(f"use it with: THIRTEEN_COMPILED_SOLVER={out} thirteen ...")
    return 0


# ---- parser ---------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="thirteen", description="Baker's Dozen family and Imaginary Thirteen patience games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    game_args = Parser(add_help=False)
    game_args.add_argument("game", help="game name (see `thirteen games`)")
    game_args.add_argument("--worry-back", action="store_true",
                           help="allow foundation cards back onto the columns")
    game_args.add_argument("--foundations", choices=("suit", "rank"),
                           help="build foundations by suit or regardless of suit")
    deal_args = Parser(add_help=False, parents=[game_args])
    deal_args.add_argument("number", nargs="?", type=_number,
                           help="PySolFC deal number (random if left out)")
    deal_args.add_argument("--board", metavar="FILE",
                           help="read the deal from fc-solve board text (- for stdin)")

    def add(name: str, func: Callable[[argparse.Namespace], int], help: str,
            parents: Sequence[Parser] = ()) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help, parents=list(parents))
        p.set_defaults(func=func)
        return p

    add("games", cmd_games, "list the games")
    add("rules", cmd_rules, "print the rules of a game", [game_args])
    p = add("deal", cmd_deal, "print a deal", [deal_args])
    p.add_argument("--format", choices=("text", "board", "json"), default="text")
    p = add("play", cmd_play, "play a game (full screen in a terminal, plain text otherwise)",
            [deal_args])
    p.add_argument("--plain", action="store_true", help="plain text even in a terminal")
    p.add_argument("--db", help="SQLite file for saved games and statistics")
    p.add_argument("--difficulty", choices=WANTED,
                   help="without N: a random deal the solver wins, or rates easy / medium / hard")
    p = add("check", cmd_check, "replay moves; prints won, lost or in play (exit 0 only if won)",
            [game_args])
    p.add_argument("rest", nargs="*", metavar="[N] MOVE",
                   help="deal number (unless --board), then moves (else read from stdin)")
    p.add_argument("--board", metavar="FILE", help="fc-solve board text (- for stdin)")
    p = add("serve", cmd_serve, "serve the game in a web browser")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_port, default=8000)
    p.add_argument("--db", help="SQLite file (default: in the user data directory)")
    p = add("solve", cmd_solve, "solve a deal: solved (with moves), unsolvable, or unknown",
            [deal_args])
    p.add_argument("--max-seconds", type=_seconds, default=60.0)
    p.add_argument("--max-nodes", type=_count, default=None)
    p.add_argument("--max-mb", type=_count, default=2048)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p = add("hint", cmd_hint, "the next move of a winning line, or why there is none",
            [game_args])
    p.add_argument("rest", nargs="*", metavar="[N] MOVE",
                   help="deal number (unless --board), then the moves played so far")
    p.add_argument("--board", metavar="FILE", help="fc-solve board text (- for stdin)")
    p.add_argument("--max-seconds", type=_seconds, default=10.0)

    p = add("compile-solver", cmd_compile_solver,
            "compile the solver's searches with mypyc (3-7 times as fast)")
    p.add_argument("--dir", help="build directory (default: the user cache, used by default)")

    def cmd_survey(args: argparse.Namespace) -> int:
        from .survey import main as survey_main

        return survey_main(args)

    def cmd_report(args: argparse.Namespace) -> int:
        from .report import main as report_main

        return report_main(args)

    p = add("survey", cmd_survey, "solve every deal of a range and store the verdicts (SQLite)",
            [game_args])
    p.add_argument("--deals", required=True, help="deal numbers: 1-100000, 7 or 1-10,20-30")
    p.add_argument("--workers", type=_count, help="processes or Dask workers (default: all cores)")
    p.add_argument("--max-seconds", type=_seconds, default=60.0, help="time budget per deal")
    p.add_argument("--max-nodes", type=_count, default=2_000_000, help="node budget per deal")
    p.add_argument("--max-mb", type=_count, default=2048, help="memory budget per deal")
    p.add_argument("--db", help="survey SQLite file (default: in the user data directory)")
    p.add_argument("--engine", choices=("local", "dask"), default="local")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler, e.g. tcp://host:8786 (default: a LocalCluster)")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals stored as unknown (e.g. with a larger budget)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p = add("report", cmd_report, "winnability of surveyed games, with Wilson intervals")
    p.add_argument("game", nargs="?", help="game name (or --all)")
    p.add_argument("--all", action="store_true", help="a table of every surveyed game")
    p.add_argument("--db", help="survey SQLite file (default: in the user data directory)")
    p.add_argument("--plot", metavar="FILE", help="running estimate and solve times (.png/.svg)")
    p.add_argument("--worry-back", action="store_true", help="only the survey with worrying back")
    p.add_argument("--foundations", choices=("suit", "rank"),
                   help="only the survey with these foundations")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Moves may follow options (`check GAME --board F c1-f`): argparse leaves them over.
    if extra and hasattr(args, "rest") and not any(e.startswith("-") for e in extra):
        args.rest += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        code: int = args.func(args)
    except (UsageError, ValueError) as e:
        print(f"thirteen: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `thirteen solve ... | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())
