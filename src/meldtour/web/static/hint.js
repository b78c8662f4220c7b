// The hint button (casual tables only: the server refuses it at a tournament's table
// and when the host has turned hints off). It asks the server for the solver's best
// play for our rack and lays it on the table as our draft; the player keeps it (and
// ends the turn as usual) or puts it back. Needs play.js's window.meldtourTable.
"use strict";
(() => {
  const api = window.meldtourTable;
  const button = document.getElementById("b-hint");
  const panel = document.getElementById("hint");
  if (!api || !button || !panel) return;
  const T = JSON.parse(document.getElementById("hint-texts").textContent);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
  let before = null;   // our arrangement before the hint was laid
  let shownFor = null; // the turn the hint is for
  // Hints are counted per turn (the server's rule, said on the button): how many are
  // left this turn, once one was asked for.
  const perTurn = JSON.parse(document.getElementById("boot").textContent).hints_per_turn;
  let left = null;     // {turn, left}

  function update() {
    const t = api.table();
    button.hidden = !(t && t.hints) || api.seat === null;
    button.disabled = !api.myTurn();
    if (shownFor !== null && shownFor !== api.turn()) close();
    const n = left && left.turn === api.turn() ? left.left : null;
    const label = n === null ? fill(T.button, { n: perTurn }) : fill(T.button_left, { left: n, n: perTurn });
    if (button.textContent !== label) button.textContent = label;
  }

  function close() {
    panel.hidden = true;
    panel.textContent = "";
    before = null;
    shownFor = null;
  }

  function show(text, withButtons) {
    panel.textContent = "";
    const p = document.createElement("span");
    p.className = "hint-text";
    p.textContent = text;
    panel.appendChild(p);
    if (withButtons) {
      const keep = document.createElement("button");
      keep.id = "b-hint-keep";
      keep.textContent = T.keep;
      keep.addEventListener("click", () => { before = null; panel.hidden = true; });
      const back = document.createElement("button");
      back.id = "b-hint-back";
      back.textContent = T.back;
      back.addEventListener("click", () => { api.put(before); close(); });
      panel.append(" ", keep, " ", back);
    }
    panel.hidden = false;
    shownFor = api.turn();
  }

  api.listen((m) => {
    if (m.type === "hint") {
      if (m.version !== api.version()) return;
      if (typeof m.left === "number") left = { turn: api.turn(), left: m.left };
      if (m.action !== "play") { show(m.action === "draw" ? T.none_draw : T.none_pass, false); return; }
      before = api.lay(m.board);
      const n = m.tiles.length;
      show(fill(n === 1 ? T.shown_one : T.shown, { n }), before !== null);
    } else if (m.type === "refused" && m.hint) {
      if (m.code === "live.hint.too_many") left = { turn: api.turn(), left: 0 };
      show(m.reason, false);
    }
    setTimeout(update, 0);
  });

  button.addEventListener("click", () => {
    if (!api.myTurn()) return;
    api.send({ type: "hint", id: api.rid(), version: api.version() });
  });
  setInterval(update, 500);
  update();
})();
