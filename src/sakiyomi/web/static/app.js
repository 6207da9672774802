// sakiyomi serve: the page.  The server keeps no games: this page holds the game's name, its
// start position and the moves played, and asks /api/state to check and draw them.  Searches
// run on the server and stream over the WebSocket /ws.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  game: null, start: "", moves: [], desc: null, selected: null,
  searchId: 0, searching: null, auto: true, socket: null, games: [],
  info: { updates: 0, firstUpdate: null, lastUpdate: null },
};
window.sakiyomi = ui;  // for tests and the curious: the page's state

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function say(text) { $("message").textContent = text || ""; }
// A move with its name when players write it otherwise: "e2e4 (e4)", "7g7f (▲７六歩)".
const named = (r) => (r.name && r.name !== r.move ? `${r.move} (${r.name})` : r.move);

// ---- the game ------------------------------------------------------------------------

async function setGame(game, start, moves) {
  try {
    const desc = await api("/api/state", { game, start, moves });
    // the server's texts: a move typed as players write it (Nf3, ７六歩) comes back in the
    // game's notation, as the board and the legal moves use it
    ui.game = game; ui.start = start; ui.moves = desc.moves; ui.desc = desc; ui.selected = null;
    say("");
    remember();
    render();
    afterChange();
    return true;
  } catch (error) {
    say(error.message);
    return false;
  }
}

// ---- the address: game, position, moves and players in the URL's fragment, so that a game
// can be bookmarked, reloaded or sent ("#game=chess&moves=e2e4+e7e5&second=human") ----------

function remember() {
  const info = ui.games.find((g) => g.name === ui.game);
  const fields = { game: ui.game };
  if (!info || ui.start !== info.start) fields.start = ui.start;
  if (ui.moves.length) fields.moves = ui.moves.join(" ");
  fields.first = $("first").value;
  fields.second = $("second").value;
  const hash = `#${new URLSearchParams(fields)}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

async function restore() {
  const fields = new URLSearchParams(location.hash.slice(1));
  const info = ui.games.find((g) => g.name === fields.get("game"));
  if (!info) return false;
  for (const side of ["first", "second"]) {
    if (["human", "cpu"].includes(fields.get(side))) $(side).value = fields.get(side);
  }
  stopSearch(false);
  resetInfo();
  $("game").value = info.name;
  const moves = (fields.get("moves") || "").split(" ").filter((m) => m);
  if (await setGame(info.name, fields.get("start") || info.start, moves)) return true;
  const problem = $("message").textContent;  // say what was wrong with the address, then
  await setGame(info.name, info.start, []);   // start the game afresh
  say(`the address's position was refused: ${problem}`);
  return true;
}

function playerKind(side) { return side === 0 ? $("first").value : $("second").value; }

function render() {
  const d = ui.desc;
  showBoard(d.board);
  $("first-name").textContent = d.players[0];
  $("second-name").textContent = d.players[1];
  const status = $("status");
  status.classList.toggle("over", !!d.outcome);
  status.textContent = d.outcome ? `Game over: ${d.outcome}` :
    `${d.to_move_name} to move (${playerKind(d.to_move) === "cpu" ? "computer" : "you"})`;
  $("position").value = d.position;
  $("notation").textContent = `notation: ${d.notation}`;
  const list = $("move-list");
  list.innerHTML = "";
  d.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = named({ move: m, name: d.names[i] });  // e2e4 (e4)
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
  const extra = d.legal.filter((m) => !boardHas(m));
  const choices = $("choices");
  choices.innerHTML = "";
  extra.filter((m) => m === "pass").forEach((m) => addChoice(m, m));
  $("analysis").innerHTML = "";
}

function showBoard(svg) {
  const box = $("board");
  box.innerHTML = svg;
  box.querySelectorAll("[data-cell]").forEach((el) =>
    el.addEventListener("click", () => tryMove(el.dataset.cell)));
  box.querySelectorAll("[data-sq]").forEach((el) =>
    el.addEventListener("click", () => clickSquare(el.dataset.sq)));
  if (ui.selected) markSelection();
}

function boardHas(move) {
  const d = ui.desc;
  if (d.select === "fromto") return true;
  return !!$("board").querySelector(`[data-cell="${CSS.escape(move)}"]`);
}

function addChoice(label, move) {
  const b = document.createElement("button");
  b.textContent = label;
  b.addEventListener("click", () => tryMove(move));
  $("choices").appendChild(b);
}

function clickSquare(sq) {
  const legal = ui.desc.legal;
  if (ui.selected === null || ui.selected === sq) {
    if (ui.selected === sq) { ui.selected = null; markSelection(); return; }
    if (legal.some((m) => m.startsWith(sq))) { ui.selected = sq; markSelection(); say(""); }
    else say(ui.desc.outcome ? "the game is over" : `nothing on ${sq} can move now`);
    return;
  }
  const from = ui.selected;
  const matches = legal.filter((m) => m.startsWith(from + sq));
  if (matches.length === 0 && legal.some((m) => m.startsWith(sq))) {
    ui.selected = sq; markSelection(); return;
  }
  ui.selected = null;
  markSelection();
  if (matches.length <= 1) { tryMove(matches[0] || from + sq); return; }
  $("choices").innerHTML = "";  // a promotion: let the player choose
  matches.forEach((m) => addChoice(m, m));
  say("choose the move");
}

function markSelection() {
  const box = $("board");
  box.querySelectorAll(".selected, .target").forEach((el) => el.classList.remove("selected", "target"));
  if (!ui.selected) return;
  const sel = box.querySelector(`[data-sq="${CSS.escape(ui.selected)}"]`);
  if (sel) sel.classList.add("selected");
  ui.desc.legal.filter((m) => m.startsWith(ui.selected)).forEach((m) => {
    const t = box.querySelector(`[data-sq="${CSS.escape(m.slice(2, 4))}"]`);
    if (t) t.classList.add("target");
  });
}

async function tryMove(text, byComputer = false) {
  if (!byComputer && ui.searching && ui.searching !== "analyze") {
    say("the computer is thinking: press Stop first"); return;
  }
  if (!byComputer && ui.desc && !ui.desc.outcome && playerKind(ui.desc.to_move) === "cpu") {
    say("it is the computer's turn"); return;
  }
  stopSearch(false);
  const ok = await setGame(ui.game, ui.start, [...ui.moves, text]);
  if (!ok) say(`refused: ${$("message").textContent}`);
  return ok;
}

function afterChange() {
  const d = ui.desc;
  if (d.outcome) return;
  if (playerKind(d.to_move) === "cpu") {
    if (ui.auto) setTimeout(() => { if (ui.desc === d && !ui.searching) startSearch("move"); }, 250);
  } else if ($("analyze-every").checked) {
    startSearch("analyze");
  }
}

function resetInfo() {
  ["depth", "score", "pv", "nodes", "nps", "hashfull", "time", "engine"].forEach((k) => { $(`info-${k}`).textContent = "–"; });
  $("info-state").textContent = "idle";
}

function newGame() {
  stopSearch(false);
  resetInfo();
  ui.auto = true;
  const game = $("game").value;
  const info = ui.games.find((g) => g.name === game);
  setGame(game, info.start, []);
}

function undo() {
  stopSearch(false);
  if (!ui.moves.length) return;
  let moves = ui.moves.slice(0, -1);
  const side = (ui.desc.to_move + 1) % 2;  // who played the move taken back
  const human = [0, 1].filter((s) => playerKind(s) === "human");
  if (human.length === 1 && side !== human[0] && moves.length) moves = moves.slice(0, -1);
  if (human.length === 0) ui.auto = false;
  setGame(ui.game, ui.start, moves);
}

// ---- searching ---------------------------------------------------------------------------

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    $("connection").classList.add("up");
    ui.socket = socket;
    if (ui.desc && !ui.searching) afterChange();  // a turn that came before the connection
  });
  socket.addEventListener("close", () => {
    $("connection").classList.remove("up"); ui.socket = null; ui.searching = null; buttons();
    setTimeout(connect, 1000);
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
}

function limits() {
  const value = parseFloat($("limit-value").value);
  if (!(value > 0)) return {};
  return $("limit-kind").value === "depth" ? { depth: Math.max(1, Math.round(value)) } : { seconds: value };
}

function startSearch(kind) {
  if (!ui.socket || !ui.desc || ui.desc.outcome) return;  // (re)connecting calls afterChange
  if (ui.searching) stopSearch(false);
  ui.searchId += 1;
  ui.searching = kind;
  ui.info = { updates: 0, firstUpdate: null, lastUpdate: null, started: performance.now() };
  const extra = kind === "think" ? {} : limits();
  if (kind !== "analyze") $("analysis").innerHTML = "";
  ui.socket.send(JSON.stringify({ op: "search", id: ui.searchId, kind, game: ui.game,
                                  start: ui.start, moves: ui.moves, ...extra }));
  $("info-state").textContent = kind === "move" ? "computer is thinking…" :
    kind === "analyze" ? "analyzing every move…" : "thinking…";
  buttons();
}

function stopSearch(pause = true) {
  if (ui.searching && ui.socket) ui.socket.send(JSON.stringify({ op: "stop" }));
  if (pause) ui.auto = false;
  if (!pause) { ui.searchId += 1; ui.searching = null; }
  buttons();
}

function buttons() {
  $("stop").disabled = !ui.searching;
  $("think").disabled = !!ui.searching;
  $("cpu-move").disabled = !!ui.searching;
}

const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : n);

function onMessage(m) {
  if (m.type === "error") { say(m.message); if (m.id === ui.searchId) { ui.searching = null; buttons(); } return; }
  if (m.id !== ui.searchId) return;  // a message of a search that was replaced
  const now = performance.now();
  ui.info.updates += 1;
  if (ui.info.firstUpdate === null) ui.info.firstUpdate = now;
  ui.info.lastUpdate = now;
  if (m.type === "progress" || m.type === "info" || m.type === "done") {
    if (m.nodes !== undefined) $("info-nodes").textContent = fmt(m.nodes);
    if (m.nps !== undefined) $("info-nps").textContent = fmt(m.nps);
    if (m.hashfull !== undefined) $("info-hashfull").textContent = `${(m.hashfull / 10).toFixed(1)} %`;
    if (m.seconds !== undefined) $("info-time").textContent = `${m.seconds.toFixed(1)} s`;
    if (m.engine !== undefined) $("info-engine").textContent = m.engine;
  }
  if (m.type === "info") {
    $("info-depth").textContent = m.depth;
    $("info-score").textContent = m.score;
    $("info-pv").textContent = (m.pv_names || m.pv).join(" ");  // as players write moves
    if (m.board) showBoard(m.board);
  } else if (m.type === "analysis") {
    $("info-depth").textContent = `${m.depth}${m.exact ? " (exact)" : ""}`;
    $("info-score").textContent = m.moves.length ? `${m.moves[0].score} (${named(m.moves[0])})` : "–";
    $("info-pv").textContent = m.moves.length ? m.moves[0].pv_names.join(" ") : "–";
    showBoard(m.board);
    const table = $("analysis");
    table.innerHTML = "<tr><th>move</th><th>value</th><th>line</th></tr>" + m.moves.map((r) =>
      `<tr><td>${named(r)}</td><td>${r.score}</td><td>${r.pv_names.join(" ")}</td></tr>`).join("");
  } else if (m.type === "done") {
    ui.searching = null;
    buttons();
    $("info-state").textContent = m.stopped ? "stopped" : "done";
    if (m.total_nodes !== undefined) $("info-nodes").textContent = fmt(m.total_nodes);
    if (m.kind === "move" && m.best && !m.stopped) tryMove(m.best, true);
  }
}

// ---- the tree view ------------------------------------------------------------------------

const tree = { events: [], step: 0 };

async function record(game, position, algorithm, depth) {
  $("t-game").value = game; $("t-position").value = position;
  $("t-algorithm").value = algorithm; $("t-depth").value = depth || "";
  $("t-message").textContent = "recording…";
  try {
    const body = { game, position, algorithm };
    if (depth) body.depth = parseInt(depth, 10);
    const r = await api("/api/trace", body);
    $("t-message").textContent = r.note || "";
    $("t-picture").innerHTML = r.picture;
    $("t-steps").innerHTML = r.steps || "";
    tree.events = r.events;
    $("t-slider").max = tree.events.length;
    showStep(r.steps ? 0 : tree.events.length);
    $("t-table").innerHTML = "";
    if (!r.steps) $("t-final-box").open = true;
  } catch (error) {
    $("t-message").textContent = error.message;
  }
}

function showStep(step) {
  step = Math.max(0, Math.min(step, tree.events.length));
  tree.step = step;
  const box = $("t-steps");
  box.querySelectorAll("[visibility=visible]").forEach((el) => el.setAttribute("visibility", "hidden"));
  box.querySelectorAll(".current, .pv").forEach((el) => el.classList.remove("current", "pv"));
  const show = (sel) => box.querySelectorAll(sel).forEach((el) => el.setAttribute("visibility", "visible"));
  let current = null;
  for (const e of tree.events.slice(0, step)) {
    if (e.kind === "enter") { show(`[data-step-node="${e.node}"], [data-step-edge="${e.node}"]`); current = e.node; }
    else if (e.kind === "leave") { show(`[data-step-value="${e.node}"]`); current = e.node; }
    else if (e.kind === "cut") {
      show(`[data-step-cut="${e.node}"]`);
      e.reveal.forEach((k) => show(`[data-step-node="${k}"], [data-step-edge="${k}"], [data-step-value="${k}"]`));
      current = e.node;
    } else if (e.kind === "pv") {
      e.nodes.forEach((k) => box.querySelectorAll(`[data-step-node="${k}"], [data-step-edge="${k}"]`)
        .forEach((el) => el.classList.add("pv")));
      current = null;
    }
  }
  if (current !== null) {
    const el = box.querySelector(`[data-step-node="${current}"]`);
    if (el) el.classList.add("current");
  }
  const last = step > 0 ? tree.events[step - 1] : null;
  $("t-event").textContent = last ? last.text : (tree.events.length ? "press ▶ to start the search" : "");
  $("t-event").dataset.kind = last ? last.kind : "";
  $("t-slider").value = step;
  $("t-count").textContent = `${step} / ${tree.events.length}`;
}

function nextCut() {
  for (let i = tree.step; i < tree.events.length; i += 1) {
    if (tree.events[i].kind === "cut") { showStep(i + 1); return; }
  }
  showStep(tree.events.length);
}

async function compareTable() {
  $("t-table").textContent = "counting…";
  try {
    const body = { game: $("t-game").value, position: $("t-position").value };
    if ($("t-depth").value) body.depth = parseInt($("t-depth").value, 10);
    const r = await api("/api/compare", body);
    const base = r.rows[0].nodes || 1;
    $("t-table").innerHTML = `<table><tr><th>algorithm</th><th>value</th><th>best</th><th>nodes</th>
      <th>leaves</th><th>cut-offs</th><th>TT hits</th><th>re-search</th><th>of minimax</th></tr>` +
      r.rows.map((x) => `<tr><td>${x.algorithm}</td><td>${x.value}</td><td>${x.best_move ?? "-"}</td>
        <td>${fmt(x.nodes)}</td><td>${fmt(x.leaves)}</td><td>${x.cutoffs}</td><td>${x.tt_hits}</td>
        <td>${x.researches}</td><td>${(100 * x.nodes / base).toFixed(1)} %</td></tr>`).join("") +
      `</table><p class="hint">depth ${r.depth}, branching ≈ ${r.branching.toFixed(2)}; full tree b^d =
      ${fmt(Math.round(r.theory.full_tree_leaves))} leaves, minimal αβ tree
      ${fmt(Math.round(r.theory.minimal_tree_leaves))} leaves (Knuth–Moore)</p>`;
  } catch (error) {
    $("t-table").textContent = error.message;
  }
}

// ---- wiring ------------------------------------------------------------------------------

function switchTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  $("play").hidden = name !== "play";
  $("tree").hidden = name !== "tree";
}

async function main() {
  const data = await api("/api/games");
  ui.games = data.games;
  const order = ["tictactoe", "connect4", "othello", "chess", "shogi", "nim", "bones", "tree"];
  const sorted = [...data.games].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  $("game").innerHTML = sorted.map((g) => `<option value="${g.name}" title="${g.summary}">${g.name}</option>`).join("");
  const algorithms = ["minimax", "negamax", "alphabeta-minmax-hard", "alphabeta-minmax",
    "alphabeta-hard", "alphabeta", "negascout", "and-or", "mtdf", "pvs"];
  $("t-algorithm").innerHTML = algorithms.map((a) => `<option>${a}</option>`).join("");
  $("t-algorithm").value = "alphabeta";
  data.examples.forEach((ex) => {
    const b = document.createElement("button");
    b.textContent = ex.label;
    b.className = "example";
    b.addEventListener("click", () => record(ex.game, ex.position, ex.algorithm, ex.depth));
    $("t-examples").appendChild(b);
  });
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => switchTab(t.dataset.tab)));
  $("game").addEventListener("change", newGame);
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("first").addEventListener("change", () => { ui.auto = true; remember(); render(); afterChange(); });
  $("second").addEventListener("change", () => { ui.auto = true; remember(); render(); afterChange(); });
  window.addEventListener("hashchange", () => restore());
  $("think").addEventListener("click", () => startSearch("think"));
  $("cpu-move").addEventListener("click", () => { ui.auto = true; startSearch("move"); });
  $("stop").addEventListener("click", () => stopSearch(true));
  $("analyze-every").addEventListener("change", () => {
    if ($("analyze-every").checked && !ui.searching) startSearch("analyze");
  });
  $("play-move").addEventListener("click", async () => {
    const t = $("move-text").value.trim();
    if (t && await tryMove(t)) $("move-text").value = "";  // a refused text stays, to mend
  });
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") $("play-move").click(); });
  $("load-position").addEventListener("click", () => {
    stopSearch(false);
    resetInfo();
    setGame(ui.game, $("position").value.trim(), []);
  });
  $("copy-position").addEventListener("click", () => navigator.clipboard?.writeText($("position").value));
  $("t-run").addEventListener("click", () => record($("t-game").value, $("t-position").value,
    $("t-algorithm").value, $("t-depth").value));
  $("t-random").addEventListener("click", () => record("tree",
    `random:${$("t-b").value},${$("t-d").value},${$("t-seed").value}`, $("t-algorithm").value, ""));
  $("t-game").addEventListener("change", () => {
    $("t-position").value = $("t-game").value === "tree" ? "[[3,5,1],[7,3,-4],[-3,0,3]]" : "xo.......";
  });
  $("t-first").addEventListener("click", () => showStep(0));
  $("t-back").addEventListener("click", () => showStep(tree.step - 1));
  $("t-next").addEventListener("click", () => showStep(tree.step + 1));
  $("t-last").addEventListener("click", () => showStep(tree.events.length));
  $("t-cut").addEventListener("click", nextCut);
  $("t-slider").addEventListener("input", () => showStep(parseInt($("t-slider").value, 10)));
  $("t-compare").addEventListener("click", compareTable);
  document.addEventListener("keydown", (e) => {
    if ($("tree").hidden || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") showStep(tree.step + 1);
    if (e.key === "ArrowLeft") showStep(tree.step - 1);
  });
  connect();
  if (!(await restore())) {
    $("game").value = "tictactoe";
    await setGame("tictactoe", "start", []);
  }
  document.body.dataset.ready = "1";
}

main().catch((error) => say(error.message));
