// Comments on a page: a comment button and thread count on each block,
// forms sent without a reload (the server answers the threads' HTML, put
// in place of the panel), "@" mentions and Escape to leave a composer.
// Every form works without it.
(function () {
"use strict";
var Q = window.Quire, el = Q.el;

function panel() { return document.querySelector("[data-comments]"); }
function blocks() { return document.querySelectorAll("main .body .block[data-block]"); }
function blockOf(key) { return document.querySelector('main .body .block[data-block="' + CSS.escape(key) + '"]'); }

// highlight marks a block (and only it) as the one a thread is on.
function highlight(key, scroll) {
  document.querySelectorAll(".block-highlight").forEach(function (b) { b.classList.remove("block-highlight"); });
  var b = key && blockOf(key);
  if (!b) return;
  b.classList.add("block-highlight");
  if (scroll) b.scrollIntoView({ block: "center", behavior: "smooth" });
}

// decorate gives each block its comment button and its thread count.
function decorate() {
  var p = panel();
  if (!p) return;
  var canComment = p.hasAttribute("data-members");
  var counts = {};
  p.querySelectorAll("[data-thread][data-block]").forEach(function (t) {
    if (t.hidden || t.classList.contains("thread-resolved")) return;
    var k = t.getAttribute("data-block");
    counts[k] = (counts[k] || 0) + 1;
  });
  blocks().forEach(function (b) {
    var key = b.getAttribute("data-block");
    var tools = b.querySelector(":scope > .block-tools");
    if (!tools) tools = b.insertBefore(el("div", {"class": "block-tools"}), b.firstChild);
    // Only this script's own buttons are redrawn: the editor's
    // "Edit block" link shares the block's tools.
    tools.querySelectorAll(":scope > .block-count, :scope > .block-comment").forEach(function (e) { e.remove(); });
    var n = counts[key] || 0;
    if (n) {
      var c = el("button", {type: "button", "class": "block-count",
        "aria-label": n === 1 ? "1 comment on this block" : n + " comments on this block"}, String(n));
      c.addEventListener("click", function () { showThreads(key); });
      tools.appendChild(c);
    }
    if (canComment) {
      var btn = el("button", {type: "button", "class": "block-comment", "aria-label": "Comment on this block",
        title: "Comment on this block"}, "+");
      btn.addEventListener("click", function () { compose(key, btn); });
      tools.appendChild(btn);
    }
  });
  var count = document.querySelector("[data-comment-count]");
  if (count) {
    var open = Number(p.getAttribute("data-open") || 0);
    count.textContent = open === 1 ? "1 comment" : open + " comments";
  }
}

// showThreads brings the first thread on a block into view.
function showThreads(key) {
  var p = panel();
  var t = p && p.querySelector('[data-thread][data-block="' + CSS.escape(key) + '"]:not([hidden])');
  if (!t) return;
  highlight(key, false);
  t.classList.add("thread-current");
  t.scrollIntoView({ block: "nearest", behavior: "smooth" });
  var a = t.querySelector("article");
  a.tabIndex = -1;
  a.focus();
}

var returnTo = null;

// compose opens the composer on a block: chosen, highlighted, focused.
function compose(key, from) {
  var p = panel();
  var sel = p && p.querySelector("[data-comment-node]");
  var body = p && p.querySelector("[data-composer] textarea");
  if (!body) return;
  if (sel) sel.value = key;
  returnTo = from || null;
  highlight(key, false);
  p.querySelector("[data-composer]").classList.add("composing");
  body.scrollIntoView({ block: "nearest" });
  body.focus();
}

// closeComposer leaves a composer: an edit form closes; the new
// comment's form forgets its block; focus returns where it came from.
function closeComposer(field) {
  closeSuggestions();
  var details = field.closest("details");
  if (details) {
    details.open = false;
    details.querySelector("summary").focus();
    return;
  }
  var form = field.closest("[data-composer]");
  if (form) {
    form.classList.remove("composing");
    var sel = form.querySelector("[data-comment-node]");
    if (sel && !field.value) sel.value = "";
    highlight(null);
    if (returnTo && document.contains(returnTo)) returnTo.focus(); else field.blur();
    returnTo = null;
    return;
  }
  field.blur();
}

// send posts a comment form and puts the threads the server answers in
// place, keeping the focus in the thread it was in.
function send(form) {
  var thread = form.closest("[data-thread]");
  var threadID = thread ? thread.id : "";
  var kind = form.matches("[data-composer]") ? "new" : (form.action.match(/\/(replies|edit|delete|resolve|reopen|react)$/) || [])[1];
  var btn = form.querySelector("[type=submit]");
  if (btn) btn.disabled = true;
  var pressed = btn && btn.getAttribute("aria-label");
  Q.post(form.action, new FormData(form), {"X-Quire-Fragment": "threads"}).then(function (res) {
    return res.text().then(function (html) { return { ok: res.ok, html: html }; });
  }).then(function (r) {
    if (!r.ok) { if (btn) btn.disabled = false; fail(form, r.html); return; }
    var doc = new DOMParser().parseFromString(r.html, "text/html");
    var fresh = doc.querySelector("[data-comments]");
    var old = panel();
    if (!fresh || !old) return;
    // Keep the text of other threads' unsent replies.
    var drafts = {};
    old.querySelectorAll("textarea").forEach(function (t) { if (t.value && t.closest("form") !== form) drafts[t.id] = t.value; });
    old.replaceWith(document.importNode(fresh, true));
    var p = panel();
    Object.keys(drafts).forEach(function (id) { var t = document.getElementById(id); if (t && !t.closest("details")) t.value = drafts[id]; });
    init(p);
    decorate();
    var t = threadID && document.getElementById(threadID);
    var focus = null;
    if (kind === "new") {
      var threads = p.querySelectorAll("[data-thread]");
      var newest = null;
      threads.forEach(function (n) { if (!newest || n.querySelector("time").dateTime >= newest.querySelector("time").dateTime) newest = n; });
      focus = newest && newest.querySelector("article");
      highlight(null);
    } else if (t && kind === "react") {
      focus = t.querySelector('[aria-label="' + CSS.escape(pressed || "") + '"]') ||
        Array.prototype.find.call(t.querySelectorAll(".reaction"), function (b) { return b.getAttribute("aria-label").split(",")[0] === (pressed || "").split(",")[0]; });
    } else if (t && kind === "replies") {
      focus = t.querySelector(".reply-form textarea");
    } else if (t) {
      focus = t.querySelector("article");
    }
    if (!focus) focus = p.querySelector("h2");
    if (focus) {
      if (!focus.matches("button, textarea, a")) focus.tabIndex = -1;
      focus.focus();
    }
  }).catch(function () {
    if (btn) btn.disabled = false;
    fail(form, "");
  });
}

// fail shows the server's message for a refused form inside the form.
function fail(form, html) {
  var msg = "The comment could not be sent. Check your connection and try again.";
  if (html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var p = doc.querySelector("main .card p, main p");
    if (p && p.textContent.trim()) msg = p.textContent.trim();
  }
  var box = form.querySelector(".form-error") || form.appendChild(el("p", {"class": "form-error", role: "alert"}));
  box.textContent = msg;
}

// Mentions: "@" and a few letters before the caret suggest members.
var list = null, field = null, choices = [], active = -1;

function closeSuggestions() {
  if (list) list.remove();
  if (field) { field.removeAttribute("aria-activedescendant"); field.setAttribute("aria-expanded", "false"); }
  list = null; choices = []; active = -1;
}

function mentionQuery(t) {
  var before = t.value.slice(0, t.selectionStart);
  var m = before.match(/(^|\s)@([^\s@\[\]()]{0,30})$/);
  return m ? m[2] : null;
}

function suggest(t) {
  var p = panel();
  var url = p && p.getAttribute("data-members");
  var q = mentionQuery(t);
  if (!url || q === null) { closeSuggestions(); return; }
  lookup(t, url, q);
}
var lookup = Q.debounce(function (t, url, q) {
  fetch(url + "?q=" + encodeURIComponent(q)).then(function (r) { return r.ok ? r.json() : []; }).then(function (members) {
    if (document.activeElement === t && mentionQuery(t) === q) show(t, members);
  });
}, 120);

function show(t, members) {
  closeSuggestions();
  if (!members.length) return;
  field = t;
  choices = members;
  list = el("ul", {"class": "mention-list", id: t.id + "-mentions", role: "listbox", "aria-label": "Members to mention"});
  members.forEach(function (m, i) {
    var li = el("li", {id: list.id + "-" + i, role: "option", "aria-selected": "false"}, [document.createTextNode(m.name), el("span", {"class": "muted"}, " " + m.email)]);
    li.addEventListener("mousedown", function (ev) { ev.preventDefault(); choose(i); });
    list.appendChild(li);
  });
  t.setAttribute("aria-controls", list.id);
  t.setAttribute("aria-expanded", "true");
  t.insertAdjacentElement("afterend", list);
  move(0);
}

function move(i) {
  if (!list) return;
  active = (i + choices.length) % choices.length;
  Q.options(list, field, active);
}

function choose(i) {
  var t = field, m = choices[i];
  if (!t || !m) return;
  var start = t.selectionStart;
  var before = t.value.slice(0, start);
  var at = before.lastIndexOf("@");
  t.value = before.slice(0, at) + m.markdown + " " + t.value.slice(start);
  var caret = at + m.markdown.length + 1;
  t.setSelectionRange(caret, caret);
  closeSuggestions();
  t.focus();
}

// init wires a panel's forms and controls (again after each swap).
function init(p) {
  if (!p) return;
  p.querySelectorAll("textarea[data-mention]").forEach(function (t) {
    t.setAttribute("aria-autocomplete", "list");
    t.addEventListener("input", function () { suggest(t); });
    t.addEventListener("blur", function () { setTimeout(function () { if (field === t) closeSuggestions(); }, 150); });
  });
  var toggle = p.querySelector("[data-show-resolved]");
  if (toggle) {
    toggle.addEventListener("click", function (e) {
      e.preventDefault();
      var on = toggle.getAttribute("aria-pressed") !== "true";
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      p.querySelectorAll(".thread-resolved").forEach(function (t) { t.hidden = !on; });
    });
    toggle.addEventListener("keydown", function (e) { if (e.key === " ") { e.preventDefault(); toggle.click(); } });
  }
  p.querySelectorAll("[data-show-block]").forEach(function (b) {
    b.addEventListener("click", function () { highlight(b.getAttribute("data-show-block"), true); });
  });
  var sel = p.querySelector("[data-comment-node]");
  if (sel) sel.addEventListener("change", function () { highlight(sel.value, true); });
}

document.addEventListener("submit", function (e) {
  var form = e.target;
  if (e.defaultPrevented || !form.matches || !form.matches("[data-comment-form]") || !window.fetch) return;
  e.preventDefault();
  send(form);
});

document.addEventListener("keydown", function (e) {
  var t = e.target;
  if (!t.matches || !t.matches("[data-comments] textarea")) return;
  if (list && field === t) {
    if (e.key === "ArrowDown") { e.preventDefault(); move(active + 1); return; }
    if (e.key === "ArrowUp") { e.preventDefault(); move(active - 1); return; }
    if (e.key === "Enter" || e.key === "Tab") { e.preventDefault(); choose(active); return; }
    if (e.key === "Escape") { e.preventDefault(); closeSuggestions(); return; }
  }
  if (e.key === "Escape") { e.preventDefault(); closeComposer(t); return; }
  // Ctrl+Enter (⌘Enter) sends.
  if (e.key === "Enter" && Q.mod(e)) {
    e.preventDefault();
    t.form.requestSubmit();
  }
});

init(panel());
decorate();
// Live updates put a new page in place: the same again on it.
document.addEventListener("quire:updated", function () { init(panel()); decorate(); });
// A thread named in the address (after a form sent without the
// script) shows its block.
var hashed = location.hash.indexOf("#comment-") === 0 && document.getElementById(location.hash.slice(1));
if (hashed && hashed.getAttribute("data-block")) highlight(hashed.getAttribute("data-block"), false);
})();
