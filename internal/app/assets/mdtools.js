// Markdown tools of every textarea marked data-markdown: a toolbar of
// marks, an insert menu ("/" alone on a line, or the "Insert block"
// button), shortcuts for marks, uploads of pasted or dropped files
// (data-upload) and pasted HTML made Markdown (data-convert). Listeners
// sit on the document, so textareas added later get them too.
(function () {
"use strict";

var Q = window.Quire, el = Q.el;
var SELECTOR = "textarea[data-markdown]";
var BLOCKS_URL = "/app/~/blocks.json";
var mac = /Mac|iPhone|iPad/.test(navigator.platform || "");

// The marks: their toolbar button, shortcut (Ctrl or ⌘, maybe Shift, and
// key) and Markdown markers; the link has its own.
var MARKS = [
  { id: "bold", label: "Bold", text: "B", key: "b", before: "**", after: "**" },
  { id: "italic", label: "Italic", text: "I", key: "i", before: "_", after: "_" },
  { id: "strike", label: "Strikethrough", text: "S", key: "x", shift: true, before: "~~", after: "~~" },
  { id: "code", label: "Inline code", text: "</>", key: "e", before: "`", after: "`" },
  { id: "link", label: "Link", text: "Link", key: "k" }
];

function isMarkdown(t) { return t && t.matches && t.matches(SELECTOR); }

// Toolbar.

var counter = 0;
function uid(prefix) { counter++; return prefix + "-" + counter + "-" + Math.random().toString(36).slice(2, 7); }

// setup draws the toolbar above a textarea, once.
function setup(ta) {
  if (ta.hasAttribute("data-md-ready")) return;
  ta.setAttribute("data-md-ready", "");
  if (!ta.id) ta.id = uid("md");
  var tools = MARKS.map(function (m) {
    var k = (m.shift ? "Shift+" : "") + m.key.toUpperCase();
    return el("button", {type: "button", "aria-label": m.label === m.text ? null : m.label, "class": "md-tool md-tool-" + m.id,
      "data-md-mark": m.id, "aria-keyshortcuts": "Control+" + k + " Meta+" + k, title: m.label + " (" + (mac ? "⌘" : "Ctrl+") + k + ")"}, m.text);
  }).concat(el("button", {type: "button", "class": "md-tool md-insert", "data-md-insert": "", "aria-haspopup": "listbox",
    "aria-expanded": "false", title: "Insert block (or type / on an empty line)"}, "Insert block"));
  ta.parentNode.insertBefore(el("div", {"class": "md-toolbar", role: "toolbar", "aria-label": "Formatting", "aria-controls": ta.id,
    "data-md-for": ta.id}, tools), ta);
  ta.parentNode.insertBefore(el("div", {"class": "md-status", "data-md-status": ""}), ta.nextSibling);
}

function scan(root) {
  if (isMarkdown(root)) setup(root);
  if (root.querySelectorAll) root.querySelectorAll(SELECTOR).forEach(setup);
}
scan(document);
new MutationObserver(function (list) {
  list.forEach(function (m) { m.addedNodes.forEach(function (n) { if (n.nodeType === 1) scan(n); }); });
}).observe(document.documentElement, { childList: true, subtree: true });
document.addEventListener("focusin", function (e) { if (isMarkdown(e.target)) setup(e.target); });

function textareaOf(el) {
  var bar = el.closest && el.closest(".md-toolbar");
  return bar ? document.getElementById(bar.getAttribute("data-md-for")) : null;
}

function statusOf(ta) {
  var s = ta.nextElementSibling;
  return s && s.hasAttribute("data-md-status") ? s : null;
}

// say shows a message beside the textarea: an alert for a failure.
function say(ta, msg, alert) {
  var s = statusOf(ta);
  if (!s) return;
  s.textContent = "";
  s.removeAttribute("role");
  s.classList.toggle("md-error", !!alert);
  if (!msg) return;
  if (alert) s.setAttribute("role", "alert");
  s.textContent = msg;
}

// Editing.

// replace puts text over [start, end) and selects [selStart, selEnd)
// (offsets in the new value). execCommand keeps the browser's undo
// stack and fires "input"; the fallback fires it itself.
function replace(ta, start, end, text, selStart, selEnd) {
  ta.focus();
  ta.setSelectionRange(start, end);
  var before = ta.value;
  var done = false;
  try { done = document.execCommand && document.execCommand("insertText", false, text); } catch (err) { done = false; }
  if (!done || ta.value === before && text !== ta.value.slice(start, end)) {
    ta.setRangeText(text, start, end, "end");
    ta.dispatchEvent(new Event("input", { bubbles: true }));
  }
  if (selStart !== undefined) ta.setSelectionRange(selStart, selEnd === undefined ? selStart : selEnd);
}

// toggleMark wraps the selection in a mark's markers, or takes them
// off when it is wrapped already; with no selection it inserts the
// markers with the cursor between them.
function toggleMark(ta, m) {
  var v = ta.value, s = ta.selectionStart, e = ta.selectionEnd, sel = v.slice(s, e);
  if (m.id === "link") {
    var lm = /^\[([^\]]*)\]\([^)]*\)$/.exec(sel);
    if (lm) { replace(ta, s, e, lm[1], s, s + lm[1].length); return; }
    var text = "[" + sel + "](https://)";
    var urlAt = s + sel.length + 3;
    if (sel) replace(ta, s, e, text, urlAt, urlAt + 8);
    else replace(ta, s, e, "[](https://)", s + 1);
    return;
  }
  var b = m.before, a = m.after;
  if (sel.length >= b.length + a.length && sel.slice(0, b.length) === b && sel.slice(sel.length - a.length) === a) {
    var inner = sel.slice(b.length, sel.length - a.length);
    replace(ta, s, e, inner, s, s + inner.length);
    return;
  }
  if (v.slice(s - b.length, s) === b && v.slice(e, e + a.length) === a) {
    replace(ta, s - b.length, e + a.length, sel, s - b.length, s - b.length + sel.length);
    return;
  }
  replace(ta, s, e, b + sel + a, s + b.length, s + b.length + sel.length);
}

// blockAround returns what goes before and after Markdown inserted over
// [start, end) so that it stands as its own block.
function blockAround(v, start, end) {
  var pre = "", post = "";
  var head = v.slice(0, start);
  if (head && !/\n\n$/.test(head)) pre = /\n$/.test(head) ? "\n" : "\n\n";
  var tail = v.slice(end);
  if (tail && !/^\n/.test(tail)) post = "\n";
  return { pre: pre, post: post };
}

// Insert menu.

var blocks = null, loading = null;
function loadBlocks() {
  if (blocks) return Promise.resolve(blocks);
  if (!loading) {
    loading = fetch(BLOCKS_URL).then(Q.ok).then(function (r) { return r.json(); }).then(function (list) { blocks = list; return list; }, function (err) { loading = null; throw err; });
  }
  return loading;
}

// menu is the open insert menu: its textarea, where the "/" is (-1
// when opened by the button), the filter, the matching blocks and the
// active one.
var menu = null;
var list = null;

function listbox() {
  if (list) return list;
  list = el("ul", {id: "md-insert-menu", "class": "md-menu", role: "listbox", "aria-label": "Insert block", hidden: ""});
  list.addEventListener("mousedown", function (e) { e.preventDefault(); });
  list.addEventListener("click", function (e) {
    var li = e.target.closest("[role=option]");
    if (li && menu) { menu.active = Number(li.getAttribute("data-index")); choose(); }
  });
  document.body.appendChild(list);
  return list;
}

function matches(b, q) {
  if (!q) return true;
  q = q.toLowerCase();
  return (b.name + " " + (b.keywords || []).join(" ")).toLowerCase().indexOf(q) >= 0;
}

function openMenu(ta, slash) {
  loadBlocks().then(function () {
    closeMenu();
    var bar = ta.previousElementSibling;
    menu = { ta: ta, slash: slash, filter: "", items: [], active: 0,
      button: bar && bar.classList.contains("md-toolbar") ? bar.querySelector("[data-md-insert]") : null };
    ta.setAttribute("aria-controls", "md-insert-menu");
    ta.setAttribute("aria-expanded", "true");
    if (menu.button) menu.button.setAttribute("aria-expanded", "true");
    draw();
    place();
    ta.focus();
  }, function () {
    say(ta, "The list of blocks could not be loaded. Try again.", true);
  });
}

function closeMenu() {
  if (!menu) return;
  var ta = menu.ta;
  ta.removeAttribute("aria-activedescendant");
  ta.setAttribute("aria-expanded", "false");
  if (menu.button) menu.button.setAttribute("aria-expanded", "false");
  menu = null;
  if (list) { list.hidden = true; list.textContent = ""; }
}

function draw() {
  var ul = listbox();
  menu.items = blocks.filter(function (b) { return matches(b, menu.filter); });
  if (menu.active >= menu.items.length) menu.active = Math.max(0, menu.items.length - 1);
  ul.textContent = "";
  menu.items.forEach(function (b, i) {
    ul.appendChild(el("li", {id: "md-insert-option-" + i, role: "option", "data-index": i}, b.name));
  });
  if (!menu.items.length) ul.appendChild(el("li", {"class": "md-menu-empty", role: "presentation"}, "No block matches “" + menu.filter + "”"));
  var act = Q.options(ul, menu.ta, menu.active);
  if (act && act.scrollIntoView) act.scrollIntoView({ block: "nearest" });
  ul.hidden = false;
}

// place puts the menu under the cursor's line (found with a mirror of
// the textarea), inside the window.
function place() {
  var ta = menu.ta, ul = listbox();
  var r = ta.getBoundingClientRect();
  var caret = caretOffset(ta, ta.selectionEnd);
  var top = r.top + Math.min(caret.top + caret.height, r.height) + window.scrollY;
  var left = r.left + Math.min(caret.left, Math.max(0, r.width - 40)) + window.scrollX;
  ul.style.top = top + "px";
  var width = ul.offsetWidth || 288;
  var max = window.scrollX + document.documentElement.clientWidth - width - 8;
  ul.style.left = Math.max(window.scrollX + 8, Math.min(left, max)) + "px";
}

function caretOffset(ta, pos) {
  var cs = getComputedStyle(ta);
  var m = el("div", {style: "position:absolute;visibility:hidden;white-space:pre-wrap;overflow-wrap:break-word;top:0;left:-9999px"});
  ["boxSizing", "width", "fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "paddingTop",
    "paddingLeft", "paddingRight", "borderTopWidth", "borderLeftWidth", "borderRightWidth", "tabSize", "wordSpacing"].forEach(function (k) {
    m.style[k] = cs[k];
  });
  m.textContent = ta.value.slice(0, pos);
  var mark = m.appendChild(el("span", {}, "\u200b"));
  document.body.appendChild(m);
  var out = { top: mark.offsetTop - ta.scrollTop, left: mark.offsetLeft - ta.scrollLeft, height: mark.offsetHeight || parseFloat(cs.lineHeight) || 20 };
  document.body.removeChild(m);
  return out;
}

function move(d) {
  if (!menu.items.length) return;
  menu.active = (menu.active + d + menu.items.length) % menu.items.length;
  draw();
}

// choose inserts the active block's Markdown: over the "/" and its
// filter, or at the cursor, as a block of its own.
function choose() {
  var b = menu.items[menu.active];
  if (!b) return;
  var ta = menu.ta, v = ta.value, start = ta.selectionStart, end = ta.selectionEnd;
  if (menu.slash >= 0) { start = menu.slash; end = Math.max(end, menu.slash + 1 + menu.filter.length); }
  closeMenu();
  var md = b.markdown.replace(/\n$/, "");
  var around = blockAround(v, start, end);
  var text = around.pre + md + around.post;
  var at = start + around.pre.length + md.length;
  replace(ta, start, end, text, at);
}

// slashOpens reports whether the "/" just typed before the cursor is
// alone on its line.
function slashOpens(ta) {
  var v = ta.value, p = ta.selectionStart;
  if (p !== ta.selectionEnd || v.charAt(p - 1) !== "/") return false;
  var lineStart = p - 1 === 0 || v.charAt(p - 2) === "\n";
  var lineEnd = p === v.length || v.charAt(p) === "\n";
  return lineStart && lineEnd;
}

document.addEventListener("input", function (e) {
  var ta = e.target;
  if (!isMarkdown(ta)) return;
  if (menu && menu.ta === ta && menu.slash >= 0) {
    var v = ta.value, p = ta.selectionStart;
    var f = v.slice(menu.slash + 1, p);
    if (v.charAt(menu.slash) !== "/" || p <= menu.slash || /\s{2}|\n/.test(f)) { closeMenu(); return; }
    menu.filter = f;
    menu.active = 0;
    draw();
    return;
  }
  if (e.inputType === "insertText" && e.data === "/" && slashOpens(ta)) openMenu(ta, ta.selectionStart - 1);
});

// Keys: the menu's while it is open; the marks' shortcuts otherwise.
// The listener captures, before the app's own "Ctrl+K opens search".
document.addEventListener("keydown", function (e) {
  var ta = e.target;
  if (!isMarkdown(ta)) return;
  if (menu && menu.ta === ta) {
    var handled = true;
    switch (e.key) {
      case "ArrowDown": move(1); break;
      case "ArrowUp": move(-1); break;
      case "Home": if (menu.slash < 0) { menu.active = 0; draw(); } else handled = false; break;
      case "End": if (menu.slash < 0) { menu.active = menu.items.length - 1; draw(); } else handled = false; break;
      case "Enter": if (menu.items.length) choose(); else closeMenu(); break;
      case "Tab": closeMenu(); handled = false; break;
      case "Escape": closeMenu(); break;
      case "Backspace":
        if (menu.slash < 0) { menu.filter = menu.filter.slice(0, -1); menu.active = 0; draw(); } else handled = false;
        break;
      default:
        if (menu.slash < 0 && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          menu.filter += e.key; menu.active = 0; draw();
        } else handled = false;
    }
    if (handled) { e.preventDefault(); e.stopPropagation(); swallow = ta; }
    return;
  }
  if (!Q.mod(e) || e.altKey) return;
  var key = e.key.toLowerCase();
  if (key === "v" && e.shiftKey) { plainPaste = ta; setTimeout(function () { plainPaste = null; }, 1000); return; }
  for (var i = 0; i < MARKS.length; i++) {
    var m = MARKS[i];
    if (m.key === key && !!m.shift === e.shiftKey) {
      e.preventDefault();
      e.stopPropagation();
      toggleMark(ta, m);
      return;
    }
  }
}, true);

// A key the menu took must not reach the text, even where a browser
// sends its character after a cancelled keydown.
var swallow = null;
document.addEventListener("beforeinput", function (e) {
  if (swallow && e.target === swallow) { e.preventDefault(); }
  swallow = null;
}, true);
document.addEventListener("keyup", function () { swallow = null; }, true);

document.addEventListener("click", function (e) {
  var b = Q.up(e, ".md-toolbar button");
  if (!b) {
    if (menu && list && !list.contains(e.target) && e.target !== menu.ta) closeMenu();
    return;
  }
  var ta = textareaOf(b);
  if (!ta) return;
  if (b.hasAttribute("data-md-insert")) {
    if (menu && menu.ta === ta) { closeMenu(); ta.focus(); } else openMenu(ta, -1);
    return;
  }
  var id = b.getAttribute("data-md-mark");
  MARKS.forEach(function (m) { if (m.id === id) toggleMark(ta, m); });
});

document.addEventListener("focusout", function (e) {
  if (menu && e.target === menu.ta) {
    setTimeout(function () { if (menu && document.activeElement !== menu.ta) closeMenu(); }, 150);
  }
});
window.addEventListener("resize", function () { if (menu) place(); });

// Paste and drop.

var plainPaste = null;

// placeholder inserts a line of text as its own block at the cursor and
// returns it, made unique in the textarea.
function placeholder(ta, text) {
  var n = 1, t = text;
  while (ta.value.indexOf(t) >= 0) { n++; t = text + " (" + n + ")"; }
  var v = ta.value, s = ta.selectionStart, e = ta.selectionEnd;
  var around = blockAround(v, s, e);
  replace(ta, s, e, around.pre + t + around.post, s + around.pre.length + t.length);
  return t;
}

// settle replaces a placeholder by text ("" removes it and its line).
function settle(ta, ph, text) {
  var at = ta.value.indexOf(ph);
  if (at < 0) {
    if (text) { var end = ta.value.length; replace(ta, end, end, (blockAround(ta.value, end, end).pre) + text); }
    return;
  }
  var start = at, stop = at + ph.length;
  if (!text) {
    if (ta.value.charAt(stop) === "\n") stop++;
    else if (start > 0 && ta.value.charAt(start - 1) === "\n") start--;
  }
  var keep = ta.selectionStart;
  var delta = text.length - (stop - start);
  replace(ta, start, stop, text);
  if (keep > stop) ta.setSelectionRange(keep + delta, keep + delta);
  else if (keep >= start) ta.setSelectionRange(start + text.length, start + text.length);
}

function answerOf(r) {
  return r.json().catch(function () { return {}; }).then(function (body) {
    if (!r.ok) throw new Error(body.error || "The server answered " + r.status + ".");
    if (typeof body.markdown !== "string") throw new Error("The server's answer held no Markdown.");
    return body.markdown;
  });
}

function upload(ta, file) {
  var url = ta.getAttribute("data-upload");
  if (!url) return;
  var name = file.name || (file.type === "image/png" ? "image.png" : "file");
  var fd = new FormData();
  fd.append("file", file, name);
  say(ta, "Uploading " + name + "…", false);
  fill(ta, "Uploading " + name + "…", fetch(url, { method: "POST", body: fd }), "Uploaded " + name + ".", "", "Could not upload " + name + ": ");
}

// fill puts a placeholder at the cursor, then the Markdown the request
// answers (saying done) or, should it fail, kept (saying failed and why).
function fill(ta, text, req, done, kept, failed) {
  var ph = placeholder(ta, text);
  req.then(answerOf).then(function (md) {
    settle(ta, ph, md.replace(/\n+$/, ""));
    say(ta, done, false);
  }).catch(function (err) {
    settle(ta, ph, kept);
    say(ta, failed + err.message, true);
  });
}

function convert(ta, html, plain) {
  fill(ta, "Converting pasted content…", Q.post(ta.getAttribute("data-convert"), {html: html}), "", plain,
    "The pasted content was kept as plain text: ");
}

function filesOf(dt) {
  if (!dt) return [];
  if (dt.files && dt.files.length) return Array.from(dt.files);
  return Array.from(dt.items || []).filter(function (it) { return it.kind === "file"; })
    .map(function (it) { return it.getAsFile(); }).filter(Boolean);
}

document.addEventListener("paste", function (e) {
  var ta = e.target;
  if (!isMarkdown(ta)) return;
  var dt = e.clipboardData;
  var files = filesOf(dt);
  if (files.length && ta.hasAttribute("data-upload")) {
    e.preventDefault();
    files.forEach(function (f) { upload(ta, f); });
    return;
  }
  if (plainPaste === ta) { plainPaste = null; return; }
  var html = dt && dt.getData("text/html");
  if (html && /<[a-z]/i.test(html) && ta.hasAttribute("data-convert")) {
    e.preventDefault();
    convert(ta, html, dt.getData("text/plain") || "");
  }
});

document.addEventListener("dragover", function (e) {
  if (isMarkdown(e.target) && e.target.hasAttribute("data-upload") && e.dataTransfer &&
      Array.prototype.indexOf.call(e.dataTransfer.types || [], "Files") >= 0) {
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }
});
document.addEventListener("drop", function (e) {
  var ta = e.target;
  if (!isMarkdown(ta) || !ta.hasAttribute("data-upload")) return;
  var files = filesOf(e.dataTransfer);
  if (!files.length) return;
  e.preventDefault();
  ta.focus();
  files.forEach(function (f) { upload(ta, f); });
});
})();
