// The director's app: the score form checked as you type, live standings, projector paging.
(function () {
  "use strict";

  // Forms that cannot be undone ask first (withdraw, drop).
  document.querySelectorAll("form[data-confirm]").forEach((f) => f.addEventListener("submit", (ev) => {
    if (!window.confirm(f.dataset.confirm)) ev.preventDefault();
  }));

  // ------------------------------------------------------ the list's preview
  // The save button counts the lines that will be saved: a line dropped (its box
  // ticked, or "the same person: drop this line" chosen) is no longer counted.
  const saveAll = document.getElementById("saveall");
  if (saveAll && saveAll.form) {
    const preview = saveAll.form;
    const total = +preview.elements["count"].value;
    const recount = () => {
      let dropped = 0;
      for (let i = 0; i < total; i++) {
        const keep = preview.elements["keep" + i];
        if (!keep) continue;
        const boxes = keep.length !== undefined && !keep.tagName ? Array.from(keep) : [keep];
        if (boxes.some((b) => b.value === "drop" && b.checked)) dropped++;
      }
      saveAll.textContent = saveAll.dataset.words.replace("{n}", String(total - dropped));
      saveAll.dataset.count = String(total - dropped);
    };
    preview.addEventListener("change", (ev) => {
      if (ev.target && String(ev.target.name || "").startsWith("keep")) recount();
    });
    recount();
  }

  // ------------------------------------------------------------- a form sent too late
  // A form sent after the session expired leads to the sign-in page, and signing in
  // leads back to the form's page: what was typed comes back into the form. Each
  // form sent is kept here for a moment; the sign-in page marks it to keep; any other
  // page (the server answered) forgets it, unless it is its own page coming back.
  const DRAFT = "meldtour.sent-form";
  const signIn = document.querySelector('form[action="/director/login"]');
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch (e) { draft = null; }
  if (draft && signIn) {
    if (!draft.held && Date.now() - draft.at < 10 * 60 * 1000) {
      draft.held = true;
      localStorage.setItem(DRAFT, JSON.stringify(draft));
    }
  } else if (draft) {
    localStorage.removeItem(DRAFT);
    const form = draft.held && draft.path === location.pathname
      ? [...document.querySelectorAll("form")].find((f) => f.getAttribute("action") === draft.action)
      : null;
    if (form) {
      for (const [name, values] of Object.entries(draft.values)) {
        const fields = [...form.elements].filter((e) => e.name === name);
        fields.forEach((e, i) => {
          if (e.type === "checkbox" || e.type === "radio") e.checked = values.includes(e.value);
          else if (i < values.length) e.value = values[i];
        });
      }
      for (let d = form.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
      const note = document.createElement("p");
      note.className = "flash warn";
      note.id = "draft-restored";
      note.textContent = (document.getElementById("draft-words") || {}).textContent || "";
      form.before(note);
      note.scrollIntoView({ block: "center" });
    }
  }
  document.querySelectorAll('form[method="post"]').forEach((f) => f.addEventListener("submit", () => {
    if (f === signIn || f.querySelector('input[type="password"], input[type="file"]')) return;
    const values = {};
    for (const e of f.elements) {
      if (!e.name || e.name === "csrf" || e.disabled) continue;
      if ((e.type === "checkbox" || e.type === "radio") && !e.checked) { values[e.name] = values[e.name] || []; continue; }
      (values[e.name] = values[e.name] || []).push(e.value);
    }
    try {
      localStorage.setItem(DRAFT, JSON.stringify(
        { path: location.pathname, action: f.getAttribute("action"), values, at: Date.now() }));
    } catch (e) { /* a full or closed storage: nothing kept */ }
  }));

  // ------------------------------------------------------------- score form
  const form = document.getElementById("sheet");
  if (form) {
    const url = form.dataset.url;
    const csrf = form.dataset.csrf;
    const seats = +form.dataset.seats;
    const games = +form.dataset.games;
    let version = +form.dataset.version;
    const result = document.getElementById("result");
    const num = (v) => {
      const s = String(v).trim().replace(/[−–]/g, "-").replace(/^\+/, "");
      if (s === "") return null;
      return /^-?\d+$/.test(s) ? parseInt(s, 10) : NaN;
    };
    function rows() {
      const out = [];
      for (let g = 1; g <= games; g++) {
        const points = [], penalties = [];
        for (let s = 1; s <= seats; s++) {
          points.push(num(form.elements["p" + g + "_" + s].value));
          const pen = form.elements["x" + g + "_" + s];
          penalties.push(pen ? (num(pen.value) || 0) : 0);
        }
        const w = form.querySelector('input[name="w' + g + '"]:checked');
        out.push({ points, penalties, winner: w ? +w.value : null });
      }
      return out;
    }
    function show(problems) {
      form.querySelectorAll("input.bad").forEach((i) => i.classList.remove("bad"));
      form.querySelectorAll(".err").forEach((p) => { p.hidden = true; p.textContent = ""; });
      for (const p of problems) {
        const box = form.querySelector('.err[data-cell="' + p.game + "-" + p.seat + '"]');
        if (box) { box.hidden = false; box.textContent += (box.textContent ? " · " : "") + p.message; }
        if (p.seat) {
          const name = (p.field === "penalty" ? "x" : "p") + p.game + "_" + p.seat;
          const input = form.elements[name];
          if (input && input.classList) input.classList.add("bad");
        }
      }
    }
    function post(path, body) {
      return fetch(url + path, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(body),
      });
    }
    let timer = null;
    function check() {
      const data = rows();
      const bad = [];
      data.forEach((r, i) => r.points.forEach((v, s) => { if (Number.isNaN(v)) bad.push([i + 1, s + 1]); }));
      if (bad.length) {
        show(bad.map(([g, s]) => ({ game: g, seat: s, field: "points", message: form.dataset.nan || "?" })));
        return;
      }
      post("/check", { games: data }).then((r) => r.json()).then((d) => show(d.problems || []));
    }
    // The running totals (wins, points with penalties) as typed, before saving: what
    // the scorer compares with the paper sheet's last line.
    function totals() {
      const box = document.getElementById("totals");
      if (!box) return;
      const data = rows();
      for (let s = 1; s <= seats; s++) {
        let wins = 0, points = 0, any = false;
        for (const r of data) {
          const v = r.points[s - 1];
          if (v !== null && !Number.isNaN(v)) { points += v - (r.penalties[s - 1] || 0); any = true; }
          if (r.winner === s) wins += 1;
        }
        const tr = box.querySelector('tr[data-seat="' + s + '"]');
        tr.querySelector(".wins").textContent = String(wins);
        tr.querySelector(".points").textContent = !any ? "" : (points > 0 ? "+" : "") + String(points).replace("-", "−");
      }
    }
    totals();
    form.addEventListener("input", totals);
    form.addEventListener("change", totals);
    form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 200); });
    form.addEventListener("change", () => { clearTimeout(timer); timer = setTimeout(check, 50); });
    form.querySelectorAll("button.sign").forEach((b) => b.addEventListener("click", () => {
      const input = document.getElementById(b.dataset.for);
      const v = num(input.value);
      input.value = v === null || Number.isNaN(v) ? "-" : String(-v);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    }));
    function say(text, kind) {
      result.hidden = false;
      result.className = "flash " + kind;
      result.textContent = text;
      // at the top of the sheet, brought into view: a phone's Save is at the bottom
      result.scrollIntoView({ block: "start", behavior: "instant" });
    }
    function showTheirs(theirs, games) {
      const tbody = theirs.querySelector("tbody");
      const mine = rows();
      tbody.innerHTML = "";
      form.querySelectorAll("input.theirs-differs").forEach((i) => i.classList.remove("theirs-differs"));
      games.forEach((g, i) => {
        const tr = document.createElement("tr");
        const th = document.createElement("th");
        th.textContent = String(i + 1);
        tr.appendChild(th);
        g.points.forEach((p, s) => {
          const td = document.createElement("td");
          td.textContent = (p === null ? "" : (p > 0 ? "+" : "") + String(p)) + (g.winner === s + 1 ? " ★" : "");
          const m = mine[i] || { points: [], winner: null };
          if (m.points[s] !== p || (m.winner === s + 1) !== (g.winner === s + 1)) {
            td.className = "differs";
            const input = form.elements["p" + (i + 1) + "_" + (s + 1)];
            if (input) input.classList.add("theirs-differs");
          }
          tr.appendChild(td);
        });
        tbody.appendChild(tr);
      });
      theirs.dataset.games = JSON.stringify(games);
      theirs.hidden = false;
      theirs.scrollIntoView({ block: "nearest" });
    }
    const take = document.getElementById("take-theirs");
    if (take) take.addEventListener("click", () => {
      const theirs = document.getElementById("theirs");
      const games = JSON.parse(theirs.dataset.games || "[]");
      games.forEach((g, i) => {
        g.points.forEach((p, s) => {
          const input = form.elements["p" + (i + 1) + "_" + (s + 1)];
          if (input) input.value = p === null ? "" : String(p);
          const pen = form.elements["x" + (i + 1) + "_" + (s + 1)];
          if (pen) pen.value = g.penalties[s] ? String(g.penalties[s]) : "";
        });
        form.querySelectorAll('input[name="w' + (i + 1) + '"]').forEach((r) => { r.checked = g.winner === +r.value; });
      });
      form.querySelectorAll("input.theirs-differs").forEach((i) => i.classList.remove("theirs-differs"));
      theirs.hidden = true;
      result.hidden = true;
      check();
    });
    const reaward = document.getElementById("reaward");
    // One save at a time: a double tap sends once (and a resubmission of the same
    // sheet answers "saved" on the server anyway).
    let sending = false;
    function sendSheet(confirmed) {
      if (sending) return;
      const why = document.getElementById("why");
      const body = { games: rows(), version, why: why ? why.value : "", reaward: confirmed };
      if (body.games.some((r) => r.points.some((v) => Number.isNaN(v)))) { check(); return; }
      sending = true;
      const save = document.getElementById("save");
      const was = save ? save.disabled : false;
      if (save) save.disabled = true;
      post("", body).then((r) => r.json().then((d) => [r.status, d])).then(([status, d]) => {
        const theirs = document.getElementById("theirs");
        if (status === 409 && d.reaward && reaward) {
          // An awarded division: what the correction changes, saved only on confirmation.
          say(d.message, "warn");
          const list = document.getElementById("reaward-lines");
          list.innerHTML = "";
          for (const line of d.lines || []) {
            const li = document.createElement("li");
            li.textContent = line;
            list.appendChild(li);
          }
          reaward.hidden = false;
          reaward.scrollIntoView({ block: "nearest" });
          return;
        }
        if (reaward) reaward.hidden = true;
        if (status === 409 && d.conflict) {
          // Nothing typed here is touched: the other device's sheet is shown beside it,
          // the cells that differ are marked, and saving again saves what is typed here.
          version = d.version;
          say(d.message, "error");
          showTheirs(theirs, d.theirs || []);
          document.getElementById("theirs-open").hidden = false;
          document.getElementById("theirs-counted").hidden = true;
          if (take) take.style.display = "";
          return;
        }
        if (status === 403 && d.counted && d.theirs) {
          // Counted already from another device: its sheet beside this one, the cells
          // that differ marked (nothing typed here is lost).
          say(d.message || d.error, "error");
          showTheirs(theirs, d.theirs);
          document.getElementById("theirs-open").hidden = true;
          document.getElementById("theirs-counted").hidden = false;
          if (take) take.style.display = "none";
          return;
        }
        if (status >= 400) { say(d.error || String(status), "error"); return; }
        theirs.hidden = true;
        form.querySelectorAll("input.theirs-differs").forEach((i) => i.classList.remove("theirs-differs"));
        version = d.version;
        show(d.problems || []);
        say(d.message, d.counted ? "ok" : "warn");
      }).catch(() => say("⚠ network", "error")).finally(() => {
        sending = false;
        if (save) save.disabled = was;
      });
    }
    form.addEventListener("submit", (ev) => { ev.preventDefault(); sendSheet(false); });
    const confirmReaward = document.getElementById("reaward-confirm");
    if (confirmReaward) confirmReaward.addEventListener("click", () => sendSheet(true));
  }

  // ------------------------------------------------------------- live standings
  // Server-Sent Events bring the standings whenever the tournament changed (or, from
  // a stream that only says so, the page fetches them; an ETag makes an unchanged
  // table a 304). Without EventSource, or while
  // the stream is down, the page polls every second instead.
  const live = document.getElementById("live");
  if (live) {
    const state = document.getElementById("livestate");
    let etag = null, fetching = false, again = false, timer = null;
    function refresh() {
      if (fetching) { again = true; return Promise.resolve(); }
      fetching = true;
      const headers = etag ? { "If-None-Match": etag } : {};
      return fetch(live.dataset.live, { headers, cache: "no-store" }).then((r) => {
        if (r.status === 200) {
          etag = r.headers.get("ETag");
          return r.text().then((html) => { live.innerHTML = html; page(true); });
        }
      }).catch(() => {}).finally(() => {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
    }
    function poll() { refresh().finally(() => { if (timer !== null) timer = setTimeout(poll, 1000); }); }
    function polling(on) {
      live.dataset.mode = on ? "poll" : "push";
      if (state) state.textContent = on ? state.dataset.poll : state.dataset.push;
      if (on && timer === null) timer = setTimeout(poll, 1000);
      if (!on && timer !== null) { clearTimeout(timer); timer = null; }
    }
    if (window.EventSource && live.dataset.events) {
      const events = new EventSource(live.dataset.events);
      const push = live.dataset.push === "1";
      // A pushing stream sends the table itself (on connecting, when it differs from
      // the one this page has, and on every change); an older one only says "changed".
      events.addEventListener("hello", () => { polling(false); if (!push) refresh(); });
      events.addEventListener("change", () => refresh());
      events.addEventListener("standings", (e) => {
        etag = e.lastEventId || etag;
        live.innerHTML = e.data;
        page(true);
      });
      events.onerror = () => polling(true);
    } else {
      polling(true);
    }
    // Projector: long tables are shown a page at a time.
    let index = 0;
    function page(keep) {
      const table = live.querySelector("table.big[data-page-rows]");
      if (!table) return;
      const size = +table.dataset.pageRows;
      const trs = Array.from(table.tBodies[0].rows);
      const pages = Math.max(1, Math.ceil(trs.length / size));
      if (!keep) index = (index + 1) % pages;
      index = index % pages;
      trs.forEach((tr, i) => { tr.hidden = Math.floor(i / size) !== index; });
    }
    page(true);
    setInterval(() => page(false), 8000);
  }
})();
