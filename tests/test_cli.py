"""The `thirteen` command, run as a user runs it (a real process, pipes for stdin, or a
pseudo-terminal for the full-screen game)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from thirteen.deal import parse_board
from thirteen.session import Session
from thirteen.store import Store
from thirteen.variants import GAMES


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "thirteen.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_games_lists_every_game() -> None:
    out = run("games").stdout
    assert all(name in out for name in GAMES)


def test_every_command_has_help() -> None:
    for command in ("games", "deal", "rules", "play", "check", "solve", "hint", "serve"):
        r = run(command, "--help")
        assert r.returncode == 0 and "usage:" in r.stdout, command


@pytest.mark.parametrize("game", sorted(GAMES))
def test_deal_formats(game: str) -> None:
    board = run("deal", game, "7", "--format", "board")
    assert board.returncode == 0
    parse_board(GAMES[game], board.stdout)  # the board text reads back
    data = json.loads(run("deal", game, "7", "--format", "json").stdout)
    assert data["game"] == game and data["number"] == 7
    assert run("deal", game, "7").stdout.startswith(GAMES[game].title)
    assert run("rules", game).stdout.startswith(GAMES[game].title)


def test_play_from_a_pipe() -> None:
    r = run("play", "bakers-dozen", "9", stdin="c2-f\nc1-c1\nu\nr\nq\n")
    assert r.returncode == 0
    assert "refused: c1-c1" in r.stdout
    assert "fH:AH" in r.stdout
    words = run("play", "bakers-dozen", "9", stdin="c2-f\nundo\nredo\nundo\nmoves\nquit\n")
    assert words.returncode == 0 and "refused" not in words.stdout
    boards = words.stdout.split("> ")
    assert "fH:AH" in boards[1] and "fH:AH" not in boards[2] and "fH:AH" in boards[3]
    assert "fH:AH" not in boards[4] and "c2-f" in boards[5]


def test_play_from_a_pipe_with_hint_and_solve_it_for_me() -> None:
    r = run("play", "bakers-dozen", "9", stdin="hint\nsolve\nsolve\nu\nq\n")
    assert r.returncode == 0 and r.stderr == ""
    assert "it starts a winning line" in r.stdout
    played = r.stdout.split("played ", 1)[1].split(" moves: ", 1)
    moves = played[1].splitlines()[0].split()
    assert len(moves) == int(played[0]) > 0
    assert "the game is over: nothing to solve" in r.stdout
    assert r.stdout.count("You won!") == 1  # and the undo after it took the last move back
    assert run("check", "bakers-dozen", "9", *moves).stdout.strip() == "won"
    lost = run("play", "good-measure", "1", stdin="solve\nhint\nq\n")
    assert "No winning line remains from here." in lost.stdout
    assert "dead end: this position can no longer be won" in lost.stdout
    assert "played" not in lost.stdout


def test_plain_play_with_a_database_keeps_the_same_lifecycle(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    r = run("play", "bakers-dozen", "9", "--plain", "--db", str(db), stdin="hint\nsolve\nq\n")
    assert r.returncode == 0 and "You won!" in r.stdout
    with Store(db) as store:
        stats = store.stats("local", "bakers-dozen")
        assert (stats["played"], stats["won"], stats["assisted"], stats["hints"]) == (1, 0, 1, 1)
        assert stats["best_time"] is None and stats["current_streak"] == 0
    again = run("play", "bakers-dozen", "10", "--plain", "--db", str(db), stdin="c1-f\nq\n")
    resumed = run("play", "bakers-dozen", "10", "--plain", "--db", str(db), stdin="q\n")
    assert again.returncode == resumed.returncode == 0
    assert "refused" not in again.stdout and "Resumed deal 10 after 1 moves." in resumed.stdout
    refused = run("play", "castles-in-spain", "--plain", "--difficulty", "easy", stdin="q\n")
    assert refused.returncode == 2 and "not rated" in refused.stderr


def test_plain_play_never_writes_over_a_game_played_on_elsewhere(tmp_path: Path) -> None:
    """Two terminals on one game: this one's move, chosen before the other took a move back,
    is refused and this one shows the game as stored; its next move is kept."""
    db = tmp_path / "play.sqlite3"
    store = Store(db)
    proc = subprocess.Popen([sys.executable, "-m", "thirteen.cli", "play", "bakers-dozen", "9",
                             "--plain", "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("c2-f\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while not (latest := store.latest_game("local", "bakers-dozen")) or not latest[1].moves:
        assert time.monotonic() < deadline, "the first move was never saved"
        time.sleep(0.05)
    game_id = latest[0]
    other = Session.load(store, "local", game_id)
    other.game.undo()  # the other terminal takes c2-f back
    other.commit()
    out, err = proc.communicate("c4-f\nc2-f\nq\n", timeout=60)
    assert proc.returncode == 0
    assert "played on elsewhere" in err and "refused" not in out
    assert [str(m) for m in store.load_game("local", game_id).moves] == ["c2-f"]


@pytest.mark.parametrize("end", ["q\n", ""])
def test_plain_play_ends_its_sitting_on_q_or_the_end_of_its_input(tmp_path: Path,
                                                                   end: str) -> None:
    """The game is saved closed, so its clock stands still until it is opened again."""
    db = tmp_path / "play.sqlite3"
    r = run("play", "bakers-dozen", "9", "--plain", "--db", str(db), stdin="c2-f\n" + end)
    assert r.returncode == 0, r.stderr
    found = Store(db).latest_game("local", "bakers-dozen")
    assert found is not None and [str(m) for m in found[1].moves] == ["c2-f"]
    assert Store(db).game_info("local", found[0])["closed"] is not None


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_the_terminal_app_ends_its_sitting_when_its_terminal_closes(tmp_path: Path,
                                                                   sig: int) -> None:
    """The full-screen game in a real (pseudo) terminal, closed under it (SIGHUP) or stopped
    (SIGTERM): the game is saved closed, so its clock stands still until it is opened again."""
    db = tmp_path / "play.sqlite3"
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "thirteen.cli", "play", "bakers-dozen", "9",
                             "--db", str(db)], stdin=side, stdout=side, stderr=side,
                            env={**os.environ, "TERM": "xterm-256color"}, start_new_session=True)
    os.close(side)
    drawn = threading.Event()
    # what the app draws is read, so that it never waits on a full terminal
    threading.Thread(target=_read_all, args=(main, drawn), daemon=True).start()
    try:
        assert drawn.wait(60), "the app never drew its board"
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    found = Store(db).latest_game("local", "bakers-dozen")
    assert found is not None and Store(db).game_info("local", found[0])["closed"] is not None


def _read_all(fd: int, drawn: threading.Event) -> None:
    """Read a terminal's output until it closes; ``drawn`` once the board's title is drawn."""
    seen = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 65536):
            seen = (seen + chunk)[-4096:]
            if b"Baker" in seen:
                drawn.set()


def test_play_a_deal_of_a_difficulty_and_solve_rates_it() -> None:
    r = run("play", "bakers-dozen", "--difficulty", "easy", stdin="q\n")
    assert r.returncode == 0 and r.stderr == ""
    number = r.stdout.split("#", 1)[1].split(".", 1)[0]
    rated = run("solve", "bakers-dozen", number, "--max-nodes", "1000")
    assert "difficulty easy" in rated.stdout and ": solved (found by " in rated.stdout


def test_check_reports_won_lost_in_play_and_the_first_illegal_move(tmp_path: Path) -> None:
    r = run("check", "bakers-dozen", "9", "c2-f")
    assert (r.returncode, r.stdout.strip()) == (3, "in play")
    r = run("check", "bakers-dozen", "9", "c2-f", "c1-c1", "c6-f")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("thirteen: illegal move 2: c1-c1")
    board = tmp_path / "deal.txt"
    board.write_text(endgame("KH QH", "KS", "H-J C-K D-K S-Q"))
    r = run("check", "bakers-dozen", "--board", str(board), stdin="c2-f c2-c1\n")
    assert r.returncode == 2
    assert r.stderr.startswith("thirteen: illegal move 2: c2-c1: column 2 is empty")
    r = run("check", "bakers-dozen", "--board", str(board), stdin="c2-f c1-f c1-f")
    assert (r.returncode, r.stdout.strip()) == (0, "won")


def endgame(col1: str, col2: str, foundations: str) -> str:
    """A 13-column Baker's Dozen board with two columns left and the rest on foundations."""
    return f"Foundations: {foundations}\n{col1}\n{col2}\n" + ":\n" * 11


def test_check_lost(tmp_path: Path) -> None:
    board = tmp_path / "stuck.txt"
    board.write_text(endgame("QH KS", "QS KH", "H-J C-K D-K S-J"))
    r = run("check", "bakers-dozen", "--board", str(board))
    assert (r.returncode, r.stdout.strip()) == (1, "lost")


@pytest.mark.parametrize("args", [
    ("deal", "no-such-game", "1"),
    ("deal", "bakers-dozen", "x"),
    ("deal", "bakers-dozen", "0"),
    ("deal", "bakers-dozen", "--board", "/no/such/file"),
    ("check", "bakers-dozen"),
    ("rules", "castles", "--foundations", "diagonal"),
    ("play", "bisley", "--worry-back"),
    ("play", "bakers-dozen", "--difficulty", "trivial"),
    ("solve", "bakers-dozen", "9", "--max-seconds", "-1"),
    ("solve", "bakers-dozen", "9", "--max-nodes", "many"),
    ("survey", "bakers-dozen", "--deals", "1-3", "--workers", "0"),
    ("serve", "--port", "70000"),
])
def test_bad_input_is_one_line_and_exit_code_2(args: tuple[str, ...]) -> None:
    r = run(*args)
    assert r.returncode == 2, r
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_unreadable_board_is_refused(tmp_path: Path) -> None:
    board = tmp_path / "bad.txt"
    board.write_text("AH AH\nXX\n")
    r = run("deal", "bakers-dozen", "--board", str(board))
    assert r.returncode == 2 and r.stderr.startswith("thirteen: ")


def test_version_and_every_option_says_its_default() -> None:
    import argparse

    from thirteen import __version__
    from thirteen.cli import build_parser

    assert run("--version").stdout.strip() == f"thirteen {__version__}"
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            if action.option_strings and action.nargs != 0 and not action.required:
                assert "default" in (action.help or ""), (name, action.option_strings)


def test_the_survey_command_and_function_default_to_the_solver_budget() -> None:
    """Three places name a survey's budget: the solver's `Budget`, ``survey()`` and its
    command; a default changed in one and not the others would survey at a budget the report
    does not state."""
    import inspect

    from thirteen.cli import build_parser
    from thirteen.solver import Budget
    from thirteen.survey import survey

    args = build_parser().parse_args(["survey", "bisley", "--deals", "1"])
    defaults = inspect.signature(survey).parameters
    for field in ("max_seconds", "max_nodes", "max_mb"):
        assert getattr(args, field) == getattr(Budget(), field) == defaults[field].default


def test_compile_solver_leaves_an_up_to_date_build_alone(tmp_path: Path) -> None:
    from thirteen.solver.build import STAMP, source_digest

    (tmp_path / STAMP).write_text(source_digest() + "\n")
    r = run("compile-solver", "--dir", str(tmp_path))
    assert r.returncode == 0 and "up to date: nothing to do" in r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [STAMP]


@pytest.mark.parametrize(("command", "missing", "extra"), [
    (["serve", "--port", "65432"], "fastapi", "web"), (["survey", "bisley", "--deals", "1"], "rich",
                                                   "survey"),
])
def test_a_command_whose_extra_is_not_installed_says_which(command: list[str], missing: str,
                                                           extra: str) -> None:
    """A library-only install (no extras): the command names the extra to install."""
    code = (f"import sys; sys.modules[{missing!r}] = None; from thirteen.cli import main; "
            f"sys.exit(main({command!r}))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (f"thirteen: {command[0]} needs {missing}, which is not "
                                f"installed: pip install 'thirteen[{extra}]'")
