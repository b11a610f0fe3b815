// A player's own page: their private view, refreshed on every public update; their entries.
"use strict";
(function () {
  const el = TC.el;
  const me = document.querySelector(".me");
  const base = "/api/p/" + encodeURIComponent(me.dataset.player) + "/" + encodeURIComponent(me.dataset.token);
  const answer = document.getElementById("answer");
  const entry = document.getElementById("entry");

  async function refresh() {
    const response = await fetch(base + "/view", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const data = await response.json();
    document.getElementById("mine").replaceChildren(TC.games.renderView(data.board.game, data.view, me.dataset.player));
    const prompts = data.board.prompts.filter((p) => !p.who || p.who === me.dataset.player);
    document.getElementById("prompts").replaceChildren(...prompts.map((p) => el("div", { class: "prompt" }, p.text)));
  }

  async function send(move) {
    TC.showAnswer(answer, await TC.post(base + "/move", { move }));
    refresh();
  }

  function select(name, options) {
    return el("select", { name }, options.map((o) => el("option", { value: o }, o)));
  }

  function everestPlanForm() {
    const coins = ["blank", "ace", "2", "3", "4", "5"];
    const rows = [1, 2, 3].map((i) => el("fieldset", { class: "coin", "data-i": String(i) },
      el("legend", {}, "coin " + i),
      el("label", {}, el("input", { type: "checkbox", name: "use", checked: true }), " use"),
      select("coin", coins), select("face", ["value", "suit"]), select("dir", ["N", "E", "S", "W"])));
    const form = el("form", { id: "plan-form" }, el("h3", {}, "Your secret plan"), rows, el("button", { type: "submit" }, "Lock in plan"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const plan = [];
      form.querySelectorAll("fieldset.coin").forEach((fs) => {
        if (!fs.querySelector('[name="use"]').checked) return;
        plan.push({ coin: fs.querySelector('[name="coin"]').value, face: fs.querySelector('[name="face"]').value, dir: fs.querySelector('[name="dir"]').value });
      });
      send({ do: "plan", coins: plan });
    });
    return form;
  }

  function genericForm() {
    const verb = el("input", { name: "verb", placeholder: "verb, e.g. draw" });
    const fields = el("textarea", { name: "fields", rows: 2, spellcheck: false, value: "{}" });
    const form = el("form", { id: "move-form" }, el("h3", {}, "Enter a move"), verb, fields, el("button", { type: "submit" }, "Send"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      let extra;
      try { extra = JSON.parse(fields.value || "{}"); } catch (err) { answer.textContent = "Fields are not valid JSON"; return; }
      send(Object.assign({ do: verb.value }, extra));
    });
    return form;
  }

  entry.replaceChildren(entry.dataset.game === "everest" ? everestPlanForm() : genericForm());
  refresh();
  TC.connect({ board: refresh });
})();
