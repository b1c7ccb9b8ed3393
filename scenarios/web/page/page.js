// tapeline's live table: the page is a client of the server's Game (docs/web-table.md).
// Every edit sends the whole table (PUT /api/scenario): the server validates it as a file and
// either keeps it or answers with located errors, and the page keeps its last valid table.
// Every question is POST /api/explain (the answer of /api/ask and its words); every picture
// POST /api/svg; the analysis maps POST /api/analyse, drawn as layers over the picture. Each
// request carries a number: an answer that is not the latest is dropped, so a slow answer never
// shows as the current one. Text from the table is put into the page only as text
// (textContent); the only markup inserted is the server's: its picture and its map layers
// (parsed as SVG), whose ids the server escapes.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  doc: null,          // the last valid table (the scenario document)
  undo: [], redo: [], // earlier and later tables
  picks: [],          // picked model ids, in order
  piece: null,        // the picked terrain piece
  question: null,     // the open question: {kind: "pair" | "charge" | "template" | "fight", ...}
  latest: 0,          // the number of the latest question asked
  pictured: 0,        // the number of the latest picture asked for
  polygon: [],        // the polygon being drawn
  catalogue: null,    // {system, profiles} of the table's system
  refused: [],        // what the last refused edit's errors name, marked on the picture
  maps: null,         // the analysis shown ({analysis, layers}), for the layout `mapsFor`
  mapsFor: null,      // the layout (the table without its units) and step the maps are of
  mapsAsked: 0,       // the number of the latest analysis asked for
  mapsOn: new Set(),  // the layers switched on ("exposure:terran" ...)
};
const TRAITS = ["impassable", "passable", "blocks_sight", "no_sight_block", "standable", "grass", "difficult",
                "dangerous", "cover", "access_point"];
// the rule each kind of verdict rests on, where the rule system names its section (the same
// sections the engine's own docstrings cite); a verdict without one shows no rule line
const RULES = {
  starcraft: {los: "§7.1 Line of Sight", engage: "§7.2 Engagement", charge: "§8.7.7 Charge", template: "§8.7.6 templates",
              fight: "§8.8.1 Close Combat"},
  heresy: {charge: "§A.3 Charge", fight: "§A.7 Fight"},
  classic40k: {charge: "§B.1 the assault move"},
};

// --- talking to the server -------------------------------------------------------------------------

// (the requests in flight are counted on the page's body, data-pending: 0 when all is answered)
let pending = 0;
function inFlight(k) { pending += k; document.body.dataset.pending = String(pending); }

async function call(method, path, body) {
  const opts = {method, headers: {}};
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["content-type"] = "application/json"; }
  inFlight(1);
  try {
    const r = await fetch(path, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = {error: {location: path, message: `the server answered ${r.status}`}}; }
    return {ok: r.ok, status: r.status, data};
  } catch (e) {
    return {ok: false, status: 0, data: {error: {location: path, message: `no answer from the server: ${e.message}`}}};
  } finally {
    // the caller's own work on the answer runs first: the count falls once it is done
    setTimeout(() => inFlight(-1), 0);
  }
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function status(text, busy) { const s = $("status"); s.textContent = text; s.classList.toggle("busy", !!busy); }

function showErrors(list) {
  const ul = $("errors");
  ul.replaceChildren();
  for (const e of list || []) {
    const li = el("li");
    li.append(el("code", e.location), document.createTextNode(": " + e.message));
    ul.append(li);
  }
}

function errorsOf(r) { return r.data.errors || (r.data.error ? [r.data.error] : [{location: "server", message: String(r.status)}]); }

// --- the table ---------------------------------------------------------------------------------------

function copy(x) { return JSON.parse(JSON.stringify(x)); }

function findModel(doc, id) {
  for (const u of doc.units) for (const m of u.models) if (m.id === id) return {unit: u, model: m};
  return null;
}
function unitOf(id) { const f = findModel(state.doc, id); return f ? f.unit.id : null; }

// Replace the table with `doc`: kept only if the server accepts it; the page shows why not.
async function commit(doc, what) {
  status(`checking ${what}`, true);
  const r = await call("PUT", "/api/scenario", doc);
  if (!r.ok) {
    showErrors(errorsOf(r));
    state.refused = located(doc, errorsOf(r));
    status(`${what}: refused, the table is as it was`);
    await picture();
    return false;
  }
  state.refused = [];
  state.undo.push(state.doc); state.redo = [];
  state.doc = doc;
  showErrors([]);
  status(`${what}: done`);
  await refresh();
  return true;
}

async function restore(from, to) {
  if (!from.length) return;
  const doc = from.pop();
  const r = await call("PUT", "/api/scenario", doc);
  if (!r.ok) { from.push(doc); showErrors(errorsOf(r)); return; }
  to.push(state.doc); state.doc = doc; showErrors([]);
  dropMissing();
  await refresh();
}

// The models and pieces a refusal's locations name (units[2].models[0] ..., terrain[1] ...),
// read in the table that was refused: marked on the picture of the table kept.
function located(doc, errors) {
  const out = [];
  for (const e of errors) {
    const m = /^units\[(\d+)\]\.models\[(\d+)\]/.exec(e.location || ""), p = /^terrain\[(\d+)\]/.exec(e.location || "");
    const u = m && doc.units[Number(m[1])], mm = u && u.models[Number(m[2])], piece = p && doc.terrain[Number(p[1])];
    if (mm) out.push(`.model[data-model="${CSS.escape(mm.id)}"]`);
    if (piece) out.push(`[data-terrain="${CSS.escape(piece.id)}"]`);
  }
  return out;
}

function dropMissing() {
  state.picks = state.picks.filter((id) => findModel(state.doc, id));
  if (state.piece && !state.doc.terrain.some((t) => t.id === state.piece)) state.piece = null;
  if (state.question && state.question.kind === "pair" && state.picks.length < 2) state.question = null;
}

async function refresh() { $("title").textContent = state.doc.name || ""; props(); await Promise.all([picture(), askOpen(), askMaps()]); }

// --- the picture -------------------------------------------------------------------------------------

function overlays() {
  // the zones are drawn while the maps or the Zone tool are in use
  const zones = ($("maps-on").checked || mode() === "zone") && (state.doc.zones || []).length ? {zones: true} : {};
  return Object.assign(zones, questionOverlays());
}

function questionOverlays() {
  const q = state.question;
  if (!q) return {};
  if (q.kind === "pair") return {los: [q.a, q.b]};
  if (q.kind === "charge" && q.targets.length) return {charge: q.unit, target: q.targets};
  if (q.kind === "template" && q.weapon) return {template: [q.unit, q.weapon, q.target], model: q.model};
  if (q.kind === "template") return q.shape === "flamer" ? {template: ["flamer"], at: q.at, toward: q.toward} : {template: [q.shape], at: q.at};
  return {};
}

async function picture() {
  const n = ++state.pictured;
  const r = await call("POST", "/api/svg", {overlays: overlays()});
  if (n !== state.pictured) return;  // a later picture is on its way
  if (!r.ok) { showErrors(errorsOf(r)); return; }
  const svg = r.data.svg;
  $("board").innerHTML = svg;  // the server's picture: every id in it is escaped by the renderer
  for (const id of state.picks) mark(`.model[data-model="${CSS.escape(id)}"]`);
  if (state.piece) mark(`[data-terrain="${CSS.escape(state.piece)}"]`);
  for (const sel of state.refused) { const e = $("board").querySelector(sel); if (e) e.classList.add("refused"); }
  drawMaps();
  $("board").dataset.picture = String(n);
}

function mark(sel) { const e = $("board").querySelector(sel); if (e) e.classList.add("picked"); }

function boardPoint(evt) {
  const g = $("board").querySelector("g.board");
  const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(g.getScreenCTM().inverse());
  return [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100];
}

// --- the analysis maps (docs/web-table.md "Maps") -----------------------------------------------
// The maps are of the layout alone (the units are taken off the table): a drag keeps them; a
// change of the terrain, the zones or the table drops them at once and asks again, and only the
// latest answer is shown.

function layoutOf(doc, step) { const d = copy(doc); delete d.units; return JSON.stringify([d, step]); }

async function askMaps() {
  const box = $("maps");
  box.hidden = !$("maps-on").checked;
  zonesList();
  if (box.hidden) { drawMaps(); return; }
  const step = Number($("maps-step").value);
  const key = layoutOf(state.doc, step);
  if (state.maps && state.mapsFor === key) { drawMaps(); return; }
  const n = ++state.mapsAsked;
  state.maps = null; state.mapsFor = null;  // the maps shown are not this table's: off the board
  drawMaps(); showMaps();
  box.dataset.state = "asking";
  $("maps-message").textContent = `computing the maps at a ${step}" step`;
  const r = await call("POST", "/api/analyse", {step});
  if (n !== state.mapsAsked) return;  // stale: the table or the step changed meanwhile
  if (!r.ok) {
    const e = r.data.error || errorsOf(r)[0];
    box.dataset.state = "refused";
    $("maps-message").textContent = `${e.location}: ${e.message}` +
      (e.location === "zones" ? ". Draw a zone for each side with the Zone tool (a rectangle), or open a file with zones." : "");
    return;
  }
  state.maps = r.data; state.mapsFor = key;
  $("maps-message").textContent = `${r.data.cells.toLocaleString("en")} positions, a ${step}" step; switch a layer on:`;
  showMaps(); drawMaps();
  box.dataset.state = "answered"; box.dataset.answer = String(n);
}

const MAP_NAMES = {exposure: "exposure of", hidden: "hidden spots of", reach: "reach from"};
function layerKey(l) { return `${l.map}:${l.side}`; }

// the layer switches, each with its colour scale, and the headline figures
function showMaps() {
  const list = $("maps-layers"), figures = $("maps-figures");
  list.replaceChildren(); figures.replaceChildren();
  const m = state.maps;
  if (!m) return;
  for (const l of m.layers) {
    const label = el("label"), c = el("input");
    c.type = "checkbox"; c.dataset.map = l.map; c.dataset.side = l.side; c.checked = state.mapsOn.has(layerKey(l));
    c.addEventListener("change", () => { c.checked ? state.mapsOn.add(layerKey(l)) : state.mapsOn.delete(layerKey(l)); drawMaps(); });
    label.append(c, document.createTextNode(` ${MAP_NAMES[l.map]} ${l.side}` + (l.map === "hidden" ? ` (${l.cells})` : "")));
    label.title = l.title;
    list.append(label);
    if (l.map !== "hidden") {
      const s = l.scale, fmt = (v) => (s.percent ? `${Math.round(100 * v)}%` : `${v.toFixed(1)}${s.unit}`);
      const scale = el("div", null, "scale"), ramp = el("span", null, "ramp");
      ramp.style.background = `linear-gradient(to right, ${s.colours.join(", ")})`;
      scale.append(el("span", fmt(s.low)), ramp, el("span", fmt(s.high)));
      if (l.contours.length) scale.append(el("span", `contours at ${l.contours.map((d) => `${d}"`).join(", ")}`));
      list.append(scale);
    }
  }
  const a = m.analysis, [s0, s1] = a.sides, b = a.balance;
  const pct = (v) => (v === null ? "—" : percent(v));
  const row = (k, v, name) => { const dd = el("dd", v); if (name) dd.id = `maps-${name}`; figures.append(el("dt", k), dd); return dd; };
  row("open lanes", `${pct(a.open_lanes)} of the zone-to-zone pairs see each other`, "open-lanes").dataset.value = String(a.open_lanes);
  const ll = a.longest_lane;
  row("longest open sight line", ll ? `${inches(ll.length)} from (${ll.from.join(", ")}) to (${ll.to.join(", ")})` : "none", "longest-lane")
    .dataset.value = String(ll ? ll.length : null);
  for (const s of a.sides) row(`${s}: hidden spots`, `${a.hidden[s] ?? "—"} of ${a.standable} positions`);
  for (const s of a.sides) row(`${s}: mean exposure`, pct(b.exposure[s]));
  for (const s of a.sides) row(`${s}: mean reach`, b.reach[s] === null ? "—" : inches(b.reach[s]));
  for (const s of a.sides) {
    const w = Object.entries(a.reach_within[s]), ends = w.length > 1 ? [w[0], w[w.length - 1]] : w;
    row(`${s}: charge reaches`, ends.map(([d, v]) => `${pct(v)} within ${d}"`).join(", ") + ` of ${s === s0 ? s1 : s0}'s zone`);
  }
  row("balance", (b.favours ? `favours ${b.favours}` : "even") +
      ` (exposure ${b.exposure_difference ?? "—"}, reach ${b.reach_difference ?? "—"}: ${s0} minus ${s1})`, "balance").dataset.favours = String(b.favours);
}

// lay the layers switched on over the board picture, under the models (drawn again with each picture)
function drawMaps() {
  const board = $("board").querySelector("g.board");
  if (!board) return;
  board.querySelectorAll("g.map-layer").forEach((g) => g.remove());
  if (!state.maps || $("maps").hidden) return;
  const first = board.querySelector("[data-model]");
  let before = first;
  while (before && before.parentNode !== board) before = before.parentNode;
  for (const l of state.maps.layers) {
    if (!state.mapsOn.has(layerKey(l))) continue;
    // the server's SVG, parsed as SVG (its ids escaped by the server), never as HTML
    const parsed = new DOMParser().parseFromString(`<svg xmlns="http://www.w3.org/2000/svg">${l.svg}</svg>`, "image/svg+xml");
    board.insertBefore(document.importNode(parsed.documentElement.firstElementChild, true), before || board.querySelector("rect.edge"));
  }
}

// the table's zones, each with a delete button (a drawn zone is kept only if the table is valid)
function zonesList() {
  const box = $("maps-zones");
  box.replaceChildren();
  const sides = $("zone-sides"); sides.replaceChildren();
  for (const s of new Set(state.doc.units.map((u) => u.side))) { const o = el("option"); o.value = s; sides.append(o); }
  const zones = state.doc.zones || [];
  box.append(el("h3", zones.length ? "zones" : "no zones: draw one for each side with the Zone tool"));
  for (const z of zones) {
    const line = el("div"); line.dataset.zone = z.id;
    const del = el("button", "Delete");
    del.addEventListener("click", () => { const doc = copy(state.doc); doc.zones = doc.zones.filter((y) => y.id !== z.id); if (!doc.zones.length) delete doc.zones; commit(doc, `delete zone ${z.id}`); });
    line.append(document.createTextNode(`${z.id} (${z.side}) `), del);
    box.append(line);
  }
}

function addZone(footprint) {
  const doc = copy(state.doc), side = $("zone-side").value.trim() || "player-1";
  const zones = doc.zones || [];
  const id = newId(`${side.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40) || "side"}-zone`, new Set(zones.map((z) => z.id)));
  doc.zones = [...zones, {id, side, footprint}];
  return commit(doc, `draw zone ${id}`);
}

// --- questions ---------------------------------------------------------------------------------------

async function explain(command, args) {
  const r = await call("POST", "/api/explain", {command, args});
  return r.ok ? {answer: r.data.answer, text: r.data.text} : {error: r.data.error};
}

// Ask the open question again (after a pick, a drag, an edit): only the latest answer is shown.
async function askOpen() {
  const q = state.question;
  const n = ++state.latest;
  const out = $("answer");
  if (!q) { out.replaceChildren(); out.dataset.question = ""; return; }
  out.dataset.state = "asking";
  status("asking…", true);
  let shown;
  if (q.kind === "pair") {
    const [m, l] = await Promise.all([explain("measure", [q.a, q.b]), explain("los", [q.a, q.b])]);
    shown = () => showPair(q, m, l);
  } else if (q.kind === "charge") {
    if (!q.targets.length) { out.replaceChildren(el("p", `${q.unit} charges: pick the target models`, "hint")); status(""); return; }
    const args = ["--unit", q.unit, ...q.targets.flatMap((t) => ["--target", t])];
    if (q.roll) args.push("--roll", String(q.roll));
    const c = await explain("charge", args);
    shown = () => showCharge(q, c);
  } else if (q.kind === "template") {
    const args = q.weapon ? ["--unit", q.unit, "--weapon", q.weapon, "--target", q.target, "--model", q.model]
                          : ["--shape", q.shape, "--at", q.at.join(",")];
    if (q.toward) args.push("--toward", q.toward.join(","));
    const t = await explain("template", args);
    shown = () => showTemplate(q, t);
  } else if (q.kind === "fight") {
    const f = await explain("fight", ["--unit", q.unit]);
    shown = () => showFight(q, f);
  }
  if (n !== state.latest) return;  // stale: a later question was asked meanwhile
  out.replaceChildren();
  shown();
  out.dataset.state = "answered";
  out.dataset.answer = String(n);
  status("");
}

function dl(rows) {
  const d = el("dl");
  for (const [k, v] of rows) { d.append(el("dt", k), el("dd", v)); }
  return d;
}
function inches(x) { return x === null || x === undefined ? "—" : `${Number(x).toFixed(3)}"`; }
function percent(p) { return `${(100 * p).toFixed(1)}%`; }
function rule(kind) { const r = (RULES[state.doc.system] || {})[kind]; return r ? el("p", "rule: " + r, "rule") : document.createTextNode(""); }
function failed(box, what, res) { box.append(el("p", `${what}: ${res.error.location}: ${res.error.message}`, "verdict no")); }

function showPair(q, m, l) {
  const box = $("answer");
  box.className = "answer"; box.dataset.question = "pair";
  box.append(el("h2", `${q.a} and ${q.b}`));
  if (l.error) failed(box, "line of sight", l);
  else {
    const v = l.answer;
    const p = el("p", v.visible ? `${q.b} is visible to ${q.a}` : `${q.b} is not visible to ${q.a}`, "verdict " + (v.visible ? "yes" : "no"));
    p.id = "los-verdict"; p.dataset.visible = String(v.visible);
    box.append(p);
    if (v.visible && v.witness) box.append(el("p", `a clear sight line (drawn in green) from (${v.witness[0].map((x) => x.toFixed(2))}) to (${v.witness[1].map((x) => x.toFixed(2))})` + (v.clearance != null ? `, ${inches(v.clearance)} clear of the nearest blocker` : "")));
    for (const b of v.blocked_by || []) box.append(el("p", `blocked by ${b.terrain || b.model || "?"}: ${String(b.reason).replace(/_/g, " ")} (drawn in red)`));
    box.append(el("p", v.detail), rule("los"));
  }
  if (m.error) failed(box, "measure", m);
  else {
    const a = m.answer;
    box.append(dl([["gap", inches(a.gap)], ["base contact", a.contact ? "yes" : "no"],
                   ["Engagement Range", `${a.engagement_range ? "within" : "outside"} ${inches(a.engagement_distance)}`],
                   ["engaged", a.engaged ? "yes" : "no"]]));
    box.append(rule("engage"));
  }
}

function showCharge(q, c) {
  const box = $("answer");
  box.className = "answer"; box.dataset.question = "charge";
  box.append(el("h2", `${q.unit} charges ${q.targets.join(", ")}`));
  if (c.error) { failed(box, "charge", c); return; }
  const a = c.answer;
  const p = el("p", a.min_roll == null ? "the charge cannot succeed" : `needs a roll of ${a.min_roll} or more: ${percent(a.probability)} (exactly ${a.probability_fraction})`,
               "verdict " + (a.probability > 0 ? "yes" : "no"));
  p.id = "charge-verdict"; box.append(p);
  box.append(dl([["Leading Model", a.leader], ["distance", inches(a.distance)], ["dice", a.dice || ""],
                 ["path", a.path ? `drawn in cyan, ${a.path.length} points` : "none"]]));
  if (a.roll) box.append(el("p", `with a roll of ${q.roll}: ` + (a.success ? "the charge succeeds (its end drawn dashed)" : "the charge fails"), "verdict " + (a.success ? "yes" : "no")));
  box.append(el("pre", c.text), rule("charge"));
}

function showTemplate(q, t) {
  const box = $("answer");
  box.className = "answer"; box.dataset.question = "template";
  box.append(el("h2", q.weapon ? `${q.weapon} of ${q.model} at ${q.target}` : `${q.shape.replace("_", " ")} at (${q.at.join(", ")})`));
  if (t.error) { failed(box, "template", t); return; }
  const a = t.answer;
  const p = el("p", `${a.covered.length} model${a.covered.length === 1 ? "" : "s"} covered`, "verdict"); p.id = "template-verdict";
  box.append(p);
  const table = el("table", null, "rows"); table.id = "coverage";
  const head = el("tr"); for (const h of ["model", "unit", "covered", "by"]) head.append(el("th", h)); table.append(head);
  for (const row of a.covered) {
    const tr = el("tr"); tr.dataset.model = row.model;
    tr.append(el("td", row.model), el("td", row.unit || ""), el("td", row.full ? "wholly" : "partly"),
              el("td", row.full ? `${inches(row.inside)} inside the edge` : `${inches(row.overlap)} under the template`));
    table.append(tr);
  }
  box.append(table);
  if (a.near_misses && a.near_misses.length) box.append(el("p", "near misses: " + a.near_misses.map((n) => `${n.model} (${inches(n.gap)})`).join(", ")));
  if (q.weapon) {  // the weapon's verdict: who is affected or excluded, each Batch's exact odds
    const words = el("pre", t.text); words.id = "template-words"; box.append(words);
  }
  box.append(rule("template"));
}

function bars(title, pmf, labels) {
  const wrap = el("div"); wrap.append(el("h3", title));
  const g = el("div", null, "bars");
  const top = Math.max(...pmf, 1e-12);
  pmf.forEach((p, i) => {
    const bar = el("div", null, "bar"); bar.style.width = `${(100 * p / top).toFixed(1)}%`; bar.title = percent(p);
    g.append(el("span", labels ? labels[i] : i), bar, el("span", percent(p)));
  });
  wrap.append(g);
  return wrap;
}

function showFight(q, f) {
  const box = $("answer");
  box.className = "answer"; box.dataset.question = "fight";
  box.append(el("h2", `the fight of ${q.unit}`));
  if (f.error) { failed(box, "fight", f); return; }
  const a = f.answer;
  if (a.fighters) box.append(dl(Object.entries(a.fighters).map(([u, ms]) => [u, `fights: ${ms.join(", ") || "no model"}`])));
  if (a.steps) {
    const table = el("table", null, "rows");
    const head = el("tr"); for (const h of ["step", "unit", "weapon", "attacks", "hit", "wound", "save"]) head.append(el("th", h)); table.append(head);
    for (const s of a.steps) {
      const tr = el("tr");
      tr.append(el("td", s.initiative ?? ""), el("td", `${s.unit} → ${s.target}`), el("td", s.weapon ?? ""), el("td", s.attacks ?? ""),
                el("td", s.hit_on != null ? `${s.hit_on}+` : ""), el("td", s.wound_on != null ? `${s.wound_on}+` : ""),
                el("td", s.save_on != null ? `${s.save_on}+` : "none"));
      table.append(tr);
    }
    box.append(table);
  }
  for (const [u, pmf] of Object.entries(a.casualties_pmf || {})) box.append(bars(`casualties of ${u}`, pmf));
  if (a.result) box.append(bars("result", Object.values(a.result), Object.keys(a.result)));
  if (!a.steps) box.append(el("pre", f.text));
  box.append(rule("fight"));
}

// --- pointing at the board ---------------------------------------------------------------------------

function mode() { return document.querySelector('input[name="mode"]:checked').value; }
// whether a click, even on a model, places something at its point (a Blast, a unit)
// (a Flamer's aim too, once its firer is picked: a click on another model aims at that point)
function placing(id) {
  const m = mode(), shape = $("shape").value;
  if (m === "template" && shape === "flamer") return state.picks.length === 1 && id !== state.picks[0];
  return (m === "template" && shape !== "weapon") || m === "unit" || m === "polygon";
}

async function pickModel(id) {
  const m = mode();
  if (m === "charge") {
    const u = unitOf(id);
    if (!state.question || state.question.kind !== "charge") { state.question = {kind: "charge", unit: u, targets: [], roll: null}; state.picks = [id]; }
    else if (u !== state.question.unit && !state.question.targets.includes(u)) { state.question.targets.push(u); state.picks.push(id); }
  } else if (m === "fight") {
    state.question = {kind: "fight", unit: unitOf(id)}; state.picks = [id];
  } else if (m === "template" && $("shape").value === "weapon" && state.picks.length === 1 && unitOf(id) !== unitOf(state.picks[0])) {
    const weapon = $("weapon").value.trim();
    if (!weapon) { showErrors([{location: "weapon", message: "name the firer's template weapon (its id, as in the file or the catalogue)"}]); return; }
    state.picks.push(id);
    state.question = {kind: "template", weapon, unit: unitOf(state.picks[0]), model: state.picks[0], target: id};
  } else if (m === "template") {
    state.picks = [id];  // the firer of a Flamer or of a template weapon
  } else {
    state.picks = state.picks.length >= 2 || state.picks[0] === id ? [id] : [...state.picks, id];
    state.question = state.picks.length === 2 ? {kind: "pair", a: state.picks[0], b: state.picks[1]} : null;
  }
  state.piece = null;
  props();
  await Promise.all([picture(), askOpen()]);
}

async function boardClick(at) {
  const m = mode();
  if (m === "template") {
    const shape = $("shape").value;
    if (shape === "flamer") {
      if (!state.picks.length) { showErrors([{location: "template", message: "pick the firing model first, then click where the Flamer points"}]); return; }
      state.question = {kind: "template", shape, at: baseEdge(state.picks[0], at), toward: at};
    } else state.question = {kind: "template", shape, at};
    await Promise.all([picture(), askOpen()]);
  } else if (m === "unit") await addUnit(at);
  else if (m === "polygon") {
    state.polygon.push(at);
    status(`polygon: ${state.polygon.length} point${state.polygon.length === 1 ? "" : "s"}; Finish polygon when done`);
  }
}

// The point of a model's base edge toward `aim` (a Flamer's tip touches the firer's base):
// read from the picture's own base (a circle, or an ellipse turned by its facing).
function baseEdge(id, aim) {
  const b = $("board").querySelector(`.model[data-model="${CSS.escape(id)}"]`);
  const cx = Number(b.getAttribute("cx")), cy = Number(b.getAttribute("cy"));
  const dx = aim[0] - cx, dy = aim[1] - cy, d = Math.hypot(dx, dy) || 1;
  let r;
  if (b.tagName === "circle") r = Number(b.getAttribute("r"));
  else {
    const m = /rotate\(([-\d.e]+)/.exec(b.getAttribute("transform") || "");
    const phi = Math.atan2(dy, dx) - (m ? Number(m[1]) * Math.PI / 180 : 0);
    const a = Number(b.getAttribute("rx")), c = Number(b.getAttribute("ry"));
    r = a * c / Math.hypot(c * Math.cos(phi), a * Math.sin(phi));
  }
  r += 1e-6;  // a millionth of an inch outside the base (within the contact tolerance), so the
              // point rounded to six decimals never falls inside the firer's own base
  return [Math.round((cx + r * dx / d) * 1e6) / 1e6, Math.round((cy + r * dy / d) * 1e6) / 1e6];
}

function newId(prefix, taken) { let i = 1; while (taken.has(`${prefix}-${i}`)) i++; return `${prefix}-${i}`; }
function takenIds(doc) { return new Set([...doc.units.map((u) => u.id), ...doc.units.flatMap((u) => u.models.map((m) => m.id)), ...doc.terrain.map((t) => t.id)]); }

async function addUnit(at) {
  const key = $("profile").value;  // "": a typed profile (the stats and the base given here)
  const prof = (state.catalogue.profiles || []).find((p) => p.key === key) || {};
  const n = Math.max(1, Math.min(30, parseInt($("count").value, 10) || 1));
  const doc = copy(state.doc), taken = takenIds(doc);
  let stats;
  if ($("stats").value.trim()) {
    try { stats = JSON.parse($("stats").value); } catch (e) { showErrors([{location: "stats", message: `not JSON: ${e.message}`}]); return; }
  } else if (!key) { showErrors([{location: "stats", message: "a typed profile needs its stats (or choose a profile of the catalogue)"}]); return; }
  const mm = Number($("base-mm").value) || 0;
  const base = mm || (Array.isArray(prof.base) ? Math.max(...prof.base) : (prof.base || 32));
  const step = base / 25.4 + 0.2;
  const uid = newId(key || "unit", taken); taken.add(uid);
  const models = [];
  // short model ids, so the picture's labels stay readable: the profile's first letters and a number
  const short = (key || "unit").replace(/[^A-Za-z0-9]/g, "").slice(0, 2).toLowerCase() || "m";
  for (let i = 0; i < n; i++) {
    let k = 1; while (taken.has(`${short}${k}`)) k++;
    const id = `${short}${k}`; taken.add(id);
    models.push({id, at: [Math.round((at[0] + i * step) * 100) / 100, at[1]]});
  }
  const unit = {id: uid, side: $("side").value.trim() || "player-1"};
  if (key) unit.profile = key;
  if (mm) unit.base = mm;
  if (stats !== undefined) unit.stats = stats;
  unit.models = models;
  doc.units.push(unit);
  await commit(doc, `add ${uid}`);
}

function addPiece(footprint) {
  const doc = copy(state.doc);
  const id = newId("piece", takenIds(doc));
  doc.terrain.push({id, footprint, size: doc.system === "starcraft" ? 2 : 0, height: 2});
  state.piece = id;
  return commit(doc, `draw ${id}`);
}

// Drag a model (update its `at`), draw a rectangle or a circle; a click without a move picks.
function onPointerDown(evt) {
  if (evt.button !== 0 || !$("board").querySelector("g.board")) return;
  const target = evt.target.closest("[data-model], [data-terrain]");
  const start = boardPoint(evt), sx = evt.clientX, sy = evt.clientY;
  const m = mode();
  const drawing = m === "rect" || m === "circle" || m === "zone";
  const model = target && target.hasAttribute("data-model") ? target : null;
  let moved = false;
  const move = (e) => {
    if (Math.hypot(e.clientX - sx, e.clientY - sy) > 3) moved = true;
    if (moved && model && !drawing) {
      const p = boardPoint(e);
      model.setAttribute("transform", `translate(${p[0] - start[0]} ${p[1] - start[1]}) ` + (model.dataset.rot || ""));
    }
  };
  if (model) model.dataset.rot = model.getAttribute("transform") || "";
  const up = async (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    const end = boardPoint(e);
    if (drawing && moved) {
      const [x0, x1] = [Math.min(start[0], end[0]), Math.max(start[0], end[0])], [y0, y1] = [Math.min(start[1], end[1]), Math.max(start[1], end[1])];
      const rect = [x0, y0, Math.round((x1 - x0) * 100) / 100, Math.round((y1 - y0) * 100) / 100];
      if (m === "rect") await addPiece({rect});
      else if (m === "zone") await addZone({rect});
      else await addPiece({circle: [start[0], start[1], Math.round(Math.hypot(end[0] - start[0], end[1] - start[1]) * 100) / 100]});
    } else if (model && moved) {
      const id = model.getAttribute("data-model");
      const doc = copy(state.doc), f = findModel(doc, id);
      f.model.at = [Math.round((f.model.at[0] + end[0] - start[0]) * 100) / 100, Math.round((f.model.at[1] + end[1] - start[1]) * 100) / 100];
      await commit(doc, `move ${id}`);
    } else if (model && !placing(model.getAttribute("data-model"))) await pickModel(model.getAttribute("data-model"));
    else if (target && !moved && mode() === "pick") { state.piece = target.getAttribute("data-terrain"); state.picks = []; props(); await picture(); }
    else if (!moved) await boardClick(end);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  evt.preventDefault();
}

// --- what is picked: its settings ---------------------------------------------------------------------

function field(label, value, onchange, attrs) {
  const l = el("label", label + " ");
  const i = el("input"); i.value = value ?? "";
  Object.assign(i, attrs || {});
  i.addEventListener("change", () => onchange(i.value));
  l.append(i);
  return l;
}
function num(v) { return v === "" ? undefined : Number(v); }

function props() {
  const box = $("props");
  box.replaceChildren();
  if (state.piece) {
    const t = state.doc.terrain.find((p) => p.id === state.piece);
    if (!t) return;
    const edit = (f) => { const doc = copy(state.doc); f(doc.terrain.find((p) => p.id === t.id)); return commit(doc, `edit ${t.id}`); };
    box.append(el("h2", `terrain ${t.id}`));
    box.append(field("Size", t.size ?? 0, (v) => edit((p) => { p.size = num(v); }), {type: "number", min: 0, step: 1}));
    box.append(field("height", t.height ?? 0, (v) => edit((p) => { p.height = num(v); }), {type: "number", min: 0, step: "any"}));
    box.append(field("on (stacked on piece)", t.on ?? "", (v) => edit((p) => { if (v.trim()) p.on = v.trim(); else delete p.on; })));
    const traits = el("div", null, "traits");
    for (const tr of TRAITS) {
      const l = el("label"), c = el("input"); c.type = "checkbox"; c.checked = (t.traits || []).includes(tr);
      c.addEventListener("change", () => edit((p) => { const s = new Set(p.traits || []); c.checked ? s.add(tr) : s.delete(tr); p.traits = TRAITS.filter((x) => s.has(x)); }));
      l.append(c, document.createTextNode(" " + tr.replace(/_/g, " "))); traits.append(l);
    }
    box.append(traits);
    const del = el("button", "Delete piece"); del.addEventListener("click", () => { const doc = copy(state.doc); doc.terrain = doc.terrain.filter((p) => p.id !== t.id); state.piece = null; commit(doc, `delete ${t.id}`); });
    box.append(del);
  } else if (state.picks.length === 1 && mode() === "pick") {
    const id = state.picks[0], f = findModel(state.doc, id);
    if (!f) return;
    const edit = (g) => { const doc = copy(state.doc); g(findModel(doc, id).model, findModel(doc, id).unit); return commit(doc, `edit ${id}`); };
    box.append(el("h2", `model ${id} (${f.unit.id})`));
    box.append(field("x", f.model.at[0], (v) => edit((m) => { m.at = [num(v), m.at[1]]; }), {type: "number", step: "any"}));
    box.append(field("y", f.model.at[1], (v) => edit((m) => { m.at = [m.at[0], num(v)]; }), {type: "number", step: "any"}));
    box.append(field("facing (degrees; turns an oval base)", f.model.facing ?? 0, (v) => edit((m) => { m.facing = num(v) || 0; }), {type: "number", step: "any", min: -360, max: 360}));
    box.append(field("on (piece it stands on)", f.model.on ?? "", (v) => edit((m) => { if (v.trim()) m.on = v.trim(); else delete m.on; })));
    box.append(field("height", f.model.height ?? "", (v) => edit((m) => { if (v === "") delete m.height; else m.height = num(v); }), {type: "number", step: "any", min: 0}));
    const del = el("button", "Delete model");
    del.addEventListener("click", () => {
      const doc = copy(state.doc), g = findModel(doc, id);
      g.unit.models = g.unit.models.filter((m) => m.id !== id);
      if (!g.unit.models.length) doc.units = doc.units.filter((u) => u !== g.unit);
      else if (g.unit.leader === id) delete g.unit.leader;
      state.picks = []; state.question = null;
      commit(doc, `delete ${id}`);
    });
    box.append(del);
  }
}

// --- saving ------------------------------------------------------------------------------------------

function download(name, type, data) {
  const a = el("a"); a.href = URL.createObjectURL(new Blob([data], {type})); a.download = name;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
function baseName() { return (state.doc.name || "table").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "table"; }

async function saveTable(format) {
  const r = await fetch(format === "yaml" ? "/api/scenario?format=yaml" : "/api/scenario");
  download(`${baseName()}.${format}`, format === "yaml" ? "application/yaml" : "application/json", await r.text());
}
function saveSvg() { const s = $("board").querySelector("svg"); if (s) download(`${baseName()}.svg`, "image/svg+xml", s.outerHTML); }
function savePng() {
  const s = $("board").querySelector("svg"); if (!s) return;
  const img = new Image(), w = Number(s.getAttribute("width")), h = Number(s.getAttribute("height"));
  img.onload = () => {
    const c = el("canvas"); c.width = w; c.height = h;
    const ctx = c.getContext("2d"); ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, w, h); ctx.drawImage(img, 0, 0);
    c.toBlob((b) => download(`${baseName()}.png`, "image/png", b));
  };
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(s.outerHTML);
}

// --- start -------------------------------------------------------------------------------------------

async function loadCatalogue() {
  const r = await call("GET", `/api/units?system=${encodeURIComponent(state.doc.system)}`);
  state.catalogue = r.ok ? r.data : {profiles: []};
  const sel = $("profile"); sel.replaceChildren();
  const typed = el("option", "a typed profile (the stats below)"); typed.value = ""; sel.append(typed);
  for (const p of state.catalogue.profiles) { const o = el("option", p.name ? `${p.name} (${p.key})` : p.key); o.value = p.key; sel.append(o); }
}

async function blankTable() {
  const size = $("size").value;
  const [w, h] = size === "custom" ? [Number($("custom-w").value), Number($("custom-h").value)] : size.split("x").map(Number);
  const doc = {tapeline: 1, system: $("system").value, name: "", board: {width: w, height: h}, terrain: [], units: []};
  state.picks = []; state.piece = null; state.question = null;
  if (await commit(doc, "new table")) await loadCatalogue();
}

function modeChanged() {
  const m = mode();
  $("add-unit").hidden = m !== "unit";
  $("charge-controls").hidden = m !== "charge";
  $("finish-polygon").hidden = m !== "polygon";
  $("zone-tool").hidden = m !== "zone";
  $("board").classList.toggle("drawing", ["rect", "circle", "polygon", "unit", "template", "zone"].includes(m));
  state.polygon = [];
  props();
  if ((m === "zone") !== (lastMode === "zone")) picture();  // the zones drawn, or no longer
  lastMode = m;
}
let lastMode = "pick";

async function start() {
  const [info, doc] = await Promise.all([call("GET", "/api/info"), call("GET", "/api/scenario")]);
  for (const s of info.data.systems) { const o = el("option", s); o.value = s; $("system").append(o); }
  state.doc = doc.data;
  $("system").value = state.doc.system;
  $("board").addEventListener("pointerdown", onPointerDown);
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", modeChanged));
  $("shape").addEventListener("change", () => { $("weapon").hidden = $("shape").value !== "weapon"; modeChanged(); });
  $("size").addEventListener("change", () => { $("custom-size").hidden = $("size").value !== "custom"; });
  $("blank").addEventListener("click", blankTable);
  $("undo").addEventListener("click", () => restore(state.undo, state.redo));
  $("redo").addEventListener("click", () => restore(state.redo, state.undo));
  $("save-yaml").addEventListener("click", () => saveTable("yaml"));
  $("save-json").addEventListener("click", () => saveTable("json"));
  $("save-svg").addEventListener("click", saveSvg);
  $("save-png").addEventListener("click", savePng);
  $("maps-on").addEventListener("change", () => Promise.all([askMaps(), picture()]));
  $("maps-step").addEventListener("change", askMaps);
  $("clear").addEventListener("click", async () => { state.picks = []; state.piece = null; state.question = null; props(); await Promise.all([picture(), askOpen()]); });
  $("finish-polygon").addEventListener("click", async () => { const pts = state.polygon; state.polygon = []; if (pts.length >= 3) await addPiece({polygon: pts}); });
  $("ask-charge").addEventListener("click", () => { if (state.question && state.question.kind === "charge") { const v = parseInt($("roll").value, 10); state.question.roll = v >= 1 && v <= 6 ? v : null; askOpen(); } });
  $("push-charge").addEventListener("click", async () => {
    const q = state.question; if (!q || q.kind !== "charge" || !q.targets.length) return;
    const r = await call("POST", "/api/push", {action: {action: "charge", unit: q.unit, targets: q.targets}});
    if (!r.ok) { showErrors(errorsOf(r)); return; }
    showErrors([]); status(`charge made: ${r.data.events.length} events`);
    state.question = null; state.picks = [];  // the charge is made: the board shows where it ended
    state.latest++;  // an answer still on its way is stale now
    const box = $("answer"); box.replaceChildren(el("h2", `${q.unit} charged ${q.targets.join(", ")}`));
    const ev = el("pre", r.data.events.map((e) => JSON.stringify(e)).join("\n")); ev.id = "events"; box.append(ev);
    await picture();
  });
  $("pop").addEventListener("click", async () => { const r = await call("POST", "/api/pop"); if (!r.ok) showErrors(errorsOf(r)); else { showErrors([]); await refresh(); } });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); restore(state.undo, state.redo); }
    if ((e.ctrlKey || e.metaKey) && e.key === "y") { e.preventDefault(); restore(state.redo, state.undo); }
  });
  await loadCatalogue();
  await refresh();
  status("ready: pick two models, drag one, or choose a tool");
  document.body.dataset.ready = "1";
}

start();
