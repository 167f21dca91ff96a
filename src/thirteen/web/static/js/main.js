// thirteen: the page. It draws what the server sends and sends moves back in the project
// notation; every rule lives on the server, which also lists the legal moves that the page
// highlights. No build step, no libraries: api.js talks to the server, draw.js draws the
// board, input.js reads the player's hands, play.js plays the game on the table, and this
// module deals games, follows the browser's history and starts it all.

import { api, queued } from "./api.js";
import { showDaily, showGames, showRules, showStats } from "./dialogs.js";
import { $, announce, el, say, squeeze } from "./draw.js";
import { bindInput } from "./input.js";
import {
  cancel, catchUp, closeGame, drop, here, hint, home, pick, replaying, send, setGame, showError,
  skipReplay, solve, step,
} from "./play.js";
import { acted, state, variantOf } from "./state.js";
import { setTimerHidden, tick } from "./status.js";

const POLL = 15000; // ms: how often an open page checks that no other tab moved its game on
let search = null; // the AbortController of a deal search in flight

// ---- leaving a game ------------------------------------------------------------------------
// What leaving the game means is the server's answer (``leaving``): "ask" (it would count as
// lost: only once the player says so), "lost" (stuck: it counts, nothing to ask) or "free".
// True: leave (the answer goes with the new deal); false: nothing to leave; null: stay.
function leaving(question) {
  const g = state.game;
  if (!g || g.leaving === "free") return false;
  if (g.leaving === "lost") return true;
  return window.confirm(question || "Leave this game? It counts as lost in your statistics.") ? true : null;
}

// Any act of the player: slower answers from before it no longer apply, a deal search stops,
// Solve's line jumps to its end.
function onActed() {
  acted();
  skipReplay();
  if (search) {
    search.abort();
    search = null;
    delete document.body.dataset.searching;
    say("", null);
  }
}

// ---- dealing -------------------------------------------------------------------------------
function tableGame() {
  return state.game ? state.game.game : $("game-select").value;
}

// The options for the next deal: the controls', for a game that takes options (the server
// refuses them for the others).
function chosenOptions(name) {
  const v = variantOf(name);
  if (!v || !Object.keys(v.options).length) return {};
  return { worry_back: $("opt-worry-back").checked, foundations: $("opt-foundations").value };
}

async function deal(body, leave) {
  const data = await send("POST", "/api/games", { ...body, leave });
  if (!data) return;
  setGame(data, { push: true });
  announce(`${data.title}, ${data.number ? `deal ${data.number}` : "your deal"}.` +
    (data.message ? ` ${data.message}` : ""));
}

async function newDeal(number, again) {
  const name = again || tableGame();
  const body = { game: name, options: chosenOptions(name) };
  if (number) body.number = String(number);
  else if ($("difficulty").value) body.difficulty = $("difficulty").value;
  if (body.difficulty) { await findDeal(body); return; }
  const leave = leaving();
  if (leave !== null) await deal(body, leave);
}

// A deal the solver picks can take seconds. It leaves the game on the table unfinished (it
// stays in Your games), and it is dropped if the player does anything before it comes.
async function findDeal(body) {
  const controller = new AbortController();
  search = controller;
  const epoch = state.epoch;
  document.body.dataset.searching = "1";
  const kind = body.difficulty;
  say(`Looking for ${kind === "easy" ? "an" : "a"} ${kind} deal… (any key or click stops it)`, here());
  let data = null;
  try {
    data = await api("POST", "/api/games", { ...body, leave: false }, controller.signal);
  } catch (e) {
    if (!controller.signal.aborted && epoch === state.epoch) showError(e.message);
  } finally {
    if (search === controller) { search = null; delete document.body.dataset.searching; }
  }
  if (!data || controller.signal.aborted || epoch !== state.epoch) return;
  setGame(data, { push: true });
  announce(`${data.title}, deal ${data.number}. ${data.message || ""}`);
}

async function dealBoard(text, leave) {
  const name = tableGame();
  let data = null;
  try {
    data = await api("POST", "/api/games", { game: name, board: text, options: chosenOptions(name), leave });
  } catch (e) {
    return e.message;
  }
  state.typedBoard = { game: name, text };
  setGame(data, { push: true });
  announce(`${data.title}, your deal.`);
  return null;
}

// ``started``: the player's game of it exists, so nothing is left: it is resumed.
async function playDaily(name, started) {
  const leave = started ? false : leaving();
  if (leave === null) return;
  const data = await send("POST", `/api/daily/${encodeURIComponent(name)}`, { leave });
  if (data) setGame(data, { push: true });
}

// ---- options -------------------------------------------------------------------------------
// A changed option deals the same cards again under the new rules, once the player agrees
// where that would leave a game in progress; else it applies from the next deal.
function optionChanged() {
  onActed();
  const g = state.game;
  if (!g) return;
  const options = chosenOptions(g.game);
  const again = g.number || (state.typedBoard && state.typedBoard.game === g.game);
  const later = () => {
    state.chosen = { game: g.game, options };
    say("The options apply from your next deal.", here());
  };
  if (!again) { later(); return; }
  const leave = leaving("Deal these cards again with the new options? This game counts as lost " +
    "in your statistics. (Cancel: the options apply from your next deal.)");
  if (leave === null) { later(); return; }
  if (g.number) deal({ game: g.game, number: g.number, options }, leave);
  else dealBoard(state.typedBoard.text, leave);
}

// ---- the browser's history: each entry is one of the player's games ------------------------
async function load(path, method, body) {
  try {
    return await queued(method || "GET", path, body);
  } catch (e) {
    return e;
  }
}

async function route() {
  const id = history.state && history.state.id;
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  let data = null;
  if (id) data = await load(`/api/games/${id}`);
  if (!data || data instanceof Error) {
    if (parts[0] === "play" && parts[1]) {
      const body = { game: parts[1], resume: true };
      if (parts[2]) body.number = parts[2];
      data = await load("/api/games", "POST", body);
    } else if (parts[0] === "game") {
      data = /^\d{1,18}$/.test(parts[1] || "") ? await load(`/api/games/${parts[1]}`)
        : new Error(`“${parts[1] || ""}” is not a game number`);
    } else {
      data = await load("/api/games/current");
      if (data instanceof Error) data = await load("/api/games", "POST", { game: "bakers-dozen", resume: true });
    }
  }
  if (!(data instanceof Error)) { setGame(data); return; }
  // A link to no game of this player's: say so; the game menu and New deal still work.
  state.game = null;
  $("board").replaceChildren();
  $("new-deal").disabled = false;
  say(`${data.message}. Pick a game and press New deal.`, "", true);
  document.body.dataset.status = "none";
}

// Another tab (or window) may have played on: check when this one comes back into view, and
// now and then while it is in view.
function refresh() {
  if (!document.hidden && !search) catchUp(false);
}

// ---- the buttons and the keys ----------------------------------------------------------------
function action(name) {
  if (name === "skip") { skipReplay(); return; }
  if (replaying()) return;
  if (name === "new") newDeal();
  else if (name === "hint") hint();
  else if (name === "solve") solve();
  else step(name);
}

function bindControls() {
  $("banner").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-action]");
    if (!b) return;
    if (b.dataset.action !== "skip") onActed();
    action(b.dataset.action);
  });
  for (const [id, name] of [["undo", "undo"], ["redo", "redo"], ["restart", "restart"],
    ["hint", "hint"], ["auto-finish", "auto"], ["solve", "solve"], ["new-deal", "new"]]) {
    $(id).addEventListener("click", () => { onActed(); action(name); });
  }
  $("rules-button").addEventListener("click", showRules);
  $("stats-button").addEventListener("click", showStats);
  const go = {
    open: (id) => { onActed(); history.pushState({ id }, "", `/game/${id}`); route(); },
    again: (game, number) => { onActed(); newDeal(number, game); },
    daily: (game, started) => { onActed(); playDaily(game, started); },
  };
  $("games-button").addEventListener("click", () => showGames(go));
  $("daily-button").addEventListener("click", () => showDaily(go));
  $("opt-worry-back").addEventListener("change", optionChanged);
  $("opt-foundations").addEventListener("change", optionChanged);
  $("board-button").addEventListener("click", () => {
    const v = variantOf(tableGame());
    $("board-game").textContent = v ? v.title : "";
    $("board-error").textContent = "";
    $("board-dialog").showModal();
    $("board-text").focus();
  });
  $("board-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (e.submitter && e.submitter.value === "cancel") { $("board-dialog").close(); return; }
    const text = $("board-text").value;
    if (!text.trim()) { $("board-error").textContent = "Type or paste a deal first."; return; }
    $("board-error").textContent = "";
    onActed();
    const leave = leaving();
    if (leave === null) return;
    const error = await dealBoard(text, leave);
    if (error) $("board-error").textContent = error;
    else $("board-dialog").close();
  });
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    onActed();
    const text = $("deal-number").value.trim();
    if (!/^\d{1,20}$/.test(text)) { showError("A deal number is a whole number of at most 20 digits."); return; }
    newDeal(text);
  });
  $("game-select").addEventListener("change", async (e) => {
    onActed();
    history.pushState(null, "", `/play/${encodeURIComponent(e.target.value)}`);
    await route();
  });
}

function bindSettings() {
  $("auto-moves").checked = localStorage.getItem("thirteen.auto") === "1";
  const wanted = localStorage.getItem("thirteen.difficulty") || "";
  if ([...$("difficulty").options].some((o) => o.value === wanted)) $("difficulty").value = wanted;
  setTimerHidden(localStorage.getItem("thirteen.timer") === "hidden");
  $("auto-moves").addEventListener("change", (e) => {
    localStorage.setItem("thirteen.auto", e.target.checked ? "1" : "0");
  });
  $("difficulty").addEventListener("change", (e) => {
    localStorage.setItem("thirteen.difficulty", e.target.value);
  });
  $("timer-toggle").addEventListener("click", () => {
    const hidden = !$("timer").classList.contains("hidden");
    localStorage.setItem("thirteen.timer", hidden ? "hidden" : "shown");
    setTimerHidden(hidden);
  });
}

async function start() {
  bindSettings();
  bindControls();
  bindInput({ acted: onActed, pick, drop, home, cancel, action, rules: showRules });
  window.addEventListener("popstate", () => { onActed(); route(); });
  // leaving ends the sitting (`closeGame`); come back to from the browser's cache, the page
  // reads its game again, which opens it
  window.addEventListener("pagehide", () => closeGame(state.game, true));
  window.addEventListener("pageshow", (e) => { if (e.persisted) route(); });
  window.addEventListener("resize", squeeze);
  window.addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", refresh);
  setInterval(refresh, POLL);
  setInterval(tick, 1000);
  try {
    state.variants = await api("GET", "/api/variants");
  } catch (e) {
    showError(`Cannot reach the server: ${e.message}`);
    return;
  }
  const select = $("game-select");
  for (const v of state.variants) {
    const o = el("option", "", v.title);
    o.value = v.name;
    select.append(o);
  }
  await route();
  document.body.dataset.ready = "1";
}

start();
