"""How the packer search codes its positions and moves: a card is one byte, ``rank * 4 + suit``
(suits nobody reads dropped, `_code_rank`, `_code_colour`), a column a ``bytes`` of them,
bottom card first; a move is one int that sorts as (score, move) does (`entry`), so move lists
and the trail of played moves hold no tuples; `packing` tables which card packs onto which.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

# Module constants are Final: mypyc compiles them in instead of a dictionary look-up per use.
FOUNDATION: Final = -1  # internal move target: the suit (or rank, or Bisley ace) foundation
KING_PILE: Final = -2  # internal move target: Bisley's king pile of the card's suit
NOWHERE: Final = 0  # `Position.home_target`: the card may not go home now
BOTTOM: Final = 60  # `Position._put`: the card lies at the bottom of its column
HOME: Final = 61  # `Position._put`: the card is home (codes go up to 55)
QUEEN: Final = 48  # the code of the queen of suit 0 (``12 * 4``): add the suit
KING: Final = 52  # the code of the king of suit 0 (``13 * 4``): add the suit
ONE_CARD: Final = [bytes([c]) for c in range(64)]  # each code as a one-card bytes, made once


Snapshot = tuple[tuple[bytes, ...], bytes, bytes]  # `Position.snapshot`
IMove = tuple[int, int, int]  # (source, target column or FOUNDATION/KING_PILE, count)
# A source below zero is a worry-back: the top of suit ``-1 - source``'s foundation.
# Inside the search a move is one int, `entry`'s low `MOVE_BITS` (`unpack` reads it), so that
# move lists and the trail of played moves hold no tuples: a trail record is the move, the
# source's old face-down count and, for a move home, the card (`Position.do`).


_PACKING: dict[tuple[str, Callable[[int, int], int]], tuple[vec[i64], bytes, bytes]] = {}
HOST_STRIDE: Final = 5  # `packing`'s hosts: per code, how many hosts, then up to four


def packing(build: str, enc: Callable[[int, int], int]) -> tuple[vec[i64], bytes, bytes]:
    """`Position.hosts`, `Position.pack_ok` and `Position.place` for a way of building and of
    coding cards."""
    known = _PACKING.get((build, enc))
    if known is not None:
        return known
    hosts: list[tuple[int, ...]] = [() for _ in range(60)]
    for r in range(1, 14):
        for s in range(4):
            if build == "suit-up-or-down":
                hs = [enc(r2, s) for r2 in (r - 1, r + 1) if 1 <= r2 <= 13]
            elif r < 13:
                hs = [enc(r + 1, s2) for s2 in range(4)
                      if build == "rank" or (s2 >= 2) != (s >= 2)]
            else:
                hs = []
            hosts[enc(r, s)] = tuple(sorted(set(hs)))
    table = bytearray(64 * 64)
    for card in range(60):
        for target in hosts[card]:
            table[card * 64 + target] = 1
    flat = vec[i64]([0] * (60 * HOST_STRIDE))
    for card in range(60):
        flat[card * HOST_STRIDE] = len(hosts[card])
        for k, h in enumerate(hosts[card]):
            flat[card * HOST_STRIDE + 1 + k] = h
    place = bytearray(64 * 64)
    for card in range(64):
        place[card * 64 + HOME] = 5
        place[card * 64 + BOTTOM] = 6
    for card in range(60):
        for k, h in enumerate(hosts[card]):
            place[card * 64 + h] = 1 + k
    known = _PACKING[build, enc] = (flat, bytes(table), bytes(place))
    return known



def code_suit(rank: int, suit: int) -> int:
    """Every card its own code."""
    return rank * 4 + suit


def _code_rank(rank: int, suit: int) -> int:
    """Foundations by rank and building by rank: no rule reads the suit."""
    return rank * 4


def _code_colour(rank: int, suit: int) -> int:
    """Foundations by rank and building by colour: only the colour is read."""
    return rank * 4 + (2 if suit >= 2 else 0)


def coder(rank_found: bool, build: str) -> Callable[[int, int], int]:
    """The coding of cards for a game: suits nobody reads are dropped from the codes, so
    positions that differ only there share a key."""
    if rank_found and build == "rank":
        return _code_rank
    if rank_found and build == "alternate":
        return _code_colour
    return code_suit



MOVE_BITS: Final = 13
MOVE_MASK: Final = (1 << MOVE_BITS) - 1


def entry(score: i64, src: i64, dst: i64, n: i64) -> i64:
    """A move and its score packed in one int that sorts as (score, move) does."""
    return score << MOVE_BITS | (src + 4) << 8 | (dst + 2) << 4 | n


def unpack(m: int) -> IMove:
    """The (source, target, count) of an `entry` or a trail record."""
    return (m >> 8 & 31) - 4, (m >> 4 & 15) - 2, m & 15


def sort_moves(v: vec[i64]) -> None:
    """Sort a short list of moves in place (compiled, an insertion sort of native ints
    beats sorting boxed ones)."""
    for k in range(1, len(v)):
        x = v[k]
        j = k - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x

