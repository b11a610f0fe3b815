// Entry by tapping: the move builder on a player's page and the referee's console.
//
// The page offers, the engine decides. Every tap asks the server for the next offer
// (companion/entry/builder.py): the verbs (legal ones first), complete legal moves as one-tap
// buttons where few fit, and otherwise the next field's values drawn as the table shows them
// (card faces, the pyramid, piles, rooms, players). A finished move is sent at once through the
// ordinary move endpoint and judged like any other entry; "show every value" lets a person enter
// a move the rules will refuse, on purpose: that is what disputes are for.
// Every button carries data-tap="..." so that tests can tap exactly what a person would.
"use strict";
(function () {
  const el = TC.el;

  function fresh() {
    return { verb: null, fields: {}, closed: [], every: false, focus: null };
  }

  function card(gameId, name) {
    return TC.games && TC.games.card ? TC.games.card(gameId, name) : null;
  }

  // opts: {gameId, players (referee only), fixedBy (a player's own page), offerUrl, send(move), takeBack: {preview, post}}
  TC.builder = function (opts) {
    const root = el("div", { class: "builder", "data-builder": "" });
    let by = opts.fixedBy || null;
    let draft = fresh();
    let asked = 0;
    // A tap's draft not yet answered: a board change that asks again meanwhile (and so supersedes the
    // tap's own request) answers for the tap, and sends the move the tap finished.
    let tapPending = false;
    let busy = false;
    let confirming = null;
    let again = null;     // the timer of an offer asked again after "slow down" (429)
    let soon = null;      // the timer of a refresh after a board change
    let refreshed = 0;    // when the last such refresh asked

    function setDraft(next) {
      draft = next;
      tapPending = true;
      load(true);
    }

    // tapped: asked after a person's tap. A board change asks again with the same draft (refresh); a
    // move the builder finished there (a step taken for the person: the only way on) is never sent
    // without a tap: the draft starts again instead.
    async function load(tapped) {
      const ticket = ++asked;
      clearTimeout(again);
      root.dataset.ready = "0";
      const params = new URLSearchParams({ draft: JSON.stringify(draft) });
      if (!opts.fixedBy && by) params.set("by", by);
      const response = await fetch(opts.offerUrl + "?" + params.toString(), { credentials: "same-origin", cache: "no-store" });
      if (ticket !== asked) return;
      if (response.status === 429) {
        // Too many offers asked (docs/security.md): ask again when the server says, keeping the draft.
        const wait = Math.max(1, parseInt(response.headers.get("Retry-After") || "1", 10) || 1);
        const note = el("p", { class: "answer pending", "data-busy": "" }, "Busy: asking again in " + wait + " s…");
        root.querySelector("[data-busy]")?.remove();
        root.prepend(note);
        again = setTimeout(() => { if (ticket === asked) load(tapped); }, wait * 1000);
        return;
      }
      if (!response.ok) {
        const text = (await response.text()).trim();
        draft = fresh();
        tapPending = false;
        root.replaceChildren(el("p", { class: "answer error" }, "Could not build the move: " + text), el("button", { type: "button", "data-tap": "reset", onclick: () => setDraft(fresh()) }, "Start again"));
        root.dataset.ready = "1";
        return;
      }
      const offer = await response.json();
      if (ticket !== asked) return;
      const byTap = tapped || tapPending;
      tapPending = false;
      if (offer.move) {
        if (!byTap) { draft = fresh(); load(false); return; }
        await sendMove(offer.move);
        return;
      }
      render(offer);
    }

    // While a move is on its way (and the page refreshes after it) the builder is drawn greyed out
    // (aria-busy, app.css): a live update may redraw it meanwhile, and a tap then would be lost, so
    // none is taken until the offer after the move is drawn.
    async function sendMove(move) {
      if (busy) return;
      busy = true;
      root.dataset.ready = "0";
      root.setAttribute("aria-busy", "true");
      try {
        await opts.send(move);
      } finally {
        busy = false;
        root.removeAttribute("aria-busy");
        draft = fresh();
        load();
      }
    }

    function tap(label, tapKey, onclick, cls) {
      return el("button", { type: "button", class: "tap" + (cls ? " " + cls : ""), "data-tap": tapKey, onclick }, label);
    }

    function whoRow() {
      const who = [null].concat(opts.players || []);
      return el("div", { class: "tap-row who", role: "group", "aria-label": "who acts" },
        el("span", { class: "tap-label" }, "Who:"),
        who.map((p) => tap(p === null ? "table" : p, "by:" + (p === null ? "" : p), () => { by = p; setDraft(fresh()); }, by === p ? "on" : "")));
    }

    // "Any value" before a verb: every step of the move waits for a tap and offers every value, so a
    // move the rules refuse can be entered on purpose even where the builder would take a step itself.
    function verbRow(offer) {
      if (offer.out) return el("p", { class: "note", "data-out": "1" }, offer.out); // out of the game: no move to offer
      return el("div", { class: "tap-row verbs", role: "group", "aria-label": "what" },
        offer.verbs.map((v) => tap(v.label, "verb:" + v.verb,
          () => setDraft(Object.assign(fresh(), { verb: v.verb, focus: draft.focus, every: draft.every })),
          (v.verb === offer.verb ? "on" : "") + (v.legal ? "" : " off"))),
        draft.verb || draft.every ? null : tap("Any value…", "every-verb", () => setDraft(Object.assign({}, draft, { every: true })), "more"));
    }

    function quickRow(offer) {
      if (!offer.quick || !offer.quick.length) return null;
      return el("div", { class: "tap-row quick", role: "group", "aria-label": "ready moves" },
        offer.quick.map((q) => tap(q.label, "quick:" + JSON.stringify(q.move), () => sendMove(q.move), "go")));
    }

    function filledRow(offer) {
      const done = offer.fields.filter((f) => f.value !== null && f.value !== undefined && !(f.many && !f.value.length && !f.done));
      if (!done.length && !draft.focus) return null;
      // A field taken for the person (the only legal way on) is cleared with every value shown: the
      // builder would take it again otherwise, and a person may mean an illegal move on purpose.
      const chips = done.map((f) => tap(f.name.replace(/_/g, " ") + ": " + describe(f.value) + (f.taken ? " (only way)" : ""), "clear:" + f.name, () => {
        const fields = {};
        for (const g of offer.fields) { if (g.name === f.name) break; if (g.name in draft.fields) fields[g.name] = draft.fields[g.name]; }
        setDraft(Object.assign({}, draft, { fields, closed: draft.closed.filter((c) => c in fields), every: draft.every || !!f.taken }));
      }, "chip"));
      if (draft.focus) chips.unshift(tap("with " + draft.focus + " ✕", "clear-focus", () => setDraft(Object.assign({}, draft, { focus: null })), "chip"));
      return el("div", { class: "tap-row filled" }, chips);
    }

    // A value as its button read ("4♣", "move 2 ↑ N"), not as JSON ("[object Object]").
    const labels = {};
    function describe(value) {
      if (Array.isArray(value)) return value.map(describe).join(" ") || "none";
      if (value === null) return "none";
      const known = labels[JSON.stringify(value)];
      if (known !== undefined) return known;
      return typeof value === "object" ? Object.values(value).map(describe).join(" ") : String(value);
    }

    // A mapping of players to cards (a deal): whose part first, then that part's cards.
    function perPlayer(next) {
      const mapping = Object.assign({}, next.mapping);
      const put = (extra) => {
        const fields = Object.assign({}, draft.fields);
        fields[next.field] = Object.assign(mapping, extra.mapping || {});
        setDraft(Object.assign({}, draft, { fields, closed: draft.closed.concat(extra.closed || []) }));
      };
      const title = next.key === null
        ? "Whose " + next.field.replace(/_/g, " ") + "?" + (Object.keys(mapping).length ? " (done: " + Object.keys(mapping).join(", ") + ")" : "")
        : next.field.replace(/_/g, " ") + " of " + next.key + " (" + next.so_far.length + " so far)";
      const tiles = next.choices.map((c) => {
        labels[JSON.stringify(c.value)] = c.label;
        const face = c.card ? card(opts.gameId, c.card) : null;
        return tap(withCount(face || c.label, c), "value:" + JSON.stringify(c.value), () => put({ mapping: next.key === null ? { [c.value]: [] } : { [next.key]: next.so_far.concat([c.value]) } }),
          "choice" + (face ? " has-card" : "") + (c.legal ? "" : " off"));
      });
      const actions = [];
      if (next.key === null && !Object.keys(mapping).length && next.optional) {
        actions.push(tap("None", "skip", () => {
          const fields = Object.assign({}, draft.fields);
          fields[next.field] = null;
          setDraft(Object.assign({}, draft, { fields }));
        }, next.finish_legal ? "go" : ""));
      } else if (next.can_finish) {
        actions.push(tap(next.key === null ? "Done" : "Done with " + next.key, "finish", () => put({ closed: [next.key === null ? next.field : next.field + "/" + next.key] }), next.finish_legal ? "go" : ""));
      }
      if (next.hidden_choices) actions.push(tap("Show every value (" + next.hidden_choices + " more)", "every", () => setDraft(Object.assign({}, draft, { every: true })), "more"));
      return el("div", { class: "step", "data-field": next.field, "data-key": next.key === null ? "" : next.key },
        el("p", { class: "step-title" }, title),
        el("div", { class: "tap-row tap-choices" + (next.key !== null ? " cards" : "") }, tiles),
        actions.length ? el("div", { class: "tap-row actions" }, actions) : null);
    }

    // Identical copies of a card are one button: "7 START ×3" (the server names a copy the move can take).
    function withCount(body, choice) {
      if (!choice.count || choice.count < 2) return body;
      return [].concat(body, el("span", { class: "count", "data-count": String(choice.count) }, " ×" + choice.count));
    }

    function choiceButton(next, choice) {
      labels[JSON.stringify(choice.value)] = choice.label;
      const face = choice.card ? card(opts.gameId, choice.card) : null;
      const isCard = ["hand_card", "unseen_card", "public_card"].includes(next.pick);
      const body = withCount(face ? [face, isCard ? null : el("span", { class: "choice-label" }, choice.label)] : choice.label, choice);
      return tap(body, "value:" + JSON.stringify(choice.value), () => {
        const fields = Object.assign({}, draft.fields);
        fields[next.field] = next.many ? next.so_far.concat([choice.value]) : choice.value;
        setDraft(Object.assign({}, draft, { fields }));
      }, "choice" + (face ? " has-card" : "") + (choice.legal ? "" : " off"));
    }

    function nextStep(offer) {
      const next = offer.next;
      if (!next) return null;
      if (next.per_player) return perPlayer(next);
      const title = (next.ask || "Pick " + next.field.replace(/_/g, " ")) + (next.many ? " (" + (next.so_far.length ? next.so_far.map(describe).join(", ") + ", …" : "one at a time") + ")" : "");
      const actions = [];
      if (next.can_finish) {
        const spec = offer.fields.find((f) => f.name === next.field) || {};
        const closing = next.many && (next.so_far.length || !spec.optional);
        actions.push(tap(next.so_far.length ? "Done" : "None", closing ? "finish" : "skip", () => {
          const fields = Object.assign({}, draft.fields);
          fields[next.field] = closing ? next.so_far : null;
          setDraft(Object.assign({}, draft, { fields, closed: closing ? draft.closed.concat([next.field]) : draft.closed }));
        }, next.finish_legal ? "go" : "off"));
      }
      if (next.hidden_choices) {
        actions.push(tap("Show every value (" + next.hidden_choices + " more)", "every", () => setDraft(Object.assign({}, draft, { every: true })), "more"));
      }
      // A game may lay out its own kind of pick (The Mountain's pyramid slots as a pyramid).
      // A value made of parts (an Everest planned coin) is tapped a part at a time (parts.js).
      const tiles = TC.games.picker(opts.gameId, next, (c) => choiceButton(next, c)) || TC.parts(next, (c) => choiceButton(next, c)) ||
        el("div", { class: "tap-row tap-choices" + (next.choices.some((c) => c.card) ? " cards" : "") }, next.choices.map((c) => choiceButton(next, c)));
      return el("div", { class: "step", "data-field": next.field, "data-many": next.many ? "1" : "0" },
        el("p", { class: "step-title" }, title),
        next.choices.length ? tiles : el("p", { class: "muted", "data-dead-end": "" }, next.hidden_choices
          ? "No value here makes a legal move now: show every value to enter one on purpose, or start again."
          : "Nothing can be named here now: start again, or pick another verb."),
        actions.length ? el("div", { class: "tap-row actions" }, actions) : null);
    }

    function takeBackRow() {
      if (!opts.takeBack) return null;
      if (confirming) {
        const p = confirming;
        if (p.seq === null) {
          return el("div", { class: "confirm" }, el("p", {}, (p.refused ? "Your last entry (row " + p.refused.seq + ") was refused and changed nothing. " : "") + (p.why || "Nothing to take back.")),
            tap("OK", "take-back-cancel", () => { confirming = null; load(false); }));
        }
        return el("div", { class: "confirm" },
          el("p", {}, (p.refused ? "The last entry (row " + p.refused.seq + ") was refused and changed nothing. " : "") + "Take back row " + p.seq + ": " + (p.move && p.move.by ? p.move.by + " " : "") + TC.moveText(p.move, p.names) + "?"),
          tap("Yes, take it back", "take-back-confirm", async () => {
            confirming = null;
            await opts.takeBack.post(p.seq);
            setDraft(fresh());
          }, "warn"),
          tap("No", "take-back-cancel", () => { confirming = null; load(false); }));
      }
      return el("div", { class: "tap-row undo" }, tap(opts.takeBack.label || "Take back…", "take-back", async () => {
        const response = await fetch(opts.takeBack.preview, { credentials: "same-origin", cache: "no-store" });
        confirming = response.ok ? await response.json() : { seq: null, why: "could not ask: HTTP " + response.status };
        load(false);
      }));
    }

    function render(offer) {
      if (!draft.verb && offer.verb) draft.verb = offer.verb; // the one legal verb, chosen for you
      // replaceChildren would write a null as the text "null": leave out the rows not shown
      root.replaceChildren(...[
        opts.fixedBy ? null : whoRow(),
        quickRow(offer),
        verbRow(offer),
        filledRow(offer),
        nextStep(offer),
        offer.verb ? tap("Start again", "reset", () => setDraft(fresh()), "plain") : null,
        takeBackRow()].filter(Boolean));
      root.dataset.ready = busy ? "0" : "1";
      root.dataset.seq = String(offer.seq);
      if (TC.answerInView && TC.answerShown) { TC.answerInView(); TC.answerShown = null; }
    }

    // A board change asks for the offer again, at most twice a second: a burst of rows is one ask.
    function refresh() {
      root.dataset.ready = "0";
      if (soon !== null) return;
      soon = setTimeout(() => { soon = null; refreshed = Date.now(); load(false); }, Math.max(0, refreshed + 500 - Date.now()));
    }

    return {
      node: root,
      refresh,
      start(verb, who) {
        if (!opts.fixedBy && who !== undefined) by = who;
        setDraft(Object.assign(fresh(), { verb }));
      },
      focus(name) {
        setDraft(Object.assign(fresh(), { focus: name }));
      },
    };
  };

})();
