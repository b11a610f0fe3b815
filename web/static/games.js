// The registry of game panels, shared drawing helpers, and a generic table for any other game.
//
// Each game has its own panel, panel.js in its package's panel folder (GameSpec.panel), served at
// /panels/<game-id>/panel.js and loaded after this one. It calls TC.games.register(id, parts):
//   board(board)             -> Node   the scoreboard panel from Session.board()
//   view(view, player, board) -> Node  a player's private view from game.view(state, player)
//   entry(ctx)               -> {node, update(data)}  a part of a player's page above the move
//                               builder (optional; Everest: where the plan stands); it is built
//                               once and updated on every refresh.
//   card(name)               -> Node   a card face, as the game's scoreboard draws it (optional)
//   picker(next, choose)     -> Node   the tiles of a builder step whose pick the game lays out
//                               itself, keyed by pick name ({pyramid_slot: fn}) (optional)
//   summary(scoreboard)      -> [[label, value], ...]  the venue's headline figures (optional)
"use strict";
(function () {
  const el = TC.el;
  const svg = TC.svg;

  function generic(value) {
    if (value === null || value === undefined) return el("span", { class: "none" }, "—");
    if (Array.isArray(value)) return el("span", {}, value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))).join(", "));
    if (typeof value === "object") {
      return el("table", { class: "kv" }, Object.entries(value).map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, generic(v)))));
    }
    return el("span", {}, String(value));
  }

  // -- helpers every panel uses ----------------------------------------------------------------

  // A horizontal bar drawn in SVG (its width is an attribute, which the CSP allows).
  function bar(value, max, opts) {
    const o = opts || {};
    const frac = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
    const level = o.level || (frac >= 0.8 ? "hot" : frac >= 0.5 ? "warm" : "cool");
    return svg("svg", { class: "meter " + level + (o.cls ? " " + o.cls : ""), viewBox: "0 0 100 10", preserveAspectRatio: "none",
      role: "img", "aria-label": o.label || value + " of " + max },
      svg("rect", { class: "bar-track", x: 0, y: 0, width: 100, height: 10, rx: 3 }),
      svg("rect", { class: "bar-fill", x: 0, y: 0, width: (100 * frac).toFixed(2), height: 10, rx: 3 }));
  }

  // A big number with a label under it; `cls` adds a look ("bad", "warn", "good").
  function stat(label, value, cls, key) {
    // A word ("library", "explore") gets a smaller face than a number, so it fits a phone's column.
    const words = typeof value === "string" && !/^[-+\d\/(),. ]+$/.test(value);
    return el("div", { class: "stat" + (words ? " words" : "") + (cls ? " " + cls : ""), "data-stat": key || null },
      el("span", { class: "stat-value" }, value === null || value === undefined ? "—" : String(value)),
      el("span", { class: "stat-label" }, label));
  }

  function tag(text, cls) {
    return el("span", { class: "tag" + (cls ? " " + cls : "") }, text);
  }

  function section(title, ...children) {
    return el("section", { class: "panel" }, title ? el("h3", {}, title) : null, ...children);
  }

  // Details that stay open across live re-renders (scoreboard.js restores [data-key] open state).
  function fold(key, title, ...children) {
    return el("details", { class: "panel fold", "data-key": key }, el("summary", {}, title), ...children);
  }

  // A playing card from the standard deck or Horrible Mountain 2: rank + suit letter ("10H", "4S").
  const SUITS = { S: ["♠", "black"], C: ["♣", "black"], H: ["♥", "red"], D: ["♦", "red"] };
  function playingCard(name, extra) {
    if (!name) return el("span", { class: "card empty" + (extra ? " " + extra : "") }, "—");
    const suit = SUITS[name.slice(-1)];
    if (!suit) return el("span", { class: "card" + (extra ? " " + extra : ""), "data-card": name }, name);
    const rank = name.slice(0, -1);
    return el("span", { class: "card " + suit[1] + (extra ? " " + extra : ""), "data-card": name, title: name },
      el("span", { class: "rank" }, rank), el("span", { class: "suit" }, suit[0]));
  }

  function cardRow(cards, make, cls) {
    return el("div", { class: "cards" + (cls ? " " + cls : "") }, (cards || []).map((c) => (make || playingCard)(c)));
  }

  // One colour per seat (or the player's own colour when the name is one, as in Everest).
  const COLOURS = ["red", "blue", "green", "yellow", "orange", "purple", "white", "black", "pink", "teal"];
  function playerColour(board, player) {
    const name = String(player).toLowerCase();
    if (COLOURS.includes(name)) return "pc-" + name;
    const seat = board && board.players ? board.players.indexOf(player) : -1;
    return "pc-" + COLOURS[(seat < 0 ? 0 : seat) % 8];
  }

  function list(items, make, cls) {
    return el("ul", { class: cls || "plain" }, items.map((item) => el("li", {}, make ? make(item) : String(item))));
  }

  // "anna 3 · ben 5": a per-player figure in one line.
  function perPlayer(obj, fmt) {
    return Object.entries(obj || {}).map(([k, v]) => k + " " + fmt(v)).join(" · ");
  }

  function names(players) {
    return players && players.length ? players.join(", ") : "nobody";
  }

  // -- the registry ----------------------------------------------------------------------------

  const games = {};

  function safely(what, fn, fallback) {
    try {
      return fn();
    } catch (err) {
      console.error(what, err);
      return fallback();
    }
  }

  TC.games = {
    helpers: { bar, stat, tag, section, fold, playingCard, cardRow, playerColour, list, names, perPlayer, generic },
    register(id, parts) {
      games[id] = parts;
    },
    has(id, part) {
      return Boolean(games[id] && games[id][part]);
    },
    render(board) {
      const game = games[board.game];
      if (game && game.board) {
        return safely("board panel", () => game.board(board), () => el("div", { class: "generic" }, generic(board.scoreboard)));
      }
      return el("div", { class: "generic" }, generic(board.scoreboard));
    },
    renderView(gameId, view, player, board) {
      const game = games[gameId];
      if (game && game.view) {
        return safely("player view", () => game.view(view, player, board), () => el("div", { class: "generic view" }, generic(view)));
      }
      return el("div", { class: "generic view" }, generic(view));
    },
    // A card face as the game's scoreboard draws it; null for a game that draws none (its label is used).
    card(gameId, name) {
      const game = games[gameId];
      if (!game || !game.card) return null;
      return safely("card", () => game.card(name), () => el("span", { class: "card" }, String(name)));
    },
    // The venue's headline figures for a table ([[label, value], ...]), or null when the game has none.
    summary(board) {
      const game = games[board.game];
      if (!game || !game.summary || !board.scoreboard) return null;
      return safely("summary", () => game.summary(board.scoreboard), () => null);
    },
    // The tiles of a builder step laid out by the game for its own kind of pick, or null.
    picker(gameId, next, button) {
      const game = games[gameId];
      const lay = game && game.picker && game.picker[next.pick];
      return lay ? safely("picker", () => lay(next, button), () => null) : null;
    },
    // What a setup field tapped in so far looks like on the table (the mountain as a pyramid), or null.
    setupView(gameId, field, value) {
      const game = games[gameId];
      const draw = game && game.setup && game.setup[field];
      return draw ? safely("setup view", () => draw(value), () => null) : null;
    },
    entry(gameId, ctx) {
      const game = games[gameId];
      return game && game.entry ? game.entry(ctx) : null;
    },
    outcomeText(board) {
      const o = board.outcome;
      const w = o.winner;
      const who = Array.isArray(w) ? w.join(" & ") : w;
      if (o.won !== undefined) {
        return el("p", { class: "verdict-line" }, (o.won ? "Won" : "Lost") + (o.score !== undefined && o.score !== null ? " · score " + o.score : "")
          + (o.escaped && o.escaped.length ? " · escaped: " + o.escaped.join(", ") : ""));
      }
      return el("p", { class: "verdict-line" }, who ? "Winner: " + who : "Nobody wins", o.reason ? " — " + o.reason : "");
    },
  };
})();
