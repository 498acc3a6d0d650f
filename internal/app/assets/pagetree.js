// An editable page tree: actions menus, and drag and drop.
(function () {
"use strict";

var Q = window.Quire, el = Q.el;
var tree = document.querySelector(".space-tree[data-edit]");
if (!tree) return;
var base = tree.dataset.edit;
var menus = 0;

var items = menu => Array.from(menu.querySelectorAll("[role=menuitem]"));

function toggle(btn, open, focus) {
  var menu = Q.controls(btn);
  Q.expand(btn, open);
  menu.hidden = !open;
  if (focus) btn.focus();
  return menu;
}

function closeAll(except) {
  tree.querySelectorAll("button.tree-actions[aria-expanded=true]").forEach(b => { if (b !== except) toggle(b, false); });
}

function open(btn, last) {
  closeAll(btn);
  var list = items(toggle(btn, true));
  list[last ? list.length - 1 : 0].focus();
}

function enhance(link) {
  var li = link.closest("li[data-page]");
  if (!li) return;
  var id = encodeURIComponent(li.dataset.page), page = base + "/" + id;
  var label = link.getAttribute("aria-label"), mid = "page-menu-" + (++menus);
  var btn = el("button", {type: "button", class: "tree-actions", "aria-label": label, "aria-haspopup": "menu",
    "aria-expanded": "false", "aria-controls": mid}, [el("span", {"aria-hidden": "true"}, "⋯")]);
  var menu = el("ul", {class: "tree-menu", role: "menu", id: mid, "aria-label": label, hidden: ""});
  [
    ["Add subpage", base + "/new?parent=" + id],
    ["Add page after", base + "/new?after=" + id],
    ["Rename", page + "/rename"],
    ["Duplicate"],
    ["Move", page + "/move"],
    ["Page settings", page + "/settings"],
    ["Delete", page + "/delete", "danger"]
  ].forEach(([text, href, cls]) => {
    var a = el(href ? "a" : "button", {href, type: href ? null : "button", role: "menuitem", tabindex: "-1", class: cls}, text);
    if (!href) a.addEventListener("click", () => Q.submit(page + "/duplicate", {}));
    menu.appendChild(el("li", {role: "none"}, [a]));
  });
  btn.addEventListener("click", () => {
    if (btn.getAttribute("aria-expanded") === "true") toggle(btn, false); else open(btn, false);
  });
  btn.addEventListener("keydown", e => {
    if (/^Arrow(Down|Up)$/.test(e.key)) { e.preventDefault(); open(btn, e.key === "ArrowUp"); }
  });
  menu.addEventListener("keydown", e => {
    var list = items(menu), to = Q.step(e.key, list.indexOf(document.activeElement), list.length, "ArrowUp", "ArrowDown");
    if (e.key === "Escape") { e.preventDefault(); toggle(btn, false, true); }
    else if (e.key === "Tab") toggle(btn, false);
    else if (to >= 0) { e.preventDefault(); list[to].focus(); }
  });
  link.replaceWith(el("span", {class: "tree-actions-wrap"}, [btn, menu]));
}

Q.added(tree, root => root.querySelectorAll("a.tree-actions").forEach(enhance));

document.addEventListener("click", e => { if (!Q.up(e, ".tree-actions-wrap")) closeAll(null); });

// A page dropped on another's row goes before, after or inside it.
// An item of a data-kind goes next to its kind, or inside data-holds.
var dragged = null, kind, marked = null;

function unmark() {
  if (marked) marked.classList.remove("drop-before", "drop-after", "drop-inside");
  marked = null;
}

function placeOf(row, e) {
  var d = row.parentElement.dataset, box = row.getBoundingClientRect(), y = (e.clientY - box.top) / box.height, i = d.holds == kind;
  return d.kind != kind ? i && "inside" : y < 1 / 4 || !i && y < .5 ? "before" : y > 3 / 4 || !i ? "after" : "inside";
}

function rowOf(e) {
  var row = dragged && Q.up(e, "li[data-page] > .tree-row");
  return row && !row.closest('li[data-page="' + CSS.escape(dragged) + '"]') && placeOf(row, e) ? row : null;
}

tree.addEventListener("dragstart", e => {
  var li = Q.up(e, "li[data-page]");
  if (!li) return;
  dragged = li.dataset.page;
  kind = li.dataset.kind;
  if (e.dataTransfer) {
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", dragged);
  }
  li.classList.add("dragging");
});
tree.addEventListener("dragend", e => {
  var li = Q.up(e, "li[data-page]");
  if (li) li.classList.remove("dragging");
  unmark();
  dragged = null;
});
tree.addEventListener("dragover", e => {
  var row = rowOf(e);
  if (!row) return;
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
  unmark();
  marked = row;
  row.classList.add("drop-" + placeOf(row, e));
});
tree.addEventListener("dragleave", e => { if (marked && e.target === marked) unmark(); });
tree.addEventListener("drop", e => {
  var row = rowOf(e), id = dragged;
  if (!row) return;
  e.preventDefault();
  unmark();
  dragged = null;
  Q.submit(base + "/" + encodeURIComponent(id) + "/move", {target: row.parentElement.dataset.page, place: placeOf(row, e)});
});
})();
