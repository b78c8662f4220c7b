// The projector's pages: as many items (tables, names) as fit the screen are shown,
// then the next ones every data-seconds, round and round; a clock; full screen.
(() => {
  "use strict";
  const box = document.getElementById("paged");
  const clock = document.getElementById("clock");
  const count = document.getElementById("pagecount");
  const pad = (n) => String(n).padStart(2, "0");
  const tick = () => {
    const d = new Date();
    clock.textContent = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  };
  tick();
  setInterval(tick, 1000);
  const full = document.getElementById("fullscreen");
  full.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  let items = [...box.querySelectorAll(".item")];
  let pages = [];
  let page = 0;
  const fits = () => box.scrollHeight <= box.clientHeight + 1;
  const layout = () => {
    // Pages are made by filling the screen item by item until one no longer fits.
    pages = [];
    let start = 0;
    while (start < items.length) {
      items.forEach((el) => { el.hidden = true; });
      let end = start;
      while (end < items.length) {
        items[end].hidden = false;
        if (!fits() && end > start) { items[end].hidden = true; break; }
        end += 1;
      }
      pages.push([start, end]);
      start = end;
    }
    page = Math.min(page, Math.max(pages.length - 1, 0));
    show();
  };
  const show = () => {
    items.forEach((el, i) => {
      const [a, b] = pages[page] || [0, items.length];
      el.hidden = i < a || i >= b;
    });
    box.dataset.page = String(page + 1);
    box.dataset.pages = String(pages.length);
    count.textContent = pages.length > 1 ? `${page + 1} / ${pages.length}` : "";
  };
  // A live page (the standings) replaces its rows as sheets are saved: the pages are
  // made again from the new rows, on the page it was showing.
  let relaid = 0;
  new MutationObserver((changes) => {
    if (!changes.some((c) => c.type === "childList")) return;
    clearTimeout(relaid);
    relaid = setTimeout(() => { items = [...box.querySelectorAll(".item")]; layout(); }, 50);
  }).observe(box, { childList: true, subtree: true });
  layout();
  let resized = 0;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(layout, 200); });
  const seconds = Math.max(3, Number(box.dataset.seconds) || 12);
  setInterval(() => {
    if (pages.length < 2) return;
    page = (page + 1) % pages.length;
    show();
  }, seconds * 1000);
})();
