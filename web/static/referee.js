// The referee console: the same tap builder as a player's page, for any player (or the table);
// take back / correct the last move in force, each saying first what it will do; the full state,
// live. Typing a notation move stays in the "advanced" fold.
"use strict";
(function () {
  const answer = document.getElementById("answer");
  const holder = document.getElementById("builder");
  const players = holder.dataset.players ? holder.dataset.players.split(",") : [];

  async function sendMove(move) {
    const result = await TC.post("/api/referee/move", { move });
    TC.showAnswer(answer, result);
    return result;
  }

  const builder = TC.builder({
    gameId: holder.dataset.game,
    players,
    offerUrl: "/api/referee/offer",
    send: sendMove,
    takeBack: {
      label: "Take back the last move…",
      preview: "/api/referee/take-back",
      post: async (seq) => TC.showAnswer(answer, await TC.post("/api/referee/undo", { seq })),
    },
  });
  holder.replaceChildren(builder.node);

  // -- advanced: a notation move typed by hand --------------------------------------------------
  const verb = document.getElementById("verb");
  const by = document.getElementById("by");
  const fields = document.getElementById("fields");

  function typedMove() {
    let extra;
    try { extra = JSON.parse(fields.value || "{}"); } catch (err) {
      answer.className = "answer error";
      answer.textContent = "Fields are not valid JSON: " + err.message;
      return null;
    }
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) {
      answer.className = "answer error";
      answer.textContent = "Fields must be a JSON object, like {\"card\": \"teen-5\"}";
      return null;
    }
    const move = Object.assign({ do: verb.value }, extra);
    if (by.value) move.by = by.value;
    return move;
  }

  document.getElementById("move-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const move = typedMove();
    if (move) await sendMove(move);
  });
  document.getElementById("correct").addEventListener("click", async () => {
    const move = typedMove();
    if (!move) return;
    const preview = await (await fetch("/api/referee/take-back", { credentials: "same-origin", cache: "no-store" })).json();
    if (preview.seq === null) {
      answer.className = "answer error";
      answer.textContent = preview.why || "There is no move in force to correct.";
      return;
    }
    if (!window.confirm("Replace row " + preview.seq + " (" + TC.moveText(preview.move, preview.names) + ") with " + TC.moveText(move) + "?")) return;
    TC.showAnswer(answer, await TC.post("/api/referee/correct", { move, seq: preview.seq }));
  });

  // Quiet mode for the Pi's tones and spoken rulings (shown only where the table plays sound).
  const quiet = document.getElementById("quiet");
  if (quiet) {
    quiet.addEventListener("click", async () => {
      const on = quiet.dataset.quiet !== "true";
      const result = await TC.post("/api/referee/quiet", { quiet: on });
      if (result.status !== 200 || !result.data) {
        answer.className = "answer error";
        answer.textContent = result.text;
        return;
      }
      quiet.dataset.quiet = String(result.data.quiet);
      quiet.setAttribute("aria-pressed", String(result.data.quiet));
      quiet.textContent = result.data.quiet ? "Quiet mode is on: turn the sound back on" : "Quiet mode";
    });
  }

  let over = false;
  async function refresh() {
    const response = await fetch("/api/referee/view", { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    document.getElementById("full").textContent = JSON.stringify(data.view, null, 1);
    const prompts = document.getElementById("prompts");
    const open = data.board.outcome ? [] : data.board.prompts;
    if (data.board.outcome && TC.newGame && !over) { over = true; TC.newGame.reload(); } // offer "play again"
    // A prompt button starts that verb afresh for that player: no stale fields from the last move.
    prompts.replaceChildren(...open.map((p) => TC.el("div", { class: "prompt" },
      TC.el("button", { type: "button", class: "use", "data-tap": "prompt:" + (p.who || "") + ":" + p.verb, onclick: () => builder.start(p.verb, p.who || null) }, p.verb.replace(/_/g, " ")),
      // A prompt's text names its player already ("anna: draw 2 more cards"): never "anna: anna:".
      " ", p.who && !p.text.startsWith(p.who) ? p.who + ": " : "", p.text)));
  }
  refresh();
  builder.refresh();
  TC.connect({ board: () => { refresh(); builder.refresh(); } });
})();
