"""The ``thirteen`` command. Bad input of any kind ends in one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# absolute imports: the web server's solver worker processes run the main module by path
# (`python -m thirteen.cli serve`), where a relative import has no package
from thirteen import __version__
from thirteen.arguments import (
    MAX_BOARD_BYTES,
    Parser,
    budget_args,
    deal_number,
    game_parents,
    moves_args,
    one_line,
    play_args,
    report_args,
    serve_args,
    survey_args,
)
from thirteen.deal import format_board, parse_board, random_number
from thirteen.game import Game, State, start_state
from thirteen.moves import MoveError
from thirteen.rules import describe
from thirteen.session import PlayedElsewhere, Session, auto_finish, choose_deal, open_session
from thirteen.solver import Budget, difficulty, hint, solve, solve_for_me
from thirteen.solver.build import GAIN
from thirteen.text import render
from thirteen.variants import GAMES, Variant, get_variant


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


def _variant(args: argparse.Namespace) -> Variant:
    options: dict[str, object] = {}
    if getattr(args, "worry_back", False):
        options["worry_back"] = True
    if getattr(args, "foundations", None):
        options["foundations"] = args.foundations
    return get_variant(args.game, **options)


MAX_MOVES_BYTES = 4 * 1024 * 1024  # moves piped to `check`: the longest lines are ~100 KB


def _read(path: str, limit: int = MAX_BOARD_BYTES) -> str:
    """The text of ``path`` (- for stdin): one line of error if it is missing, larger than
    ``limit`` bytes (read no further) or not UTF-8 text."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            data = stdin.read(limit + 1) if stdin else sys.stdin.read(limit + 1).encode()
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror}") from None
    if len(data) > limit:
        raise UsageError(f"{name} is larger than {limit // 1024} KB: refused unread")
    text = data.decode(errors="replace")
    if "\ufffd" in text or "\0" in text:
        raise UsageError(f"{name} is not text")
    return text


def _start(args: argparse.Namespace) -> Game:
    """The game named on the command line: deal N, a board file, or a random deal."""
    variant = _variant(args)
    board = getattr(args, "board", None)
    if board:
        if args.number is not None:
            raise UsageError("give a deal number or --board FILE, not both")
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
            args.number = deal_number(rest.pop(0))
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
  solve    play a winning line from here to the end (undo takes it back move by move);
           where cards are hidden, the fair player plays, seeing only what you see"""
# Plain play's command words, each read as its letter.
COMMAND_LETTERS = {"undo": "u", "redo": "r", "moves": "m", "auto": "a", "restart": "n",
                   "help": "h", "?": "h", "quit": "q"}
PLAY_SOLVER_SECONDS = 10.0  # the solver's budget for `hint` and `solve` in a piped game


def _hint(session: Session) -> None:
    state, seen = session.position()
    answer = hint(state, Budget(max_seconds=PLAY_SOLVER_SECONDS), seen)
    if answer.move is not None:
        session.take_hint()
    print(answer.message)


def _solve_for_me(session: Session) -> bool:
    """Solve it for me (True if moves were played): the solver's winning line, or where cards
    are hidden the fair player's moves; the game counts as assisted."""
    if session.status() != "in play":
        print("the game is over: nothing to solve")
        return False
    state, seen = session.position()
    answer = solve_for_me(state, Budget(max_seconds=PLAY_SOLVER_SECONDS), seen)
    played = session.take_solve(state, answer)
    if not played:
        print(answer.message)
        return False
    print(f"played {len(played)} moves: {' '.join(map(str, played))}")
    if answer.verdict == "fair":
        print(f"Solve {answer.message}.")
    return True


def cmd_play(args: argparse.Namespace) -> int:
    """Play: full screen in a terminal, else plain text; either way the game's lifecycle is
    `thirteen.session`'s (kept in ``--db`` when given, in memory otherwise in plain play)."""
    from thirteen.store import Store

    variant = _variant(args)
    if args.difficulty is not None:
        if args.number is not None or args.board:
            raise UsageError("--difficulty picks a deal: leave out the deal number and --board")
        args.number, message = choose_deal(variant, None, args.difficulty)
        print(message)
    given = _start(args) if args.board or variant.options() else None
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        from thirteen.tui import run_app

        return run_app(variant.name, args.number, args.db, game=given)
    store = Store(args.db) if args.db else None
    session, opened = open_session(store, "local", variant, args.number, given)
    print(f"{_title(session.game)}. h for help." + (f" {opened}" if opened else ""))
    return _play_text(session)


def _play_text(session: Session) -> int:
    """Plain play: a command or a move a line from stdin, the board shown after each change."""
    show = True
    while True:
        game = session.game  # another process may have played on (`PlayedElsewhere`)
        if show:
            print(render(game.state.view()))
            status = game.status()
            if status != "in play":
                print("You won!" if status == "won" else "No legal move remains: the game is lost.")
        print("> ", end="", flush=True)
        line = sys.stdin.readline()
        word = line.strip()
        word = COMMAND_LETTERS.get(word, word)
        if not line or word == "q":
            if not line:
                print()
            session.close()  # its clock stands still until the game is opened again
            return 0
        try:
            show = _obey(session, word)
        except PlayedElsewhere as e:
            print(f"{e}; showing where it is now", file=sys.stderr)
            show = True


def _obey(session: Session, word: str) -> bool:
    """Carry out one line of plain play (a command or a move); True if the board changed
    and is to be shown again."""
    game = session.game
    commands: dict[str, Callable[[], object]] = {
        "u": game.undo, "r": game.redo, "n": game.restart, "a": lambda: auto_finish(game),
    }
    if word == "h":
        print(HELP)
    elif word == "hint":
        _hint(session)
    elif word == "solve":
        return _solve_for_me(session)
    elif word == "m":
        print(" ".join(map(str, game.legal_moves())) or "(none)")
    elif word:
        act = commands.get(word) or (lambda: game.push(word))
        try:
            act()
        except MoveError as e:
            print(e if word in commands else f"refused: {e}")
            return False
        session.commit()
        return True
    return False


#: `thirteen check`'s exit codes (bad input, an illegal move included, is 2 as everywhere).
CHECK_CODES = {"won": 0, "lost": 1, "in play": 3}


def cmd_check(args: argparse.Namespace) -> int:
    moves = _deal_and_moves(args)
    game = _start(args)
    if not moves and not sys.stdin.isatty() and args.board != "-":
        moves = _read("-", MAX_MOVES_BYTES).split()
    _replay(game, moves)
    status = game.status()
    print(status)
    return CHECK_CODES[status]


def _replay(game: Game, moves: Sequence[str]) -> None:
    """Play ``moves``; an illegal one is bad input, named by its place in the list."""
    for i, text in enumerate(moves, 1):
        try:
            game.push(text)
        except MoveError as e:
            raise UsageError(f"illegal move {i}: {e}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    _check_listen(args.host, args.port)
    from thirteen.web import serve
    from thirteen.web.limits import Limits

    serve(args.host, args.port, args.db, Limits.from_args(args))
    return 0


def _check_listen(host: str, port: int) -> None:
    """Say plainly, before anything starts, that ``host`` is unknown or ``port`` taken."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise UsageError(f"cannot serve on host {host!r}: {e.args[-1]}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as e:
            raise UsageError(f"cannot serve on {host} port {port}: {e.strerror}") from None


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
    _replay(game, moves)
    result = hint(game.state, Budget(max_seconds=args.max_seconds))
    print(result.message)
    return 0


def cmd_compile_solver(args: argparse.Namespace) -> int:
    from thirteen.solver.build import compile_solver, default_dir, up_to_date

    chosen = Path(args.dir) if args.dir else None
    if not args.force and up_to_date(chosen or default_dir()):
        print(f"the solver build in {chosen or default_dir()} is up to date: nothing to do "
              "(--force builds it again)")
        return 0
    try:
        out = compile_solver(chosen)
    except RuntimeError as e:
        raise UsageError(str(e)) from None
    print("compiled the solver (packer, relaxed-game and Calculation searches, fair player) "
          f"into {out}"
          + ("" if args.dir else "; every thirteen command now uses it"))
    if args.dir:
        print(f"use it with: THIRTEEN_COMPILED_SOLVER={out} thirteen ...")
    return 0


def cmd_survey(args: argparse.Namespace) -> int:
    from thirteen.survey import main as survey_main

    return survey_main(args)


def cmd_report(args: argparse.Namespace) -> int:
    from thirteen.report import main as report_main

    return report_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="thirteen", description="Baker's Dozen family and Imaginary Thirteen patience games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    game_args, deal_args = game_parents()

    def add(name: str, func: Callable[[argparse.Namespace], int], help: str,
            parents: Sequence[Parser] = ()) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help, parents=list(parents))
        p.set_defaults(func=func)
        return p

    add("games", cmd_games, "list the games")
    add("rules", cmd_rules, "print the rules of a game", [game_args])
    add("deal", cmd_deal, "print a deal", [deal_args]).add_argument(
        "--format", choices=("text", "board", "json"), default="text",
        help="text (a picture), board (fc-solve board text) or json (default: %(default)s)")
    play_args(add("play", cmd_play,
                  "play a game (full screen in a terminal, plain text otherwise)", [deal_args]))
    moves_args(add("check", cmd_check, "replay moves; prints won, lost or in play (exit code 0 "
                   "won, 1 lost, 3 in play, 2 bad input or an illegal move)", [game_args]),
               "then moves (else read from stdin)")
    serve_args(add("serve", cmd_serve, "serve the game in a web browser"))
    p = add("solve", cmd_solve, "solve a deal: solved (with moves), unsolvable, or unknown",
            [deal_args])
    budget_args(p, Budget(max_nodes=None))
    p.add_argument("--json", action="store_true", help="one JSON object")
    p = add("hint", cmd_hint, "the next move of a winning line, or why there is none",
            [game_args])
    moves_args(p, "then the moves played so far")
    budget_args(p, Budget(max_seconds=10.0), time_only=True)
    p = add("compile-solver", cmd_compile_solver,
            f"compile the solver's searches with mypyc ({GAIN})")
    p.add_argument("--dir", help="build directory (default: the user cache, used by default)")
    p.add_argument("--force", action="store_true", help="build even if an up-to-date build exists")
    survey_args(add("survey", cmd_survey,
                    "solve every deal of a range and store the verdicts (SQLite)", [game_args]))
    report_args(add("report", cmd_report, "winnability of surveyed games, with Wilson intervals"))
    return parser


#: The extra of the package (``pip install 'thirteen[EXTRA]'``) that each command needs beyond
#: the engine and the solver.
EXTRAS = {"play": "play", "serve": "web", "survey": "survey", "report": "survey"}


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
        print(f"thirteen: {one_line(str(e))}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        needed, package = EXTRAS.get(args.command), (e.name or "").split(".")[0]
        if needed is None or package in ("", "thirteen"):
            raise
        print(f"thirteen: {args.command} needs {package}, which is not installed: "
              f"pip install 'thirteen[{needed}]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `thirteen solve ... | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())
