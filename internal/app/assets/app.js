// The app's enhancements; every page works without them.
(function () {
"use strict";

// Helpers the app's other scripts share; this script loads before them.
var Q = window.Quire = {
  // el makes an element with attributes (null ones left out) and either
  // text or an array of children.
  el: function (tag, attrs, kids) {
    var n = document.createElement(tag);
    for (var k in attrs) if (attrs[k] != null) n.setAttribute(k, attrs[k]);
    if (Array.isArray(kids)) kids.forEach(function (c) { n.appendChild(c); }); else if (kids) n.textContent = kids;
    return n;
  },
  // submit sends hidden fields as a form, as a person's submit would.
  submit: function (action, fields) {
    var f = Q.el("form", {method: "post", action: action});
    for (var k in fields) f.appendChild(Q.el("input", {type: "hidden", name: k, value: fields[k]}));
    document.body.appendChild(f);
    f.submit();
  },
  // up is the event target's nearest element matching sel, if any.
  up: function (e, sel) { return e.target.closest ? e.target.closest(sel) : null; },
  // mod tells whether Ctrl or ⌘ is held.
  mod: function (e) { return e.ctrlKey || e.metaKey; },
  // ok passes a response on, or fails on an error status.
  ok: function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r; },
  // post sends fields form-encoded; headers are added to the request's.
  post: function (url, fields, headers) {
    return fetch(url, {method: "POST", headers: headers, body: new URLSearchParams(fields)});
  },
  // debounce calls fn ms after the last of a run of calls, with its arguments.
  debounce: function (fn, ms) {
    var t = null;
    return function () {
      var a = arguments;
      clearTimeout(t);
      t = setTimeout(function () { fn.apply(null, a); }, ms);
    };
  },
  // options marks option i of a listbox selected, field pointing at it,
  // and returns it.
  options: function (list, field, i) {
    var o = list.querySelectorAll("[role=option]");
    o.forEach(function (n, j) { n.setAttribute("aria-selected", j === i ? "true" : "false"); });
    if (o[i]) field.setAttribute("aria-activedescendant", o[i].id); else field.removeAttribute("aria-activedescendant");
    return o[i];
  }
};

// "/" or Ctrl+K (⌘K) anywhere but a text field opens search.
document.addEventListener("keydown", function (e) {
  var search = document.getElementById("search-input");
  if (!search) return;
  var t = e.target;
  var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  if ((e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) ||
      (e.key === "k" && Q.mod(e))) {
    e.preventDefault();
    search.focus();
    search.select();
  }
});

// A form marked data-confirm asks before it is sent; once asked, its
// empty "confirm" field says so, and the server skips its own page.
document.addEventListener("submit", function (e) {
  var msg = e.target.getAttribute && e.target.getAttribute("data-confirm");
  if (!msg) return;
  if (!window.confirm(msg)) { e.preventDefault(); return; }
  var c = e.target.querySelector("input[name=confirm]");
  if (c && !c.value) c.value = "yes";
});

// Dragging a tree item marked data-move onto a collection or the
// "Spaces" heading (data-drop) sends the page's "Move to" form, which
// stays the keyboard way.
var dragged = null;
document.addEventListener("dragstart", function (e) {
  var a = Q.up(e, "[data-move]");
  if (!a) return;
  dragged = a;
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/uri-list", a.href);
});
document.addEventListener("dragend", function () { dragged = null; mark(null); });
function dropTarget(e) {
  var t = Q.up(e, "[data-drop]");
  return dragged && t && t !== dragged ? t : null;
}
function mark(t) {
  document.querySelectorAll(".drop-over").forEach(function (n) { if (n !== t) n.classList.remove("drop-over"); });
  if (t) t.classList.add("drop-over");
}
document.addEventListener("dragover", function (e) {
  var t = dropTarget(e);
  mark(t);
  if (t) { e.preventDefault(); e.dataTransfer.dropEffect = "move"; }
});
document.addEventListener("drop", function (e) {
  var t = dropTarget(e);
  if (!t) return;
  e.preventDefault();
  Q.submit(dragged.getAttribute("data-move"), {parent: t.getAttribute("data-drop")});
});

// A button marked data-copy-text copies its text to the clipboard.
document.querySelectorAll("[data-copy-text]").forEach(function (btn) {
  btn.addEventListener("click", function () {
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(btn.getAttribute("data-copy-text")).then(function () {
      var label = btn.textContent;
      btn.textContent = "Copied";
      setTimeout(function () { btn.textContent = label; }, 1500);
    });
  });
});

// A tree branch whose pages were not drawn (data-branch) loads them when
// first opened (the reader's script toggles it); should that fail, the
// branch's own page, which shows it open, is opened instead.
function loadBranch(btn) {
  var list = document.getElementById(btn.getAttribute("aria-controls"));
  var url = btn.getAttribute("data-branch");
  if (!list || !url || list.children.length) return;
  btn.removeAttribute("data-branch");
  list.setAttribute("aria-busy", "true");
  fetch(url).then(Q.ok).then(function (r) { return r.text(); }).then(function (html) {
    list.innerHTML = html;
  }).catch(function () {
    var link = btn.parentNode.querySelector("a");
    if (link) location.href = link.href;
  }).finally(function () { list.removeAttribute("aria-busy"); });
}
document.addEventListener("click", function (e) {
  var btn = Q.up(e, ".tree-toggle[data-branch]");
  if (btn) loadBranch(btn);
});
})();
