// The table page: one WebSocket to the game's owner on the server, which holds the
// only true state and the only clock. This page keeps the player's draft (the table
// as the player arranges it during the turn) and the rack's order, sends the draft as
// it changes (debounced), and draws whatever the server says.
"use strict";
(() => {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
  const COLOURS = "krob";

  let ws = null;
  let version = null;      // the last state version we hold
  let view = null;         // the server's view of the game for us
  let offset = 0;          // server clock minus ours, in seconds
  let table = boot.table;
  let nextId = 1;
  let tileIds = 1;
  // Local arrangement: melds are arrays of {id, t, own}; own = came from our rack.
  let melds = [];
  let rack = [];
  let undo = [];
  let turnKey = null;      // the turn our draft belongs to
  let draftTimer = null;
  let watched = null;      // another player's draft, when the table shows drafts

  const me = boot.seat;
  const rid = () => `${Date.now().toString(36)}-${nextId++}`;
  const tile = (t, own) => ({ id: tileIds++, t, own });
  const myTurn = () => view && view.end === null && me !== null && view.current === me;
  const nameOf = (seat) => (view ? view.players[seat] : (table.seats[seat].name || "?"));

  // ------------------------------------------------------------ connection

  let gone = false;
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/play/t/${boot.id}/ws?lang=${boot.lang}`);
    ws.onopen = () => {
      hideNotice("reconnect");
      if (version !== null) ws.send(JSON.stringify({ type: "hello", version }));
    };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      // 4404: the server holds no such game (any more): the page shows what the log has
      // (the score of a game over).
      if (gone || e.code === 4404) { location.replace(`/play/t/${boot.id}`); return; }
      notice(T.reconnecting, "reconnect");
      setTimeout(connect, 1000);
    };
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function receive(m) {
    if (m.now !== undefined) offset = m.now - Date.now() / 1000;
    for (const listen of listeners) listen(m);
    switch (m.type) {
      case "snapshot":
        table = m.table;
        version = m.version;
        if (m.view) setView(m.view, []);
        else showWaiting();
        break;
      case "table":
        table = m.table;
        if (!view) showWaiting();
        break;
      case "frame":
        if (version !== null && m.version !== version + 1) {
          send({ type: "hello", version });  // a gap: ask for what we missed
          return;
        }
        version = m.version;
        watched = null;
        setView(m.view, m.events);
        break;
      case "synced":
        version = m.version;
        setView(m.view, []);
        break;
      case "refused":
        if (!m.duplicate) notice(`${T.refused}: ${m.reason}`, "bad");
        break;
      case "stale":
        send({ type: "hello", version });
        break;
      case "draft":
        watched = m.board;
        render();
        break;
      case "closing":
        // A game over leaves the server's memory some time after its end: its score
        // page (from the log) takes over.
        if (m.reason === "over") gone = true;
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------ state from the server

  function setView(v, events) {
    const first = view === null;
    view = v;
    table.started = true;
    $("waiting").hidden = true;
    $("game").hidden = false;
    const key = `${v.turn_no}`;
    const redealt = events.some((e) => e.kind === "redeal");
    if (redealt) rack = [];  // a new deal: every tile is dealt, none drawn
    const keep = myTurn() && turnKey === key && !first && !redealt;
    if (!keep) {
      turnKey = key;
      rebuild();
      undo = [];
    }
    if (v.watched_draft) watched = v.watched_draft;
    for (const e of events) logEvent(e);
    render();
  }

  function rebuild() {
    // The board as the server has it (or our own draft after a reconnect), and the rack
    // in the order we had it, with new tiles at the end.
    const src = view.draft && myTurn() ? view.draft : view.board;
    const onBoard = {};
    for (const m of view.board) for (const t of meldTiles(m)) onBoard[t] = (onBoard[t] || 0) + 1;
    const mine = {};
    melds = src.map((m) => meldTiles(m).map((t) => {
      if (onBoard[t]) { onBoard[t]--; return tile(t, false); }
      mine[t] = (mine[t] || 0) + 1;
      return tile(t, true);
    }));
    const wanted = {};
    for (const t of view.rack) wanted[t] = (wanted[t] || 0) + 1;
    for (const [t, k] of Object.entries(mine)) wanted[t] -= k;
    const kept = [];
    for (const x of rack) if (wanted[x.t] > 0) { wanted[x.t]--; kept.push(x); }
    const hadRack = rack.length > 0;  // the first rack is dealt, not drawn
    for (const t of view.rack) if (wanted[t] > 0) { wanted[t]--; const n = tile(t, true); n.fresh = hadRack; kept.push(n); }
    rack = kept.map((x) => ({ ...x, own: true }));
  }

  const meldTiles = (m) => (Array.isArray(m) ? m : m.tiles);
  // Drawn tiles named in words: "r5" reads "red 5" (the words of the reader's language).
  const inWords = (tiles) => tiles.map((t) => (t === "J" ? boot.tile_words.J
    : boot.tile_words[t[0]].replace("%(n)s", t.slice(1)))).join(", ");

  // ------------------------------------------------------------ drafting

  function snapshot() {
    return { melds: melds.map((m) => m.map((x) => ({ ...x }))), rack: rack.map((x) => ({ ...x })) };
  }

  function changed(record) {
    melds = melds.filter((m) => m.length > 0);
    if (myTurn()) {
      clearTimeout(draftTimer);
      draftTimer = setTimeout(sendDraft, 300);
    }
    render();
    return record;
  }

  function sendDraft() {
    if (!myTurn()) return;
    send({ type: "draft", id: rid(), version, board: boardOut() });
  }

  const boardOut = () => melds.filter((m) => m.length).map((m) => m.map((x) => x.t));

  function moveTile(from, to) {
    // from: {where: "rack"|"meld", meld, index}; to: {where: "rack"|"meld"|"new", meld, index}
    const list = (p) => (p.where === "rack" ? rack : melds[p.meld]);
    const item = list(from)[from.index];
    if (!item) return;
    if (!myTurn() && (from.where !== "rack" || to.where !== "rack")) return;
    if (to.where === "rack" && from.where === "meld" && !item.own) {
      notice(T.board_stays, "bad");
      return;
    }
    const before = snapshot();
    list(from).splice(from.index, 1);
    let index = to.index;
    if (to.where === "new") {
      melds.push([item]);
    } else {
      const target = list(to);
      if (from.where === to.where && from.meld === to.meld && from.index < index) index--;
      target.splice(Math.max(0, Math.min(index, target.length)), 0, item);
    }
    item.fresh = false;
    if (from.where === "rack" && to.where === "rack") { render(); return; }
    undo.push(before);
    changed();
  }

  function sortRack(by) {
    const key = (t) => {
      if (t === "J") return [9, 99];
      const c = COLOURS.indexOf(t[0]); const n = Number(t.slice(1));
      return by === "colour" ? [c, n] : [n, c];
    };
    rack.sort((a, b) => { const x = key(a.t), y = key(b.t); return x[0] - y[0] || x[1] - y[1]; });
    render();
  }

  // ------------------------------------------------------------ drag and drop (pointer events)

  let drag = null;

  function startDrag(e, from) {
    if (e.button !== undefined && e.button !== 0) return;
    e.preventDefault();
    const el = e.currentTarget;
    const ghost = el.cloneNode(true);
    ghost.classList.add("ghost");
    const r = el.getBoundingClientRect();
    ghost.style.width = `${r.width}px`;
    ghost.style.height = `${r.height}px`;
    document.body.appendChild(ghost);
    drag = { from, el, ghost, dx: e.clientX - r.left, dy: e.clientY - r.top, id: e.pointerId };
    el.classList.add("lifted");
    moveGhost(e);
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  }

  function moveGhost(e) {
    drag.ghost.style.left = `${e.clientX - drag.dx}px`;
    drag.ghost.style.top = `${e.clientY - drag.dy}px`;
    document.querySelectorAll(".drop-hover").forEach((x) => x.classList.remove("drop-hover"));
    const target = dropTarget(e.clientX, e.clientY);
    if (target) target.el.classList.add("drop-hover");
  }

  function onMove(e) { if (drag && e.pointerId === drag.id) moveGhost(e); }

  function endDrag() {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    document.querySelectorAll(".drop-hover").forEach((x) => x.classList.remove("drop-hover"));
    if (drag) { drag.ghost.remove(); drag.el.classList.remove("lifted"); }
  }

  function onCancel() { endDrag(); drag = null; }

  function onUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { from, el } = drag;
    endDrag();
    drag = null;
    const target = dropTarget(e.clientX, e.clientY);
    if (!target) return;
    if (e.pointerType !== "touch") { moveTile(from, target.to); return; }
    // A finger: the tile moves once the touch has ended. Redrawing now would take the
    // element from under the finger before its touchend, and the next tap would be lost.
    let moved = false;
    const move = () => { if (!moved) { moved = true; moveTile(from, target.to); } };
    el.addEventListener("touchend", () => setTimeout(move, 0), { once: true });
    el.addEventListener("touchcancel", () => setTimeout(move, 0), { once: true });
    setTimeout(move, 300);
  }

  function insertIndex(container, x) {
    const tiles = [...container.querySelectorAll(":scope > .tile:not(.lifted)")];
    const all = [...container.querySelectorAll(":scope > .tile")];
    for (const t of tiles) {
      const r = t.getBoundingClientRect();
      if (x < r.left + r.width / 2) return all.indexOf(t);
    }
    return all.length;
  }

  function dropTarget(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el) return null;
    const meld = el.closest(".meld");
    if (meld && myTurn()) {
      return { el: meld, to: { where: "meld", meld: Number(meld.dataset.meld), index: insertIndex(meld, x) } };
    }
    const fresh = el.closest(".new-meld");
    if (fresh && myTurn()) return { el: fresh, to: { where: "new" } };
    const r = el.closest(".rack");
    if (r) return { el: r, to: { where: "rack", index: insertIndex(r, x) } };
    return null;
  }

  // ------------------------------------------------------------ drawing the page

  function tileEl(x, from, draggable) {
    const el = document.createElement("span");
    const colour = x.t === "J" ? "joker" : x.t[0];
    el.className = `tile c-${colour}${x.own && from.where === "meld" ? " own" : ""}${x.fresh ? " fresh" : ""}`;
    el.textContent = x.t === "J" ? "☺" : x.t.slice(1);
    el.dataset.tile = x.t;
    el.title = x.t;
    if (draggable) {
      el.classList.add("draggable");
      el.addEventListener("pointerdown", (e) => startDrag(e, from));
      // A finger held on a tile drags it: no long-press menu.
      el.addEventListener("contextmenu", (e) => e.preventDefault());
    }
    return el;
  }

  function render() {
    if (!view) return;
    const mine = myTurn();
    $("game").dataset.version = version;
    // status
    $("turn").textContent = view.end !== null ? T.game_over
      : mine ? T.your_turn : fill(T.their_turn, { name: nameOf(view.current) });
    $("turn").classList.toggle("mine", mine);
    $("pool").textContent = fill(T.pool, { n: view.pool_left });
    const players = $("players");
    players.textContent = "";
    view.players.forEach((name, seat) => {
      const li = document.createElement("li");
      li.dataset.seat = seat;
      li.className = seat === view.current && view.end === null ? "current" : "";
      const computer = table.seats[seat] && table.seats[seat].kind === "computer";
      li.innerHTML = "";
      const strong = document.createElement("strong");
      strong.textContent = name + (seat === me ? ` (${T.you})` : "") + (computer ? ` · ${T.computer}` : "");
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = fill(T.tiles, { n: view.rack_sizes[seat] });
      li.append(strong, " ", count);
      if (view.melded[seat]) { const m = document.createElement("span"); m.className = "melded"; m.textContent = `✓ ${T.melded}`; li.append(" ", m); }
      players.append(li);
    });
    // board
    const board = $("board");
    board.textContent = "";
    const shown = !mine && watched ? watched.map((m) => meldTiles(m).map((t) => tile(t, false))) : melds;
    shown.forEach((m, i) => {
      const row = document.createElement("div");
      row.className = "meld";
      row.dataset.meld = i;
      m.forEach((x, j) => row.append(tileEl(x, { where: "meld", meld: i, index: j }, mine)));
      board.append(row);
    });
    if (mine) {
      const fresh = document.createElement("div");
      fresh.className = "new-meld";
      fresh.textContent = T.new_meld;
      board.append(fresh);
    }
    // rack
    const rackEl = $("rack");
    rackEl.textContent = "";
    rack.forEach((x, i) => rackEl.append(tileEl(x, { where: "rack", index: i }, me !== null && view.end === null)));
    $("mine").hidden = me === null;
    $("watching").hidden = me !== null;
    $("watching").textContent = T.watching;
    $("b-done").disabled = !mine;
    $("b-draw").disabled = !mine;
    $("b-draw").textContent = view.pool_left > 0 ? T.draw : T.pass;
    $("b-undo").disabled = !mine || undo.length === 0;
    $("b-reset").disabled = !mine || undo.length === 0;
    renderRedeal();
    renderResult();
    tick();
  }

  function renderResult() {
    const box = $("result");
    if (view.end === null || !view.scores) { box.hidden = true; return; }
    box.hidden = false;
    box.textContent = "";
    const h = document.createElement("h2");
    h.textContent = view.winner !== null ? fill(T.winner, { name: nameOf(view.winner) }) : T.game_over;
    const t = document.createElement("table");
    t.className = "scores";
    const head = t.insertRow();
    for (const c of ["", T.score, T.penalty, T.final_rack]) { const th = document.createElement("th"); th.textContent = c; head.append(th); }
    view.players.forEach((name, seat) => {
      const r = t.insertRow();
      r.insertCell().textContent = name;
      r.insertCell().textContent = view.scores[seat];
      r.insertCell().textContent = view.penalties[seat] || "";
      r.insertCell().textContent = (view.final_racks ? view.final_racks[seat] : []).join(" ");
    });
    const links = document.createElement("nav");
    links.className = "after-links";
    for (const [key, path, cls] of [["score_page", "score", "button primary"], ["replay_page", "replay", "button"], ["analysis_page", "analysis", "button"]]) {
      const a = document.createElement("a");
      a.className = cls;
      a.id = `to-${path}`;
      a.href = `/play/t/${boot.id}/${path}`;
      a.textContent = T[key];
      links.append(a);
    }
    box.append(h, t, links);
  }

  // ------------------------------------------------------------ the redeal right

  const doublesOf = (tiles) => {
    const seen = {};
    for (const t of tiles) if (t !== "J") seen[t] = (seen[t] || 0) + 1;
    return Object.values(seen).filter((k) => k >= 2).length;
  };

  // Offered exactly when the engine would grant it: a rack of the dealt size with the
  // doubles the rules ask, in the rules' window (before anyone's first turn, or on the
  // player's own first turn: a rack that has neither drawn nor played is still dealt).
  function canRedeal() {
    const r = boot.rules;
    if (!view || me === null || view.end !== null || r.redeal === "none" || r.given_deal) return false;
    if (view.melded[me] || view.rack.length !== r.hand_size) return false;
    if (doublesOf(view.rack) < r.redeal_doubles) return false;
    return r.redeal === "before_game" ? view.turn_no === 0 : myTurn();
  }

  let redealArmed = null;
  function renderRedeal() {
    const b = $("b-redeal");
    const can = canRedeal();
    b.hidden = !can;
    if (!can) { redealArmed = null; b.classList.remove("armed"); return; }
    const n = doublesOf(view.rack);
    b.textContent = redealArmed ? fill(T.redeal_confirm, { n }) : fill(T.redeal, { n });
    b.classList.toggle("armed", Boolean(redealArmed));
  }

  // The server's clock: seconds left, a bar that empties, and a warning for the last
  // quarter of the turn (at most the last 10 seconds, at least the last 3).
  function tick() {
    const el = $("clock");
    const bar = $("clockbar");
    if (!view || view.end !== null || view.deadline === null) {
      el.textContent = "";
      el.hidden = true;
      bar.hidden = true;
      return;
    }
    const total = boot.rules.turn_seconds;
    const left = Math.max(0, view.deadline - (Date.now() / 1000 + offset));
    const warn = left <= Math.min(10, Math.max(3, total / 4));
    el.hidden = false;
    bar.hidden = false;
    el.textContent = `${T.time_left} ${fill(T.seconds, { n: Math.ceil(left) })}`;
    el.classList.toggle("warning", warn);
    el.classList.toggle("mine", myTurn());
    const fillEl = bar.firstElementChild;
    fillEl.style.width = `${Math.min(100, (100 * left) / total)}%`;
    bar.classList.toggle("warning", warn);
  }

  let seatsShown = null;
  function showWaiting() {
    $("waiting").hidden = false;
    $("game").hidden = true;
    $("invite").value = location.origin + location.pathname;
    const list = $("seats");
    // Redrawn only when a seat changes, keeping a name being typed in a free seat.
    const key = JSON.stringify(table.seats);
    if (key === seatsShown) return;
    seatsShown = key;
    const typed = {};
    list.querySelectorAll("input[name=name]").forEach((el) => { typed[el.form.seat.value] = el.value; });
    list.textContent = "";
    table.seats.forEach((s, i) => {
      const li = document.createElement("li");
      if (s.kind === "computer") {
        li.textContent = `${i + 1}. ${boot.levels[s.level] || s.level} · ${T.computer}`;
      } else if (s.taken) {
        li.textContent = `${i + 1}. ${s.name}`;
      } else if (me === null) {
        const form = document.createElement("form");
        form.method = "post";
        form.action = `/play/t/${boot.id}/join`;
        form.innerHTML = `<input type="hidden" name="seat" value="${i}">`;
        const input = document.createElement("input");
        input.name = "name"; input.required = true; input.maxLength = 24; input.placeholder = T.your_name;
        input.value = typed[String(i)] || "";
        input.setAttribute("aria-label", T.your_name);
        const button = document.createElement("button");
        button.type = "submit"; button.textContent = T.take_seat;
        form.append(`${i + 1}. `, input, " ", button);
        li.append(form);
      } else {
        li.textContent = `${i + 1}. ${T.free_seat}`;
      }
      list.append(li);
    });
  }

  // ------------------------------------------------------------ messages

  let noticeTimer = null;
  function notice(text, kind) {
    const el = $("notice");
    el.hidden = false;
    el.textContent = text;
    el.className = `notice ${kind || ""}`;
    el.dataset.kind = kind || "";
    clearTimeout(noticeTimer);
    if (kind !== "reconnect") noticeTimer = setTimeout(() => { el.hidden = true; }, 8000);
  }
  function hideNotice(kind) { const el = $("notice"); if (el.dataset.kind === kind) el.hidden = true; }

  function logEvent(e) {
    const name = e.seat !== null && e.seat !== undefined ? nameOf(e.seat) : "";
    let text = null;
    switch (e.kind) {
      case "play": text = fill(T.ev_play, { name, n: e.data.placed.length }); break;
      case "initial_meld": text = fill(T.ev_initial, { name }); break;
      case "draw":
        if (e.private) text = fill(T.ev_draw_me, { tiles: inWords(e.private.tiles) });
        else if (e.data.why === "penalty") text = fill(T.ev_penalty, { name, n: e.data.count });
        else text = fill(T.ev_draw, { name });
        if (e.private && e.data.why === "penalty") text = `${fill(T.ev_penalty, { name, n: e.data.count })} (${inWords(e.private.tiles)})`;
        break;
      case "timeout": text = fill(T.ev_timeout, { name }); break;
      case "failed_turn": text = fill(e.data.consequence === "keep_completed" ? T.ev_failed_keep : T.ev_failed_revert, { name }); break;
      case "penalty": text = fill(T.ev_points, { name, n: e.data.points }); break;
      case "pass": text = fill(T.ev_pass, { name }); break;
      case "pool_empty": text = T.ev_pool_empty; break;
      case "redeal": text = fill(T.ev_redeal, { name }); break;
      case "illegal_end":
        text = fill(T.ev_illegal_end, { name });
        if (e.private && e.private.reason) text = `${text}: ${e.private.reason}`;
        break;
      case "game_end": text = T.game_over; break;
      default: break;
    }
    if (!text) return;
    const li = document.createElement("li");
    li.textContent = text;
    li.dataset.kind = e.kind;
    const list = $("events");
    list.prepend(li);
    while (list.children.length > 30) list.lastChild.remove();
    if (e.kind === "timeout" || e.kind === "failed_turn") notice(text, "bad");
  }

  // ------------------------------------------------------------ buttons

  $("b-done").addEventListener("click", () => {
    if (!myTurn()) return;
    clearTimeout(draftTimer);
    send({ type: "move", id: rid(), version, action: "play", board: boardOut() });
  });
  $("b-draw").addEventListener("click", () => {
    if (!myTurn()) return;
    clearTimeout(draftTimer);
    send({ type: "move", id: rid(), version, action: view.pool_left > 0 ? "draw" : "pass" });
  });
  $("b-undo").addEventListener("click", () => {
    const last = undo.pop();
    if (!last || !myTurn()) return;
    melds = last.melds; rack = last.rack;
    changed();
  });
  $("b-reset").addEventListener("click", () => {
    if (!myTurn() || undo.length === 0) return;
    const first = undo[0];
    undo = [];
    melds = first.melds; rack = first.rack;
    changed();
  });
  $("b-redeal").addEventListener("click", () => {
    if (!canRedeal()) return;
    if (!redealArmed) {  // a second tap confirms: a new deal cannot be taken back
      redealArmed = setTimeout(() => { redealArmed = null; renderRedeal(); }, 5000);
      renderRedeal();
      return;
    }
    clearTimeout(redealArmed);
    redealArmed = null;
    send({ type: "move", id: rid(), version, action: "redeal" });
    renderRedeal();
  });
  $("b-colour").addEventListener("click", () => sortRack("colour"));
  $("b-number").addEventListener("click", () => sortRack("number"));

  // ------------------------------------------------------------ for other scripts (hint.js)

  const listeners = [];
  // Lay a board (tile codes by meld, from the turn's table and our rack) as the draft;
  // returns the arrangement it replaced, for put().
  function lay(board) {
    if (!myTurn()) return null;
    const before = snapshot();
    const onBoard = {};
    for (const m of view.board) for (const t of meldTiles(m)) onBoard[t] = (onBoard[t] || 0) + 1;
    const used = {};
    const next = board.map((m) => m.map((t) => {
      if (onBoard[t]) { onBoard[t]--; return tile(t, false); }
      used[t] = (used[t] || 0) + 1;
      return tile(t, true);
    }));
    const left = [];
    for (const x of [...rack, ...melds.flat().filter((y) => y.own)]) {
      if (used[x.t]) used[x.t]--; else left.push({ ...x });
    }
    melds = next; rack = left;
    undo.push(before);
    changed();
    return before;
  }
  function put(arrangement) {
    if (!myTurn() || !arrangement) return;
    melds = arrangement.melds; rack = arrangement.rack;
    changed();
  }
  window.meldtourTable = {
    texts: T, seat: me, send, rid, lay, put, myTurn,
    version: () => version, table: () => table, turn: () => (view ? view.turn_no : null),
    listen: (f) => listeners.push(f),
  };

  setInterval(tick, 250);
  if (!table.started) showWaiting();
  connect();
})();
