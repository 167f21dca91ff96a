"""Perft-style regression: how many distinct positions each numbered deal reaches within d moves.

The figures in data/perft.json were recorded from this engine after its rules were checked by
test_engine.py; any change to move generation, dealing or state identity shows up here. If a
rule change is intended, re-record them and say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from thirteen.game import State, new_state

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def reachable(start: State, depth: int) -> list[int]:
    """Distinct states reached within 1..depth moves (the start included)."""
    seen, front, counts = {start}, [start], []
    for _ in range(depth):
        nxt = []
        for state in front:
            for move in state.legal_moves():
                after = state.apply(move)
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        front = nxt
        counts.append(len(seen))
    return counts


@pytest.mark.parametrize("game,number", [(g, n) for g in DATA for n in DATA[g]])
def test_perft(game: str, number: str) -> None:
    expected = DATA[game][number]
    assert reachable(new_state(game, int(number)), len(expected)) == expected
