"""What the benchmarks over a range of deals share: the arguments ``GAME FIRST LAST`` and the
deals' start states."""

from __future__ import annotations

import argparse

from thirteen.deal import deal
from thirteen.game import State, start_state
from thirteen.variants import get_variant


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
