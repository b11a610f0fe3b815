// The referee console's "New game": pick the game, the players and the options (each default
// explained), tap the setup in from the real things, start. The game that was on keeps its own
// log; every open page moves on. "Play again" starts from the same table, the dealer (or Evil
// Master) moved one seat on. Every button carries data-tap=... for the tests.
"use strict";
(function () {
  const el = TC.el;
  const root = document.getElementById("new-game");
  if (!root) return;
  let catalogue = null;
  let plan = null; // {game, players: [], options: {}, setup: {}, closed: [], every: false}
  let answer = null;

  const tap = (label, key, onclick, cls) => el("button", { type: "button", class: "tap" + (cls ? " " + cls : ""), "data-tap": key, onclick }, label);
  const gameOf = (id) => catalogue.games.find((g) => g.id === id);

  async function load() {
    const response = await fetch("/api/referee/games", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) { root.replaceChildren(el("p", { class: "muted" }, "New games: " + response.status)); return; }
    catalogue = await response.json();
    render();
  }

  function start(gameId, again) {
    const game = gameOf(gameId);
    const now = catalogue.now;
    plan = { game: gameId, players: [], options: {}, setup: {}, closed: [], every: false };
    if (again || now.game === gameId) {
      plan.players = now.players.slice(0, game.max_players);
      plan.options = Object.assign({}, now.game === gameId ? now.options : {});
    }
    if (again && game.setup) {
      for (const f of game.setup) {
        const last = now.setup[f.name];
        if (f.rotates && typeof last === "string" && plan.players.includes(last)) {
          plan.setup[f.name] = plan.players[(plan.players.indexOf(last) + 1) % plan.players.length];
        }
      }
    }
    answer = null;
    render();
  }

  function gameStep() {
    return el("div", { class: "step" }, el("p", { class: "step-title" }, "Which game?"),
      el("div", { class: "tap-row" }, catalogue.games.map((g) => tap(g.title, "game:" + g.id, () => start(g.id, false), plan && plan.game === g.id ? "on" : ""))));
  }

  function playersStep(game) {
    const known = Array.from(new Set(catalogue.now.players.concat(plan.players)));
    const input = el("input", { type: "text", maxLength: 24, placeholder: "a new player's name", "aria-label": "new player", class: "name-input" });
    const add = () => {
      const name = input.value.trim();
      if (name && !plan.players.includes(name) && plan.players.length < game.max_players) plan.players.push(name);
      input.value = "";
      render();
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); add(); } });
    const span = game.min_players === game.max_players ? String(game.min_players) : game.min_players + "–" + game.max_players;
    return el("div", { class: "step" },
      el("p", { class: "step-title" }, "Players, in seat order (" + span + "): " + (plan.players.join(", ") || "none yet")),
      el("div", { class: "tap-row" }, known.map((p) => tap(p, "player:" + p, () => {
        const at = plan.players.indexOf(p);
        if (at >= 0) plan.players.splice(at, 1); else if (plan.players.length < game.max_players) plan.players.push(p);
        render();
      }, plan.players.includes(p) ? "on" : ""))),
      el("div", { class: "tap-row" }, input, tap("Add", "add-player", add)));
  }

  function optionControl(o) {
    const value = o.name in plan.options ? plan.options[o.name] : o.default;
    const set = (v) => { if (JSON.stringify(v) === JSON.stringify(o.default)) delete plan.options[o.name]; else plan.options[o.name] = v; render(); };
    if (o.kind === "switch") return tap(value ? "on" : "off", "option:" + o.name, () => set(!value), value ? "on" : "");
    if (o.kind === "choice") return el("span", { class: "tap-row" }, o.choices.map((c) => tap(String(c), "option:" + o.name + "=" + c, () => set(c), c === value ? "on" : "")));
    if (o.kind === "number") {
      const n = value === null ? null : Number(value);
      const step = o.step;
      const round = (x) => Math.round(x * 10) / 10;
      return el("span", { class: "tap-row" },
        tap("−", "option:" + o.name + ":down", () => set(n === null ? 0 : round(n - step))),
        el("strong", { class: "option-value" }, n === null ? "none" : String(n)),
        tap("+", "option:" + o.name + ":up", () => set(n === null ? step : round(n + step))),
        o.optional && n !== null ? tap("none", "option:" + o.name + ":none", () => set(null)) : null);
    }
    return el("span", { class: "muted" }, JSON.stringify(value) + " (set in the config file)");
  }

  function optionsStep(game) {
    // Open stays open across the re-render each +/− tap makes (a hand size from 10 to 2 is 8 taps, not 16).
    return el("details", { class: "panel fold options", open: Boolean(plan.optionsOpen), ontoggle: (e) => { plan.optionsOpen = e.target.open; } },
      el("summary", {}, "Options (" + Object.keys(plan.options).length + " changed from the rulebook's)"),
      el("ul", { class: "options-list" }, game.options.map((o) => el("li", {},
        el("div", {}, el("strong", {}, o.name.replace(/_/g, " ")), " ", optionControl(o)),
        el("div", { class: "muted" }, "Default: " + JSON.stringify(o.default) + (o.doc ? " — " + o.doc : ""))))));
  }

  async function choicesFor(game, f) {
    const params = new URLSearchParams({ game: game.id, players: JSON.stringify(plan.players), options: JSON.stringify(plan.options),
      values: JSON.stringify(plan.setup), field: f.name, every: plan.every ? "1" : "0" });
    const response = await fetch("/api/referee/setup-choices?" + params, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return { error: (await response.text()).trim() };
    return response.json();
  }

  // The next setup field not yet done, as taps (a value, a list a value at a time, a part per player).
  async function setupStep(game) {
    if (!game.setup) return el("p", { class: "answer error" }, game.title + " cannot be set up from the console yet: start it from a config file.");
    const f = game.setup.find((x) => !plan.closed.includes(x.name) && !(x.name in plan.setup && !x.many));
    if (!f) return el("p", { class: "muted" }, game.setup.length ? "Setup tapped in." : "Nothing to set up: the rulebook's defaults.");
    const found = await choicesFor(game, f);
    if (found.error) return el("p", { class: "answer error" }, found.error);
    const value = plan.setup[f.name];
    const taken = new Set();
    let key = null;
    if (f.per_player) {
      const mapping = value || {};
      key = Object.keys(mapping).reverse().find((k) => !plan.closed.includes(f.name + "/" + k)) || null;
      if (key !== null) (mapping[key] || []).forEach((v) => taken.add(JSON.stringify(v)));
    } else if (f.many) (value || []).forEach((v) => taken.add(JSON.stringify(v)));
    const pickPlayer = f.per_player && key === null;
    const tiles = (pickPlayer ? plan.players.filter((p) => !(value && p in value)).map((p) => ({ value: p, label: p })) : found.choices)
      .filter((c) => !taken.has(JSON.stringify(c.value)))
      .map((c) => {
        const face = c.card && TC.games.card ? TC.games.card(game.id, c.card) : null;
        return tap(face || c.label, "setup:" + JSON.stringify(c.value), () => {
          if (pickPlayer) plan.setup[f.name] = Object.assign({}, value || {}, { [c.value]: [] });
          else if (f.per_player) {
            const part = (value[key] || []).concat([c.value]);
            plan.setup[f.name] = Object.assign({}, value, { [key]: part });
            if (part.length >= f.most) plan.closed.push(f.name + "/" + key);
          } else if (f.many) {
            const list = (value || []).concat([c.value]);
            plan.setup[f.name] = list;
            if (list.length >= f.most) plan.closed.push(f.name);
          } else plan.setup[f.name] = c.value;
          render();
        }, "choice" + (face ? " has-card" : ""));
      });
    const actions = [];
    const count = f.per_player ? (key === null ? Object.keys(value || {}).length : (value[key] || []).length) : (value || []).length;
    if ((f.many || f.optional) && (f.optional || count >= (f.per_player && key === null ? 1 : f.least))) {
      actions.push(tap(count ? "Done" + (key ? " with " + key : "") : "None", "setup-done", () => {
        if (f.per_player && key !== null) plan.closed.push(f.name + "/" + key);
        else { if (!(f.name in plan.setup)) plan.setup[f.name] = f.many ? [] : null; plan.closed.push(f.name); }
        render();
      }));
    }
    if (!plan.every) actions.push(tap("Show every value", "setup-every", () => { plan.every = true; render(); }, "more"));
    const laid = pickPlayer || !TC.games.setupView ? null : TC.games.setupView(game.id, f.name, f.per_player ? (value || {})[key] : value);
    return el("div", { class: "step", "data-setup": f.name },
      el("p", { class: "step-title" }, f.title + (key ? " — " + key : pickPlayer ? ": whose?" : "")
        + (f.many && !pickPlayer ? " (" + count + (f.most < 99 ? " of " + f.most : "") + ")" : "")),
      laid,
      // tap-choices, not choices: the radio chips' span style would swallow the card faces' spans.
      el("div", { class: "tap-row tap-choices cards" }, tiles),
      actions.length ? el("div", { class: "tap-row actions" }, actions) : null);
  }

  async function send() {
    const result = await TC.post("/api/referee/new-game", { game: plan.game, players: plan.players, options: plan.options, setup: plan.setup });
    if (result.status === 200) {
      answer = { cls: "legal", text: "Started: " + gameOf(plan.game).title + " for " + plan.players.join(", ") + "." };
      TC.leave();
      return;
    }
    answer = { cls: "error", text: "Not started: " + (result.text || "").trim() };
    render();
  }

  async function render() {
    if (!catalogue) return;
    root.dataset.ready = "0";
    const parts = [];
    if (!catalogue.can_start) {
      root.replaceChildren(el("p", { class: "muted" }, "This server does not start new games (run it with companion serve)."));
      return;
    }
    if (!plan) {
      parts.push(el("div", { class: "tap-row" },
        catalogue.now.over ? tap("Play again (same players, next dealer)", "play-again", () => start(catalogue.now.game, true), "go") : null,
        tap(catalogue.now.over ? "Another game…" : "New game… (ends this one)", "new-game", () => { plan = { game: null }; render(); })));
    } else {
      parts.push(gameStep());
      const game = plan.game ? gameOf(plan.game) : null;
      if (game) {
        parts.push(playersStep(game), optionsStep(game));
        const enough = plan.players.length >= game.min_players && plan.players.length <= game.max_players;
        if (enough) parts.push(await setupStep(game));
        parts.push(el("div", { class: "tap-row" },
          tap("Start " + game.title, "start-game", send, enough ? "go" : "off"),
          tap("Cancel", "cancel-new-game", () => { plan = null; answer = null; render(); }, "plain")));
      }
    }
    if (answer) parts.push(el("p", { class: "answer " + answer.cls }, answer.text));
    root.replaceChildren(...parts);
    root.dataset.ready = "1";
  }

  load();
  TC.newGame = { reload: load };
})();
