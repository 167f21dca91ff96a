"""The web API's contract as pydantic models: the bodies it accepts and every answer it gives,
so that ``/api/openapi.json`` describes each answer and its errors, and a front end (the page,
a script) can rely on the shape of the player's view."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, model_validator

from ..deal import MAX_DEAL, MIN_DEAL
from ..solver import Wanted

# ---- request bodies -----------------------------------------------------------------------


def _deal_number(value: object) -> object:
    """Deal numbers may be JSON numbers or decimal strings (numbers above 2**53 do not survive
    JavaScript), from MIN_DEAL to MAX_DEAL."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("a deal number is a whole number, not true/false")
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit() or len(text) > 20:
            raise ValueError("a deal number is a whole number of at most 20 digits")
        value = int(text)
    if not isinstance(value, int):
        raise ValueError("a deal number is a whole number")
    if not MIN_DEAL <= value <= MAX_DEAL:
        raise ValueError(f"deal numbers run from {MIN_DEAL} to {MAX_DEAL}")
    return value


DealNumber = Annotated[int | None, BeforeValidator(_deal_number)]


class Options(BaseModel):
    """Player options of a Baker's Dozen family game (omitted: the game's default)."""

    model_config = ConfigDict(extra="forbid")
    worry_back: StrictBool | None = None
    foundations: Literal["suit", "rank"] | None = None

    def given(self) -> dict[str, object]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64, description="a game name, e.g. bakers-dozen")
    number: DealNumber = Field(default=None, description="deal number; omitted: a random deal")
    board: str | None = Field(
        default=None, min_length=1, max_length=3000,
        description="a typed-in deal in fc-solve's board format (`thirteen deal GAME N "
                    "--format board` prints one), instead of a number")
    difficulty: Wanted | None = Field(
        default=None,
        description="random deals only: draw until the solver wins the deal (winnable) or rates "
                    "it easy, medium or hard (by the positions its search needed)")
    resume: StrictBool = Field(
        default=False,
        description="return the player's unfinished game of this deal (or of this game when "
                    "no number is given) instead of starting a new one, if there is one")
    leave: StrictBool = Field(
        default=False,
        description="the player confirmed leaving their unfinished games of this game: those "
                    "with a move count as lost (without it they stay unfinished)")
    options: Options = Field(default_factory=Options)

    @model_validator(mode="after")
    def _one_deal(self) -> NewGame:
        """A board is a deal of its own: it comes with no number, search or resuming."""
        if self.board is not None and (self.number is not None or self.difficulty or self.resume):
            raise ValueError("a board is the deal: give no number, difficulty or resume with it")
        return self


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=40, description="project notation, e.g. c3-c7")
    auto: StrictBool = Field(
        default=False, description="then play every provably safe move to the foundations")


# ---- answers: errors ----------------------------------------------------------------------


class ErrorOut(BaseModel):
    """Every refusal: one line saying what is wrong (4xx; 503 when the solver is too busy)."""

    detail: str


class FieldError(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class InvalidOut(ErrorOut):
    """A request that does not fit its schema (422): the line, then each field's complaint."""

    errors: list[FieldError]


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of an endpoint that may refuse with ``codes`` (422 is always there)."""
    out: dict[int | str, dict[str, Any]] = {c: {"model": ErrorOut} for c in codes}
    out[422] = {"model": InvalidOut}
    return out


# ---- answers: games of the registry -------------------------------------------------------

OptionValues = dict[str, bool | str]


class VariantOut(BaseModel):
    name: str
    title: str
    description: str
    family: Literal["packer", "calculation"]
    pysol_id: int | None
    hidden_information: bool
    options: OptionValues = Field(
        description="the options a player may set, with the game's own values ({}: none)")
    rules: str


# ---- answers: the player's view of a game -------------------------------------------------


PileNames = Annotated[dict[str, str], Field(
    description="every pile id of the game (and the any-foundation targets f, fa, fk) and its "
                "name in words, e.g. c3: column 3, fS: the spades foundation")]


class PackerFoundation(BaseModel):
    name: str
    cards: list[str]


class PackerView(BaseModel):
    """A Baker's Dozen family layout; a face-down card is null, never the card."""

    family: Literal["packer"]
    columns: list[list[str | None]]
    foundations: list[PackerFoundation]
    names: PileNames


class CalculationFoundation(BaseModel):
    name: str
    interval: int
    cards: list[str]
    needs: str | None = Field(description="the rank it takes next; null when complete")


class CalculationView(BaseModel):
    """A Calculation family layout: the turned card and how many remain, never the stock."""

    family: Literal["calculation"]
    markers: list[str]
    foundations: list[CalculationFoundation]
    waste: list[list[str]]
    stock_top: str | None
    stock_left: int
    names: PileNames


View = Annotated[PackerView | CalculationView, Field(discriminator="family")]


class LegalMove(BaseModel):
    """A legal move with the page's pile ids of its source and target."""

    model_config = ConfigDict(populate_by_name=True)
    move: str
    from_: str = Field(alias="from")
    to: str
    count: int
    home: bool


class StatsOut(BaseModel):
    played: int
    won: int = Field(description="clean wins")
    assisted: int = Field(description="wins with the solver's help")
    lost: int
    hints: int
    win_rate: float = Field(description="clean wins over played, 0..1")
    current_streak: int
    best_streak: int
    best_time: float | None = Field(description="seconds")
    fewest_moves: int | None


class GameOut(BaseModel):
    """A game as its player sees it: the view (never the state), the legal moves, the moves
    played and what the server has to say."""

    id: int
    game: str
    title: str
    family: Literal["packer", "calculation"]
    number: str | None = Field(description="a decimal string (too large for JavaScript numbers)")
    options: OptionValues
    url: str = Field(description="the page's address of this game")
    status: Literal["in play", "won", "lost"]
    message: str
    result: Literal["won", "lost"] | None = Field(description="once counted in the statistics")
    assisted: bool
    hints: int
    leaving: Literal["ask", "lost", "free"] = Field(
        description="what leaving means: ask first (it would count as lost), lost, or free")
    view: View
    legal: list[LegalMove]
    moves: list[str]
    redo: int = Field(description="moves that redo can play again")
    version: int = Field(description="goes up with every change of the game: an act sent with "
                                     "?at=VERSION is refused (409, with the version now in "
                                     "a Game-Version header) once the game has changed")
    played: list[str] = Field(description="the moves this answer played")
    elapsed: float
    since: float = Field(description="seconds since the last action")
    idle_cap: float
    stats: StatsOut


class StoppedOut(BaseModel):
    """What ``DELETE .../solve`` stopped."""

    stopped: int = Field(description="the Solves that were thinking about the game (0 or more)")


class GameRow(BaseModel):
    """One of the player's games in their list."""

    id: int
    game: str
    number: str | None
    status: str
    started: float
    updated: float
    finished: float | None
    elapsed: float
    result: Literal["won", "lost"] | None
    assisted: bool
    hints: int
    moves: int


# ---- answers: the solver's help -----------------------------------------------------------


class HintAnswer(BaseModel):
    """A move to try and why; ``from``, ``to``, ``count`` and ``home`` are there when there is
    a move (as in `LegalMove`)."""

    model_config = ConfigDict(populate_by_name=True)
    move: str | None
    message: str
    verdict: str | None
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    count: int | None = None
    home: bool | None = None


class AnalysisOut(BaseModel):
    verdict: Literal["solved", "unsolvable", "unknown"] | None = Field(
        description="null when the position hides cards from the player (or the solver failed)")
    message: str
    ply: int = Field(description="the position's move count, to match it to the page's")
    busy: bool = Field(False, description="true when the solver was too busy to search the "
                                          "position in time (the verdict is then unknown)")
