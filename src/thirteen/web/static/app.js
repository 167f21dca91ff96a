// thirteen: the page. It draws what the server sends and sends moves back in the project
// notation; every rule lives on the server, which also lists the legal moves that the page
// highlights. No build step, no libraries.
(() => {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SUIT_NAMES = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
  const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const CARD = /^[A2-9TJQK][CSHD]$/;

  let G = null; // the server's last answer for the game on the table
  let variants = []; // the games, with their rules
  let sel = null; // the picked source: {from, count}
  let drag = null;
  let suppressClick = false;
  let lastPlayAt = 0;
  let clickPlayed = false; // a click of the current click sequence played a move
  let respondedAt = 0;
  let doomedPly = null; // the ply at which the solver proved that no winning line remains
  let analysisTimer = 0;
  let queue = Promise.resolve();
  let pending = 0;
  let typedBoard = null; // the last typed-in deal, to deal again when an option changes

  // ---- talking to the server --------------------------------------------------------------
  async function api(method, path, body) {
    const opts = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (!r.ok) {
      const err = new Error((data && typeof data.detail === "string" && data.detail) ||
        `${r.status} ${r.statusText}`);
      err.status = r.status;
      throw err;
    }
    return data;
  }

  // Requests run one after another, in the order the player made them.
  function request(method, path, body) {
    pending += 1;
    document.body.dataset.busy = "1";
    const p = queue.then(() => api(method, path, body));
    queue = p.catch(() => undefined);
    return p.then(
      (data) => { clearMessage(); return data; },
      (err) => { showError(err.message); return null; },
    ).finally(() => {
      pending -= 1;
      if (!pending) delete document.body.dataset.busy;
    });
  }

  // ---- words --------------------------------------------------------------------------------
  function cardName(code) {
    if (!code) return "a face-down card";
    return `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]]}`;
  }

  function pileName(id) {
    let m;
    if (id === "s") return "the stock";
    if ((m = /^c(\d+)$/.exec(id))) return `column ${m[1]}`;
    if ((m = /^w(\d+)$/.exec(id))) return `waste pile ${m[1]}`;
    if ((m = /^f([CSHD])$/.exec(id))) return `the ${SUIT_NAMES[m[1]]} foundation`;
    if ((m = /^k([CSHD])$/.exec(id))) return `the ${SUIT_NAMES[m[1]]} king foundation`;
    if ((m = /^f(\d+)$/.exec(id))) return `foundation ${m[1]}`;
    if (id === "f" || id === "fa" || id === "fk") return "its foundation";
    return id;
  }

  function fmtTime(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
  }

  let liveTimer = 0;
  function announce(text) {
    const live = $("live");
    live.textContent = "";
    clearTimeout(liveTimer);
    liveTimer = setTimeout(() => { live.textContent = text; }, 40);
  }

  function say(text) {
    const m = $("message");
    m.classList.remove("error");
    m.textContent = text;
    announce(text);
  }

  function showError(text) {
    const m = $("message");
    m.classList.add("error");
    m.textContent = text;
    announce(text);
  }

  function clearMessage() {
    const m = $("message");
    if (m.classList.contains("error")) { m.textContent = ""; m.classList.remove("error"); }
  }

  // ---- views of the position ---------------------------------------------------------------
  function topCodes(pile, count) {
    const v = G.view;
    let cards = [];
    let m;
    if (pile === "s") cards = v.stock_top ? [v.stock_top] : [];
    else if ((m = /^c(\d+)$/.exec(pile))) cards = v.columns[m[1] - 1];
    else if ((m = /^w(\d+)$/.exec(pile))) cards = v.waste[m[1] - 1];
    else {
      const f = v.foundations.find((x) => x.name === pile);
      cards = f ? f.cards : [];
    }
    return cards.slice(Math.max(0, cards.length - count));
  }

  function describe(m) {
    const codes = topCodes(m.from, m.count);
    const what = m.count > 1 ? `${m.count} cards from ${cardName(codes[0])}` : cardName(codes[0]);
    return `${what} from ${pileName(m.from)} to ${pileName(m.to)}`;
  }

  function movesFrom(pile, count) {
    return G.legal.filter((m) => m.from === pile && (count == null || m.count === count));
  }

  function counts(pile) {
    return [...new Set(movesFrom(pile).map((m) => m.count))].sort((a, b) => a - b);
  }

  // ---- drawing ------------------------------------------------------------------------------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function suitSvg(suit, cls) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", cls || "");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(SVG_NS, "use");
    use.setAttribute("href", `#suit-${suit}`);
    svg.appendChild(use);
    return svg;
  }

  function makeCard(code) {
    if (code === null || !CARD.test(code)) return el("div", "card back");
    const rank = code[0] === "T" ? "10" : code[0];
    const suit = code[1];
    const card = el("div", "card" + (suit === "H" || suit === "D" ? " red" : ""));
    card.dataset.card = code;
    const corner = el("div", "corner");
    corner.append(el("span", "rank", rank), suitSvg(suit));
    const other = corner.cloneNode(true);
    other.classList.add("br");
    card.append(corner, other);
    if ("JQK".includes(code[0])) card.append(el("span", "face", code[0]));
    else card.append(suitSvg(suit, "pip"));
    return card;
  }

  // A row of piles that the arrow keys move through; index orders the rows top to bottom.
  function group(cls, label, index) {
    const g = el("div", cls);
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", label);
    g.dataset.group = String(index);
    return g;
  }

  function makePile(id, cls, label) {
    const p = el("div", `pile ${cls}`);
    p.dataset.pile = id;
    p.tabIndex = 0;
    p.setAttribute("role", "button");
    p.setAttribute("aria-label", label);
    return p;
  }

  function placeholder(pile, content) {
    const label = el("div", "label");
    if (typeof content === "string" && /^[CSHD]$/.test(content)) label.append(suitSvg(content));
    else if (content) label.textContent = content;
    const empty = el("div", "empty");
    pile.append(empty, label);
  }

  function listCards(cards) {
    const up = cards.filter((c) => c !== null);
    const down = cards.length - up.length;
    const parts = [];
    if (down) parts.push(`${down} face down`);
    if (up.length) parts.push(up.map(cardName).join(", "));
    return parts.join(", ") || "empty";
  }

  function renderPacker(board) {
    const v = G.view;
    const n = v.columns.length;
    board.style.setProperty("--per-row-wide", String(n));
    board.style.setProperty("--per-row-narrow", String(Math.ceil(n / 2)));

    const row = group("row foundations", "Foundations", 0);
    for (const f of v.foundations) {
      const top = f.cards[f.cards.length - 1];
      const kind = f.name[0] === "k" ? "king foundation" : "foundation";
      const p = makePile(f.name, "foundation slot",
        `${pileName(f.name)}: ${top ? cardName(top) : "empty"}, ${f.cards.length} cards`);
      let m;
      if ((m = /^[fk]([CSHD])$/.exec(f.name))) placeholder(p, f.name[0] === "k" ? `K` : m[1]);
      else placeholder(p, "A");
      if (kind === "king foundation" && !top) p.querySelector(".label").append(suitSvg(f.name[1]));
      for (const c of f.cards.slice(-2)) p.append(makeCard(c));
      row.append(p);
    }
    board.append(row);

    const tableau = group("tableau", "Columns", 1);
    v.columns.forEach((col, i) => {
      const id = `c${i + 1}`;
      const p = makePile(id, "column", `Column ${i + 1}: ${listCards(col)}`);
      col.forEach((c, k) => {
        const card = makeCard(c);
        card.dataset.index = String(k);
        if (c !== null && movesFrom(id, col.length - k).length) card.classList.add("movable");
        p.append(card);
      });
      tableau.append(p);
    });
    board.append(tableau);
  }

  function renderCalculation(board) {
    const v = G.view;
    const nf = v.foundations.length;
    const width = Math.max(nf + (v.markers.length ? 2 : 0), v.waste.length + 2, 6);
    board.style.setProperty("--per-row-wide", String(width));
    board.style.setProperty("--per-row-narrow", "4");

    if (v.markers.length) {
      const mrow = el("div", "row markers-row");
      mrow.append(el("span", "group-label", "Markers"));
      const markers = el("div", "markers");
      markers.setAttribute("aria-label", `Markers (out of play): ${v.markers.map(cardName).join(", ")}`);
      markers.setAttribute("role", "note");
      for (const c of v.markers) {
        const m = el("div", "marker-card" + ("HD".includes(c[1]) ? " red" : ""));
        m.append(el("span", "", c[0] === "T" ? "10" : c[0]));
        markers.append(m);
      }
      mrow.append(markers);
      board.append(mrow);
    }

    const row = group("row top foundations", "Foundations", 0);
    for (const f of v.foundations) {
      const top = f.cards[f.cards.length - 1];
      const wrap = el("div", "stack");
      const needs = f.needs ? `needs ${f.needs === "T" ? "10" : f.needs}` : "complete";
      const p = makePile(f.name, "foundation slot",
        `${pileName(f.name)}, built by ${f.interval}: top ${top ? cardName(top) : "none"}, ${needs}`);
      placeholder(p, "");
      for (const c of f.cards.slice(-2)) p.append(makeCard(c));
      const cap = el("div", "caption");
      cap.append(document.createTextNode(`+${f.interval} · `));
      const b = el("b", "", f.needs ? `next ${f.needs === "T" ? "10" : f.needs}` : "done");
      cap.append(b);
      wrap.append(p, cap);
      row.append(wrap);
    }
    board.append(row);

    const mid = group("row stock-row", "Stock", 1);
    const more = Math.max(0, v.stock_left - 1);
    const rest = el("div", "stack");
    const back = el("div", "pile slot stock-rest");
    back.setAttribute("aria-hidden", "true");
    placeholder(back, "");
    if (more > 0) back.append(makeCard(null));
    rest.append(back, el("div", "caption stock-count", `${more} face down`));
    const wrap = el("div", "stack");
    const s = makePile("s", "stock slot",
      v.stock_top ? `Stock: turned card ${cardName(v.stock_top)}, ${more} more face down`
        : "Stock: empty");
    placeholder(s, "");
    if (v.stock_top) {
      const card = makeCard(v.stock_top);
      if (movesFrom("s", 1).length) card.classList.add("movable");
      s.append(card);
    }
    wrap.append(s, el("div", "caption", v.stock_top ? "turned card" : "stock out"));
    mid.append(rest, wrap);
    board.append(mid);

    const wrow = group("row waste-row", "Waste piles", 2);
    v.waste.forEach((pile, i) => {
      const id = `w${i + 1}`;
      const wrapW = el("div", "stack");
      const p = makePile(id, "waste fan", `Waste pile ${i + 1}: ${listCards(pile)}`);
      pile.forEach((c, k) => {
        const card = makeCard(c);
        card.dataset.index = String(k);
        if (k === pile.length - 1 && movesFrom(id, 1).length) card.classList.add("movable");
        p.append(card);
      });
      wrapW.append(p, el("div", "caption", `w${i + 1}`));
      wrow.append(wrapW);
    });
    board.append(wrow);
  }

  function pileEl(id) {
    return $("board").querySelector(`.pile[data-pile="${CSS.escape(id)}"]`);
  }

  function topCardEls(id, count) {
    const p = pileEl(id);
    if (!p) return [];
    const cards = [...p.querySelectorAll(":scope > .card")];
    return cards.slice(Math.max(0, cards.length - count));
  }

  function render(moved) {
    const board = $("board");
    const focused = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest("#board .pile");
    const focusId = focused ? focused.dataset.pile : null;
    board.replaceChildren();
    board.className = `board ${G.family}`;
    if (G.family === "packer") renderPacker(board);
    else renderCalculation(board);
    for (const id of moved || []) {
      const cards = topCardEls(id, 1);
      if (cards.length) cards[0].classList.add("moved");
    }
    if (focusId) {
      const p = pileEl(focusId);
      if (p) p.focus({ preventScroll: true });
    }
    highlight();
    updateControls();
    updateBanner();
    updateStats();
    tick();
  }

  function highlight() {
    const board = $("board");
    for (const e of board.querySelectorAll(".selected, .target")) {
      e.classList.remove("selected", "target");
    }
    if (!sel) return;
    for (const c of topCardEls(sel.from, sel.count)) c.classList.add("selected");
    for (const m of movesFrom(sel.from, sel.count)) {
      const p = pileEl(m.to);
      if (p) p.classList.add("target");
    }
  }

  function clearHints() {
    for (const e of $("board").querySelectorAll(".hinted, .hinted-target")) {
      e.classList.remove("hinted", "hinted-target");
    }
  }

  function updateControls() {
    const inPlay = G && G.status === "in play";
    $("undo").disabled = !G || !G.moves.length;
    $("redo").disabled = !G || !G.redo;
    $("restart").disabled = !G || !G.moves.length;
    $("hint").disabled = !inPlay;
    $("auto-finish").disabled = !inPlay;
    $("solve").disabled = !inPlay;
    $("new-deal").disabled = !G;
    if (G) {
      const name = `${G.title} · ${G.number ? `deal ${G.number}` : "your deal"}`;
      $("deal-title").textContent = name;
      document.title = `${name} · thirteen`;
      const select = $("game-select");
      if (select.value !== G.game) select.value = G.game;
    }
  }

  function updateBanner() {
    const b = $("banner");
    b.className = "banner";
    b.replaceChildren();
    if (!G) { b.hidden = true; return; }
    const button = (action, text) => {
      const e = el("button", "", text);
      e.type = "button";
      e.dataset.action = action;
      return e;
    };
    if (G.status === "won") {
      b.classList.add("won");
      const won = G.assisted ? "Won with Solve's help (counted apart from your own wins)."
        : "You won!";
      b.append(`${won} ${G.moves.length} moves in ${fmtTime(G.elapsed)}.`, button("new", "New deal"));
    } else if (G.status === "lost") {
      b.classList.add("lost");
      b.append("No moves left.", button("undo", "Undo"), button("new", "New deal"));
    } else if (doomedPly !== null && doomedPly === G.moves.length) {
      b.classList.add("doomed");
      b.append("No winning line remains.");
      if (G.moves.length) b.append(button("undo", "Undo"));
      b.append(button("new", "New deal"));
    } else {
      b.hidden = true;
      return;
    }
    b.hidden = false;
  }

  function updateStats() {
    const s = G && G.stats;
    const box = $("stats");
    box.replaceChildren();
    if (!s) return;
    const item = (label, value) => {
      const span = el("span", "", `${label} `);
      span.append(el("b", "", String(value)));
      box.append(span);
    };
    box.append(el("span", "", `${G.title}:`));
    item("Played", s.played);
    item("Won", `${s.won} (${Math.round(100 * s.win_rate)}%)`);
    item("Won with Solve", s.assisted);
    item("Lost", s.lost);
    item("Streak", `${s.current_streak} (best ${s.best_streak})`);
    item("Best time", s.best_time == null ? "–" : fmtTime(s.best_time));
    item("Fewest moves", s.fewest_moves == null ? "–" : s.fewest_moves);
    item("Hints", s.hints);
  }

  function tick() {
    if (!G) return;
    let t = G.elapsed;
    if (G.status === "in play" && G.moves.length) {
      t += Math.min(G.since + (performance.now() - respondedAt) / 1000, G.idle_cap);
    }
    $("timer").textContent = fmtTime(t);
  }

  // ---- the game on the table ---------------------------------------------------------------
  function setGame(data, opts) {
    opts = opts || {};
    const same = G && G.id === data.id;
    G = data;
    respondedAt = performance.now();
    sel = null;
    if (!same) doomedPly = null;
    if (location.pathname !== data.url) {
      if (opts.push) history.pushState(null, "", data.url);
      else history.replaceState(null, "", data.url);
    }
    render(opts.moved);
    showOptions();
    document.body.dataset.ply = String(G.moves.length);
    document.body.dataset.status = G.status;
    document.body.dataset.game = String(G.id);
    if (G.message) say(G.message);
    scheduleAnalysis();
  }

  function statusWords() {
    if (G.status === "won" && G.assisted) return ` Won with Solve's help in ${G.moves.length} moves.`;
    if (G.status === "won") return ` You won in ${G.moves.length} moves!`;
    if (G.status === "lost") return " No moves left.";
    return "";
  }

  function scheduleAnalysis() {
    clearTimeout(analysisTimer);
    if (!G || G.status !== "in play") return;
    const id = G.id, ply = G.moves.length;
    analysisTimer = setTimeout(async () => {
      let a = null;
      try { a = await api("GET", `/api/games/${id}/analysis`); } catch (e) { return; }
      if (!G || G.id !== id || G.moves.length !== ply || !a) return;
      if (a.verdict === "unsolvable") {
        doomedPly = ply;
        updateBanner();
        announce("No winning line remains.");
      }
    }, 450);
  }

  async function play(m) {
    const words = describe(m);
    sel = null;
    highlight();
    lastPlayAt = Date.now();
    const auto = $("auto-moves").checked;
    const data = await request("POST", `/api/games/${G.id}/moves`, { move: m.move, auto });
    if (!data) return;
    setGame(data, { moved: [m.to] });
    let text = `Moved ${words}.`;
    const extra = data.played.length - 1;
    if (extra > 0) text += ` Then ${extra} safe ${extra === 1 ? "move" : "moves"} to the foundations.`;
    announce(text + statusWords());
  }

  async function action(name) {
    if (!G) return;
    clearHints();
    if (name === "new") return newDeal();
    if (name === "hint") return hint();
    const paths = { undo: "undo", redo: "redo", restart: "restart", auto: "auto", solve: "solve" };
    if (!paths[name]) return;
    if ((name === "undo" || name === "restart") && !G.moves.length) return;
    if (name === "redo" && !G.redo) return;
    const data = await request("POST", `/api/games/${G.id}/${paths[name]}`);
    if (!data) return;
    setGame(data);
    const words = {
      undo: "Move taken back.", redo: `Redid ${data.played[0] || "a move"}.`,
      restart: "Back to the deal; Redo replays the moves.",
      auto: data.played.length ? `Played ${data.played.length} moves to the foundations.`
        : "Nothing to play automatically.",
      solve: `Solve ${data.message}; Undo takes them back one by one.`,
    }[name];
    announce(words + statusWords());
  }

  async function hint() {
    const id = G.id, ply = G.moves.length;
    say("Thinking…");
    let h = null;
    try { h = await api("GET", `/api/games/${id}/hint`); } catch (e) { showError(e.message); return; }
    if (!G || G.id !== id || G.moves.length !== ply) return;
    if (h.verdict === "unsolvable") { doomedPly = ply; updateBanner(); }
    if (!h.move) { say(h.message || "No hint."); return; }
    clearHints();
    const m = G.legal.find((x) => x.move === h.move) || h;
    if (m.from) for (const c of topCardEls(m.from, m.count || 1)) c.classList.add("hinted");
    if (m.to) { const p = pileEl(m.to); if (p) p.classList.add("hinted-target"); }
    const words = m.from ? describe(m) : h.move;
    say(`Hint: ${words}. ${h.message || ""}`.trim());
  }

  function variantOf(name) {
    return variants.find((x) => x.name === name);
  }

  // The options the controls set, for a game that takes options (the server refuses them
  // for the others).
  function chosenOptions(name) {
    const v = variantOf(name);
    if (!v || !Object.keys(v.options).length) return {};
    return { worry_back: $("opt-worry-back").checked, foundations: $("opt-foundations").value };
  }

  // The controls show the options of the game on the table.
  function showOptions() {
    const v = variantOf(G.game);
    const takes = Boolean(v && Object.keys(v.options).length);
    $("options").hidden = !takes;
    if (!takes) return;
    const value = (key) => (key in G.options ? G.options[key] : v.options[key]);
    $("opt-worry-back").checked = Boolean(value("worry_back"));
    $("opt-foundations").value = value("foundations");
  }

  // A changed option deals the same cards again under the new rules.
  function optionChanged() {
    if (G.number) newDeal(G.number);
    else if (typedBoard && typedBoard.game === G.game) dealBoard(typedBoard.text);
    else say("The options apply from the next deal.");
  }

  function openBoardDialog() {
    const v = variantOf(G ? G.game : $("game-select").value);
    $("board-game").textContent = v ? v.title : "";
    $("board-error").textContent = "";
    $("board-dialog").showModal();
    $("board-text").focus();
  }

  // Deal a typed-in board; the server checks it and says which line is wrong.
  // What leaving the game means is the server's answer (G.leaving): "ask" (it would count as
  // lost: only once the player says so), "lost" (stuck: it counts, nothing to ask) or "free".
  // The answer goes with the new deal (``leave``); null: the player stays.
  function leaving() {
    if (!G || G.leaving === "free") return false;
    if (G.leaving === "lost") return true;
    return window.confirm("Leave this game? It counts as lost in your statistics.") ? true : null;
  }

  async function dealBoard(text) {
    const name = G ? G.game : $("game-select").value;
    const leave = leaving();
    if (leave === null) return null;
    let data = null;
    try {
      data = await api("POST", "/api/games", { game: name, board: text, options: chosenOptions(name), leave });
    } catch (e) {
      return e.message;
    }
    typedBoard = { game: name, text };
    setGame(data, { push: true });
    announce(`${data.title}, your deal.`);
    return null;
  }

  async function newDeal(number) {
    const name = G ? G.game : $("game-select").value;
    const leave = leaving();
    if (leave === null) return;
    const body = { game: name, options: chosenOptions(name), leave };
    if (number) body.number = number;
    else if ($("difficulty").value) body.difficulty = $("difficulty").value;
    if (body.difficulty) say(`Looking for ${body.difficulty === "easy" ? "an" : "a"} ${body.difficulty} deal…`);
    const data = await request("POST", "/api/games", body);
    if (data) {
      setGame(data, { push: true });
      announce(`${data.title}, deal ${data.number}.` + (data.message ? ` ${data.message}` : ""));
    }
  }

  // ---- picking and moving cards ------------------------------------------------------------
  function select(from, count, quiet) {
    sel = { from, count };
    clearHints();
    highlight();
    if (quiet) return;
    const codes = topCodes(from, count);
    const what = count > 1 ? `${count} cards from ${cardName(codes[0])}` : cardName(codes[0]);
    const targets = movesFrom(from, count).map((m) => pileName(m.to));
    announce(`Picked ${what} from ${pileName(from)}. It can go to ${targets.join(", ")}.`);
  }

  function clearSel() {
    if (!sel) return;
    sel = null;
    highlight();
  }

  function countOf(pile, card) {
    if (!card || !card.dataset.index) return 1;
    const cards = pile.querySelectorAll(":scope > .card");
    return cards.length - Number(card.dataset.index);
  }

  // A pile was clicked or chosen with the keyboard; count is null when no card was named.
  function activate(pile, count, keyboard) {
    if (!G) return;
    if (sel) {
      if (sel.from === pile) {
        if (keyboard) {
          const next = counts(pile).find((c) => c > sel.count);
          if (next) { select(pile, next); return; }
        } else if (count && count !== sel.count && movesFrom(pile, count).length) {
          select(pile, count);
          return;
        }
        clearSel();
        announce("Cancelled.");
        return;
      }
      if (playTo(sel.from, sel.count, pile)) return;
    }
    const c = count || counts(pile)[0];
    if (c && movesFrom(pile, c).length) { select(pile, c); return; }
    const was = sel;
    clearSel();
    if (was) announce(`${pileName(pile)} cannot take that.`);
    else if (count) announce("That card has no move.");
  }

  // Play the picked cards onto a pile, if the server listed that move; false when it did not.
  // Clicks, the keyboard and drags all end here.
  function playTo(from, count, to) {
    const m = G.legal.find((x) => x.from === from && x.count === count && x.to === to);
    if (m) play(m);
    return Boolean(m);
  }

  function sendHome(pile) {
    if (!G) return false;
    const m = G.legal.find((x) => x.from === pile && x.home && x.count === 1);
    if (m) { play(m); return true; }
    announce(`Nothing from ${pileName(pile)} goes to a foundation now.`);
    return false;
  }

  function onClick(e) {
    if (suppressClick) { suppressClick = false; return; }
    const pile = e.target.closest(".pile");
    if (!pile) { clearSel(); return; }
    const card = e.target.closest(".card");
    const before = lastPlayAt;
    if (e.detail <= 1) clickPlayed = false;
    activate(pile.dataset.pile, card && !card.classList.contains("back") ? countOf(pile, card) : null, false);
    if (lastPlayAt !== before) clickPlayed = true;
  }

  function onDoubleClick(e) {
    const pile = e.target.closest(".pile");
    // A click of this double-click already played a move: do not play a second one.
    if (!pile || clickPlayed) return;
    e.preventDefault();
    clearSel();
    sendHome(pile.dataset.pile);
  }

  function onPointerDown(e) {
    if (e.button !== 0 || !G) return;
    const card = e.target.closest(".card");
    const pile = e.target.closest(".pile");
    if (!card || !pile || !card.classList.contains("movable") && !card.dataset.card) return;
    const count = countOf(pile, card);
    if (!movesFrom(pile.dataset.pile, count).length) return;
    drag = { pile: pile.dataset.pile, count, x0: e.clientX, y0: e.clientY, id: e.pointerId,
      active: false, els: [] };
  }

  function onPointerMove(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
    if (!drag.active) {
      if (Math.hypot(dx, dy) < 6) return;
      drag.active = true;
      select(drag.pile, drag.count, true);
      drag.els = topCardEls(drag.pile, drag.count);
      for (const c of drag.els) c.classList.add("dragging");
    }
    e.preventDefault();
    for (const c of drag.els) c.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  function endDrag(e, cancelled) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.active) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = cancelled ? null : document.elementFromPoint(e.clientX, e.clientY);
    for (const c of d.els) { c.classList.remove("dragging"); c.style.transform = ""; }
    const target = under && under.closest("#board .pile");
    if (target && playTo(d.pile, d.count, target.dataset.pile)) return;
    clearSel();
    if (target && target.dataset.pile !== d.pile) announce(`${pileName(target.dataset.pile)} cannot take that.`);
  }

  // ---- the keyboard ------------------------------------------------------------------------
  function groups() {
    return [...$("board").querySelectorAll("[data-group]")]
      .sort((a, b) => Number(a.dataset.group) - Number(b.dataset.group))
      .map((g) => [...g.querySelectorAll(".pile")]);
  }

  function moveFocus(from, key) {
    const gs = groups();
    const gi = gs.findIndex((g) => g.includes(from));
    if (gi < 0) return;
    const g = gs[gi];
    const i = g.indexOf(from);
    let target = null;
    if (key === "ArrowLeft") target = g[(i - 1 + g.length) % g.length];
    else if (key === "ArrowRight") target = g[(i + 1) % g.length];
    else {
      const ng = gs[(gi + (key === "ArrowDown" ? 1 : -1) + gs.length) % gs.length];
      const x = from.getBoundingClientRect().left;
      target = ng.reduce((best, p) =>
        Math.abs(p.getBoundingClientRect().left - x) < Math.abs(best.getBoundingClientRect().left - x) ? p : best,
      ng[0]);
    }
    if (target) target.focus();
  }

  function onBoardKey(e) {
    const pile = e.target.closest && e.target.closest(".pile");
    if (!pile) return;
    const id = pile.dataset.pile;
    switch (e.key) {
      case "Enter":
      case " ":
        e.preventDefault();
        activate(id, null, true);
        break;
      case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown":
        e.preventDefault();
        moveFocus(pile, e.key);
        break;
      case "f": case "F":
        e.preventDefault();
        e.stopPropagation();
        sendHome(id);
        break;
      case "Escape":
        if (sel) { clearSel(); announce("Cancelled."); }
        break;
      default:
    }
  }

  function onGlobalKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (document.querySelector("dialog[open]")) return;
    const map = { u: "undo", r: "redo", h: "hint", a: "auto", s: "solve", n: "new" };
    const k = e.key.toLowerCase();
    if (map[k]) { e.preventDefault(); action(map[k]); }
    else if (e.key === "?") { e.preventDefault(); showRules(); }
    else if (e.key === "Escape" && sel) { clearSel(); }
  }

  // ---- rules, routes and settings ----------------------------------------------------------
  function showRules() {
    const name = G ? G.game : $("game-select").value;
    const v = variantOf(name);
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
    $("rules-dialog").showModal();
  }

  async function route(push) {
    const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    let data = null;
    if (parts[0] === "play" && parts[1]) {
      const body = { game: parts[1], resume: true };
      if (parts[2]) body.number = parts[2];
      data = await request("POST", "/api/games", body);
    } else if (parts[0] === "game" && /^\d+$/.test(parts[1] || "")) {
      data = await request("GET", `/api/games/${parts[1]}`);
    } else {
      try {
        data = await api("GET", "/api/games/current");
      } catch (e) {
        data = await request("POST", "/api/games", { game: "bakers-dozen", resume: true });
      }
    }
    if (data) setGame(data, { push });
  }

  function loadSettings() {
    const auto = localStorage.getItem("thirteen.auto") === "1";
    $("auto-moves").checked = auto;
    const wanted = localStorage.getItem("thirteen.difficulty") || "";
    if ([...$("difficulty").options].some((o) => o.value === wanted)) $("difficulty").value = wanted;
    setTimerHidden(localStorage.getItem("thirteen.timer") === "hidden");
  }

  function setTimerHidden(hidden) {
    $("timer").classList.toggle("hidden", hidden);
    $("timer").setAttribute("aria-hidden", hidden ? "true" : "false");
    const b = $("timer-toggle");
    b.textContent = hidden ? "Show timer" : "Hide timer";
    b.setAttribute("aria-pressed", hidden ? "true" : "false");
  }

  async function start() {
    loadSettings();
    const board = $("board");
    board.addEventListener("click", onClick);
    board.addEventListener("dblclick", onDoubleClick);
    board.addEventListener("pointerdown", onPointerDown);
    board.addEventListener("keydown", onBoardKey);
    window.addEventListener("pointermove", onPointerMove, { passive: false });
    window.addEventListener("pointerup", (e) => endDrag(e, false));
    window.addEventListener("pointercancel", (e) => endDrag(e, true));
    document.addEventListener("keydown", onGlobalKey);
    window.addEventListener("popstate", () => route(false));
    $("banner").addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (b) action(b.dataset.action);
    });
    for (const [id, name] of [["undo", "undo"], ["redo", "redo"], ["restart", "restart"],
      ["hint", "hint"], ["auto-finish", "auto"], ["solve", "solve"], ["new-deal", "new"]]) {
      $(id).addEventListener("click", () => action(name));
    }
    $("rules-button").addEventListener("click", showRules);
    $("opt-worry-back").addEventListener("change", optionChanged);
    $("opt-foundations").addEventListener("change", optionChanged);
    $("board-button").addEventListener("click", openBoardDialog);
    $("board-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      if (e.submitter && e.submitter.value === "cancel") { $("board-dialog").close(); return; }
      const text = $("board-text").value;
      if (!text.trim()) { $("board-error").textContent = "Type or paste a deal first."; return; }
      $("board-error").textContent = "";
      const error = await dealBoard(text);
      if (error) $("board-error").textContent = error;
      else $("board-dialog").close();
    });
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
    $("deal-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("deal-number").value.trim();
      if (!/^\d{1,20}$/.test(text)) { showError("A deal number is a whole number of at most 20 digits."); return; }
      newDeal(text);
    });
    $("game-select").addEventListener("change", async (e) => {
      const name = e.target.value;
      history.pushState(null, "", `/play/${encodeURIComponent(name)}`);
      await route(false);
    });
    setInterval(tick, 1000);

    try {
      variants = await api("GET", "/api/variants");
    } catch (e) {
      showError(`Cannot reach the server: ${e.message}`);
      return;
    }
    const select = $("game-select");
    for (const v of variants) {
      const o = el("option", "", v.title);
      o.value = v.name;
      select.append(o);
    }
    await route(false);
    document.body.dataset.ready = "1";
  }

  start();
})();
