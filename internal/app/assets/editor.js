// The editor: blocks of a page opened in place as Markdown, a page's
// Markdown mode with its live preview, and autosave for both. Every form
// it enhances works without it.
(function () {
"use strict";

var Q = window.Quire, el = Q.el, savers = [];

// post sends a form to the server as the editor's script.
function post(url, data) { return Q.post(url, data, {"X-Quire-Editor": "1"}); }

// answer reads a response as {res, json}, whatever its body.
function answer(res) {
  return res.text().then(function (t) {
    var j = {};
    try { j = JSON.parse(t); } catch (e) { j = {html: t}; }
    return {res: res, json: j};
  });
}

// Saver saves a text area's latest text about a second after typing
// stops and when it loses focus, one save at a time; a change made
// while a save is on its way is saved after it. Network failures are
// retried with growing waits, always with the latest text.
function Saver(area, status, send, saved, conflict) {
  this.area = area; this.status = status; this.send = send;
  this.saved = saved; this.conflict = conflict;
  this.dirty = false; this.busy = false; this.paused = false;
  this.timer = null; this.tries = 0; this.waiters = [];
  var s = this;
  area.addEventListener("input", function () { s.changed(); });
  area.addEventListener("blur", function () { if (s.dirty) s.flush(); });
  savers.push(this);
}
Saver.prototype.say = function (text) { this.status.textContent = text; };
Saver.prototype.changed = function () {
  this.dirty = true;
  if (!this.paused && !this.busy) this.say("Unsaved changes");
  this.later(1000);
};
Saver.prototype.later = function (ms) {
  var s = this;
  clearTimeout(this.timer);
  this.timer = setTimeout(function () { s.flush(); }, ms);
};
Saver.prototype.pending = function () { return this.dirty || this.busy; };
// whenSaved calls fn once nothing is left to save.
Saver.prototype.whenSaved = function (fn) {
  if (!this.pending()) { fn(); return; }
  this.waiters.push(fn);
  this.flush();
};
Saver.prototype.flush = function () {
  clearTimeout(this.timer);
  if (this.busy || this.paused || !this.dirty) return;
  var s = this, text = this.area.value;
  this.dirty = false; this.busy = true;
  this.say("Saving…");
  this.send(text).then(answer).then(function (o) {
    s.busy = false;
    var st = o.res.status;
    if (o.res.ok) {
      s.tries = 0;
      s.saved(o.json, text);
      if (s.dirty) { s.later(300); return; }
      s.say("Saved");
      var w = s.waiters; s.waiters = [];
      w.forEach(function (fn) { fn(); });
    } else if (st === 409) {
      s.dirty = true; s.paused = true;
      s.say("Conflict");
      s.conflict(o.json, text);
    } else if (st >= 500 || st === 429 || st === 408) {
      s.dirty = true; s.retry();
    } else {
      s.dirty = true; s.paused = true;
      s.say("Not saved: " + (o.json.error || o.res.statusText));
    }
  }, function () {
    s.busy = false; s.dirty = true; s.retry();
  });
};
Saver.prototype.retry = function () {
  this.say("Not saved — retrying");
  var wait = Math.min(30000, 1000 * Math.pow(2, this.tries));
  this.tries++;
  this.later(wait);
};
Saver.prototype.resume = function (saveNow) {
  this.paused = false;
  if (saveNow) { this.dirty = true; this.flush(); } else if (this.dirty) this.later(1000);
};
Saver.prototype.stop = function () {
  clearTimeout(this.timer);
  this.paused = true; this.dirty = false;
  var i = savers.indexOf(this);
  if (i >= 0) savers.splice(i, 1);
};

// Leaving with unsaved changes asks first.
window.addEventListener("beforeunload", function (e) {
  if (savers.some(function (s) { return s.pending(); })) { e.preventDefault(); e.returnValue = ""; }
});

// conflictBox shows both versions and the three ways out.
function conflictBox(j, mine, keep, take, edit) {
  var box = el("section", {"class": "edit-conflict", role: "alert"}, [
    el("h3", {}, j.gone ? "This block was removed meanwhile" : "Someone else changed this meanwhile"),
    el("p", {}, "Nothing was overwritten. Keep your version, take theirs, or edit yours and save it."),
    el("div", {"class": "conflict-versions"}, [
      el("div", {}, [el("h4", {}, "Their version"),
        j.gone ? el("p", {"class": "muted"}, "Removed.") : el("pre", {"class": "conflict-text"}, j.theirs || "")]),
      el("div", {}, [el("h4", {}, "Your version"), el("pre", {"class": "conflict-text"}, mine)])])]);
  box.appendChild(el("div", {"class": "actions"}, [["Keep mine", keep], ["Take theirs", take], ["Edit mine", edit]].map(function (b) {
    var btn = el("button", {type: "button", "class": "btn"}, b[0]);
    btn.addEventListener("click", function () { box.remove(); b[1](); });
    return btn;
  })));
  return box;
}

// keys gives a text area the editor's keyboard: Ctrl/Cmd+Enter saves,
// Escape cancels.
function keys(area, save, cancel) {
  area.setAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter Escape");
  area.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && Q.mod(e)) { e.preventDefault(); save(); }
    else if (e.key === "Escape") { e.preventDefault(); cancel(); }
  });
}

// Blocks edited in place, on a page whose edit bar names its edit
// address (data-edit-page).
var bar = document.querySelector("[data-edit-page]");
var page = bar && bar.getAttribute("data-edit-page");
var target = page && page.replace(/\/pages\/[^/]+$/, "");
var seq = 0;

function fragment(html) {
  var t = document.createElement("template");
  t.innerHTML = html;
  return Array.prototype.slice.call(t.content.children);
}

function markButtons(root) {
  root.querySelectorAll("a.block-edit").forEach(function (a) {
    a.setAttribute("role", "button");
    a.setAttribute("aria-expanded", "false");
  });
}

// BlockEditor edits the run of blocks els (key the first one's, base
// their version) or, with els empty, a new block after the block
// after ("" for the page's end), placed before the node at.
function BlockEditor(els, key, base, text, after, at) {
  var ed = this;
  this.els = els; this.key = key; this.base = base; this.original = text;
  this.after = after; this.saves = 0;
  var id = "block-editor-" + (++seq);
  var area = el("textarea", {id: id, name: "markdown", "class": "editor-text", rows: Math.min(20, Math.max(3, text.split("\n").length + 1)),
    "data-markdown": "", "data-upload": target + "/files", "data-convert": target + "/convert"});
  area.value = text;
  var form = el("form", {"class": "block-editor", method: "post", action: key ? page + "/blocks/" + encodeURIComponent(key) : page + "/blocks"},
    [el("label", {"for": id, "class": "visually-hidden"}, key ? "Markdown of the block" : "Markdown of the new block"), area]);
  var cancel = el("button", {type: "button", "class": "btn"}, "Cancel");
  var add = el("button", {type: "button", "class": "btn"}, "Add block below");
  var del = el("button", {type: "button", "class": "btn btn-danger"}, key ? "Delete block" : "Discard block");
  var status = el("span", {"class": "save-status", role: "status"});
  form.appendChild(el("div", {"class": "editor-bar"}, [el("button", {type: "submit", "class": "btn btn-primary"}, "Save"), cancel, add, del, status]));
  this.form = form; this.area = area; this.statusEl = status;
  var first = els[0] || at;
  first.parentNode.insertBefore(form, first);
  els.forEach(function (n) { n.hidden = true; });
  this.setExpanded(true);

  this.saver = new Saver(area, status, function (t) { return ed.send(t); },
    function (j) { ed.savedWith(j); }, function (j, mine) { ed.conflicted(j, mine); });
  form.addEventListener("submit", function (e) { e.preventDefault(); ed.done(); });
  cancel.addEventListener("click", function () { ed.cancel(); });
  add.addEventListener("click", function () { ed.addBelow(); });
  del.addEventListener("click", function () { ed.remove(); });
  keys(area, function () { ed.done(); }, function () { ed.cancel(); });
  area.focus();
}
BlockEditor.prototype.setExpanded = function (v) {
  this.els.forEach(function (n) {
    var a = n.querySelector("a.block-edit");
    if (a) a.setAttribute("aria-expanded", v ? "true" : "false");
  });
};
BlockEditor.prototype.send = function (text) {
  if (!this.key) {
    if (!text.trim()) return Promise.resolve(new Response("{}", {status: 200}));
    return post(page + "/blocks", {after: this.after, markdown: text});
  }
  return post(page + "/blocks/" + encodeURIComponent(this.key), {markdown: text, base: this.base, blocks: String(this.els.length)});
};
BlockEditor.prototype.savedWith = function (j) {
  if (!j.keys) return;
  this.saves++;
  var fresh = fragment(j.html || "");
  var anchor = this.els.length ? this.els[0] : this.form.nextSibling;
  var parent = this.form.parentNode;
  fresh.forEach(function (n) { n.hidden = true; parent.insertBefore(n, anchor); markButtons(n); });
  this.els.forEach(function (n) { n.remove(); });
  this.els = fresh;
  this.key = j.keys[0]; this.base = j.base;
  this.form.action = page + "/blocks/" + encodeURIComponent(this.key);
  this.setExpanded(true);
};
// drop removes the blocks being edited from the page.
BlockEditor.prototype.drop = function () {
  this.els.forEach(function (n) { n.remove(); });
  this.els = [];
};
BlockEditor.prototype.conflicted = function (j, mine) {
  var ed = this, s = this.saver;
  // mineWins keeps this text: as a new block if theirs was removed.
  var mineWins = function () {
    if (j.gone) { ed.key = ""; ed.drop(); ed.after = ed.previousKey(); } else ed.base = j.base;
  };
  var box = conflictBox(j, mine, function () { mineWins(); s.resume(true); }, function () {
    if (j.gone) { s.stop(); ed.drop(); ed.close(); return; }
    ed.base = j.base; ed.area.value = j.theirs; ed.original = j.theirs;
    s.resume(true);
  }, function () { mineWins(); s.resume(false); ed.area.focus(); });
  this.form.insertBefore(box, this.area);
  box.querySelector("button").focus();
};
BlockEditor.prototype.previousKey = function () {
  for (var n = this.form.previousElementSibling; n; n = n.previousElementSibling) {
    if (n.getAttribute("data-block")) return n.getAttribute("data-block");
  }
  return "";
};
BlockEditor.prototype.done = function () {
  var ed = this;
  this.saver.whenSaved(function () { ed.close(); });
};
BlockEditor.prototype.cancel = function () {
  var ed = this;
  this.saver.dirty = this.saves > 0 && this.area.value !== this.original;
  this.area.value = this.original;
  if (!this.saver.pending()) { this.close(); return; }
  this.saver.whenSaved(function () { ed.close(); });
};
BlockEditor.prototype.close = function () {
  this.saver.stop();
  this.setExpanded(false);
  this.els.forEach(function (n) { n.hidden = false; });
  var focus = this.els[0] && this.els[0].querySelector("a.block-edit");
  this.form.remove();
  if (focus) focus.focus();
};
BlockEditor.prototype.addBelow = function () {
  var ed = this;
  this.saver.whenSaved(function () {
    var last = ed.els[ed.els.length - 1];
    var after = last ? last.getAttribute("data-block") : ed.after;
    var next = last ? last.nextSibling : ed.form.nextSibling;
    var parent = ed.form.parentNode;
    ed.close();
    var hook = document.createTextNode("");
    parent.insertBefore(hook, next);
    new BlockEditor([], "", "", "", after, hook);
  });
};
BlockEditor.prototype.remove = function () {
  var ed = this;
  if (!this.key) { this.saver.stop(); this.form.remove(); return; }
  this.saver.stop();
  this.statusEl.textContent = "Deleting…";
  post(page + "/blocks/" + encodeURIComponent(this.key) + "/delete", {base: this.base, blocks: String(this.els.length)})
    .then(answer).then(function (o) {
      if (o.res.ok) { ed.drop(); ed.form.remove(); return; }
      ed.statusEl.textContent = o.res.status === 409 ? "Conflict: the block changed meanwhile; reload to see it" : "Not deleted: " + (o.json.error || o.res.statusText);
    }, function () { ed.statusEl.textContent = "Not deleted: the network failed; try again"; });
};

function openBlock(link) {
  var block = link.closest(".block");
  if (!block || block.hidden) return;
  var key = block.getAttribute("data-block");
  fetch(link.href, {headers: {"X-Quire-Editor": "1", "Accept": "application/json"}})
    .then(answer).then(function (o) {
      if (!o.res.ok) { window.location.href = link.href; return; }
      var els = [block];
      for (var i = 1, n = block.nextElementSibling; i < o.json.blocks && n; i++, n = n.nextElementSibling) els.push(n);
      new BlockEditor(els, key, o.json.base, o.json.markdown, "", null);
    }, function () { window.location.href = link.href; });
}

if (page) {
  markButtons(document);
  document.addEventListener("quire:updated", function (e) { markButtons(e.detail); });
  document.addEventListener("click", function (e) {
    var a = Q.up(e, "a.block-edit, a[data-add-block]");
    if (!a || Q.mod(e) || e.shiftKey) return;
    e.preventDefault();
    if (a.hasAttribute("data-add-block")) {
      var body = document.querySelector("main article .body");
      if (!body) return;
      var hook = document.createTextNode("");
      body.appendChild(hook);
      var blocks = body.querySelectorAll(":scope > .block");
      var last = blocks[blocks.length - 1];
      new BlockEditor([], "", "", "", last ? last.getAttribute("data-block") : "", hook);
      return;
    }
    openBlock(a);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === " " && e.target.matches && e.target.matches("a.block-edit")) { e.preventDefault(); e.target.click(); }
  });
}

// A page's Markdown mode: its preview follows the text, and the text
// saves itself.
var mform = document.querySelector("form[data-markdown-form]");
if (mform) {
  var area = mform.querySelector("textarea[name=markdown]");
  var baseIn = mform.querySelector("input[name=base]");
  var preview = mform.querySelector(".preview-body");
  var status = mform.querySelector(".save-status");
  var leave = mform.querySelector("a[data-page-url]");
  var previewURL = mform.getAttribute("data-preview");
  var original = area.value, saves = 0, asked = 0, shown = 0;
  var refresh = function () {
    var n = ++asked;
    post(previewURL, {markdown: area.value}).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (html) {
      if (html === null || n < shown) return;
      shown = n;
      preview.innerHTML = html;
    }, function () {});
  };
  area.addEventListener("input", Q.debounce(refresh, 250));
  var saver = new Saver(area, status, function (t) {
    return post(mform.action, {markdown: t, base: baseIn.value});
  }, function (j) { if (j.base) { baseIn.value = j.base; saves++; } }, function (j, mine) {
    var box = conflictBox(j, mine, function () {
      baseIn.value = j.base; saver.resume(true);
    }, function () {
      baseIn.value = j.base; area.value = j.theirs; original = j.theirs; saver.dirty = false; saver.resume(false);
      saver.say("Saved"); refresh();
    }, function () {
      baseIn.value = j.base; saver.resume(false); area.focus();
    });
    mform.insertBefore(box, mform.firstChild);
    box.querySelector("button").focus();
  });
  var finish = function () { saver.whenSaved(function () { saver.stop(); window.location.href = leave.href; }); };
  var cancel = function () {
    saver.dirty = saves > 0 && area.value !== original;
    area.value = original;
    finish();
  };
  mform.addEventListener("submit", function (e) {
    if (e.submitter && e.submitter.hasAttribute("formaction")) { e.preventDefault(); refresh(); return; }
    e.preventDefault(); finish();
  });
  leave.addEventListener("click", function (e) { e.preventDefault(); cancel(); });
  keys(area, finish, cancel);
}
})();
