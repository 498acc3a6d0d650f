(function () {
  "use strict";
  var root = document.documentElement;

  // Theme toggle: remembers the reader's choice.
  var toggle = document.querySelector(".theme-toggle");
  function showTheme() {
    if (!toggle) return;
    var dark = root.getAttribute("data-theme") === "dark";
    toggle.setAttribute("aria-pressed", dark ? "true" : "false");
  }
  showTheme();
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem("quire-theme", next); } catch (e) {}
      showTheme();
    });
  }

  // Sidebar toggle on narrow screens.
  var navToggle = document.querySelector(".nav-toggle");
  if (navToggle) {
    navToggle.addEventListener("click", function () {
      var open = document.body.classList.toggle("nav-open");
      navToggle.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) {
        var first = document.querySelector("#sidebar a, #sidebar select");
        if (first) first.focus();
      }
    });
    var close = function () {
      document.body.classList.remove("nav-open");
      navToggle.setAttribute("aria-expanded", "false");
      navToggle.focus();
    };
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && document.body.classList.contains("nav-open")) close();
    });
    // A click outside the open menu closes it.
    document.addEventListener("click", function (e) {
      if (document.body.classList.contains("nav-open") && !e.target.closest("#sidebar, .nav-toggle")) close();
    });
  }

  // Page tree: a branch's toggle shows or hides its pages (toggles added
  // later, as the app's loaded branches, too), and the page being read is
  // scrolled into the sidebar's view.
  var sidebar = document.getElementById("sidebar");
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest(".tree-toggle");
    if (!btn) return;
    var open = btn.getAttribute("aria-expanded") !== "true";
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    var list = document.getElementById(btn.getAttribute("aria-controls"));
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

  // Outline: the heading being read (the last one above 40% of the
  // window) is marked as the page scrolls.
  var outline = document.querySelector(".outline");
  if (outline && "IntersectionObserver" in window) {
    var outlineLinks = Array.prototype.slice.call(outline.querySelectorAll('a[href^="#"]'));
    var heads = outlineLinks.map(function (a) {
      return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
    });
    var markHeading = function () {
      var line = window.innerHeight * 0.4, cur = 0;
      heads.forEach(function (h, i) { if (h && h.getBoundingClientRect().top < line) cur = i; });
      outlineLinks.forEach(function (a, i) {
        if (i === cur) a.setAttribute("aria-current", "location");
        else a.removeAttribute("aria-current");
      });
    };
    var watch = new IntersectionObserver(markHeading, { rootMargin: "0px 0px -60% 0px" });
    heads.forEach(function (h) { if (h) watch.observe(h); });
    markHeading();
  }

  // Copy buttons of code blocks.
  document.querySelectorAll("[data-copy]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var code = btn.closest(".code-block").querySelector("pre code").cloneNode(true);
      code.querySelectorAll(".ln").forEach(function (n) { n.remove(); });
      var text = code.textContent;
      var done = function () {
        btn.textContent = "Copied";
        setTimeout(function () { btn.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {});
      }
    });
  });

  // Tabs: the ARIA tab pattern with arrow keys, Home and End.
  document.querySelectorAll("[data-tabs]").forEach(function (box) {
    var tabs = Array.prototype.slice.call(box.querySelectorAll(":scope > .tablist > [role=tab]"));
    function select(tab, focus) {
      tabs.forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        t.tabIndex = on ? 0 : -1;
        var panel = document.getElementById(t.getAttribute("aria-controls"));
        if (panel) panel.hidden = !on;
      });
      if (focus) tab.focus();
    }
    tabs.forEach(function (tab, i) {
      tab.addEventListener("click", function () { select(tab, false); });
      tab.addEventListener("keydown", function (e) {
        var j = -1;
        if (e.key === "ArrowRight") j = (i + 1) % tabs.length;
        else if (e.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
        else if (e.key === "Home") j = 0;
        else if (e.key === "End") j = tabs.length - 1;
        if (j >= 0) { e.preventDefault(); select(tabs[j], true); }
      });
    });
  });

  // Site space switcher.
  document.querySelectorAll("select[data-navigate]").forEach(function (sel) {
    sel.addEventListener("change", function () { if (sel.value) location.href = sel.value; });
  });

  // Search as you type, when the page names a JSON endpoint.
  var input = document.querySelector("input[data-search-url]");
  if (input) searchAsYouType(input, document.getElementById("search-results"));

  // searchAsYouType shows the pages matching what is typed in input, in
  // the list under it, and a last item leading to every result.
  function searchAsYouType(input, list) {
    var timer = 0;
    var asked = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        var n = ++asked;
        if (!q) { list.hidden = true; return; }
        var url = input.getAttribute("data-search-url");
        fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "q=" + encodeURIComponent(q), {headers: {Accept: "application/json"}})
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (items) {
            if (n !== asked) return; // a later query is on its way
            list.textContent = "";
            (Array.isArray(items) ? items : []).slice(0, 8).forEach(function (it) {
              var li = searchItem(it);
              if (li) list.appendChild(li);
            });
            if (!list.firstChild) {
              var none = document.createElement("li");
              none.className = "search-none";
              none.setAttribute("role", "option");
              none.setAttribute("aria-disabled", "true");
              none.textContent = "No page matches.";
              list.appendChild(none);
            }
            list.appendChild(allResults(input.form, q));
            list.hidden = false;
          }, function () { list.hidden = true; });
      }, 150);
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Escape") list.hidden = true;
    });
    // The list closes when focus leaves the search form, and comes back
    // with it.
    input.form.addEventListener("focusout", function (e) {
      if (!input.form.contains(e.relatedTarget)) list.hidden = true;
    });
    input.addEventListener("focus", function () {
      if (input.value.trim() && list.firstChild) list.hidden = false;
    });
  }

  // searchItem is the list item of one result: its title, the section
  // that matched and a snippet, each built from text nodes and <mark>
  // elements only.
  function searchItem(it) {
    if (!it || typeof it.url !== "string" || !/^(\/|https?:)/.test(it.url)) return null;
    var li = document.createElement("li");
    li.setAttribute("role", "option");
    li.className = "search-hit";
    var a = document.createElement("a");
    a.href = it.url;
    var title = document.createElement("span");
    title.className = "search-hit-title";
    appendMarked(title, it.titleParts, it.title || it.url);
    a.appendChild(title);
    if (typeof it.section === "string" && it.section) {
      var section = document.createElement("span");
      section.className = "search-hit-section";
      section.textContent = it.section;
      a.appendChild(section);
    }
    if (Array.isArray(it.snippet) && it.snippet.length) {
      var snippet = document.createElement("span");
      snippet.className = "search-hit-snippet";
      appendMarked(snippet, it.snippet, "");
      a.appendChild(snippet);
    }
    li.appendChild(a);
    return li;
  }

  // appendMarked adds fragments of text to el, those marked inside
  // <mark>; the plain text when there are no fragments.
  function appendMarked(el, parts, plain) {
    if (!Array.isArray(parts) || !parts.length) {
      el.textContent = plain;
      return;
    }
    parts.forEach(function (p) {
      if (!p || typeof p.text !== "string") return;
      if (p.mark) {
        var m = document.createElement("mark");
        m.textContent = p.text;
        el.appendChild(m);
      } else {
        el.appendChild(document.createTextNode(p.text));
      }
    });
  }

  // allResults is the last item of the list: a link to the results page.
  function allResults(form, q) {
    var li = document.createElement("li");
    li.className = "search-all";
    li.setAttribute("role", "option");
    var a = document.createElement("a");
    a.href = form.getAttribute("action") + "?q=" + encodeURIComponent(q);
    a.textContent = "All results for “" + q + "”";
    li.appendChild(a);
    return li;
  }
})();
