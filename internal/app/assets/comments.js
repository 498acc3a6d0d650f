// Comments: block buttons and counts, forms sent in place, @mentions.
(function () {
"use strict";
var Q = window.Quire, el = Q.el;

var panel = () => document.querySelector("[data-comments]");
var comments = n => n + (n === 1 ? " comment" : " comments");
var blockSel = key => '[data-block="' + CSS.escape(key) + '"]';

function highlight(key, scroll) {
  document.querySelectorAll(".block-highlight").forEach(b => b.classList.remove("block-highlight"));
  var b = key && document.querySelector("main .body .block" + blockSel(key));
  if (!b) return;
  b.classList.add("block-highlight");
  if (scroll) b.scrollIntoView({block: "center", behavior: "smooth"});
}

function decorate() {
  var p = panel(), counts = {};
  if (!p) return;
  p.querySelectorAll("[data-thread][data-block]").forEach(t => {
    var k = t.dataset.block;
    if (!t.hidden && !t.classList.contains("thread-resolved")) counts[k] = (counts[k] || 0) + 1;
  });
  document.querySelectorAll("main .body .block[data-block]").forEach(b => {
    var key = b.dataset.block, n = counts[key] || 0;
    var tools = b.querySelector(":scope > .block-tools") || b.insertBefore(el("div", {class: "block-tools"}), b.firstChild);
    var button = (attrs, text, click) => {
      attrs.type = "button";
      tools.appendChild(el("button", attrs, text)).addEventListener("click", click);
    };
    // Only its own buttons: the editor's link stays.
    tools.querySelectorAll(":scope > .block-count, :scope > .block-comment").forEach(e => e.remove());
    if (n) button({class: "block-count", "aria-label": comments(n) + " on this block"}, n, () => showThreads(key));
    if (p.hasAttribute("data-members")) {
      button({class: "block-comment", "aria-label": "Comment on this block", title: "Comment on this block"}, "+", e => compose(key, e.currentTarget));
    }
  });
  var count = document.querySelector("[data-comment-count]"), open = Number(p.dataset.open || 0);
  if (count) count.textContent = comments(open);
}

function focus(n) {
  if (!n.matches("button, textarea, a")) n.tabIndex = -1;
  n.focus();
}

function showThreads(key) {
  var t = panel().querySelector("[data-thread]" + blockSel(key) + ":not([hidden])");
  if (!t) return;
  highlight(key, false);
  t.classList.add("thread-current");
  t.scrollIntoView({block: "nearest", behavior: "smooth"});
  focus(t.querySelector("article"));
}

var returnTo = null;

function compose(key, from) {
  var p = panel(), sel = p.querySelector("[data-comment-node]"), body = p.querySelector("[data-composer] textarea");
  if (!body) return;
  if (sel) sel.value = key;
  returnTo = from;
  highlight(key, false);
  p.querySelector("[data-composer]").classList.add("composing");
  body.scrollIntoView({block: "nearest"});
  body.focus();
}

// closeComposer closes an edit form, or leaves the new one.
function closeComposer(field) {
  closeSuggestions();
  var details = field.closest("details"), form = field.closest("[data-composer]");
  if (details) {
    details.open = false;
    details.querySelector("summary").focus();
  } else if (form) {
    form.classList.remove("composing");
    var sel = form.querySelector("[data-comment-node]");
    if (sel && !field.value) sel.value = "";
    highlight(null);
    if (returnTo && document.contains(returnTo)) returnTo.focus(); else field.blur();
    returnTo = null;
  } else field.blur();
}

// send posts a form and draws the threads answered, focus kept.
async function send(form) {
  var thread = form.closest("[data-thread]"), threadID = thread ? thread.id : "";
  var kind = form.matches("[data-composer]") ? "new" : (form.action.match(/\/(replies|edit|delete|resolve|reopen|react)$/) || [])[1];
  var btn = form.querySelector("[type=submit]"), pressed = (btn && btn.getAttribute("aria-label")) || "";
  if (btn) btn.disabled = true;
  var html = "";
  try {
    var res = await Q.post(form.action, new FormData(form), {"X-Quire-Fragment": "threads"});
    html = await res.text();
    if (!res.ok) throw new Error(res.status);
  } catch (err) {
    if (btn) btn.disabled = false;
    var msg = html && Q.parse(html).querySelector("main .card p, main p");
    var box = form.querySelector(".form-error") || form.appendChild(el("p", {class: "form-error", role: "alert"}));
    box.textContent = (msg && msg.textContent.trim()) || "The comment could not be sent. Check your connection and try again.";
    return;
  }
  var fresh = Q.parse(html).querySelector("[data-comments]"), old = panel();
  if (!fresh || !old) return;
  // Other threads' unsent replies stay.
  var drafts = {};
  old.querySelectorAll("textarea").forEach(t => { if (t.value && t.closest("form") !== form) drafts[t.id] = t.value; });
  var p = Q.swap(old, fresh);
  Object.keys(drafts).forEach(id => { var t = document.getElementById(id); if (t && !t.closest("details")) t.value = drafts[id]; });
  var t = threadID && document.getElementById(threadID), to = null;
  if (kind === "new") {
    var newest = null, time = n => n.querySelector("time").dateTime;
    p.querySelectorAll("[data-thread]").forEach(n => { if (!newest || time(n) >= time(newest)) newest = n; });
    to = newest && newest.querySelector("article");
    highlight(null);
  } else if (t && kind === "react") {
    to = t.querySelector('[aria-label="' + CSS.escape(pressed) + '"]') ||
      Array.from(t.querySelectorAll(".reaction")).find(b => b.getAttribute("aria-label").split(",")[0] === pressed.split(",")[0]);
  } else if (t) {
    to = t.querySelector(kind === "replies" ? ".reply-form textarea" : "article");
  }
  to = to || p.querySelector("h2");
  if (to) focus(to);
}

// Mentions: "@" and letters suggest members.
var list = null, field = null, choices = [], active = -1;

function closeSuggestions() {
  if (list) list.remove();
  if (field) { field.removeAttribute("aria-activedescendant"); Q.expand(field, false); }
  list = null; choices = []; active = -1;
}

function mentionQuery(t) {
  var m = t.value.slice(0, t.selectionStart).match(/(^|\s)@([^\s@\[\]()]{0,30})$/);
  return m ? m[2] : null;
}

var lookup = Q.debounce(async (t, url, q) => {
  var r = await fetch(url + "?q=" + encodeURIComponent(q)), members = r.ok ? await r.json() : [];
  if (document.activeElement === t && mentionQuery(t) === q) show(t, members);
}, 120);

function show(t, members) {
  closeSuggestions();
  if (!members.length) return;
  field = t;
  choices = members;
  list = el("ul", {class: "mention-list", id: t.id + "-mentions", role: "listbox", "aria-label": "Members to mention"});
  members.forEach((m, i) => {
    list.appendChild(el("li", {id: list.id + "-" + i, role: "option", "aria-selected": "false"}, [m.name, el("span", {class: "muted"}, " " + m.email)]))
      .addEventListener("mousedown", e => { e.preventDefault(); choose(i); });
  });
  t.setAttribute("aria-controls", list.id);
  Q.expand(t, true);
  t.insertAdjacentElement("afterend", list);
  move(0);
}

function move(i) {
  active = (i + choices.length) % choices.length;
  Q.options(list, field, active);
}

function choose(i) {
  var t = field, m = choices[i];
  if (!t || !m) return;
  var start = t.selectionStart, before = t.value.slice(0, start), at = before.lastIndexOf("@");
  t.value = before.slice(0, at) + m.markdown + " " + t.value.slice(start);
  t.setSelectionRange(at + m.markdown.length + 1, at + m.markdown.length + 1);
  closeSuggestions();
  t.focus();
}

function init() {
  var p = panel();
  if (!p) return;
  p.querySelectorAll("textarea[data-mention]").forEach(t => {
    t.setAttribute("aria-autocomplete", "list");
    t.addEventListener("input", () => {
      var url = p.dataset.members, q = mentionQuery(t);
      if (!url || q === null) closeSuggestions(); else lookup(t, url, q);
    });
    t.addEventListener("blur", () => setTimeout(() => { if (field === t) closeSuggestions(); }, 150));
  });
  var toggle = p.querySelector("[data-show-resolved]");
  if (toggle) {
    toggle.addEventListener("click", e => {
      var on = toggle.getAttribute("aria-pressed") !== "true";
      e.preventDefault();
      Q.expand(toggle, on, "aria-pressed");
      p.querySelectorAll(".thread-resolved").forEach(t => { t.hidden = !on; });
    });
  }
  p.querySelectorAll("[data-show-block]").forEach(b => {
    b.addEventListener("click", () => highlight(b.dataset.showBlock, true));
  });
  var sel = p.querySelector("[data-comment-node]");
  if (sel) sel.addEventListener("change", () => highlight(sel.value, true));
  decorate();
}

document.addEventListener("submit", e => {
  var form = Q.up(e, "[data-comment-form]");
  if (e.defaultPrevented || !form) return;
  e.preventDefault();
  send(form);
});

document.addEventListener("keydown", e => {
  var t = Q.up(e, "[data-comments] textarea"), k = e.key;
  if (!t) return;
  if (list && field === t && /^(ArrowDown|ArrowUp|Enter|Tab|Escape)$/.test(k)) {
    e.preventDefault();
    if (k === "Escape") closeSuggestions(); else if (k[0] === "A") move(active + (k === "ArrowDown" ? 1 : -1)); else choose(active);
  } else if (k === "Escape") {
    e.preventDefault();
    closeComposer(t);
  } else if (k === "Enter" && Q.mod(e)) {
    e.preventDefault();
    t.form.requestSubmit();
  }
});

init();
document.addEventListener("quire:updated", init);
// A thread named in the address shows its block.
var hashed = location.hash.indexOf("#comment-") === 0 && document.getElementById(location.hash.slice(1));
if (hashed && hashed.dataset.block) highlight(hashed.dataset.block, false);
})();
