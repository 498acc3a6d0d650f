// Page operations in an editable page tree: each page's actions link
// becomes a menu button, and pages move by drag and drop. Without this
// script the links lead to the same operations' form pages.
(function () {
  "use strict";

  var tree = document.querySelector(".space-tree[data-edit]");
  if (!tree) return;
  var base = tree.getAttribute("data-edit");
  var menus = 0;

  // post sends a form to the server as a person's submit would.
  function post(action, fields) {
    var f = document.createElement("form");
    f.method = "post";
    f.action = action;
    Object.keys(fields).forEach(function (k) {
      var i = document.createElement("input");
      i.type = "hidden";
      i.name = k;
      i.value = fields[k];
      f.appendChild(i);
    });
    document.body.appendChild(f);
    f.submit();
  }

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
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "tree-actions";
    btn.setAttribute("aria-label", link.getAttribute("aria-label"));
    btn.setAttribute("aria-haspopup", "menu");
    btn.setAttribute("aria-expanded", "false");
    btn.innerHTML = '<span aria-hidden="true">⋯</span>';
    var menu = document.createElement("ul");
    menu.className = "tree-menu";
    menu.setAttribute("role", "menu");
    menu.id = "page-menu-" + (++menus);
    menu.setAttribute("aria-label", link.getAttribute("aria-label"));
    menu.hidden = true;
    btn.setAttribute("aria-controls", menu.id);
    [
      ["Add subpage", base + "/new?parent=" + encodeURIComponent(id)],
      ["Add page after", base + "/new?after=" + encodeURIComponent(id)],
      ["Rename", page + "/rename"],
      ["Duplicate", null, function () { post(page + "/duplicate", {}); }],
      ["Move", page + "/move"],
      ["Page settings", page + "/settings"],
      ["Delete", page + "/delete", null, true]
    ].forEach(function (it) {
      var li2 = document.createElement("li");
      li2.setAttribute("role", "none");
      var el;
      if (it[1]) {
        el = document.createElement("a");
        el.href = it[1];
      } else {
        el = document.createElement("button");
        el.type = "button";
        el.addEventListener("click", it[2]);
      }
      el.setAttribute("role", "menuitem");
      el.tabIndex = -1;
      el.textContent = it[0];
      if (it[3]) el.className = "danger";
      li2.appendChild(el);
      menu.appendChild(li2);
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
    var wrap = document.createElement("span");
    wrap.className = "tree-actions-wrap";
    wrap.appendChild(btn);
    wrap.appendChild(menu);
    link.replaceWith(wrap);
  }

  function enhanceAll(root) {
    root.querySelectorAll("a.tree-actions").forEach(enhance);
  }
  enhanceAll(tree);
  // Branches the tree loads later get their menus too.
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      r.addedNodes.forEach(function (n) {
        if (n.nodeType === 1) enhanceAll(n);
      });
    });
  }).observe(tree, { childList: true, subtree: true });

  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest(".tree-actions-wrap")) closeAll(null);
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
    var li = e.target.closest && e.target.closest("li[data-page]");
    if (!li) return;
    dragged = li.getAttribute("data-page");
    if (e.dataTransfer) {
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", dragged);
    }
    li.classList.add("dragging");
  });
  tree.addEventListener("dragend", function (e) {
    var li = e.target.closest && e.target.closest("li[data-page]");
    if (li) li.classList.remove("dragging");
    unmark();
    dragged = null;
  });
  tree.addEventListener("dragover", function (e) {
    if (!dragged) return;
    var row = e.target.closest && e.target.closest("li[data-page] > .tree-row");
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
    var row = e.target.closest && e.target.closest("li[data-page] > .tree-row");
    if (!row) return;
    e.preventDefault();
    var target = row.parentElement.getAttribute("data-page");
    var place = placeOf(row, e);
    var id = dragged;
    unmark();
    dragged = null;
    if (target === id) return;
    post(base + "/" + encodeURIComponent(id) + "/move", { target: target, place: place });
  });
})();
