// The table page: one WebSocket to the game's owner on the server, which holds the
// only true state and the only clock. This page keeps the player's draft (the table
// as the player arranges it during the turn) and the rack's order, sends the draft as
// it changes (debounced; the server answers with each meld's check), and draws
// whatever the server says.
//
// Sections: connection · state from the server · what just happened · drafting ·
// drag and drop · the keyboard · drawing the page · signals · chat · messages ·
// buttons. Other parts of the page may add a button through `window.meldtable`.
"use strict";
(() => {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));
  // A counted phrase: the catalogs give (one, many), chosen as gettext's ngettext does.
  const plural = (key, n, values) => fill(boot.plurals[key][n === 1 ? 0 : 1], { n, ...values });
  const COLOURS = "krob";
  const store = {  // localStorage, which a private window may refuse
    get(key, fallback) { try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* not kept */ } },
  };
  const session = {
    get(key) { try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return null; } },
    set(key, value) { try { sessionStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* not kept */ } },
  };

  let ws = null;
  let version = null;      // the last state version we hold
  let view = null;         // the server's view of the game for us
  let offset = 0;          // server clock minus ours, in seconds
  let table = boot.table;
  let nextId = 1;
  let tileIds = 1;
  // Local arrangement: melds are arrays of {id, t, own, mark}; own = came from our rack,
  // mark = "added"/"moved" by the last move.
  let melds = [];
  let rack = [];
  let undo = [];
  let turnKey = null;      // the turn our draft belongs to
  let draftTimer = null;
  let watched = null;      // another player's draft, when the table shows drafts
  let check = null;        // the server's check of our last draft: {board, reasons, value, touches_board}
  let sortMode = store.get("meldtour.sort", null);
  let picked = null;       // a tile picked up by the keyboard or a tap: {where, meld, index}
  let focusKey = null;     // what to focus once the page is redrawn
  const renderHooks = [];

  const me = boot.seat;
  const rid = () => `${Date.now().toString(36)}-${nextId++}`;
  const tile = (t, own) => ({ id: tileIds++, t, own });
  const myTurn = () => view && view.end === null && me !== null && view.current === me;
  const seatName = (seat) => {
    const s = table.seats[seat];
    if (s && s.kind === "computer") return fill(T.computer_name, { level: boot.levels[s.level] || s.level, n: seat + 1 });
    return view ? view.players[seat] : ((s && s.name) || "?");
  };
  const nameOf = seatName;
  const count = (list) => { const c = {}; for (const t of list) c[t] = (c[t] || 0) + 1; return c; };

  // ------------------------------------------------------------ connection

  let gone = false;
  let failures = 0;
  // The person is leaving the page (a link, the arena's "next game"): a socket closing
  // meanwhile must not reload this table over the page they asked for.
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted) return;
    leaving = false;
    if (ws && ws.readyState > WebSocket.OPEN) connect();
  });
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/play/t/${boot.id}/ws?lang=${boot.lang}`);
    let opened = false;
    ws.onopen = () => {
      opened = true;
      failures = 0;
      hideNotice("reconnect");
      if (version !== null) ws.send(JSON.stringify({ type: "hello", version }));
    };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (leaving) return;
      // 4404: the server holds no such game (any more): the page shows what the log has
      // (the score of a game over).
      if (gone || e.code === 4404) { location.replace(`/play/t/${boot.id}`); return; }
      notice(T.reconnecting, "reconnect");
      if (!opened) failures++;
      // The server answers but takes no socket (restarted, the game gone from its
      // memory): ask the page itself, which says where the game went.
      if (failures >= 3) { lookAgain(); return; }
      setTimeout(connect, 1000);
    };
  }

  function lookAgain() {
    fetch(`/play/t/${boot.id}?lang=${boot.lang}`, { redirect: "follow" }).then((r) => {
      if (r.redirected && !r.url.endsWith(`/play/t/${boot.id}`)) { location.replace(r.url); return; }
      if (r.status === 404) { notice(T.table_gone, "bad", true); return; }
      setTimeout(connect, 2000);
    }, () => setTimeout(connect, 2000));
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
        if (m.view && view === null) showSeatDraw(m.view);
        // The log as this tab had it before a reload, up to the moves the server resends.
        if (m.view && view === null) restoreLog(m.recent && m.recent.length ? m.recent[0].version : m.version + 1);
        if (m.view && view === null && m.recent) {
          // The moves made before the page opened: the last one highlighted, all logged.
          for (const r of m.recent) {
            logVersion = r.version;
            if (noteMove(r.before.map(meldTiles), r.events, r.after.map(meldTiles)) !== null) {
              for (const e of r.events) logEvent(e, 0, true);
            }
          }
        }
        if (m.chat) for (const c of m.chat) heard(c, false);
        if (m.view) setView(m.view, []);
        else showWaiting();
        break;
      case "table":
        table = m.table;
        if (!view) showWaiting(); else render();
        break;
      case "frame":
        if (version !== null && m.version !== version + 1) {
          send({ type: "hello", version });  // a gap: ask for what we missed
          return;
        }
        version = m.version;
        watched = null;
        logVersion = m.version;
        if (m.ack !== undefined) hideNotice("bad");  // our move, accepted (its ack is here)
        setView(m.view, m.events, true);
        break;
      case "synced":
        version = m.version;
        setView(m.view, []);
        break;
      case "ack":
        hideNotice("bad");  // the corrected move is accepted: the refusal is old news
        break;
      case "draft_ok":
        if (m.check && sentBoards[m.id]) { check = { ...m.check, board: sentBoards[m.id] }; delete sentBoards[m.id]; applyCheck(); }
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
      case "chat":
        heard(m, true);
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

  function setView(v, events, moved) {
    const first = view === null;
    const before = view ? view.board.map(meldTiles) : null;
    const wasMine = myTurn();
    view = v;
    table.started = true;
    $("waiting").hidden = true;
    $("game").hidden = false;
    const key = `${v.turn_no}`;
    const redealt = events.some((e) => e.kind === "redeal");
    if (redealt) rack = [];  // a new deal: every tile is dealt, none drawn
    // Only a tile drawn now is "newly drawn" (not one a failed turn gave back).
    const drawn = count(events.filter((e) => e.kind === "draw" && e.seat === me && e.private)
      .flatMap((e) => e.private.tiles));
    const shifted = moved ? noteMove(before, events, view.board.map(meldTiles)) || 0 : 0;
    const keep = myTurn() && turnKey === key && !first && !redealt;
    // A tile drawn stays outlined as new until the end of the player's next turn (or
    // until it is played): a turn of ours that ends takes the outline off the tiles
    // drawn before it (a tile drawn by this very end gets it).
    if (wasMine && !myTurn()) for (const x of rack) x.fresh = false;
    if (!keep) {
      turnKey = key;
      started = null;
      rebuild(drawn);
      undo = [];
      check = null;
      restoreTurn();
    }
    if (v.watched_draft) watched = v.watched_draft;
    for (const e of events) logEvent(e, shifted);
    if (v.end !== null) {
      if (!first && events.some((e) => e.kind === "game_end")) shout(); else shouted = true;
      askMatch();
    }
    render();
    if (myTurn() && !wasMine && !first) signalTurn();
    else if (myTurn() && first) signalTitle();
  }

  function rebuild(drawn) {
    // The board as the server has it (or our own draft after a reconnect), and the rack
    // in the order we had it, with new tiles in their sorted place (or at the end).
    const fromDraft = view.draft && myTurn();
    const src = fromDraft ? view.draft : view.board;
    const onBoard = {};
    for (const m of view.board) for (const t of meldTiles(m)) onBoard[t] = (onBoard[t] || 0) + 1;
    const mine = {};
    const marks = fromDraft ? null : since ? changeMarks(since.board, view.board.map(meldTiles), since.placed)
      : moves.length ? moves[moves.length - 1].marks : null;
    melds = src.map((m, i) => meldTiles(m).map((t, j) => {
      if (onBoard[t]) {
        onBoard[t]--;
        const x = tile(t, false);
        if (marks && marks[i]) x.mark = marks[i][j];
        return x;
      }
      mine[t] = (mine[t] || 0) + 1;
      return tile(t, true);
    }));
    const wanted = count(view.rack);
    for (const [t, k] of Object.entries(mine)) wanted[t] -= k;
    const kept = [];
    for (const x of rack) if (wanted[x.t] > 0) { wanted[x.t]--; kept.push({ ...x, mark: undefined }); }
    const left = { ...(drawn || {}) };
    for (const t of view.rack) {
      if (wanted[t] > 0) {
        wanted[t]--;
        const n = tile(t, true);
        if (left[t] > 0) { left[t]--; n.fresh = true; }
        kept.push(n);
      }
    }
    rack = kept.map((x) => ({ ...x, own: true }));
    if (sortMode) sortTiles(rack, sortMode);
  }

  // The turn's first position, as the server has it: what Reset goes back to.
  function turnStart() {
    return {
      melds: view.board.map((m) => meldTiles(m).map((t) => tile(t, false))),
      rack: (() => { const r = view.rack.map((t) => tile(t, true)); if (sortMode) sortTiles(r, sortMode); return r; })(),
    };
  }

  // Undo and Reset survive a reload mid-turn: the steps are kept for this tab and turn.
  const undoKey = () => `meldtour.undo.${boot.id}.${turnKey}`;
  function saveTurn() { if (myTurn()) session.set(undoKey(), { undo, melds, rack }); }
  function restoreTurn() {
    if (!myTurn() || !view.draft) return;
    const saved = session.get(undoKey());
    const same = saved && JSON.stringify(saved.melds.map((m) => m.map((x) => x.t))) === JSON.stringify(view.draft.map(meldTiles));
    if (same) {
      undo = saved.undo; melds = saved.melds; rack = saved.rack;
      for (const s of [...undo, { melds, rack }]) for (const x of [...s.rack, ...s.melds.flat()]) tileIds = Math.max(tileIds, x.id + 1);
    } else {
      undo = [turnStart()];  // at least Reset: back to the table as the turn began
    }
    scheduleDraft();  // the server's check of the restored draft
  }

  const meldTiles = (m) => (Array.isArray(m) ? m : m.tiles);
  const tileWord = (t) => (t === "J" ? boot.tile_words.J : boot.tile_words[t[0]].replace("%(n)s", t.slice(1)));
  const inWords = (tiles) => tiles.map(tileWord).join(", ");

  // ------------------------------------------------------------ what just happened

  // The moves since the page opened (at most the last 12): the board after each, the
  // tiles it added or moved, and its words; the player can step back through them.
  const moves = [];
  let step = null;  // the index of the move shown, or null: now

  // Each tile of the board after: "added" (put down from a rack), "moved" (it was in
  // another meld before), or null. A meld that grew or shrank keeps its other tiles
  // unmarked: each changed meld is matched with the meld before that shares the most
  // tiles with it, and only the tiles that came from elsewhere count as moved.
  function changeMarks(before, after, placed) {
    const old = count(before.map((m) => m.join(",")));
    const left = count(placed);
    const same = after.map((m) => { const k = m.join(","); if (old[k] > 0) { old[k]--; return true; } return false; });
    const unmatched = [];
    for (const [k, n] of Object.entries(old)) for (let i = 0; i < n; i++) unmatched.push(count(k.split(",")));
    return after.map((m, i) => {
      if (same[i]) return m.map(() => null);
      let best = -1; let most = 0;
      unmatched.forEach((c, j) => {
        if (!c) return;
        const shared = Object.entries(count(m)).reduce((a, [t, n]) => a + Math.min(n, c[t] || 0), 0);
        if (shared > most) { most = shared; best = j; }
      });
      const kept = best >= 0 ? unmatched[best] : {};
      if (best >= 0) unmatched[best] = null;
      return m.map((t) => {
        if (kept[t] > 0) { kept[t]--; return null; }
        if (left[t] > 0) { left[t]--; return "added"; }
        return "moved";
      });
    });
  }

  // What changed since the player's own last move (or since the page opened): the
  // board then and the tiles put down since, marked on the table (issue 28).
  let since = null;
  function noteSince(seat, before, after, placed) {
    if (me === null) return;
    if (seat === me) since = { board: after, placed: [] };
    else if (since === null) since = { board: before || after, placed: [...placed] };
    else since.placed.push(...placed);
  }

  function noteMove(before, events, after) {
    const play = events.find((e) => e.kind === "play");
    const placed = play ? play.data.placed : [];
    const marks = before ? changeMarks(before, after, placed) : after.map((m) => m.map(() => null));
    const moved = marks.flat().filter((x) => x === "moved").length;
    const seat = events.find((e) => e.seat !== null && e.seat !== undefined);
    noteSince(seat ? seat.seat : null, before, after, placed);
    const lines = events.map((e) => eventLine(e, moved)).filter(Boolean);
    if (!lines.length) return null;
    moves.push({ board: after, marks, seat: seat ? seat.seat : null, lines });
    while (moves.length > 12) moves.shift();
    step = null;
    return moved;
  }

  function showStep(to) {
    if (!moves.length) return;
    step = to === null || to >= moves.length - 1 ? null : Math.max(0, to);
    render();
  }

  function renderHappened() {
    const caption = $("last-move");
    caption.textContent = "";
    const i = step === null ? moves.length - 1 : step;
    $("b-back").disabled = i <= 0;
    $("b-fwd").disabled = step === null;
    $("b-now").hidden = step === null;
    if (i < 0) { caption.textContent = T.nothing_yet; return; }
    if (step !== null) caption.append(`${fill(T.step_of, { i: i + 1, n: moves.length })} · `);
    moves[i].lines.forEach((l, k) => { if (k) caption.append(" · "); caption.append(l.cloneNode(true)); });
  }

  function showSeatDraw(v) {
    if (!v.seat_draw || !v.seat_draw.length) return;
    const li = document.createElement("li");
    li.dataset.kind = "seat_draw";
    li.append(`${T.seat_draw}: `);
    v.seat_draw.forEach((round, r) => {
      if (r) li.append(" → ");
      round.forEach(([seat, t], k) => { if (k) li.append(", "); li.append(`${nameOf(seat)} `, chip(t)); });
    });
    li.append(` · ${fill(T.starts, { name: nameOf(v.order[0]) })}`);
    addLine(li);
  }

  // ------------------------------------------------------------ drafting

  function snapshot() {
    return { melds: melds.map((m) => m.map((x) => ({ ...x }))), rack: rack.map((x) => ({ ...x })) };
  }

  function changed(record) {
    melds = melds.filter((m) => m.length > 0);
    scheduleDraft();
    saveTurn();
    render();
    return record;
  }

  function scheduleDraft() {
    if (!myTurn()) return;
    clearTimeout(draftTimer);
    draftTimer = setTimeout(sendDraft, 300);
  }

  let sentBoards = {};  // the boards of the drafts sent, by request id, until checked
  function sendDraft() {
    if (!myTurn()) return;
    const id = rid();
    if (Object.keys(sentBoards).length > 20) sentBoards = {};
    sentBoards[id] = JSON.stringify(boardOut());
    send({ type: "draft", id, version, board: boardOut() });
  }

  const boardOut = () => melds.filter((m) => m.length).map((m) => m.map((x) => x.t));

  function moveTile(from, to) {
    // from: {where: "rack"|"meld", meld, index}; to: {where: "rack"|"meld"|"new", meld, index}
    const list = (p) => (p.where === "rack" ? rack : melds[p.meld]);
    const item = list(from) && list(from)[from.index];
    if (!item) return false;
    if (!myTurn() && (from.where !== "rack" || to.where !== "rack")) return false;
    if (to.where === "rack" && from.where === "meld" && !item.own) {
      notice(T.board_stays, "bad");
      return false;
    }
    const before = snapshot();
    list(from).splice(from.index, 1);
    let index = to.index === undefined ? Infinity : to.index;
    let where;
    if (to.where === "new") {
      melds.push([item]);
      where = { where: "meld", meld: melds.length - 1, index: 0 };
      started = item.id;  // the meld this tile starts stays in view (issue 28)
    } else {
      const target = list(to);
      if (from.where === to.where && from.meld === to.meld && from.index < index) index--;
      index = Math.max(0, Math.min(index, target.length));
      target.splice(index, 0, item);
      where = { ...to, index };
    }
    item.fresh = false;
    if (to.where !== "rack") lastTile = item.id;  // "A" adds to this tile's meld
    if (from.where === "meld" && melds[from.meld] && melds[from.meld].length === 0 && where.where === "meld" && where.meld > from.meld) where.meld--;
    lastPlace = where;
    if (from.where === "rack" && to.where === "rack") {
      setSort(null);  // the player's own order from now on
      render();
      return true;
    }
    undo.push(before);
    changed();
    if (to.where === "new") showStarted();
    return true;
  }

  // The meld started last this turn (by the id of its first tile): marked, and scrolled
  // into the board's view (on a phone the board scrolls within its own area).
  let started = null;
  const startedIndex = () => melds.findIndex((m) => m.some((x) => x.id === started));
  function showStarted() {
    const i = startedIndex();
    const row = i < 0 ? null : document.querySelector(`#board .meld[data-meld="${i}"]`);
    if (!row) return;
    const board = $("board");
    const r = row.getBoundingClientRect();
    const b = board.getBoundingClientRect();
    if (board.scrollHeight > board.clientHeight) {
      if (r.bottom > b.bottom - 4) board.scrollTop += r.bottom - b.bottom + 8;
      else if (r.top < b.top + 4) board.scrollTop -= b.top - r.top + 8;
    }
    const r2 = row.getBoundingClientRect();
    const hidden = r2.bottom > window.innerHeight || r2.top < 0
      || r2.bottom > $("mine").getBoundingClientRect().top + 2 && getComputedStyle($("mine")).position === "sticky";
    if (hidden) row.scrollIntoView({ block: "center" });
  }

  function sortTiles(list, by) {
    const key = (t) => {
      if (t === "J") return [99, 99];
      const c = COLOURS.indexOf(t[0]); const n = Number(t.slice(1));
      return by === "colour" ? [c, n] : [n, c];
    };
    list.sort((a, b) => { const x = key(a.t), y = key(b.t); return x[0] - y[0] || x[1] - y[1]; });
  }

  // A sort stays on: a drawn tile goes to its place, until the player moves one by hand.
  function setSort(by) {
    sortMode = by;
    store.set("meldtour.sort", by);
    if (by) { sortTiles(rack, by); say(by === "colour" ? T.sorted_by_colour : T.sorted_by_number); }
  }

  // ------------------------------------------------------------ drag and drop (pointer events)

  let drag = null;
  let quietUntil = 0;  // no button takes a click just after a drop (a finger's last touch)

  function startDrag(e, from) {
    if (e.button !== undefined && e.button !== 0) return;
    e.preventDefault();
    const el = e.currentTarget;
    drag = { from, el, ghost: null, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, id: e.pointerId, moved: false };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  }

  function lift() {
    const el = drag.el;
    const ghost = el.cloneNode(true);
    ghost.classList.add("ghost");
    ghost.removeAttribute("id");
    const r = el.getBoundingClientRect();
    ghost.style.width = `${r.width}px`;
    ghost.style.height = `${r.height}px`;
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.dx = drag.x0 - r.left;
    drag.dy = drag.y0 - r.top;
    drag.moved = true;
    el.classList.add("lifted");
    document.body.classList.add("dragging");
    if (myTurn()) $("dock").hidden = false;
  }

  function moveGhost(e) {
    if (!drag.moved) {
      if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 6) return;
      lift();
    }
    drag.lastX = e.clientX; drag.lastY = e.clientY;
    drag.ghost.style.left = `${e.clientX - drag.dx}px`;
    drag.ghost.style.top = `${e.clientY - drag.dy}px`;
    document.querySelectorAll(".drop-hover").forEach((x) => x.classList.remove("drop-hover"));
    const target = dropTarget(e.clientX, e.clientY);
    if (target) target.el.classList.add("drop-hover");
    autoScroll();
  }

  // Near the top or the bottom of the screen the page scrolls under the tile, so that
  // every meld is in reach on a phone (the rack's panel stays at the bottom).
  let scrolling = null;
  function autoScroll() {
    if (scrolling) return;
    const stepOnce = () => {
      scrolling = null;
      if (!drag || !drag.moved) return;
      const y = drag.lastY;
      // On a phone the rack's panel sits at the bottom (with its own new-meld zone, just
      // above which the table's is): only the top edge scrolls there.
      const docked = getComputedStyle($("mine")).position === "sticky";
      const h = window.innerHeight;
      // A board that scrolls on its own (a phone's table): near its edges, or over the
      // rack's panel just below it, the board scrolls under the tile.
      const board = $("board");
      if (board.scrollHeight > board.clientHeight + 1 && getComputedStyle(board).overflowY === "auto") {
        const b = board.getBoundingClientRect();
        const edge = 36;
        let by = 0;
        if (y < b.top + edge && y > b.top - 60) by = -Math.ceil((b.top + edge - y) / 4);
        else if (y > b.bottom - edge && y < b.bottom + 30) by = Math.ceil((y - b.bottom + edge) / 4);
        const before = board.scrollTop;
        if (by) board.scrollTop += by;
        if (board.scrollTop !== before) {
          moveGhost({ clientX: drag.lastX, clientY: drag.lastY });
          scrolling = requestAnimationFrame(stepOnce);
        }
        return;
      }
      let by = 0;
      if (y < 70) by = -Math.ceil((70 - y) / 5);
      else if (!docked && y > h - 40) by = Math.ceil((y - h + 40) / 5);
      if (by) {
        window.scrollBy(0, by);
        moveGhost({ clientX: drag.lastX, clientY: drag.lastY });
        scrolling = requestAnimationFrame(stepOnce);
      }
    };
    scrolling = requestAnimationFrame(stepOnce);
  }

  function onMove(e) { if (drag && e.pointerId === drag.id) moveGhost(e); }

  function endDrag() {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    document.querySelectorAll(".drop-hover").forEach((x) => x.classList.remove("drop-hover"));
    document.body.classList.remove("dragging");
    $("dock").hidden = true;
    if (drag && drag.ghost) { drag.ghost.remove(); drag.el.classList.remove("lifted"); }
  }

  function onCancel() { endDrag(); drag = null; }

  function onUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { from, el, moved } = drag;
    // Where it lands is read before the drag's own zone goes away (and the page moves).
    const target = moved ? dropTarget(e.clientX, e.clientY) : null;
    endDrag();
    drag = null;
    // A tap, not a drag, picks the tile up (or puts the tile picked up before it).
    const act = moved ? () => target && moveTile(from, target.to) : () => tapTile(from);
    if (e.pointerType !== "touch") { act(); return; }
    if (moved) quietUntil = Date.now() + 350;
    // A finger: the tile moves once the touch has ended. Redrawing now would take the
    // element from under the finger before its touchend, and the next tap would be lost.
    let done = false;
    const move = () => { if (!done) { done = true; act(); } };
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
    if (meld && myTurn() && step === null) {
      return { el: meld, to: { where: "meld", meld: Number(meld.dataset.meld), index: insertIndex(meld, x) } };
    }
    const fresh = el.closest(".new-meld, #dock");
    if (fresh && myTurn()) return { el: fresh, to: { where: "new" } };
    const r = el.closest(".rack");
    if (r) return { el: r, to: { where: "rack", index: insertIndex(r, x) } };
    return null;
  }

  // ------------------------------------------------------------ the keyboard (and taps)

  // A tile is picked up (Enter, Space or a tap), then put where the next Enter or tap
  // says: on a meld (its end, or before a tile of it), on New meld, or on the rack.
  const keyOf = (p) => (p.where === "rack" ? `rack:${p.index}` : p.where === "new" ? "new" : `meld:${p.meld}:${p.index}`);
  const samePlace = (a, b) => a && b && a.where === b.where && a.meld === b.meld && a.index === b.index;

  function tapTile(from) {
    if (picked && !samePlace(picked, from)) { putPicked(from); return; }
    if (picked) { picked = null; focusKey = keyOf(from); render(); return; }
    if (from.where === "meld" && !myTurn()) return;
    picked = from;
    focusKey = keyOf(from);
    const list = from.where === "rack" ? rack : melds[from.meld];
    say(fill(T.tile_picked, { tile: tileWord(list[from.index].t) }));
    render();
  }

  let lastPlace = null;  // where the last tile moved went (the keyboard's focus follows it)
  let lastTile = null;   // the last tile put on the table (its meld is "the meld you last added to")
  function putPicked(to) {
    const from = picked;
    picked = null;
    lastPlace = null;
    if (!moveTile(from, to)) { render(); return; }
    if (lastPlace) { focusKey = keyOf(lastPlace); render(); }
  }

  function onTileKey(e, from) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tapTile(from); }
    else if (e.key === "Escape" && picked) { e.preventDefault(); picked = null; render(); }
  }

  function onZoneKey(e, to) {
    if ((e.key === "Enter" || e.key === " ") && picked && e.target === e.currentTarget) { e.preventDefault(); putPicked(to); }
    else if (e.key === "Escape" && picked) { e.preventDefault(); picked = null; render(); }
  }

  // The arrow keys and single keys (issue 28): Left and Right go from tile to tile (the
  // rack's, or along the table's melds), Up and Down between the rack and the table's
  // melds; N puts the picked tile (or the one the focus is on) in a new meld, A at the
  // end of the meld last added to (the focus stays on the rack, at the next tile); D is
  // Done, X Draw (or Pass), Z Undo, S the sort. Never while typing in a field. Keys go
  // by their place (KeyD…), so a Korean or Japanese layout or an input method does not
  // change them.
  const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  const placeOf = (key) => {
    if (!key) return null;
    const p = key.split(":");
    if (p[0] === "rack" && p.length === 2) return { where: "rack", index: Number(p[1]) };
    if (p[0] === "meld" && p.length === 3) return { where: "meld", meld: Number(p[1]), index: Number(p[2]) };
    if (p[0] === "meld" && p.length === 2) return { where: "row", meld: Number(p[1]) };
    if (p[0] === "new") return { where: "new" };
    return null;
  };
  let rackAt = 0;  // where the focus was on the rack, to come back to it
  function focusOn(key) {
    const el = document.querySelector(`[data-key="${key}"]`);
    if (el) { el.focus(); return true; }
    return false;
  }
  function arrow(e, at) {
    const shown = step === null;
    const editing = myTurn() && shown;
    if (at.where === "rack") rackAt = at.index;
    const last = (m) => (melds[m] ? melds[m].length - 1 : 0);
    const toRack = () => (rack.length ? focusOn(`rack:${Math.min(rackAt, rack.length - 1)}`) : false);
    const toMeld = (m, end) => (melds[m] ? focusOn(`meld:${m}:${end ? last(m) : 0}`) : editing && focusOn("new"));
    switch (e.key) {
      case "ArrowLeft":
        if (at.where === "rack") return at.index > 0 && focusOn(`rack:${at.index - 1}`);
        if (at.where === "meld") return at.index > 0 ? focusOn(`meld:${at.meld}:${at.index - 1}`) : at.meld > 0 && toMeld(at.meld - 1, true);
        if (at.where === "new") return melds.length > 0 && toMeld(melds.length - 1, true);
        return false;
      case "ArrowRight":
        if (at.where === "rack") return at.index < rack.length - 1 && focusOn(`rack:${at.index + 1}`);
        if (at.where === "meld") return at.index < last(at.meld) ? focusOn(`meld:${at.meld}:${at.index + 1}`) : toMeld(at.meld + 1, false);
        if (at.where === "row") return toMeld(at.meld, false);
        return false;
      case "ArrowUp": {
        if (at.where === "rack") {
          const m = lastMeld();
          return m >= 0 ? toMeld(m, true) : editing && focusOn("new") || toMeld(melds.length - 1, true);
        }
        if (at.where === "new") return toMeld(melds.length - 1, true);
        return at.meld > 0 && toMeld(at.meld - 1, false);
      }
      case "ArrowDown":
        if (at.where === "rack") return false;
        if (at.where === "new") return toRack();
        if (at.meld < melds.length - 1) return toMeld(at.meld + 1, false);
        return editing && focusOn("new") || toRack();
      default:
        return false;
    }
  }

  // The meld last added to: the last tile's (put on the table), else the meld started
  // this turn, else the table's last meld (-1: none).
  function lastMeld() {
    for (const id of [lastTile, started]) {
      const m = id === null ? -1 : melds.findIndex((x) => x.some((y) => y.id === id));
      if (m >= 0) return m;
    }
    return melds.length - 1;
  }

  function quickPut(to, at) {
    // The picked tile, or else the tile the focus is on.
    const from = picked || (at && (at.where === "rack" || at.where === "meld") ? at : null);
    if (!from || !myTurn()) return false;
    picked = null;
    lastPlace = null;
    if (!moveTile(from, to)) { render(); return true; }
    if (from.where === "rack" && rack.length) focusKey = `rack:${Math.min(from.index, rack.length - 1)}`;
    else if (lastPlace) focusKey = keyOf(lastPlace);
    render();
    return true;
  }

  function onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || !view || me === null) return;
    if (view.end !== null) return;
    const at = placeOf(document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null);
    if (e.key.startsWith("Arrow")) {
      if (!at && !e.shiftKey) {  // nothing focused yet: the rack's first tile
        if (rack.length && focusOn(`rack:${Math.min(rackAt, rack.length - 1)}`)) e.preventDefault();
        return;
      }
      if (at && arrow(e, at)) e.preventDefault();
      return;
    }
    const acts = {
      KeyD: () => $("b-done").click(),
      KeyX: () => $("b-draw").click(),
      KeyZ: () => $("b-undo").click(),
      KeyS: () => { setSort(sortMode === "colour" ? "number" : "colour"); render(); },
      KeyN: () => quickPut({ where: "new" }, at),
      KeyA: () => {
        const m = lastMeld();
        return m >= 0 && quickPut({ where: "meld", meld: m }, at);
      },
    };
    const act = acts[e.code];
    if (!act) return;
    e.preventDefault();
    act();
  }

  function onZoneClick(e, to) {
    if (!picked || e.target.closest(".tile") || e.target.closest(".why")) return;
    putPicked(to);
  }

  // ------------------------------------------------------------ drawing the page

  function chip(t, mark) {
    const el = document.createElement("span");
    el.className = `tile small c-${t === "J" ? "joker" : t[0]}${mark ? ` ${mark}` : ""}`;
    el.textContent = t === "J" ? "☺" : t.slice(1);
    el.dataset.tile = t;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", tileWord(t));
    el.title = tileWord(t);
    return el;
  }
  const chips = (tiles) => { const s = document.createElement("span"); s.className = "tiles"; tiles.forEach((t) => s.append(chip(t))); return s; };

  // A sentence with blanks filled by words or by elements (tiles drawn as tiles).
  function sentence(template, values) {
    const out = document.createElement("span");
    let last = 0;
    template.replace(/\{(\w+)\}/g, (m, k, at) => {
      out.append(template.slice(last, at));
      const v = values[k];
      out.append(v instanceof Node ? v : String(v === undefined ? "" : v));
      last = at + m.length;
      return m;
    });
    out.append(template.slice(last));
    return out;
  }

  function tileEl(x, from, draggable) {
    const el = document.createElement("span");
    const colour = x.t === "J" ? "joker" : x.t[0];
    const onBoard = from.where === "meld";
    el.className = `tile c-${colour}${x.own && onBoard ? " own" : ""}${x.fresh ? " fresh" : ""}${x.mark ? ` ${x.mark}` : ""}`;
    el.textContent = x.t === "J" ? "☺" : x.t.slice(1);
    el.dataset.tile = x.t;
    el.dataset.key = keyOf(from);
    const word = tileWord(x.t);
    const label = !onBoard ? T.tile_rack : x.mark === "added" ? T.tile_added : x.mark === "moved" ? T.tile_moved
      : x.own && myTurn() ? T.tile_mine : T.tile_table;
    el.setAttribute("aria-label", fill(label, { tile: word }));
    el.title = word;
    if (draggable) {
      el.classList.add("draggable");
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      el.setAttribute("aria-pressed", samePlace(picked, from) ? "true" : "false");
      if (samePlace(picked, from)) el.classList.add("picked");
      el.addEventListener("pointerdown", (e) => startDrag(e, from));
      el.addEventListener("keydown", (e) => onTileKey(e, from));
      // A finger held on a tile drags it: no long-press menu.
      el.addEventListener("contextmenu", (e) => e.preventDefault());
    } else {
      el.setAttribute("role", "img");
    }
    return el;
  }

  function render() {
    if (!view) return;
    const mine = myTurn();
    const active = document.activeElement;
    if (!focusKey && active && active.dataset && active.dataset.key) focusKey = active.dataset.key;
    $("game").dataset.version = version;
    $("app").classList.toggle("live", view.end === null);
    // status
    $("turn").textContent = view.end !== null ? T.game_over
      : mine ? T.your_turn : fill(T.their_turn, { name: nameOf(view.current) });
    $("turn").classList.toggle("mine", mine);
    $("pool").textContent = fill(T.pool, { n: view.pool_left });
    const players = $("players");
    players.textContent = "";
    // In turn order (under `japan` the seat draw sets an order that is not the seats').
    const order = view.order && view.order.length === view.players.length ? view.order : view.players.map((_, i) => i);
    order.forEach((seat) => {
      const li = document.createElement("li");
      li.dataset.seat = seat;
      li.className = seat === view.current && view.end === null ? "current" : "";
      const computer = table.seats[seat] && table.seats[seat].kind === "computer";
      const strong = document.createElement("strong");
      strong.textContent = nameOf(seat) + (seat === me ? ` (${T.you})` : "");
      if (computer) { const w = document.createElement("span"); w.className = "word"; w.textContent = ` · ${T.computer}`; strong.append(w); }
      const n = document.createElement("span");
      n.className = "count";
      n.textContent = plural("tiles", view.rack_sizes[seat]);
      li.append(strong, " ", n);
      if (view.melded[seat]) { const m = document.createElement("span"); m.className = "melded"; m.textContent = "✓"; m.title = T.melded; const w = document.createElement("span"); w.className = "word"; w.textContent = ` ${T.melded}`; m.append(w); li.append(" ", m); }
      if (bubbles[seat]) { const b = document.createElement("span"); b.className = "bubble"; b.textContent = bubbles[seat]; li.append(" ", b); }
      players.append(li);
    });
    renderHappened();
    renderBoard(mine);
    renderBuild(mine);
    // rack
    const rackEl = $("rack");
    rackEl.textContent = "";
    const canArrange = me !== null && view.end === null;
    rack.forEach((x, i) => rackEl.append(tileEl(x, { where: "rack", index: i }, canArrange)));
    rackEl.onkeydown = (e) => onZoneKey(e, { where: "rack" });
    rackEl.onclick = (e) => onZoneClick(e, { where: "rack" });
    rackEl.tabIndex = picked ? 0 : -1;
    $("mine").hidden = me === null;
    $("buttons").hidden = view.end !== null;
    $("b-mute").hidden = view.end !== null;
    $("watching").hidden = me !== null;
    $("watching").textContent = T.watching;
    $("keys-hint").hidden = me === null || view.end !== null;
    $("b-done").disabled = !mine;
    $("b-draw").disabled = !mine;
    $("b-draw").textContent = view.pool_left > 0 ? T.draw : T.pass;
    $("b-undo").disabled = !mine || undo.length === 0;
    $("b-reset").disabled = !mine || undo.length === 0;
    $("b-colour").setAttribute("aria-pressed", String(sortMode === "colour"));
    $("b-number").setAttribute("aria-pressed", String(sortMode === "number"));
    $("dock").textContent = T.new_meld_button;
    renderRedeal();
    renderResult();
    renderChat();
    tick();
    if (focusKey) {
      const el = document.querySelector(`[data-key="${focusKey}"]`);
      if (el) el.focus({ preventScroll: false });
      focusKey = null;
    }
    for (const hook of renderHooks) hook();
  }

  function renderBoard(mine) {
    const board = $("board");
    board.textContent = "";
    const stepping = step !== null && moves[step];
    board.classList.toggle("stepping", Boolean(stepping));
    let shown;
    if (stepping) shown = moves[step].board.map((m, i) => m.map((t, j) => ({ ...tile(t, false), mark: moves[step].marks[i][j] })));
    else if (!mine && watched) shown = watched.map((m) => meldTiles(m).map((t) => tile(t, false)));
    else shown = melds;
    const editing = mine && !stepping;
    shown.forEach((m, i) => {
      const row = document.createElement("div");
      row.className = "meld";
      row.dataset.meld = i;
      if (editing && started !== null && m.some((x) => x.id === started)) row.classList.add("started");
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", `${fill(T.meld_label, { i: i + 1 })}: ${inWords(m.map((x) => x.t))}`);
      m.forEach((x, j) => row.append(tileEl(x, { where: "meld", meld: i, index: j }, editing)));
      row.dataset.label = row.getAttribute("aria-label");
      if (editing) {
        row.tabIndex = 0;
        row.dataset.key = `meld:${i}`;
        row.addEventListener("keydown", (e) => onZoneKey(e, { where: "meld", meld: i }));
        row.addEventListener("click", (e) => onZoneClick(e, { where: "meld", meld: i }));
      }
      board.append(row);
    });
    if (editing) {
      const fresh = document.createElement("button");
      fresh.type = "button";
      fresh.className = "new-meld";
      fresh.dataset.key = "new";
      fresh.textContent = picked ? T.new_meld_button : T.new_meld;
      fresh.setAttribute("aria-label", T.new_meld_button);
      fresh.addEventListener("click", () => { if (picked) putPicked({ where: "new" }); });
      board.append(fresh);
    }
    applyCheck();
  }

  // The server's check of the draft on the melds drawn (in place: a check arriving
  // while a tile is dragged does not redraw the table under it).
  function applyCheck() {
    const editing = myTurn() && step === null;
    const reasons = editing && check && check.board === JSON.stringify(boardOut()) ? check.reasons || [] : [];
    document.querySelectorAll("#board .meld").forEach((row) => {
      const why = reasons[Number(row.dataset.meld)];
      const old = row.querySelector(":scope > .why");
      if ((old ? old.title : null) === (why || null)) return;
      if (old) old.remove();
      row.classList.toggle("invalid", Boolean(why));
      row.title = why || "";
      row.setAttribute("aria-label", why ? `${row.dataset.label} · ${T.invalid_meld}: ${why}` : row.dataset.label);
      if (!why) return;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "why";
      b.textContent = "!";
      b.title = why;
      b.setAttribute("aria-label", `${T.invalid_meld}: ${why}`);
      b.addEventListener("click", (e) => { e.stopPropagation(); notice(`${T.invalid_meld}: ${why}`, "info"); });
      row.append(b);
    });
    renderBuild(myTurn());
  }

  // The draft's value toward the initial meld, before it is made.
  // The points the player's next failed turn costs, from the rule set's penalty policy
  // as the page serves it (core/penalties.py): the schedule after the failures so far.
  function nextPenalty() {
    const sched = boot.penalty.schedule;
    const total = Math.abs((view.penalties && view.penalties[me]) || 0);
    let k = 0; let sum = 0;
    while (sum < total && k < sched.length) sum += sched[k++];
    return sched[Math.min(k, sched.length - 1)] || 0;
  }

  function renderBuild(mine) {
    const el = $("build");
    const fresh = check && check.board === JSON.stringify(boardOut());
    // Under rules that penalise an illegal table at the end of a turn (japan), say what
    // Done would cost before the tap.
    if (mine && step === null && fresh && boot.penalty.illegal_end === "penalise"
        && (check.reasons || []).some(Boolean)) {
      el.hidden = false;
      el.style.visibility = "";
      el.classList.add("bad"); el.classList.remove("good");
      el.dataset.kind = "illegal";
      el.textContent = fill(T.illegal_costs, { points: -nextPenalty() });
      return;
    }
    delete el.dataset.kind;
    // Until the initial meld is made the line keeps its place on the player's turn, shown
    // or not: the rack below it must not jump when a check arrives while a tile is about
    // to be picked up.
    const reserve = mine && step === null && !view.melded[me];
    if (!mine || step !== null || view.melded[me] || !fresh || !melds.some((m) => m.some((x) => x.own))) {
      el.hidden = !reserve;
      el.style.visibility = reserve ? "hidden" : "";
      if (reserve) { el.classList.remove("good", "bad"); el.textContent = "\u00a0"; }
      return;
    }
    el.hidden = false;
    el.style.visibility = "";
    const need = boot.initial_meld;
    el.classList.toggle("bad", Boolean(check.touches_board));
    el.classList.toggle("good", !check.touches_board && check.value >= need);
    el.textContent = check.touches_board ? T.initial_touches
      : check.value >= need ? fill(T.initial_enough, { value: check.value })
        : fill(T.initial_value, { value: check.value, need });
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
    view.players.forEach((_, seat) => {
      const r = t.insertRow();
      r.insertCell().textContent = nameOf(seat);
      r.insertCell().textContent = view.scores[seat];
      r.insertCell().textContent = view.penalties[seat] || "";
      r.insertCell().append(chips(view.final_racks ? view.final_racks[seat] : []));
      // Why the rack counts what it counts, on a line of its own under the player's.
      const why = whyOf(seat);
      if (!why.length) return;
      const w = t.insertRow();
      w.className = "why-row";
      w.dataset.seat = seat;
      const cell = w.insertCell();
      cell.colSpan = 4;
      cell.className = "why-cell";
      cell.textContent = `${T.why}: ${why.join(" · ")}`;
    });
    const rule = document.createElement("p");
    rule.className = "why-rule muted small";
    rule.textContent = fill(T.why_rule, boot.counts);
    const links = document.createElement("nav");
    links.className = "after-links";
    const nextInMatch = match && !match.over && match.no < match.games;
    if (boot.can_rematch && me !== null) {
      const form = document.createElement("form");
      form.method = "post";
      form.action = `/play/t/${boot.id}/rematch`;
      const b = document.createElement("button");
      b.className = "primary";
      b.id = "b-rematch";
      b.textContent = nextInMatch ? fill(T.match_next, { i: match.no + 1, n: match.games })
        : match ? T.match_new : table.rematch ? T.rematch_join : T.rematch;
      form.append(b);
      links.append(form);
    } else if (table.rematch) {
      const a = document.createElement("a");
      a.className = "button primary";
      a.href = `/play/t/${table.rematch}`;
      a.textContent = T.rematch_join;
      links.append(a);
    }
    for (const [key, path, cls] of [["score_page", "score", "button primary"], ["replay_page", "replay", "button"], ["analysis_page", "analysis", "button"]]) {
      const a = document.createElement("a");
      a.className = cls;
      a.id = `to-${path}`;
      a.href = `/play/t/${boot.id}/${path}`;
      a.textContent = T[key];
      links.append(a);
    }
    box.append(h, t, rule);
    if (match) box.append(matchTable());
    box.append(links);
  }

  // Why each player's rack counts what it counts (issue 28): its jokers, a missing
  // initial meld (100, or 200 when it could have been made), the penalty points.
  function whyOf(seat) {
    const out = [];
    const rack = view.final_racks ? view.final_racks[seat] : [];
    const c = boot.counts;
    if (!view.melded[seat] && rack.length) {
      const paid = -view.scores[seat];
      out.push(paid === c.could_meld && c.could_meld !== c.no_meld ? fill(T.why_could_meld, { p: c.could_meld })
        : fill(T.why_no_meld, { p: paid === c.no_meld ? c.no_meld : `${c.no_meld}/${c.could_meld}` }));
    } else {
      const jokers = rack.filter((t) => t === "J").length;
      if (jokers === 1) out.push(fill(T.why_joker, { p: c.joker }));
      else if (jokers > 1) out.push(fill(T.why_jokers, { k: jokers, p: c.joker }));
    }
    if (view.penalties[seat]) out.push(fill(T.why_penalty, { p: view.penalties[seat] }));
    return out;
  }

  // ------------------------------------------------------------ the match

  // A table of several games (1, 2 or 4): the running total after each game and the
  // standing by the rule set's match ranking, worked out by the server from the log
  // (boot.match, asked again when a game ends). null: a single game's table.
  let match = boot.match;
  let matchAsked = null;
  function askMatch() {
    const want = view && view.end !== null ? match && match.no : match && match.played;
    if (!match || matchAsked === version || match.played >= want) return;
    matchAsked = version;
    const ask = (tries) => fetch(`/play/t/${boot.id}/match`).then((r) => r.json()).then((d) => {
      if (!d.match) return;
      if (d.match.played < want && tries > 0) { setTimeout(() => ask(tries - 1), 700); return; }
      match = d.match;
      render();
    }, () => {});
    ask(5);
  }

  function renderMatchNo() {
    const el = $("match-no");
    el.hidden = !match;
    if (match) el.textContent = fill(T.match_game_no, { i: match.no, n: match.games });
  }
  renderHooks.push(renderMatchNo);

  function matchTable() {
    const sec = document.createElement("section");
    sec.className = "match";
    sec.id = "match";
    const h = document.createElement("h3");
    h.textContent = match.over ? T.match_final : fill(T.match_after, { i: match.played, n: match.games });
    sec.append(h);
    if (match.over) {
      const top = match.lines.filter((l) => l.rank === 1);
      const p = document.createElement("p");
      p.className = "match-winner";
      p.textContent = top.map((l) => fill(T.match_winner, { name: nameOf(l.seat) })).join(" · ");
      sec.append(p);
    }
    const t = document.createElement("table");
    t.className = "scores match-scores";
    const head = t.insertRow();
    const cols = [T.match_place, "", ...Array.from({ length: match.games }, (_, k) => fill(T.match_game, { i: k + 1 })), T.match_wins, T.match_total];
    for (const c of cols) { const th = document.createElement("th"); th.textContent = c; head.append(th); }
    for (const line of [...match.lines].sort((a, b) => a.rank - b.rank || a.seat - b.seat)) {
      const r = t.insertRow();
      r.dataset.seat = line.seat;
      if (match.over && line.rank === 1) r.className = "winner";
      r.insertCell().textContent = match.played ? line.rank : "";
      r.insertCell().textContent = nameOf(line.seat);
      for (let k = 0; k < match.games; k++) {
        const cell = r.insertCell();
        cell.className = "num";
        cell.textContent = k < line.games.length ? line.games[k] : "";
      }
      const w = r.insertCell(); w.className = "num"; w.textContent = line.wins;
      const tot = r.insertCell(); tot.className = "num total"; tot.textContent = line.points;
    }
    const rule = document.createElement("p");
    rule.className = "muted small";
    rule.textContent = match.ranking === "points" ? T.match_rule_points
      : match.ranking === "league" ? fill(T.match_rule_league, { n: 100 }) : T.match_rule_wins;
    sec.append(t, rule);
    return sec;
  }

  // ------------------------------------------------------------ "Rummikub!"

  // The end of a game, as it happens: the winner announced over the table for a few
  // seconds (a tap takes it away); "Rummikub!" when a player went out.
  let shouted = false;
  function shout() {
    if (shouted || view.end === null) return;
    shouted = true;
    const box = $("rummikub");
    box.querySelector("strong").textContent = view.end === "out" ? T.rummikub : T.game_over;
    box.querySelector("span").textContent = view.winner !== null ? fill(T.winner, { name: nameOf(view.winner) }) : "";
    box.hidden = false;
    box.classList.toggle("mine", view.winner === me);
    const away = () => { box.hidden = true; };
    box.addEventListener("click", away, { once: true });
    setTimeout(away, 5000);
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
  let lastWhole = null;
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
    const whole = Math.ceil(left);
    el.textContent = `${T.time_left} ${fill(T.seconds, { n: whole })}`;
    el.classList.toggle("warning", warn);
    el.classList.toggle("mine", myTurn());
    const fillEl = bar.firstElementChild;
    fillEl.style.width = `${Math.min(100, (100 * left) / total)}%`;
    bar.classList.toggle("warning", warn);
    if (myTurn() && whole !== lastWhole && whole > 0 && (whole === 10 || whole <= 5) && whole < total) signalWarning();
    lastWhole = whole;
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
        li.textContent = `${i + 1}. ${seatName(i)} · ${T.computer}`;
      } else if (s.taken) {
        li.textContent = `${i + 1}. ${s.name}${i === me ? ` (${T.you})` : ""}`;
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

  // ------------------------------------------------------------ signals

  // "Your turn": a sound, a vibration, the tab's title; a warning sound in the last
  // seconds. Each can be switched off; the choices are kept in this browser.
  const signals = { sound: true, warning: true, vibrate: true, title: true, ...store.get("meldtour.signals", {}) };
  const baseTitle = document.title;
  let audio = null;
  const unlockAudio = () => {
    if (audio || !window.AudioContext) return;
    try { audio = new AudioContext(); } catch (e) { audio = null; }
  };
  window.addEventListener("pointerdown", unlockAudio, { once: true, capture: true });
  window.addEventListener("keydown", unlockAudio, { once: true, capture: true });

  function beep(freqs, length) {
    if (!audio) return;
    try {
      let at = audio.currentTime;
      for (const f of freqs) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.15, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + length);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + length);
        at += length * 0.9;
      }
    } catch (e) { /* no sound */ }
  }

  function signalTitle() { if (signals.title) document.title = `● ${T.title_your_turn} · ${baseTitle}`; }
  function signalTurn() {
    signalTitle();
    if (signals.sound) beep([660, 880], 0.18);
    if (signals.vibrate && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  }
  function signalWarning() { if (signals.sound && signals.warning) beep([440], 0.12); }
  function renderTitle() { if (!myTurn() || !signals.title) document.title = baseTitle; else signalTitle(); }
  renderHooks.push(renderTitle);

  function showSignals() {
    document.querySelectorAll("[data-signal]").forEach((box) => { box.checked = Boolean(signals[box.dataset.signal]); });
    const mute = $("b-mute");
    mute.textContent = `♪ ${T.sound}`;
    mute.classList.toggle("off", !signals.sound);
    mute.setAttribute("aria-pressed", String(Boolean(signals.sound)));
  }
  function setSignal(name, on) {
    signals[name] = on;
    store.set("meldtour.signals", signals);
    showSignals();
    renderTitle();
  }
  document.querySelectorAll("[data-signal]").forEach((box) => box.addEventListener("change", () => setSignal(box.dataset.signal, box.checked)));
  $("b-mute").addEventListener("click", () => setSignal("sound", !signals.sound));
  showSignals();

  // ------------------------------------------------------------ chat (fixed phrases)

  const bubbles = {};
  let chatShown = false;
  function renderChat() {
    const box = $("chat");
    box.hidden = me === null;
    if (chatShown || me === null) return;
    chatShown = true;
    const list = $("phrases");
    for (const [key, words] of boot.phrases) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.phrase = key;
      b.textContent = words;
      b.addEventListener("click", () => send({ type: "chat", id: rid(), phrase: key }));
      list.append(b);
    }
  }

  function heard(m, live) {
    const found = boot.phrases.find(([key]) => key === m.phrase);
    const words = found && found[1];
    if (!words) return;
    const li = document.createElement("li");
    li.dataset.kind = "chat";
    li.className = "chat-line";
    li.textContent = fill(T.said, { name: nameOf(m.seat), phrase: words });
    addLine(li);
    if (live) {
      bubbles[m.seat] = words;
      setTimeout(() => { if (bubbles[m.seat] === words) { delete bubbles[m.seat]; render(); } }, 5000);
      render();
    }
  }

  // ------------------------------------------------------------ messages

  let noticeTimer = null;
  function notice(text, kind, stay) {
    const el = $("notice");
    el.hidden = false;
    el.textContent = text;
    el.className = `notice ${kind || ""}`;
    el.dataset.kind = kind || "";
    clearTimeout(noticeTimer);
    if (kind !== "reconnect" && !stay) noticeTimer = setTimeout(() => { el.hidden = true; }, 8000);
  }
  function hideNotice(kind) { const el = $("notice"); if (el.dataset.kind === kind) el.hidden = true; }
  function say(text) { $("say").textContent = text; }

  // An event in words, its tiles drawn; null for an event the log does not show.
  function eventLine(e, moved) {
    const name = e.seat !== null && e.seat !== undefined ? nameOf(e.seat) : "";
    switch (e.kind) {
      case "play": {
        const s = sentence(T.ev_put, { name, tiles: chips(e.data.placed) });
        if (moved) s.append(` (${plural("moved", moved)})`);
        return s;
      }
      case "initial_meld": return sentence(T.ev_initial, { name });
      case "draw":
        if (e.private && e.data.why === "penalty") return sentence(plural("drew_penalty", e.private.tiles.length, { name, tiles: "{tiles}" }), { tiles: chips(e.private.tiles) });
        if (e.private) return sentence(T.ev_draw_me, { tiles: chips(e.private.tiles) });
        if (e.data.why === "penalty") return sentence(plural("penalty", e.data.count, { name }), {});
        return sentence(T.ev_draw, { name });
      case "timeout": return sentence(T.ev_timeout, { name });
      case "failed_turn": return sentence(e.data.consequence === "keep_completed" ? T.ev_failed_keep : T.ev_failed_revert, { name });
      case "penalty": return sentence(boot.penalty.sentence, { name, n: e.data.points, k: e.data.n || "" });
      case "pass": return sentence(T.ev_pass, { name });
      case "pool_empty": return sentence(T.ev_pool_empty, {});
      case "redeal": return sentence(T.ev_redeal, { name });
      case "illegal_end": {
        const s = sentence(T.ev_illegal_end, { name });
        if (e.private && e.private.reason) s.append(`: ${e.private.reason}`);
        return s;
      }
      case "game_end": return sentence(T.game_over, {});
      default: return null;
    }
  }

  // The log reads top to bottom, the newest line last, numbered from the game's start.
  function addLine(li) {
    const list = $("events");
    const follow = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.append(li);
    while (list.children.length > 60) { list.firstChild.remove(); list.start = (list.start || 1) + 1; }
    if (follow) list.scrollTop = list.scrollHeight;
  }

  // The log's lines are kept for this tab (with the version of their move), so that a
  // reload shows the game's history, not only the last moves the server resends.
  const logKey = `meldtour.log.${boot.id}`;
  let logVersion = null;
  let logSaved = [];
  function restoreLog(upto) {
    logSaved = (session.get(logKey) || []).filter((x) => x && x.v < upto).slice(-60);
    for (const x of logSaved) {
      const li = document.createElement("li");
      li.dataset.kind = x.kind;
      li.innerHTML = x.html;  // this page's own lines, as it wrote them
      addLine(li);
    }
    session.set(logKey, logSaved);
  }

  function logEvent(e, moved, quiet) {
    const line = eventLine(e, moved);
    if (!line) return;
    const li = document.createElement("li");
    li.dataset.kind = e.kind;
    li.append(...line.childNodes);
    addLine(li);
    if (logVersion !== null) {
      logSaved.push({ v: logVersion, kind: e.kind, html: li.innerHTML });
      while (logSaved.length > 60) logSaved.shift();
      session.set(logKey, logSaved);
    }
    if (!quiet && (e.kind === "timeout" || e.kind === "failed_turn")) notice(li.textContent, "bad");
  }

  // ------------------------------------------------------------ buttons

  // A finger's tap acts on its release: a phone's browser may take a tap soon after a
  // drop for half of a double tap and click nothing (seen in Chromium), and Done must not
  // be lost with the clock running. The click that may follow is then ignored.
  let tappedAt = 0;
  const button = (id, act) => {
    const el = $(id);
    let down = null;
    el.addEventListener("pointerdown", (e) => { down = e.pointerType === "touch" ? e.pointerId : null; });
    el.addEventListener("pointercancel", () => { down = null; });
    el.addEventListener("pointerup", (e) => {
      if (e.pointerType !== "touch" || down !== e.pointerId || el.disabled) return;
      down = null;
      const r = el.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return;
      if (Date.now() < quietUntil) return;  // the end of a drag, not a tap
      tappedAt = Date.now();
      act(e);
    });
    el.addEventListener("click", (e) => {
      if (Date.now() - tappedAt < 800 && e.detail > 0) return;  // the tap's own click
      if (Date.now() < quietUntil && e.detail > 0) return;  // the end of a drag, not a click
      act(e);
    });
  };
  button("b-done", () => {
    if (!myTurn()) return;
    clearTimeout(draftTimer);
    send({ type: "move", id: rid(), version, action: "play", board: boardOut(), ack: "frame" });
  });
  button("b-draw", () => {
    if (!myTurn()) return;
    clearTimeout(draftTimer);
    send({ type: "move", id: rid(), version, action: view.pool_left > 0 ? "draw" : "pass", ack: "frame" });
  });
  button("b-undo", () => {
    const last = undo.pop();
    if (!last || !myTurn()) return;
    melds = last.melds; rack = last.rack;
    changed();
  });
  button("b-reset", () => {
    if (!myTurn() || undo.length === 0) return;
    const first = undo[0];
    undo = [];
    melds = first.melds; rack = first.rack;
    changed();
  });
  button("b-redeal", () => {
    if (!canRedeal()) return;
    if (!redealArmed) {  // a second tap confirms: a new deal cannot be taken back
      redealArmed = setTimeout(() => { redealArmed = null; renderRedeal(); }, 5000);
      renderRedeal();
      return;
    }
    clearTimeout(redealArmed);
    redealArmed = null;
    send({ type: "move", id: rid(), version, action: "redeal", ack: "frame" });
    renderRedeal();
  });
  button("b-colour", () => { setSort("colour"); render(); });
  button("b-number", () => { setSort("number"); render(); });
  button("b-back", () => showStep((step === null ? moves.length - 1 : step) - 1));
  button("b-fwd", () => showStep(step === null ? null : step + 1));
  button("b-now", () => showStep(null));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && picked) { picked = null; render(); } });
  document.addEventListener("keydown", onKey);

  // What another part of the page may use (a hint button, say): the view, the draft,
  // a place for a button, and a call after each redraw.
  window.meldtable = {
    view: () => view,
    draft: () => boardOut(),
    rack: () => rack.map((x) => x.t),
    myTurn,
    addButton(el) { $("buttons").insertBefore(el, $("buttons").querySelector(".spacer")); },
    onRender(fn) { renderHooks.push(fn); },
  };

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
