// Live updates: the inbox count, and main fetched again on its activity.
(function () {
"use strict";
if (!window.EventSource) return;
var Q = window.Quire, el = Q.el;
var main = document.getElementById("main");
var link = document.querySelector(".inbox-link[data-live]");
var url = (main && main.dataset.live) || (link && link.dataset.live);
if (!url) return;
var cr = main && main.dataset.liveCr;
var inbox = link && link.getAttribute("aria-current") === "page";
var said = document.body.appendChild(el("div", {class: "visually-hidden", role: "status"}));
var verbs = {comment: "commented", review: "reviewed", merge: "merged a change", edit: "edited"};
var pending = [], source;

function unread(n) {
  if (!link || isNaN(n)) return;
  var box = link.querySelector("[data-inbox-count]"), value = link.querySelector("[data-inbox-count-value]");
  if (box && value) { value.textContent = n; box.hidden = n === 0; }
  link.setAttribute("aria-label", n === 0 ? "Inbox" : "Inbox, " + n + " unread");
}

function concerns(a) {
  if (cr) return String(a.number) === cr;
  return a.number ? a.kind === "merge" : a.kind !== "review";
}

// busy: a field in main is focused or changed, or an editor or menu open.
function busy() {
  var f = document.activeElement;
  if (f && main.contains(f) && /^(TEXTAREA|INPUT|SELECT)$/.test(f.tagName)) return true;
  if (main.querySelector("form.block-editor, form[data-markdown-form], [aria-haspopup][aria-expanded=true]")) return true;
  return Array.from(main.querySelectorAll("input, textarea, select")).some(t => {
    if (t.type === "checkbox" || t.type === "radio") return t.checked !== t.defaultChecked;
    if (t.tagName === "SELECT") {
      var d = 0;
      Array.from(t.options).forEach((o, i) => { if (o.defaultSelected) d = i; });
      return !t.multiple && t.selectedIndex !== d;
    }
    return t.type !== "hidden" && t.value !== t.defaultValue;
  });
}

function offer(text) {
  var old = main.querySelector(".live-notice");
  if (old) old.remove();
  var b = el("button", {type: "button"}, "Show");
  var p = main.insertBefore(el("p", {class: "notice live-notice"}, [text + " ", b]), main.firstChild);
  // While writing, the page reloads: the editor guards unsaved text.
  b.addEventListener("click", () => { if (busy()) location.reload(); else { p.remove(); refresh("", true); } });
}

async function refresh(text, asked) {
  if (!asked && busy()) return offer(text);
  try {
    var r = await fetch(location.href, {credentials: "same-origin", headers: {Accept: "text/html"}});
    // Signed out meanwhile.
    if (r.redirected) return location.reload();
    var next = Q.parse(await Q.ok(r).text()).getElementById("main");
    if (!next) throw new Error("no main");
    if (!asked && busy()) return offer(text);
    var y = window.scrollY;
    Q.swap(main, next, true);
    window.scrollTo(0, y);
    if (text) said.textContent = text;
  } catch (err) {
    if (text) offer(text);
  }
}

var flush = Q.debounce(() => {
  var t = pending.filter((x, i) => x && pending.indexOf(x) === i).join(" ");
  pending = [];
  refresh(t, false);
}, 300);
var later = text => { pending.push(text); flush(); };

function connect() {
  source = new EventSource(url);
  // The page follows from the stream's first answer on.
  source.addEventListener("open", () => { document.documentElement.dataset.live = "open"; });
  source.addEventListener("unread", e => {
    var n = parseInt(e.data, 10), before = link && link.querySelector("[data-inbox-count-value]");
    var changed = before && before.textContent !== String(n);
    unread(n);
    if (inbox && changed) later("");
  });
  source.addEventListener("activity", e => {
    var a;
    try { a = JSON.parse(e.data); } catch (err) { return; }
    if (concerns(a)) later((a.actorName || "Someone") + " " + (verbs[a.kind] || "made a change") + ".");
  });
  source.addEventListener("missed", () => later("This page changed."));
}
connect();
window.addEventListener("pagehide", () => source.close());
// Back from the back-forward cache.
window.addEventListener("pageshow", e => { if (e.persisted) connect(); });
})();
