// Page operations in an editable page tree: each page's actions link
// becomes a menu button, and pages move by drag and drop. Without this
// script the links lead to the same operations' form pages.
(function () {
"use strict";

var Q = window.Quire, el = Q.el;
var tree = document.querySelector(".space-tree[data-edit]");
if (!tree) return;
var base = tree.getAttribute("data-edit");
var menus = 0;

function items(menu) {
  return Array.prototype.slice.call(menu.querySelectorAll("[role=menuitem]"));
}

function close(btn, focus) {
  var menu = document.getElementById(btn.getAttribute("aria-controls"));
  btn.setAttribute("aria-expanded", "false");
  if (menu) menu.hidden = true;
  if (focus) btn.focus();
}

function closeAll(except) {
  tree.querySelectorAll("button.tree-actions[aria-expanded=true]").forEach(function (b) {
    if (b !== except) close(b, false);
  });
}

function open(btn, last) {
  closeAll(btn);
  var menu = document.getElementById(btn.getAttribute("aria-controls"));
  btn.setAttribute("aria-expanded", "true");
  menu.hidden = false;
  var list = items(menu);
  list[last ? list.length - 1 : 0].focus();
}

// enhance turns one actions link into a button and its menu.
function enhance(link) {
  var li = link.closest("li[data-page]");
  if (!li) return;
  var id = li.getAttribute("data-page");
  var page = base + "/" + encodeURIComponent(id);
  var label = link.getAttribute("aria-label"), mid = "page-menu-" + (++menus);
  var btn = el("button", {type: "button", "class": "tree-actions", "aria-label": label, "aria-haspopup": "menu",
    "aria-expanded": "false", "aria-controls": mid}, [el("span", {"aria-hidden": "true"}, "⋯")]);
  var menu = el("ul", {"class": "tree-menu", role: "menu", id: mid, "aria-label": label, hidden: ""});
  [
    ["Add subpage", base + "/new?parent=" + encodeURIComponent(id)],
    ["Add page after", base + "/new?after=" + encodeURIComponent(id)],
    ["Rename", page + "/rename"],
    ["Duplicate", null, function () { Q.submit(page + "/duplicate", {}); }],
    ["Move", page + "/move"],
    ["Page settings", page + "/settings"],
    ["Delete", page + "/delete", null, true]
  ].forEach(function (it) {
    var a = el(it[1] ? "a" : "button", {href: it[1], type: it[1] ? null : "button", role: "menuitem",
      tabindex: "-1", "class": it[3] ? "danger" : null}, it[0]);
    if (it[2]) a.addEventListener("click", it[2]);
    menu.appendChild(el("li", {role: "none"}, [a]));
  });
  btn.addEventListener("click", function () {
    if (btn.getAttribute("aria-expanded") === "true") close(btn, false);
    else open(btn, false);
  });
  btn.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      open(btn, e.key === "ArrowUp");
    }
  });
  menu.addEventListener("keydown", function (e) {
    var list = items(menu);
    var i = list.indexOf(document.activeElement);
    var to = -1;
    if (e.key === "ArrowDown") to = (i + 1) % list.length;
    else if (e.key === "ArrowUp") to = (i - 1 + list.length) % list.length;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = list.length - 1;
    else if (e.key === "Escape") { e.preventDefault(); close(btn, true); return; }
    else if (e.key === "Tab") { close(btn, false); return; }
    if (to >= 0) { e.preventDefault(); list[to].focus(); }
  });
  link.replaceWith(el("span", {"class": "tree-actions-wrap"}, [btn, menu]));
}

function enhanceAll(root) {
  root.querySelectorAll("a.tree-actions").forEach(enhance);
}
enhanceAll(tree);
// Branches the tree loads later get their menus too.
new MutationObserver(function (records) {
  records.forEach(function (r) { r.addedNodes.forEach(function (n) { if (n.nodeType === 1) enhanceAll(n); }); });
}).observe(tree, { childList: true, subtree: true });

document.addEventListener("click", function (e) {
  if (!Q.up(e, ".tree-actions-wrap")) closeAll(null);
});

// Drag and drop: a page dropped on another's row goes before it (top
// quarter), after it (bottom quarter) or inside it (the middle).
var dragged = null;
var marked = null;

function unmark() {
  if (marked) marked.classList.remove("drop-before", "drop-after", "drop-inside");
  marked = null;
}

function placeOf(row, e) {
  var box = row.getBoundingClientRect();
  var y = e.clientY - box.top;
  if (y < box.height / 4) return "before";
  if (y > box.height * 3 / 4) return "after";
  return "inside";
}

tree.addEventListener("dragstart", function (e) {
  var li = Q.up(e, "li[data-page]");
  if (!li) return;
  dragged = li.getAttribute("data-page");
  if (e.dataTransfer) {
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", dragged);
  }
  li.classList.add("dragging");
});
tree.addEventListener("dragend", function (e) {
  var li = Q.up(e, "li[data-page]");
  if (li) li.classList.remove("dragging");
  unmark();
  dragged = null;
});
tree.addEventListener("dragover", function (e) {
  if (!dragged) return;
  var row = Q.up(e, "li[data-page] > .tree-row");
  if (!row) return;
  var target = row.parentElement.getAttribute("data-page");
  if (target === dragged || row.closest("li[data-page=\"" + CSS.escape(dragged) + "\"]")) return;
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
  unmark();
  marked = row;
  row.classList.add("drop-" + placeOf(row, e));
});
tree.addEventListener("dragleave", function (e) {
  if (marked && e.target === marked) unmark();
});
tree.addEventListener("drop", function (e) {
  if (!dragged) return;
  var row = Q.up(e, "li[data-page] > .tree-row");
  if (!row) return;
  e.preventDefault();
  var target = row.parentElement.getAttribute("data-page");
  var place = placeOf(row, e);
  var id = dragged;
  unmark();
  dragged = null;
  if (target === id) return;
  Q.submit(base + "/" + encodeURIComponent(id) + "/move", { target: target, place: place });
});
})();
