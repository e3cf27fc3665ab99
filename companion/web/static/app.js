// The dashboard: renders the session snapshot pushed over Server-Sent Events and sends the player's actions.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const withToken = (url) => token ? `${url}${url.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : url;
const $ = (id) => document.getElementById(id);
let snap = null;
let lastSpoken = null;
let correcting = null;
let corners = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

async function post(path, body = {}) {
  $("action-error").textContent = "";
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Companion-Token"] = token;
  const resp = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) $("action-error").textContent = data.error || `error ${resp.status}`;
  return data;
}

function isRed(code) { return /[HD]$/.test(code || ""); }

function cardChip(code, extra = "", onclick = null) {
  const cls = `card ${isRed(code) ? "red" : ""} ${code === "?" ? "unseen" : ""} ${extra}`;
  const node = el(onclick ? "button" : "span", { class: cls, type: "button" }, code === "?" ? "?" : code);
  if (onclick) node.addEventListener("click", onclick);
  return node;
}

const SINGLE_ZONES = ["weapon", "a", "b"];  // zones of one card or none: Scoundrel's weapon, Strijders' players
const ZONE_NAMES = { a: "player a", b: "player b" };

function zoneCards(target, view, other, clickable) {
  target.replaceChildren();
  if (!view) return;
  // the view's card zones in its own order: Scoundrel's room / weapon / weapon monsters, Superheld's map
  for (const zone of Object.keys(view).filter((k) => Array.isArray(view[k]) || SINGLE_ZONES.includes(k))) {
    const single = SINGLE_ZONES.includes(zone);
    const list = single ? (view[zone] ? [view[zone]] : []) : (view[zone] || []);
    target.append(el("span", { class: "zone" }, ZONE_NAMES[zone] || zone.replace("_", " ")));
    list.forEach((code, index) => {
      const otherList = other ? (single ? [other[zone]] : other[zone] || []) : null;
      const wrong = otherList && !otherList.includes(code) ? "wrong" : "";
      const click = clickable ? () => startCorrect(zone, index, code) : null;
      target.append(cardChip(code, wrong, click));
    });
  }
}

function startCorrect(zone, index, code) {
  correcting = { zone, index };
  $("correct-card").textContent = `${code} (${zone.replace("_", " ")} ${index + 1})`;
  $("correct-box").hidden = false;
}

function renderFields(state) {
  const dl = $("fields");
  dl.replaceChildren();
  const skip = new Set(["game", "violations", "warnings", "source"]);
  for (const [k, v] of Object.entries(state)) {
    if (skip.has(k)) continue;
    const text = v === null ? "-" : (typeof v === "object" ? JSON.stringify(v) : String(v));
    dl.append(el("dt", {}, k.replaceAll("_", " ")), el("dd", { id: `field-${k}` }, text));
  }
  const viol = $("violations");
  viol.replaceChildren(...(state.violations || []).slice(-3).map((v) => el("p", {}, `move ${v.move + 1}: ${v.message}`)));
}

function headline(state) {
  if (state.life !== undefined) return `life ${state.life}`;
  if (state.coins !== undefined) return `coins ${state.coins}`;
  if (state.scores !== undefined) return `scores ${JSON.stringify(state.scores)}`;
  return state.status || "";
}

function render(s) {
  snap = s;
  const st = s.state;
  $("game-name").textContent = s.game || "no game";
  $("status").textContent = st ? st.status : "-";
  $("status").className = `badge ${st && st.status === "won" ? "won" : ""} ${st && st.status === "lost" ? "lost-game" : ""}`;
  const src = s.source || {};
  $("source").textContent = `camera: ${src.state || "-"}${src.fps ? ` ${src.fps} fps` : ""}${src.message ? ` (${src.message})` : ""}`;
  $("source").className = `badge ${src.state === "live" ? "live" : ""} ${src.state === "lost" ? "lost" : ""}`;
  $("headline").textContent = st ? headline(st) : "start a new game below";
  if (st) renderFields(st); else $("fields").replaceChildren();
  renderCalibration(s.calibration);
  renderBoard(s.board);
  renderPending(s);
  renderMoves(s);
  renderLog(s.log || []);
  renderGames(s.games || []);
  speak(s.announcements || []);
}

function renderCalibration(c) {
  if (!c) return;
  $("calib-status").textContent = c.text;
  $("calib-status").className = `badge ${c.source ? "live" : ""}`;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// A move for a click on a map cell: start there, step there, or stay (the hero's own cell).
function cellMove(cell) {
  if (cell.reach.includes("start")) return { start: cell.code };
  if (cell.reach.includes("go")) return snap.board.take && $("board-take").checked ? { go: cell.code, take: true } : { go: cell.code };
  if (cell.reach.includes("stay")) return "stay";
  return null;
}

function renderBoard(b) {
  $("board-panel").hidden = !b;
  if (!b) return;
  const svg = $("board-map");
  const cells = b.cells;
  const pad = 6;
  const xs = cells.flatMap((c) => [c.x, c.x + c.w]), ys = cells.flatMap((c) => [c.y, c.y + c.h]);
  const [x0, y0] = cells.length ? [Math.min(...xs) - pad, Math.min(...ys) - pad] : [0, 0];
  const [x1, y1] = cells.length ? [Math.max(...xs) + pad, Math.max(...ys) + pad] : [100, 60];
  svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
  svg.replaceChildren(...cells.map((c) => {
    const move = cellMove(c);
    const cls = ["cell", c.taken ? "taken" : "", c.hidden ? "hidden" : "", c.capital ? "capital" : "",
      c.reach.some((r) => r === "go" || r === "start") ? "reach" : "", c.heroes.length ? "hero" : "",
      isRed(c.code) ? "red" : ""].filter(Boolean).join(" ");
    const g = svgEl("g", { class: cls, "data-code": c.code });
    g.append(svgEl("rect", { x: c.x + 2, y: c.y + 2, width: c.w - 4, height: c.h - 4, rx: 5 }));
    const label = c.taken ? "" : (c.hidden ? "?" : c.code);
    g.append(svgEl("text", { x: c.x + c.w / 2, y: c.y + c.h / 2 + 7, "text-anchor": "middle" }, label));
    if (c.capital) g.append(svgEl("text", { x: c.x + c.w / 2, y: c.y + 20, "text-anchor": "middle", class: "tag" }, "capital"));
    if (c.heroes.length) g.append(svgEl("text", { x: c.x + c.w / 2, y: c.y + c.h - 10, "text-anchor": "middle", class: "tag" },
      `hero ${c.heroes.join("+")}`));
    if (move !== null) g.addEventListener("click", () => post("/api/move", { move }));
    return g;
  }));
  const reach = b.reachable.length ? b.reachable.join(", ") : "nowhere";
  $("board-reach").textContent = `hero ${b.to_move} may ${b.phase === "start" ? "start on" : "go to"}: ${reach}`
    + (b.stay ? " · or stay" : "") + (b.take ? ` · may take ${b.take} when leaving it` : "");
  $("board-take-box").hidden = !b.take;
  $("board-take-card").textContent = b.take || "";
  const fields = { phase: b.phase, coins: b.heroes.map((h) => h.coins).join(" / "),
    "skill piles": Object.values(b.skill).join(" "), "lower ghosts": b.heroes.map((h) => h.ghosts.join(" ") || "-").join(" / "),
    warriors: b.heroes.map((h) => h.warriors.join(" ") || "-").join(" / "), "top warrior": b.top_warrior || "-",
    "forest face down": b.forest_hidden };
  $("board-fields").replaceChildren(...Object.entries(fields).flatMap(([k, v]) =>
    [el("dt", {}, k), el("dd", { id: `board-${k.replaceAll(" ", "-")}` }, String(v))]));
  $("board-goals").replaceChildren(...b.goals.map((g) =>
    el("li", { class: g.met ? "met" : "" }, `${g.met ? "✓" : "○"} ${g.goal}: ${g.value}`)));
}

function renderPending(s) {
  const p = s.pending;
  $("pending-panel").hidden = !p;
  if (!p) { correcting = null; $("correct-box").hidden = true; return; }
  $("pending-title").textContent = p.kind === "misread" ? "Probable misread: check the table" : "Which move was it?";
  $("pending-message").textContent = p.message || "";
  zoneCards($("seen"), p.seen, p.expected, true);
  zoneCards($("expected"), p.expected, null, false);
  const options = $("options");
  options.replaceChildren();
  (p.options || []).forEach((o, i) => {
    options.append(el("button", { type: "button", class: "confirm", onclick: () => post("/api/confirm", { option: i }) },
      `confirm: ${o.moves.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join(", ")}`));
  });
  const select = $("correct-code");
  const choices = (s.table && s.table.choices) || [];
  if (select.options.length !== choices.length) select.replaceChildren(...choices.map((c) => el("option", { value: c }, c)));
}

function renderMoves(s) {
  const legal = $("legal");
  legal.replaceChildren(...(s.legal_moves || []).map((m) =>
    el("button", { type: "button", class: "legal", onclick: () => post("/api/move", { move: m }) },
      typeof m === "string" ? m : JSON.stringify(m))));
}

function renderLog(entries) {
  const log = $("log");
  log.replaceChildren(...entries.slice().reverse().map((e) =>
    el("li", { class: e.violation ? "violation" : "", "data-kind": e.kind }, e.text)));
}

function renderGames(games) {
  const select = $("new-game");
  if (select.options.length === games.length) return;
  select.replaceChildren(...games.map((g) => el("option", { value: g }, g)));
}

function speak(announcements) {
  if (!announcements.length) return;
  const newest = announcements[announcements.length - 1].id;
  if (lastSpoken === null) { lastSpoken = newest; return; }  // do not read out the past on page load
  const fresh = announcements.filter((a) => a.id > lastSpoken);
  lastSpoken = Math.max(lastSpoken, newest);
  if (!$("speak").checked || !("speechSynthesis" in window)) return;
  for (const a of fresh) speechSynthesis.speak(new SpeechSynthesisUtterance(a.text));
}

function connect() {
  const source = new EventSource(withToken("/api/events"));
  source.addEventListener("state", (ev) => render(JSON.parse(ev.data)));
  source.onerror = () => { $("source").textContent = "camera: dashboard reconnecting"; };
}

$("undo").addEventListener("click", () => post("/api/undo"));
$("dismiss").addEventListener("click", () => post("/api/dismiss"));
$("correct-send").addEventListener("click", () => {
  if (!correcting) return;
  post("/api/correct", { zone: correcting.zone, index: correcting.index, code: $("correct-code").value });
  $("correct-box").hidden = true;
});
$("move-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("move-text").value.trim();
  if (!text) return;
  let move = text;
  if (text.startsWith("{") || text.startsWith("[")) { try { move = JSON.parse(text); } catch (e) { /* send as text */ } }
  post("/api/move", { move }).then(() => { $("move-text").value = ""; });
});
$("new-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  let options, setup;
  try { options = JSON.parse($("new-options").value || "{}"); setup = JSON.parse($("new-setup").value || "{}"); }
  catch (e) { $("action-error").textContent = `options and setup must be JSON: ${e.message}`; return; }
  post("/api/new-game", { game: $("new-game").value, options, setup });
});
// a set-up each game accepts as it is (Carcassonne: its tiles learnt as the camera sees them laid)
const DEFAULT_SETUP = { scoundrel: '{"deck": "full"}', carcassonne: '{"stacks": "hidden"}' };
$("new-game").addEventListener("change", () => {
  $("new-setup").value = DEFAULT_SETUP[$("new-game").value] || "{}";
});
$("speak").checked = localStorage.getItem("speak") === "1";
$("speak").addEventListener("change", () => localStorage.setItem("speak", $("speak").checked ? "1" : "0"));
$("calibrate").addEventListener("click", () => { corners = []; $("calib-hint").textContent = "click corner 1 of 4"; });
$("calibrate-clear").addEventListener("click", () => post("/api/calibration", { corners: null }));
$("live").addEventListener("click", (ev) => {
  if (corners === null) return;
  const r = ev.target.getBoundingClientRect();
  corners.push([Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height))]);
  if (corners.length < 4) { $("calib-hint").textContent = `click corner ${corners.length + 1} of 4`; return; }
  post("/api/calibration", { corners });
  corners = null;
  $("calib-hint").textContent = "";
});
if (token) $("live").src = withToken($("live").getAttribute("src"));
connect();
