"""Plain-text pictures of a position, drawn only from the player's `view` (never the state),
so that no text front end can show a hidden card."""

from __future__ import annotations

from typing import Any

HIDDEN = "##"


def _cards(cards: list[str | None]) -> str:
    return " ".join(HIDDEN if c is None else c for c in cards) or "-"


def render(view: dict[str, Any], title: str = "") -> str:
    lines = [title] if title else []
    if view["family"] == "packer":
        lines.append("Foundations: " + "  ".join(
            f"{f['name']}:{f['cards'][-1] if f['cards'] else '-'}" for f in view["foundations"]
        ))
        width = len(str(len(view["columns"])))
        lines += [f"c{i + 1:<{width}} {_cards(col)}" for i, col in enumerate(view["columns"])]
    else:
        if view["markers"]:
            lines.append("Markers:     " + " ".join(view["markers"]))
        for f in view["foundations"]:
            needs = f"needs {f['needs']}" if f["needs"] else "complete"
            top = f["cards"][-1] if f["cards"] else "-"
            lines.append(f"{f['name']} (+{f['interval']}): {top:<3} {needs}")
        lines += [f"w{i + 1}: {_cards(pile)}" for i, pile in enumerate(view["waste"])]
        turned = view["stock_top"] or "-"
        lines.append(f"Stock: {turned} ({view['stock_left']} left)")
    return "\n".join(lines)
