// The head table's round status fetches itself again every few seconds and puts the
// new tiles and summary in place (nothing else on the page changes, the form keeps
// what is being typed).
(function () {
  "use strict";
  var main = document.getElementById("status");
  if (!main) return;
  var seconds = parseInt(main.getAttribute("data-seconds") || "15", 10);
  function swap(doc, id) {
    var now = document.getElementById(id);
    var fresh = doc.getElementById(id);
    if (now && fresh) now.replaceWith(fresh);
  }
  function refresh() {
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        swap(doc, "ssum");
        swap(doc, "tiles");
        main.setAttribute("data-refreshed", String(Date.now()));
      })
      .catch(function () { /* the next try comes soon */ });
  }
  setInterval(refresh, seconds * 1000);
  window.meldtourStatusRefresh = refresh;
})();
