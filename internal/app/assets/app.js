// The app's enhancements; every page works without them.
(function () {
  "use strict";

  // "/" or Ctrl+K (⌘K) anywhere but a text field opens search.
  document.addEventListener("keydown", function (e) {
    var search = document.getElementById("search-input");
    if (!search) return;
    var t = e.target;
    var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if ((e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) ||
        (e.key === "k" && (e.ctrlKey || e.metaKey))) {
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
  // "Spaces" heading (data-drop) sends the same move form as the page's
  // "Move to" select, which stays the keyboard way.
  var dragged = null;
  document.addEventListener("dragstart", function (e) {
    var a = e.target.closest && e.target.closest("[data-move]");
    if (!a) return;
    dragged = a;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/uri-list", a.href);
  });
  document.addEventListener("dragend", function () { dragged = null; mark(null); });
  function dropTarget(e) {
    var t = e.target.closest && e.target.closest("[data-drop]");
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
    var f = document.createElement("form");
    f.method = "post";
    f.action = dragged.getAttribute("data-move");
    var p = document.createElement("input");
    p.type = "hidden";
    p.name = "parent";
    p.value = t.getAttribute("data-drop");
    f.appendChild(p);
    document.body.appendChild(f);
    f.submit();
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

  // A branch of a space's page tree whose pages were not drawn (marked
  // data-branch) loads them when first opened; the reader's script opens
  // and closes it, and the toggles among its pages. Should the load fail,
  // the branch's own page, which shows it open, is opened instead.
  function loadBranch(btn) {
    var list = document.getElementById(btn.getAttribute("aria-controls"));
    var url = btn.getAttribute("data-branch");
    if (!list || !url || list.children.length) return;
    btn.removeAttribute("data-branch");
    list.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      list.innerHTML = html;
    }).catch(function () {
      var link = btn.parentNode.querySelector("a");
      if (link) location.href = link.href;
    }).finally(function () { list.removeAttribute("aria-busy"); });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest(".tree-toggle[data-branch]");
    if (btn) loadBranch(btn);
  });
})();
