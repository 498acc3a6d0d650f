// Live updates. One event stream per page: a space's (main[data-live])
// or else the inbox's (the header link). "unread" updates the inbox
// count; "activity" says what someone else did in the space. When it
// concerns what the page shows (its change request, or main content's
// merges and comments), main is fetched again and put in place, unless
// the person is writing in it: then a notice offers to show it.
(function () {
  "use strict";
  if (!window.EventSource || !window.fetch || !window.DOMParser) return;
  var main = document.getElementById("main");
  var link = document.querySelector(".inbox-link[data-live]");
  var url = (main && main.getAttribute("data-live")) || (link && link.getAttribute("data-live"));
  if (!url) return;
  var cr = main && main.getAttribute("data-live-cr");
  var inbox = link && link.getAttribute("aria-current") === "page";
  var said = document.createElement("div");
  said.className = "visually-hidden";
  said.setAttribute("role", "status");
  document.body.appendChild(said);
  var verbs = { comment: "commented", review: "reviewed", merge: "merged a change", edit: "edited" };
  var timer, pending = [];

  function unread(n) {
    if (!link || isNaN(n)) return;
    var box = link.querySelector("[data-inbox-count]"), value = link.querySelector("[data-inbox-count-value]");
    if (box && value) { value.textContent = String(n); box.hidden = n === 0; }
    link.setAttribute("aria-label", n === 0 ? "Inbox" : "Inbox, " + n + " unread");
  }

  function concerns(a) {
    if (cr) return String(a.number) === cr;
    return !a.number ? a.kind !== "review" : a.kind === "merge";
  }

  // busy reports whether the person is writing in main: a field has
  // the focus or differs from how the page came, or a block is open for
  // editing or a menu open.
  function busy() {
    var f = document.activeElement;
    if (f && main.contains(f) && /^(TEXTAREA|INPUT|SELECT)$/.test(f.tagName)) return true;
    if (main.querySelector("form.block-editor, form[data-markdown-form], [aria-haspopup][aria-expanded=true]")) return true;
    return Array.prototype.some.call(main.querySelectorAll("input, textarea, select"), function (t) {
      if (t.type === "checkbox" || t.type === "radio") return t.checked !== t.defaultChecked;
      if (t.tagName === "SELECT") {
        var d = 0;
        Array.prototype.forEach.call(t.options, function (o, i) { if (o.defaultSelected) d = i; });
        return !t.multiple && t.selectedIndex !== d;
      }
      return t.type !== "hidden" && t.value !== t.defaultValue;
    });
  }

  function offer(text) {
    var old = main.querySelector(".live-notice");
    if (old) old.remove();
    var p = document.createElement("p"), b = document.createElement("button");
    p.className = "notice live-notice";
    p.textContent = text + " ";
    b.type = "button";
    b.textContent = "Show";
    // Asked while writing, the whole page loads again: the editor's own
    // guard asks before unsaved text is left.
    b.addEventListener("click", function () { if (busy()) location.reload(); else { p.remove(); refresh("", true); } });
    p.appendChild(b);
    main.insertBefore(p, main.firstChild);
  }

  // refresh puts the page's main as the server now draws it in place.
  function refresh(text, asked) {
    if (!asked && busy()) return offer(text);
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } }).then(function (r) {
      // Signed out meanwhile (the answer is the sign-in page): load it whole.
      if (r.redirected) { location.reload(); return ""; }
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      if (!html) return;
      var next = new DOMParser().parseFromString(html, "text/html").getElementById("main");
      if (!next) throw new Error("no main");
      if (!asked && busy()) return offer(text);
      var y = window.scrollY;
      main.innerHTML = next.innerHTML;
      window.scrollTo(0, y);
      document.dispatchEvent(new CustomEvent("quire:updated", { detail: main }));
      if (text) said.textContent = text;
    }).catch(function () { if (text) offer(text); });
  }

  function later(text) {
    pending.push(text);
    clearTimeout(timer);
    timer = setTimeout(function () {
      var t = pending.filter(function (x, i) { return x && pending.indexOf(x) === i; }).join(" ");
      pending = [];
      refresh(t, false);
    }, 300);
  }

  var source;
  function connect() {
    source = new EventSource(url);
    // Marks the page as following (from the stream's first answer on).
    source.addEventListener("open", function () { document.documentElement.setAttribute("data-live", "open"); });
    source.addEventListener("unread", function (e) {
      var n = parseInt(e.data, 10), before = link && link.querySelector("[data-inbox-count-value]");
      var changed = before && before.textContent !== String(n);
      unread(n);
      if (inbox && changed) later("");
    });
    source.addEventListener("activity", function (e) {
      var a;
      try { a = JSON.parse(e.data); } catch (err) { return; }
      if (!concerns(a)) return;
      later((a.actorName || "Someone") + " " + (verbs[a.kind] || "made a change") + ".");
    });
    source.addEventListener("missed", function () { later("This page changed."); });
  }
  connect();
  window.addEventListener("pagehide", function () { source.close(); });
  // A page brought back from the back-forward cache follows again.
  window.addEventListener("pageshow", function (e) { if (e.persisted) connect(); });
})();
