// Markdown tools of textarea[data-markdown]: marks, insert menu, uploads, paste.
(function () {
"use strict";

var Q = window.Quire, el = Q.el;
var SELECTOR = "textarea[data-markdown]";
var mac = /Mac|iPhone|iPad/.test(navigator.platform || "");

// Marks: button, shortcut (with Ctrl or ⌘) and markers.
var MARKS = [
  {id: "bold", label: "Bold", text: "B", key: "b", mark: "**"},
  {id: "italic", label: "Italic", text: "I", key: "i", mark: "_"},
  {id: "strike", label: "Strikethrough", text: "S", key: "x", shift: true, mark: "~~"},
  {id: "code", label: "Inline code", text: "</>", key: "e", mark: "`"},
  {id: "link", label: "Link", text: "Link", key: "k"}
];

var isMarkdown = t => t && t.matches && t.matches(SELECTOR);

var counter = 0;

function setup(ta) {
  if (ta.hasAttribute("data-md-ready")) return;
  ta.dataset.mdReady = "";
  if (!ta.id) ta.id = "md-" + (++counter) + "-" + Math.random().toString(36).slice(2, 7);
  var tools = MARKS.map(m => {
    var k = (m.shift ? "Shift+" : "") + m.key.toUpperCase();
    return el("button", {type: "button", "aria-label": m.label === m.text ? null : m.label, class: "md-tool md-tool-" + m.id,
      "data-md-mark": m.id, "aria-keyshortcuts": "Control+" + k + " Meta+" + k, title: m.label + " (" + (mac ? "⌘" : "Ctrl+") + k + ")"}, m.text);
  }).concat(el("button", {type: "button", class: "md-tool md-insert", "data-md-insert": "", "aria-haspopup": "listbox",
    "aria-expanded": "false", title: "Insert block (or type / on an empty line)"}, "Insert block"));
  ta.before(el("div", {class: "md-toolbar", role: "toolbar", "aria-label": "Formatting", "aria-controls": ta.id, "data-md-for": ta.id}, tools));
  ta.after(el("div", {class: "md-status", "data-md-status": ""}));
}

Q.added(document.documentElement, root => {
  if (isMarkdown(root)) setup(root);
  root.querySelectorAll(SELECTOR).forEach(setup);
});
document.addEventListener("focusin", e => { if (isMarkdown(e.target)) setup(e.target); });

function say(ta, msg, alert) {
  var s = ta.nextElementSibling;
  if (!s || !s.hasAttribute("data-md-status")) return;
  s.textContent = "";
  s.removeAttribute("role");
  s.classList.toggle("md-error", !!alert);
  if (!msg) return;
  if (alert) s.setAttribute("role", "alert");
  s.textContent = msg;
}

// replace keeps the undo stack (execCommand); its fallback fires "input".
function replace(ta, start, end, text, selStart, selEnd) {
  ta.focus();
  ta.setSelectionRange(start, end);
  var before = ta.value, done = false;
  try { done = document.execCommand && document.execCommand("insertText", false, text); } catch (err) { done = false; }
  if (!done || ta.value === before && text !== ta.value.slice(start, end)) {
    ta.setRangeText(text, start, end, "end");
    ta.dispatchEvent(new Event("input", {bubbles: true}));
  }
  if (selStart !== undefined) ta.setSelectionRange(selStart, selEnd === undefined ? selStart : selEnd);
}

function toggleMark(ta, m) {
  var v = ta.value, s = ta.selectionStart, e = ta.selectionEnd, sel = v.slice(s, e);
  if (m.id === "link") {
    var lm = /^\[([^\]]*)\]\([^)]*\)$/.exec(sel);
    if (lm) replace(ta, s, e, lm[1], s, s + lm[1].length);
    else if (sel) replace(ta, s, e, "[" + sel + "](https://)", s + sel.length + 3, s + sel.length + 11);
    else replace(ta, s, e, "[](https://)", s + 1);
    return;
  }
  var w = m.mark, n = w.length;
  if (sel.length >= 2 * n && sel.startsWith(w) && sel.endsWith(w)) replace(ta, s, e, sel.slice(n, sel.length - n), s, e - 2 * n);
  else if (v.slice(s - n, s) === w && v.slice(e, e + n) === w) replace(ta, s - n, e + n, sel, s - n, e - n);
  else replace(ta, s, e, w + sel + w, s + n, e + n);
}

// blockAround is what text put over [start, end) needs to be a block.
function blockAround(v, start, end) {
  var head = v.slice(0, start), tail = v.slice(end);
  return {pre: head && !/\n\n$/.test(head) ? (/\n$/.test(head) ? "\n" : "\n\n") : "", post: tail && !/^\n/.test(tail) ? "\n" : ""};
}

var blocks = null, loading = null;
function loadBlocks() {
  loading = loading || fetch("/app/~/blocks.json").then(Q.ok).then(r => r.json())
    .then(list => (blocks = list), err => { loading = null; throw err; });
  return loading;
}

// menu is the open insert menu; slash, where its "/" is, or -1.
var menu = null, list = null;

function listbox() {
  if (list) return list;
  list = document.body.appendChild(el("ul", {id: "md-insert-menu", class: "md-menu", role: "listbox", "aria-label": "Insert block", hidden: ""}));
  list.addEventListener("mousedown", e => e.preventDefault());
  list.addEventListener("click", e => {
    var li = e.target.closest("[role=option]");
    if (li && menu) { menu.active = Number(li.dataset.index); choose(); }
  });
  return list;
}

// src, name: entries to list instead of blocks, and their label.
function openMenu(ta, slash, src, name) {
  loadBlocks().then(() => {
    closeMenu();
    var bar = ta.previousElementSibling;
    listbox().setAttribute("aria-label", name || "Insert block");
    menu = {ta, slash, src, filter: "", items: [], active: 0,
      button: bar && bar.classList.contains("md-toolbar") ? bar.querySelector("[data-md-insert]") : null};
    ta.setAttribute("aria-controls", "md-insert-menu");
    Q.expand(ta, true);
    if (menu.button) Q.expand(menu.button, true);
    draw();
    place();
    ta.focus();
  }, () => say(ta, "The list of blocks could not be loaded. Try again.", true));
}

function closeMenu() {
  if (!menu) return;
  menu.ta.removeAttribute("aria-activedescendant");
  Q.expand(menu.ta, false);
  if (menu.button) Q.expand(menu.button, false);
  menu = null;
  if (list) { list.hidden = true; list.textContent = ""; }
}

function draw() {
  var ul = listbox(), q = menu.filter.toLowerCase();
  menu.items = (menu.src || blocks).filter(b => (b.name + " " + (b.keywords || []).join(" ")).toLowerCase().includes(q));
  if (menu.active >= menu.items.length) menu.active = Math.max(0, menu.items.length - 1);
  ul.textContent = "";
  ul.append(...menu.items.map((b, i) => el("li", {id: "md-insert-option-" + i, role: "option", "data-index": i}, b.name)));
  if (!menu.items.length) ul.appendChild(el("li", {class: "md-menu-empty", role: "presentation"}, "No block matches “" + menu.filter + "”"));
  var act = Q.options(ul, menu.ta, menu.active);
  if (act) act.scrollIntoView({block: "nearest"});
  ul.hidden = false;
}

function place() {
  var ta = menu.ta, ul = listbox();
  var r = ta.getBoundingClientRect(), caret = caretOffset(ta, ta.selectionEnd);
  ul.style.top = r.top + Math.min(caret.top + caret.height, r.height) + window.scrollY + "px";
  var left = r.left + Math.min(caret.left, Math.max(0, r.width - 40)) + window.scrollX;
  var max = window.scrollX + document.documentElement.clientWidth - (ul.offsetWidth || 288) - 8;
  ul.style.left = Math.max(window.scrollX + 8, Math.min(left, max)) + "px";
}

// caretOffset finds pos in a hidden copy of the textarea.
function caretOffset(ta, pos) {
  var cs = getComputedStyle(ta);
  // The CSSOM: the policy drops style attributes.
  var m = el("div");
  m.style.cssText = "position:absolute;visibility:hidden;white-space:pre-wrap;overflow-wrap:break-word;top:0;left:-9999px";
  ("boxSizing width fontFamily fontSize fontWeight lineHeight letterSpacing paddingTop paddingLeft paddingRight " +
    "borderTopWidth borderLeftWidth borderRightWidth tabSize wordSpacing").split(" ").forEach(k => { m.style[k] = cs[k]; });
  m.textContent = ta.value.slice(0, pos);
  var mark = m.appendChild(el("span", {}, "\u200b"));
  document.body.appendChild(m);
  var out = {top: mark.offsetTop - ta.scrollTop, left: mark.offsetLeft - ta.scrollLeft, height: mark.offsetHeight || parseFloat(cs.lineHeight) || 20};
  m.remove();
  return out;
}

function choose() {
  var b = menu.items[menu.active];
  if (!b) return;
  var ta = menu.ta, start = ta.selectionStart, end = ta.selectionEnd, s = menu.slash;
  if (s >= 0) { start = s; end = Math.max(end, s + 1 + menu.filter.length); }
  closeMenu();
  // An entry with a list opens it, from the space's "~/".
  if (b.list) {
    if (s >= 0) replace(ta, start, end, "", start);
    return fetch(location.pathname.replace(/^(\/app\/s\/[^/]+).*/, "$1/~/") + b.list).then(Q.ok).then(r => r.json()).then(l =>
      l.length ? openMenu(ta, -1, l, "Insert " + b.name) : say(ta, "Nothing to insert yet: add an OpenAPI specification to the organization.", true),
      () => say(ta, "The list could not be loaded. Try again.", true));
  }
  var md = b.markdown.replace(/\n$/, ""), around = blockAround(ta.value, start, end);
  replace(ta, start, end, around.pre + md + around.post, start + around.pre.length + md.length);
}

document.addEventListener("input", e => {
  var ta = e.target;
  if (!isMarkdown(ta)) return;
  var v = ta.value, p = ta.selectionStart;
  if (menu && menu.ta === ta && menu.slash >= 0) {
    var f = v.slice(menu.slash + 1, p);
    if (v.charAt(menu.slash) !== "/" || p <= menu.slash || /\s{2}|\n/.test(f)) { closeMenu(); return; }
    menu.filter = f;
    menu.active = 0;
    draw();
  } else if (e.inputType === "insertText" && e.data === "/" && p === ta.selectionEnd && v.charAt(p - 1) === "/" &&
      (p === 1 || v.charAt(p - 2) === "\n") && (p === v.length || v.charAt(p) === "\n")) {
    openMenu(ta, p - 1);
  }
});

// Keys, captured before the app's "Ctrl+K opens search".
document.addEventListener("keydown", e => {
  var ta = e.target, k = e.key;
  if (!isMarkdown(ta)) return;
  if (menu && menu.ta === ta) {
    // typed: opened by the button, typing filters it.
    var typed = menu.slash < 0, n = menu.items.length, handled = true;
    if (k === "ArrowDown" || k === "ArrowUp" || (typed && (k === "Home" || k === "End"))) {
      if (n) { menu.active = Q.step(k, menu.active, n, "ArrowUp", "ArrowDown"); draw(); }
    } else if (k === "Enter") {
      if (n) choose(); else closeMenu();
    } else if (k === "Escape" || k === "Tab") {
      closeMenu();
      handled = k === "Escape";
    } else if (typed && (k === "Backspace" || (k.length === 1 && !Q.mod(e) && !e.altKey))) {
      menu.filter = k === "Backspace" ? menu.filter.slice(0, -1) : menu.filter + k;
      menu.active = 0;
      draw();
    } else handled = false;
    if (handled) { e.preventDefault(); e.stopPropagation(); swallow = ta; }
    return;
  }
  if (!Q.mod(e) || e.altKey) return;
  k = k.toLowerCase();
  if (k === "v" && e.shiftKey) { plainPaste = ta; setTimeout(() => { plainPaste = null; }, 1000); return; }
  var m = MARKS.find(m => m.key === k && !!m.shift === e.shiftKey);
  if (m) {
    e.preventDefault();
    e.stopPropagation();
    toggleMark(ta, m);
  }
}, true);

// A key the menu took stays out of the text, even after a cancelled keydown.
var swallow = null;
document.addEventListener("beforeinput", e => {
  if (swallow && e.target === swallow) e.preventDefault();
  swallow = null;
}, true);
document.addEventListener("keyup", () => { swallow = null; }, true);

document.addEventListener("click", e => {
  var b = Q.up(e, ".md-toolbar button");
  if (!b) {
    if (menu && list && !list.contains(e.target) && e.target !== menu.ta) closeMenu();
    return;
  }
  var ta = document.getElementById(b.parentNode.dataset.mdFor);
  if (!ta) return;
  if (!b.hasAttribute("data-md-insert")) {
    MARKS.forEach(m => { if (m.id === b.dataset.mdMark) toggleMark(ta, m); });
  } else if (menu && menu.ta === ta) {
    closeMenu();
    ta.focus();
  } else openMenu(ta, -1);
});

document.addEventListener("focusout", e => {
  if (menu && e.target === menu.ta) setTimeout(() => { if (menu && document.activeElement !== menu.ta) closeMenu(); }, 150);
});
window.addEventListener("resize", () => { if (menu) place(); });

var plainPaste = null;

function placeholder(ta, text) {
  var n = 1, t = text;
  while (ta.value.indexOf(t) >= 0) t = text + " (" + (++n) + ")";
  var s = ta.selectionStart, e = ta.selectionEnd, around = blockAround(ta.value, s, e);
  replace(ta, s, e, around.pre + t + around.post, s + around.pre.length + t.length);
  return t;
}

// settle puts text for a placeholder, or removes its line.
function settle(ta, ph, text) {
  var v = ta.value, start = v.indexOf(ph);
  if (start < 0) {
    if (text) replace(ta, v.length, v.length, blockAround(v, v.length, v.length).pre + text);
    return;
  }
  var stop = start + ph.length;
  if (!text) {
    if (v.charAt(stop) === "\n") stop++;
    else if (start > 0 && v.charAt(start - 1) === "\n") start--;
  }
  var keep = ta.selectionStart, delta = text.length - (stop - start);
  replace(ta, start, stop, text);
  if (keep > stop) ta.setSelectionRange(keep + delta, keep + delta);
  else if (keep >= start) ta.setSelectionRange(start + text.length, start + text.length);
}

// fill puts a placeholder, then the Markdown answered or, on failure, kept.
async function fill(ta, text, req, done, kept, failed) {
  var ph = placeholder(ta, text);
  try {
    var r = await req, body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || "The server answered " + r.status + ".");
    if (typeof body.markdown !== "string") throw new Error("The server's answer held no Markdown.");
    settle(ta, ph, body.markdown.replace(/\n+$/, ""));
    say(ta, done, false);
  } catch (err) {
    settle(ta, ph, kept);
    say(ta, failed + err.message, true);
  }
}

function upload(ta, file) {
  var name = file.name || (file.type === "image/png" ? "image.png" : "file"), fd = new FormData();
  fd.append("file", file, name);
  say(ta, "Uploading " + name + "…", false);
  fill(ta, "Uploading " + name + "…", fetch(ta.dataset.upload, {method: "POST", body: fd}),
    "Uploaded " + name + ".", "", "Could not upload " + name + ": ");
}

function files(ta, dt) {
  if (!dt || !ta.hasAttribute("data-upload")) return [];
  if (dt.files && dt.files.length) return Array.from(dt.files);
  return Array.from(dt.items || []).filter(it => it.kind === "file").map(it => it.getAsFile()).filter(Boolean);
}

document.addEventListener("paste", e => {
  var ta = e.target, dt = e.clipboardData;
  if (!isMarkdown(ta)) return;
  var fs = files(ta, dt);
  if (fs.length) {
    e.preventDefault();
    fs.forEach(f => upload(ta, f));
    return;
  }
  if (plainPaste === ta) { plainPaste = null; return; }
  var html = dt && dt.getData("text/html");
  if (html && /<[a-z]/i.test(html) && ta.hasAttribute("data-convert")) {
    e.preventDefault();
    fill(ta, "Converting pasted content…", Q.post(ta.dataset.convert, {html}), "",
      dt.getData("text/plain") || "", "The pasted content was kept as plain text: ");
  }
});

document.addEventListener("dragover", e => {
  if (isMarkdown(e.target) && e.target.hasAttribute("data-upload") && e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files")) {
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }
});
document.addEventListener("drop", e => {
  var ta = e.target, fs = isMarkdown(ta) ? files(ta, e.dataTransfer) : [];
  if (!fs.length) return;
  e.preventDefault();
  ta.focus();
  fs.forEach(f => upload(ta, f));
});
})();
