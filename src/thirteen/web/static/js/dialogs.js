// The dialogs beside the game: the rules of the game on the table (with its options), the
// player's statistics for every game, their past games (to resume or play again) and the
// daily deals. They read the server and call back into the page to play.

import { api } from "./api.js";
import { $, el } from "./draw.js";
import { state, variantOf } from "./state.js";
import { fmtTime } from "./words.js";

function open(title, ...content) {
  $("panel-title").textContent = title;
  $("panel-body").replaceChildren(...content);
  const d = $("panel-dialog");
  if (!d.open) d.showModal();
}

function table(caption, headers, rows) {
  const t = el("table", "listing");
  t.append(el("caption", "sr-only", caption));
  const head = el("tr");
  for (const h of headers) {
    const th = el("th", "", h);
    th.scope = "col";
    head.append(th);
  }
  t.append(el("thead"));
  t.tHead.append(head);
  const body = el("tbody");
  for (const r of rows) {
    const tr = el("tr");
    for (const cell of r) {
      const td = el("td");
      td.append(cell == null ? "–" : cell);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
  return t;
}

function action(text, label, run) {
  const b = el("button", "", text);
  b.type = "button";
  b.setAttribute("aria-label", label);
  b.addEventListener("click", () => { $("panel-dialog").close(); run(); });
  return b;
}

async function load(path) {
  try {
    return await api("GET", path);
  } catch (e) {
    open("Cannot load that", el("p", "", e.message));
    return null;
  }
}

// The rules as the game on the table plays them: its options are asked for by name.
export async function showRules() {
  const g = state.game;
  const name = g ? g.game : $("game-select").value;
  let v = variantOf(name);
  if (g && g.options && Object.keys(g.options).length) {
    const q = new URLSearchParams(Object.entries(g.options).map(([k, x]) => [k, String(x)]));
    v = (await load(`/api/variants/${encodeURIComponent(name)}?${q}`)) || v;
  }
  if (!v) return;
  const box = $("rules-text");
  box.replaceChildren();
  const lines = (v.rules || v.description).split("\n").filter((l) => l.trim());
  $("rules-title").textContent = lines.length ? lines[0] : v.title;
  const ul = el("ul");
  for (const line of lines.slice(1)) {
    if (line.startsWith("- ")) ul.append(el("li", "", line.slice(2)));
    else box.append(el("p", "", line));
  }
  box.append(ul);
  if (!$("rules-dialog").open) $("rules-dialog").showModal();
}

function titleOf(name) {
  const v = variantOf(name);
  return v ? v.title : name;
}

export async function showStats() {
  const all = await load("/api/stats");
  if (!all) return;
  const names = Object.keys(all);
  if (!names.length) { open("Statistics", el("p", "", "No game finished yet.")); return; }
  const rows = names.map((n) => {
    const s = all[n];
    return [titleOf(n), String(s.played), `${s.won} (${Math.round(100 * s.win_rate)}%)`,
      String(s.assisted), String(s.lost), `${s.current_streak} (best ${s.best_streak})`,
      s.best_time == null ? null : fmtTime(s.best_time),
      s.fewest_moves == null ? null : String(s.fewest_moves), String(s.hints)];
  });
  open("Statistics", table("Your statistics, game by game",
    ["Game", "Played", "Won", "Won with Solve", "Lost", "Streak", "Best time", "Fewest moves", "Hints"], rows));
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

// ``go``: {open(id), again(game, number)}
export async function showGames(go) {
  const games = await load("/api/games");
  if (!games) return;
  if (!games.length) { open("Your games", el("p", "", "No game yet.")); return; }
  const rows = games.map((x) => {
    const deal = x.number ? `deal ${x.number}` : "your deal";
    const label = `${titleOf(x.game)} ${deal}`;
    const result = x.result || x.status;
    const buttons = el("span", "buttons");
    const unfinished = !x.result && x.status === "in play";
    buttons.append(action(unfinished ? "Resume" : "Look", `${unfinished ? "Resume" : "Look at"} ${label}`,
      () => go.open(x.id)));
    if (x.number) buttons.append(action("Play again", `Play ${label} again`, () => go.again(x.game, x.number)));
    return [titleOf(x.game), deal, String(x.moves), result + (x.assisted ? " (Solve helped)" : ""),
      when(x.updated), buttons];
  });
  open("Your games", table("Your games, latest first", ["Game", "Deal", "Moves", "Result", "Last played", ""], rows));
}

// ``go``: {daily(game, started)}
export async function showDaily(go) {
  const days = await load("/api/daily");
  if (!days) return;
  const rows = days.map((d) => {
    const buttons = el("span", "buttons");
    const started = d.result !== "not played";
    const verb = d.result === "in play" ? "Resume" : started ? "Look" : "Play";
    buttons.append(action(verb, `${verb} the daily ${d.title} of ${d.day}`, () => go.daily(d.game, started)));
    if (d.line_shown) {
      buttons.append(action("Solver's line", `The solver's line for the daily ${d.title}`,
        () => showLine(d)));
    }
    return [d.title, d.day, d.result, buttons];
  });
  open("Daily deals", el("p", "", "One deal a day for each game, the same for everyone, " +
    "which the solver has won. A new one starts at midnight UTC."),
  table("Today's daily deals", ["Game", "Day (UTC)", "Your result", ""], rows));
}

async function showLine(d) {
  const line = await load(`/api/daily/${encodeURIComponent(d.game)}/line`);
  if (!line) return;
  const pre = el("p", "line", line.moves.join(" "));
  open(`The solver's line: ${d.title}, ${d.day}`,
    el("p", "", `Deal ${line.number}, won in ${line.moves.length} moves:`), pre);
}
