// The app's enhancements; every page works without them.
(function () {
"use strict";

// Helpers the app's scripts share, besides the reader's.
var Q = Object.assign(window.Quire, {
  submit(action, fields) {
    var f = document.body.appendChild(Q.el("form", {method: "post", action}));
    for (var k in fields) f.appendChild(Q.el("input", {type: "hidden", name: k, value: fields[k]}));
    f.submit();
  },
  mod: e => e.ctrlKey || e.metaKey,
  ok(r) { if (!r.ok) throw new Error("HTTP " + r.status); return r; },
  post: (url, fields, headers) => fetch(url, {method: "POST", headers, body: new URLSearchParams(fields)}),
  parse: html => new DOMParser().parseFromString(html, "text/html"),
  // swap puts fresh, or its content when inner, in place of old.
  swap(old, fresh, inner) {
    var n = old;
    if (inner) old.innerHTML = fresh.innerHTML; else old.replaceWith(n = document.importNode(fresh, true));
    document.dispatchEvent(new CustomEvent("quire:updated", {detail: n}));
    return n;
  },
  // added calls fn on root and on each element added to it.
  added(root, fn) {
    fn(root);
    new MutationObserver(rs => rs.forEach(r => r.addedNodes.forEach(n => { if (n.nodeType === 1) fn(n); })))
      .observe(root, {childList: true, subtree: true});
  },
  options(list, field, i) {
    var o = list.querySelectorAll("[role=option]");
    o.forEach((n, j) => Q.expand(n, j === i, "aria-selected"));
    if (o[i]) field.setAttribute("aria-activedescendant", o[i].id); else field.removeAttribute("aria-activedescendant");
    return o[i];
  }
});

// "/" or Ctrl+K (⌘K) anywhere but a text field opens search.
document.addEventListener("keydown", e => {
  var search = document.getElementById("search-input"), t = e.target;
  var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  if (search && ((e.key === "/" && !typing && !Q.mod(e) && !e.altKey) || (e.key === "k" && Q.mod(e)))) {
    e.preventDefault();
    search.focus();
    search.select();
  }
});

// A link drawn as a button (role=button) is pressed by Space too.
document.addEventListener("keydown", e => {
  if (e.key === " " && Q.up(e, "a[role=button]")) { e.preventDefault(); e.target.click(); }
});

// A form marked data-confirm asks first, and says so in its confirm field.
document.addEventListener("submit", e => {
  var msg = e.target.dataset && e.target.dataset.confirm;
  if (!msg) return;
  if (!window.confirm(msg)) { e.preventDefault(); return; }
  var c = e.target.querySelector("input[name=confirm]");
  if (c && !c.value) c.value = "yes";
});

// A tree item (data-move) dropped on a data-drop moves there.
var dragged = null;
var dropTarget = e => {
  var t = Q.up(e, "[data-drop]");
  return dragged && t && t !== dragged ? t : null;
};
var mark = t => {
  document.querySelectorAll(".drop-over").forEach(n => { if (n !== t) n.classList.remove("drop-over"); });
  if (t) t.classList.add("drop-over");
};
document.addEventListener("dragstart", e => {
  var a = Q.up(e, "[data-move]");
  if (!a) return;
  dragged = a;
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/uri-list", a.href);
});
document.addEventListener("dragend", () => { dragged = null; mark(null); });
document.addEventListener("dragover", e => {
  var t = dropTarget(e);
  mark(t);
  if (t) { e.preventDefault(); e.dataTransfer.dropEffect = "move"; }
});
document.addEventListener("drop", e => {
  var t = dropTarget(e);
  if (!t) return;
  e.preventDefault();
  Q.submit(dragged.dataset.move, {parent: t.dataset.drop});
});

// A branch not drawn (data-branch) loads when opened, or its page opens.
document.addEventListener("click", async e => {
  var btn = Q.up(e, ".tree-toggle[data-branch]");
  var list = btn && Q.controls(btn);
  var url = btn && btn.dataset.branch;
  if (!list || !url || list.children.length) return;
  btn.removeAttribute("data-branch");
  list.setAttribute("aria-busy", "true");
  try {
    list.innerHTML = await Q.ok(await fetch(url)).text();
  } catch (err) {
    var link = btn.parentNode.querySelector("a");
    if (link) location.href = link.href;
  }
  list.removeAttribute("aria-busy");
});
})();
