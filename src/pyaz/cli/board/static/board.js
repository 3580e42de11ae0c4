// pyaz-board: the page. Plain JavaScript over the JSON API of pyaz/cli/board/app.py; boards,
// heat maps, the curling sheet and the charts are drawn on canvases here.
"use strict";

const $ = (id) => document.getElementById(id);
let game = null;        // the game shown (GET /api/game/ID)
let polling = null;     // the poll timer while an engine thinks
let selected = null;    // Racing Kings, breakthrough...: the square of the piece picked up
let curlingGame = null;
let replayFrames = [];

// ------------------------------------------------------------------ API and errors
// The launch's secret, from the address pyaz-board printed (?token=...): kept for this tab and
// taken out of the address bar; every API request carries it (the browser adds the Origin).
const TOKEN = (() => {
  const given = new URLSearchParams(location.search).get("token");
  if (given) {
    sessionStorage.setItem("pyaz-token", given);
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem("pyaz-token") || "";
})();

async function api(method, path, body) {
  const options = { method, headers: { "Content-Type": "application/json", "X-Pyaz-Token": TOKEN } };
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function guarded(work) {
  try {
    showError("");
    await work();
  } catch (error) {
    showError(error.message);
  }
}

// the forms are never sent: their buttons call the API
for (const form of document.querySelectorAll("form")) {
  form.addEventListener("submit", (event) => event.preventDefault());
}

// ------------------------------------------------------------------ tabs
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => showPanel(tab.dataset.panel));
}
function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.panel === name);
    $("panel-" + tab.dataset.panel).hidden = tab.dataset.panel !== name;
  }
}

// ------------------------------------------------------------------ drawing boards
const PIECES = { 1: "\u2659", 2: "\u2658", 3: "\u2657", 4: "\u2656", 5: "\u2655", 6: "\u2654",
  "-1": "\u265F", "-2": "\u265E", "-3": "\u265D", "-4": "\u265C", "-5": "\u265B", "-6": "\u265A" };
const MARGIN = 24;

function geometry(canvas, view) {
  // square cells as large as the canvas's size allows; the canvas is then cut to the board.
  // A hex board is a rhombus: each row half a cell right of the one above, the rows closer
  // (hexagons fit into each other), with room (pad) for its coloured edges. left(r, c) and
  // top(r): a cell's box.
  const rows = view.board.length, cols = view.board[0].length;
  const largest = Number(canvas.dataset.size || (canvas.dataset.size = canvas.width));
  const hex = view.kind === "hex";
  const cell = Math.floor((largest - 2 * MARGIN) / (hex ? cols + (rows - 1) / 2 + 0.6 : Math.max(rows, cols)));
  const skew = hex ? cell / 2 : 0, pitch = hex ? cell * Math.sqrt(3) / 2 : cell;
  const pad = hex ? Math.round(cell * 0.3) : 0, x0 = MARGIN + pad, y0 = MARGIN + pad;
  const left = (r, c) => x0 + c * cell + r * skew, top = (r) => y0 + r * pitch;
  return { rows, cols, cell, x0, y0, hex, skew, pitch, pad, left, top };
}

function cellPath(ctx, g, r, c, inset) {
  // the outline of a cell: a square, or on a hex board a hexagon
  ctx.beginPath();
  if (!g.hex) {
    ctx.rect(g.left(r, c) + inset, g.top(r) + inset, g.cell - 2 * inset, g.cell - 2 * inset);
    return;
  }
  const x = g.left(r, c) + g.cell / 2, y = g.top(r) + g.cell / 2, radius = g.cell / Math.sqrt(3) - inset;
  for (let k = 0; k < 6; k++) {  // pointy-top: a vertex up, one down
    const angle = k * Math.PI / 3;
    ctx.lineTo(x + radius * Math.sin(angle), y - radius * Math.cos(angle));
  }
  ctx.closePath();
}

function drawBoard(canvas, view, analysis, heatMode) {
  const ctx = canvas.getContext("2d");
  const g = geometry(canvas, view);
  const { rows, cols, cell, x0, y0 } = g;
  canvas.width = cols * cell + (rows - 1) * g.skew + 2 * x0;
  canvas.height = (rows - 1) * g.pitch + cell + 2 * y0;
  const points = view.game === "go" || view.game === "gomoku";
  const centre = (r, c) => [g.left(r, c) + cell / 2, g.top(r) + cell / 2];
  // the board
  if (view.kind === "chess" || view.kind === "pieces") {
    const [light, dark] = view.kind === "chess" ? ["#f0d9b5", "#b58863"] : ["#e9d3ad", "#a98158"];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      ctx.fillStyle = (r + c) % 2 ? dark : light;
      ctx.fillRect(x0 + c * cell, y0 + r * cell, cell, cell);
    }
  } else if (view.kind === "hex") {
    // the first player (black) joins the top and bottom edges, the second (white) the sides
    const far = cell * 0.62;
    const edge = (a, b, colour) => {
      ctx.lineCap = "round";
      for (const [width, ink] of colour === "#fff" ? [[8, "#666"], [5, "#fff"]] : [[7, colour]]) {
        ctx.strokeStyle = ink; ctx.lineWidth = width;
        ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.stroke();
      }
    };
    const [tl, tr] = [centre(0, 0), centre(0, cols - 1)], [bl, br] = [centre(rows - 1, 0), centre(rows - 1, cols - 1)];
    edge([tl[0], tl[1] - far], [tr[0], tr[1] - far], "#111");
    edge([bl[0], bl[1] + far], [br[0], br[1] + far], "#111");
    edge([tl[0] - far, tl[1]], [bl[0] - far, bl[1]], "#fff");
    edge([tr[0] + far, tr[1]], [br[0] + far, br[1]], "#fff");
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      cellPath(ctx, g, r, c, 0);
      ctx.fillStyle = "#dcb35c";
      ctx.fill();
      ctx.strokeStyle = "#7a5c22";
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  } else if (view.kind === "columns") {
    ctx.fillStyle = "#2456b3";
    ctx.fillRect(x0, y0, cols * cell, rows * cell);
  } else {
    ctx.fillStyle = points ? "#dcb35c" : "#2e8b3d";
    ctx.fillRect(x0, y0, cols * cell, rows * cell);
    ctx.strokeStyle = points ? "#333" : "#1b5e27";
    ctx.lineWidth = 1;
    for (let i = 0; i <= Math.max(rows, cols); i++) {
      ctx.beginPath();
      if (points) {
        if (i < rows) { ctx.moveTo(centre(i, 0)[0], centre(i, 0)[1]); ctx.lineTo(centre(i, cols - 1)[0], centre(i, 0)[1]); }
        if (i < cols) { ctx.moveTo(centre(0, i)[0], centre(0, i)[1]); ctx.lineTo(centre(0, i)[0], centre(rows - 1, i)[1]); }
      } else {
        if (i <= rows) { ctx.moveTo(x0, y0 + i * cell); ctx.lineTo(x0 + cols * cell, y0 + i * cell); }
        if (i <= cols) { ctx.moveTo(x0 + i * cell, y0); ctx.lineTo(x0 + i * cell, y0 + rows * cell); }
      }
      ctx.stroke();
    }
  }
  // labels
  ctx.fillStyle = "#333";
  ctx.font = "12px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  view.col_labels.forEach((t, c) => ctx.fillText(t, centre(0, c)[0], y0 - g.pad - 10));
  view.row_labels.forEach((t, r) => ctx.fillText(t, g.left(r, 0) - g.pad - 12, centre(r, 0)[1]));
  // heat map of the analysis
  if (analysis && analysis.moves.length) drawHeat(ctx, g, analysis, heatMode, centre);
  // pieces and stones
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const v = view.board[r][c];
    const [x, y] = centre(r, c);
    if (view.kind === "chess") {
      if (v !== 0) {
        ctx.font = `${Math.floor(cell * 0.8)}px serif`;
        ctx.fillStyle = "#000";
        ctx.fillText(PIECES[v], x, y + cell * 0.04);
      }
    } else if (view.kind === "columns") {
      disc(ctx, x, y, cell * 0.4, v === 1 ? "#d62828" : v === 2 ? "#f7d21e" : "#fafafa");
    } else if (view.kind === "pieces" && v !== 0) {
      disc(ctx, x, y, cell * 0.36, v === 1 ? "#111" : "#f4f4f4");
      disc(ctx, x, y, cell * 0.22, v === 1 ? "#333" : "#ddd");
    } else if (v !== 0) {
      disc(ctx, x, y, cell * 0.42, v === 1 ? "#111" : "#f4f4f4");
    }
  }
  // a person's legal moves in Othello, where they are few and not plain to see
  if (view.game === "othello" && view.legal && !view.over && !view.thinking) {
    ctx.fillStyle = "rgba(0, 0, 0, 0.25)";
    for (const m of view.legal) {
      if (!m.cell) continue;  // a pass
      ctx.beginPath();
      ctx.arc(...centre(m.cell[0], m.cell[1]), cell * 0.12, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  // the last move and the picked-up piece (where it may go, when the page picks legal moves)
  if (view.last) {
    ctx.strokeStyle = "#e0301e";
    ctx.lineWidth = 3;
    for (const sq of view.last) if (sq) { cellPath(ctx, g, sq[0], sq[1], 2); ctx.stroke(); }
  }
  if (selected && canvas.id === "board") {
    ctx.strokeStyle = "#1e7be0";
    ctx.lineWidth = 3;
    cellPath(ctx, g, selected[0], selected[1], 2);
    ctx.stroke();
    ctx.fillStyle = "rgba(30, 123, 224, 0.6)";
    for (const m of view.pick === "legal" ? view.legal : []) {
      if (!m.from || m.from[0] !== selected[0] || m.from[1] !== selected[1] || !m.cell) continue;
      ctx.beginPath();
      ctx.arc(...centre(m.cell[0], m.cell[1]), cell * 0.12, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

function disc(ctx, x, y, radius, colour) {
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.strokeStyle = "#333";
  ctx.lineWidth = 1;
  ctx.stroke();
}

function heatValue(move, mode, maxVisits) {
  if (mode === "prior") return move.prior;
  if (mode === "q") return move.q === null ? null : (move.q + 1) / 2;
  return maxVisits ? move.visits / maxVisits : 0;
}

function drawHeat(ctx, g, analysis, mode, centre) {
  const { cell } = g;
  // Racing Kings: several moves reach a square; the square shows the most visited of them
  const best = new Map();
  for (const m of analysis.moves) {
    if (!m.cell) continue;
    const key = m.cell.join(",");
    if (!best.has(key) || best.get(key).visits < m.visits) best.set(key, m);
  }
  const maxVisits = Math.max(1, ...analysis.moves.map((m) => m.visits));
  let maxPrior = Math.max(1e-9, ...analysis.moves.map((m) => m.prior));
  for (const m of best.values()) {
    let v = heatValue(m, mode, maxVisits);
    if (mode === "prior") v = v / maxPrior;
    if (v === null) continue;
    const [r, c] = m.cell;
    ctx.fillStyle = `rgba(255, ${Math.round(200 * (1 - v))}, 0, ${0.25 + 0.5 * v})`;
    cellPath(ctx, g, r, c, 1);
    ctx.fill();
    if (m.visits > 0 && cell >= 24) {
      const [x, y] = centre(r, c);
      ctx.font = `${Math.max(9, Math.floor(cell / 4))}px monospace`;
      ctx.fillStyle = "#000";
      ctx.fillText(String(m.visits), x, y + cell * 0.33);
    }
  }
  // the principal variation's first move as an arrow (from its origin in Racing Kings)
  const first = analysis.moves[0];
  if (first && first.visits > 0 && first.cell) {
    const [tx, ty] = centre(first.cell[0], first.cell[1]);
    ctx.strokeStyle = "rgba(20, 90, 200, 0.85)";
    ctx.lineWidth = 4;
    ctx.beginPath();
    if (first.from) {
      const [fx, fy] = centre(first.from[0], first.from[1]);
      ctx.moveTo(fx, fy);
      ctx.lineTo(tx, ty);
    } else {
      ctx.arc(tx, ty, cell * 0.47, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }
}

// ------------------------------------------------------------------ playing
function render() {
  if (!game) return;
  $("board").dataset.game = game.game;
  const current = game.analysis && game.analysis.ply === game.history.length;
  drawBoard($("board"), game, current ? game.analysis : null, $("heat").value);
  const mover = game.sides[game.to_move] + " (" + game.players[game.to_move] + ")";
  $("status").textContent = game.over ? "" : (game.thinking ? `${mover} is thinking...` : `${mover} to move`);
  $("result").textContent = game.over ? (game.error || game.result) : "";
  $("history").textContent = game.history.map((m, i) => (i % 2 ? "" : `${i / 2 + 1}. `) + m).join(" ");
  $("pass").hidden = !game.legal.some((m) => m.cell === null);
  renderAnalysis(game.analysis);
}

function renderAnalysis(a) {
  const body = $("analysis-table").querySelector("tbody");
  body.innerHTML = "";
  if (!a) {
    $("analysis-info").textContent = "The engine's search shows here while it thinks.";
    $("value-fill").style.width = "50%";
    return;
  }
  const who = game ? game.sides[a.to_move] : "";
  const where = a.ply === game.history.length ? "this position"
    : a.ply === game.history.length - 1 ? "the position before the last move"
    : `the position after ply ${a.ply}`;
  $("analysis-info").textContent =
    `${a.player} on ${where}: ${a.new} of ${a.target} simulations${a.done ? " (done)" : "..."}` +
    `, ${a.simulations} at the root\nvalue for ${who}: ${a.root_value.toFixed(3)}\n` +
    `principal variation: ${a.pv.join(" ")}`;
  $("value-fill").style.width = `${Math.round(50 * (a.root_value + 1))}%`;
  for (const m of a.moves.slice(0, 12)) {
    const row = body.insertRow();
    for (const text of [m.move, m.visits, m.q === null ? "-" : m.q.toFixed(3), m.prior.toFixed(3)]) {
      row.insertCell().textContent = text;
    }
  }
}

function setGame(view) {
  game = view;
  selected = null;
  render();
  if (polling === null && !game.over && (game.thinking || game.legal.length === 0)) poll();
}

async function current(id, request) {
  // the answer of a request about game id, or null when another game is shown meanwhile (the
  // one replaced is closed: its errors are no longer the person's concern)
  try {
    const view = await request;
    return game && game.id === id ? view : null;
  } catch (error) {
    if (game && game.id === id) throw error;
    return null;
  }
}

function poll() {
  polling = setTimeout(async () => {
    polling = null;
    if (!game) return;
    const id = game.id;
    await guarded(async () => {
      const view = await current(id, api("GET", `/api/game/${id}`));
      if (view) setGame(view);
    });
  }, 150);
}

$("new").addEventListener("click", () => guarded(newGame));

async function newGame() {
  if (game && !game.over) api("POST", `/api/game/${game.id}/close`).catch(() => {});  // its searches stop
  game = null;
  for (const id of ["result", "history", "status"]) $(id).textContent = "";
  renderAnalysis(null);
  delete $("board").dataset.game;
  $("board").getContext("2d").clearRect(0, 0, $("board").width, $("board").height);
  const options = chosenOptions();
  const delay = Number($("delay").value || 0);
  const view = await api("POST", "/api/new", {
    game: $("game").value, options, players: [$("p1").value, $("p2").value], delay,
  });
  setGame(view);
}

$("swap").addEventListener("click", () => {
  [$("p1").value, $("p2").value] = [$("p2").value, $("p1").value];
  if (offer.field) offer.field = offer.field === "p1" ? "p2" : "p1";  // the offer moves with it
});

$("heat").addEventListener("change", render);

async function play(move) {
  await guarded(async () => setGame(await api("POST", `/api/game/${game.id}/move`, { move })));
}

$("pass").addEventListener("click", () => {
  const pass = game.legal.find((m) => m.cell === null);  // "pass", or the game's own text
  play(pass ? pass.move : "pass");
});

$("board").addEventListener("click", (event) => {
  if (!game || game.over || game.legal.length === 0) return;
  const canvas = $("board");
  const rect = canvas.getBoundingClientRect();
  const g = geometry(canvas, game);
  const x = (event.clientX - rect.left) * canvas.width / rect.width;
  const y = (event.clientY - rect.top) * canvas.height / rect.height;
  const [r, c] = g.hex ? nearestCell(g, x, y) : [Math.floor((y - g.y0) / g.cell), Math.floor((x - g.x0) / g.cell)];
  if (r < 0 || c < 0 || r >= g.rows || c >= g.cols) return;
  if (game.pick === "legal") return pickLegal(r, c);
  if (game.kind === "columns") return play(game.col_labels[c]);
  if (game.kind === "chess") {
    const here = (sq) => sq && sq[0] === r && sq[1] === c;
    if (selected) {
      const move = game.legal.find((m) => here(m.cell) && m.from[0] === selected[0] && m.from[1] === selected[1]);
      const name = game.col_labels[selected[1]] + game.row_labels[selected[0]] + game.col_labels[c] + game.row_labels[r];
      selected = null;
      if (move || !game.legal.some((m) => here(m.from))) return play(move ? move.move : name);
    }
    if (game.legal.some((m) => here(m.from))) selected = [r, c];
    return render();
  }
  play(game.col_labels[c] + game.row_labels[r]);
});

function nearestCell(g, x, y) {
  // the hexagon under (x, y): the cell of the nearest centre, [-1, -1] off the board
  let best = [-1, -1], nearest = g.cell / 2;
  for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++) {
    const d = Math.hypot(x - g.left(r, c) - g.cell / 2, y - g.top(r) - g.cell / 2);
    if (d < nearest) [best, nearest] = [[r, c], d];
  }
  return best;
}

function pickLegal(r, c) {
  // a game whose legal moves come with their cells (OpenSpiel's): the move played is the legal
  // one at the cell clicked (in the column clicked), or the one taking the piece picked up to
  // the cell clicked; its text goes to the server as a typed move would
  const at = (sq, row, col) => sq && sq[0] === row && sq[1] === col;
  showError("");
  if (game.kind === "columns") {
    const move = game.legal.find((m) => m.cell && m.cell[1] === c);
    return move ? play(move.move) : showError(`no legal move in column ${game.col_labels[c]}`);
  }
  if (selected) {
    const from = selected, move = game.legal.find((m) => at(m.from, ...from) && at(m.cell, r, c));
    selected = null;
    if (move) return play(move.move);
    if (at(from, r, c)) return render();  // the piece put back
  }
  const placed = game.legal.find((m) => !m.from && at(m.cell, r, c));
  if (placed) return play(placed.move);
  if (game.legal.some((m) => at(m.from, r, c))) selected = [r, c];
  else showError(game.kind === "pieces" ? "pick up a piece that can move, then click where it goes" : "no legal move there");
  render();
}

$("analyse").addEventListener("click", () => guarded(async () => {
  setGame(await api("POST", `/api/game/${game.id}/analyse`, { spec: $("analysis-spec").value }));
  analysisPoll(12000);
}));

function analysisPoll(left) {
  // polls while a requested analysis runs (the engine's own thinking is polled by poll())
  if (left <= 0 || !game) return;
  const id = game.id;
  setTimeout(async () => {
    if (!game || game.id !== id) return;
    await guarded(async () => {
      const view = await current(id, api("GET", `/api/game/${id}`));
      if (view) { game = view; render(); }
    });
    const a = game && game.analysis;
    if (!(a && a.done && a.ply === game.history.length)) analysisPoll(left - 200);
  }, 200);
}

// ------------------------------------------------------------------ curling
function drawSheet(view) {
  const canvas = $("sheet"), ctx = canvas.getContext("2d");
  const s = view.sheet;
  const top = s.back + 0.6, bottom = s.hog - 0.4;        // metres shown, far end at the top
  const scale = Math.min(canvas.width / (2 * s.half_width), canvas.height / (top - bottom));
  const px = (x) => canvas.width / 2 + x * scale;
  const py = (y) => (top - y) * scale;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#eef4fa";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (const [radius, colour] of [[s.house, "#3b6fd6"], [1.219, "#ffffff"], [0.61, "#d63b3b"], [0.152, "#ffffff"]]) {
    ctx.beginPath();
    ctx.arc(px(0), py(s.tee), radius * scale, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
  }
  const line = (y, colour, width) => {
    ctx.strokeStyle = colour; ctx.lineWidth = width;
    ctx.beginPath(); ctx.moveTo(0, py(y)); ctx.lineTo(canvas.width, py(y)); ctx.stroke();
  };
  line(s.tee, "#555", 1);
  line(s.back, "#000", 2);
  line(s.hog, "#c00", 3);
  for (const [x, y, team] of view.stones) {
    ctx.beginPath();
    ctx.arc(px(x), py(y), s.stone * scale, 0, 2 * Math.PI);
    ctx.fillStyle = team === 0 ? "#f2c200" : "#c03030";
    ctx.fill();
    ctx.strokeStyle = "#222"; ctx.lineWidth = 1; ctx.stroke();
  }
  canvas.toMetres = (cx, cy) => [(cx - canvas.width / 2) / scale, top - cy / scale];
}

function renderCurling() {
  const v = curlingGame;
  drawSheet(v);
  const ends = v.end_scores.map((e, i) => `end ${i + 1}: ${e[0]}-${e[1]}`).join(", ");
  const next = v.over ? v.result : `end ${v.end + 1}, stone ${v.shot + 1} of 16: team ${v.to_move} ` +
    `(${v.players[v.to_move]}) ${v.human_turn ? "- click where your stone should stop" : "throws..."}`;
  $("curl-status").textContent = `score ${v.score[0]}-${v.score[1]}  ${ends}\n${next}`;
  if (!v.over && !v.human_turn) {
    setTimeout(() => guarded(async () => {
      curlingGame = await api("POST", `/api/curling/${v.id}/throw`, {});
      renderCurling();
    }), 250);
  }
}

$("curl-new").addEventListener("click", () => guarded(async () => {
  curlingGame = await api("POST", "/api/curling/new", {
    players: [$("curl-p1").value, $("curl-p2").value], ends: Number($("curl-ends").value || 2),
  });
  renderCurling();
}));

$("sheet").addEventListener("click", (event) => guarded(async () => {
  if (!curlingGame || !curlingGame.human_turn) return;
  const canvas = $("sheet"), rect = canvas.getBoundingClientRect();
  const [x, y] = canvas.toMetres((event.clientX - rect.left) * canvas.width / rect.width,
                                 (event.clientY - rect.top) * canvas.height / rect.height);
  curlingGame = await api("POST", `/api/curling/${curlingGame.id}/throw`, { x, y });
  renderCurling();
}));

// ------------------------------------------------------------------ run browser
const COLOURS = ["#2d5ea8", "#d6452b", "#2e9b4a", "#9b49c4", "#c9a11b"];

function chart(title, series) {
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = title + ": " + Object.keys(series).map((k, i) => `${k} (${["blue", "red", "green", "purple", "ochre"][i % 5]})`).join(", ");
  const canvas = document.createElement("canvas");
  canvas.width = 360; canvas.height = 220;
  figure.append(caption, canvas);
  const ctx = canvas.getContext("2d");
  const all = Object.values(series).flat().filter((p) => p[1] !== null);  // null: not a number
  const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
  let [xmin, xmax, ymin, ymax] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (xmax === xmin) { xmin -= 1; xmax += 1; }
  if (title === "win ratio") { ymin = 0; ymax = 1; }  // a score, whatever its points
  if (ymax === ymin) { ymin -= 1; ymax += 1; }
  const L = 50, R = 10, T = 10, B = 30;
  const px = (x) => L + (x - xmin) / (xmax - xmin) * (canvas.width - L - R);
  const py = (y) => canvas.height - B - (y - ymin) / (ymax - ymin) * (canvas.height - T - B);
  ctx.strokeStyle = "#888"; ctx.strokeRect(L, T, canvas.width - L - R, canvas.height - T - B);
  ctx.fillStyle = "#333"; ctx.font = "11px sans-serif"; ctx.textAlign = "right";
  ctx.fillText(ymax.toPrecision(3), L - 4, T + 8); ctx.fillText(ymin.toPrecision(3), L - 4, canvas.height - B);
  ctx.textAlign = "center";
  ctx.fillText(String(xmin), L, canvas.height - B + 14); ctx.fillText(String(xmax), canvas.width - R, canvas.height - B + 14);
  ctx.fillText("iteration", (L + canvas.width - R) / 2, canvas.height - 4);
  Object.values(series).forEach((points, i) => {
    ctx.strokeStyle = ctx.fillStyle = COLOURS[i % COLOURS.length];
    ctx.lineWidth = 2;
    ctx.beginPath();
    let gap = true;  // a null value breaks the line
    for (const [x, y] of points) {
      if (y === null) { gap = true; continue; }
      if (gap) ctx.moveTo(px(x), py(y)); else ctx.lineTo(px(x), py(y));
      gap = false;
    }
    ctx.stroke();
    for (const [x, y] of points) {
      if (y === null) continue;
      ctx.beginPath(); ctx.arc(px(x), py(y), 3, 0, 2 * Math.PI); ctx.fill();
    }
  });
  return figure;
}

// The game options of the run that set the Play form (Connect Four's width and height, Go's
// komi, ...), until the person picks another game or size. A size given for one game is not
// carried to the next: each game starts at its own default size.
let runOptions = {};
$("game").addEventListener("change", () => { runOptions = {}; $("size").value = ""; offerSecond(); });
for (const event of ["input", "change"]) {
  $("size").addEventListener(event, () => { runOptions = {}; offerSecond(); });
}

function chosenOptions() {
  // the game options the form names: the run's, then the size given
  const options = { ...runOptions };
  const size = $("size").value.trim();
  if (size) options.size = Number(size);
  return options;
}

function setPlayForm(run) {
  // the Play panel's game becomes the run's (a board game's; curling has its panel)
  if (![...$("game").options].some((option) => option.value === run.game)) return;
  $("game").value = run.game;
  $("size").value = run.game_options.size || "";
  runOptions = { ...run.game_options };
  offerSecond();
}

async function openRun(dir) {
  const run = await api("GET", "/api/run?dir=" + encodeURIComponent(dir));
  $("run-title").textContent = `${run.dir}: ${run.method || "run"} of ${run.game} ${JSON.stringify(run.game_options)}`;
  $("run-damaged").textContent = run.damaged.length ? "Skipped (damaged):\n" + run.damaged.join("\n") : "";
  $("run-damaged").hidden = !run.damaged.length;
  $("replays-note").textContent = run.replays_note;
  $("replays-note").hidden = !run.replays_note;
  $("curves").innerHTML = "";
  for (const [title, series] of Object.entries(run.curves)) {
    if (Object.values(series).flat().some((p) => p[1] !== null)) $("curves").append(chart(title, series));
  }
  const networks = $("networks");
  networks.innerHTML = "";
  run.networks.forEach((net, i) => networks.add(new Option(net.name, String(i))));
  // the run's best network (checkpoint.pt) is chosen first, else the newest
  const best = run.networks.findIndex((net) => net.name === "checkpoint.pt");
  networks.value = String(best >= 0 ? best : run.networks.length - 1);
  $("play-network").disabled = run.networks.length === 0;
  $("play-network").onclick = () => {
    const net = run.networks[Number(networks.value)];
    if (!net) return;
    if (run.game === "curling") {  // curling has its own panel
      $("curl-p1").value = "human";
      $("curl-p2").value = net.spec;
      showPanel("curling");
      $("curl-new").click();
      return;
    }
    setPlayForm(run);
    $("p1").value = "human";
    $("p2").value = net.spec;
    offer.field = null;  // the person's choice: no later offer replaces it
    showPanel("play");
    guarded(newGame);  // the game starts at once: the person moves first
  };
  const select = $("replays");
  select.innerHTML = "";
  run.replays.forEach((r, i) => select.add(new Option(`${i + 1}. ${r.title}`, String(i))));
  select.onchange = () => guarded(() => loadReplay(run.replays[Number(select.value)]));
  if (run.replays.length) await loadReplay(run.replays[0]);
  return run;
}

async function loadReplay(replay) {
  const data = await api("POST", "/api/replay", { game: replay.game, options: replay.options, moves: replay.moves, players: replay.players });
  replayFrames = data.frames;
  const slider = $("replay-slider");
  slider.max = String(replayFrames.length - 1);
  slider.value = slider.max;
  showReplay();
}

function showReplay() {
  const frame = replayFrames[Number($("replay-slider").value)];
  if (!frame) return;
  drawBoard($("replay-board"), frame, null, "visits");
  $("replay-ply").textContent = `ply ${frame.history.length} of ${replayFrames.length - 1}` +
    (frame.result ? `: ${frame.result}` : "");
}
$("replay-slider").addEventListener("input", showReplay);

$("open-run").addEventListener("click", () => guarded(() => openRun($("run-dir").value)));

// ------------------------------------------------------------------ the second player offered
// The networks that ship with pyaz (GET /api/info's shipped): the Second player field is offered
// the one that ships for the form's game and board, else NO_OFFER, for as long as it holds what
// the page put there itself; what the person typed (or a run's network) stays. After "Swap
// sides" the offer is in the First player field, and follows the game and board there.
const NO_OFFER = "uct:400";
let serverInfo = null;        // GET /api/info
// where the page put its offer (a player field's id; null: none) and what it put there
const offer = { field: "p2", value: $("p2").value };

function formOptions() {
  // the full options of the form's game: the game's defaults, then those chosen
  return { ...((serverInfo && serverInfo.games[$("game").value]) || {}), ...chosenOptions() };
}

function sameOptions(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

function offerSecond() {
  // the network that ships for the form's game and board, named under the form and offered
  if (!serverInfo) return;
  const name = $("game").value, options = formOptions();
  const network = serverInfo.shipped.find((net) => net.game === name && sameOptions(net.options, options));
  $("offer-info").textContent = network ? `${network.spec} ships with pyaz for this game and board: ${network.figure}` : "";
  $("offer-info").hidden = !network;
  if (offer.field && $(offer.field).value === offer.value) {
    $(offer.field).value = offer.value = network ? network.spec : NO_OFFER;
  }
}

// ------------------------------------------------------------------ start
// A board from the first moment: a game of the form's players starts at once (of the run's
// game when the page was opened on a run, whose browser then shows), against the network that
// ships for the game and board where there is one.
guarded(async () => {
  const info = serverInfo = await api("GET", "/api/info");
  offerSecond();
  if (info.run) {
    $("run-dir").value = info.run;
    setPlayForm(await openRun(info.run));
    showPanel("run");
  }
  await newGame();
});
