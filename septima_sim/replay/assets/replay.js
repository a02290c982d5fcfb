"use strict";
// Septima replay viewer. Every value shown comes from the recorded public snapshots (replay-data); names are inserted
// as text nodes only, never as markup.
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const board = document.getElementById("board");
  const NS = board.namespaceURI; // the inline SVG's namespace (no URL literal in the page)
  const S = 48; // pixels per hex unit
  const INGREDIENT_FILL = { herb: "#cfe8b8", root: "#e3cfa8", berry: "#e8c3d6", mushroom: "#d8d0e8", skull: "#ddd8cc", "": "#eee" };
  const FLAG = { red: "#d33", blue: "#36c", yellow: "#e5b800" };
  const COLOUR = { green: "#2e8b3d", orange: "#e07b1a", purple: "#7b3fa0", gray: "#6b6b6b" };
  const SHRINE = { air: "\u2601", fire: "\u2668", earth: "\u25B2", water: "\u2248" };

  // ---------------------------------------------------------------- frames from the delta encoding
  const frames = [];
  for (const delta of D.deltas) {
    if (!frames.length) { frames.push(delta); continue; }
    const prev = frames[frames.length - 1];
    const cur = Object.assign({}, prev);
    for (const key of Object.keys(delta)) {
      if (key === "players") {
        cur.players = prev.players.map((p, s) => (delta.players[String(s)] ? Object.assign({}, p, delta.players[String(s)]) : p));
      } else {
        cur[key] = delta[key];
      }
    }
    frames.push(cur);
  }
  const last = frames.length - 1;
  const turnKey = (f) => f.season * 100 + f.turn;
  const turnStarts = [];
  frames.forEach((f, i) => { if (i === 0 || turnKey(f) !== turnKey(frames[i - 1])) turnStarts.push(i); });

  // ---------------------------------------------------------------- small DOM helpers (text only)
  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const kid of kids) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return node;
  }
  function sv(tag, attrs, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  const seatName = (s) => "seat " + s + " (" + D.names.colours[s] + ")";
  // seat -1 is the Black Widow for her own turn's events in solo, otherwise the table (season end, Omen, trial)
  const eventWho = (e) => (e.seat >= 0 ? seatName(e.seat) : e.seat === -1 ? "Widow" : "Table"); // -1 Widow, -2 table
  const actionName = (id) => D.names.actions[id] || id;

  // ---------------------------------------------------------------- static board
  const V = D.board.vertices.map(([x, y]) => [x * S, y * S]);
  const xs = V.map((v) => v[0]), ys = V.map((v) => v[1]);
  const R = Math.max(...V.map(([x, y]) => Math.hypot(x, y))) + 14; // just outside the map
  const minX = Math.min(-R - 30, Math.min(...xs) - 40), maxX = Math.max(R + 30, Math.max(...xs) + 40);
  const minY = Math.min(-R - 8, Math.min(...ys)) - 90, maxY = Math.max(R + 14, Math.max(...ys) + 30);
  board.setAttribute("viewBox", [minX, minY, maxX - minX, maxY - minY].join(" "));
  const staticLayer = sv("g", { class: "static" });
  const regionLayer = sv("g", { class: "regions", opacity: 0.45 });
  const dynamicLayer = sv("g", { class: "dynamic" });
  board.append(staticLayer, regionLayer, dynamicLayer);
  // the six regions: 60-degree wedges around the map centre, numbered counterclockwise from the east
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3, m = a + Math.PI / 6;
    regionLayer.append(sv("line", { x1: 0, y1: 0, x2: R * Math.cos(a), y2: -R * Math.sin(a), stroke: "#555", "stroke-dasharray": "2 5" }));
    staticLayer.append(sv("text", { x: (R + 4) * Math.cos(m), y: -(R + 4) * Math.sin(m) + 3, "text-anchor": "middle", "font-size": 9, fill: "#666" }, "region " + (k + 1)));
  }
  const spaceXY = {};
  for (const a of D.board.areas) {
    const pts = a.vertices.map((v) => V[v].join(",")).join(" ");
    const cx = a.x * S, cy = a.y * S;
    const hex = sv("polygon", { points: pts, fill: a.hospital ? "#fff" : INGREDIENT_FILL[a.ingredient] || "#eee",
      stroke: a.river ? "#3b82c4" : "#777", "stroke-width": a.river ? 4 : 1.5 });
    hex.append(sv("title", {}, a.id + (a.ingredient ? " · " + a.ingredient : "") + (a.river ? " · river" : "")));
    staticLayer.append(hex);
    staticLayer.append(sv("text", { x: cx, y: cy - 26, "text-anchor": "middle", "font-size": 8, fill: "#555" }, a.id));
    let label = a.ingredient;
    if (a.hospital) label = "\u271A hospital";
    if (a.town) label = "\u2302 town";
    if (a.outcrop) label = "\u25C6 " + a.ingredient + " · crystals";
    if (a.shrine) label = (SHRINE[a.shrine] || "\u2726") + " " + a.shrine + " shrine";
    staticLayer.append(sv("text", { x: cx, y: cy - 16, "text-anchor": "middle", "font-size": 8, fill: a.hospital ? "#c0392b" : "#333" }, label));
    if (a.river) staticLayer.append(sv("text", { x: cx, y: cy + 30, "text-anchor": "middle", "font-size": 7, fill: "#3b82c4" }, "~ river ~"));
    a.patient_spaces.forEach((space, k) => {
      const n = a.patient_spaces.length;
      const px = cx + (k - (n - 1) / 2) * 18, py = cy + 8;
      spaceXY[space] = [px, py];
      const flag = space.split("-")[0];
      staticLayer.append(sv("rect", { x: px - 7, y: py - 7, width: 14, height: 14, fill: "none", stroke: FLAG[flag] || "#999", "stroke-width": 2, rx: 2 }));
    });
  }
  D.board.hunter_vertex.forEach((v, space) => {
    if (space === 0) return;
    const [x, y] = V[v];
    staticLayer.append(sv("circle", { cx: x, cy: y, r: 9, fill: "none", stroke: "#444", "stroke-dasharray": "2 2" }));
    staticLayer.append(sv("text", { x: x, y: y + 20, "text-anchor": "middle", "font-size": 8, fill: "#444" }, "H" + space));
  });

  // ---------------------------------------------------------------- dynamic board
  function drawBoard(f) {
    dynamicLayer.replaceChildren();
    for (const a of D.board.areas) {
      const b = f.buildings[a.id];
      if (b) dynamicLayer.append(sv("text", { x: a.x * S, y: a.y * S - 6, "text-anchor": "middle", "font-size": 7, fill: "#333" }, b));
    }
    for (const [space, disease, angry, healed, remedies] of f.patients) {
      const [x, y] = spaceXY[space] || [0, 0];
      const g = sv("g", {});
      g.append(sv("circle", { cx: x, cy: y, r: 7, fill: "#fff", stroke: angry ? "#c0392b" : "#333", "stroke-width": angry ? 2.5 : 1 }));
      g.append(sv("text", { x: x, y: y + 3, "text-anchor": "middle", "font-size": 8 }, disease.slice(0, 2)));
      if (healed) g.append(sv("text", { x: x + 7, y: y - 5, "font-size": 9, fill: "#2e8b3d" }, "\u2713"));
      g.append(sv("title", {}, "patient " + disease + (angry ? " (angry)" : "") + (healed ? " healed" : "") + (remedies ? ", " + remedies + " remedy" : "")));
      dynamicLayer.append(g);
    }
    f.hunters.forEach(([space, active], h) => {
      const [x, y] = V[D.board.hunter_vertex[space]];
      const g = sv("g", {});
      g.append(active
        ? sv("rect", { x: x - 4, y: y - 12, width: 8, height: 20, fill: "#8b0000", rx: 2 })
        : sv("rect", { x: x - 11, y: y - 4, width: 22, height: 8, fill: "#8b0000", rx: 2, opacity: 0.75 }));
      g.append(sv("title", {}, "hunter " + h + " on space " + space + (active ? " (standing)" : " (laid down)")));
      dynamicLayer.append(g);
    });
    f.players.forEach((p, s) => {
      if (p.vertex < 0) return;
      const [x, y] = V[p.vertex];
      const colour = COLOUR[D.names.colours[s]] || "#555";
      const g = sv("g", { "data-seat": s });
      if (p.form) {
        g.append(sv("rect", { x: x - 9, y: y - 9, width: 18, height: 18, fill: colour, stroke: "#000", "stroke-width": 1.5, transform: "rotate(45 " + x + " " + y + ")" }));
        g.append(sv("text", { x: x, y: y + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": "bold" }, p.form.slice(0, 2)));
      } else {
        g.append(sv("circle", { cx: x, cy: y, r: 9, fill: colour, stroke: "#000", "stroke-width": 1.5 }));
        g.append(sv("text", { x: x, y: y + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": "bold" }, s));
      }
      g.append(sv("title", {}, seatName(s) + (p.form ? " in " + p.form + " form" : " (human form)")));
      dynamicLayer.append(g);
    });
    if (f.widow) {
      if (f.widow.vertex >= 0) {
        const [x, y] = V[f.widow.vertex];
        dynamicLayer.append(sv("circle", { cx: x, cy: y, r: 10, fill: "#111" }));
        dynamicLayer.append(sv("text", { x: x, y: y + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff" }, "W"));
      }
      f.widow.spiders.forEach((v) => {
        const [x, y] = V[v];
        dynamicLayer.append(sv("text", { x: x, y: y + 5, "text-anchor": "middle", "font-size": 16, fill: "#111" }, "\u2731"));
      });
    }
    // the trial chambers above the map
    const tx = minX + 8, ty = minY + 14;
    dynamicLayer.append(sv("text", { x: tx, y: ty, "font-size": 11, "font-weight": "bold" }, "Trial"));
    dynamicLayer.append(sv("text", { x: tx, y: ty + 16, "font-size": 10 }, "Chamber 1: " + (f.chamber1 || "empty")));
    dynamicLayer.append(sv("text", { x: tx, y: ty + 32, "font-size": 10 }, "Chamber 2: " + (f.chamber2.length ? f.chamber2.join(", ") : "empty")));
    f.seated.forEach((row, k) => row.forEach((seat, i) => {
      dynamicLayer.append(sv("circle", { cx: tx + 230 + i * 12, cy: ty + 12 + k * 16, r: 5, fill: seat < 0 ? "#111" : COLOUR[D.names.colours[seat]] }));
    }));
    dynamicLayer.append(sv("text", { x: tx, y: ty + 48, "font-size": 10 },
      "Crowd: " + f.crowd[0] + " neutral, " + f.crowd[1] + " angry; loyal " + f.players.map((p) => p.crowd).join("/")));
    const mx = maxX - 8;
    dynamicLayer.append(sv("text", { x: mx, y: ty, "font-size": 11, "font-weight": "bold", "text-anchor": "end" }, "Septima's markers"));
    dynamicLayer.append(sv("text", { x: mx, y: ty + 16, "font-size": 10, "text-anchor": "end" },
      "this turn: " + (actionName(f.septima[1]) || "-") + " · next: " + (actionName(f.septima[0]) || "-")));
    if (f.omen) {
      dynamicLayer.append(sv("text", { x: mx, y: ty + 32, "font-size": 10, "text-anchor": "end" },
        "Omen: " + (f.omen.half ? f.omen.half + " (" + f.omen.side + ")" : "none yet")));
    }
  }

  // ---------------------------------------------------------------- common and seat panels
  function block(title, ...lines) {
    return el("div", {}, el("h3", {}, title), ...lines.map((l) => el("div", {}, l)));
  }
  function drawCommon(f) {
    const box = document.querySelector("[data-testid=common]");
    const parts = [];
    parts.push(block("Septima", "this turn: " + (actionName(f.septima[1]) || "-"), "next turn: " + (actionName(f.septima[0]) || "-")));
    if (f.omen) {
      parts.push(el("div", { "data-testid": "omen" }, el("h3", {}, "Omen"),
        el("div", {}, f.omen.half ? f.omen.half + " (" + f.omen.side + " half of " + f.omen.card + ")" : "none in effect"),
        el("div", {}, "next: " + (f.omen.next || "-")), el("div", {}, "drawn: " + (f.omen.drawn.join(", ") || "-"))));
    }
    parts.push(block("Trial", "chamber 1: " + (f.chamber1 || "empty"), "chamber 2: " + (f.chamber2.join(", ") || "empty"),
      "crowd: " + f.crowd[0] + " neutral, " + f.crowd[1] + " angry"));
    if (f.market.length) {
      parts.push(block("Spell market", ...f.market.map((row, e) => ["earth", "air", "fire"][e] + ": " + row.filter((x) => x).join(" · "))));
    }
    parts.push(block("Supply", "witch deck: " + f.piles.witches, "patient stack: " + f.piles.patients, "crystals: " + f.piles.crystals,
      "start player: seat " + f.start));
    box.replaceChildren(...parts);
  }

  function track(value) {
    const [lo, hi] = D.names.suspicion;
    const t = el("span", { class: "track" });
    for (let v = lo; v <= hi; v++) t.append(el("span", { class: v === value ? "on" : "" }, v));
    return t;
  }
  function cards(list, cls) {
    const span = el("span", {});
    if (!list.length) span.append("-");
    for (const c of list) span.append(el("span", { class: "card " + (cls || "") }, actionName(c)));
    return span;
  }
  function row(dl, term, value) { dl.append(el("dt", {}, term), el("dd", {}, value)); }

  const seatsBox = document.getElementById("seats");
  function drawSeats(f) {
    const parts = f.players.map((p, s) => {
      const colour = D.names.colours[s];
      const box = el("div", { class: "seat c-" + colour, "data-testid": "seat-" + s });
      box.append(el("h3", {}, el("span", { class: "swatch c-" + colour }), "Seat " + s + " · " + colour + " · " + D.names.personas[s]));
      box.append(el("div", {}, "Wisdom ", el("span", { class: "big", "data-testid": "seat-" + s + "-wisdom" }, p.wisdom),
        "  suspicion ", el("span", { class: "big", "data-testid": "seat-" + s + "-suspicion" }, p.suspicion), " ", track(p.suspicion)));
      const dl = el("dl", {});
      row(dl, "form", p.form ? p.form + " (animal)" : "human" + (p.animals.length ? " · animals: " + p.animals.join(", ") : ""));
      row(dl, "played", p.played ? cards([p.played], "played") : "-");
      row(dl, "hand", cards(p.hand));
      row(dl, "discard", cards(p.discard, "gone"));
      const coven = el("span", {});
      p.coven.forEach((w, i) => { coven.append(i ? ", " : "", w === p.covered ? el("span", { class: "covered" }, w + " (covered)") : w); });
      row(dl, "coven", p.coven.length ? coven : "-");
      row(dl, "ingredients", D.names.resources.map((r, i) => r + " " + p.res[i]).join(" · "));
      const pots = D.names.potions.map((n, i) => (p.potions[i] ? n + " \u00D7" + p.potions[i] : "")).filter((x) => x);
      row(dl, "potions", pots.join(", ") || "-");
      row(dl, "spells", p.spells.map(([n, ready, active]) => n + (ready ? "" : " (exhausted)") + (active ? " (active)" : "")).join(", ") || "-");
      row(dl, "ritual", "row " + p.ritual[0] + " of " + D.names.ritual_rows + ", column " + p.ritual[1]);
      row(dl, "citizens", p.supply + " in supply, " + p.crowd + " loyal in the crowd");
      row(dl, "charms", String(p.charms));
      row(dl, "patients", D.names.diseases.map((d, i) => d + " " + p.tracks[i]).join(" · "));
      box.append(dl);
      return box;
    });
    if (f.widow) {
      const w = f.widow;
      const box = el("div", { class: "seat widow", "data-testid": "widow" });
      box.append(el("h3", {}, "The Black Widow"));
      box.append(el("div", {}, "Wisdom ", el("span", { class: "big", "data-testid": "widow-wisdom" }, w.wisdom),
        "  suspicion ", el("span", { class: "big", "data-testid": "widow-suspicion" }, w.suspicion), " ", track(w.suspicion)));
      const dl = el("dl", {});
      row(dl, "marker", w.card ? actionName(w.card) : "-");
      row(dl, "markers left", String(w.markers_left));
      row(dl, "spiders", w.spiders.length + " on the board");
      row(dl, "citizens", w.supply + " in supply, " + w.crowd + " in the crowd");
      row(dl, "ritual", "row " + w.ritual_row);
      box.append(dl);
      parts.push(box);
    }
    seatsBox.replaceChildren(...parts);
  }

  // ---------------------------------------------------------------- events
  function describe(e) {
    const k = e.kind;
    if (k === "action") {
      const m = [];
      if (e.matched_players) m.push("matched " + e.matched_players + " player(s)");
      if (e.matched_septima) m.push("matched the Septima");
      if (e.matched_other) m.push("matched by " + e.matched_other);
      const extra = e.detail ? (e.seat >= 0 ? " (copies " + actionName(e.detail) + ")" : " (" + e.detail + ")") : "";
      const change = (name, a, b) => (b === null || b === undefined ? "" : a === null || a === undefined ? "; " + name + " " + b : "; " + name + " " + a + "\u2192" + b);
      return "plays " + actionName(e.action) + extra + (e.form && e.form !== "human" ? " as " + e.form : "") +
        (m.length ? "; " + m.join(", ") : "") + change("Wisdom", e.wisdom_before, e.wisdom_after) +
        change("suspicion", e.suspicion_before, e.suspicion_after);
    }
    if (k === "suspicion" || k === "suspicion_change") return "suspicion " + e.detail + ": " + e.suspicion_before + "\u2192" + e.suspicion_after;
    if (k === "wisdom") return "Wisdom " + e.wisdom_before + "\u2192" + e.wisdom_after;
    if (k === "omen") return "Omen " + e.omen + " (" + e.omen_half + "); " + (e.detail || "");
    return k.replace("_", " ") + (e.detail ? ": " + e.detail : "");
  }
  const list = document.getElementById("events");
  const items = [];
  function addItem(i, who, text, cause) {
    const li = el("li", { "data-frame": i });
    if (turnStarts.includes(i)) li.classList.add("turn-start");
    li.append(el("span", { class: "where" }, "S" + frames[i].season + "T" + frames[i].turn + " "), el("span", { class: "who" }, who), " " + text);
    if (cause !== undefined && cause !== null && cause !== "") {
      li.append(el("span", { class: "cause" }, "cause: " + (typeof cause === "string" ? cause : JSON.stringify(cause))));
    }
    li.addEventListener("click", () => go(i));
    items.push(li);
  }
  addItem(0, "Setup", "witches drafted, board set, leaders placed");
  D.events.forEach((e, j) => addItem(j + 1, eventWho(e), describe(e), e.cause));
  addItem(last, "Game end", "final scoring");
  list.append(...items);

  // ---------------------------------------------------------------- stepping
  let cur = 0;
  let timer = null;
  const $ = (id) => document.querySelector("[data-testid=" + id + "]");
  const seasonsBox = $("seasons");
  D.names.seasons.forEach((name, k) => {
    const b = el("button", { type: "button", "data-testid": "season-" + (k + 1), title: "Jump to " + name }, name);
    b.addEventListener("click", () => { const i = frames.findIndex((f) => f.season === k + 1); if (i >= 0) go(i); });
    seasonsBox.append(b);
  });
  function turnIndex(i) { let t = 0; while (t + 1 < turnStarts.length && turnStarts[t + 1] <= i) t++; return t; }
  function go(i) {
    i = Math.max(0, Math.min(last, i));
    if (items[cur]) items[cur].classList.remove("current");
    cur = i;
    const f = frames[i];
    items[i].classList.add("current");
    items[i].scrollIntoView({ block: "nearest" });
    $("turn-label").textContent = "Season " + f.season + " \u00B7 Turn " + f.turn;
    $("step-label").textContent = (D.names.seasons[f.season - 1] || "") + " \u00B7 " + f.step.replace("_", " ");
    $("counter").textContent = "step " + i + " / " + last;
    drawBoard(f);
    drawCommon(f);
    drawSeats(f);
    document.getElementById("final").hidden = i !== last;
    $("prev").disabled = $("prev-turn").disabled = i === 0;
    $("next").disabled = $("next-turn").disabled = i === last;
    if (i === last) stop();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "\u25B6 play"; }
  function toggle() {
    if (timer) { stop(); return; }
    if (cur === last) go(0);
    timer = setInterval(() => go(cur + 1), 350);
    $("play").textContent = "\u275A\u275A pause";
  }
  const nextTurn = () => go(turnStarts[turnIndex(cur) + 1] ?? last);
  const prevTurn = () => { const t = turnIndex(cur); go(turnStarts[turnStarts[t] === cur ? Math.max(0, t - 1) : t]); };
  $("next").addEventListener("click", () => go(cur + 1));
  $("prev").addEventListener("click", () => go(cur - 1));
  $("next-turn").addEventListener("click", nextTurn);
  $("prev-turn").addEventListener("click", prevTurn);
  $("play").addEventListener("click", toggle);
  $("end").addEventListener("click", () => go(last));
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLButtonElement && (ev.key === " " || ev.key === "Enter")) return;
    const act = { ArrowRight: () => go(cur + 1), ArrowLeft: () => go(cur - 1), ArrowDown: nextTurn, ArrowUp: prevTurn,
      " ": toggle, Home: () => go(0), End: () => go(last) }[ev.key];
    if (act) { ev.preventDefault(); act(); }
  });
  document.title = "Septima replay \u00B7 " + D.title;
  go(0);
})();
