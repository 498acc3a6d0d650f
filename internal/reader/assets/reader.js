// A reader page's script. The app's pages load it too, and build on the
// helpers it leaves on window.Quire.
(function () {
"use strict";
var root = document.documentElement, body = document.body;

// el makes an element with attributes (null ones left out) and text or
// children.
function el(tag, attrs, kids) {
  var n = document.createElement(tag);
  for (var k in attrs) if (attrs[k] != null) n.setAttribute(k, attrs[k]);
  if (Array.isArray(kids)) n.append(...kids); else if (kids) n.textContent = kids;
  return n;
}

// step is where a key moves in a list of n from i, or -1.
function step(key, i, n, prev, next) {
  return key === next ? (i + 1) % n : key === prev ? (i - 1 + n) % n : key === "Home" ? 0 : key === "End" ? n - 1 : -1;
}

function debounce(fn, ms) {
  var t;
  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
}

function expand(btn, on, attr) { btn.setAttribute(attr || "aria-expanded", on ? "true" : "false"); }

var up = (e, sel) => e.target.closest ? e.target.closest(sel) : null;
var controls = btn => document.getElementById(btn.getAttribute("aria-controls"));

window.Quire = {el, step, debounce, expand, up, controls};

// The theme toggle remembers the reader's choice.
var toggle = document.querySelector(".theme-toggle");
var dark = () => root.dataset.theme === "dark";
if (toggle) {
  expand(toggle, dark(), "aria-pressed");
  toggle.addEventListener("click", () => {
    var next = dark() ? "light" : "dark";
    root.dataset.theme = next;
    try { localStorage.setItem("quire-theme", next); } catch (e) {}
    expand(toggle, dark(), "aria-pressed");
  });
}

// The sidebar on narrow screens; Escape or a click outside closes it.
var navToggle = document.querySelector(".nav-toggle");
var navOpen = () => body.classList.contains("nav-open");
if (navToggle) {
  navToggle.addEventListener("click", () => {
    var open = body.classList.toggle("nav-open"), first = open && document.querySelector("#sidebar a, #sidebar select");
    expand(navToggle, open);
    if (first) first.focus();
  });
  var close = () => {
    body.classList.remove("nav-open");
    expand(navToggle, false);
    navToggle.focus();
  };
  document.addEventListener("keydown", e => { if (e.key === "Escape" && navOpen()) close(); });
  document.addEventListener("click", e => { if (navOpen() && !up(e, "#sidebar, .nav-toggle")) close(); });
}

// Page tree: a toggle shows or hides its branch; the page being read is
// scrolled into view.
var sidebar = document.getElementById("sidebar");
document.addEventListener("click", e => {
  var btn = up(e, ".tree-toggle");
  if (!btn) return;
  var open = btn.getAttribute("aria-expanded") !== "true", list = controls(btn);
  expand(btn, open);
  if (list) list.hidden = !open;
});
function showCurrentPage() {
  var cur = sidebar && sidebar.querySelector('a[aria-current="page"]');
  if (!cur) return;
  var box = sidebar.getBoundingClientRect(), r = cur.getBoundingClientRect();
  if (r.top < box.top || r.bottom > box.bottom) sidebar.scrollTop += r.top - box.top - (box.height - r.height) / 2;
}
showCurrentPage();
if (navToggle) navToggle.addEventListener("click", showCurrentPage);

// The outline marks the heading being read: the last above 40% of the window.
var outline = document.querySelector(".outline");
if (outline && "IntersectionObserver" in window) {
  var links = Array.from(outline.querySelectorAll('a[href^="#"]'));
  var heads = links.map(a => document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))));
  var markHeading = () => {
    var line = window.innerHeight * 0.4, cur = 0;
    heads.forEach((h, i) => { if (h && h.getBoundingClientRect().top < line) cur = i; });
    links.forEach((a, i) => { if (i === cur) a.setAttribute("aria-current", "location"); else a.removeAttribute("aria-current"); });
  };
  var watch = new IntersectionObserver(markHeading, {rootMargin: "0px 0px -60% 0px"});
  heads.forEach(h => { if (h) watch.observe(h); });
  markHeading();
}

// Copy buttons: a code block's (data-copy), or the app's data-copy-text.
document.addEventListener("click", e => {
  var btn = up(e, "[data-copy], [data-copy-text]");
  if (!btn || !navigator.clipboard) return;
  var text = btn.dataset.copyText;
  if (text === undefined) {
    var code = btn.closest(".code-block").querySelector("pre code").cloneNode(true);
    code.querySelectorAll(".ln").forEach(n => n.remove());
    text = code.textContent;
  }
  btn.label = btn.label || btn.textContent;
  navigator.clipboard.writeText(text).then(() => {
    btn.textContent = "Copied";
    setTimeout(() => { btn.textContent = btn.label; }, 1500);
  }, () => {});
});

document.querySelectorAll("[data-tabs]").forEach(box => {
  var tabs = Array.from(box.querySelectorAll(":scope > .tablist > [role=tab]"));
  var select = (tab, focus) => {
    tabs.forEach(t => {
      var panel = controls(t), on = t === tab;
      expand(t, on, "aria-selected");
      t.tabIndex = on ? 0 : -1;
      if (panel) panel.hidden = !on;
    });
    if (focus) tab.focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", e => {
      var j = step(e.key, i, tabs.length, "ArrowLeft", "ArrowRight");
      if (j >= 0) { e.preventDefault(); select(tabs[j], true); }
    });
  });
});

document.querySelectorAll("select[data-navigate]").forEach(sel => {
  sel.addEventListener("change", () => { if (sel.value) location.href = sel.value; });
});

// Search as you type, when the page names a JSON endpoint.
var input = document.querySelector("input[data-search-url]");
var results = document.getElementById("search-results");
if (input) {
  var asked = 0, form = input.form;
  input.addEventListener("input", debounce(async () => {
    var q = input.value.trim(), n = ++asked, url = input.dataset.searchUrl;
    if (!q) { results.hidden = true; return; }
    try {
      var r = await fetch(url + (url.includes("?") ? "&" : "?") + "q=" + encodeURIComponent(q), {headers: {Accept: "application/json"}});
      var items = r.ok ? await r.json() : [];
      if (n !== asked) return; // a later query is on its way
      results.textContent = "";
      results.append(...(Array.isArray(items) ? items : []).slice(0, 8).map(searchItem).filter(Boolean));
      if (!results.firstChild) results.appendChild(el("li", {class: "search-none", role: "option", "aria-disabled": "true"}, "No page matches."));
      results.appendChild(el("li", {class: "search-all", role: "option"},
        [el("a", {href: form.getAttribute("action") + "?q=" + encodeURIComponent(q)}, "All results for “" + q + "”")]));
      results.hidden = false;
    } catch (e) {
      results.hidden = true;
    }
  }, 150));
  input.addEventListener("keydown", e => { if (e.key === "Escape") results.hidden = true; });
  form.addEventListener("focusout", e => { if (!form.contains(e.relatedTarget)) results.hidden = true; });
  input.addEventListener("focus", () => { if (input.value.trim() && results.firstChild) results.hidden = false; });
}

// A result is built from text and <mark> only.
function searchItem(it) {
  if (!it || typeof it.url !== "string" || !/^(\/|https?:)/.test(it.url)) return null;
  var a = el("a", {href: it.url}, [marked("search-hit-title", it.titleParts, it.title || it.url)]);
  if (typeof it.section === "string" && it.section) a.appendChild(el("span", {class: "search-hit-section"}, it.section));
  if (Array.isArray(it.snippet) && it.snippet.length) a.appendChild(marked("search-hit-snippet", it.snippet, ""));
  return el("li", {role: "option", class: "search-hit"}, [a]);
}

function marked(cls, parts, plain) {
  return el("span", {class: cls}, !Array.isArray(parts) || !parts.length ? plain :
    parts.filter(p => p && typeof p.text === "string").map(p => p.mark ? el("mark", {}, p.text) : p.text));
}
})();
