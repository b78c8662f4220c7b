// The table clock: a phone keeps the turn time of a game with real tiles.
// The record of a game is its turn order and its taps [kind, ms from the game's start];
// everything shown is derived from it by replay(), the same machine as the server's
// (meldtour/tournament/clock.py). The record lives in localStorage and is sent to the
// server whenever a connection allows, as often as needed (the server keeps the longest).
"use strict";
(function () {
  const root = document.getElementById("clock");
  if (!root) return;
  const C = JSON.parse(document.getElementById("clock-config").textContent);
  const W = JSON.parse(document.getElementById("clock-words").textContent);
  const $ = (id) => document.getElementById(id);
  const say = (text, args) => text.replace(/%\((\w+)\)s/g, (_m, k) => String(args[k]));
  const KEY = "meldtour-clock:" + C.token;
  const TICK = 200;

  // ------------------------------------------------------------ the clock machine
  const ALLOWED = {start: ["ready"], next: ["running", "expired"], forgot: ["running", "expired"],
    pause: ["running"], resume: ["paused"], end: ["running", "expired", "paused"]};
  // What the taps that count end with: an undo is possible after any tap but the start.
  function undoable(taps) {
    const kept = [];
    for (const t of taps) { if (t[0] === "undo") kept.pop(); else kept.push(t); }
    return kept.length > 0 && kept[kept.length - 1][0] !== "start";
  }

  function replay(order, taps, now) {
    let phase = "ready", index = 0, since = 0, left = 0, started = null, ended = null, last = 0;
    const turns = [], timeouts = [];
    const expire = (at) => {
      if (phase === "running" && at >= since + left) {
        const t = turns[turns.length - 1];
        t.ended = since + left; t.timedOut = true;
        timeouts.push(t.seat);
        phase = "expired"; left = 0;
      }
    };
    const begin = (at, allowed, restarted) => {
      turns.push({seat: order[index], started: at, allowed, ended: null, timedOut: false,
                  restarted: !!restarted});
      phase = "running"; since = at; left = allowed;
    };
    // An undo takes back the tap before it (not the start): the taps that count.
    const effective = [];
    for (const [kind, at] of taps) {
      if (at < last) throw new Error("taps out of order");
      last = at;
      if (kind !== "undo") effective.push([kind, at]);
      else if (!effective.length || effective[effective.length - 1][0] === "start") throw new Error("nothing to undo");
      else effective.pop();
    }
    for (const [kind, at] of effective) {
      expire(at);
      if (!ALLOWED[kind] || !ALLOWED[kind].includes(phase)) throw new Error(kind + " while " + phase);
      if (kind === "start") { started = at; begin(at, C.turn_ms); }
      else if (kind === "next" || kind === "forgot") {
        if (phase === "running") turns[turns.length - 1].ended = at;
        index = (index + 1) % order.length;
        if (kind === "next") begin(at, C.turn_ms); else begin(at, C.restart_ms, true);
      } else if (kind === "pause") { left -= at - since; phase = "paused"; }
      else if (kind === "resume") { since = at; phase = "running"; }
      else {
        if (phase === "running" || phase === "paused") turns[turns.length - 1].ended = at;
        phase = "over"; ended = at; left = 0;
      }
    }
    if (now !== undefined && now >= last) {
      expire(now);
      if (phase === "running") left = since + left - now;
    }
    return {phase, turns, timeouts, left, started, ended, index};
  }

  // ------------------------------------------------------------ the record on the phone
  function fresh() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function load() {
    let data = null;
    try { data = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (_e) { data = null; }
    if (!data || typeof data !== "object") data = {};
    data.device = data.device || fresh();
    data.games = data.games || {};
    data.sent = data.sent || {};
    data.pending = data.pending || {};
    data.confirmed = data.confirmed || {};
    // A record the server holds that this phone does not (another phone kept it, or
    // this one was cleared) is shown as the server has it.
    for (const [g, rec] of Object.entries(C.stored || {})) {
      const mine = data.games[g];
      const prefix = mine && JSON.stringify(mine.order) === JSON.stringify(rec.order)
        && JSON.stringify(rec.taps.slice(0, mine.taps.length)) === JSON.stringify(mine.taps);
      if (!mine || !mine.taps.length || (prefix && rec.taps.length > mine.taps.length)) {
        data.games[g] = {order: rec.order, taps: rec.taps,
                         origin: prefix && mine.taps.length ? mine.origin : Date.now() - rec.now};
      }
      if (prefix || !mine || !mine.taps.length) {
        data.sent[g] = Math.max(data.sent[g] || 0, Math.min(rec.taps.length, data.games[g].taps.length));
      }
      if (rec.confirmed) data.confirmed[g] = rec.confirmed;
    }
    data.current = data.current || firstOpenGame(data);
    return data;
  }
  function firstOpenGame(data) {
    for (let g = 1; g <= C.games; g++) {
      const rec = data.games[g];
      if (!rec || !rec.taps.length || rec.taps[rec.taps.length - 1][0] !== "end") return g;
    }
    return C.games;
  }
  let D = load();
  const save = () => { try { localStorage.setItem(KEY, JSON.stringify(D)); } catch (_e) { /* full */ } };
  save();

  const game = () => {
    const g = D.current;
    if (!D.games[g]) D.games[g] = {order: [], taps: [], origin: null};
    return D.games[g];
  };
  const nowOf = (rec) => (rec.origin === null ? 0 : Math.max(0, Date.now() - rec.origin));
  // A record brought from the server has no origin on this phone: its clock time goes
  // on from its last tap.
  // The phone's own clock set back (or a record from elsewhere) never takes the game's
  // time backwards: the clock stands still at its last tap instead.
  function clockNow(rec) {
    const last = rec.taps.length ? rec.taps[rec.taps.length - 1][1] : 0;
    if ((rec.origin === null && rec.taps.length) || (rec.origin !== null && Date.now() - rec.origin < last)) {
      rec.origin = Date.now() - last;
      save();
    }
    return nowOf(rec);
  }
  function tap(kind) {
    const rec = game();
    if (kind === "start") rec.origin = Date.now();
    const at = kind === "start" ? 0 : clockNow(rec);
    const before = replay(rec.order, rec.taps, at);
    if (kind === "undo" ? !undoable(rec.taps) : !ALLOWED[kind].includes(before.phase)) return;
    rec.taps.push([kind, at]);
    save();
    render();
    sync();
  }

  // ------------------------------------------------------------ sound and vibration
  let audio = null;
  function beep(times, freq) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      for (let i = 0; i < times; i++) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = freq;
        o.connect(g); g.connect(audio.destination);
        const t0 = audio.currentTime + i * 0.18;
        g.gain.setValueAtTime(0.25, t0);
        g.gain.setValueAtTime(0, t0 + 0.12);
        o.start(t0); o.stop(t0 + 0.13);
      }
    } catch (_e) { /* no sound on this device */ }
    if (navigator.vibrate) { try { navigator.vibrate(times > 1 ? [200, 80, 200, 80, 200] : 120); } catch (_e) { /* none */ } }
  }

  // ------------------------------------------------------------ the page
  const name = (seat) => C.names[seat - 1];
  const mmss = (ms) => {
    const s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  let lastPhase = null, lastWarn = false, lastTurns = 0;

  function renderGames() {
    const nav = $("games");
    nav.textContent = "";
    if (C.games < 2) return;
    for (let g = 1; g <= C.games; g++) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = say(W.game, {n: g});
      b.setAttribute("aria-pressed", String(g === D.current));
      b.addEventListener("click", () => { D.current = g; save(); lastPhase = null; render(); });
      nav.append(b);
    }
  }

  function renderSetup(rec) {
    $("order-hint").textContent = C.seat_draw === "highest_starts" ? W.order_first : W.order_all;
    const players = $("players");
    players.textContent = "";
    C.names.forEach((n, i) => {
      const seat = i + 1;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "player";
      const place = rec.order.indexOf(seat);
      b.textContent = (place >= 0 ? (place + 1) + ". " : "") + n;
      b.disabled = place >= 0;
      b.addEventListener("click", () => {
        if (C.seat_draw === "highest_starts" && !rec.order.length) {
          rec.order = C.names.map((_n, k) => ((seat - 1 + k) % C.seats) + 1);
        } else if (!rec.order.includes(seat)) {
          rec.order.push(seat);
        }
        save(); render();
      });
      players.append(b);
    });
    const ol = $("order");
    ol.textContent = "";
    for (const s of rec.order) {
      const li = document.createElement("li");
      li.textContent = name(s);
      ol.append(li);
    }
    $("start").disabled = rec.order.length !== C.seats;
  }

  function render() {
    const rec = game();
    renderGames();
    const ready = !rec.taps.length;
    let st;
    try { st = replay(rec.order, rec.taps, clockNow(rec)); }
    catch (_e) { $("net").textContent = "?"; return; }  // never thrown away: the server judges it
    $("setup").hidden = !ready;
    $("run").hidden = ready || st.phase === "over";
    $("over").hidden = st.phase !== "over";
    if (ready) { renderSetup(rec); lastPhase = "ready"; renderNet(); return; }
    if (st.phase === "over") { renderOver(rec, st); lastPhase = "over"; renderNet(); return; }
    const turn = st.turns[st.turns.length - 1];
    const nextSeat = rec.order[(st.index + 1) % rec.order.length];
    const dial = $("dial");
    const warn = st.phase === "running" && st.left <= C.warning_ms;
    dial.className = "dial " + st.phase + (warn ? " warn" : "");
    $("who").textContent = say(W.turn_of, {name: name(turn.seat)});
    $("left").textContent = st.phase === "expired" ? "0" : String(Math.ceil(st.left / 1000));
    $("fill").style.width = (100 * Math.max(0, st.left) / turn.allowed).toFixed(1) + "%";
    let status = st.phase === "paused" ? W.paused : st.phase === "expired"
      ? say(W.timeout, {name: name(turn.seat)}) : warn ? W.warning : turn.restarted ? W.restarted : "";
    $("status").textContent = status;
    $("next").textContent = say(st.phase === "expired" ? W.start_next : W.next, {name: name(nextSeat)});
    $("next").disabled = st.phase === "paused";
    $("forgot").textContent = say(W.forgot, {name: name(nextSeat), n: C.restart_ms / 1000});
    $("forgot").disabled = st.phase === "paused";
    $("pause").textContent = st.phase === "paused" ? W.resume : W.pause;
    $("pause").disabled = st.phase === "expired";
    $("undo").disabled = !undoable(rec.taps);
    const lineup = $("lineup");
    lineup.textContent = "";
    rec.order.forEach((s, i) => {
      const li = document.createElement("li");
      li.className = s === turn.seat ? "now" : "";
      const n = st.timeouts.filter((x) => x === s).length;
      li.textContent = (i + 1) + ". " + name(s) + (n ? " · " + (n === 1 ? W.timeout_one : say(W.timeouts_badge, {n})) : "");
      lineup.append(li);
    });
    $("elapsed").textContent = say(W.elapsed, {t: mmss(clockNow(rec) - (st.started || 0))});
    // The sounds: once at the warning, three times at the end (the first beep ends the turn).
    if (lastPhase === "running" && st.phase === "expired" && st.turns.length === lastTurns) beep(3, 880);
    else if (warn && !lastWarn && st.turns.length === lastTurns) beep(1, 660);
    lastPhase = st.phase; lastWarn = warn; lastTurns = st.turns.length;
    renderNet();
  }

  // The points of a seat's first k time-outs, from the rule set's penalty policy as the
  // page serves it (the n-th time-out's points; core/penalties.py).
  const pointsOf = (k) => (C.penalty_schedule || []).slice(0, Math.max(0, k)).reduce((a, b) => a + b, 0);

  function renderOver(rec, st) {
    const g = D.current;
    $("over-title").textContent = say(W.over, {n: g});
    const body = $("summary").querySelector("tbody");
    body.textContent = "";
    rec.order.forEach((s) => {
      const tr = document.createElement("tr");
      for (const v of [name(s), st.turns.filter((t) => t.seat === s).length,
                       st.timeouts.filter((x) => x === s).length]) {
        const td = document.createElement("td");
        td.textContent = String(v);
        tr.append(td);
      }
      body.append(tr);
    });
    const offers = $("offers");
    const penal = C.penalty_points > 0;
    $("no-offer").hidden = penal || !st.timeouts.length;
    $("offer").hidden = !penal || !st.timeouts.length;
    const done = D.confirmed[g];
    if (penal && offers.dataset.game !== String(g) + ":" + st.timeouts.length + ":" + !!done) {
      offers.dataset.game = String(g) + ":" + st.timeouts.length + ":" + !!done;
      offers.textContent = "";
      const nth = {};  // the seat's how-many-th time-out: its points come from the schedule
      st.turns.forEach((t, i) => {
        if (!t.timedOut) return;
        nth[t.seat] = (nth[t.seat] || 0) + 1;
        const li = document.createElement("li");
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.checked = true;
        box.dataset.seat = String(t.seat);
        box.disabled = !!done;
        label.append(box, " " + say(W.offer_line, {name: name(t.seat), turn: i + 1,
                                                   points: pointsOf(nth[t.seat]) - pointsOf(nth[t.seat] - 1)}));
        li.append(label);
        offers.append(li);
      });
    }
    $("confirm").disabled = !!done || !!D.pending[g];
    if (!st.timeouts.length) $("confirm-result").textContent = W.no_timeouts;
    else if (done) $("confirm-result").textContent = W.confirmed;
    else if (D.pending[g]) $("confirm-result").textContent = sending ? W.sending : W.confirm_offline;
    $("next-game").hidden = g >= C.games;
    $("over-undo").hidden = !!done || !!D.pending[g];
  }

  function renderNet() {
    const unsent = Object.entries(D.games).reduce(
      (n, [g, rec]) => n + Math.max(0, rec.taps.length - (D.sent[g] || 0)), 0);
    const net = $("net");
    const taps = Object.values(D.games).reduce((n, rec) => n + rec.taps.length, 0);
    net.hidden = !taps && !netError && !Object.keys(D.pending).length;
    const text = netError || (unsent || Object.keys(D.pending).length
      ? (navigator.onLine && sending ? W.sending : say(W.offline, {n: unsent})) : W.online);
    net.className = "net " + (netError ? "error" : unsent ? "offline" : "online");
    net.textContent = text;
  }

  // ------------------------------------------------------------ sending
  // A tap made while a sync is on its way is sent as soon as that one ends, not at the
  // next beat: "again" remembers it (else the line would say "not sent" for seconds).
  let sending = false, again = false, netError = "", lastSent = 0;
  async function post(url, body) {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
      "X-CSRF-Token": root.dataset.csrf}, body: JSON.stringify(body), credentials: "same-origin"});
    let data = {};
    try { data = await r.json(); } catch (_e) { data = {}; }
    return {status: r.status, data};
  }
  async function sync(force) {
    if (sending) { again = true; return; }
    sending = true;
    again = false;
    let reached = false;
    try {
      for (const [g, rec] of Object.entries(D.games)) {
        const open = rec.taps.length && rec.taps[rec.taps.length - 1][0] !== "end";
        const beat = force && open && Date.now() - lastSent > 20000;
        if (!rec.taps.length || (rec.taps.length <= (D.sent[g] || 0) && !beat)) continue;
        const count = rec.taps.length;
        const {status, data} = await post(C.url + "/clock", {game: Number(g), order: rec.order,
          taps: rec.taps.slice(0, count), device: D.device, now: clockNow(rec)});
        reached = true;
        if (status === 200) { D.sent[g] = Math.max(D.sent[g] || 0, count); netError = ""; lastSent = Date.now(); }
        else if (status >= 400 && status < 500) { netError = say(W.refused, {why: data.error || status}); }
        save();
      }
      for (const [g, pens] of Object.entries(D.pending)) {
        if ((D.sent[g] || 0) < (D.games[g] || {taps: []}).taps.length) continue;
        const {status, data} = await post(C.url + "/clock/penalties", {game: Number(g), penalties: pens});
        reached = true;
        if (status === 200) { D.confirmed[g] = data.penalties; delete D.pending[g]; netError = ""; }
        else if (status >= 400 && status < 500) { delete D.pending[g]; netError = data.error || String(status); }
        save();
      }
    } catch (_e) {
      // No connection: everything stays on the phone until the next try.
    } finally {
      sending = false;
      render();
      // Once more for what came meanwhile, if the server was reached this time (offline,
      // the beat and the "online" event try again).
      if (again && reached) sync();
    }
  }

  // ------------------------------------------------------------ the buttons
  $("draw").addEventListener("click", () => {
    const rec = game();
    const r = new Uint32Array(C.seats);
    crypto.getRandomValues(r);
    if (C.seat_draw === "highest_starts") {
      const first = r[0] % C.seats;
      rec.order = C.names.map((_n, k) => ((first + k) % C.seats) + 1);
    } else {
      const seats = C.names.map((_n, k) => k + 1);
      for (let i = seats.length - 1; i > 0; i--) {
        const j = r[i] % (i + 1);
        [seats[i], seats[j]] = [seats[j], seats[i]];
      }
      rec.order = seats;
    }
    save(); render();
  });
  $("clear").addEventListener("click", () => { game().order = []; save(); render(); });
  $("start").addEventListener("click", () => tap("start"));
  $("next").addEventListener("click", () => tap("next"));
  $("forgot").addEventListener("click", () => tap("forgot"));
  $("pause").addEventListener("click", () => {
    const rec = game();
    tap(replay(rec.order, rec.taps, clockNow(rec)).phase === "paused" ? "resume" : "pause");
  });
  $("undo").addEventListener("click", () => tap("undo"));
  $("over-undo").addEventListener("click", () => tap("undo"));
  $("end").addEventListener("click", () => { $("confirm-end").hidden = false; });
  $("end-no").addEventListener("click", () => { $("confirm-end").hidden = true; });
  $("end-yes").addEventListener("click", () => { $("confirm-end").hidden = true; tap("end"); });
  $("next-game").addEventListener("click", () => {
    D.current = Math.min(C.games, D.current + 1); save(); lastPhase = null; render();
  });
  $("confirm").addEventListener("click", () => {
    const g = D.current;
    const failed = C.names.map(() => 0);
    for (const box of $("offers").querySelectorAll("input[type=checkbox]")) {
      if (box.checked) failed[Number(box.dataset.seat) - 1] += 1;
    }
    const pens = failed.map(pointsOf);
    D.pending[g] = pens;
    save(); render(); sync();
  });

  window.addEventListener("online", () => sync(true));
  window.addEventListener("offline", () => render());
  setInterval(render, TICK);
  setInterval(() => sync(true), 5000);
  render();
  sync(true);

  // ------------------------------------------------------------ offline reload
  // The page and its files go into the phone's cache; the worker answers from there
  // when the network does not (a reload at a venue whose network dropped).
  if ("caches" in window) {
    caches.open("meldtour-clock").then((c) => c.addAll([location.pathname + location.search,
      ...root.dataset.assets.split(" ")])).catch(() => {});
  }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(root.dataset.worker, {scope: "/score/"}).catch(() => {});
  }
})();
