// The one script of the HTML edition's pages (the site works without it, too).
// - "Dit artikel in uitgave …" keeps the reader's place: the section in view (#41B) goes along.
// - Keys: "/" goes to the search box; ← and → to the previous and next article (never while typing).
// - Each section's heading gets a button that copies the link to that section.
// - The editor view: a switch in the article page's menu that shows the apparatus, remembered (localStorage).
// - The article's sections are open on a wide screen, folded on a phone; the header's menu closes on a tap
//   elsewhere or Escape; a renumbered node's mark opens when the address names it;
//   the graph page says that its picture scrolls sideways while it is wider than the screen.
// - Over http(s) it registers the service worker (sw.js), which caches the site for offline use.
"use strict";
(function () {
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var copyLabel = (script && script.getAttribute("data-copy")) || "{c}";
  var copiedLabel = (script && script.getAttribute("data-copied")) || "";

  // The links to the same place in another edition carry the section in view, so they say where they go.
  function samePlace() {
    var links = document.querySelectorAll("a.same-place");
    for (var i = 0; i < links.length; i++) {
      var href = links[i].getAttribute("href").split("#")[0];
      var anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      // Only a node's anchor (41B), not a note's or a heading's, names a place in the other edition.
      var node = anchor && anchor.closest && anchor.closest("section[id]:not(.notes)");
      links[i].setAttribute("href", node ? href + "#" + node.id : href);
    }
  }
  document.addEventListener("DOMContentLoaded", samePlace);
  window.addEventListener("hashchange", samePlace);

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) {
      return;
    }
    if (event.key === "/") {
      var box = document.querySelector("input[type=search]");
      if (box) { event.preventDefault(); box.focus(); box.select(); }
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      var link = document.querySelector(event.key === "ArrowLeft" ? "a[rel=prev]" : "a[rel=next]");
      if (link) { event.preventDefault(); location.href = link.href; }
    }
  });

  function copyButtons() {
    var headings = document.querySelectorAll("main section[id] > h2, main section[id] > h3, main section[id] > h4, main section[id] > h5");
    for (var i = 0; i < headings.length; i++) {
      var section = headings[i].parentNode;
      if (!section.querySelector(":scope > h2 a.cite, :scope > h3 a.cite, :scope > h4 a.cite, :scope > h5 a.cite")) {
        continue;  // only the law's sections: not the notes, not "cited in"
      }
      if (headings[i].classList.contains("hang")) {
        continue;  // a label hanging in the margin of its text ("1.", "(a)") is itself the link to copy
      }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-link";
      button.setAttribute("data-anchor", section.id);
      button.setAttribute("aria-label", copyLabel.replace("{c}", section.id));
      button.title = button.getAttribute("aria-label");
      headings[i].appendChild(button);
    }
  }
  document.addEventListener("DOMContentLoaded", copyButtons);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.copy-link");
    if (!button) { return; }
    var url = location.href.split("#")[0] + "#" + button.getAttribute("data-anchor");
    var done = function () {
      button.classList.add("copied");
      button.setAttribute("aria-label", copiedLabel);
      setTimeout(function () {
        button.classList.remove("copied");
        button.setAttribute("aria-label", button.title);
      }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(done, function () { prompt(button.title, url); });
    } else {
      prompt(button.title, url);  // opened from disk in an older browser: the link to copy by hand
    }
  });

  // The editor view: the apparatus readers do not see (inferred numbering, a missing title) shows while the
  // class "editor-view" is on the root; off by default, the reader's choice kept in localStorage.
  var EDITOR_VIEW = "lawbook-editor-view";
  function remembered() {
    try { return localStorage.getItem(EDITOR_VIEW) === "on"; } catch (e) { return false; }  // storage blocked
  }
  function editorView(on) {
    document.documentElement.classList.toggle("editor-view", on);
    var button = document.getElementById("editor-view");
    if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
  }
  editorView(remembered());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("editor-view");
    if (!button) { return; }
    button.parentNode.hidden = false;
    editorView(remembered());
    button.addEventListener("click", function () {
      var on = button.getAttribute("aria-pressed") !== "true";
      try { localStorage.setItem(EDITOR_VIEW, on ? "on" : "off"); } catch (e) { /* this page only */ }
      editorView(on);
    });
  });

  // The original beside the translation (build --reference: an article page holds div.originals, hidden,
  // one block per node). The toggle pairs each block with its node's own text, once, and shows it; off by
  // default, the reader's choice remembered. Each block goes with its node's leading paragraphs (a node
  // only the original has: at the end of its nearest ancestor on the page, in the book's order).
  function originalBeside() {
    var holder = document.querySelector("div.originals");
    var bar = document.querySelector("div.original-bar");
    if (!holder || !bar) { return; }
    var button = bar.querySelector("button.original-switch");
    var KEY = "lawbook-original";
    var placed = false;
    function remembered() {
      try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
    }
    function place() {
      var blocks = Array.prototype.slice.call(holder.querySelectorAll(":scope > .original"));
      for (var i = 0; i < blocks.length; i++) {
        var block = blocks[i];
        var node = document.getElementById(block.getAttribute("data-place"));
        if (!node || !/^(SECTION|ARTICLE)$/.test(node.tagName)) { continue; }  // stays hidden in the holder
        var kids = Array.prototype.slice.call(node.children);
        if (block.hasAttribute("data-only-original") || block.classList.contains("original-absent")) {
          // Before the node of the page that follows it in the book (47A before 47B); else after the
          // ancestor's own nodes, before an article's legend, notes and what follows them.
          var end = document.getElementById(block.getAttribute("data-before") || "");
          if (!end || end.parentNode !== node) {
            end = null;
            for (var k = 0; k < kids.length; k++) {
              if (kids[k].matches("ul.legend, section.notes")) { end = kids[k]; break; }
            }
          }
          node.insertBefore(block, end);
          continue;
        }
        var pair = document.createElement("div");
        pair.className = "original-pair";
        var here = document.createElement("div");
        here.className = "original-here";
        pair.appendChild(here);
        var at = null;
        for (var j = 0; j < kids.length; j++) {
          var kid = kids[j];
          if (/^(H[1-6]|HEADER)$/.test(kid.tagName) || kid === bar || kid === holder) { continue; }
          if (kid.tagName !== "P") { at = kid; break; }
          here.appendChild(kid);  // the node's own leading text
        }
        node.insertBefore(pair, at);
        pair.appendChild(block);
      }
      placed = true;
    }
    function show(on) {
      if (on && !placed) { place(); }
      document.documentElement.classList.toggle("original-on", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    button.addEventListener("click", function () {
      var on = button.getAttribute("aria-pressed") !== "true";
      try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* not remembered: file:// in some browsers */ }
      show(on);
    });
    bar.hidden = false;
    show(remembered());
  }
  document.addEventListener("DOMContentLoaded", originalBeside);

  // The article's list of sections (a <details>, closed for a phone) is open where the screen is wide: opened
  // now, the page being read (the script is deferred), before the reader can see it closed.
  var sections = document.getElementById("sections-list");
  if (sections && window.matchMedia && window.matchMedia("(min-width: 40rem)").matches) { sections.open = true; }

  // The header's menu (a <details>): a tap elsewhere or Escape closes it (Escape gives the focus back to it).
  document.addEventListener("click", function (event) {
    var open = document.querySelectorAll("details.menu[open]");
    for (var i = 0; i < open.length; i++) {
      if (!open[i].contains(event.target)) { open[i].open = false; }
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var menu = event.target.closest && event.target.closest("details.menu[open]");
    if (menu) { menu.open = false; menu.querySelector("summary").focus(); }
  });

  // A renumbered node's mark (details.renumbered, "was 47E1a") opens when the address names it: the editor's
  // page links to it (#corr-47E2a-1), and the reader who followed that link comes for its explanation.
  function openTarget() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.matches("details.renumbered")) { target.open = true; }
  }
  document.addEventListener("DOMContentLoaded", openTarget);
  window.addEventListener("hashchange", openTarget);

  // The graph page: the sentence that says the picture scrolls sideways shows while it is wider than its region.
  function graphHint() {
    var region = document.querySelector(".graph-scroll");
    var hint = document.getElementById("graph-hint");
    if (region && hint) { hint.hidden = region.scrollWidth <= region.clientWidth + 1; }
  }
  document.addEventListener("DOMContentLoaded", graphHint);
  window.addEventListener("resize", graphHint);

  if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    navigator.serviceWorker.register(root + "sw.js").catch(function () {});
  }
})();
