"""Rules as data: one frozen `Variant` per game, and the registry of named games.

A new relative of Baker's Dozen is a registry entry here, never new engine code: the engines
read only these fields. Options a player may switch on (``worry_back``, foundations by rank)
are the same fields, set with `Variant.with_options`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Literal

Family = Literal["packer", "calculation"]
Build = Literal["rank", "alternate", "suit-up-or-down"]
Space = Literal["none", "any", "kings"]
FoundationKind = Literal["suit", "rank"]

#: Fields a player may change per game (the rest define the game itself).
OPTIONS = ("worry_back", "foundations")


class UnknownGame(ValueError):
    """A game name that is not in the registry."""


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    title: str
    description: str
    family: Family
    source: str  # where the rules come from, and whose deal N is deal N here
    pysol_id: int | None = None  # the PySolFC game whose deal N is deal N here
    decks: int = 1
    # --- the Baker's Dozen family (packers) ---
    layout: tuple[int, ...] = (4,) * 13  # cards dealt to each column
    face_down: int = 0  # cards dealt face down at the bottom of each column
    kings_to_bottom: bool = False
    build: Build = "rank"
    move_sequences: bool = False
    space: Space = "none"
    foundations: FoundationKind = "suit"
    aces_out: int = 0  # aces that start on the foundations
    kings_down: bool = False  # Bisley: a second pile per suit, built down from the king
    worry_back: bool = False  # a foundation's top card may come back to the tableau
    # --- the Calculation family ---
    markers: bool = False  # Imaginary Thirteen: A..8 set aside as reminders, out of play
    intervals: tuple[int, ...] = ()  # foundation i is built by intervals[i]
    bases: tuple[int, ...] = ()  # foundation i starts with a card of rank bases[i]
    waste_piles: int = 0

    @property
    def columns(self) -> int:
        return len(self.layout)

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def hidden_information(self) -> bool:
        return self.face_down > 0 or self.family == "calculation"

    @property
    def takes_options(self) -> bool:
        """Whether a player may set `OPTIONS` (Bisley's two-way foundations take none)."""
        return self.family == "packer" and not self.kings_down

    def with_options(self, **options: object) -> Variant:
        """The same game with player options changed; unknown or bad options are refused."""
        for key, value in options.items():
            if key not in OPTIONS:
                raise ValueError(
                    f"{self.name}: unknown option {key!r} (options: {', '.join(OPTIONS)})")
            if key == "worry_back" and not isinstance(value, bool):
                raise ValueError("worry_back must be true or false")
            if key == "foundations" and value not in ("suit", "rank"):
                raise ValueError("foundations must be 'suit' or 'rank'")
        if options and not self.takes_options:
            raise ValueError(f"{self.name} has no options")
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    def options(self) -> dict[str, object]:
        """The player options that differ from the named game's defaults."""
        base = GAMES[self.name]
        return {k: getattr(self, k) for k in OPTIONS if getattr(self, k) != getattr(base, k)}

    def sequence(self, pile: int) -> tuple[int, ...]:
        """Calculation family: the ranks foundation ``pile`` takes, base first, ending with K."""
        return _sequence(self.intervals[pile], self.bases[pile])


@cache
def _sequence(step: int, rank: int) -> tuple[int, ...]:
    """Ranks from ``rank`` by ``step`` modulo 13 up to the king; cached because every
    Calculation move asks for it."""
    out = []
    while True:
        out.append(rank)
        if rank == 13:
            return tuple(out)
        rank = (rank + step - 1) % 13 + 1


def _packer(name: str, title: str, description: str, source: str, **fields: object) -> Variant:
    return Variant(name, title, description, "packer", source, **fields)  # type: ignore[arg-type]


def _calculation(name: str, title: str, description: str, source: str,
                 **fields: object) -> Variant:
    return Variant(name, title, description, "calculation", source, waste_piles=4,
                   **fields)  # type: ignore[arg-type]


_ALL = (
    _packer(
        "bakers-dozen", "Baker's Dozen",
        "13 open columns of 4, kings to the bottom, build down any suit, spaces stay empty.",
        "The seeds' rules (Dick, 1883; Morehead's Hoyle, 2001). "
        "Deal N is PySolFC's Baker's Dozen (game 31) deal N.",
        pysol_id=31, kings_to_bottom=True,
    ),
    _packer(
        "spanish-patience", "Spanish Patience",
        "Baker's Dozen in which any card fills a space.",
        "The seeds' rules: Baker's Dozen in which any card may fill a space (Castles in Spain "
        "differs from it in that kings may not be repositioned, so here they go to the bottom). "
        "Deal N is PySolFC's Spanish Patience (game 85) deal N, the same columns as Baker's "
        "Dozen deal N; PySolFC's own rules for game 85 differ (spaces stay empty, foundations "
        "in alternate colours).",
        pysol_id=85, kings_to_bottom=True, space="any",
    ),
    _packer(
        "spanish-patience-ii", "Spanish Patience II",
        "Kings left where dealt and any card filling a space.",
        "PySolFC's Spanish Patience II (game 664), rules and deal N; the game Blake & Gent "
        "measured, with worrying back allowed (--worry-back).",
        pysol_id=664, space="any",
    ),
    _packer(
        "spanish-patience-rank", "Spanish Patience (foundations by rank)",
        "Spanish Patience with foundations built up regardless of suit.",
        "The seeds' Spanish Patience with foundations built regardless of suit, as \"some "
        "sources\" have it. Deal N is Spanish Patience deal N (PySolFC game 85).",
        pysol_id=85, kings_to_bottom=True, space="any", foundations="rank",
    ),
    _packer(
        "castles-in-spain", "Castles in Spain",
        "3 cards down and 1 up per column, kings left where dealt, build down by alternate "
        "colour, move sequences, any card or sequence fills a space.",
        "The seeds' rules (Bathe, 2004; Cornelius, 1998). "
        "Deal N is PySolFC's Castles in Spain (game 83) deal N.",
        pysol_id=83, face_down=3, build="alternate", move_sequences=True, space="any",
    ),
    _packer(
        "good-measure", "Good Measure",
        "Two aces start on the foundations, 10 columns of 5, kings to the bottom.",
        "The seeds' rules. Deal N is PySolFC's Good Measure (game 86) deal N, with every king "
        "then at the bottom of its column as the seeds say.",
        pysol_id=86, layout=(5,) * 10, kings_to_bottom=True, aces_out=2,
    ),
    _packer(
        "portuguese-solitaire", "Portuguese Solitaire",
        "Baker's Dozen with kings left where dealt and only a king filling a space.",
        "The seeds' rules. Deal N is PySolFC's Portuguese Solitaire (game 308) deal N.",
        pysol_id=308, space="kings",
    ),
    _packer(
        "bisley", "Bisley",
        "Aces start on the foundations; build up from the aces and down from the kings by suit; "
        "columns build up or down by suit.",
        "PySolFC's Bisley 13 (game 343001), rules and deal N; the seeds name Bisley as the "
        "family's relative.",
        pysol_id=343001, layout=(3,) * 4 + (4,) * 9, build="suit-up-or-down", aces_out=4,
        kings_down=True,
    ),
    _calculation(
        "calculation", "Calculation",
        "Four foundations from A, 2, 3, 4 built by ones, twos, threes and fours; "
        "a stock played to them or to four waste piles.",
        "Calculation, the one-deck parent the seeds name. "
        "Deal N is PySolFC's Calculation (game 256) deal N.",
        pysol_id=256, intervals=(1, 2, 3, 4), bases=(1, 2, 3, 4),
    ),
    _calculation(
        "imaginary-thirteen", "Imaginary Thirteen",
        "Two decks; markers A-8, foundations from the doubles of the markers built by the "
        "marker's interval modulo thirteen; four waste piles.",
        "The seeds' rules (Solitaire Central). Deal N is PySolFC's two-deck shuffle N: the "
        "markers are the first card of each rank A-8 in dealing order, the bases the first "
        "remaining card of each base rank.",
        decks=2, markers=True, intervals=tuple(range(1, 9)),
        bases=tuple((2 * m - 1) % 13 + 1 for m in range(1, 9)),
    ),
    _calculation(
        "imaginary-thirteen-pysol", "Imaginary Thirteen (PySolFC)",
        "PySolFC's Imaginary Thirteen: foundations from A-8 built by their own rank, "
        "modulo thirteen; four waste piles.",
        "PySolFC's Imaginary Thirteen (game 863), rules and deal N.",
        pysol_id=863, decks=2, intervals=tuple(range(1, 9)), bases=tuple(range(1, 9)),
    ),
)

GAMES: dict[str, Variant] = {v.name: v for v in _ALL}

ALIASES: dict[str, str] = {
    "bakers_dozen": "bakers-dozen",
    "baker's-dozen": "bakers-dozen",
    "spanish": "spanish-patience",
    "castles": "castles-in-spain",
    "portuguese": "portuguese-solitaire",
    "imaginary": "imaginary-thirteen",
}

#: Names whose game changed: data stored under the old name (saved games of format 1, player
#: databases of schema 1, survey rows of format 0) meant the game now named on the right.
RENAMED: dict[str, str] = {"spanish-patience": "spanish-patience-ii"}


def get_variant(name: str, **options: object) -> Variant:
    """Look a game up by name or alias (case and ``_``/``-`` ignored), with options applied."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    variant = GAMES[key]
    return variant.with_options(**options) if options else variant
