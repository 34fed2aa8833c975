// micropul-print serve: fills the page from /state and follows the kit's changes
// through server-sent events (/events). Every text from the inputs is set with
// textContent, never as markup. No framework, no network beyond this server.
"use strict";

const $ = (id) => document.getElementById(id);
let shown = -1;          // the state version on the page
let loading = null;      // the /state request under way
let again = false;       // a change came while loading
let language = "";       // the rulebook language chosen
let replayNumber = -1;   // the record in the replay viewer
let replayTurns = [];

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function renderStatus(state) {
  const s = state.status;
  let text;
  if (s.stopped) text = s.stopped;
  else if (s.building && !s.built) text = "building the kit…";
  else if (!s.built) text = "no kit yet: mend the problems below";
  else if (state.problems.some((p) => p.source === "build")) text = "the inputs have errors";
  else text = s.last ? s.last : "kit built";
  $("status").textContent = text;
  document.body.dataset.version = String(state.version);
}

function renderProblems(state) {
  const list = $("problems");
  list.replaceChildren();
  for (const p of state.problems) {
    const item = element("li", undefined, "problem " + p.severity);
    if (p.where) item.append(element("code", p.where, "where"), " ");
    item.append(element("span", p.severity + ": ", "severity"), element("span", p.message));
    list.append(item);
  }
  $("problem-count").textContent = state.problems.length ? "(" + state.problems.length + ")" : "(none)";
  $("stale").hidden = !(state.status.built && state.problems.some((p) => p.source === "build" && p.severity === "error"));
  $("facts").textContent = state.facts.join("\n");
}

function renderTiles(state) {
  const box = $("tiles");
  const known = new Map();
  for (const node of box.children) known.set(node.dataset.key, node);
  const wanted = new Set();
  let previous = null;
  for (const tile of state.tiles) {
    wanted.add(tile.key);
    let figure = known.get(tile.key);
    if (!figure) {
      figure = element("figure", undefined, "tile");
      figure.dataset.key = tile.key;
      figure.tabIndex = 0;
      const img = element("img");
      img.alt = tile.label;
      img.width = 96;
      img.height = 96;
      const caption = element("figcaption", tile.label);
      const entry = element("pre", undefined, "entry");
      figure.append(img, caption, entry);
    }
    const img = figure.querySelector("img");
    if (img.getAttribute("src") !== tile.src) img.setAttribute("src", tile.src);
    const entry = figure.querySelector(".entry");
    const hint = tile.where ? tile.where + "\n" + tile.entry : tile.entry;
    entry.textContent = hint;
    figure.title = hint;
    if (previous ? previous.nextSibling !== figure : box.firstChild !== figure) {
      box.insertBefore(figure, previous ? previous.nextSibling : box.firstChild);
    }
    previous = figure;
  }
  for (const [key, node] of known) if (!wanted.has(key)) node.remove();
  const count = state.tiles.filter((t) => t.key !== "back").length;
  $("tile-count").textContent = "(" + count + ")";
}

function pageImages(item, width) {
  const block = element("figure", undefined, "pdf");
  block.append(element("figcaption", item.name));
  const pages = element("div", undefined, "pages");
  item.pages.forEach((page, index) => {
    const img = element("img");
    img.loading = "lazy";
    img.alt = item.name + ", page " + (index + 1);
    img.src = "/pdf/" + item.path.split("/").map(encodeURIComponent).join("/") +
      "?page=" + index + "&v=" + item.version;
    // True proportions: every page at the same scale, millimetres for millimetres.
    img.style.width = "calc(" + page.w + " * var(--page-scale))";
    img.style.aspectRatio = page.w + " / " + page.h;
    pages.append(img);
  });
  block.append(pages);
  return block;
}

function renderPdfs(box, items, key) {
  const signature = JSON.stringify(items.map((i) => [i.path, i.version, i.pages.length]));
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  box.replaceChildren(...items.map((item) => pageImages(item)));
  if (!items.length) box.append(element("p", "none in this kit", "empty"));
}

function renderRules(state) {
  const select = $("language");
  const languages = Object.keys(state.rules);
  const options = Array.from(select.options).map((o) => o.value);
  if (JSON.stringify(options) !== JSON.stringify(languages)) {
    select.replaceChildren(...languages.map((lang) => {
      const option = element("option", lang);
      option.value = lang;
      return option;
    }));
  }
  if (!languages.includes(language)) language = languages.includes("en") ? "en" : (languages[0] || "");
  select.value = language;
  renderPdfs($("rules"), state.rules[language] || [], "rules");
}

function renderLab(state) {
  const reports = $("reports");
  reports.replaceChildren(...state.lab.reports.map((r) => {
    const link = element("a", r.label);
    link.href = "/report/" + r.id;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    const item = element("li");
    item.append(link);
    return item;
  }));
  if (!state.lab.reports.length) reports.append(element("li", "none found", "empty"));
  const records = $("records");
  records.replaceChildren(...state.lab.records.map((r) => {
    const button = element("button", r.label);
    button.type = "button";
    button.addEventListener("click", () => openReplay(r.id));
    const item = element("li");
    item.append(button);
    return item;
  }));
  if (!state.lab.records.length) records.append(element("li", "none found", "empty"));
}

function showTurn() {
  const slider = $("replay-slider");
  const turn = Number(slider.value);
  const data = replayTurns[turn];
  if (!data) return;
  $("replay-picture").src = data.src;
  $("replay-move").textContent = "turn " + turn + " of " + (replayTurns.length - 1) + ": " + data.move;
}

async function openReplay(number) {
  replayNumber = number;
  const box = $("replay");
  box.hidden = false;
  $("replay-title").textContent = "replaying…";
  const response = await fetch("/replay/" + number + ".json");
  if (!response.ok || replayNumber !== number) return;
  const data = await response.json();
  $("replay-title").textContent = data.label;
  replayTurns = data.turns;
  const problems = $("replay-problems");
  problems.replaceChildren(...data.problems.map((p) => {
    const item = element("li", undefined, "problem " + p.severity);
    if (p.where) item.append(element("code", p.where, "where"), " ");
    item.append(element("span", p.message));
    return item;
  }));
  const slider = $("replay-slider");
  slider.max = String(Math.max(0, replayTurns.length - 1));
  slider.value = "0";
  $("replay-picture").hidden = !replayTurns.length;
  showTurn();
}

let tilesShown = null;  // resolves once the first tiles' pictures are in

function tilesLoaded() {
  const pending = Array.from(document.querySelectorAll("#tiles img"))
    .filter((img) => !img.complete)
    .map((img) => new Promise((done) => {
      img.addEventListener("load", done, { once: true });
      img.addEventListener("error", done, { once: true });
    }));
  return Promise.all(pending);
}

function render(state) {
  renderStatus(state);
  renderProblems(state);
  renderTiles(state);
  renderLab(state);
  shown = state.version;
  window.servedState = state;  // for the tests and the curious
  // The pages' pictures are larger: asked for once the tiles are in, not before them.
  if (!tilesShown) tilesShown = tilesLoaded();
  tilesShown.then(() => {
    if (window.servedState !== state) return;  // a newer state renders them
    renderPdfs($("sheets"), state.sheets.concat(state.boards), "sheets");
    renderRules(state);
  });
}

async function refresh() {
  if (loading) { again = true; return; }
  loading = fetch("/state", { cache: "no-store" });
  try {
    const response = await loading;
    if (response.ok) render(await response.json());
  } catch (error) {
    $("status").textContent = "the server is not answering (stopped?)";
  } finally {
    loading = null;
    if (again) { again = false; refresh(); }
  }
}

let events = null;  // the event stream

function listen() {
  if (events) events.close();
  events = new EventSource("/events");
  events.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.version !== shown) refresh();
  };
  events.onerror = () => {
    if (events && events.readyState === EventSource.CLOSED) $("status").textContent = "disconnected";
  };
}

document.addEventListener("DOMContentLoaded", () => {
  $("language").addEventListener("change", (event) => {
    language = event.target.value;
    if (window.servedState) renderRules(window.servedState);
  });
  $("replay-slider").addEventListener("input", showTurn);
  refresh();
  listen();
});
// A page left for another is kept by the browser for "back" with its stream open, and
// a browser has six connections per server: the stream is closed when the page is left
// and opened again when it comes back.
window.addEventListener("pagehide", () => { if (events) { events.close(); events = null; } });
window.addEventListener("pageshow", (event) => { if (event.persisted) { listen(); refresh(); } });
