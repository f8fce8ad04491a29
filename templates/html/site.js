// The one script of the HTML edition's pages (the site works without it, too).
// - "Dit artikel in uitgave …" keeps the reader's place: the section in view (#41B) goes along.
// - Over http(s) it registers the service worker (sw.js), which caches the site for offline use.
"use strict";
(function () {
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.same-place");
    if (link && location.hash && !/#/.test(link.getAttribute("href"))) {
      link.setAttribute("href", link.getAttribute("href") + location.hash);
    }
  });
  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    navigator.serviceWorker.register(root + "sw.js").catch(function () {});
  }
})();
