"""What the benchmarks over a range of deals share: the arguments ``GAME FIRST LAST`` or
``GAME:FIRST-LAST``, and the deals' start states."""

from __future__ import annotations

import argparse

from thirteen.arguments import deal_number
from thirteen.deal import deal
from thirteen.game import State, start_state
from thirteen.variants import GAMES, get_variant


def parser(doc: str) -> argparse.ArgumentParser:
    """A parser described by the first line of the benchmark's ``doc`` that takes GAME FIRST
    LAST; the benchmark adds its own options."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    return parser


def start_states(args: argparse.Namespace) -> list[State]:
    """The start of each deal of the range the arguments name, in order."""
    variant = get_variant(args.game)
    return [start_state(variant, deal(variant, number))
            for number in range(args.first, args.last + 1)]


def spec(text: str) -> tuple[str, int, int]:
    """``GAME:FIRST-LAST`` (or ``GAME:N``) as an argparse type, so that a bad one is refused
    in one line before any search."""
    game, _, numbers = text.partition(":")
    first, _, last = numbers.partition("-")
    if game not in GAMES:
        raise argparse.ArgumentTypeError(f"not a game: {text!r}")
    low, high = deal_number(first), deal_number(last or first)
    if low > high:
        raise argparse.ArgumentTypeError(f"the first deal comes after the last: {text!r}")
    return game, low, high
