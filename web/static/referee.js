// The referee console: build a notation move, send it, undo or correct; the full state, live.
"use strict";
(function () {
  const answer = document.getElementById("answer");
  const verb = document.getElementById("verb");
  const by = document.getElementById("by");
  const fields = document.getElementById("fields");

  function buildMove() {
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
    const move = buildMove();
    if (move) TC.showAnswer(answer, await TC.post("/api/referee/move", { move }));
  });
  document.getElementById("correct").addEventListener("click", async () => {
    const move = buildMove();
    if (move) TC.showAnswer(answer, await TC.post("/api/referee/correct", { move }));
  });
  document.getElementById("undo").addEventListener("click", async () => {
    TC.showAnswer(answer, await TC.post("/api/referee/undo", {}));
  });

  async function refresh() {
    const response = await fetch("/api/referee/view", { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    document.getElementById("full").textContent = JSON.stringify(data.view, null, 1);
    const prompts = document.getElementById("prompts");
    prompts.replaceChildren(...data.board.prompts.map((p) => TC.el("div", { class: "prompt" },
      TC.el("button", { type: "button", class: "use", onclick: () => { verb.value = p.verb; if (p.who) by.value = p.who; } }, p.verb),
      " ", p.who ? p.who + ": " : "", p.text)));
  }
  refresh();
  TC.connect({ board: refresh });
})();
